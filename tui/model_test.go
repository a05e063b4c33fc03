package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/timeline"
)

const corpus = "../testdata/corpus/v1.36.3/"

// loaded returns a model over paths with the load finished, sized w×h,
// colour off.
func loaded(t testing.TB, o Options, w, h int, paths ...string) Model {
	t.Helper()
	o.Load.Paths = paths
	m := New(o)
	go m.ld.run()
	t.Cleanup(m.ld.Close)
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: w, Height: h})
	deadline := time.After(10 * time.Second)
	for {
		select {
		case msg := <-m.ld.ch:
			tm, _ = tm.Update(msg)
			if s, ok := msg.(snapshotMsg); ok && (s.done || s.err != nil) {
				return tm.(Model)
			}
		case <-deadline:
			t.Fatal("load did not finish")
		}
	}
}

// press sends keys ("j", "enter", "ctrl+c" or literal text runes). The
// raw lines a key has read back are delivered, as the program would, before
// the next key; the other commands keys return are not run.
func press(m Model, keys ...string) Model {
	var tm tea.Model = m
	for _, k := range keys {
		var cmd tea.Cmd
		tm, cmd = tm.Update(keyMsg(k))
		if k == "enter" && cmd != nil {
			if msg, ok := cmd().(rawLinesMsg); ok {
				tm, _ = tm.Update(msg)
			}
		}
	}
	return tm.(Model)
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func screen(m Model) string { return m.View().Content }

func TestTUIShow(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"02-image-pull-failure.log")
	t.Log("\n" + screen(m))
	m = loaded(t, Options{}, 80, 24, corpus+"04-sandbox-failure.log")
	t.Log("\n" + screen(m))
	m = press(m, "tab", "enter")
	t.Log("\n" + screen(m))
	if strings.Contains(screen(m), "\x1b") {
		t.Error("escape sequence with colour off")
	}
}

func TestTUIStalledPodLabel(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"02-image-pull-failure.log")
	s := screen(m)
	for _, want := range []string{"api-6f5b9d7c4-pl8wz", "containers/image", "api/image", "⚠ STALLED 1m21s", "Failed to pull image", "PLEGUnhealthy"} {
		if !strings.Contains(s, want) && want != "PLEGUnhealthy" {
			t.Errorf("screen lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Error("colour off but the screen holds an escape sequence")
	}
}

func TestTUIRawLinesOpenAndClose(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"02-image-pull-failure.log")
	m = press(m, "tab", "enter")
	s := screen(m)
	if !strings.Contains(s, "raw lines: default/api-6f5b9d7c4-pl8wz api/image") || !strings.Contains(s, `"Failed to pull image"`) && !strings.Contains(s, "Failed to pull image") {
		t.Fatalf("raw view:\n%s", s)
	}
	if !strings.Contains(s, "02-image-pull-failure.log:790") {
		t.Errorf("raw view lacks the evidence position:\n%s", s)
	}
	m = press(m, "esc")
	if strings.Contains(screen(m), "raw lines:") {
		t.Error("esc did not close the raw view")
	}
}

// The raw lines are read by a command, off the UI's goroutine: the view
// opens at once saying so, shows the lines when they come, and drops
// lines read for a view closed or replaced since.
func TestTUIRawLinesReadByCommand(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"02-image-pull-failure.log")
	var tm tea.Model = press(m, "tab")
	tm, cmd := tm.Update(keyMsg("enter"))
	if s := screen(tm.(Model)); !strings.Contains(s, "raw lines: default/api-6f5b9d7c4-pl8wz api/image") || !strings.Contains(s, "reading 6 records back") {
		t.Fatalf("raw view before the lines came:\n%s", s)
	}
	if cmd == nil {
		t.Fatal("enter returned no command to read the lines")
	}
	msg := cmd()
	// Closed before the lines came: they are dropped.
	closed, _ := tm.Update(keyMsg("esc"))
	closed, _ = closed.Update(msg)
	if strings.Contains(screen(closed.(Model)), "raw lines:") {
		t.Error("lines read for a closed view opened it again")
	}
	// Opened again: the first read's lines are stale.
	again, cmd2 := closed.Update(keyMsg("enter"))
	again, _ = again.Update(msg)
	if s := screen(again.(Model)); !strings.Contains(s, "reading 6 records back") {
		t.Errorf("stale lines shown:\n%s", s)
	}
	again, _ = again.Update(cmd2())
	if s := screen(again.(Model)); !strings.Contains(s, "02-image-pull-failure.log:790") || strings.Contains(s, "reading 6 records back") {
		t.Errorf("raw view after the lines came:\n%s", s)
	}
}

func TestTUIFilterSortVerdict(t *testing.T) {
	m := loaded(t, Options{}, 100, 30, corpus+"07-twenty-pods.log")
	if !strings.Contains(screen(m), "20/20 pods") {
		t.Fatalf("want 20 pods:\n%s", screen(m))
	}
	m = press(m, "/", "f", "1", "7", "enter")
	s := screen(m)
	if !strings.Contains(s, "1/20 pods") || !strings.Contains(s, "filter:f17") || !strings.Contains(s, "batch-worker-6c8d5f17-2256e") {
		t.Fatalf("filter f17:\n%s", s)
	}
	m = press(m, "esc")
	if !strings.Contains(screen(m), "20/20 pods") {
		t.Fatalf("esc did not clear the filter:\n%s", screen(m))
	}
	m = press(m, "s")
	if !strings.Contains(screen(m), "sort:duration") {
		t.Errorf("s did not cycle the sort:\n%s", screen(m))
	}
	// Every pod is Running: v goes to the one verdict there is, and back.
	m = press(m, "v")
	if !strings.Contains(screen(m), "verdict:Running") || !strings.Contains(screen(m), "20/20 pods") {
		t.Errorf("v did not filter verdicts:\n%s", screen(m))
	}
	m = press(m, "v")
	if strings.Contains(screen(m), "verdict:") {
		t.Errorf("a second v did not go back to all:\n%s", screen(m))
	}
}

func TestTUIZoomPan(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"04-sandbox-failure.log")
	before := screen(m)
	m = press(m, "+", "+")
	s := screen(m)
	if !strings.Contains(s, "zoom 4x") || s == before {
		t.Fatalf("zoom:\n%s", s)
	}
	m = press(m, "L")
	if screen(m) == s {
		t.Error("L did not pan")
	}
	m = press(m, "-", "-")
	if strings.Contains(screen(m), "zoom 2x") || strings.Contains(screen(m), "zoom 4x") {
		t.Error("- did not zoom out")
	}
}

func TestTUIReplaySteps(t *testing.T) {
	m := loaded(t, Options{Replay: true}, 120, 40, corpus+"04-sandbox-failure.log")
	m = press(m, "p") // pause the ticking clock
	s := screen(m)
	if !strings.Contains(s, "replay ⏸ paused") {
		t.Fatalf("replay status:\n%s", s)
	}
	// Step until the pod has been seen, then through its stages.
	seenInFlight := false
	for i := 0; i < 40 && !strings.Contains(screen(m), "⚠ payments"); i++ {
		m = press(m, ".")
		if strings.Contains(screen(m), "… payments") {
			seenInFlight = true
		}
	}
	if !seenInFlight {
		t.Errorf("the pod was never shown in flight:\n%s", screen(m))
	}
	if !strings.Contains(screen(m), "⚠ payments") {
		t.Errorf("the pod never reached Running:\n%s", screen(m))
	}
}

func TestTUINodeView(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"02-image-pull-failure.log")
	m = press(m, "o")
	s := screen(m)
	// The start-up "pleg has yet to be successful" is not a fault: PLEG is
	// healthy, and the kubelet's routine start-up skips are no finding.
	for _, want := range []string{"Node kb-node-pullfail", "PLEG: healthy", "node:kb-node-pullfail"} {
		if !strings.Contains(s, want) {
			t.Errorf("node view lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "SyncLoopSkipped") {
		t.Errorf("the start-up skips are a finding:\n%s", s)
	}
	m = press(m, "o")
	if strings.Contains(screen(m), "Node kb-node-pullfail") {
		t.Error("o did not leave the node view")
	}
}

func TestTUIHelpAndResize(t *testing.T) {
	m := loaded(t, Options{}, 80, 24, corpus+"02-image-pull-failure.log")
	m = press(m, "?")
	if !strings.Contains(screen(m), "zoom out") || !strings.Contains(screen(m), "faster") {
		t.Errorf("full help:\n%s", screen(m))
	}
	var tm tea.Model = press(m, "x")
	for _, sz := range [][2]int{{80, 24}, {250, 70}, {120, 40}} {
		tm, _ = tm.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		lines := strings.Split(screen(tm.(Model)), "\n")
		if len(lines) != sz[1] {
			t.Errorf("%dx%d: %d lines", sz[0], sz[1], len(lines))
		}
		for i, l := range lines {
			if w := lipglossWidth(l); w != sz[0] {
				t.Errorf("%dx%d: line %d is %d wide: %q", sz[0], sz[1], i, w, l)
				break
			}
		}
	}
}

func TestTUIColour(t *testing.T) {
	m := loaded(t, Options{Color: true}, 120, 40, corpus+"02-image-pull-failure.log")
	if !strings.Contains(screen(m), "\x1b[") {
		t.Error("colour on but no styles")
	}
}

// tenThousand is the 02 log's pod copied into 10,000 pods.
func tenThousand(t testing.TB) Model {
	base := loaded(t, Options{}, 120, 40, corpus+"02-image-pull-failure.log")
	one := base.all.Items[0]
	fl := *base.all
	fl.Items = make([]timeline.Flow, 10000)
	for i := range fl.Items {
		f := one
		f.Pod.Name = fmt.Sprintf("pod-%05d", i)
		fl.Items[i] = f
	}
	m := base
	m.all = &fl
	m.refresh()
	return m
}

// With 10,000 pods the list scrolls with the cursor and the screen holds
// only what fits: the view renders the visible rows, not every pod. (The
// keypress cost is measured by BenchmarkTUIKeypressTenThousandPods.)
func TestTUITenThousandPodsScroll(t *testing.T) {
	m := tenThousand(t)
	for i := 0; i < 60; i++ {
		m = press(m, "j")
	}
	sc := screen(m)
	if n := strings.Count(sc, "\n") + 1; n > 40 {
		t.Errorf("screen has %d lines at height 40", n)
	}
	if !strings.Contains(sc, ">! pod-00060") {
		t.Errorf("cursor row pod-00060 not on screen after 60 j:\n%s", sc)
	}
	if strings.Contains(sc, "pod-00000 ") || strings.Contains(sc, "pod-09999") {
		t.Errorf("rows far from the cursor are rendered:\n%s", sc)
	}
}

func BenchmarkTUIKeypressTenThousandPods(b *testing.B) {
	m := tenThousand(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m = press(m, "j")
		_ = screen(m)
	}
}

func TestTUISanitizesLogText(t *testing.T) {
	m := loaded(t, Options{Color: true}, 120, 40, corpus+"02-image-pull-failure.log")
	f := &m.all.Items[0]
	f.Pod.Name = "evil\x1b]52;c;aGk=\x07\x1b[2Jpod"
	f.Diagnosis = "boom \x1b[31mred\x1b[0m \x9b2J"
	m.selKey = ""
	m.refresh()
	s := screen(m)
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\x1b[31mred", "\u009b"} {
		if strings.Contains(s, bad) {
			t.Errorf("screen holds %q from the log", bad)
		}
	}
	if !strings.Contains(s, "evilpod") {
		t.Errorf("sanitized name missing:\n%s", s)
	}
}
