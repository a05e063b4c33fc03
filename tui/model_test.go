package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

const corpus = "../testdata/corpus/v1.36.3/"

// loaded returns a model over paths with the load finished, sized w×h,
// colour off.
func loaded(t *testing.T, o Options, w, h int, paths ...string) Model {
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

// press sends keys ("j", "enter", "ctrl+c" or literal text runes).
func press(m Model, keys ...string) Model {
	var tm tea.Model = m
	for _, k := range keys {
		tm, _ = tm.Update(keyMsg(k))
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
