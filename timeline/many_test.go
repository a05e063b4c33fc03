package timeline

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/podflow/podflow/parser"
)

// writeOverlapping writes n small host-less kubelet logs into dir, all
// within the same milliseconds, as parser's manyFiles does: each file is a
// node of its own (file:…), its kubelet's PID its own (the same line in
// two inputs would be taken for a copy), with a "Skipping pod synchronization" line
// at the time the second of its three pods is added (a finding, in the
// kubelet's words: kubelet.go:2646, as in the wild corpus, about the pods
// in flight then: that one, and the first, which its log never shows
// going further and so is under way to the input's end (clock.go)).
func writeOverlapping(t *testing.T, dir string, n int) {
	t.Helper()
	for i := range n {
		at := func(j int) string {
			return time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC).Add(time.Duration(j*1000+i%1000) * time.Microsecond).Format("15:04:05.000000")
		}
		var b []byte
		for j := range 3 {
			b = fmt.Appendf(b, "I1122 %s %d kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/p-%d-%d\"]\n", at(j), 1000+i, i, j)
		}
		b = fmt.Appendf(b, "E1122 %s %d kubelet.go:2646] \"Skipping pod synchronization\" err=\"[PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s]\"\n", at(1), 1000+i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("kubelet-%06d.log", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestManyInputsLinear: a build over n inputs, each its own node, that
// overlap in time costs the same per input at n as at 4n. The end of the
// build walked every node for each input (Inputs, InputSpan) and every
// flow for each node and each finding (judgeAll): 20,000 files took 40 s
// there. It now walks each input's nodes and each node's flows (walked),
// and the whole build, parse included, allocates as much per input at
// both sizes. No timing: steps and allocations are counted.
func TestManyInputsLinear(t *testing.T) {
	sizes := [2]int{1000, 4000}
	if testing.Short() {
		sizes = [2]int{250, 1000}
	}
	var walked, allocs [2]float64
	for k, n := range sizes {
		dir := t.TempDir()
		writeOverlapping(t, dir, n)
		srcs, errs := parser.Discover([]string{dir}, nil)
		if len(errs) > 0 || len(srcs) != n {
			t.Fatalf("%d sources, errors %v", len(srcs), errs)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b := NewBuilder(Options{})
		mr := parser.NewMultiReader(srcs, parser.Options{Year: 2026, Want: b.Want, Rescue: b.Rescue(), Borrow: true, Quoted: b.QuotedFields()})
		for {
			rec, err := mr.Next()
			if err != nil {
				break
			}
			b.Add(rec)
		}
		b.Inputs(mr.SourceStats())
		fl := b.FinishRows(nil)
		runtime.ReadMemStats(&after)
		mr.Close()
		if len(fl.Items) != 3*n || len(fl.Nodes) != n || len(fl.Findings) != n || len(mr.Errors()) > 0 {
			t.Fatalf("%d inputs: %d flows, %d nodes, %d findings, errors %v", n, len(fl.Items), len(fl.Nodes), len(fl.Findings), mr.Errors())
		}
		for _, nd := range fl.Nodes {
			if c := nd.Pods[VerdictIncomplete]; c != 3 || nd.Start.IsZero() {
				t.Fatalf("node %s: %v pods, start %v", nd.Name, nd.Pods, nd.Start)
			}
		}
		for _, fd := range fl.Findings {
			var i int
			fmt.Sscanf(filepath.Base(fd.Node), "kubelet-%d.log", &i)
			if want := fmt.Sprintf("ns/p-%d-0 ns/p-%d-1", i, i); len(fd.Pods) != 2 || fd.Pods[0].Key()+" "+fd.Pods[1].Key() != want {
				t.Fatalf("finding %s: pods %v, want %s, its node's in flight", fd.ID, fd.Pods, want)
			}
		}
		walked[k] = float64(b.walked) / float64(n)
		allocs[k] = float64(after.Mallocs-before.Mallocs) / float64(n)
		t.Logf("%d inputs: %.1f nodes and flows walked, %.0f allocations per input", n, walked[k], allocs[k])
	}
	if walked[1] > walked[0]+1 || walked[1] > 16 {
		t.Errorf("walked %.1f per input at %d inputs, %.1f at %d: not linear", walked[1], sizes[1], walked[0], sizes[0])
	}
	if allocs[1] > 1.25*allocs[0] {
		t.Errorf("%.0f allocations per input at %d inputs, %.0f at %d: not linear", allocs[1], sizes[1], allocs[0], sizes[0])
	}
}
