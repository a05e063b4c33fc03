package timeline

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// The fallback (fallback.go) on lines no marker reads, one rendering of
// the pod each: reconstructions of kubelet lines (the templates and keys
// of the kubelet source, values replaced), as an excerpt gives them alone.
func TestFallbackNamesThePod(t *testing.T) {
	const uid = "5b1e7c2a-9d4f-4e3b-8a6c-2f0d1e9b7a44"
	for _, tc := range []struct {
		name string
		line string
		pod  PodRef // Name "" and UID set: the pod is shown by its UID
		// reason holds these words; "" for none.
		reason string
	}{
		{name: "pod= key (config.go 1.36)",
			line: `I1122 06:03:25.671184   21321 config.go:326] "Receiving a new pod" pod="default/web-7d9f8c6b5-x2kqp"`,
			pod:  PodRef{Namespace: "default", Name: "web-7d9f8c6b5-x2kqp"}},
		{name: "pods=[…] list",
			line: `I1122 06:03:25.671345   21321 kubelet.go:2740] "SyncLoop (probe-ish) unknown" pods=["shop/cart-6c9d7b8f5-pq2rs"]`,
			pod:  PodRef{Namespace: "shop", Name: "cart-6c9d7b8f5-pq2rs"}},
		{name: "podName and podNamespace keys",
			line: `I1122 06:03:26.001671   21321 memory_manager.go:271] "Memory affinity" podName="db-0" podNamespace="data" containerName="db"`,
			pod:  PodRef{Namespace: "data", Name: "db-0"}},
		{name: "JSON pod object",
			line: `{"ts":1763791405671.2,"caller":"topologymanager/scope.go:120","msg":"Topology Admit Handler","v":0,"pod":{"name":"gpu-job-7x2kq","namespace":"ml"}}`,
			pod:  PodRef{Namespace: "ml", Name: "gpu-job-7x2kq"}},
		{name: "printf format.Pod",
			line: `I0713 07:02:51.865903    1742 kubelet_pods.go:1102] Determined pod ip after infra change: "api-5f7d9c8b6-r2v4n_prod(` + uid + `)": "10.1.4.17"`,
			pod:  PodRef{Namespace: "prod", Name: "api-5f7d9c8b6-r2v4n", UID: uid}},
		{name: "volume manager pod (UID:)",
			line: `I0713 07:02:52.101223    1742 operation_generator.go:556] MountVolume.WaitForAttach entering for volume "pvc-3f1e" (UniqueName: "kubernetes.io/csi/ebs^vol-0a1b") pod "mongo-0" (UID: "` + uid + `") DevicePath ""`,
			pod:  PodRef{Name: "mongo-0", UID: uid}},
		{name: "sandbox name k8s_POD_",
			line: `E0713 07:02:53.310552    1742 remote_runtime.go:128] StopPodSandbox "k8s_POD_worker-6b8f9d7c5-j4k2m_batch_` + uid + `_0" from runtime service failed: rpc error: code = DeadlineExceeded`,
			pod:  PodRef{Namespace: "batch", Name: "worker-6b8f9d7c5-j4k2m", UID: uid}, reason: "DeadlineExceeded"},
		{name: "container log directory",
			line: `E0713 07:02:54.400118    1742 kuberuntime_container.go:244] Failed to create symbolic link to the log file: symlink /var/log/pods/web_front-7c8d9f6b5-x1y2z_` + uid + `/front/0.log /var/log/containers/front.log: file exists`,
			pod:  PodRef{Namespace: "web", Name: "front-7c8d9f6b5-x1y2z", UID: uid}, reason: "file exists"},
		{name: "volume path, error, named nowhere",
			line: `E1122 06:03:31.118201   21321 volume_linux.go:123] "Perform recursive ownership change for directory failed" err="lchown: operation not permitted" path="/var/lib/kubelet/pods/` + uid + `/volumes/kubernetes.io~csi/pvc-9/mount"`,
			pod:  PodRef{UID: uid}, reason: "never named"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildLines(t, tc.line)
			if len(fl.Items) != 1 {
				t.Fatalf("%d pods, want 1: %+v", len(fl.Items), fl.Items)
			}
			f := fl.Items[0]
			want := tc.pod
			if want.Name == "" {
				want.Name = want.UID // shown by its UID
			}
			if f.Pod != want {
				t.Errorf("pod %+v, want %+v", f.Pod, want)
			}
			if f.Verdict != VerdictIncomplete {
				t.Errorf("verdict %s: one line proves no more than that the pod exists", f.Verdict)
			}
			if tc.reason == "" && f.Reason != "" && tc.pod.Name != "" {
				t.Errorf("reason %q, want none", f.Reason)
			}
			if !strings.Contains(f.Reason, tc.reason) {
				t.Errorf("reason %q, want it to hold %q", f.Reason, tc.reason)
			}
		})
	}
}

// A pod named by its UID alone is the pod a later line names with that
// UID; a routine line naming a UID alone starts no pod.
func TestFallbackJoinsUIDToName(t *testing.T) {
	const uid = "0d24a542-3a68-48f5-be4a-f977f9e0da03"
	lines := []string{
		`E1122 06:05:35.503556   25019 volume_linux.go:123] "Perform recursive ownership change for directory failed" err="lchown: read-only file system" path="/var/lib/kubelet/pods/` + uid + `/volumes/kubernetes.io~empty-dir/cache"`,
		`I1122 06:05:35.514083   25019 pod_workers.go:796] "Pod is being synced for the first time" pod="default/api-6f5b9d7c4-pl8wz" podUID="` + uid + `" updateType="create"`,
	}
	fl := buildLines(t, lines...)
	if len(fl.Items) != 1 || fl.Items[0].Pod.Name != "api-6f5b9d7c4-pl8wz" || fl.Items[0].Pod.UID != uid {
		t.Fatalf("pods %+v, want api-6f5b9d7c4-pl8wz with its UID", fl.Items)
	}
	if !strings.Contains(fl.Items[0].Reason, "read-only file system") {
		t.Errorf("reason %q: the error line is the pod's trouble", fl.Items[0].Reason)
	}
	routine := buildLines(t, `I1122 06:26:20.864058   12052 kuberuntime_gc.go:346] "Removing pod logs" podUID="`+uid+`"`)
	if len(routine.Items) != 0 {
		t.Errorf("a routine line naming a UID alone made pods %+v", routine.Items)
	}
}

// A line naming a pod by its name alone finds the pod of that name, and
// the same name in two namespaces is neither's.
func TestFallbackNameAlone(t *testing.T) {
	add := func(ns string) string {
		return `I1122 06:03:25.671345   21321 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["` + ns + `/web-7d9f8c6b5-x2kqp"]`
	}
	alone := `E1122 06:03:26.001671   21321 cpu_manager.go:401] "Static policy refused the pod" err="not enough cpus available" podName="web-7d9f8c6b5-x2kqp"`
	fl := buildLines(t, add("default"), alone)
	if len(fl.Items) != 1 {
		t.Fatalf("%d pods, want the one: %+v", len(fl.Items), fl.Items)
	}
	if !strings.Contains(fl.Items[0].Reason, "not enough cpus") {
		t.Errorf("reason %q, want the error of the line naming it", fl.Items[0].Reason)
	}
	fl = buildLines(t, add("default"), add("other"), alone)
	if len(fl.Items) != 2 {
		t.Fatalf("%d pods, want the two the sync loop added", len(fl.Items))
	}
}

// A name and its namespace in two keys name the pod of both: the same
// name in two namespaces is two pods, however few lines name them.
func TestFallbackSameNameTwoNamespaces(t *testing.T) {
	line := func(ns string) string {
		return `I1122 06:03:26.001671   21321 memory_manager.go:271] "Memory affinity" podName="db-0" podNamespace="` + ns + `" containerName="db"`
	}
	fl := buildLines(t, line("data"), line("other"))
	if len(fl.Items) != 2 || fl.Items[0].Pod.Key() == fl.Items[1].Pod.Key() {
		t.Fatalf("pods %+v, want data/db-0 and other/db-0", fl.Items)
	}
}

// A failure that names no pod is unattributed, unless a pod's reason
// holds its error (the layer below the line that names the pod).
func TestFallbackUnattributedFailures(t *testing.T) {
	node := `E1122 06:03:20.229607   21321 eviction_manager.go:292] "Eviction manager: failed to synchronize" err="eviction manager: failed to get HasDedicatedImageFs: imagefs device is not found"`
	fl := buildLines(t, node)
	if fl.Summary.Unattributed != 1 || len(fl.Unattributed) != 1 || !strings.Contains(fl.Unattributed[0].Text, "imagefs device is not found") {
		t.Errorf("unattributed %d %+v, want the eviction manager's failure", fl.Summary.Unattributed, fl.Unattributed)
	}
	// minikube-9118's layers: kuberuntime_manager.go names no pod, the
	// sync error after it does.
	data, err := os.ReadFile(filepath.Join(wild, "minikube-9118-pull-denied.log"))
	if err != nil {
		t.Fatal(err)
	}
	fl = buildBytes(t, "minikube-9118", data)
	for _, ev := range fl.Unattributed {
		if strings.Contains(ev.Text, "container start failed") {
			t.Errorf("unattributed %q: the next line names its pod", ev.Text)
		}
	}
	// Info lines that name no pod are not failures.
	if fl := buildLines(t, `I1122 06:03:20.229607   21321 kubelet.go:1600] "Something routine" err=""`); fl.Summary.Unattributed != 0 {
		t.Errorf("an info line is unattributed: %+v", fl.Unattributed)
	}
}

// A real log parsed on one goroutine and in parallel chunks gives the
// same flows and counts: the rescued repeats, which differ, change nothing.
func TestFallbackSameWhateverTheChunks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/07-twenty-pods.log"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(workers, chunk int) []byte {
		b := NewBuilder(Options{})
		r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: "x.log", Year: 2026, Want: b.Want, Rescue: b.Rescue(), Workers: workers, ChunkBytes: chunk})
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			b.Add(rec)
		}
		st := r.Stats()
		b.InputSpan("", st.FirstTime, st.LastTime)
		return jsonOf(t, b.Finish())
	}
	one := run(1, 0)
	for _, chunk := range []int{4 << 10, 16 << 10} {
		if got := run(2, chunk); !bytes.Equal(got, one) {
			t.Errorf("chunks of %d bytes on 2 workers: the list differs from one worker's", chunk)
		}
	}
}

func jsonOf(t *testing.T, fl *FlowList) []byte {
	t.Helper()
	b, err := json.Marshal(fl)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestPodText(t *testing.T) {
	const uid = "0f3c2a9e-5b1d-4c7e-9a2f-6d8e1b4c3a70"
	for _, c := range []struct{ in, want string }{
		{"Setting up volume config for pod " + uid + " at /var/lib/kubelet/pods/" + uid + "/volumes", uid},
		{"pod-name-with-dashes and then " + uid, uid},
		{"/var/lib/kubelet/pods/" + uid, uid},
		{uid, uid},
		{"a" + uid, ""},                             // hex before: longer than a UID
		{uid + "b", ""},                             // hex after
		{"0f3c2a9e-5b1d-4c7e-9a2f-6d8e1b4c3a7", ""}, // one short
		{"0f3c2a9e-5b1d-4c7e-9a2f_6d8e1b4c3a70", ""},
		{"0F3C2A9E-5B1D-4C7E-9A2F-6D8E1B4C3A70", ""}, // the kubelet writes UIDs in lower case
		{`Killing unwanted pod podName="web-1" podNamespace="default"`, "web-1"},
		{`Killing unwanted pod podName="web-1"`, ""}, // a name alone starts no pod (podKeyNeeds)
		{`error while reading "/proc/1/fd/0" link: readlink /proc/1/fd/0: permission denied`, ""},
		{"", ""},
	} {
		if got := string(podText([]byte(c.in))); got != c.want {
			t.Errorf("podText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// podTextPlain is podText as the rule reads, one byte at a time: the
// first UID by its first dash, else a podName= beside a podNamespace=.
func podTextPlain(b []byte) []byte {
	isUID := func(s int) bool {
		if s < 0 || s+36 > len(b) || s > 0 && isHex(b[s-1]) || s+36 < len(b) && isHex(b[s+36]) {
			return false
		}
		for k, c := range b[s : s+36] {
			// (The dashes where a UID has them; elsewhere hex, or a dash
			// as looksLikeUID allows.)
			if dash := k == 8 || k == 13 || k == 18 || k == 23; dash && c != '-' || !dash && !isHex(c) && c != '-' {
				return false
			}
		}
		return true
	}
	for i := range b {
		if b[i] == '-' && isUID(i-8) {
			return b[i-8 : i+28]
		}
	}
	if !bytes.Contains(b, []byte("podNamespace=")) {
		return nil
	}
	for i := range b {
		if b[i] == '=' && i >= 7 && string(b[i-7:i]) == "podName" {
			return valueAt(b[i+1:])
		}
	}
	return nil
}

// TestPodTextPlain holds podText to the plain rule on texts built from
// the pieces that trip it: UIDs at every offset, near misses, dashes,
// hex, podName= and podNamespace=.
func TestPodTextPlain(t *testing.T) {
	const uid = "0f3c2a9e-5b1d-4c7e-9a2f-6d8e1b4c3a70"
	pieces := []string{uid, uid[:35], "a" + uid, "-", ",", "--", "-,", "a", "f0", " ", "x", "podName=", `"web-1"`, "podNamespace=", "ns", "/pods/", "0f3c2a9e-", "-5b1d-4c7e-9a2f-"}
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 200000 {
		var sb strings.Builder
		for range rng.IntN(12) {
			sb.WriteString(pieces[rng.IntN(len(pieces))])
		}
		in := []byte(sb.String())
		if got, want := podText(in), podTextPlain(in); !bytes.Equal(got, want) {
			t.Fatalf("#%d podText(%q) = %q, want %q", n, in, got, want)
		}
	}
}

func FuzzPodText(f *testing.F) {
	f.Add([]byte("Setting up volume config for pod 0f3c2a9e-5b1d-4c7e-9a2f-6d8e1b4c3a70 at /var/lib"))
	f.Add([]byte(`Killing unwanted pod podName="web-1" podNamespace="default"`))
	f.Fuzz(func(t *testing.T, in []byte) {
		if got, want := podText(in), podTextPlain(in); !bytes.Equal(got, want) {
			t.Fatalf("podText(%q) = %q, want %q", in, got, want)
		}
	})
}
