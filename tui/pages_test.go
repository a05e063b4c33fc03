package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// fakePages are renderers that say what they were asked for, as
// cmd/tui.go's would render it.
func fakePages(o *Options) {
	o.Describe = func(f *timeline.Flow, fl *timeline.FlowList, srcs []parser.Source, w int) (string, error) {
		return fmt.Sprintf("Name:         %s\nWidth:        %d\nSources:      %d\n", f.Pod.Name, w, len(srcs)), nil
	}
	o.Lines = func(f *timeline.Flow, srcs []parser.Source, stage string) (string, error) {
		var b strings.Builder
		for i := 1; i <= 40; i++ {
			lvl := "I"
			if i%10 == 0 {
				lvl = "E"
			}
			fmt.Fprintf(&b, "kubelet.log:%d:%s1122 06:08:%02d.000000 1 x.go:1] \"line %d of %s\" stage=%q\n", i, lvl, i, i, f.Pod.Name, stage)
		}
		return b.String(), nil
	}
	o.Object = func(f *timeline.Flow, format string) (string, error) {
		if format == "json" {
			return fmt.Sprintf("{\n  \"pod\": {\"name\": %q}\n}\n", f.Pod.Name), nil
		}
		return fmt.Sprintf("pod:\n  name: %s\n", f.Pod.Name), nil
	}
}

// pressRun is press that also runs the command a key returns and hands
// its message back, as the program would (a page's text comes so).
func pressRun(m Model, keys ...string) Model {
	var tm tea.Model = m
	for _, k := range keys {
		var cmd tea.Cmd
		tm, cmd = tm.Update(keyMsg(k))
		if cmd == nil {
			continue
		}
		switch msg := cmd().(type) {
		case pageTextMsg, rawLinesMsg:
			tm, _ = tm.Update(msg)
		}
	}
	return tm.(Model)
}

// d, l and y open the selected pod's describe, lines and YAML (y again:
// JSON) pages, rendered by the renderers the command gives; esc closes.
func TestTUIPodPages(t *testing.T) {
	o := Options{}
	fakePages(&o)
	m := loaded(t, o, 120, 40, corpus+"07-twenty-pods.log", corpus+"04-sandbox-failure.log")
	m = press(m, "/", "q", "9", "z", "enter") // payments-7b4d9c8f6-q9zrt
	pod := "payments-7b4d9c8f6-q9zrt"

	d := pressRun(m, "d")
	s := screen(d)
	for _, want := range []string{"describe pod default/" + pod, "Name:         " + pod, "Width:        120", "Sources:      2", "esc close"} {
		if !strings.Contains(s, want) {
			t.Errorf("d: the page lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(screen(press(d, "esc")), "describe pod") {
		t.Error("esc did not close the describe page")
	}

	l := pressRun(m, "l")
	if s := screen(l); !strings.Contains(s, "lines pod default/"+pod) || !strings.Contains(s, `"line 1 of `+pod+`" stage=""`) {
		t.Errorf("l: the page:\n%s", s)
	}

	y := pressRun(m, "y")
	if s := screen(y); !strings.Contains(s, "-o yaml") || !strings.Contains(s, "name: "+pod) {
		t.Errorf("y: the page:\n%s", s)
	}
	j := pressRun(y, "y")
	if s := screen(j); !strings.Contains(s, "-o json") || !strings.Contains(s, `"name": "`+pod+`"`) {
		t.Errorf("y y: the page:\n%s", s)
	}
}

// o opens the node of the selected pod, not the first node.
func TestTUINodeOfSelectedPod(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"07-twenty-pods.log", corpus+"04-sandbox-failure.log")
	m = press(m, "/", "q", "9", "z", "enter", "esc")
	if !strings.Contains(screen(m), ">⚠ payments-7b4d9c8f6-q9zrt") {
		t.Fatalf("payments not selected:\n%s", screen(m))
	}
	s := screen(press(m, "o"))
	if !strings.Contains(s, "Node kb-node-sandboxfail") || !strings.Contains(s, "node:kb-node-sandboxfail") {
		t.Errorf("o did not open the selected pod's node:\n%s", s)
	}
}

// v steps through the verdicts that occur, then back to all: never to a
// filter that shows nothing.
func TestTUIVerdictCycleOnlyOccurring(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus)
	want := []string{"problems", "Running", "Failed", "Stalled"}
	got := []string{}
	for i := 0; i < 12; i++ {
		m = press(m, "v")
		s := screen(m)
		if strings.Contains(s, " 0/") {
			t.Errorf("v shows a filter with no pods:\n%s", s)
		}
		if m.vFilter == "" {
			break
		}
		got = append(got, m.vFilter)
	}
	if m.vFilter != "" {
		t.Fatalf("v never came back to all: %v", got)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			t.Errorf("v stepped through %v: %s missing", got, w)
		}
	}
	for _, g := range got {
		if g == string(timeline.VerdictRejected) || g == string(timeline.VerdictCompleted) {
			t.Errorf("v stepped to %s, which no pod has: %v", g, got)
		}
	}
}

// In the running program d renders the page off the UI's goroutine and
// shows it.
func TestTUITeatestDescribe(t *testing.T) {
	o := Options{Load: LoadOptions{Paths: []string{corpus + "04-sandbox-failure.log"}}}
	fakePages(&o)
	tm := teatest.NewTestModel(t, New(o), teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "payments-7b4d9c8f6-q9zrt")
	tm.Send(keyMsg("d"))
	waitFor(t, tm, "describe pod default/payments-7b4d9c8f6-q9zrt", "Width:        120")
	tm.Send(keyMsg("esc"))
	tm.Send(keyMsg("q"))
	tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
}

// enter on a stage opens every line of the stage (as lines pod --stage),
// not the few evidence lines it keeps; errors are coloured; / searches,
// n and N go to the next and previous match, and the help bar shows the
// page's own keys.
func TestTUIRawLinesAllSearchColour(t *testing.T) {
	o := Options{Color: true}
	fakePages(&o)
	m := loaded(t, o, 120, 30, corpus+"02-image-pull-failure.log")
	m = pressRun(m, "tab", "enter")
	s := screen(m)
	if !strings.Contains(s, "raw lines: default/api-6f5b9d7c4-pl8wz api/image (40 lines)") || !strings.Contains(s, `stage=\"api:image\"`) && !strings.Contains(s, `stage="api:image"`) {
		t.Fatalf("raw view of api/image:\n%s", s)
	}
	for _, want := range []string{"/ search", "n/N", "esc close"} {
		if !strings.Contains(ansi.Strip(s), want) {
			t.Errorf("help bar lacks the page's key %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "zoom") || strings.Contains(s, "d describe") {
		t.Errorf("help bar shows the list's keys on the page:\n%s", s)
	}
	red := m.st.stall.Render("kubelet.log:10:E1122")
	if !strings.Contains(s, red[:strings.Index(red, "kubelet")]+"kubelet.log:10:E1122") {
		t.Errorf("error line 10 is not coloured:\n%q", s)
	}
	m = pressRun(m, "G")
	if !strings.Contains(screen(m), `"line 40 of`) {
		t.Errorf("G does not reach line 40:\n%s", screen(m))
	}
	// The error lines, ignoring case: 10, 20, 30, 40.
	m = pressRun(m, "g", "/", "e", "1", "1", "2", "2", "enter")
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "/e1122: match 1 of 4") || !strings.Contains(s, `"line 10 of`) {
		t.Errorf("search for 'e1122':\n%s", s)
	}
	m = pressRun(m, "n", "n")
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "match 3 of 4") || !strings.Contains(s, `"line 30 of`) || strings.Contains(s, `"line 10 of`) {
		t.Errorf("n n:\n%s", s)
	}
	m = pressRun(m, "N")
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "match 2 of 4") {
		t.Errorf("N:\n%s", s)
	}
	m = pressRun(m, "N", "N")
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "match 4 of 4") {
		t.Errorf("N before the first match goes round to the last:\n%s", s)
	}
	m = pressRun(m, "esc")
	if strings.Contains(screen(m), "raw lines:") {
		t.Error("esc did not close the raw view")
	}
}
