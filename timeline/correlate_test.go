package timeline

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// buildInputs runs files (or folders) through discovery, the time-ordered
// merge and the engine, the way the commands do.
func buildInputs(t *testing.T, paths ...string) *FlowList {
	t.Helper()
	srcs, errs := parser.Discover(paths, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	b := NewBuilder(Options{})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: 2026, Want: b.Want, Rescue: b.Rescue()})
	defer mr.Close()
	for {
		rec, err := mr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b.Add(rec)
	}
	b.Inputs(mr.SourceStats())
	return b.Finish()
}

const runtimeLog = "../testdata/formats/containerd.log"

// The containerd log of the node, given beside the real kubelet log, joins
// the pod: its sandbox and container lines by ID, its PullImage lines (which
// name only the image) by the pull under way for that image.
func TestRuntimeLinesJoinThePod(t *testing.T) {
	fl := buildInputs(t, filepath.Join(corpus, "v1.36.3/01-happy-path.log"), runtimeLog)
	f := onlyFlow(t, fl, "web-7d9f8c6b5-x2kqp")
	img := cstage(containerOf(f, "init-config"), CStImage)
	var runtimeLines []int64
	for _, ev := range img.Evidence {
		if ev.Input == runtimeLog {
			runtimeLines = append(runtimeLines, ev.Line)
		}
	}
	// Lines 3 (PullImage busybox) and 5 (returns image reference).
	if len(runtimeLines) != 2 || runtimeLines[0] != 3 || runtimeLines[1] != 5 {
		t.Errorf("init-config image evidence from containerd: lines %v, want [3 5]", runtimeLines)
	}
	if img.Status != StatusDone {
		t.Errorf("image stage %s", img.Status)
	}
	// StartContainer (lines 7, 8) comes before the kubelet names the ID, yet
	// it is the pod's; only line 9 (another pod's failed pull, whose pod is
	// not in this kubelet log) stays unattributed. Line 4 (ImageCreate) and
	// 10 (debug) are not pipeline lines.
	// The kubelet's own failures that name no pod (the eviction manager's
	// "failed to synchronize", node registration at start-up) are
	// unattributed too (fallback.go): counted apart here.
	var runtimeUn []Evidence
	kubeletUn := 0
	for _, ev := range fl.Unattributed {
		if ev.Input == runtimeLog {
			runtimeUn = append(runtimeUn, ev)
		} else if strings.Contains(ev.Text, "Eviction manager: failed to synchronize") {
			kubeletUn++
		}
	}
	if len(runtimeUn) != 1 || runtimeUn[0].Line != 9 {
		t.Errorf("unattributed runtime lines %+v, want only containerd.log:9", runtimeUn)
	}
	if kubeletUn == 0 || fl.Summary.Unattributed != len(fl.Unattributed) {
		t.Errorf("unattributed %d %+v: want the eviction manager's failures among them", fl.Summary.Unattributed, fl.Unattributed)
	}
}

// A pull that fails inside the runtime shows as the container's image stage
// stuck on the runtime's own error (a failed attempt that nothing completed
// is a stall, as for the kubelet's own ErrImagePull), even when the kubelet
// log shows only the Pulling event.
func TestRuntimePullFailureFailsTheImageStage(t *testing.T) {
	dir := t.TempDir()
	kubelet := `I1122 06:05:35.100000    2001 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/web-bad-1"]
I1122 06:05:36.246000    2001 event.go:389] "Event occurred" object="default/web-bad-1" fieldPath="spec.containers{nginx}" kind="Pod" apiVersion="v1" type="Normal" reason="Pulling" message="Pulling image \"docker.io/library/nginx:1.27.99\""
I1122 06:05:59.000000    2001 kubelet.go:2709] "SyncLoop (housekeeping)"
`
	containerd := `time="2026-11-22T06:05:36.247000000Z" level=info msg="PullImage \"docker.io/library/nginx:1.27.99\""
time="2026-11-22T06:05:37.450112938Z" level=error msg="PullImage \"docker.io/library/nginx:1.27.99\" failed" error="failed to pull and unpack image \"docker.io/library/nginx:1.27.99\": failed to resolve reference \"docker.io/library/nginx:1.27.99\": docker.io/library/nginx:1.27.99: not found"
`
	os.WriteFile(filepath.Join(dir, "kubelet.log"), []byte(kubelet), 0o644)
	os.WriteFile(filepath.Join(dir, "containerd.log"), []byte(containerd), 0o644)
	fl := buildInputs(t, dir)
	f := onlyFlow(t, fl, "web-bad-1")
	img := cstage(containerOf(f, "nginx"), CStImage)
	if img.Status != StatusStalled || img.Attempts != 1 || !strings.Contains(img.Reason, "failed to resolve reference") {
		t.Errorf("image stage %s (%d attempts) %q, want stalled after 1 attempt on the runtime's error", img.Status, img.Attempts, img.Reason)
	}
	if f.Verdict != VerdictStalled || f.Container != "nginx" || f.ContainerStage != CStImage || !strings.Contains(f.Reason, "not found") {
		t.Errorf("verdict %s at %s/%s %q, want Stalled at nginx/image on the runtime's error", f.Verdict, f.Container, f.ContainerStage, f.Reason)
	}
	if fl.Summary.Unattributed != 0 {
		t.Errorf("unattributed %d, want 0", fl.Summary.Unattributed)
	}
}

// A kind dump's kubernetes-version.txt names the kubelet version of nodes
// whose log lines never say it (the log began after the kubelet started).
func TestDumpVersionFile(t *testing.T) {
	fl := buildInputs(t, "../testdata/formats/kind-logs")
	if len(fl.Nodes) != 2 {
		t.Fatalf("%d nodes, want kind-control-plane and kind-worker", len(fl.Nodes))
	}
	for _, n := range fl.Nodes {
		if n.KubeletVersion != "v1.36.3" {
			t.Errorf("node %s: kubelet version %q, want v1.36.3 from kubernetes-version.txt", n.Name, n.KubeletVersion)
		}
	}
	// A lone file on the command line takes no version from its folder.
	fl = buildInputs(t, "../testdata/formats/kind-logs/kind-worker/kubelet.log")
	if v := fl.Nodes[0].KubeletVersion; v != "" {
		t.Errorf("lone file: version %q, want none", v)
	}
}

// Every corpus node is named as its kubelet was told (--hostname-override
// on the command line the log prints), whatever the log format, and its
// -v is the flag's (the JSON format keeps a newline after the FLAG text).
func TestNodeNameAndVerbosityFromFlags(t *testing.T) {
	host := regexp.MustCompile(`--hostname-override=\\?"?([a-z0-9-]+)`)
	verb := regexp.MustCompile(`FLAG: --v=\\?"?([0-9]+)`)
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		h, v := host.FindSubmatch(raw), verb.FindSubmatch(raw)
		if h == nil || v == nil {
			t.Errorf("%s: no --hostname-override or --v in the log", file)
			continue
		}
		fl := buildFile(t, file)
		if len(fl.Nodes) != 1 {
			t.Errorf("%s: %d nodes", file, len(fl.Nodes))
			continue
		}
		n := fl.Nodes[0]
		if n.Name != string(h[1]) || strconv.Itoa(n.Verbosity) != string(v[1]) {
			t.Errorf("%s: node %q -v=%d, want %q -v=%s", file, n.Name, n.Verbosity, h[1], v[1])
		}
	}
}

// At -v=2 no container is named (container events are V3), so podflow cannot
// tell whether the pod had init containers (09's had one): the stage is
// unknown, not skipped. At -v=4 a pod without init containers skips it.
func TestInitContainersUnknownBelowV3(t *testing.T) {
	f := onlyFlow(t, buildFile(t, filepath.Join(corpus, "v1.36.3/09-happy-path-v2.log")), "web-v2-6b7c9-r8s5d")
	if st := stageOf(f, StInitContainers); st.Status != StatusUnknown || st.Reveal != "-v=3" {
		t.Errorf("-v=2: init-containers %s (%s), want unknown (-v=3)", st.Status, st.Reveal)
	}
	f = onlyFlow(t, buildFile(t, filepath.Join(corpus, "v1.36.3/05-crashloop-backoff.log")), "worker-5d8f7b9c4-m2v6n")
	if st := stageOf(f, StInitContainers); st.Status != StatusSkipped {
		t.Errorf("-v=4, no init containers: init-containers %s, want skipped", st.Status)
	}
}
