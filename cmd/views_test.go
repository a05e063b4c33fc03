package cmd

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

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

// describable reports whether describe's flags single f out: not when
// another incarnation shares its namespace, name, UID and node, which
// describe refuses by design (it says to list them with get pods -o wide).
func describable(fl *timeline.FlowList, f *timeline.Flow) bool {
	for i := range fl.Items {
		o := &fl.Items[i]
		if o != f && o.Pod.Key() == f.Pod.Key() && o.Pod.UID == f.Pod.UID && o.Node == f.Node {
			return false
		}
	}
	return true
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
			if !describable(fl, f) {
				continue
			}
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

var (
	startLine  = regexp.MustCompile(`(?m)^Start: +(\S+)$`)
	endLine    = regexp.MustCompile(`(?m)^End: +(.*)$`)
	waitLine   = regexp.MustCompile(`(?m)^Waited: +(\S+)$`)
	statusLine = regexp.MustCompile(`(?m)^Status: +(\S+)  \(kubectl`)
)

// TestViewsAgree: every pod of every corpus and format log has the same
// start, end, duration and wait in describe pod, get pods -o json, get
// pods and get pods -o wide, and describe's End agrees with its own
// duration (a flow still under way ends at the log's end, not at its last
// stage's end, and says it is under way).
func TestViewsAgree(t *testing.T) {
	for _, in := range viewInputs(t) {
		fl := podsOf(t, in)
		wide, _, _ := runPodflow(t, false, "get", "pods", "-o", "wide", "--no-headers", in)
		narrow, _, _ := runPodflow(t, false, "get", "pods", "--no-headers", in)
		wideRows, narrowRows := rowsOf(wide), rowsOf(narrow)
		if len(wideRows) != len(fl.Items) || len(narrowRows) != len(fl.Items) {
			t.Fatalf("%s: %d pods in -o json, %d rows -o wide, %d rows", in, len(fl.Items), len(wideRows), len(narrowRows))
		}
		for i := range fl.Items {
			f := &fl.Items[i]
			if !describable(fl, f) {
				continue
			}
			what := in + " " + f.Pod.Name
			dur := humanDuration(time.Duration(f.Duration))
			end := f.Start.Add(time.Duration(f.Duration))
			out := describeOf(t, in, f)
			if m := startLine.FindStringSubmatch(out); m == nil || m[1] != stamp(f.Start) {
				t.Errorf("%s: describe Start %v, json start %s", what, m, stamp(f.Start))
			}
			wantEnd := stamp(f.End) + "  (" + dur + ")"
			if f.UnderWay() {
				wantEnd = stamp(f.End) + "  (" + dur + ", under way when the log ends)"
			}
			if !f.Start.IsZero() && !end.Equal(f.End) && f.End.After(f.Start) {
				t.Errorf("%s: json start+duration %s, json end %s", what, stamp(end), stamp(f.End))
			}
			if m := endLine.FindStringSubmatch(out); m == nil || m[1] != wantEnd {
				t.Errorf("%s: describe End %v, want %q", what, m, wantEnd)
			}
			waited := waitedCell(f)
			if f.StalledAt != "" {
				if m := waitLine.FindStringSubmatch(out); m == nil || m[1] != waited {
					t.Errorf("%s: describe Waited %v, json waited %s", what, m, waited)
				}
			}
			// kubectl's STATUS: the same word in describe, both tables and JSON.
			if m := statusLine.FindStringSubmatch(out); f.Status == "" || m == nil || m[1] != f.Status {
				t.Errorf("%s: describe Status %v, json status %q", what, m, f.Status)
			}
			// -o wide: NAMESPACE NAME NODE STATUS VERDICT STAGE START WAITED DURATION …
			// (a name or node never holds a space here).
			if c := strings.Fields(wideRows[i]); c[1] != f.Pod.Name || c[3] != f.Status || c[6] != stamp(f.Start) || c[7] != waited || c[8] != dur {
				t.Errorf("%s: -o wide row %q, json status %s start %s waited %s duration %s", what, wideRows[i], f.Status, stamp(f.Start), waited, dur)
			}
			want := dur
			if f.Verdict == timeline.VerdictStalled && f.Waited > 0 {
				want = waited
			}
			if c := strings.Fields(narrowRows[i]); c[1] != f.Pod.Name || c[3] != f.Status || c[6] != want {
				t.Errorf("%s: get pods row %q, want STATUS %s, WAIT/DUR %s", what, narrowRows[i], f.Status, want)
			}
		}
	}
}

// rowsOf is the lines of a table without headers.
func rowsOf(out string) []string {
	if strings.TrimSpace(out) == "" {
		return nil
	}
	return strings.Split(strings.TrimSpace(out), "\n")
}
