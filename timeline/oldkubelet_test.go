package timeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// legacyLog rewrites a structured log in the ≤1.20 printf forms
// (legacyRender), dropping the lines a ≤1.20 kubelet did not write.
func legacyLog(t *testing.T, path string, uids map[string]string, oldEvents bool) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, line := range bytes.Split(data, []byte("\n")) {
		r := parser.NewReader(bytes.NewReader(line), parser.Options{Year: 2026})
		rec, err := r.Next()
		if err != nil || rec.Format != parser.FormatKlog {
			continue
		}
		ref, _ := recordRef(rec)
		if v, ok := rec.Field("object"); ok {
			ref, _ = refFromValue(v)
		}
		if ref.Name == "" {
			if v, ok := rec.Field("pods"); ok {
				if refs := refsFromList(v); len(refs) == 1 {
					ref = refs[0]
				}
			}
		}
		header := string(line[:bytes.Index(line, []byte("] "))+2])
		text, ok := legacyRender(header, rec, uids[ref.Key()])
		if !ok {
			continue
		}
		if text == "" {
			text = string(line)
			if oldEvents && rec.Msg == "Event occurred" {
				// client-go record/event.go StartLogging (≤1.18).
				text = header + fmt.Sprintf(`Event(v1.ObjectReference{Kind:%q, Namespace:%q, Name:%q, UID:%q, APIVersion:"v1", ResourceVersion:"1", FieldPath:%q}): type: '%s' reason: '%s' %s`,
					rec.Str("kind"), ref.Namespace, ref.Name, uids[ref.Key()], rec.Str("fieldPath"), rec.Str("type"), rec.Str("reason"), rec.Str("message"))
			}
		}
		out.WriteString(text + "\n")
	}
	return out.Bytes()
}

// TestLegacyPrintfCorpus replays every v1.36.3 corpus log in the forms a
// ≤1.20 kubelet wrote (printf payloads, the PLEG event as %#v, kill lines
// that name only the container's runtime ID, probe lines with
// "name_ns(uid):container"), with events as "Event occurred" (1.19, 1.20)
// and as StartLogging's Event(v1.ObjectReference{…}) (≤1.18): each pod
// must end as it does in the structured log. Lines only 1.21+ kubelets
// write are dropped, so this is what an old kubelet's log of the same
// story holds.
func TestLegacyPrintfCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "v1.36.3/*.log"))
	if len(files) < 10 {
		t.Fatalf("%d corpus logs", len(files))
	}
	for _, path := range files {
		if filepath.Base(path) == "08-happy-path-json-v4.log" {
			continue // the JSON format is 1.19+ and structured
		}
		structured := buildFile(t, path)
		uids := map[string]string{}
		for _, f := range structured.Items {
			uids[f.Pod.Key()] = f.Pod.UID
		}
		for _, oldEvents := range []bool{false, true} {
			legacy := buildBytes(t, path+".legacy", legacyLog(t, path, uids, oldEvents))
			got := map[string]string{}
			for _, f := range legacy.Items {
				got[f.Pod.Key()] += fmt.Sprint(f.Verdict, "/", f.StalledAt, "/", f.Container, "/", f.ContainerStage, " ")
			}
			for _, f := range structured.Items {
				want := fmt.Sprint(f.Verdict, "/", f.StalledAt, "/", f.Container, "/", f.ContainerStage, " ")
				if filepath.Base(path) == "06b-static-pod-add-remove.log" && f.Verdict == VerdictTerminated {
					// ≤1.20 has no "Pod termination stopped all running
					// containers": what shows a static pod stopped then is
					// PLEG's ContainerDied, termination's to read.
					want = "Terminating/stopped// "
				}
				if got[f.Pod.Key()] != want {
					t.Errorf("%s %s (old events %v): legacy %q, structured %q", filepath.Base(path), f.Pod.Key(), oldEvents, got[f.Pod.Key()], want)
				}
			}
		}
	}
}

// TestOldKubeletLines reads lines of ≤1.20 kubelets from the wild corpus
// (testdata/wild), each case what the kubelet source says the lines mean
// and what the thread concluded.
func TestOldKubeletLines(t *testing.T) {
	type want struct {
		name, ns, verdict, stalledAt, container, containerStage, reason string
	}
	for _, tc := range []struct {
		name  string
		lines string
		want  []want
	}{{
		// minikube#322: dockertools runs the sandbox as the pod infra
		// container, named POD (docker_manager.go); its pause image
		// cannot be pulled, so the pod never gets a sandbox.
		name: "infra container is the sandbox",
		lines: `E0713 09:48:51.865903    1826 pod_workers.go:183] Error syncing pod a2a7ef7011aced86a2a8ce8e2e8ca664, skipping: failed to "StartContainer" for "POD" with ImagePullBackOff: "Back-off pulling image \"gcr.io/google_containers/pause-amd64:3.0\""
E0713 09:49:06.865375    1826 docker_manager.go:1955] Failed to create pod infra container: ImagePullBackOff; Skipping pod "kube-addon-manager-minikubevm_kube-system(a2a7ef7011aced86a2a8ce8e2e8ca664)": Back-off pulling image "gcr.io/google_containers/pause-amd64:3.0"
E0713 09:49:06.865423    1826 pod_workers.go:183] Error syncing pod a2a7ef7011aced86a2a8ce8e2e8ca664, skipping: failed to "StartContainer" for "POD" with ImagePullBackOff: "Back-off pulling image \"gcr.io/google_containers/pause-amd64:3.0\""
E0713 09:59:57.865990    1826 docker_manager.go:1955] Failed to create pod infra container: ImagePullBackOff; Skipping pod "kube-addon-manager-minikubevm_kube-system(a2a7ef7011aced86a2a8ce8e2e8ca664)": Back-off pulling image "gcr.io/google_containers/pause-amd64:3.0"
E0713 09:59:57.866041    1826 pod_workers.go:183] Error syncing pod a2a7ef7011aced86a2a8ce8e2e8ca664, skipping: failed to "StartContainer" for "POD" with ImagePullBackOff: "Back-off pulling image \"gcr.io/google_containers/pause-amd64:3.0\""
`,
		want: []want{{name: "kube-addon-manager-minikubevm", ns: "kube-system", verdict: "Stalled", stalledAt: "sandbox", reason: "pause"}},
	}, {
		// kubernetes#30363: docker times out creating the infra container.
		name: "infra container timeout",
		lines: `I0810 03:19:44.757434    3561 kubelet.go:2182] SyncLoop (ADD, "api"): "load-small-rc-41-k3w8p_e2e-tests-load-30-nodepods-1-h7d2q(2c3a941e-1be8-4463-ac5c-6c939db79987)"
I0810 03:19:45.058170    3561 docker_manager.go:1797] Need to restart pod infra container for "load-small-rc-41-k3w8p_e2e-tests-load-30-nodepods-1-h7d2q(2c3a941e-1be8-4463-ac5c-6c939db79987)" because it is not found
E0810 03:21:45.127201    3561 docker_manager.go:2010] Failed to create pod infra container: RunContainerError; Skipping pod "load-small-rc-41-k3w8p_e2e-tests-load-30-nodepods-1-h7d2q(2c3a941e-1be8-4463-ac5c-6c939db79987)": runContainer: operation timeout: context deadline exceeded
I0810 03:21:57.884813    3561 docker_manager.go:1797] Need to restart pod infra container for "load-small-rc-41-k3w8p_e2e-tests-load-30-nodepods-1-h7d2q(2c3a941e-1be8-4463-ac5c-6c939db79987)" because it is not found
`,
		want: []want{{name: "load-small-rc-41-k3w8p", ns: "e2e-tests-load-30-nodepods-1-h7d2q", verdict: "Stalled", stalledAt: "sandbox", reason: "timeout"}},
	}, {
		// derek0377/k8s#5 (1.1): podFullName is name_ns, no UID; the
		// pod_workers line names the pod by its UID alone, which no
		// line ties to a name: a pod of its own, named by the UID.
		name: "name_ns without UID",
		lines: `E0126 15:22:39.585293   14206 manager.go:1557] Failed to create pod infra container: no such image; Skipping pod "redis-master-8w1pz_default"
E0126 15:22:39.585457   14206 pod_workers.go:111] Error syncing pod 8a2b8a31-f47a-43c9-b5f0-e7841e737b04, skipping: image pull failed for gcr.io/google_containers/pause:0.8.0
`,
		want: []want{{name: "redis-master-8w1pz", ns: "default", verdict: "Stalled", stalledAt: "sandbox", reason: "no such image"},
			{name: "8a2b8a31-f47a-43c9-b5f0-e7841e737b04"}},
	}, {
		// kubernetes#30710: "Error syncing pod <uid>" names the pod by
		// its UID (pod_workers.go ≤1.4); no other line names it.
		name: "bare UID",
		lines: `E0816 17:52:50.954462   51302 pod_workers.go:184] Error syncing pod fc6b559e-d9e7-4e2e-abfa-b3bff5d41ed5, skipping: failed to "StartContainer" for "web" with ErrImagePull: "image pull failed for unknown error"
`,
		want: []want{{name: "fc6b559e-d9e7-4e2e-abfa-b3bff5d41ed5", verdict: "Stalled", stalledAt: "containers", container: "web", containerStage: "image", reason: "unknown error"}},
	}, {
		// A bare UID first, its name later (minikube#1819's form).
		name: "bare UID named later",
		lines: `E0813 09:37:56.177811    3752 pod_workers.go:182] Error syncing pod 90350d962d467f3757d3dab93f6eccfc, skipping: failed to "StartContainer" for "kube-addon-manager" with ImagePullBackOff: "Back-off pulling image \"gcr.io/google-containers/kube-addon-manager:v6.4-beta.2\""
E0813 09:38:56.177811    3752 pod_workers.go:182] Error syncing pod 90350d962d467f3757d3dab93f6eccfc ("kube-addon-manager-minikube_kube-system(90350d962d467f3757d3dab93f6eccfc)"), skipping: failed to "StartContainer" for "kube-addon-manager" with ImagePullBackOff: "Back-off pulling image \"gcr.io/google-containers/kube-addon-manager:v6.4-beta.2\""
`,
		want: []want{{name: "kube-addon-manager-minikube", ns: "kube-system"}},
	}, {
		// kubernetes#21029 (1.2): events as StartLogging wrote them.
		name: "StartLogging events",
		lines: `I0211 02:41:08.653240    4127 server.go:570] Event(api.ObjectReference{Kind:"Pod", Namespace:"e2e-tests-services-x7k2m", Name:"service1-q4m8z", UID:"756ba2b8-e823-44b0-a817-2ff6d204af34", APIVersion:"v1", ResourceVersion:"7519", FieldPath:"spec.containers{service1}"}): type: 'Normal' reason: 'Pulling' pulling image "gcr.io/google_containers/serve_hostname:1.1"
I0211 02:43:11.527087    4127 server.go:570] Event(api.ObjectReference{Kind:"Pod", Namespace:"e2e-tests-services-x7k2m", Name:"service1-q4m8z", UID:"756ba2b8-e823-44b0-a817-2ff6d204af34", APIVersion:"v1", ResourceVersion:"7519", FieldPath:"spec.containers{service1}"}): type: 'Normal' reason: 'Pulled' Successfully pulled image "gcr.io/google_containers/serve_hostname:1.1"
`,
		want: []want{{name: "service1-q4m8z", ns: "e2e-tests-services-x7k2m", verdict: "Incomplete"}},
	}, {
		// kubernetes#9822 (0.19): lower-case reasons, no type, and the
		// start error of a static pod's container.
		name: "0.19 start error",
		lines: `E0615 19:27:54.719591    2671 manager.go:1491] Error running pod "kube-apiserver-gke-502913847716-7e2d9b1c04f8a6e35d21_default" container "kube-apiserver": API error (500): Cannot start container 83bd16947413a6ad69244184aebd5658be7e9814e6e9be7ce1a10da6a0f9345f: [8] System error: read parent: connection reset by peer
I0615 19:27:54.719648    2671 event.go:203] Event(api.ObjectReference{Kind:"Pod", Namespace:"default", Name:"kube-apiserver-gke-502913847716-7e2d9b1c04f8a6e35d21", UID:"4767d20b97d4310c0da6fea2fc1c8159", APIVersion:"v1", ResourceVersion:"", FieldPath:"spec.containers{kube-apiserver}"}): reason: 'failed' Failed to start with docker id 83bd16947413a6ad69244184aebd5658be7e9814e6e9be7ce1a10da6a0f9345f with error: API error (500): Cannot start container 83bd16947413a6ad69244184aebd5658be7e9814e6e9be7ce1a10da6a0f9345f: [8] System error: read parent: connection reset by peer
`,
		want: []want{{name: "kube-apiserver-gke-502913847716-7e2d9b1c04f8a6e35d21", ns: "default", verdict: "Stalled", stalledAt: "containers", container: "kube-apiserver", containerStage: "started", reason: "connection reset by peer"}},
	}, {
		// deckhouse#336 (1.20): the pod killer names the pod by its name
		// alone (kubelet_pods.go runningPod.Name); the kill line by the
		// container's runtime ID (kuberuntime_container.go). The
		// replacement is another pod.
		name: "killing unwanted pod",
		lines: `I1130 14:27:18.827604 2094422 kubelet_pods.go:1247] Killing unwanted pod "upmeter-control-plane-scheduler-5b09f3c1-qzt7n"
I1130 14:27:18.837951 2094422 kuberuntime_container.go:635] Killing container "docker://a84bd2431a613bb999b384aaec75292a16e12367f39fe3ef0dfd3ca233dc9ada" with a 30 second grace period
I1130 14:27:36.963154 2094422 kubelet.go:1856] SyncLoop (ADD, "api"): "upmeter-control-plane-scheduler-5b09f3c1-m2w8d_d8-upmeter(482b3a81-7986-4a12-8465-5580d55927c7)"
`,
		want: []want{{name: "upmeter-control-plane-scheduler-5b09f3c1-qzt7n", verdict: "Terminating"},
			{name: "upmeter-control-plane-scheduler-5b09f3c1-m2w8d", ns: "d8-upmeter"}},
	}, {
		// A ≤1.20 kill line names the container's runtime ID alone: the
		// pod is the one PLEG tied that ID to; the pod killer's name
		// alone finds the pod known by its whole name.
		name: "kill by runtime ID",
		lines: `I1130 14:20:00.000000    2094 kubelet.go:1856] SyncLoop (ADD, "api"): "web-5b09f3c1-qzt7n_shop(482b3a81-7986-4a12-8465-5580d55927c7)"
I1130 14:20:01.000000    2094 kubelet.go:1890] SyncLoop (PLEG): "web-5b09f3c1-qzt7n_shop(482b3a81-7986-4a12-8465-5580d55927c7)", event: &pleg.PodLifecycleEvent{ID:"482b3a81-7986-4a12-8465-5580d55927c7", Type:"ContainerStarted", Data:"f00b2444eb9228cdf7eb7714e442deb411b4aa50e13cf4076c4c7ee6afe8a020"}
I1130 14:20:02.000000    2094 kubelet.go:1890] SyncLoop (PLEG): "web-5b09f3c1-qzt7n_shop(482b3a81-7986-4a12-8465-5580d55927c7)", event: &pleg.PodLifecycleEvent{ID:"482b3a81-7986-4a12-8465-5580d55927c7", Type:"ContainerStarted", Data:"a84bd2431a613bb999b384aaec75292a16e12367f39fe3ef0dfd3ca233dc9ada"}
I1130 14:27:18.827604    2094 kubelet_pods.go:1247] Killing unwanted pod "web-5b09f3c1-qzt7n"
I1130 14:27:18.837951    2094 kuberuntime_container.go:635] Killing container "docker://f00b2444eb9228cdf7eb7714e442deb411b4aa50e13cf4076c4c7ee6afe8a020" with a 30 second grace period
`,
		want: []want{{name: "web-5b09f3c1-qzt7n", ns: "shop", verdict: "Terminating"}},
	}, {
		// openshift/release#1169 (1.10): the prober names the container
		// as name_ns(uid):container; the line reaches that container.
		name: "probe line",
		lines: `I0809 18:05:47.591753   21377 prober.go:106] Liveness probe for "webconsole-6d9c7b5f4d-x2wq8_openshift-web-console(b6462bcd-3af5-43cc-b559-0a2581073801):webconsole" errored: rpc error: code = DeadlineExceeded desc = context deadline exceeded
`,
		want: []want{{name: "webconsole-6d9c7b5f4d-x2wq8", ns: "openshift-web-console"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildBytes(t, "old.log", []byte(tc.lines))
			if len(fl.Items) != len(tc.want) {
				t.Errorf("%d pods, want %d: %v", len(fl.Items), len(tc.want), flowKeys(fl))
			}
			for _, w := range tc.want {
				f := onlyFlow(t, fl, w.name)
				// What the case does not name is left to the judge.
				keep := func(got, want string) string {
					if want == "" {
						return ""
					}
					return got
				}
				got := want{name: f.Pod.Name, ns: f.Pod.Namespace, verdict: keep(string(f.Verdict), w.verdict), stalledAt: keep(f.StalledAt, w.stalledAt),
					container: keep(f.Container, w.container), containerStage: keep(f.ContainerStage, w.containerStage), reason: w.reason}
				if !strings.Contains(f.Reason, w.reason) {
					t.Errorf("%s: reason %q lacks %q", w.name, f.Reason, w.reason)
				}
				if got != w {
					t.Errorf("got  %+v\nwant %+v", got, w)
				}
				if s := stageOf(f, StTerminating); w.name == "web-5b09f3c1-qzt7n" && (s.Status != StatusDone || len(s.Evidence) < 2) {
					t.Errorf("the kill line by runtime ID did not reach the pod: %+v", s)
				}
				if w.name == "webconsole-6d9c7b5f4d-x2wq8" && (len(f.Containers) != 1 || f.Containers[0].Name != "webconsole" || f.Pod.UID != "b6462bcd-3af5-43cc-b559-0a2581073801") {
					t.Errorf("the probe line did not reach its container: %+v %+v", f.Pod, f.Containers)
				}
				if w.name == "kube-addon-manager-minikube" {
					if len(f.Containers) != 1 || f.Containers[0].Name != "kube-addon-manager" || f.Containers[0].PullBackOffs != 2 {
						t.Errorf("containers %+v", f.Containers)
					}
				}
			}
		})
	}
}

func flowKeys(fl *FlowList) []string {
	var out []string
	for _, f := range fl.Items {
		out = append(out, f.Pod.Key()+"="+string(f.Verdict))
	}
	return out
}
