package cmd

import (
	"strings"
	"testing"
)

// Past --max-pods the rest is counted and said, and the exit code says the
// output is partial.
func TestMaxPodsIsReported(t *testing.T) {
	out, errOut, code := runPodflow(t, false, "get", "pods", corpus+"v1.36.3/07-twenty-pods.log", "--max-pods", "2", "--no-headers")
	if n := strings.Count(out, "\n"); n != 2 {
		t.Errorf("%d pods printed, want 2:\n%s", n, out)
	}
	if !strings.Contains(errOut, "pod limit reached: analysed the first 2 pods") || !strings.Contains(errOut, "--max-pods") {
		t.Errorf("stderr %q lacks the pod-limit warning", errOut)
	}
	if code == ExitOK {
		t.Errorf("exit %d: a partial analysis must not exit 0", code)
	}
	out, errOut, code = runPodflow(t, false, "get", "pods", corpus+"v1.36.3/07-twenty-pods.log", "--no-headers")
	if n := strings.Count(out, "\n"); n != 20 || errOut != "" || code != ExitOK {
		t.Errorf("default limit: %d pods, stderr %q, exit %d", n, errOut, code)
	}
}
