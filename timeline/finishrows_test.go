package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// rowOnlyCopy is cmd's rowOnly (get pods): what the table, -o name, the
// filters and the sort read of a flow. FinishRows must give what
// FinishEach gives with it.
func rowOnlyCopy(f *Flow) {
	f.Stages, f.Events, f.Evidence, f.Startup, f.Trouble = nil, nil, nil, nil, nil
	f.Sandboxes, f.Findings, f.Hidden, f.Diagnosis, f.WaitingOn = nil, nil, nil, "", ""
	cs := make([]Container, len(f.Containers))
	for i, c := range f.Containers {
		cs[i] = Container{Name: c.Name, Type: c.Type, Restarts: c.Restarts}
	}
	f.Containers = cs
}

// nodesOnlyCopy is cmd's get-nodes trim: rowOnly, then no containers.
func nodesOnlyCopy(f *Flow) { rowOnlyCopy(f); f.Containers = nil }

// finishInputs builds paths the way cmd.Analyze does and ends the build
// with finish.
func finishInputs(t *testing.T, paths []string, finish func(*Builder) *FlowList) *FlowList {
	t.Helper()
	return finish(readInputs(t, paths, (*Builder).Add))
}

// readInputs gives a new builder the records of paths through add.
func readInputs(t *testing.T, paths []string, add func(*Builder, *parser.Record)) *Builder {
	t.Helper()
	srcs, _ := parser.Discover(paths, nil) // broken inputs: what can be read is
	if len(srcs) == 0 {
		t.Fatalf("%v: no input found", paths)
	}
	b := NewBuilder(Options{})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: 2026, Want: b.Want, Rescue: b.Rescue()})
	defer mr.Close()
	for {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		add(b, rec)
	}
	b.Inputs(mr.SourceStats())
	return b
}

// rowInputs are every corpus log alone, each corpus folder and the whole
// corpus merged, every format fixture, every broken input, and a
// generated log of many pods.
func rowInputs(t *testing.T) [][]string {
	t.Helper()
	inputs := [][]string{{corpus}}
	err := filepath.WalkDir(corpus, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != corpus:
			inputs = append(inputs, []string{path})
		case !d.IsDir() && strings.HasSuffix(path, ".log"):
			inputs = append(inputs, []string{path})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Node findings: the kubelet's routine start-up skips are none, so
	// real logs of sick nodes.
	for _, name := range []string{"hardway-aws-12-pleg-notready.log", "k3s-2370-pleg.log", "k8s-45419-pleg-notready.log", "talos-11775-json-pleg.log", "k8s-100803-pleg-only-grep.log"} {
		inputs = append(inputs, []string{filepath.Join("../testdata/wild", name)})
	}
	for _, dir := range []string{"../testdata/formats", "../testdata/broken"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".md") {
				inputs = append(inputs, []string{filepath.Join(dir, e.Name())})
			}
		}
	}
	// No real log at hand shows an admission refusal: a few lines in the
	// words of the kubelet's catalogue (B1) stand in for one.
	rejected := filepath.Join(t.TempDir(), "rejected.log")
	if err := os.WriteFile(rejected, []byte(rejectedLog), 0o644); err != nil {
		t.Fatal(err)
	}
	// A node whose kubelet restarted with pods in flight (findings that
	// overlap flows): the v1.36.3 scenarios, run one after the other on
	// test nodes, as one node's log.
	restarts := filepath.Join(t.TempDir(), "restarts.log")
	logs, err := filepath.Glob(filepath.Join(corpus, "v1.36.3", "*.log"))
	if err != nil || len(logs) < 10 {
		t.Fatalf("v1.36.3 logs: %v, %v", logs, err)
	}
	var all []byte
	for _, l := range logs {
		b, err := os.ReadFile(l)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, b...)
	}
	if err := os.WriteFile(restarts, all, 0o644); err != nil {
		t.Fatal(err)
	}
	// A sick PLEG while twenty pods start (findings that overlap many
	// flows): the kubelet's routine start-up skips are no findings.
	twenty, err := os.ReadFile(filepath.Join(corpus, "v1.36.3", "07-twenty-pods.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(twenty), "\n")
	mid := strings.Fields(lines[len(lines)/2])
	sick := fmt.Sprintf("E%s %s   %s kubelet.go:2646] \"Skipping pod synchronization\" err=\"[PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s]\"\n", mid[0][1:], mid[1], mid[2])
	pleg := filepath.Join(t.TempDir(), "pleg.log")
	if err := os.WriteFile(pleg, []byte(strings.Join(lines[:len(lines)/2], "")+sick+strings.Join(lines[len(lines)/2:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(inputs, []string{generatedLog(t, 1<<20)}, []string{rejected}, []string{restarts}, []string{pleg})
}

const rejectedLog = `I0410 10:39:01.000000    9529 flags.go:64] FLAG: --v="4"
I0410 10:39:02.900000    9529 kubelet.go:2429] "SyncLoop ADD" source="api" pods=["default/admit-me"]
I0410 10:39:02.913712    9529 kubelet.go:2357] "Pod admission denied" podUID="bc449538-bd25-dc8e-916a-59305e6d6fdc" pod="default/admit-me" reason="OutOfcpu" message="Node didn't have enough resource: cpu, requested: 4000, used: 0, capacity: 2000"
I0410 10:39:20.000000    9529 kubelet.go:2429] "SyncLoop DELETE" source="api" pods=["default/admit-me"]
I0410 10:39:40.000000    9529 kubelet.go:2429] "SyncLoop ADD" source="api" pods=["default/other"]
`

// A lean judgement is the trimmed full one: every flow, node, finding and
// the summary, for get pods' trim and get nodes'.
func TestFinishRowsMatchesFinishEach(t *testing.T) {
	inputs := rowInputs(t)
	if len(inputs) < 40 {
		t.Fatalf("%d inputs: the corpus or fixtures are missing", len(inputs))
	}
	verdicts := map[Verdict]int{}
	var flows, inContainer, restarted, withFindings int
	for _, paths := range inputs {
		want := finishInputs(t, paths, func(b *Builder) *FlowList { return b.FinishEach(rowOnlyCopy) })
		cases := []struct {
			name string
			want *FlowList
			got  *FlowList
		}{
			{"FinishRows(nil)", want, finishInputs(t, paths, func(b *Builder) *FlowList { return b.FinishRows(nil) })},
			{"FinishRows(rowOnly)", want, finishInputs(t, paths, func(b *Builder) *FlowList { return b.FinishRows(rowOnlyCopy) })},
			{"FinishRows(nodesOnly)",
				finishInputs(t, paths, func(b *Builder) *FlowList { return b.FinishEach(nodesOnlyCopy) }),
				finishInputs(t, paths, func(b *Builder) *FlowList { return b.FinishRows(nodesOnlyCopy) })},
		}
		for _, c := range cases {
			if reflect.DeepEqual(c.got, c.want) {
				continue
			}
			g, _ := json.MarshalIndent(c.got, "", " ")
			w, _ := json.MarshalIndent(c.want, "", " ")
			t.Errorf("%v: %s differs from FinishEach with the same trim:\n%s", paths, c.name, firstDiff(g, w))
		}
		for _, it := range want.Items {
			flows++
			verdicts[it.Verdict]++
			if it.Container != "" {
				inContainer++
			}
			for _, c := range it.Containers {
				if c.Restarts > 0 {
					restarted++
				}
			}
			if len(it.Findings) > 0 {
				withFindings++
			}
		}
	}
	// The inputs exercise what judging a row reads: stalls inside
	// containers, restarts, findings, most verdicts.
	t.Logf("%d inputs, %d flows, verdicts %v, %d stalled in a container, %d restarted containers, %d flows with findings", len(inputs), flows, verdicts, inContainer, restarted, withFindings)
	if flows < 150 || len(verdicts) < 6 || verdicts[VerdictRejected] == 0 || inContainer < 5 || restarted < 5 || withFindings < 5 {
		t.Errorf("the inputs prove too little: %d flows, verdicts %v, %d stalled in a container, %d restarted containers, %d with findings", flows, verdicts, inContainer, restarted, withFindings)
	}
}

// firstDiff shows where two JSON texts part, with a few lines around.
func firstDiff(got, want []byte) string {
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := 0; i < len(g) || i < len(w); i++ {
		if i < len(g) && i < len(w) && bytes.Equal(g[i], w[i]) {
			continue
		}
		from, to := max(0, i-3), i+4
		return "got:\n" + string(bytes.Join(g[from:min(to, len(g))], []byte("\n"))) + "\nwant:\n" + string(bytes.Join(w[from:min(to, len(w))], []byte("\n")))
	}
	return "(equal JSON: a difference JSON does not show, nil against empty)"
}

// BenchmarkFinishRows times the end of a build of a generated log, some
// 400 pods, for get pods: FinishEach with its trim against FinishRows.
// The build is not timed.
func BenchmarkFinishRows(b *testing.B) {
	path := generatedLog(b, 40<<20)
	recs := wantedRecords(path)
	for _, c := range []struct {
		name   string
		finish func(*Builder) *FlowList
	}{
		{"FinishEach(rowOnly)", func(bl *Builder) *FlowList { return bl.FinishEach(rowOnlyCopy) }},
		{"FinishRows", func(bl *Builder) *FlowList { return bl.FinishRows(nil) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			pods := 0
			for range b.N {
				b.StopTimer()
				bl := NewBuilder(Options{})
				for i := range recs {
					bl.Add(&recs[i])
				}
				b.StartTimer()
				pods = len(c.finish(bl).Items)
			}
			b.ReportMetric(float64(pods), "pods")
		})
	}
}

// FinishRows against FinishEach with get pods' trim, on the fuzzer's
// record sequences: states no log at hand reaches.
func FuzzFinishRowsMatchesFinishEach(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 20, 0, 0, 3, 30, 0, 1, 5, 40, 1, 2, 7})
	f.Add(bytes.Repeat([]byte{7, 17, 33, 2, 50, 1, 0, 9}, 40))
	for i := 0; i < len(Reference.Markers); i++ {
		f.Add([]byte{byte(i), 0, 0, 1, byte(i + 1), 16, 1, 2, byte(i + 2), 32, 130, 3, byte(i + 3), 48, 2, 1})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		full, lean := NewBuilder(Options{}), NewBuilder(Options{})
		for _, rec := range recordsFrom(data) {
			full.Add(rec)
			lean.Add(rec)
		}
		want, got := full.FinishEach(rowOnlyCopy), lean.FinishRows(nil)
		if !reflect.DeepEqual(got, want) {
			g, _ := json.MarshalIndent(got, "", " ")
			w, _ := json.MarshalIndent(want, "", " ")
			t.Fatalf("FinishRows differs from FinishEach(rowOnly):\n%s", firstDiff(g, w))
		}
	})
}
