package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestProgressLine(t *testing.T) {
	for _, tt := range []struct {
		read, total int64
		elapsed     time.Duration
		want        string
	}{
		{0, 120 << 20, 0, "podflow: reading ░░░░░░░░░░░░░░░░░░░░   0% 0 B of 120 MiB, estimating time left"},
		{60 << 20, 120 << 20, 3 * time.Second, "podflow: reading ██████████░░░░░░░░░░  50% 60.0 MiB of 120 MiB, 3s left"},
		{30 << 20, 120 << 20, 2 * time.Second, "podflow: reading █████░░░░░░░░░░░░░░░  25% 30.0 MiB of 120 MiB, 6s left"},
		{130 << 20, 120 << 20, 9 * time.Second, "podflow: reading ████████████████████ 100% 120 MiB of 120 MiB, 0s left"},
		{54 << 20, 0, 2 * time.Second, "podflow: reading… 54.0 MiB read (27.0 MiB/s)"},
		{1 << 10, 0, 0, "podflow: reading… 1.0 KiB read"},
	} {
		if got := progressLine(tt.read, tt.total, tt.elapsed); got != tt.want {
			t.Errorf("progressLine(%d, %d, %s)\n got %q\nwant %q", tt.read, tt.total, tt.elapsed, got, tt.want)
		}
	}
}

// The line is redrawn at most every progressEvery, not before notBefore,
// and cleared at the end.
func TestProgressThrottle(t *testing.T) {
	var buf bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p := &progress{w: &buf, total: 100, now: func() time.Time { return now }, start: t0, notBefore: t0.Add(time.Second)}
	for i := range 30 { // 3 s of updates every 100 ms… minus 1 ms
		now = t0.Add(time.Duration(i) * 99 * time.Millisecond)
		p.update(int64(i))
	}
	p.done()
	if n := strings.Count(buf.String(), "\r"); n < 10 || n > 21 {
		t.Errorf("%d redraws (and the clearing) for 3 s of updates, 2 of them before notBefore:\n%q", n, buf.String())
	}
	if strings.Contains(buf.String(), " 9% ") || !strings.HasSuffix(buf.String(), "\r\x1b[K") {
		t.Errorf("drawn before notBefore, or not cleared: %q", buf.String())
	}
}

// Through the command: a big file gets percent, bytes and time left on a
// terminal's stderr, standard input the bytes read; piped, nothing.
func TestProgressOnTerminal(t *testing.T) {
	log, err := os.ReadFile(corpus + "v1.36.3/07-twenty-pods.log")
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat(log, int(progressThreshold)/len(log)+1)
	path := filepath.Join(t.TempDir(), "kubelet.log")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, _, errOut := func() (*IO, *bytes.Buffer, *bytes.Buffer, *bytes.Buffer) {
		ioS, in, out, errOut := NewTestIO(true)
		Main(ioS, []string{"podflow", "get", "pods", "-o", "name", path})
		return ioS, in, out, errOut
	}()
	if !regexp.MustCompile(`^\rpodflow: reading [█░]{20} +\d+% [0-9.]+ [KMG]?i?B of 1\d\.\d MiB, (estimating time left|\S+ left)\x1b\[K`).MatchString(errOut.String()) ||
		!strings.Contains(errOut.String(), "\r\x1b[Kpodflow: note:") { // cleared before the notes
		t.Errorf("file: stderr %q", errOut.String())
	}

	defer func(d time.Duration) { progressAfter = d }(progressAfter)
	progressAfter = 0
	ioS, in, _, errOut := NewTestIO(true)
	in.Write(big)
	Main(ioS, []string{"podflow", "get", "pods", "-o", "name", "-"})
	if !regexp.MustCompile(`^\rpodflow: reading… [0-9.]+ [KMG]?i?B read`).MatchString(errOut.String()) {
		t.Errorf("stdin: stderr %q", errOut.String())
	}

	ioS, _, _, errOut = NewTestIO(false)
	Main(ioS, []string{"podflow", "get", "pods", "-o", "name", path})
	if strings.Contains(errOut.String(), "reading") || strings.Contains(errOut.String(), "\r") {
		t.Errorf("piped: stderr %q", errOut.String())
	}
}
