package tui

import (
	"strings"
	"testing"
)

// The loading bar: its fill follows the bytes read, it fits its width, and
// without colour it is plain characters.
func TestRenderProgress(t *testing.T) {
	plain := renderProgress(newStyles(false), 50, 100, 30)
	if strings.Contains(plain, "\x1b") || !strings.HasSuffix(plain, " 50%") || len([]rune(plain)) != 30 {
		t.Errorf("no colour: %q", plain)
	}
	if full, empty := strings.Count(plain, "#"), strings.Count(plain, "."); full-empty > 1 || empty-full > 1 || full == 0 {
		t.Errorf("half read: %d filled, %d empty in %q", full, empty, plain)
	}
	if done := renderProgress(newStyles(false), 100, 100, 30); strings.Contains(done, ".") || !strings.HasSuffix(done, "100%") {
		t.Errorf("all read: %q", done)
	}
	if c := renderProgress(newStyles(true), 50, 100, 30); !strings.Contains(c, "\x1b[") {
		t.Errorf("colour: no styles in %q", c)
	}
	if renderProgress(newStyles(false), 1, 0, 30) != "" {
		t.Error("unknown total (stdin): want no bar")
	}
}
