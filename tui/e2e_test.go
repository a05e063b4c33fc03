package tui

import (
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
	dir := t.TempDir()
	bin := filepath.Join(dir, "podflow")
	build := exec.Command("go", "build", "-o", bin, "./cmd/podflow")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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
	s := waitScreen("the stalled pod", has("api-6f5b9d7c4-pl8wz", "containers/image", "⚠ STALLED 1m12s", "Failed to pull image"))
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
