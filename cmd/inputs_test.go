package cmd

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// inputFixtures writes one input of each bad kind next to a good one.
func inputFixtures(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	good, err := os.ReadFile(corpus + "v1.36.3/01-happy-path.log")
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile("../testdata/formats/kubelet-gz.log.gz") // compressed bytes, renamed: not text
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"good.log":   good,
		"empty.log":  nil,
		"blank.log":  []byte("\n\n\n"),
		"binary.log": append([]byte("\x00\x01ELF"), bin...),
		"notes.log":  []byte("shopping list\nmilk\neggs\n"),
		"locked.log": good,
	}
	p := map[string]string{"missing": filepath.Join(dir, "missing.log"), "emptydir": filepath.Join(dir, "nologs")}
	for name, b := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		p[strings.TrimSuffix(name, ".log")] = path
	}
	if err := os.Mkdir(p["emptydir"], 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(p["emptydir"], "README.md"), []byte("# notes\n"), 0o644)
	return p
}

// lockedOpener fails to open path as the kernel does for a file the user
// may not read; every other path opens for real.
func lockedOpener(path string) func(string) (io.Closer, error) {
	return func(name string) (io.Closer, error) {
		if name == path {
			return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
		}
		return os.Open(name)
	}
}

func TestInputErrors(t *testing.T) {
	p := inputFixtures(t)
	tests := []struct {
		name     string
		args     []string
		code     int
		stderr   []string // whole lines expected on stderr, in order
		wantPods bool
	}{
		{"missing file", []string{p["missing"]}, ExitUsage,
			[]string{"podflow: " + p["missing"] + ": no such file or directory; check the path, or give a directory of logs, or - to read standard input"}, false},
		{"directory without logs", []string{p["emptydir"]}, ExitUsage,
			[]string{"podflow: " + p["emptydir"] + ": no kubelet or container-runtime logs found in this directory; name the log files, or a directory holding kubelet.log, journal exports or a kind/Cluster API/must-gather dump"}, false},
		{"permission denied", []string{p["locked"]}, ExitUsage,
			[]string{"podflow: " + p["locked"] + ": permission denied; run podflow as a user who can read it (kubelet logs are often root's: sudo), or copy the log somewhere readable"}, false},
		{"empty file", []string{p["empty"]}, ExitUsage,
			[]string{"podflow: " + p["empty"] + ": empty; nothing to analyse (is it the right file? most kubelets log to journald: journalctl -u kubelet > kubelet.log)"}, false},
		{"blank lines only", []string{p["blank"]}, ExitUsage,
			[]string{"podflow: " + p["blank"] + ": empty; nothing to analyse (is it the right file? most kubelets log to journald: journalctl -u kubelet > kubelet.log)"}, false},
		{"binary file", []string{p["binary"]}, ExitUsage,
			[]string{"podflow: " + p["binary"] + ": binary data, not a UTF-8 text log; pass the kubelet's text log (kubelet.log, journalctl -u kubelet output)"}, false},
		{"text that is not a log", []string{p["notes"]}, ExitUsage,
			[]string{"podflow: " + p["notes"] + ": not a kubelet or container-runtime log (3 lines, none recognised); pass the kubelet's log (kubelet.log, journalctl -u kubelet output), or see what podflow reads with 'podflow parse --stats'"}, false},
		{"good and missing", []string{p["good"], p["missing"]}, ExitPartial,
			[]string{"podflow: warning: " + p["missing"] + ": no such file or directory; check the path, or give a directory of logs, or - to read standard input"}, true},
		{"good and every bad kind", []string{p["missing"], p["good"], p["locked"], p["empty"], p["binary"], p["notes"], p["emptydir"]}, ExitPartial,
			[]string{
				"podflow: warning: " + p["missing"] + ": no such file or directory; check the path, or give a directory of logs, or - to read standard input",
				"podflow: warning: " + p["locked"] + ": permission denied; run podflow as a user who can read it (kubelet logs are often root's: sudo), or copy the log somewhere readable",
				"podflow: warning: " + p["emptydir"] + ": no kubelet or container-runtime logs found in this directory; name the log files, or a directory holding kubelet.log, journal exports or a kind/Cluster API/must-gather dump",
			}, true},
		{"all bad", []string{p["missing"], p["notes"]}, ExitUsage,
			[]string{
				"podflow: " + p["missing"] + ": no such file or directory; check the path, or give a directory of logs, or - to read standard input",
				p["notes"] + ": not a kubelet or container-runtime log (3 lines, none recognised); pass the kubelet's log (kubelet.log, journalctl -u kubelet output), or see what podflow reads with 'podflow parse --stats'",
			}, false},
	}
	for _, tt := range tests {
		for _, cmd := range [][]string{{"get", "pods"}, {"stats"}, {"check", "--fail-on", "none", "-o", "json"}} {
			t.Run(tt.name+"/"+strings.Join(cmd, " "), func(t *testing.T) {
				ioS, _, out, errOut := NewTestIO(false)
				ioS.Open = lockedOpener(p["locked"])
				code := Main(ioS, append(append([]string{"podflow"}, cmd...), tt.args...))
				if code != tt.code {
					t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, errOut)
				}
				stderr := errOut.String()
				lines := strings.Split(strings.TrimRight(stderr, "\n"), "\n")
				at := 0
				for _, want := range tt.stderr {
					for at < len(lines) && lines[at] != want {
						at++
					}
					if at == len(lines) {
						t.Errorf("stderr lacks the line (in order)\n%s\ngot:\n%s", want, stderr)
						break
					}
				}
				for _, bad := range []string{"goroutine ", "panic:", ".go:"} {
					if strings.Contains(stderr, bad) {
						t.Errorf("stderr looks like a stack trace (%q):\n%s", bad, stderr)
					}
				}
				if hasPod := strings.Contains(out.String(), "web-7d9f8c6b5-x2kqp"); hasPod != tt.wantPods {
					t.Errorf("good input's pod printed: %v, want %v; stdout:\n%s", hasPod, tt.wantPods, out)
				}
			})
		}
	}
}

// TestInputPermissionReal makes a file unreadable with chmod and checks
// what podflow does with it, whoever runs the test: a user other than
// root is refused (exit 2, the permission message); root reads it anyway,
// so podflow must analyse it (exit 0). Both outcomes are asserted.
func TestInputPermissionReal(t *testing.T) {
	p := inputFixtures(t)
	if err := os.Chmod(p["locked"], 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(p["locked"], 0o644) })
	f, openErr := os.Open(p["locked"])
	if openErr == nil {
		f.Close()
	}
	stdout, stderr, code := runPodflow(t, false, "get", "pods", p["locked"])
	switch {
	case errors.Is(openErr, fs.ErrPermission):
		if code != ExitUsage || !strings.Contains(stderr, p["locked"]+": permission denied; run podflow as a user who can read it") {
			t.Errorf("unreadable file: exit %d, stderr %q", code, stderr)
		}
	case openErr == nil:
		if code != ExitOK || !strings.Contains(stdout, "web-7d9f8c6b5-x2kqp") {
			t.Errorf("readable (root) file: exit %d, stderr %q", code, stderr)
		}
	default:
		t.Fatalf("open: %v", openErr)
	}
}

func TestExitCodesDocumented(t *testing.T) {
	help, _, _ := runPodflow(t, false, "--help")
	for _, want := range []string{"Exit status:", "5  output printed, but some inputs could not be read", "--redact"} {
		if !strings.Contains(help, want) {
			t.Errorf("podflow --help lacks %q", want)
		}
	}
	check, _, _ := runPodflow(t, false, "check", "--help")
	if !strings.Contains(check, "  5  the rules passed on the inputs that could be read") {
		t.Errorf("podflow check --help lacks exit code 5")
	}
}
