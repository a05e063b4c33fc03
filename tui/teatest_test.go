package tui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"
)

// waitFor waits until the output since the last wait holds every string.
// The wait is long because a loaded machine (CI, the race detector) can be
// slow to load a log and render; a passing test never waits that long.
func waitFor(t *testing.T, tm *teatest.TestModel, ss ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, s := range ss {
			if !bytes.Contains(b, []byte(s)) {
				return false
			}
		}
		return true
	},
		teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(100*time.Millisecond))
}

func TestTUITeatestStallRawFilterZoom(t *testing.T) {
	m := New(Options{Load: LoadOptions{Paths: []string{corpus + "02-image-pull-failure.log"}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "STALLED 1m21s", "Failed to pull image", "api/image")
	tm.Send(keyMsg("tab"))
	tm.Send(keyMsg("enter"))
	waitFor(t, tm, "raw lines: default/api-6f5b9d7c4-pl8wz api/image")
	tm.Send(keyMsg("esc"))
	tm.Send(keyMsg("+"))
	waitFor(t, tm, "zoom 2x")
	tm.Type("/api")
	// The renderer writes only the cells that change: a slow machine
	// renders each typed letter in a frame of its own, so "filter:api"
	// need never appear whole in the output. The model says what was typed.
	waitFor(t, tm, "filter:")
	tm.Send(keyMsg("enter"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
	fm, ok := tm.FinalModel(t).(Model)
	if !ok {
		t.Fatalf("final model is %T", tm.FinalModel(t))
	}
	if fm.filter != "api" || fm.filtering {
		t.Errorf("after typing /api and enter: filter %q (editing %v), want \"api\" kept", fm.filter, fm.filtering)
	}
}

func TestTUITeatestReplay(t *testing.T) {
	m := New(Options{Replay: true, Speed: 1, Load: LoadOptions{Paths: []string{corpus + "04-sandbox-failure.log"}}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "▶ playing")
	tm.Send(keyMsg("p"))
	waitFor(t, tm, "⏸ paused")
	for i := 0; i < 30; i++ {
		tm.Send(keyMsg("."))
	}
	// The renderer writes only the cells that change: stepping from
	// "SLOW 58.4s" to "SLOW 59.4s" writes one digit. The final screen says
	// where the steps got to.
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
	fm, ok := tm.FinalModel(t).(Model)
	if !ok {
		t.Fatalf("final model is %T", tm.FinalModel(t))
	}
	if screen := fm.render(); !strings.Contains(screen, "SLOW 59.4s") || !strings.Contains(screen, "⏸ paused") {
		t.Errorf("after 30 steps the screen does not show the sandbox SLOW 59.4s, paused:\n%s", screen)
	}
}

// TestTUIShowsPodLimit: when --max-pods cuts the analysis, the status
// line says so, and the model hands the warning on for the exit code.
func TestTUIShowsPodLimit(t *testing.T) {
	m := New(Options{Load: LoadOptions{Paths: []string{corpus + "07-twenty-pods.log"}, MaxFlows: 3}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(200, 40))
	waitFor(t, tm, "pod limit reached: analysed the first 3 pods")
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
	fm := tm.FinalModel(t).(Model)
	if len(fm.Warnings()) == 0 || !strings.Contains(fm.Warnings()[0].Error(), "pod limit") {
		t.Errorf("warnings %v: want the pod limit first", fm.Warnings())
	}
}
