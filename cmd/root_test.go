package cmd

import (
	"strings"
	"testing"
)

// A kubectl-style verb without a resource type, or with one podflow does
// not know, is a usage error (exit 2) that names the types it knows, not
// the help page with exit 0 that a script would take for success.
func TestResourceGroupUsage(t *testing.T) {
	log := corpus + "v1.36.3/01-happy-path.log"
	for _, tt := range []struct {
		args []string
		want []string // substrings of stderr
	}{
		{[]string{"get"}, []string{"podflow get needs a resource type: nodes, pods"}},
		{[]string{"get", "deployments", log}, []string{`unknown resource type "deployments"`, "knows: nodes, pods"}},
		{[]string{"get", "pdos", log}, []string{`unknown resource type "pdos"`, "Did you mean this?\n\tpods"}},
		{[]string{"describe"}, []string{"podflow describe needs a resource type: pod"}},
		{[]string{"describe", "node", "kb-node-happy", log}, []string{`unknown resource type "node"`, "knows: pod"}},
		{[]string{"lines", "web-7d9f8c6b5-x2kqp", log}, []string{`unknown resource type "web-7d9f8c6b5-x2kqp"`, "knows: pod"}},
	} {
		t.Run(strings.Join(tt.args[:min(2, len(tt.args))], " "), func(t *testing.T) {
			stdout, stderr, code := runPodflow(t, false, tt.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want %d (usage)", code, ExitUsage)
			}
			if stdout != "" {
				t.Errorf("stdout = %q, want nothing", stdout)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
	// The resource types themselves still run.
	if _, _, code := runPodflow(t, false, "get", "po", log); code != 0 {
		t.Errorf("get po: exit %d, want 0", code)
	}
	if stdout, _, code := runPodflow(t, false, "get", "--help"); code != 0 || !strings.Contains(stdout, "Available Commands") {
		t.Errorf("get --help: exit %d, want 0 and the help page", code)
	}
}
