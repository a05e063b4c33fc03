package cmd

import (
	"os"
	"strings"
	"testing"
)

// TestOutputFailureIsNeverSuccess runs every command and output kind with
// standard output on /dev/full: each must exit non-zero with one line
// that names the error, however its printing path writes (a table writer,
// a streamed document, a deferred flush).
func TestOutputFailureIsNeverSuccess(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Fatalf("/dev/full: %v (this test needs Linux)", err)
	}
	defer full.Close()
	log := "../testdata/corpus/v1.36.3/04-sandbox-failure.log"
	pod := "payments-7b4d9c8f6-q9zrt"
	runs := [][]string{
		{"get", "pods", log},
		{"get", "pods", "-o", "wide", log},
		{"get", "pods", "-o", "json", log},
		{"get", "pods", "-o", "yaml", log},
		{"get", "pods", "-o", "name", log},
		{"get", "pods", "-o", "custom-columns=POD:.pod.name", log},
		{"get", "pods", "-o", "jsonpath={.items[*].pod.name}", log},
		{"get", "nodes", log},
		{"get", "nodes", "-o", "json", log},
		{"describe", "pod", pod, log},
		{"lines", "pod", pod, log},
		{"stats", log},
		{"stats", "-o", "json", log},
		{"trace", "-o", "chrome", log},
		{"trace", "-o", "otlp", log},
		{"parse", log},
		{"parse", "--stats", log},
		{"pipeline"},
		{"pipeline", "-o", "json"},
		{"pipeline", "-o", "yaml"},
		{"check", log},
		{"check", "-o", "json", log},
		{"check", "-o", "markdown", log},
		{"check", "-o", "github", log},
		{"report", "-o", "-", log},
	}
	for _, args := range runs {
		t.Run(strings.Join(args[:min(len(args), 4)], " "), func(t *testing.T) {
			ioS, _, _, errOut := NewTestIO(false)
			ioS.Out = full
			code := Main(ioS, append([]string{"podflow"}, args...))
			if code == ExitOK || code == ExitPartial {
				t.Fatalf("exit %d writing to /dev/full; stderr: %s", code, errOut)
			}
			msg := strings.TrimSpace(errOut.String())
			if strings.Count(msg, "\n") != 0 || !strings.Contains(msg, "no space left on device") {
				t.Errorf("want one line naming the error, got %q", msg)
			}
		})
	}
}

// TestFlagsOutOfRange: values a flag cannot mean are refused with a
// message naming the flag, never accepted or turned into broken output.
func TestFlagsOutOfRange(t *testing.T) {
	log := "../testdata/corpus/v1.36.3/04-sandbox-failure.log"
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"check", "--slo", "pNaN=5s", log}, "--slo"},
		{[]string{"check", "--slo", "pInf=5s", log}, "--slo"},
		{[]string{"get", "pods", "--max-pods", "-1", log}, "--max-pods"},
		{[]string{"describe", "pod", "payments-7b4d9c8f6-q9zrt", "--evidence", "-1", log}, "--evidence"},
		{[]string{"get", "pods", "--year", "10000", log}, "--year"},
		{[]string{"stats", "--year", "1969", log}, "--year"},
		{[]string{"parse", "--year", "10000", log}, "--year"},
	} {
		ioS, _, out, errOut := NewTestIO(false)
		code := Main(ioS, append([]string{"podflow"}, tt.args...))
		if code != ExitUsage || !strings.Contains(errOut.String(), tt.flag) || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %d bytes, stderr %q; want exit 2 naming %s and no output", tt.args, code, out.Len(), errOut, tt.flag)
		}
	}
}

// TestFatalErrorNamesFileCleanly: a file name that carries escape
// sequences, podflow's own colour codes among them, reaches standard
// error without any.
func TestFatalErrorNamesFileCleanly(t *testing.T) {
	dir := t.TempDir()
	name := dir + "/evil\x1b]0;pwned\x07\x1b[31mred\x1b[0m.log"
	if err := os.WriteFile(name, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ioS, _, _, errOut := NewTestIO(false)
	code := Main(ioS, []string{"podflow", "get", "pods", name})
	if code != ExitUsage || strings.ContainsRune(errOut.String(), 0x1b) || !strings.Contains(errOut.String(), "red") {
		t.Errorf("exit %d, stderr %q: want exit 2 and the name without escape sequences", code, errOut)
	}
}

// TestNameTakenForPathIsSaid: `get pods kubelt.log.old` with a typo and
// nothing on standard input reads as a pod name; the error says so
// instead of only that standard input was empty.
func TestNameTakenForPathIsSaid(t *testing.T) {
	for _, tty := range []bool{false, true} {
		ioS, _, _, errOut := NewTestIO(false)
		ioS.InTTY = tty
		code := Main(ioS, []string{"podflow", "get", "pods", "kubelt.log.old"})
		if code != ExitUsage || !strings.Contains(errOut.String(), `"kubelt.log.old" was taken as a pod name`) {
			t.Errorf("stdin tty=%v: exit %d, stderr %q", tty, code, errOut)
		}
	}
}

// TestSideFilesAreBounded: a file podflow reads whole beside the logs,
// pointed at /dev/zero, is refused after a bounded read.
func TestSideFilesAreBounded(t *testing.T) {
	log := "../testdata/corpus/v1.36.3/04-sandbox-failure.log"
	for _, args := range [][]string{
		{"check", "--config", "/dev/zero", log},
		{"check", "--baseline", "/dev/zero", log},
		{"get", "pods", "-o", "jsonpath-file=/dev/zero", log},
		{"get", "pods", "-o", "custom-columns-file=/dev/zero", log},
	} {
		ioS, _, _, errOut := NewTestIO(false)
		code := Main(ioS, append([]string{"podflow"}, args...))
		if code != ExitUsage || !strings.Contains(errOut.String(), "over 64 MiB") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestFilesDefuseWorkflowCommands: what check and report write to a file
// carries no workflow command from the log, as standard output does not
// (a CI step may print the file).
func TestFilesDefuseWorkflowCommands(t *testing.T) {
	data, err := os.ReadFile("../testdata/corpus/v1.36.3/12-container-start-failure.log")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := dir + "/kubelet.log"
	hostile := strings.ReplaceAll(string(data), "no such file or directory", "##[add-mask]no such file or directory")
	if err := os.WriteFile(log, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "-o", "text=" + dir + "/out.txt", log},
		{"check", "-o", "markdown=" + dir + "/out.md", log},
		{"report", "-o", dir + "/out.html", log},
	} {
		ioS, _, _, errOut := NewTestIO(false)
		Main(ioS, append([]string{"podflow"}, args...))
		path := args[len(args)-2]
		if i := strings.Index(path, "="); i >= 0 {
			path = path[i+1:]
		}
		out, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v: %v (stderr %s)", args, err, errOut)
		}
		if !strings.Contains(string(out), "add-mask") {
			t.Fatalf("%v: the planted text is not in the file; the test no longer tests", args)
		}
		if strings.Contains(string(out), "##[") {
			t.Errorf("%v: the file holds a live workflow command", args)
		}
	}
}

// TestTZGivenWins: with no --tz the klog headers' offset is inferred
// from zoned times in the input (zone-watch-times.log: -07:00); --tz UTC,
// typed, is taken as given, as any other zone is.
func TestTZGivenWins(t *testing.T) {
	log := "../testdata/formats/zone-watch-times.log"
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, "2023-07-13T00:20:14.0012-07:00"},
		{[]string{"--tz", "UTC"}, "2023-07-13T00:20:14.0012Z"},
		{[]string{"--tz", "+02:00"}, "2023-07-13T00:20:14.0012+02:00"},
	} {
		ioS, _, out, errOut := NewTestIO(false)
		args := append([]string{"podflow", "get", "pods", "-o", "jsonpath={.items[0].start}", log}, tt.args...)
		if code := Main(ioS, args); code != ExitOK || out.String() != tt.want {
			t.Errorf("%v: exit %d, start %q, want %q (%s)", tt.args, code, out, tt.want, errOut)
		}
	}
}

// TestRecoveredPodMarked: a pod that ran after trouble (04: four failed
// sandbox attempts) is marked on a terminal, its verdict yellow and its
// reason led by ⚠; piped output stays plain words.
func TestRecoveredPodMarked(t *testing.T) {
	log := "../testdata/corpus/v1.36.3/04-sandbox-failure.log"
	ioS, _, out, _ := NewTestIO(true)
	ioS.Width = 200
	Main(ioS, []string{"podflow", "get", "pods", "--color", "always", log})
	if !strings.Contains(out.String(), ansiYellow+"Running") || !strings.Contains(out.String(), "⚠ Running after 4 failed sandbox attempts") {
		t.Errorf("terminal table:\n%s", out)
	}
	ioS, _, out, _ = NewTestIO(false)
	Main(ioS, []string{"podflow", "get", "pods", log})
	if strings.Contains(out.String(), "⚠") || !strings.Contains(out.String(), "Running after 4 failed sandbox attempts") {
		t.Errorf("piped table:\n%s", out)
	}
}
