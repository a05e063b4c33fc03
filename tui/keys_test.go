package tui

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// TestKeysOneMeaning: the key table gives each key one meaning: a key
// bound to two different actions (n: "node" on the list and "next
// match" on a page; enter: "open" and "close"; space: "pause" and "page
// down"; q: "quit" and "close") is an error.
func TestKeysOneMeaning(t *testing.T) {
	meaning := map[string]string{}
	for _, col := range keyTable {
		for _, a := range col {
			name := a.b.Help().Desc
			if a.main == nil && a.page == nil {
				t.Errorf("%q does nothing anywhere", name)
			}
			for _, k := range a.b.Keys() {
				if prev, ok := meaning[k]; ok && prev != name {
					t.Errorf("key %q means %q and %q", k, prev, name)
				}
				meaning[k] = name
			}
		}
	}
	// The bindings the old tables gave two meanings, now one each.
	for k, want := range map[string]string{"n": "next/prev match", "enter": "open", "space": "page down", "q": "close/quit", "o": "node", "p": "pause"} {
		if meaning[k] != want {
			t.Errorf("key %q means %q, want %q", k, meaning[k], want)
		}
	}
}

// TestTUICursorOnWorstAfterLoad: after loading, the cursor is on the worst
// pod (the list's first), not on the first pod that loaded; once the user
// moves it, it stays where they put it.
func TestTUICursorOnWorstAfterLoad(t *testing.T) {
	// As a load goes: a first snapshot of the twenty Running pods, then
	// the last with the Stalled one too.
	first := loaded(t, Options{}, 120, 40, corpus+"07-twenty-pods.log")
	all := loaded(t, Options{}, 120, 40, corpus+"07-twenty-pods.log", corpus+"02-image-pull-failure.log")
	m := New(Options{})
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	tm, _ = tm.Update(snapshotMsg{flows: first.all, srcs: first.srcs})
	tm, _ = tm.Update(snapshotMsg{flows: all.all, srcs: all.srcs, done: true})
	m = tm.(Model)
	f := m.selected()
	if f == nil {
		t.Fatal("no pod selected")
	}
	if f.Pod.Name != "api-6f5b9d7c4-pl8wz" || f.Verdict != timeline.VerdictStalled {
		t.Fatalf("cursor on %s (%s), want the Stalled api-6f5b9d7c4-pl8wz", f.Pod.Key(), f.Verdict)
	}
	if !strings.Contains(screen(m), ">! api-6f5b9d7c4-pl8wz") {
		t.Errorf("the cursor is not drawn on the worst pod:\n%s", screen(m))
	}
	// Once the user moved the cursor, a snapshot leaves it there.
	moved := press(m, "j")
	want := moved.selected().Pod.Key()
	again, _ := moved.Update(snapshotMsg{flows: all.all, srcs: all.srcs, done: true})
	am := again.(Model)
	if got := am.selected().Pod.Key(); got != want {
		t.Errorf("a snapshot moved the cursor the user put on %s to %s", want, got)
	}
}

// TestTUIEnterOpensPod: enter on the pod list opens the pod (its describe
// page); on a page it does not close it.
func TestTUIEnterOpensPod(t *testing.T) {
	o := Options{}
	fakePages(&o)
	m := loaded(t, o, 120, 40, corpus+"04-sandbox-failure.log")
	d := pressRun(m, "enter")
	s := screen(d)
	if !strings.Contains(s, "describe pod default/payments-7b4d9c8f6-q9zrt") {
		t.Fatalf("enter did not open the pod:\n%s", s)
	}
	if !strings.Contains(screen(press(d, "enter")), "describe pod default/payments") {
		t.Error("enter closed the page")
	}
	if strings.Contains(screen(press(d, "q")), "describe pod default/payments") {
		t.Error("q did not close the page")
	}
}

// TestTUIRecordsAsParse: the record count the status line shows is the
// one 'podflow parse --stats' gives (its RECORDS total: every record the
// parser read, those the engine has no use for included).
func TestTUIRecordsAsParse(t *testing.T) {
	wild, _ := filepath.Glob("../testdata/wild/*.log")
	if len(wild) < 10 {
		t.Fatalf("wild: %d files", len(wild))
	}
	inputs := [][]string{
		{corpus + "05-crashloop-backoff.log"},
		{corpus + "08-happy-path-json-v4.log"},
		{corpus + "07-twenty-pods.log", corpus + "01-happy-path.log"},
		wild[:10],
	}
	count := regexp.MustCompile(`(?m)^ (\d+) records`)
	for _, paths := range inputs {
		srcs, _ := parser.Discover(paths, nil)
		mr := parser.NewMultiReader(srcs, parser.Options{})
		for {
			if _, err := mr.Next(); err != nil {
				break
			}
		}
		want := mr.Stats().Records
		mr.Close()
		m := loaded(t, Options{}, 120, 40, paths...)
		got := count.FindStringSubmatch(screen(m))
		if got == nil {
			t.Fatalf("%v: no record count on screen:\n%s", paths, screen(m))
		}
		if n, _ := strconv.ParseInt(got[1], 10, 64); n != want {
			t.Errorf("%v: %d records shown, parse --stats counts %d", paths, n, want)
		}
	}
}

// TestTUILabelsApart renders the timeline of every pod of logs with long
// container names at 80 and 120 columns: a row's label never runs into
// its value (one blank between them, "log-shipper/imagepending" was one
// word).
func TestTUILabelsApart(t *testing.T) {
	files := []string{corpus + "01-happy-path.log", corpus + "10-init-container-crashloop.log", corpus + "05-crashloop-backoff.log",
		"../testdata/corpus/v1.35.4/14-sidecar-running.log", "../testdata/corpus/v1.35.4/15-sidecar-crashloop.log"}
	for _, w := range []int{80, 120} {
		m := loaded(t, Options{}, w, 50, files...)
		rows := 0
		for i := 0; i < len(m.vis); i++ {
			inTimeline := false
			for _, l := range strings.Split(screen(m), "\n") {
				_, pane, ok := strings.Cut(l, "│")
				if !ok {
					continue
				}
				r := []rune(pane)
				switch {
				case strings.Contains(pane, "───"):
					inTimeline = true
					continue
				case strings.Contains(pane, "DETAIL"):
					inTimeline = false
				}
				if !inTimeline || strings.Contains(pane, "⚠") || len(r) <= tlLabelW {
					continue
				}
				rows++
				if r[tlLabelW] != ' ' {
					t.Errorf("%d columns, pod %s: label runs into its value: %q", w, m.selected().Pod.Name, pane)
				}
			}
			m = press(m, "j")
		}
		if rows < 40 {
			t.Errorf("%d columns: %d timeline rows checked", w, rows)
		}
	}
}
