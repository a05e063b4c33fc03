package cmd

import (
	"github.com/spf13/cobra"
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
		{[]string{"get"}, []string{"podflow get needs a resource type: events, nodes, pods"}},
		{[]string{"get", "deployments", log}, []string{`unknown resource type "deployments"`, "knows: events, nodes, pods"}},
		{[]string{"get", "pdos", log}, []string{`unknown resource type "pdos"`, "Did you mean this?\n\tpods"}},
		{[]string{"describe"}, []string{"podflow describe needs a resource type: node, pod"}},
		{[]string{"describe", "deploy/web", log}, []string{`unknown resource type "deploy/web"`, "knows: node, pod"}},
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

// kubectl's habits: TYPE/NAME names a resource, describe node exists,
// podflow version and --version print the version, -v is not it, and a
// mistyped name gets the closest ones.
func TestKubectlHabits(t *testing.T) {
	dir := corpus + "v1.36.3/"
	sandbox := dir + "04-sandbox-failure.log"
	for _, tt := range []struct {
		name      string
		args      []string
		code      int
		stdout    []string
		stderr    []string
		notStdout string
	}{
		{"describe pod/NAME", []string{"describe", "pod/payments-7b4d9c8f6-q9zrt", sandbox}, 0, []string{"Name:         payments-7b4d9c8f6-q9zrt\n"}, nil, ""},
		{"describe pods/PREFIX", []string{"describe", "pods/payments", sandbox}, 0, []string{"Name:         payments-7b4d9c8f6-q9zrt\n"}, nil, ""},
		{"describe pod NAME", []string{"describe", "pod", "payments-7b4d9c8f6-q9zrt", sandbox}, 0, []string{"Verdict:      Running"}, nil, ""},
		{"lines po/NAME", []string{"lines", "po/payments-7b4d9c8f6-q9zrt", sandbox}, 0, []string{"04-sandbox-failure.log:717:"}, nil, ""},
		{"get pod/NAME", []string{"get", "pod/payments-7b4d9c8f6-q9zrt", dir, "-o", "name"}, 0, []string{"pod/default/payments-7b4d9c8f6-q9zrt\n"}, nil, "api-"},
		{"describe node", []string{"describe", "node", "kb-node-pullfail", dir}, 0,
			[]string{"Name:         kb-node-pullfail\n", "Kubelet:      v1.36.3\n", "Verbosity:    -v=4\n", "Pods:         1 Stalled\n",
				"  Stalled   default     api-6f5b9d7c4-pl8wz   containers/api:image", "Findings:\n  <none>\n"}, // the start-up "PLEG has yet to be successful" skips are routine, no finding
			nil, "kb-node-happy"},
		{"describe node/PREFIX", []string{"describe", "node/kb-node-pull", dir}, 0, []string{"Name:         kb-node-pullfail\n"}, nil, ""},
		{"describe node ambiguous", []string{"describe", "node", "kind", "../testdata/formats/kind-logs/"}, ExitUsage, nil,
			[]string{`"kind" is ambiguous: 2 nodes match (kind-control-plane, kind-worker)`}, ""},
		{"describe node mistyped", []string{"describe", "node", "kb-node-pulfail", dir}, ExitUsage, nil,
			[]string{`node "kb-node-pulfail" not found in 14 inputs`, "Did you mean this?\n\tkb-node-pullfail\n"}, ""},
		{"describe pod mistyped", []string{"describe", "pod", "paymnets-7b4d9c8f6-q9zrt", dir}, ExitUsage, nil,
			[]string{`pod "paymnets-7b4d9c8f6-q9zrt" not found`, "Did you mean this?\n\tpayments-7b4d9c8f6-q9zrt\n"}, ""},
		{"lines pod mistyped", []string{"lines", "pod", "web-7d9f8c6b5-x2kqq", dir}, ExitUsage, nil,
			[]string{"Did you mean this?\n\tweb-7d9f8c6b5-x2kqp\n"}, ""},
		{"nothing close: no suggestion", []string{"describe", "pod", "zzz", dir}, ExitUsage, nil, []string{`pod "zzz" not found`}, ""},
		{"version", []string{"version"}, 0, []string{"podflow version "}, nil, ""},
		{"version -o json", []string{"version", "-o", "json"}, 0, []string{`"version": `, `"goVersion": "go`}, nil, ""},
		{"--version", []string{"--version"}, 0, []string{"podflow version "}, nil, ""},
		{"-v is not the version", []string{"-v"}, ExitUsage, nil, []string{"unknown shorthand flag: 'v'", "kubectl's -v sets log verbosity", "podflow version"}, "version"},
		{"get pods -v", []string{"get", "pods", "-v", sandbox}, ExitUsage, nil, []string{"unknown shorthand flag: 'v'"}, "NAME"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runPodflow(t, false, tt.args...)
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			for _, w := range tt.stdout {
				if !strings.Contains(stdout, w) {
					t.Errorf("stdout lacks %q:\n%s", w, stdout)
				}
			}
			for _, w := range tt.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			if tt.notStdout != "" && strings.Contains(stdout, tt.notStdout) {
				t.Errorf("stdout has %q:\n%s", tt.notStdout, stdout)
			}
		})
	}
}

// Help examples name inputs a user has (kubelet.log, ./kind-logs/), not
// the repository's test logs, and every resource command has some.
func TestExamplesUseUserPaths(t *testing.T) {
	ioS, _, _, _ := NewTestIO(false)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if strings.Contains(c.Example, "testdata/") {
			t.Errorf("%s: an example names the repository's testdata:\n%s", c.CommandPath(), c.Example)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewRootCmd(ioS))
}
