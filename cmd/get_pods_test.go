package cmd

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/podflow/podflow/timeline"
)

const corpus = "../testdata/corpus/"

func init() {
	// -update rewrites the goldens under testdata/. Defined only once even
	// if another test file of the package defines it too.
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// runPodflow runs the podflow command line over a test IO.
func runPodflow(t *testing.T, tty bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ioS, _, out, errOut := NewTestIO(tty)
	code = Main(ioS, append([]string{"podflow"}, args...))
	return out.String(), errOut.String(), code
}

// golden compares got with testdata/NAME.golden (control characters made
// visible), rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	got = strings.ReplaceAll(got, "\x1b", `\e`)
	p := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/ -run %s -update)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from golden %s:\n--- got\n%s\n--- want\n%s", t.Name(), p, got, want)
	}
}

// cell returns the table cell under header in the row whose text contains key.
func cell(t *testing.T, table, key, header string) string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(table, "\n"), "\n")
	hdr := lines[0]
	col := strings.Index(hdr, header)
	if col < 0 {
		t.Fatalf("no column %q in %q", header, hdr)
	}
	for _, l := range lines[1:] {
		if strings.Contains(l, key) && len(l) > col {
			return strings.Fields(l[col:])[0]
		}
	}
	t.Fatalf("no row %q in\n%s", key, table)
	return ""
}

func TestGetPods(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		pod       string
		verdict   string
		stage     string
		timeCell  string
		wantRows  int
		wantInErr string
	}{
		{name: "sandbox failure recovers", args: []string{corpus + "v1.36.3/04-sandbox-failure.log"}, pod: "payments-7b4d9c8f6-q9zrt", verdict: "Running", stage: "ready", timeCell: "1m1s", wantRows: 1},
		{name: "image pull stall", args: []string{corpus + "v1.36.3/02-image-pull-failure.log"}, pod: "api-6f5b9d7c4-pl8wz", verdict: "Stalled", stage: "containers/api:image", timeCell: "1m21s", wantRows: 1},
		{name: "start failure", args: []string{corpus + "v1.36.3/12-container-start-failure.log"}, pod: "shop-api-84d7f9c6d-t5n2j", verdict: "Stalled", stage: "containers/api:started", wantRows: 1},
		{name: "twenty pods", args: []string{corpus + "v1.36.3/07-twenty-pods.log"}, pod: "batch-worker-6c8d5f20-1d9c8", verdict: "Running", wantRows: 20},
		{name: "regex name filter", args: []string{"batch-worker-6c8d5f1[0-4]", corpus + "v1.36.3/07-twenty-pods.log"}, pod: "batch-worker-6c8d5f12-30ee6", verdict: "Running", wantRows: 5},
		{name: "--pod flag", args: []string{"--pod", "batch-worker-6c8d5f03-274c1", corpus + "v1.36.3/07-twenty-pods.log"}, pod: "batch-worker-6c8d5f03-274c1", verdict: "Running", wantRows: 1},
		{name: "verdict filter over a dir", args: []string{"--verdict", "Stalled,Failed", corpus + "v1.36.3/"}, pod: "api-6f5b9d7c4-pl8wz", verdict: "Stalled", wantRows: 4},
		{name: "verdict filter no match", args: []string{"--verdict", "failed", corpus + "v1.36.3/04-sandbox-failure.log"}, wantRows: 0, wantInErr: "No pods found."},
		{name: "namespace filter", args: []string{"-n", "kube-system", corpus + "v1.36.3/04-sandbox-failure.log"}, wantRows: 0, wantInErr: "No pods found."},
		{name: "deletion", args: []string{corpus + "v1.36.3/06-pod-deletion-api.log"}, pod: "web-7d9f8c6b5-del42", verdict: "Terminated", stage: "terminated", wantRows: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runPodflow(t, false, append([]string{"get", "pods"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			rows := 0
			if out != "" {
				rows = strings.Count(out, "\n") - 1
			}
			if rows != tt.wantRows {
				t.Errorf("rows = %d, want %d:\n%s", rows, tt.wantRows, out)
			}
			if tt.wantInErr != "" && !strings.Contains(errOut, tt.wantInErr) {
				t.Errorf("stderr %q lacks %q", errOut, tt.wantInErr)
			}
			if tt.pod == "" {
				return
			}
			if got := cell(t, out, tt.pod, "VERDICT"); got != tt.verdict {
				t.Errorf("verdict = %q, want %q", got, tt.verdict)
			}
			if tt.stage != "" {
				if got := cell(t, out, tt.pod, "STAGE"); got != tt.stage {
					t.Errorf("stage = %q, want %q", got, tt.stage)
				}
			}
			if tt.timeCell != "" {
				if got := cell(t, out, tt.pod, "WAIT/DUR"); got != tt.timeCell {
					t.Errorf("waited/duration = %q, want %q", got, tt.timeCell)
				}
			}
		})
	}
}

func TestGetPodsOutputs(t *testing.T) {
	log := corpus + "v1.36.3/02-image-pull-failure.log"
	t.Run("json", func(t *testing.T) {
		out, errOut, code := runPodflow(t, false, "get", "pods", "-o", "json", log)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var fl timeline.FlowList
		if err := json.Unmarshal([]byte(out), &fl); err != nil {
			t.Fatal(err)
		}
		if fl.APIVersion != "podflow/v1" || fl.Kind != "FlowList" || len(fl.Items) != 1 {
			t.Fatalf("apiVersion %q kind %q items %d", fl.APIVersion, fl.Kind, len(fl.Items))
		}
		if f := fl.Items[0]; f.Verdict != timeline.VerdictStalled || f.Container != "api" || f.ContainerStage != "image" {
			t.Errorf("flow = %s %s %s", f.Verdict, f.Container, f.ContainerStage)
		}
	})
	t.Run("yaml keys match json", func(t *testing.T) {
		out, _, code := runPodflow(t, false, "get", "pods", "-o", "yaml", log)
		if code != 0 {
			t.Fatal(code)
		}
		for _, want := range []string{"apiVersion: podflow/v1\n", "kind: FlowList\n", "stalledAt: containers\n", "containerStage: image\n", "pullBackOffs: "} {
			if !strings.Contains(out, want) {
				t.Errorf("yaml lacks %q", want)
			}
		}
	})
	t.Run("name", func(t *testing.T) {
		out, _, _ := runPodflow(t, false, "get", "pods", "-o", "name", log)
		if out != "pod/default/api-6f5b9d7c4-pl8wz\n" {
			t.Errorf("got %q", out)
		}
	})
	t.Run("no-headers", func(t *testing.T) {
		out, _, _ := runPodflow(t, false, "get", "pods", "--no-headers", log)
		if strings.Contains(out, "NAMESPACE") || !strings.HasPrefix(out, "default") {
			t.Errorf("got %q", out)
		}
	})
	t.Run("sort-by duration", func(t *testing.T) {
		out, _, _ := runPodflow(t, false, "get", "pods", "--no-headers", "--sort-by", "duration", corpus+"v1.36.3/07-twenty-pods.log")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 20 || !strings.Contains(lines[0], "batch-worker-6c8d5f18-37648") {
			t.Errorf("first = %q", lines[0])
		}
	})
	t.Run("since window", func(t *testing.T) {
		out, _, _ := runPodflow(t, false, "get", "pods", "-o", "name", "--since", "1s", log)
		if out != "pod/default/api-6f5b9d7c4-pl8wz\n" {
			t.Errorf("got %q", out)
		}
		out, _, _ = runPodflow(t, false, "get", "pods", "-o", "name", "--until", "2026-11-22T06:00:00Z", log)
		if out != "" {
			t.Errorf("got %q", out)
		}
	})
}

func TestGetPodsUsageErrors(t *testing.T) {
	log := corpus + "v1.36.3/01-happy-path.log"
	for _, args := range [][]string{
		{"-o", "xml", log},
		{"--sort-by", "age", log},
		{"--verdict", "Sleeping", log},
		{"--since", "yesterday", log},
		{"--color", "sometimes", log},
		{"-A", "-n", "default", log},
		{"--bogus", log},
		{"web", "/nonexistent/dir/kubelet.log"}, // looks like a path: reported, not a name filter
		{"web", "kubelet.log.1"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, errOut, code := runPodflow(t, false, append([]string{"get", "pods"}, args...)...)
			if code != 2 {
				t.Errorf("exit %d, want 2: %s", code, errOut)
			}
		})
	}
	_, errOut, code := runPodflow(t, false, "get", "pods", "../testdata/corpus/nope/")
	if code != 2 || !strings.Contains(errOut, "nope") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

func TestGetPodsGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		tty  bool
		args []string
	}{
		{"get_pods_nontty", false, []string{corpus + "v1.36.3/07-twenty-pods.log"}},
		{"get_pods_tty", true, []string{corpus + "v1.36.3/02-image-pull-failure.log"}},
		{"get_pods_tty_initfail", true, []string{"--sort-by", "name", corpus + "v1.36.3/10-init-container-crashloop.log"}},
		{"get_pods_wide", false, []string{"-o", "wide", corpus + "v1.28.15/12-container-start-failure.log"}},
		{"get_nodes", false, []string{corpus + "v1.36.3/04-sandbox-failure.log"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := []string{"get", "pods"}
			if tt.name == "get_nodes" {
				cmd = []string{"get", "nodes"}
			}
			out, errOut, code := runPodflow(t, tt.tty, append(cmd, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

func TestGetPodsColor(t *testing.T) {
	log := corpus + "v1.36.3/02-image-pull-failure.log"
	out, _, _ := runPodflow(t, true, "get", "pods", log)
	if !strings.Contains(out, ansiYellow+"Stalled"+ansiReset) {
		t.Errorf("tty: no yellow Stalled in %q", out)
	}
	out, _, _ = runPodflow(t, false, "get", "pods", log)
	if strings.Contains(out, "\x1b") {
		t.Errorf("non-tty output has escapes: %q", out)
	}
	out, _, _ = runPodflow(t, false, "get", "pods", "--color", "always", log)
	if !strings.Contains(out, ansiYellow) {
		t.Errorf("--color always: no colour")
	}
	ioS, _, buf, _ := NewTestIO(true)
	ioS.Getenv = func(k string) string {
		if k == "NO_COLOR" {
			return "1"
		}
		return ""
	}
	Main(ioS, []string{"podflow", "get", "pods", log})
	if strings.Contains(buf.String(), "\x1b") {
		t.Errorf("NO_COLOR: escapes in %q", buf.String())
	}
}

// TestSelectFlowsInPlace: with every pod selected in the engine's order
// (no filter, --sort-by start), get pods prints the engine's list itself
// rather than a copy of it, some 5 MB at the end of the 1 GiB bench log
// where memory peaks; a filter or another order still gets its own list,
// and leaves the engine's as it was.
func TestSelectFlowsInPlace(t *testing.T) {
	ioS, _, _, _ := NewTestIO(false)
	a, err := Analyze(ioS, []string{corpus + "v1.36.3/07-twenty-pods.log"}, LoadOptions{MaxPods: 1000, rows: true})
	if err != nil {
		t.Fatal(err)
	}
	items := a.Flows.Items
	if len(items) < 20 {
		t.Fatalf("%d pods, want the twenty", len(items))
	}
	before := make([]string, len(items))
	for i := range items {
		before[i] = items[i].Pod.Key()
	}
	sel, err := (&GetPodsOptions{IO: ioS, SortBy: "start"}).selectFlows(a.Flows)
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Items) != len(items) || &sel.Items[0] != &items[0] {
		t.Errorf("every pod in start order: a copy of %d flows, want the engine's list", len(sel.Items))
	}
	for _, o := range []*GetPodsOptions{
		{IO: ioS, SortBy: "name"},
		{IO: ioS, SortBy: "duration"},
		{IO: ioS, SortBy: "start", Names: []string{"batch-worker-6c8d5f0[1-5]"}},
	} {
		sel, err := o.selectFlows(a.Flows)
		if err != nil {
			t.Fatal(err)
		}
		if len(sel.Items) == 0 || &sel.Items[0] == &items[0] {
			t.Errorf("--sort-by %s %v: %d flows in the engine's own list, want a copy", o.SortBy, o.Names, len(sel.Items))
		}
		if o.Names != nil && len(sel.Items) != 5 {
			t.Errorf("%v: %d pods, want 5", o.Names, len(sel.Items))
		}
		for i := range items {
			if k := items[i].Pod.Key(); k != before[i] {
				t.Fatalf("--sort-by %s %v: the engine's flow %d is now %s, was %s", o.SortBy, o.Names, i, k, before[i])
			}
		}
	}
}

// TestAnalyzeCollectsBigHeaps: Analyze collects the garbage before
// judging and once judged when the heap is big (bigHeap), and not on a
// small log; either way the flows are the same.
func TestAnalyzeCollectsBigHeaps(t *testing.T) {
	// The count of forced collections is the process's: a test before
	// this one that left a memory limit's watcher running (a big input's
	// Analyze) forced two more in the full package run. Counted in a
	// process of its own.
	const childEnv = "PODFLOW_TEST_GC_CHILD"
	if os.Getenv(childEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAnalyzeCollectsBigHeaps$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("--- PASS: TestAnalyzeCollectsBigHeaps")) {
			t.Fatalf("TestAnalyzeCollectsBigHeaps in a process of its own: %v\n%s", err, out)
		}
		return
	}
	in := []string{corpus + "v1.36.3/"}
	forced := func() uint64 {
		s := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	run := func() (string, uint64) {
		ioS, _, _, _ := NewTestIO(false)
		before := forced()
		a, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000, rows: true})
		if err != nil {
			t.Fatal(err)
		}
		n := forced() - before
		js, err := json.Marshal(a.Flows)
		if err != nil {
			t.Fatal(err)
		}
		return string(js), n
	}
	small, n := run()
	if n != 0 {
		t.Errorf("the corpus (a small heap): %d collections forced, want none", n)
	}
	defer func(h uint64) { bigHeap = h }(bigHeap)
	bigHeap = 0
	big, n := run()
	if n != 2 {
		t.Errorf("a heap past bigHeap: %d collections forced, want 2 (before judging, once judged)", n)
	}
	if big != small {
		t.Errorf("collecting changed the flows")
	}
}
