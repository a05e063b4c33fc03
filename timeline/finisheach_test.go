package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// trimDetail is what a list view keeps of a flow: its one-line summary and
// its containers' counts, none of the stages, events or evidence.
func trimDetail(fl *Flow) {
	fl.Stages, fl.Events, fl.Evidence = nil, nil, nil
	for i := range fl.Containers {
		fl.Containers[i].Stages = nil
	}
}

// summaryOf is a flow's summary fields, the ones a trimmed flow keeps.
func summaryOf(f Flow) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s node=%s verdict=%s stage=%s stalledAt=%s container=%s/%s reason=%q waited=%s start=%s end=%s duration=%s incarnation=%d source=%s findings=%v restarts=",
		f.Pod.Key(), f.Pod.UID, f.Node, f.Verdict, f.Stage, f.StalledAt, f.Container, f.ContainerStage, f.Reason, f.Waited,
		f.Start.Format("2006-01-02T15:04:05.999999999Z07:00"), f.End.Format("2006-01-02T15:04:05.999999999Z07:00"), f.Duration, f.Incarnation, f.Source, f.Findings)
	for _, c := range f.Containers {
		fmt.Fprintf(&b, "%s:%d,", c.Name, c.Restarts)
	}
	return b.String()
}

// buildEach is buildBytes with FinishEach(trim).
func buildEach(t *testing.T, name string, data []byte, trim func(*Flow)) *FlowList {
	t.Helper()
	b := NewBuilder(Options{})
	feedSpan(b, name, data)
	return b.FinishEach(trim)
}

// feedSpan is feed, with the input's span given as the commands give it.
func feedSpan(b *Builder, name string, data []byte) {
	r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: name, Year: 2026, Want: b.Want, Rescue: b.Rescue()})
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		b.Add(rec)
	}
	st := r.Stats()
	b.InputSpan("", st.FirstTime, st.LastTime)
}

// A trimmed finish gives every flow the summary the full one gives, and
// the same findings, nodes and summary: nothing Finish computes after a
// flow is judged reads the detail trim drops.
func TestFinishEachKeepsTheSummary(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	if err != nil || len(paths) < 20 {
		t.Fatalf("corpus: %d files, %v", len(paths), err)
	}
	calls := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		full := buildEach(t, name, data, nil)
		n := 0
		trimmed := buildEach(t, name, data, func(fl *Flow) { n++; trimDetail(fl) })
		calls += n
		if n != len(full.Items) || len(trimmed.Items) != len(full.Items) {
			t.Errorf("%s: trim called %d times, %d flows trimmed, %d full", path, n, len(trimmed.Items), len(full.Items))
			continue
		}
		for i := range full.Items {
			if g, w := summaryOf(trimmed.Items[i]), summaryOf(full.Items[i]); g != w {
				t.Errorf("%s flow %d:\n got %s\nwant %s", path, i, g, w)
			}
			if it := trimmed.Items[i]; it.Stages != nil || it.Events != nil || it.Evidence != nil {
				t.Errorf("%s flow %d: the trim did not hold", path, i)
			}
		}
		for _, part := range []struct {
			name      string
			got, want any
		}{
			{"findings", trimmed.Findings, full.Findings},
			{"nodes", trimmed.Nodes, full.Nodes},
			{"unattributed", trimmed.Unattributed, full.Unattributed},
			{"summary", trimmed.Summary, full.Summary},
		} {
			g, _ := json.Marshal(part.got)
			w, _ := json.Marshal(part.want)
			if !bytes.Equal(g, w) {
				t.Errorf("%s: %s differ:\n got %s\nwant %s", path, part.name, g, w)
			}
		}
	}
	if calls < 40 {
		t.Errorf("trim called for %d flows over the corpus: too few to prove anything", calls)
	}
}

// heapChildEnv marks the process TestFinishEachBoundsMemory measures in.
const heapChildEnv = "PODFLOW_TEST_HEAP_CHILD"

// The trimmed list holds a fraction of the full one, and the detailed list
// never exists whole: half-way through FinishEach the heap is no bigger
// than the builder's before it (each flow's state is freed as it is judged).
//
// The heap is measured in a process of its own: what the package's other
// tests leave reachable (lazily loaded tables, pools) moved the half-way
// figure by some 500 KiB, as much as the bound's slack, depending on
// which tests ran before.
func TestFinishEachBoundsMemory(t *testing.T) {
	if os.Getenv(heapChildEnv) == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFinishEachBoundsMemory$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), heapChildEnv+"=1")
		out, err := cmd.CombinedOutput()
		t.Logf("in a process of its own:\n%s", out)
		if err != nil {
			t.Fatalf("TestFinishEachBoundsMemory in a process of its own: %v", err)
		}
		if !bytes.Contains(out, []byte("flows: builder")) {
			t.Fatal("the child process measured nothing")
		}
		return
	}
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/07-twenty-pods.log"))
	if err != nil {
		t.Fatal(err)
	}
	// The twenty pods a hundred times over, each copy on its own node (its
	// own input), so every flow is a real one of many stages and events.
	const copies = 100
	build := func() *Builder {
		b := NewBuilder(Options{})
		for i := range copies {
			feedSpan(b, fmt.Sprintf("node-%d.log", i), data)
		}
		return b
	}
	heap := func() int64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return int64(ms.HeapInuse)
	}
	retained := func(trim func(*Flow)) (list, builder, midway int64, flows int) {
		base := heap()
		b := build()
		builder = heap() - base
		judged := 0
		fl := b.FinishEach(func(f *Flow) {
			if trim != nil {
				trim(f)
			}
			if judged++; judged == copies*10 {
				midway = heap() - base
			}
		})
		b = nil
		list = heap() - base
		runtime.KeepAlive(fl)
		return list, builder, midway, len(fl.Items)
	}
	fullList, _, _, n := retained(nil)
	trimList, builder, midway, m := retained(trimDetail)
	if n != m || n < copies*20 {
		t.Fatalf("%d flows full, %d trimmed; want the same, at least %d", n, m, copies*20)
	}
	t.Logf("%d flows: builder %d KiB, full list %d KiB, trimmed list %d KiB, heap half-way through the trimmed finish %d KiB", n, builder>>10, fullList>>10, trimList>>10, midway>>10)
	if trimList*3 > fullList {
		t.Errorf("trimmed list %d KiB, full list %d KiB: want under a third", trimList>>10, fullList>>10)
	}
	// Half-way, the list holds half its flows; were the builder's flows
	// kept, the heap would be the builder and that half (builder +
	// trimList/2). Freed as judged, it stays well under: the bound is
	// half-way between, so that the trimmed flows' own size (which grows
	// as a flow says more: probes, trouble) does not decide the test.
	// Under the race detector the heap holds more of what was freed by the
	// time it is measured (some 1 MiB here): the bound moves towards, and
	// stays under, what a builder that kept its flows would hold.
	slack := trimList / 4
	if raceEnabled {
		slack = trimList * 3 / 8
	}
	if midway > builder+slack {
		t.Errorf("heap half-way through FinishEach %d KiB, builder before it %d KiB, trimmed list %d KiB: the builder's flows are not freed as they are judged", midway>>10, builder>>10, trimList>>10)
	}
}
