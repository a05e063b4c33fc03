package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestContradictoryFilters: filters no pod can pass are refused with a
// usage error saying why (exit 2), not answered with "No pods found" and
// exit 0 (issue #28 point 8); windows that hold pods still work.
func TestContradictoryFilters(t *testing.T) {
	log := filepath.Join("..", "testdata", "corpus", "v1.36.3", "07-twenty-pods.log")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--since", "1h", "--until", "2h"}, ExitUsage, "an empty window"},
		{[]string{"--since", "10m", "--until", "10m"}, ExitUsage, "an empty window"},
		{[]string{"--since", "2026-11-22T07:00:00Z", "--until", "2026-11-22T06:00:00Z"}, ExitUsage, "an empty window"},
		{[]string{"--since", "1s", "--until", "2020-01-01T00:00:00Z"}, ExitUsage, "an empty window"},
		{[]string{"-n", "kube-system", "--pod", "default/batch-worker-6c8d5f01-2xk9q"}, ExitUsage, "in namespace default"},
		{[]string{"--since", "2h", "--until", "0s"}, ExitOK, "batch-worker"},
		{[]string{"-n", "default", "--pod", "default/batch-worker-.*"}, ExitOK, "batch-worker"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, stderr, code := runPodflow(t, false, append([]string{"get", "pods", log}, tt.args...)...)
			if code != tt.code || !strings.Contains(out+stderr, tt.want) {
				t.Errorf("exit %d, want %d saying %q; stdout:\n%s\nstderr:\n%s", code, tt.code, tt.want, out, stderr)
			}
		})
	}
}

// TestLinkArguments: a named input that is a symbolic link loop or a
// dangling link is reported as such (exit 2: nothing else to read), not
// taken as a pod name.
func TestLinkArguments(t *testing.T) {
	dir := t.TempDir()
	loop, dangling := filepath.Join(dir, "loop"), filepath.Join(dir, "dangling")
	if err := os.Symlink("loop", loop); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nothing-here"), dangling); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct{ arg, want string }{{"loop", "a symbolic link loop"}, {"dangling", "a dangling symbolic link"}} {
		for _, args := range [][]string{{"get", "pods", tc.arg}, {"describe", "pod", "web", tc.arg}, {"lines", "pod", "web", tc.arg}} {
			_, stderr, code := runPodflow(t, false, args...)
			if code != ExitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "pod name") {
				t.Errorf("%v: exit %d, stderr %q; want exit %d saying %q", args, code, stderr, ExitUsage, tc.want)
			}
		}
	}
}
