package cmd

import (
	"regexp"
	"strings"
	"testing"
)

// Run as kubectl-podflow (kubectl's plugin name), every usage line and
// example says "kubectl podflow", and the commands work the same.
func TestKubectlPlugin(t *testing.T) {
	bare := regexp.MustCompile(`(?m)(^  |\| )podflow |^  kubectl (get|describe|check) `)
	for _, args := range [][]string{{"--help"}, {"get", "pods", "--help"}, {"describe", "pod", "--help"}, {"check", "--help"}} {
		ioS, _, out, _ := NewTestIO(false)
		if code := Main(ioS, append([]string{"/usr/local/bin/kubectl-podflow"}, args...)); code != ExitOK {
			t.Fatalf("%v: exit %d", args, code)
		}
		help := out.String()
		if !strings.Contains(help, "kubectl podflow") {
			t.Errorf("%v: help never says kubectl podflow", args)
		}
		if m := bare.FindString(help); m != "" {
			t.Errorf("%v: help still shows a bare or wrong command path:\n%s", args, help)
		}
	}
	ioS, _, out, _ := NewTestIO(false)
	if code := Main(ioS, []string{"kubectl-podflow", "get", "pods", corpus + "v1.36.3/04-sandbox-failure.log", "-o", "name"}); code != ExitOK || strings.TrimSpace(out.String()) != "pod/default/payments-7b4d9c8f6-q9zrt" {
		t.Errorf("kubectl podflow get pods -o name: exit %d, %q", code, out.String())
	}
}
