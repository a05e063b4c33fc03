package tui

import (
	"strings"
	"testing"
	"time"
)

// at moves the paused replay clock to t, as stepping would.
func at(m Model, t time.Time) Model {
	m.paused = true
	m.clock = t
	m.refresh()
	return m
}

// Replay never shows the future: at log time T every figure is what the
// log had said by T, and going back takes the figures back.
func TestTUIReplayNoFuture(t *testing.T) {
	// The image pull fails three times; at 06:05:37.460 it had failed once,
	// 1.2s after it began.
	m := loaded(t, Options{Replay: true}, 120, 40, corpus+"02-image-pull-failure.log")
	m = press(m, "p")
	early := time.Date(2026, 11, 22, 6, 5, 37, 460000000, time.UTC)
	m = at(m, early)
	s := screen(m)
	if !strings.Contains(s, "STALLED 1.21s, 1 failed attempts") || strings.Contains(s, "3 failed attempts") || strings.Contains(s, "1m21s") {
		t.Errorf("at 06:05:37.460 the screen does not say what the log had said (1 failed attempt, 1.2s):\n%s", s)
	}
	// To the end: the whole log's figures.
	for i := 0; i < 100 && m.clock.Before(m.rEnd); i++ {
		m = press(m, ".")
	}
	if s := screen(m); !strings.Contains(s, "3 failed attempts") {
		t.Errorf("at the end the screen lacks the 3 failed attempts:\n%s", s)
	}
	// And back: the figures of then again.
	for i := 0; i < 100 && m.clock.After(early); i++ {
		m = press(m, ",")
	}
	if s := screen(m); strings.Contains(s, "3 failed attempts") || strings.Contains(s, "2 failed attempts") {
		t.Errorf("stepping back to %s still shows the later attempts:\n%s", m.clock.Format("15:04:05.000"), s)
	}

	// The container crash-loops four times; at 06:09:40 it had restarted
	// once and was running.
	m = loaded(t, Options{Replay: true}, 120, 40, corpus+"05-crashloop-backoff.log")
	m = at(press(m, "p"), time.Date(2026, 11, 22, 6, 9, 40, 0, time.UTC))
	s = screen(m)
	if strings.Contains(s, "↻4") || strings.Contains(s, "restarted 4 times") || strings.Contains(s, "✗ worker") {
		t.Errorf("at 06:09:40 the crash loop shows its future:\n%s", s)
	}
	if !strings.Contains(s, "worker/restarts") || !strings.Contains(s, "↻1") {
		t.Errorf("at 06:09:40 the one restart so far is not drawn:\n%s", s)
	}
}
