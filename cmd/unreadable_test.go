package cmd

import (
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// unreadableDirEnv, when set, is the directory TestUnreadableInDirectory
// judges: the test run as another user than the files' owner (root
// reads every file, so as root the test runs itself again as nobody).
const unreadableDirEnv = "PODFLOW_TEST_UNREADABLE_DIR"

// TestUnreadableInDirectory: a directory whose node logs include one
// that cannot be read (mode 000: a node log of another user), a log
// without a kubelet name that cannot be read (it was passed over as "no
// kubelet lines"), a dangling symbolic link and a link loop. Every
// command names each of them in a warning and exits 5; every check
// output (text, json, junit, markdown, github and its step summary)
// says the input is incomplete and the exit code the process returns.
// Before issue #28, check printed PASS and exited 0.
func TestUnreadableInDirectory(t *testing.T) {
	dir := os.Getenv(unreadableDirEnv)
	if dir == "" {
		dir = unreadableDir(t)
		if os.Geteuid() == 0 {
			runAsNobody(t, dir)
			return
		}
	}
	missing := []string{
		filepath.Join(dir, "node-b", "kubelet.log"),
		filepath.Join(dir, "node-c", "messages"),
		filepath.Join(dir, "node-d", "kubelet.log"),
		filepath.Join(dir, "node-e", "loop.log"),
	}
	says := func(t *testing.T, what, text string) {
		t.Helper()
		for _, m := range missing {
			if !strings.Contains(text, m) {
				t.Errorf("%s does not name %s:\n%s", what, m, text)
			}
		}
	}
	for _, args := range [][]string{
		{"get", "pods"}, {"get", "nodes"}, {"describe", "pod", "payments-7b4d9c8f6-q9zrt"}, {"describe", "node", "node-a"},
		{"lines", "pod", "payments-7b4d9c8f6-q9zrt"}, {"stats"}, {"trace"}, {"report", "-o", "-"}, {"parse", "--stats"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			_, stderr, code := runPodflow(t, false, append(args, dir)...)
			if code != ExitPartial {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, ExitPartial, stderr)
			}
			says(t, "stderr", stderr)
		})
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	for _, format := range checkFormats {
		t.Run("check -o "+format, func(t *testing.T) {
			ioS, _, out, errOut := NewTestIO(false)
			ioS.Getenv = func(k string) string { return map[string]string{"GITHUB_STEP_SUMMARY": summary}[k] }
			code := Main(ioS, []string{"podflow", "check", dir, "-o", format})
			if code != ExitPartial {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, ExitPartial, errOut)
			}
			says(t, "stderr", errOut.String())
			got := out.String()
			says(t, format, got)
			switch format {
			case "json":
				var res struct {
					Result     string   `json:"result"`
					ExitCode   int      `json:"exitCode"`
					Incomplete []string `json:"incomplete"`
				}
				if err := json.Unmarshal(out.Bytes(), &res); err != nil {
					t.Fatal(err)
				}
				if res.Result != "partial" || res.ExitCode != ExitPartial || len(res.Incomplete) < len(missing) {
					t.Errorf("json: result %q, exitCode %d, incomplete %q", res.Result, res.ExitCode, res.Incomplete)
				}
			case "github":
				if strings.Contains(got, "::notice") || !strings.Contains(got, "input incomplete (exit 5)::input incomplete") {
					t.Errorf("github: a notice of success, or no error about the input:\n%s", got)
				}
				md, err := os.ReadFile(summary)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(md), "partial input (exit 5)") {
					t.Errorf("step summary does not say partial input and exit 5:\n%s", md)
				}
				says(t, "step summary", string(md))
			case "junit":
				if !strings.Contains(got, `<testcase name="inputs read whole"`) || !strings.Contains(got, `<failure message="input incomplete`) {
					t.Errorf("junit: no failed case for the inputs:\n%s", got)
				}
			case "markdown":
				if !strings.Contains(got, "partial input (exit 5)") {
					t.Errorf("markdown: no partial input and exit code:\n%s", got)
				}
			case "text":
				if !strings.HasPrefix(got, "PARTIAL") || !strings.Contains(got, "(exit 5)") {
					t.Errorf("text: not PARTIAL with exit 5:\n%s", got)
				}
			}
		})
	}
}

// unreadableDir builds the test's directory: world-readable (so that
// nobody can walk it) but for the files that must not be read.
func unreadableDir(t *testing.T) string {
	dir, err := os.MkdirTemp("", "podflow-unreadable-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	src := filepath.Join("..", "testdata", "corpus", "v1.36.3")
	copyTo := func(from, to string, mode os.FileMode) {
		b, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(to, mode); err != nil {
			t.Fatal(err)
		}
	}
	copyTo("04-sandbox-failure.log", filepath.Join(dir, "node-a", "kubelet.log"), 0o644)
	copyTo("02-image-pull-failure.log", filepath.Join(dir, "node-b", "kubelet.log"), 0)
	copyTo("05-crashloop-backoff.log", filepath.Join(dir, "node-c", "messages"), 0)
	for _, d := range []string{"node-d", "node-e"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "gone", "kubelet.log"), filepath.Join(dir, "node-d", "kubelet.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop.log", filepath.Join(dir, "node-e", "loop.log")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runAsNobody runs this test again, on dir, as the user nobody: root
// reads a file of mode 000.
func runAsNobody(t *testing.T, dir string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bindir, err := os.MkdirTemp("", "podflow-bin-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(bindir) })
	if err := os.Chmod(bindir, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(bindir, "cmd.test")
	in, err := os.Open(self)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	out.Close()
	cmd := exec.Command(bin, "-test.run", "^"+t.Name()+"$", "-test.count=1")
	cmd.Dir = dir
	tmp, err := os.MkdirTemp("", "podflow-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if err := os.Chmod(tmp, 0o777); err != nil {
		t.Fatal(err)
	}
	cmd.Env = []string{unreadableDirEnv + "=" + dir, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + tmp}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("as nobody: %v\n%s", err, b)
	}
	if !strings.Contains(string(b), "PASS") {
		t.Fatalf("as nobody, no PASS:\n%s", b)
	}
}
