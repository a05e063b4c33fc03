package cmd

import (
	"fmt"
	"os"
	"path/filepath"
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

// TestTruncatedWhileReadIsPartial: get pods of a file that is truncated
// while podflow reads it (a goroutine watches podflow's file descriptors
// and truncates the file once it is being read) warns and exits 5; it
// exited 0, as if the file had held only what was read.
func TestTruncatedWhileReadIsPartial(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubelet.log")
	var b strings.Builder
	for i := range 600000 {
		fmt.Fprintf(&b, "I1122 06:%02d:%02d.%06d 1 a.go:1] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/p-%d\"]\n", i/60000%60, i/1000%60, i%1000*1000, i%50)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	// The watcher races the read: a read that ends before the watcher
	// truncates is tried again with the file whole, a few times.
	attempt := func() (bool, int, string) {
		caught := make(chan bool, 1)
		stop := make(chan struct{})
		go func() {
			// Truncate once some descriptor of this process has the file open
			// and has read into it.
			for {
				select {
				case <-stop:
					caught <- false
					return
				default:
				}
				fds, _ := os.ReadDir("/proc/self/fd")
				for _, fd := range fds {
					if target, _ := os.Readlink("/proc/self/fd/" + fd.Name()); target != path {
						continue
					}
					info, _ := os.ReadFile("/proc/self/fdinfo/" + fd.Name())
					var pos int64
					fmt.Sscanf(string(info), "pos:\t%d", &pos)
					if pos > 0 {
						os.Truncate(path, 0)
						caught <- true
						return
					}
				}
			}
		}()
		ioS, _, _, errOut := NewTestIO(false)
		code := Main(ioS, []string{"podflow", "get", "pods", path})
		close(stop)
		return <-caught, code, errOut.String()
	}
	var code int
	var errOut string
	caught := false
	for try := 0; try < 5 && !caught; try++ {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		caught, code, errOut = attempt()
	}
	if !caught {
		t.Fatal("five reads ended before the file could be truncated")
	}
	if code != ExitPartial || !strings.Contains(errOut, "truncated while it was read") {
		t.Errorf("exit %d, stderr %q; want exit 5 and a warning that the file was truncated", code, errOut)
	}
}
