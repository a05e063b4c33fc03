package tui

import (
	"regexp"
	"strings"
	"testing"
)

// A crash-looping pod's timeline draws its container's runs (█) and the
// back-offs between them (░) after its first start, on an axis that goes
// on to the flow's end; the row's detail lists them.
func TestTUICrashLoopCycles(t *testing.T) {
	m := loaded(t, Options{}, 120, 40, corpus+"05-crashloop-backoff.log")
	s := screen(m)
	var row string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, "worker/restarts") {
			row = l
		}
	}
	if row == "" || !strings.Contains(row, "↻4") {
		t.Fatalf("no restart row with 4 restarts:\n%s", s)
	}
	bar := row[strings.Index(row, "↻4")+len("↻4"):]
	// Five runs; the first back-off (246ms) is narrower than a cell at
	// this width, so the first two may join.
	if runs := len(regexp.MustCompile(`█+`).FindAllString(bar, -1)); runs < 4 {
		t.Errorf("restart row draws %d runs, want 4 or more: %q", runs, bar)
	}
	if backOffs := len(regexp.MustCompile(`░+`).FindAllString(bar, -1)); backOffs < 3 {
		t.Errorf("restart row draws %d back-offs, want 3 or more: %q", backOffs, bar)
	}
	if !strings.Contains(s, "+1m36s") {
		t.Errorf("the axis stops before the crash loop's end:\n%s", s)
	}
	m = press(m, "tab", "j")
	s = screen(m)
	if !regexp.MustCompile(`Container worker: 4 restarts, \d+ back-offs, last exit code 1`).MatchString(strings.Join(strings.Fields(s), " ")) {
		t.Errorf("restart row's detail lacks the restarts and back-offs:\n%s", s)
	}
	for _, want := range []string{"back-off 12.2s", "back-off 24.1s", "back-off 40s", "run 5"} {
		if !strings.Contains(strings.Join(strings.Fields(s), " "), want) {
			t.Errorf("restart row's detail lacks %q:\n%s", want, s)
		}
	}
}
