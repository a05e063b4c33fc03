package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// podflow tui -f in a real terminal (tmux), on a log written as a quiet
// kubelet writes it: the first pass shows the pod waiting on its image
// pull and the wait's timer moves while nothing is written; one line
// appended (the pull's end) shows; the log is rotated (renamed, the rest
// in a new file) and then copy-truncated (cut to nothing and written
// on), and the screen says so and goes on with the same pod: it reaches
// the verdict one pass over the whole log gives, never shown twice.
func TestTUIEndToEndTmuxFollowRotate(t *testing.T) {
	bin, dir := buildForTmux(t)
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	logPath := filepath.Join(dir, "kubelet.log")
	if err := os.WriteFile(logPath, raw[:lineCut(raw, 1500)], 0o644); err != nil {
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
	tmux("new-session", "-d", "-s", "pf", "-x", "140", "-y", "40", "env", "TERM=xterm-256color", bin, "tui", "-f", "--year", "2026", logPath)
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	capture := func() string { return tmux("capture-pane", "-p", "-t", "pf") }
	// Generous: a loaded machine is slow to start and render; a passing
	// run waits a fraction of it.
	waitScreen := func(what string, ok func(string) bool) string {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
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
	first := waitScreen("the waiting pod", has("web-slowpull-58c9d-7hxkq", "following…", "WAITING"))
	wait0 := waitingFigure(first)
	// Nothing written: the wait's timer moves on.
	waitScreen("the wait growing", func(s string) bool { w := waitingFigure(s); return w != "" && w != wait0 })

	// One line: the pull's end.
	f, err := os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(raw[lineCut(raw, 1648):lineCut(raw, 1649)])
	f.Close()
	waitScreen("the line appended", has("Event Pulled: Successfully pulled"))

	// Rotated: renamed, what follows in a new file.
	if err := os.Rename(logPath, logPath+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logPath, raw[lineCut(raw, 1649):lineCut(raw, 1900)], 0o644); err != nil {
		t.Fatal(err)
	}
	waitScreen("the rotation", has("was rotated"))
	// Copy-truncated: cut, and written on.
	if err := os.Truncate(logPath, 0); err != nil {
		t.Fatal(err)
	}
	// As copytruncate: the writer goes on after the cut, which the
	// follower (polling, as tail -F) is let see first on a slow machine:
	// a cut written past the old size before a poll is growth to it.
	waitScreen("the truncation", has("was truncated"))
	f, err = os.OpenFile(logPath, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(raw[lineCut(raw, 1900):])
	f.Close()
	one := buildWhole(t, raw)
	if len(one.Items) != 1 {
		t.Fatalf("one pass: %d pods, want the one", len(one.Items))
	}
	verdict := string(one.Items[0].Verdict)
	s := waitScreen("the truncation and the pod's verdict of one pass ("+verdict+")", has("was truncated", "1/1 pods", verdict))
	if strings.Contains(s, "#2") {
		t.Errorf("the pod is shown twice after the rotation:\n%s", s)
	}
	tmux("send-keys", "-t", "pf", "q")
}

// waitingFigure is the figure after "WAITING " on the screen ("" when
// there is none).
func waitingFigure(s string) string {
	_, after, ok := strings.Cut(s, "WAITING ")
	if !ok {
		return ""
	}
	fig, _, _ := strings.Cut(after, " ")
	return fig
}
