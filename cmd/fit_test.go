package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/internal/printers"
)

func TestFitWidths(t *testing.T) {
	// NAMESPACE NAME NODE STATUS VERDICT STAGE WAIT/DUR REASON, as the
	// v1.36.3 corpus measures them.
	nat := []int{9, 27, 19, 17, 10, 37, 8, 67}
	const reason = 7
	steps := podTableSteps(reason, true, false)
	width := func(w []int, gap int) int {
		total := -gap
		for _, x := range w {
			if x > 0 {
				total += x + gap
			}
		}
		return total
	}
	tests := []struct {
		limit   int
		want    []int
		wantGap int
	}{
		{300, nat, 3}, // fits: nothing changes
		// REASON gives up width first: node and stage whole.
		{160, []int{0, 27, 19, 17, 10, 37, 8, 30}, 2},
		{120, []int{0, 27, 12, 17, 10, 20, 8, 14}, 2},
		{80, []int{0, 27, 0, 17, 10, 0, 8, 10}, 2},
		{40, []int{0, 27, 0, 17, 10, 0, 8, 1}, 2}, // past every step: clipped by the table
	}
	for _, tt := range tests {
		got, gap := fitWidths(nat, 3, reason, steps, tt.limit)
		if !slices.Equal(got, tt.want) || gap != tt.wantGap {
			t.Errorf("fit in %d = %v gap %d, want %v gap %d", tt.limit, got, gap, tt.want, tt.wantGap)
		}
		if got[colName] != nat[colName] {
			t.Errorf("fit in %d cut NAME to %d", tt.limit, got[colName])
		}
		if w := width(got, gap); w > tt.limit && tt.limit >= 80 {
			t.Errorf("fit in %d is %d wide", tt.limit, w)
		}
	}
	// Several namespaces: NAMESPACE stays.
	got, _ := fitWidths(nat, 3, reason, podTableSteps(reason, false, false), 120)
	if got[colNS] != 9 {
		t.Errorf("several namespaces: NAMESPACE width %d, want 9", got[colNS])
	}
}

func TestCuts(t *testing.T) {
	for _, tt := range []struct {
		cut  func(string, int) string
		in   string
		n    int
		want string
	}{
		{printers.CutMiddle, "payments-7b4d9c8f6-q9zrt", 18, "payments-7b…-q9zrt"},
		{printers.CutMiddle, "payments-7b4d9c8f6-q9zrt", 24, "payments-7b4d9c8f6-q9zrt"},
		{printers.CutMiddle, "batch-worker-6c8d5f20-1d9c8", 16, "batch-wor…-1d9c8"},
		{printers.CutMiddle, "averyveryverylongnamewithoutdashes", 11, "avery…ashes"},
		{cutHost, "ip-10-0-12-34.ec2.internal", 16, "ip-10-0-12-34.e…"},
		{cutHost, "kb-node-sandboxfail", 14, "kb-node…oxfail"},
		{cutStage, "init-containers/init-config:completed", 24, "…/init-config:completed"},
		{cutStage, "init-containers/init-config:completed", 18, "init-co…:completed"},
		{cutStage, "containers/api:image", 20, "containers/api:image"},
		{truncateWords, "Back-off restarting failed container worker (last exit code 1)", 20, "Back-off restarting…"},
		{truncateWords, "RunContainerError: failed to create containerd task", 20, "RunContainerError…"},
		{shorten, `Failed to pull image "docker.io/library/nginx:1.27.99": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.27.99": not found`, 34, "Failed to pull image … not found"},
	} {
		got := tt.cut(tt.in, tt.n)
		if got != tt.want {
			t.Errorf("cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if textWidth(got) > tt.n {
			t.Errorf("cut(%q, %d) = %q is wider", tt.in, tt.n, got)
		}
	}
}

// TestGetPodsFitsTerminal: on a terminal, every row of get pods over the
// v1.36.3 corpus fits the width (none wraps), every pod has its row with
// its name whole, the headers are the piped table's (less the columns
// left out), and the stalled pods' reasons keep their first words.
func TestGetPodsFitsTerminal(t *testing.T) {
	for _, width := range []int{200, 120, 100, 80, 60} {
		ioS, _, out, errOut := NewTestIO(true)
		ioS.Width = width
		if code := Main(ioS, []string{"podflow", "get", "pods", "--color", "never", corpus + "v1.36.3"}); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		// The table, then (on a terminal) the failed pods by cause.
		all := strings.TrimRight(out.String(), "\n")
		table, causes, _ := strings.Cut(all, "\n\n")
		lines := strings.Split(table, "\n")
		if len(lines) != 34 {
			t.Errorf("width %d: %d lines, want 34 (a header and 33 pods)", width, len(lines))
		}
		if !strings.HasPrefix(causes, "PODS IN TROUBLE BY CAUSE") {
			t.Errorf("width %d: no causes summary under the table: %q", width, causes)
		}
		for _, l := range strings.Split(all, "\n") {
			if textWidth(l) > width {
				t.Errorf("width %d: a line of %d columns: %q", width, textWidth(l), l)
			}
		}
		for _, name := range []string{"batch-worker-6c8d5f02-33803", "static-web-kb-node-static", "web-initfail-6d5c7-b8x4w"} {
			if !strings.Contains(out.String(), name+" ") {
				t.Errorf("width %d: %s not whole in\n%s", width, name, out)
			}
		}
		for _, h := range strings.Fields(lines[0]) {
			if width >= 80 && !slices.Contains([]string{"NAMESPACE", "NAME", "NODE", "STATUS", "VERDICT", "STAGE", "WAIT/DUR", "REASON"}, h) {
				t.Errorf("width %d: header %q is not the piped table's", width, h)
			}
		}
		if width >= 80 {
			for _, want := range []string{"ImagePull", "Back-off", "RunContainer"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("width %d: no %q in\n%s", width, want, out)
				}
			}
		}
	}
}

// TestGetPodsTmux runs the real binary in tmux at 120x40 and 80x24 and
// reads the screen back: no row of get pods wraps, and the reasons read.
func TestGetPodsTmux(t *testing.T) {
	needTmux(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "podflow")
	build := exec.Command("go", "build", "-o", bin, "./cmd/podflow")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	logs, err := filepath.Abs(corpus + "v1.36.3")
	if err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "tmux.sock")
	t.Cleanup(func() { exec.Command("tmux", "-S", sock, "kill-server").Run() })
	for _, size := range [][2]string{{"120", "40"}, {"80", "24"}} {
		t.Run(size[0]+"x"+size[1], func(t *testing.T) {
			tmux := func(args ...string) string {
				t.Helper()
				out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
				if err != nil {
					t.Fatalf("tmux %s: %v\n%s", strings.Join(args, " "), err, out)
				}
				return string(out)
			}
			session := "pf" + size[0]
			tmux("new-session", "-d", "-s", session, "-x", size[0], "-y", size[1],
				"env", "TERM=xterm-256color", "NO_COLOR=1", "sh", "-c", bin+" get pods "+logs+"; echo END-OF-RUN; sleep 60")
			var screen string
			for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				// The screen and what scrolled off it.
				screen = tmux("capture-pane", "-p", "-S", "-100", "-t", session)
				if strings.Contains(screen, "END-OF-RUN") {
					break
				}
			}
			if !strings.Contains(screen, "END-OF-RUN") {
				t.Fatalf("get pods did not finish:\n%s", screen)
			}
			var rows []string
			table, _, _ := strings.Cut(screen, "PODS IN TROUBLE BY CAUSE") // the summary under the table
			for _, l := range strings.Split(table, "\n") {
				switch {
				case strings.TrimSpace(l) == "", strings.HasPrefix(l, "podflow: "), l == "END-OF-RUN":
				default:
					rows = append(rows, l)
				}
			}
			// A wrapped row would be a line of its own: the header and 33
			// pods are 34 lines, each with a verdict.
			if len(rows) != 34 {
				t.Errorf("%d lines, want 34:\n%s", len(rows), screen)
			}
			for _, l := range rows[1:] {
				if !strings.ContainsAny(l, "RSFT") || !containsAny(l, "Running", "Stalled", "Failed", "Terminated") {
					t.Errorf("a line that is no pod's row (wrapped?): %q", l)
				}
			}
			// Names whole (never cut, as kubectl never cuts them); the
			// stalled pods' STATUS and the first words of their reasons.
			for _, want := range []string{"ImagePullBackOff", "Init:Error", "Back-off", "RunContainerError", "payments-7b4d9c8f6-q9zrt", "batch-worker-6c8d5f02-33803"} {
				if !strings.Contains(screen, want) {
					t.Errorf("screen lacks %q:\n%s", want, screen)
				}
			}
		})
	}
}

func containsAny(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// needTmux installs tmux when it is missing and the test runs as root, as
// tui/e2e_test.go does.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err == nil {
		return
	}
	if os.Geteuid() != 0 {
		t.Fatal("tmux is not installed and the test is not root: install tmux (apt-get install -y tmux) to run the end-to-end test")
	}
	for _, args := range [][]string{{"apt-get", "update"}, {"apt-get", "install", "-y", "--no-install-recommends", "tmux"}} {
		if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("tmux is missing and %s failed: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
