package cmd

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/podflow/podflow/timeline"
)

// viewInputs are the logs the cross-view tests read: every corpus log
// and every format fixture that holds pods.
func viewInputs(t *testing.T) []string {
	t.Helper()
	var ins []string
	for _, g := range []string{corpus + "*/*.log", "../testdata/formats/*.log"} {
		m, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, m...)
	}
	return ins
}

// podsOf is get pods -o json of input: its FlowList.
func podsOf(t *testing.T, input string) *timeline.FlowList {
	t.Helper()
	out, errOut, code := runPodflow(t, false, "get", "pods", "-o", "json", input)
	if code != 0 && code != ExitPartial {
		t.Fatalf("get pods %s: exit %d: %s", input, code, errOut)
	}
	var fl timeline.FlowList
	if err := json.Unmarshal([]byte(out), &fl); err != nil {
		t.Fatalf("get pods %s: %v", input, err)
	}
	return &fl
}

// describeOf is describe pod of one flow of input, named so that it is
// the only match.
func describeOf(t *testing.T, input string, f *timeline.Flow) string {
	t.Helper()
	args := []string{"describe", "pod", f.Pod.Key(), input, "--evidence", "0", "--node", f.Node}
	if f.Pod.UID != "" {
		args = append(args, "--uid", f.Pod.UID)
	}
	out, errOut, code := runPodflow(t, false, args...)
	if code != 0 && code != ExitPartial {
		t.Fatalf("describe %s in %s: exit %d: %s", f.Pod.Key(), input, code, errOut)
	}
	return out
}

var stageRow = regexp.MustCompile(`(?m)^ +(\S+) +(-|\+\S+ \(\S+\)) +(\S+) +(done|failed|stalled|active|pending|skipped|unknown)\b`)

// TestPendingShowsDash: a stage that has not begun, or is pending, took no
// time the log shows: describe's stage tables, its Waited and get pods -o
// wide's WAITED show "-" for it, never "0s".
func TestPendingShowsDash(t *testing.T) {
	for _, in := range viewInputs(t) {
		fl := podsOf(t, in)
		for i := range fl.Items {
			f := &fl.Items[i]
			out := describeOf(t, in, f)
			for _, m := range stageRow.FindAllStringSubmatch(out, -1) {
				if (m[4] == "pending" || m[4] == "skipped" || m[2] == "-") && m[3] != "-" {
					t.Errorf("%s %s: stage %s is %s, its duration %s, want -", in, f.Pod.Name, m[1], m[4], m[3])
				}
			}
			if strings.Contains(out, "\nWaited:       0s\n") {
				t.Errorf("%s %s: Waited: 0s", in, f.Pod.Name)
			}
		}
		wide, _, _ := runPodflow(t, false, "get", "pods", "-o", "wide", in)
		for _, l := range strings.Split(strings.TrimSpace(wide), "\n")[1:] {
			if cols := strings.Fields(l); len(cols) > 6 && cols[6] == "0s" {
				t.Errorf("%s: get pods -o wide WAITED 0s: %q", in, l)
			}
		}
	}
}
