package tui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestTUIEndToEndTmux builds the real binary, runs it in a detached tmux
// session at 120x40 on a real log, sends keys and reads the screen back
// with capture-pane.
func TestTUIEndToEndTmux(t *testing.T) {
	bin, dir := buildForTmux(t)
	logPath, err := filepath.Abs(corpus + "02-image-pull-failure.log")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	tmux("new-session", "-d", "-s", "pf", "-x", "120", "-y", "40", "env", "TERM=xterm-256color", bin, "tui", logPath)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	capture := func() string { return tmux("capture-pane", "-p", "-t", "pf") }
	waitScreen := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		var s string
		for time.Now().Before(deadline) {
			s = capture()
			if ok(s) {
				return s
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("screen never showed %s:\n%s", what, s)
		return ""
	}
	has := func(ss ...string) func(string) bool {
		return func(s string) bool {
			for _, x := range ss {
				if !strings.Contains(s, x) {
					return false
				}
			}
			return true
		}
	}
	// The stalled pod, where it stalled, and why.
	s := waitScreen("the stalled pod", has("api-6f5b9d7c4-pl8wz", "containers/image", "⚠ STALLED 1m21s", "Failed to pull image"))
	if os.Getenv("PODFLOW_TUI_CAPTURE") != "" {
		os.WriteFile(os.Getenv("PODFLOW_TUI_CAPTURE"), []byte(s), 0o644)
	}
	// Its raw lines, read back from the file.
	tmux("send-keys", "-t", "pf", "Tab")
	tmux("send-keys", "-t", "pf", "Enter")
	waitScreen("the raw lines", has("raw lines: default/api-6f5b9d7c4-pl8wz api/image", "nginx:1.27.99"))
	tmux("send-keys", "-t", "pf", "Escape")
	waitScreen("the timeline again", func(s string) bool { return !strings.Contains(s, "raw lines:") && strings.Contains(s, "STALLED") })
	tmux("send-keys", "-t", "pf", "q")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := exec.Command("tmux", "-S", sock, "has-session", "-t", "pf").Run(); err != nil {
			return // the program quit and the session ended
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("q did not quit:\n%s", capture())
}

// buildForTmux builds the real binary into a temporary directory (tmux
// installed first when it is missing and the test may).
func buildForTmux(t *testing.T) (bin, dir string) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Geteuid() != 0 {
			t.Fatal("tmux is not installed and the test is not root: install tmux (apt-get install -y tmux) to run the end-to-end test")
		}
		// A fresh machine's package lists may be stale or empty: update first.
		for _, args := range [][]string{{"apt-get", "update"}, {"apt-get", "install", "-y", "--no-install-recommends", "tmux"}} {
			if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
				t.Fatalf("tmux is missing and %s failed: %v\n%s", strings.Join(args, " "), err, out)
			}
		}
	}
	dir = t.TempDir()
	bin = filepath.Join(dir, "podflow")
	build := exec.Command("go", "build", "-o", bin, "./cmd/podflow")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin, dir
}

// At 200x50 the TUI shows every pod's whole name (the list follows the
// terminal); resized to 80x24 it stays readable: every line fits, the
// columns keep their headers, and long names are cut in the middle,
// keeping their unique suffix.
func TestTUIEndToEndTmuxWidths(t *testing.T) {
	bin, dir := buildForTmux(t)
	logDir, err := filepath.Abs(corpus)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "get", "pods", logDir, "-o", "name").Output()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range strings.Fields(string(out)) {
		names = append(names, l[strings.LastIndexByte(l, '/')+1:])
	}
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	tmux("new-session", "-d", "-s", "pf", "-x", "200", "-y", "50", "env", "TERM=xterm-256color", "NO_COLOR=1", bin, "tui", logDir)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	wait := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		var s string
		for time.Now().Before(deadline) {
			s = tmux("capture-pane", "-p", "-t", "pf")
			if ok(s) {
				return s
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("screen never showed %s:\n%s", what, s)
		return ""
	}
	all := fmt.Sprintf("%d/%d pods", len(names), len(names))
	s := wait("every pod whole at 200x50", func(s string) bool {
		if !strings.Contains(s, all) {
			return false
		}
		for _, n := range names {
			if !strings.Contains(s, n) {
				return false
			}
		}
		return true
	})
	if os.Getenv("PODFLOW_TUI_CAPTURE") != "" {
		os.WriteFile(os.Getenv("PODFLOW_TUI_CAPTURE")+".200x50", []byte(s), 0o644)
	}
	tmux("resize-window", "-t", "pf", "-x", "80", "-y", "24")
	s = wait("the list at 80x24", func(s string) bool {
		return strings.Contains(s, "NAME") && strings.Contains(s, "…-") && len(strings.Split(strings.TrimRight(s, "\n"), "\n")) <= 24
	})
	for i, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if w := lipglossWidth(l); w > 80 {
			t.Errorf("80x24: line %d is %d wide: %q", i, w, l)
		}
	}
	for _, want := range []string{"STAGE", "TIMELINE", "? help", "q close/quit"} {
		if !strings.Contains(s, want) {
			t.Errorf("80x24 lacks %q:\n%s", want, s)
		}
	}
	// A shortened name keeps its unique suffix: payments-7b4d9c8f6-q9zrt.
	if !strings.Contains(s, "-q9zrt") && !strings.Contains(s, "-m2v6n") {
		t.Errorf("80x24: no shortened name keeps its suffix:\n%s", s)
	}
	tmux("send-keys", "-t", "pf", "q")
}
