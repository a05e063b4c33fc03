package cmd

import (
	"strings"
	"testing"
	"time"
)

// TestDevZeroAbandoned: an input that never ends and holds no line
// (/dev/zero) is abandoned after 64 MiB with a warning and exit 5; it was
// read forever.
func TestDevZeroAbandoned(t *testing.T) {
	ioS, _, out, errOut := NewTestIO(false)
	code := make(chan int, 1)
	go func() { code <- Main(ioS, []string{"podflow", "get", "pods", "/dev/zero"}) }()
	select {
	case c := <-code:
		if c != ExitPartial || !strings.Contains(errOut.String(), "/dev/zero") || !strings.Contains(errOut.String(), "no line in 64 MiB") {
			t.Errorf("exit %d, stdout %q, stderr %q; want exit 5 and a warning naming /dev/zero", c, out, errOut)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("get pods /dev/zero still reading after a minute")
	}
}
