package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProfileFlag: --profile writes a profile pprof can read (gzip, as
// runtime/pprof writes it) without changing what the command prints.
func TestProfileFlag(t *testing.T) {
	in := corpus + "v1.36.3/01-happy-path.log"
	plain, _, code := runPodflow(t, false, "get", "pods", in)
	if code != ExitOK {
		t.Fatalf("get pods: exit %d", code)
	}
	for _, kind := range []string{"cpu", "heap", "allocs"} {
		t.Run(kind, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), kind+".pprof")
			got, stderr, code := runPodflow(t, false, "get", "pods", in, "--profile", kind, "--profile-output", out)
			if code != ExitOK || got != plain {
				t.Fatalf("exit %d, stderr %q; output differs from a run without --profile: %v", code, stderr, got != plain)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte{0x1f, 0x8b}) {
				t.Errorf("%s: not a gzip-compressed profile: % x", out, b[:min(len(b), 8)])
			}
		})
	}
	_, stderr, code := runPodflow(t, false, "get", "pods", in, "--profile", "mem")
	if code != ExitUsage || !strings.Contains(stderr, "--profile") {
		t.Errorf("--profile mem: exit %d, stderr %q; want exit %d naming the flag", code, stderr, ExitUsage)
	}
}
