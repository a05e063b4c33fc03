//go:build unix

package nodelog

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// fakeKubectl writes a script standing in for kubectl; it records its
// arguments and its PID in dir.
func fakeKubectl(t *testing.T, dir, body string) string {
	t.Helper()
	p := filepath.Join(dir, "kubectl")
	sh := "#!/bin/sh\necho \"$*\" > " + dir + "/args\necho $$ > " + dir + "/pid\n" + body
	if err := os.WriteFile(p, []byte(sh), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNewClientProxy(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "I1122 06:08:00.395985   28117 flags.go:64] FLAG: --v=\"4\"\n")
	}))
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "http://")

	t.Run("serves, is asked, stops", func(t *testing.T) {
		dir := t.TempDir()
		// kubectl proxy's words, then it serves until stopped.
		kubectl := fakeKubectl(t, dir, "echo 'Starting to serve on "+addr+"'\nexec sleep 60\n")
		c, err := NewClient(Config{Kubectl: kubectl, Kubeconfig: "/home/u/.kube/staging", Context: "prod"})
		if err != nil {
			t.Fatal(err)
		}
		args, _ := os.ReadFile(filepath.Join(dir, "args"))
		if want := `proxy --port=0 --address=127.0.0.1 --accept-hosts=^127\.0\.0\.1$ --kubeconfig=/home/u/.kube/staging --context=prod` + "\n"; string(args) != want {
			t.Errorf("kubectl %s, want %s", args, want)
		}
		if c.base.Host != addr {
			t.Errorf("asks %s, want %s", c.base.Host, addr)
		}
		r, err := c.Fetch(context.Background(), "n1", Query{})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		if !strings.Contains(string(b), "FLAG: --v") {
			t.Errorf("read %q", b)
		}
		pid := readPID(t, dir)
		c.Close()
		c.Close() // (twice is harmless)
		if err := syscall.Kill(pid, 0); err == nil {
			t.Errorf("kubectl proxy (pid %d) still runs after Close", pid)
		}
	})

	t.Run("no kubectl", func(t *testing.T) {
		_, err := NewClient(Config{Kubectl: filepath.Join(t.TempDir(), "kubectl")})
		for _, want := range []string{"through kubectl", "not found", "install kubectl", "--journal"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v lacks %q", err, want)
			}
		}
	})

	t.Run("kubectl refuses the context", func(t *testing.T) {
		kubectl := fakeKubectl(t, t.TempDir(), "echo 'error: context \"prod\" does not exist' >&2\nexit 1\n")
		_, err := NewClient(Config{Kubectl: kubectl, Context: "prod"})
		for _, want := range []string{"kubectl proxy (--context=prod) failed", `context "prod" does not exist`} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v lacks %q", err, want)
			}
		}
	})

	t.Run("kubectl never serves", func(t *testing.T) {
		dir := t.TempDir()
		kubectl := fakeKubectl(t, dir, "echo 'waiting for the exec plugin' >&2\nexec sleep 60\n")
		start := time.Now()
		_, err := NewClient(Config{Kubectl: kubectl, Wait: 300 * time.Millisecond})
		for _, want := range []string{"did not start serving within 300ms", "waiting for the exec plugin"} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("error %v lacks %q", err, want)
			}
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("took %s", d)
		}
		if pid := readPID(t, dir); syscall.Kill(pid, 0) == nil {
			t.Errorf("kubectl (pid %d) left running", pid)
		}
	})
}

func readPID(t *testing.T, dir string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}
