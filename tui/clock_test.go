package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// The one clock (timeline/clock.go) in the TUI: the flows it loads, its
// list's TIME, its timeline's durations and its stall's wait, and replay
// as the log plays on, against the flows the CLI's load judges (the
// inputs' spans given, as cmd's Analyze gives them). cmd/clock_test.go
// walks the other views.

// cliFlows judges paths as the CLI does: every record through the
// builder, then the inputs' spans, then Finish.
func cliFlows(t *testing.T, paths ...string) *timeline.FlowList {
	t.Helper()
	srcs, errs := parser.Discover(paths, nil)
	if len(errs) > 0 {
		t.Fatalf("discover %v: %v", paths, errs)
	}
	b := timeline.NewBuilder(timeline.Options{})
	mr := parser.NewMultiReader(srcs, parser.Options{Want: b.Want, Rescue: b.Rescue(), Borrow: true, Quoted: b.QuotedFields()})
	defer mr.Close()
	for {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		b.Add(rec)
	}
	b.Inputs(mr.SourceStats())
	return b.Finish()
}

// flowKey tells a flow from every other of its list.
func flowKey(f *timeline.Flow) string {
	return fmt.Sprintf("%s %s %s %d", f.Pod.Key(), f.Pod.UID, f.Node, f.Incarnation)
}

// sameClock reports how got's figures differ from want's ("" when not).
func sameClock(got, want *timeline.Flow) string {
	var diff []string
	if !got.Start.Equal(want.Start) || !got.End.Equal(want.End) || got.Duration != want.Duration || got.Waited != want.Waited {
		diff = append(diff, fmt.Sprintf("start %s end %s duration %s waited %s, want %s %s %s %s",
			got.Start.Format(time.RFC3339Nano), got.End.Format(time.RFC3339Nano), got.Duration, got.Waited,
			want.Start.Format(time.RFC3339Nano), want.End.Format(time.RFC3339Nano), want.Duration, want.Waited))
	}
	if len(got.Stages) != len(want.Stages) {
		return strings.Join(append(diff, fmt.Sprintf("%d stages, want %d", len(got.Stages), len(want.Stages))), "; ")
	}
	for i := range want.Stages {
		g, w := &got.Stages[i], &want.Stages[i]
		if g.Status != w.Status || g.Duration != w.Duration {
			diff = append(diff, fmt.Sprintf("stage %s %s %s, want %s %s", w.ID, g.Status, g.Duration, w.Status, w.Duration))
		}
	}
	return strings.Join(diff, "; ")
}

// clockInputs are every corpus log, and the excerpt: the first
// 1500 lines of the slow pull, which end while the pull is under way,
// long after the pod's last line the engine reads.
func clockInputs(t *testing.T) []string {
	t.Helper()
	logs, err := filepath.Glob("../testdata/corpus/*/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no corpus logs: %v", err)
	}
	b, err := os.ReadFile(corpus + "03-slow-image-pull.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	cut := filepath.Join(t.TempDir(), "cut.log")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:1500], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(logs, cut)
}

func TestTUIOneClock(t *testing.T) {
	for _, in := range clockInputs(t) {
		t.Run(filepath.Base(filepath.Dir(in))+"/"+filepath.Base(in), func(t *testing.T) {
			want := cliFlows(t, in)
			byKey := map[string]*timeline.Flow{}
			for i := range want.Items {
				byKey[flowKey(&want.Items[i])] = &want.Items[i]
			}
			m := loaded(t, Options{}, 220, 80, in)
			if len(m.items) != len(want.Items) {
				t.Fatalf("the TUI has %d pods, the CLI %d", len(m.items), len(want.Items))
			}
			cols := layoutList(naturalCols(m.items, m.vis), 220)
			for _, i := range m.vis {
				f := &m.items[i]
				w := byKey[flowKey(f)]
				if w == nil {
					t.Errorf("%s: the CLI has no such flow", flowKey(f))
					continue
				}
				if d := sameClock(f, w); d != "" {
					t.Errorf("%s: the TUI's flow: %s", f.Pod.Key(), d)
				}
				// The list's TIME.
				row := renderList(newStyles(false), m.items, []int{i}, -1, 0, cols, 1, false)[0]
				if got := strings.Fields(row); got[len(got)-1] != timeline.HumanDuration(time.Duration(w.Duration)) {
					t.Errorf("%s: list row %q, TIME want %s", f.Pod.Key(), row, timeline.HumanDuration(time.Duration(w.Duration)))
				}
				// The timeline: each stage row's duration, and the stall's
				// wait under it.
				rows := timelineRows(f, m.runsAt, m.flowEnd(f))
				ax := window(f.Start, m.flowEnd(f), 1, 0, 80)
				lines := renderTimeline(newStyles(false), f, rows, ax, -1, 200, len(rows)+10, false)
				k := 2 // the axis's labels and its line
				for _, r := range rows {
					for k < len(lines) && strings.HasPrefix(strings.TrimSpace(lines[k]), "⚠") {
						k++
					}
					if k >= len(lines) || r.cycle != nil {
						k++
						continue
					}
					if r.stage.Start != nil && r.stage.Status != timeline.StatusPending && r.stage.Status != timeline.StatusUnknown {
						if d := timeline.HumanDuration(time.Duration(r.stage.Duration)); !strings.Contains(lines[k], " "+d+" ") {
							t.Errorf("%s: timeline row %q, want its duration %s", f.Pod.Key(), lines[k], d)
						}
					}
					k++
				}
				if mark, stalled := stallRow(f, rows); stalled && mark >= 0 && w.Waited > 0 {
					wait := timeline.HumanDuration(time.Duration(w.Waited))
					found := false
					for _, l := range lines {
						if strings.Contains(l, "⚠") && strings.Contains(l, " "+wait) {
							found = true
						}
					}
					if !found {
						t.Errorf("%s: the timeline's stall does not say its wait %s:\n%s", f.Pod.Key(), wait, strings.Join(lines, "\n"))
					}
				}
			}

			// Replay: at the log's end its figures are the load's; half
			// way, a flow under way then ends then, its stage under way
			// running to the replay clock.
			r := loaded(t, Options{Replay: true}, 220, 80, in)
			if r.rp == nil || r.rEnd.IsZero() {
				t.Fatal("no replay")
			}
			end, _ := r.rp.asOf(r.rEnd)
			for i := range end {
				f := &end[i]
				w := byKey[flowKey(f)]
				if w == nil {
					t.Errorf("replay at the end: %s: the CLI has no such flow", flowKey(f))
					continue
				}
				if d := sameClock(f, w); d != "" {
					t.Errorf("replay at the end, %s: %s", f.Pod.Key(), d)
				}
			}
			mid := r.rStart.Add(r.rEnd.Sub(r.rStart) / 2)
			then, _ := r.rp.asOf(mid)
			for i := range then {
				f := &then[i]
				if !f.UnderWay() {
					continue
				}
				if !f.End.Equal(mid) {
					t.Errorf("replay at %s: %s is under way (%s at %s) and ends %s", mid.Format("15:04:05.000"), f.Pod.Key(), f.Verdict, f.StageLabel(), f.End.Format("15:04:05.000"))
				}
				for _, st := range f.Stages {
					if st.Start != nil && st.End != nil && st.Status != timeline.StatusDone && !st.End.Equal(mid) {
						t.Errorf("replay at %s: %s stage %s is %s and ends %s", mid.Format("15:04:05.000"), f.Pod.Key(), st.ID, st.Status, st.End.Format("15:04:05.000"))
					}
				}
			}
		})
	}
}
