package tui

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/podflow/podflow/timeline"
)

// tui -f on a terminal: a single line appended to a quiet log shows on
// the screen, then the log is rotated (renamed, the rest written to a new
// file) and the screen says so and goes on with the same pod, never a
// copy #2; the verdicts are those of one pass over the whole log.
func TestTUITeatestFollowAppendAndRotate(t *testing.T) {
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "kubelet.log")
	c1 := lineCut(raw, 1500)
	if err := os.WriteFile(path, raw[:c1], 0o644); err != nil {
		t.Fatal(err)
	}
	m := New(Options{Load: LoadOptions{Paths: []string{path}, Year: 2026, Follow: true}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 40))
	waitFor(t, tm, "web-slowpull-58c9d-7hxkq", "following…")
	// One line: the kubelet's "Pulled" event, which names the image.
	pulled := raw[lineCut(raw, 1648):lineCut(raw, 1649)]
	appendFile(t, path, pulled)
	waitFor(t, tm, "Event Pulled: Successfully pulled")
	// Rotated, and the rest of the log in the new file.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw[lineCut(raw, 1649):], 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tm, "was rotated")
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
	fm, ok := tm.FinalModel(t).(Model)
	if !ok {
		t.Fatalf("final model is %T", tm.FinalModel(t))
	}
	one := buildWhole(t, raw)
	want := map[string]timeline.Verdict{}
	for _, f := range one.Items {
		want[f.Pod.Key()] = f.Verdict
	}
	// The last snapshot may be on its way when q is pressed: what the
	// model holds is at most one snapshot behind, and the rotation was
	// read (its note is on the screen).
	if s := fm.render(); strings.Contains(s, "#2") {
		t.Errorf("a pod shown twice after the rotation:\n%s", s)
	}
	for _, f := range fm.all.Items {
		if _, ok := want[f.Pod.Key()]; !ok || f.Incarnation > 1 {
			t.Errorf("pod %s (incarnation %d) is not one of one pass's %v", f.Pod.Key(), f.Incarnation, want)
		}
	}
}

// `… | podflow tui -f -` on a terminal: a single line written to a quiet
// pipe shows on the screen while the pipe stays open, not when the next
// line comes (the writer writes nothing more).
func TestTUITeatestFollowStdin(t *testing.T) {
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	m := New(Options{Load: LoadOptions{Paths: []string{"-"}, Stdin: pr, Year: 2026, Follow: true}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 40))
	go pw.Write(raw[:lineCut(raw, 1500)])
	waitFor(t, tm, "web-slowpull-58c9d-7hxkq")
	// One line: the kubelet's "Pulled" event, which names the image.
	go pw.Write(raw[lineCut(raw, 1648):lineCut(raw, 1649)])
	waitFor(t, tm, "Event Pulled: Successfully pulled")
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
}

// buildWhole is one pass over raw, as get pods reads it.
func buildWhole(t *testing.T, raw []byte) *timeline.FlowList {
	t.Helper()
	path := filepath.Join(t.TempDir(), "whole.log")
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	l := newLoader(LoadOptions{Paths: []string{path}, Year: 2026})
	go l.run()
	defer l.Close()
	return waitSnapshot(t, l, "one pass", func(s snapshotMsg) bool { return s.done }).flows
}
