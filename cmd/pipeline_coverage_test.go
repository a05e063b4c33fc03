package cmd

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/podflow/podflow/timeline"
)

// TestPipelineCoverage: `pipeline --coverage` has a row for every
// kubelet minor from 1.11 and for containerd and CRI-O, and ends in the
// total's "0 unclassified"; the JSON form says the same.
func TestPipelineCoverage(t *testing.T) {
	out, errOut, code := runPodflow(t, false, "pipeline", "--coverage")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	last := lines[len(lines)-1]
	if !regexp.MustCompile(`^total: \d+ pod-bearing messages, \d+ classified .*, 0 unclassified$`).MatchString(last) {
		t.Errorf("last line %q does not end in 0 unclassified", last)
	}
	for _, want := range []string{"kubelet +1.11 ", "kubelet +1.37 ", "containerd +2.0 ", "cri-o +1.34 ", "kube-controller-manager +1.23 "} {
		if !regexp.MustCompile(`(?m)^` + want).MatchString(out) {
			t.Errorf("no row %q in:\n%s", want, out)
		}
	}

	js, _, code := runPodflow(t, false, "pipeline", "--coverage", "-o", "json")
	if code != 0 {
		t.Fatal(code)
	}
	var cov timeline.Coverage
	if err := json.Unmarshal([]byte(js), &cov); err != nil {
		t.Fatal(err)
	}
	if cov.Total.PodBearing == 0 || cov.Total.Unclassified != 0 || cov.Total.Classified != cov.Total.PodBearing {
		t.Errorf("json total %+v", cov.Total)
	}
	// --unclassified lists none, and the total is still the last line.
	un, _, _ := runPodflow(t, false, "pipeline", "--unclassified")
	if strings.Contains(un, "# UNCLASSIFIED") || !strings.HasSuffix(strings.TrimRight(un, "\n"), "0 unclassified") {
		t.Errorf("--unclassified:\n%s", un)
	}
}
