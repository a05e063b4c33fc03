package cause

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
	"github.com/podflow/podflow/tools/benchgen/gen"
)

const corpus = "../../testdata/corpus"

func TestMask(t *testing.T) {
	f := &timeline.Flow{Pod: timeline.PodRef{Namespace: "shop", Name: "api-6f5b9d7c4-pl8wz", UID: "ecf6f2d3-1c06-4df3-afbe-57c57957b7f6"},
		Node: "kb-node-pullfail", Containers: []timeline.Container{{Name: "api"}}}
	for _, tc := range []struct{ in, want string }{
		{`Back-off restarting failed container api in pod api-6f5b9d7c4-pl8wz_shop(ecf6f2d3-1c06-4df3-afbe-57c57957b7f6) (last exit code 137)`,
			`Back-off restarting failed container * in pod *(*) (last exit code N)`},
		// A container's name inside a longer name is not the container's.
		{`pod "shop/api-6f5b9d7c4-pl8wz" on kb-node-pullfail: api-server down`, `pod "*" on *: api-server down`},
		{`failed to setup network for sandbox "baa250d6a6f5d1d97c7585a4aef4eba0f1ac42d0be24f42fa812077f3437af92": dial tcp 10.96.0.1:443: i/o timeout`,
			`failed to setup network for sandbox "*": dial tcp *: i/o timeout`},
		{`container 5e2c91a7f04b3d2c1a0e is waiting   after 3 tries`, `container * is waiting after N tries`},
		{"", ""},
	} {
		if got := Mask(f, tc.in); got != tc.want {
			t.Errorf("Mask(%q)\n = %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

// Two pods of one cause are one group, whatever their names, IDs and
// numbers; a different stage is another cause; pods that did not fail are
// not counted.
func TestGroups(t *testing.T) {
	flow := func(name string, v timeline.Verdict, stalled, ctr, reason string) timeline.Flow {
		return timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: name}, Verdict: v, StalledAt: stalled, Container: ctr, ContainerStage: "started",
			Reason: reason, Containers: []timeline.Container{{Name: ctr}}}
	}
	items := []timeline.Flow{
		flow("a-1", timeline.VerdictFailed, "running", "worker", "Back-off restarting failed container worker in pod a-1_default(u1) (last exit code 1)"),
		flow("b-2", timeline.VerdictFailed, "running", "job", "Back-off restarting failed container job in pod b-2_default(u2) (last exit code 2)"),
		flow("c-3", timeline.VerdictStalled, "init-containers", "init", "Back-off restarting failed container init in pod c-3_default(u3) (last exit code 1)"),
		flow("d-4", timeline.VerdictRunning, "", "web", "Running after 2 failed sandbox attempts"),
	}
	gs := Groups(items, nil)
	if len(gs) != 2 || gs[0].Pods != 2 || gs[0].Stage != "running/*:started" || gs[1].Pods != 1 || gs[1].Stage != "init-containers/*:started" {
		t.Fatalf("groups %+v", gs)
	}
	if gs[0].Example != "default/a-1" || gs[0].Verdicts[timeline.VerdictFailed] != 2 || Total(gs) != 3 {
		t.Errorf("group %+v, total %d", gs[0], Total(gs))
	}
}

// TestGroupsBenchLog: on a log of the bench generator (tools/benchgen),
// whose pods replay the corpus scenarios under fresh names, UIDs and IDs,
// every failing scenario's pods are one cause, counted exactly: the
// generator says which scenario each pod replays and whether the log
// holds all of its lines. The log is 8 MiB; with PODFLOW_CAUSES_BENCH=1,
// as make test's plain run sets it, it is the 1 GiB bench log itself (make
// bench-data's kubelet-1g.log: size 1 GiB, seed 1, the same bytes),
// generated as it is read.
func TestGroupsBenchLog(t *testing.T) {
	size, seed := int64(8<<20), uint64(7)
	big := os.Getenv("PODFLOW_CAUSES_BENCH") == "1"
	if big {
		size, seed = 1<<30, 1
	}
	c, err := gen.LoadCorpus(filepath.Join(corpus, "v1.36.3"))
	if err != nil {
		t.Fatal(err)
	}
	// What each failing scenario's pods end as (testdata/corpus/MANIFEST.md
	// and the corpus logs): where they stop and the start of their reason.
	want := map[string][2]string{
		"02-image-pull-failure.log":       {"containers/*:image", "ImagePullBackOff: "},
		"05-crashloop-backoff.log":        {"running/*:started", "Back-off restarting failed container * in pod *(*) (last exit code N)"},
		"10-init-container-crashloop.log": {"init-containers/*:completed", "Back-off restarting failed container * in pod *(*) (last exit code N)"},
		"12-container-start-failure.log":  {"containers/*:started", "RunContainerError: "},
	}
	scenario := map[string]string{} // pod key → its scenario, for the pods the log holds whole
	cut := map[string]bool{}
	c.Pod = func(name, file string, whole bool) {
		if whole {
			scenario[name] = file
		} else {
			cut[name] = true
		}
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, _, err := gen.Generate(c, pw, size, seed)
		pw.CloseWithError(err)
		done <- err
	}()
	b := timeline.NewBuilder(timeline.Options{})
	r := parser.NewReader(pr, parser.Options{Name: "kubelet.log", Year: 2026, Want: b.Want})
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		b.Add(rec)
	}
	if err := <-done; err != nil { // (and the generator's maps are ours now)
		t.Fatal(err)
	}
	st := r.Stats()
	b.InputSpan("", st.FirstTime, st.LastTime)
	items := b.FinishRows(nil).Items

	type key struct{ stage, cause string }
	expect := map[key]int{}
	keysOf := map[string]map[key]bool{} // scenario → the causes of its whole pods
	failing := 0
	recovered := map[string]int{} // scenario → its pods that recovered (big)
	for i := range items {
		f := &items[i]
		file, whole := scenario[f.Pod.Key()]
		if !whole {
			if !cut[f.Pod.Key()] {
				t.Fatalf("%s: a pod the generator did not write", f.Pod.Key())
			}
			// Cut by the log's end: whatever it is, it is counted as such.
			if Failing(f) {
				st, cs := Key(f)
				expect[key{st, cs}]++
			}
			continue
		}
		w, fails := want[file]
		if Failing(f) != fails {
			if big && fails && f.Verdict == timeline.VerdictRunning {
				// On the 1 GiB log a replay's last line lies long before
				// the log's end (10,000 pods, an hour): a crash loop whose
				// container ran on that long after its last restart has
				// recovered, and has no cause. All of its scenario's
				// pods alike (checked below).
				recovered[file]++
				continue
			}
			t.Errorf("%s (%s): verdict %s, failing %v", f.Pod.Key(), file, f.Verdict, !fails)
			continue
		}
		if !fails {
			continue
		}
		failing++
		st, cs := Key(f)
		if st != w[0] || !strings.HasPrefix(cs, w[1]) {
			t.Errorf("%s (%s): cause %s %q, want %s %q…", f.Pod.Key(), file, st, cs, w[0], w[1])
		}
		expect[key{st, cs}]++
		if keysOf[file] == nil {
			keysOf[file] = map[key]bool{}
		}
		keysOf[file][key{st, cs}] = true
	}
	for file, n := range recovered {
		if keysOf[file] != nil {
			t.Errorf("%s: %d pods recovered, the others failed: one scenario judged two ways", file, n)
		}
	}
	// Masked, the pods of one scenario are one cause (not a row each).
	for file, ks := range keysOf {
		if len(ks) != 1 {
			t.Errorf("%s: %d causes, want 1: %v", file, len(ks), ks)
		}
	}
	if failing < 4 || len(keysOf) < 3 {
		t.Fatalf("only %d failing pods replayed whole: the test would prove little", failing)
	}
	gs := Groups(items, nil)
	got := map[key]int{}
	for _, g := range gs {
		got[key{g.Stage, g.Cause}] = g.Pods
	}
	if len(got) != len(expect) {
		t.Errorf("%d causes, want %d:\n got %v\nwant %v", len(got), len(expect), got, expect)
	}
	for k, n := range expect {
		if got[k] != n {
			t.Errorf("cause %s %q: %d pods, want %d", k.stage, k.cause, got[k], n)
		}
	}
	t.Logf("%d pods, %d failed whole, %d cut, recovered %v; causes %v", len(items), failing, len(cut), recovered, got)
}
