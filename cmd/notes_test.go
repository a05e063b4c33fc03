package cmd

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Broken captures through the commands: what was read is used, what was
// lost is a warning (exit 5), what lost nothing is a note (exit 0).
func TestBrokenCapturesThroughCommands(t *testing.T) {
	const broken = "../testdata/broken/"
	tests := []struct {
		name     string
		args     []string
		code     int
		stdout   string
		stderr   []string
		noStderr string
	}{
		{"cut gzip: the readable part is used", []string{"parse", "--stats", broken + "cut/kubelet.log.gz"}, ExitPartial,
			"201", []string{"warning:", "kubelet.log.gz:201 (byte 20990): truncated or corrupt gzip stream"}, ""},
		{"cut gzip beside a good log", []string{"get", "pods", broken + "cut/kubelet.log.gz", corpus + "v1.36.3/04-sandbox-failure.log", "-o", "name"}, ExitPartial,
			"pod/default/payments-7b4d9c8f6-q9zrt", []string{"warning:", "truncated or corrupt gzip stream"}, ""},
		{"rotated overlap", []string{"get", "pods", broken + "rotated-overlap", "-o", "name"}, ExitOK,
			"pod/default/web-v2-6b7c9-r8s5d", []string{"note:", "repeat those of another input"}, "warning"},
		{"clock step", []string{"get", "pods", broken + "clock-step", "-o", "name"}, ExitOK,
			"pod/default/web-v2-6b7c9-r8s5d", []string{"note:", "time goes backwards 1 time, first at line 217"}, "warning"},
		{"a runtime log alone: said", []string{"get", "pods", "../testdata/formats/containerd.log", "-o", "name"}, ExitOK,
			"pod/default/web-7d9f8c6b5-x2kqp", []string{"note: no kubelet lines: judging only what the runtime's lines prove"}, "warning"},
		{"a runtime log beside the kubelet's: nothing to say", []string{"get", "pods", "../testdata/formats/containerd.log", corpus + "v1.36.3/01-happy-path.log", "-o", "name"}, ExitOK,
			"pod/default/web-7d9f8c6b5-x2kqp", nil, "no kubelet lines"},
		{"utf-16", []string{"get", "pods", broken + "utf16"}, ExitUsage,
			"", []string{"UTF-16", "iconv"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runPodflow(t, false, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tt.code, errOut)
			}
			if !strings.Contains(out, tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, out)
			}
			for _, w := range tt.stderr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if tt.noStderr != "" && strings.Contains(errOut, tt.noStderr) {
				t.Errorf("stderr has %q:\n%s", tt.noStderr, errOut)
			}
		})
	}
}

// Warnings and notes about many inputs are one line a kind; --verbose
// lists each.
func TestManyInputsSummarised(t *testing.T) {
	dir := t.TempDir()
	log, err := os.ReadFile(corpus + "v1.36.3/01-happy-path.log")
	if err != nil {
		t.Fatal(err)
	}
	var args []string
	for i := range 40 {
		p := filepath.Join(dir, fmt.Sprintf("kubelet-%02d.log", i))
		os.WriteFile(p, log, 0o644)
		args = append(args, p)
	}
	for i := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("empty-%d.log", i))
		os.WriteFile(p, nil, 0o644)
		args = append(args, p)
	}
	p := filepath.Join(dir, "junk.log")
	os.WriteFile(p, []byte("hello\n"), 0o644)
	args = append(args, p)

	_, errOut, code := runPodflow(t, false, append([]string{"get", "pods", "-o", "name"}, args...)...)
	if code != ExitPartial {
		t.Errorf("exit %d, want %d", code, ExitPartial)
	}
	// Each copy after the first repeats every record the engine keeps of
	// the log: as many as one copy alone gives.
	one, err := Analyze(&IO{Out: io.Discard, ErrOut: io.Discard}, []string{filepath.Join(dir, "kubelet-00.log")}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"podflow: warning: 4 inputs are empty; nothing to analyse in them (the first " + filepath.Join(dir, "empty-0.log") + "; --verbose lists them)",
		"podflow: warning: " + p + ": not a kubelet or container-runtime log (1 lines, none recognised)",
		fmt.Sprintf("podflow: note: 39 inputs repeat records of another input (%d records), counted once (the first ", 39*one.Stats.Records) + filepath.Join(dir, "kubelet-01.log") + "; --verbose lists them)",
	}
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines on stderr, want %d:\n%s", len(lines), len(want), errOut)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d:\n%s\nwant\n%s", i, lines[i], w)
		}
	}
	_, errOut, _ = runPodflow(t, false, append([]string{"get", "pods", "-o", "name", "--verbose"}, args...)...)
	if n := strings.Count(errOut, "\n"); n != 4+1+39 {
		t.Errorf("--verbose: %d lines, want %d:\n%s", n, 4+1+39, errOut)
	}
}
