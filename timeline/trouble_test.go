package timeline

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// logLines returns the lines of a corpus log that contain every one of has.
func logLines(t *testing.T, path string, has ...string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
next:
	for _, l := range strings.Split(string(data), "\n") {
		for _, h := range has {
			if !strings.Contains(l, h) {
				continue next
			}
		}
		out = append(out, l)
	}
	return out
}

// klogTime reads a v1.36.3 corpus line's klog time (the corpus is of 2026).
func klogTime(t *testing.T, line string) time.Time {
	t.Helper()
	f := strings.Fields(line)
	ts, err := time.Parse("0102 15:04:05.000000 2006", f[0][1:]+" "+f[1]+" 2026")
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func troubleOf(f Flow, stage, container string) *Trouble {
	for i := range f.Trouble {
		if t := &f.Trouble[i]; t.Stage == stage && t.Container == container {
			return t
		}
	}
	return nil
}

// TestRecoveredTroubleStaysVisible (issue #19, gap 9): a pod that got to
// Running past failed attempts says so, counted from the kubelet's own
// lines: one sandbox attempt per "CreatePodSandbox for pod failed"
// (kuberuntime_manager.go logs it once per failed SyncPod), the mount
// trouble from the first mount failure to "All volumes are attached and
// mounted", one attempt per FailedMount event (the volume manager's; the
// pod worker's "unmounted volumes" timeout reports the same failures).
func TestRecoveredTroubleStaysVisible(t *testing.T) {
	dir := filepath.Join(corpus, "v1.36.3")
	t.Run("04 sandbox", func(t *testing.T) {
		path := filepath.Join(dir, "04-sandbox-failure.log")
		f := onlyFlow(t, buildFile(t, path), "payments-7b4d9c8f6-q9zrt")
		failed := logLines(t, path, `"CreatePodSandbox for pod failed"`, "payments-7b4d9c8f6-q9zrt")
		first := logLines(t, path, `"Failed to create sandbox for pod"`, "payments-7b4d9c8f6-q9zrt")[0] // kuberuntime_sandbox.go, just before
		tr := troubleOf(f, StSandbox, "")
		if f.Verdict != VerdictRunning || tr == nil {
			t.Fatalf("%s, trouble %+v", f.Verdict, f.Trouble)
		}
		if tr.Attempts != len(failed) || !tr.Recovered || !tr.First.Equal(klogTime(t, first)) {
			t.Errorf("sandbox trouble %+v; the log has %d failed attempts, the first at %s", tr, len(failed), klogTime(t, first))
		}
		if want := "Running after 4 failed sandbox attempts: rpc error: code = Unknown desc = failed to setup network for sandbox"; len(failed) != 4 || !strings.HasPrefix(f.Reason, want) {
			t.Errorf("reason %q, want it to begin %q", f.Reason, want)
		}
	})
	t.Run("11 mount", func(t *testing.T) {
		path := filepath.Join(dir, "11-volume-mount-failure.log")
		f := onlyFlow(t, buildFile(t, path), "web-volfail-7f6b8-d4n8q")
		events := logLines(t, path, `reason="FailedMount"`, "web-volfail-7f6b8-d4n8q")
		firstErr := logLines(t, path, "nestedpendingoperations.go", "f0dd2e00-bb20-4a0d-8413-a79a5f9d0207", "failed")[0]
		mounted := logLines(t, path, "All volumes are attached and mounted", "web-volfail-7f6b8-d4n8q")[0]
		tr := troubleOf(f, StVolumes, "")
		if f.Verdict != VerdictRunning || tr == nil {
			t.Fatalf("%s, trouble %+v", f.Verdict, f.Trouble)
		}
		span := klogTime(t, mounted).Sub(klogTime(t, firstErr))
		if tr.Attempts != len(events) || time.Duration(tr.Lasted) != span || !tr.Last.Equal(klogTime(t, events[len(events)-1])) {
			t.Errorf("mount trouble %+v; the log has %d FailedMount events, the last at %s, and mounts %s after the first failure",
				tr, len(events), klogTime(t, events[len(events)-1]), span)
		}
		if want := `Running after 4m10s of FailedMount: MountVolume.SetUp failed for volume "config" : configmap "web-config-v3" not found`; f.Reason != want {
			t.Errorf("reason %q, want %q", f.Reason, want)
		}
	})
	t.Run("07 one sync, one attempt", func(t *testing.T) {
		// The runtime manager's ErrImagePull and the sync's "Error syncing
		// pod" 1.85 s later, after the pod's other containers started,
		// are one failed pull.
		path := filepath.Join(dir, "07-twenty-pods.log")
		f := onlyFlow(t, buildFile(t, path), "batch-worker-6c8d5f12-30ee6")
		if tr := troubleOf(f, CStImage, "nginx"); tr == nil || tr.Attempts != 1 || !tr.Recovered {
			t.Errorf("trouble %+v, want one recovered failed pull of nginx", f.Trouble)
		}
		if want := "Running after 1 failed pull attempt of container nginx: ErrImagePull: pull QPS exceeded"; f.Reason != want {
			t.Errorf("reason %q, want %q", f.Reason, want)
		}
	})
	t.Run("happy pods have none", func(t *testing.T) {
		for _, f := range buildFile(t, filepath.Join(dir, "01-happy-path.log")).Items {
			if len(f.Trouble) > 0 || f.Reason != "" {
				t.Errorf("%s: trouble %+v, reason %q", f.Pod.Name, f.Trouble, f.Reason)
			}
		}
	})
}

// TestDiagnosesReadWell: over every corpus pod, a diagnosis says no
// sentence twice, cuts no word before "…", counts in the right number,
// says a stage that never began never began, and leaves out the "in pod
// name_ns(uid)" the kubelet's messages carry.
func TestDiagnosesReadWell(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	if len(paths) < 20 {
		t.Fatalf("%d corpus logs", len(paths))
	}
	inPod := regexp.MustCompile(` in pod [^ ]+_[^ ]+\([0-9a-f-]+\)`)
	cutWord := regexp.MustCompile(`[^ ]…`)
	n := 0
	for _, path := range paths {
		for _, f := range buildFile(t, path).Items {
			d := f.Diagnosis
			n++
			seen := map[string]bool{}
			for _, s := range strings.Split(d, ". ") {
				// The same words with "Container x" or without are one
				// sentence said twice.
				key := regexp.MustCompile(`^(Container \S+ )?\S+ needed`).ReplaceAllString(s, "needed")
				if seen[key] {
					t.Errorf("%s %s: says twice %q: %s", path, f.Pod.Name, s, d)
				}
				seen[key] = true
			}
			switch {
			case cutWord.MatchString(d):
				t.Errorf("%s %s: a word cut before …: %s", path, f.Pod.Name, d)
			case strings.Contains(d, " 1 failed attempts"), strings.Contains(d, "1 times"):
				t.Errorf("%s %s: plural of one: %s", path, f.Pod.Name, d)
			case strings.Contains(d, "ends 0s into"):
				t.Errorf("%s %s: %s", path, f.Pod.Name, d)
			case inPod.MatchString(d):
				t.Errorf("%s %s: in pod name_ns(uid): %s", path, f.Pod.Name, d)
			case strings.Contains(d, ".."):
				t.Errorf("%s %s: doubled period: %s", path, f.Pod.Name, d)
			}
		}
	}
	if n < 40 {
		t.Errorf("%d pods", n)
	}
	// 13's cache pod: the root cause whole, its middle cut at words.
	f := onlyFlow(t, buildFile(t, filepath.Join(corpus, "v1.36.3", "13-container-create-error.log")), "cache-5b9c8d7f4-h7w3k")
	if !strings.HasSuffix(f.Diagnosis, "no space left on device.") || !strings.Contains(f.Diagnosis, " … ") {
		t.Errorf("diagnosis %q", f.Diagnosis)
	}
}

// TestTroubleWildLines: wild excerpts whose pods the kubelet names only in
// cut errors, or whose recovery only the runtime tells.
func TestTroubleWildLines(t *testing.T) {
	for _, tc := range []struct {
		name, log         string
		pod               string
		verdict, stalled  Verdict
		stalledAt, reason string
	}{{
		// sealos-2012: the sync error's pod field is cut away; its
		// CreatePodSandbox step names the pod (format.Pod) whole.
		name:      "sealos-2012 cut sync error, whole target",
		log:       `E1102 19:12:08.247775    8347 pod_workers.go:965] "Error syncing pod, skipping" err="failed to \"CreatePodSandbox\" for \"etcd-cp-node1_kube-system(39331450e9847ee0dce70d380a0e5407)\" with CreatePodSandboxError: \"Failed to create sandbox f` + "\n",
		pod:       "etcd-cp-node1",
		verdict:   VerdictStalled,
		stalledAt: StSandbox,
		reason:    "CreatePodSandboxError",
	}, {
		// kubeadm-3100: cut in the target's namespace, before its reason:
		// the step alone says CreatePodSandboxError.
		name:      "kubeadm-3100 cut in the target",
		log:       `Aug 22 17:14:33 dc2-node kubelet[19457]: E0822 17:14:33.608768   19457 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"CreatePodSandbox\" for \"kube-apiserver-dc2-node_kube` + "\n",
		pod:       "kube-apiserver-dc2-node",
		verdict:   VerdictStalled,
		stalledAt: StSandbox,
		reason:    "CreatePodSandbox",
	}, {
		// sriov-555: cut by the pager in its reason; the kubelet fails
		// the CreatePodSandbox step only with CreatePodSandboxError.
		name:      "sriov-555 cut in the reason",
		log:       " 5월 03 18:40:16 edge01 kubelet[4877]: E0503 18:40:16.702886    4877 pod_workers.go:1298] \"Error syncing pod, skipping\" err=\"failed to \\\"CreatePodSandbox\\\" for \\\"sriov-pod-1_default(1e6d7afe-edf7-463a-b08d-2e0dd872bd61)\\\" with CreatePodSandbox>\n",
		pod:       "sriov-pod-1",
		verdict:   VerdictStalled,
		stalledAt: StSandbox,
		reason:    "CreatePodSandbox",
	}, {
		// kubeadm-2853: a pager cut the line in the pod's name, which ends
		// in the node's: a static pod's whole name (generatePodName).
		name:      "kubeadm-2853 static pod name cut at the node's",
		log:       `Apr 05 09:12:43 kube-main1 kubelet[51736]: E0405 09:12:43.879031   51736 pod_workers.go:965] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"etcd\" with CrashLoopBackOff: \"back-off 5m0s restarting failed container=etcd pod=etcd-kube-main1>` + "\n",
		pod:       "etcd-kube-main1",
		verdict:   VerdictFailed,
		stalledAt: StRunning,
		reason:    "CrashLoopBackOff",
	}, {
		// containerd-12438: the kubelet's lines are cut in the error, the
		// sync error's the most; the CRI client's names containerd's
		// sandbox name, and its error is the root cause.
		name: "containerd-12438 reserved sandbox name",
		log: `Oct 29 12:58:06 node kubelet[6124]: E1029 12:58:06.912297    6124 kuberuntime_manager.go:1168] "CreatePodSandbox for pod failed" err="rpc error: code = DeadlineExceeded desc = context deadline exceeded" pod="observe-tenant-01/metricbeat-collector-7vx4n"` + "\n" +
			`Oct 29 12:58:07 node kubelet[6124]: E1029 12:58:07.693205    6124 remote_runtime.go:193] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to reserve sandbox name \"metricbeat-collector-7vx4n_observe-tenant-01_8f8bfa82-01a1-4814-9100-3c0c236f8993_0\": >` + "\n" +
			`Oct 29 12:58:07 node kubelet[6124]: E1029 12:58:07.693335    6124 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"CreatePodSandbox\" for \"metricbeat-collector-7vx4n_observe-tenant-01(8f8bfa82-01a1-4814-9100-3c0c236f8993)\" with CreatePodSandboxError: \"Failed to create >` + "\n",
		pod:       "metricbeat-collector-7vx4n",
		verdict:   VerdictStalled,
		stalledAt: StSandbox,
		reason:    "failed to reserve sandbox name",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := onlyFlow(t, buildBytes(t, "wild.log", []byte(tc.log)), tc.pod)
			if f.Verdict != tc.verdict || f.StalledAt != tc.stalledAt || !strings.Contains(f.Reason, tc.reason) {
				t.Errorf("%s at %q: %q; want %s at %q: …%s…", f.Verdict, f.StalledAt, f.Reason, tc.verdict, tc.stalledAt, tc.reason)
			}
		})
	}
}
