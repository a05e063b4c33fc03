package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRedactExcerptNode: an excerpt of a log without the kubelet's
// start-up lines (tail -n +800 of the static pod's log, issue #28 point
// 4) names its node only in a static pod's name and a few volume lines;
// every command masks it all the same. And a flag's value is no host:
// --register-node="true" does not make parse mask every true.
func TestRedactExcerptNode(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "06b-static-pod-add-remove.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	excerpt := filepath.Join(t.TempDir(), "e.log")
	if err := os.WriteFile(excerpt, []byte(strings.Join(lines[799:], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	const node, pod = "kb-node-static", "static-web-kb-node-static"
	if out, _, _ := runPodflow(t, false, "get", "pods", excerpt); !strings.Contains(out, pod) {
		t.Fatalf("the excerpt has no %s:\n%s", pod, out)
	}
	for _, args := range [][]string{
		{"get", "pods"}, {"get", "pods", "-o", "json"}, {"get", "nodes"}, {"describe", "pod", pod}, {"lines", "pod", pod},
		{"stats"}, {"trace"}, {"report", "-o", "-"}, {"check", "-o", "json"}, {"check", "-o", "markdown"}, {"parse"}, {"parse", "-o", "text"},
	} {
		out, stderr, code := runPodflow(t, false, append(append(args, excerpt), "--redact")...)
		if code != ExitOK && code != ExitRule && code != ExitNothing {
			t.Errorf("%v: exit %d: %s", args, code, stderr)
		}
		if i := strings.Index(out+stderr, node); i >= 0 {
			all := out + stderr
			t.Errorf("%v: the node's name leaks: …%s…", args, all[max(i-80, 0):min(i+40, len(all))])
		}
	}
	full := filepath.Join("..", "testdata", "corpus", "v1.36.3", "06b-static-pod-add-remove.log")
	out, _, _ := runPodflow(t, false, "parse", full, "--redact")
	for _, flag := range []string{`--register-node=\"true\"`, `--anonymous-auth=\"true\"`} {
		if !strings.Contains(out, flag) {
			t.Errorf("parse --redact: %s is masked (a flag's true taken for a host)", flag)
		}
	}
}
