package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/internal/check"
	"github.com/podflow/podflow/internal/report"
	"github.com/podflow/podflow/internal/trace"
	"github.com/podflow/podflow/timeline"
	yaml "go.yaml.in/yaml/v3"
)

// The one clock (timeline/clock.go), walked through every view: for every
// pod of every corpus log, the engine's exact figures (get pods -o json)
// obey the definition, and get pods, -o wide, -o yaml, describe pod (its
// header and its stage tables), the OTLP and Chrome traces, the report's
// model and check's JSON show those figures, exact where the output is for
// machines and as timeline.HumanDuration where it is for people. The TUI's
// list, timeline and replay are walked in tui/clock_test.go.

// clockLogs are the logs walked: every corpus log, and the issue's
// excerpt (the first 1500 lines of the slow pull: the log ends while the
// pull is under way, long after the pod's last line the engine reads).
func clockLogs(t *testing.T) []string {
	t.Helper()
	logs, err := filepath.Glob(corpus + "*/*.log")
	if err != nil || len(logs) == 0 {
		t.Fatalf("no corpus logs: %v", err)
	}
	b, err := os.ReadFile(corpus + "v1.36.3/03-slow-image-pull.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	cut := filepath.Join(t.TempDir(), "cut.log")
	if err := os.WriteFile(cut, []byte(strings.Join(lines[:1500], "")), 0o644); err != nil {
		t.Fatal(err)
	}
	return append(logs, cut)
}

// underWayByRule says, from the figures alone, whether the flow was under
// way when its input ended: the definition's words, written again here so
// that the engine is checked against them, not against itself.
func underWayByRule(f *timeline.Flow) bool {
	switch f.Verdict {
	case timeline.VerdictStalled, timeline.VerdictIncomplete, timeline.VerdictTerminating:
		return true
	}
	for _, st := range f.Stages {
		if (st.Status == timeline.StatusStalled || st.Status == timeline.StatusFailed || st.Status == timeline.StatusActive) && st.Start != nil {
			return true
		}
	}
	if f.Verdict != timeline.VerdictFailed || f.StalledAt == "" || f.Phase == "Failed" || f.Phase == "Succeeded" {
		return false
	}
	for _, st := range f.Stages {
		if st.ID == timeline.StTerminated && st.Status == timeline.StatusDone {
			return false
		}
	}
	return true
}

// stallStages are the stage a flow stalled at, and its container's stage
// when the stall is inside one (nil when none).
func stallStages(f *timeline.Flow) (pod, ctr *timeline.Stage) {
	for i := range f.Stages {
		if f.Stages[i].ID == f.StalledAt {
			pod = &f.Stages[i]
		}
	}
	for i := range f.Containers {
		if c := &f.Containers[i]; f.Container != "" && c.Name == f.Container {
			for j := range c.Stages {
				if c.Stages[j].ID == f.ContainerStage {
					ctr = &c.Stages[j]
				}
			}
		}
	}
	return pod, ctr
}

// checkDefinition checks one flow's exact figures against the definition,
// inputEnd being its node's input's end.
func checkDefinition(t *testing.T, what string, f *timeline.Flow, inputEnd time.Time) {
	t.Helper()
	if f.Start.IsZero() {
		if f.Duration != 0 || f.Waited != 0 {
			t.Errorf("%s: no start, yet duration %s waited %s", what, f.Duration, f.Waited)
		}
		return
	}
	if d := f.End.Sub(f.Start); f.End.After(f.Start) && timeline.Duration(d) != f.Duration || !f.End.After(f.Start) && f.Duration != 0 {
		t.Errorf("%s: start %s end %s are %s apart, duration %s", what, f.Start.Format(time.RFC3339Nano), f.End.Format(time.RFC3339Nano), d, f.Duration)
	}
	under := underWayByRule(f)
	if under != f.UnderWay() {
		t.Errorf("%s: under way by the definition %v, by the engine %v", what, under, f.UnderWay())
	}
	if under && !f.End.Equal(inputEnd) {
		t.Errorf("%s: under way (%s at %s), ends %s, not at the input's end %s", what, f.Verdict, f.StageLabel(), f.End.Format(time.RFC3339Nano), inputEnd.Format(time.RFC3339Nano))
	}
	stage := func(where string, st *timeline.Stage) {
		switch st.Status {
		case timeline.StatusPending, timeline.StatusSkipped, timeline.StatusUnknown:
			if st.Start != nil || st.End != nil || st.Duration != 0 {
				t.Errorf("%s: %s %s has times", what, where, st.Status)
			}
			return
		}
		if st.Start == nil || st.End == nil {
			return // an excerpt's stage without a time
		}
		if st.Start.Before(f.Start) || st.End.After(f.End) {
			t.Errorf("%s: %s runs %s–%s, outside the flow's %s–%s", what, where, st.Start.Format(time.RFC3339Nano), st.End.Format(time.RFC3339Nano), f.Start.Format(time.RFC3339Nano), f.End.Format(time.RFC3339Nano))
		}
		if timeline.Duration(st.End.Sub(*st.Start)) != st.Duration {
			t.Errorf("%s: %s runs %s, duration %s", what, where, st.End.Sub(*st.Start), st.Duration)
		}
		if st.Status != timeline.StatusDone && !st.End.Equal(inputEnd) {
			t.Errorf("%s: %s is %s and ends %s, not at the input's end %s", what, where, st.Status, st.End.Format(time.RFC3339Nano), inputEnd.Format(time.RFC3339Nano))
		}
	}
	for i := range f.Stages {
		stage("stage "+f.Stages[i].ID, &f.Stages[i])
	}
	for _, c := range f.Containers {
		for i := range c.Stages {
			stage("container "+c.Name+" stage "+c.Stages[i].ID, &c.Stages[i])
		}
	}
	pod, ctr := stallStages(f)
	if f.StalledAt == "" || !under {
		if f.Waited != 0 {
			t.Errorf("%s: waited %s, stalled at %q, under way %v", what, f.Waited, f.StalledAt, under)
		}
		return
	}
	if pod != nil && pod.Status == timeline.StatusDone || ctr != nil && ctr.Status == timeline.StatusDone {
		t.Errorf("%s: stalled at %s, a stage done", what, f.StageLabel())
	}
	if at, last := slices.Index(timeline.PodStages, f.StalledAt), slices.Index(timeline.PodStages, f.Stage); at >= 0 && last >= at {
		t.Errorf("%s: last stage done %s is not before %s, where it stalled", what, f.Stage, f.StalledAt)
	}
	want := timeline.Duration(0)
	switch {
	case ctr != nil && ctr.Start != nil:
		want = ctr.Duration
	case pod != nil && pod.Start != nil:
		want = pod.Duration
	}
	if f.Waited != want {
		t.Errorf("%s: waited %s, the stage it stalled at (%s) ran %s", what, f.Waited, f.StageLabel(), want)
	}
}

// inputEnds are the input's end of each node of fl.
func inputEnds(fl *timeline.FlowList) map[string]time.Time {
	ends := map[string]time.Time{}
	for _, n := range fl.Nodes {
		ends[n.Name] = n.End
	}
	return ends
}

// flatStages are a flow's stages as describe lists them: the pod's, then
// each container's.
func flatStages(f *timeline.Flow) []timeline.Stage {
	out := slices.Clone(f.Stages)
	for _, c := range f.Containers {
		out = append(out, c.Stages...)
	}
	return out
}

// shown is a stage's duration as a table shows it.
func shown(st *timeline.Stage) string {
	if st.Start == nil {
		return "-"
	}
	return timeline.HumanDuration(time.Duration(st.Duration))
}

func TestOneClock(t *testing.T) {
	for _, in := range clockLogs(t) {
		t.Run(filepath.Base(filepath.Dir(in))+"/"+filepath.Base(in), func(t *testing.T) {
			fl := podsOf(t, in)
			ends := inputEnds(fl)
			for i := range fl.Items {
				f := &fl.Items[i]
				checkDefinition(t, f.Pod.Key(), f, ends[f.Node])
			}
			clockTables(t, in, fl)
			clockYAML(t, in, fl)
			clockDescribe(t, in, fl)
			clockOTLP(t, in, fl)
			clockChrome(t, in, fl)
			clockReport(t, in, fl)
			clockCheck(t, in, fl)
		})
	}
}

// clockTables: get pods and -o wide, their WAIT/DUR, WAITED and DURATION.
func clockTables(t *testing.T, in string, fl *timeline.FlowList) {
	wide, _, _ := runPodflow(t, false, "get", "pods", "-o", "wide", "--no-headers", in)
	narrow, _, _ := runPodflow(t, false, "get", "pods", "--no-headers", in)
	wideRows, narrowRows := rowsOf(wide), rowsOf(narrow)
	if len(wideRows) != len(fl.Items) || len(narrowRows) != len(fl.Items) {
		t.Fatalf("%d pods in -o json, %d rows -o wide, %d rows", len(fl.Items), len(wideRows), len(narrowRows))
	}
	for i := range fl.Items {
		f := &fl.Items[i]
		dur, waited := timeline.HumanDuration(time.Duration(f.Duration)), "-"
		if f.Waited > 0 {
			waited = timeline.HumanDuration(time.Duration(f.Waited))
		}
		if c := strings.Fields(wideRows[i]); c[1] != f.Pod.Name || c[6] != stamp(f.Start) || c[7] != waited || c[8] != dur {
			t.Errorf("%s: -o wide row %q, want START %s WAITED %s DURATION %s", f.Pod.Key(), wideRows[i], stamp(f.Start), waited, dur)
		}
		want := dur
		if f.Verdict == timeline.VerdictStalled && f.Waited > 0 {
			want = waited
		}
		if c := strings.Fields(narrowRows[i]); c[1] != f.Pod.Name || c[6] != want {
			t.Errorf("%s: get pods row %q, want WAIT/DUR %s", f.Pod.Key(), narrowRows[i], want)
		}
	}
}

// clockYAML: -o yaml carries the JSON's exact figures.
func clockYAML(t *testing.T, in string, fl *timeline.FlowList) {
	out, errOut, code := runPodflow(t, false, "get", "pods", "-o", "yaml", in)
	if code != 0 && code != ExitPartial {
		t.Fatalf("-o yaml: exit %d: %s", code, errOut)
	}
	var doc any
	if err := yaml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("-o yaml: %v", err)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatalf("-o yaml as JSON: %v", err)
	}
	var y timeline.FlowList
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("-o yaml as a FlowList: %v", err)
	}
	if len(y.Items) != len(fl.Items) {
		t.Fatalf("-o yaml: %d pods, -o json %d", len(y.Items), len(fl.Items))
	}
	for i := range fl.Items {
		f, g := &fl.Items[i], &y.Items[i]
		if !f.Start.Equal(g.Start) || !f.End.Equal(g.End) || f.Duration != g.Duration || f.Waited != g.Waited {
			t.Errorf("%s: -o yaml start %s end %s duration %s waited %s; -o json %s %s %s %s", f.Pod.Key(), g.Start, g.End, g.Duration, g.Waited, f.Start, f.End, f.Duration, f.Waited)
		}
		fs, gs := flatStages(f), flatStages(g)
		for j := range min(len(fs), len(gs)) {
			a, b := &fs[j], &gs[j]
			if a.Status != b.Status || a.Duration != b.Duration || !timesEqual(a.Start, b.Start) || !timesEqual(a.End, b.End) {
				t.Errorf("%s: stage %s in -o yaml %s %s, in -o json %s %s", f.Pod.Key(), a.ID, b.Status, b.Duration, a.Status, a.Duration)
			}
		}
	}
}

func timesEqual(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// clockDescribe: describe pod's Start, End, Waited, and every stage row
// of the pod's and its containers' tables.
func clockDescribe(t *testing.T, in string, fl *timeline.FlowList) {
	for i := range fl.Items {
		f := &fl.Items[i]
		if !describable(fl, f) {
			continue
		}
		out := describeOf(t, in, f)
		dur := timeline.HumanDuration(time.Duration(f.Duration))
		if m := startLine.FindStringSubmatch(out); m == nil || m[1] != stamp(f.Start) {
			t.Errorf("%s: describe Start %v, want %s", f.Pod.Key(), m, stamp(f.Start))
		}
		wantEnd := stamp(f.End) + "  (" + dur + ")"
		if f.UnderWay() {
			wantEnd = stamp(f.End) + "  (" + dur + ", under way when the log ends)"
		}
		if m := endLine.FindStringSubmatch(out); m == nil || m[1] != wantEnd {
			t.Errorf("%s: describe End %v, want %q", f.Pod.Key(), m, wantEnd)
		}
		if f.StalledAt != "" {
			waited := "-"
			if f.Waited > 0 {
				waited = timeline.HumanDuration(time.Duration(f.Waited))
			}
			if m := waitLine.FindStringSubmatch(out); m == nil || m[1] != waited {
				t.Errorf("%s: describe Waited %v, want %s", f.Pod.Key(), m, waited)
			}
		}
		rows := stageRow.FindAllStringSubmatch(out, -1)
		sts := flatStages(f)
		if len(rows) != len(sts) {
			t.Errorf("%s: describe shows %d stage rows, the flow has %d stages", f.Pod.Key(), len(rows), len(sts))
			continue
		}
		for j, m := range rows {
			st := &sts[j]
			start := "-"
			if st.Start != nil {
				start = relDuration(st.Start.Sub(f.Start)) + " (" + clock(*st.Start) + ")"
			}
			if m[1] != st.ID || m[2] != start || m[3] != shown(st) || m[4] != string(st.Status) {
				t.Errorf("%s: describe stage row %q, want %s %s %s %s", f.Pod.Key(), strings.TrimSpace(m[0]), st.ID, start, shown(st), st.Status)
			}
		}
	}
}

// otlpSpan is the part of an OTLP span the test reads.
type otlpSpan struct {
	TraceID      string `json:"traceId"`
	ParentSpanID string `json:"parentSpanId"`
	Name         string `json:"name"`
	Start        string `json:"startTimeUnixNano"`
	End          string `json:"endTimeUnixNano"`
	Attributes   []struct {
		Key   string `json:"key"`
		Value struct {
			S string `json:"stringValue"`
		} `json:"value"`
	} `json:"attributes"`
	Status struct {
		Code int `json:"code"`
	} `json:"status"`
}

func (s *otlpSpan) attr(k string) string {
	for _, a := range s.Attributes {
		if a.Key == k {
			return a.Value.S
		}
	}
	return ""
}

// clockOTLP: each pod's root span runs from its start to its end, each
// stage's span from the stage's start to its end, a failed or stalled
// stage's span is an error, and a pod's error root has its stall's span
// an error too.
func clockOTLP(t *testing.T, in string, fl *timeline.FlowList) {
	out, errOut, code := runPodflow(t, false, "trace", "-o", "otlp", in)
	if code != 0 && code != ExitPartial {
		t.Fatalf("trace -o otlp: exit %d: %s", code, errOut)
	}
	var doc struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []otlpSpan `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("trace -o otlp: %v", err)
	}
	// The spans of each flow, in the flows' order by node (trace.Nodes).
	var roots [][]otlpSpan
	for _, rs := range doc.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				if sp.ParentSpanID == "" {
					roots = append(roots, nil)
				}
				if len(roots) == 0 {
					t.Fatalf("trace -o otlp: span %s before any root", sp.Name)
				}
				roots[len(roots)-1] = append(roots[len(roots)-1], sp)
			}
		}
	}
	_, members := trace.Nodes(fl.Items)
	var order []int
	for _, m := range members {
		order = append(order, m...)
	}
	if len(roots) != len(order) {
		t.Fatalf("trace -o otlp: %d root spans, %d pods", len(roots), len(order))
	}
	nanos := func(p *time.Time) string { return strconv.FormatInt(p.UnixNano(), 10) }
	for k, i := range order {
		f, spans := &fl.Items[i], roots[k]
		root := spans[0]
		if root.Start != nanos(&f.Start) || root.End != nanos(&f.End) {
			t.Errorf("%s: OTLP root span %s–%s, the flow %s–%s", f.Pod.Key(), root.Start, root.End, nanos(&f.Start), nanos(&f.End))
		}
		pod, ctr := stallStages(f)
		for _, sp := range spans[1:] {
			var st *timeline.Stage
			c := sp.attr("k8s.container.name")
			if c == "" {
				for j := range f.Stages {
					if f.Stages[j].ID == sp.attr("podflow.stage") {
						st = &f.Stages[j]
					}
				}
			} else {
				for _, ct := range f.Containers {
					for j := range ct.Stages {
						if ct.Name == c && ct.Stages[j].ID == sp.attr("podflow.stage") {
							st = &ct.Stages[j]
						}
					}
				}
			}
			if st == nil || st.Start == nil || st.End == nil {
				t.Errorf("%s: OTLP span %s (%s %s) has no stage with times", f.Pod.Key(), sp.Name, c, sp.attr("podflow.stage"))
				continue
			}
			if sp.Start != nanos(st.Start) || sp.End != nanos(st.End) {
				t.Errorf("%s: OTLP span %s %s %s–%s, the stage %s–%s", f.Pod.Key(), c, st.ID, sp.Start, sp.End, nanos(st.Start), nanos(st.End))
			}
			if failed := st.Status == timeline.StatusFailed || st.Status == timeline.StatusStalled; failed != (sp.Status.Code == 2) {
				t.Errorf("%s: OTLP span %s %s status %d, the stage %s", f.Pod.Key(), c, st.ID, sp.Status.Code, st.Status)
			}
			if root.Status.Code == 2 && underWayByRule(f) && (st == pod && ctr == nil || st == ctr) && sp.Status.Code != 2 {
				t.Errorf("%s: OTLP root span is an error, the span of %s where it stalled is not", f.Pod.Key(), f.StageLabel())
			}
		}
	}
}

// clockChrome: each pod's thread spans its start to its end in µs, each
// stage from its start to its end.
func clockChrome(t *testing.T, in string, fl *timeline.FlowList) {
	out, errOut, code := runPodflow(t, false, "trace", "-o", "chrome", in)
	if code != 0 && code != ExitPartial {
		t.Fatalf("trace -o chrome: exit %d: %s", code, errOut)
	}
	var tr trace.ChromeTrace
	if err := json.Unmarshal([]byte(out), &tr); err != nil {
		t.Fatalf("trace -o chrome: %v", err)
	}
	var base time.Time
	for i := range fl.Items {
		if s := fl.Items[i].Start; base.IsZero() || s.Before(base) {
			base = s
		}
	}
	us := func(t time.Time) int64 { return t.Sub(base).Microseconds() }
	var spans []trace.ChromeEvent
	for _, e := range tr.TraceEvents {
		if e.Ph == "X" {
			spans = append(spans, e)
		}
	}
	for i := range fl.Items {
		f := &fl.Items[i]
		var want []trace.ChromeEvent
		d := us(f.End) - us(f.Start)
		want = append(want, trace.ChromeEvent{Name: "pod " + f.Pod.Key(), Ts: us(f.Start), Dur: &d})
		add := func(who string, sts []timeline.Stage) {
			for _, st := range sts {
				if st.Start != nil && st.End != nil {
					d := us(*st.End) - us(*st.Start)
					want = append(want, trace.ChromeEvent{Name: who + st.ID, Ts: us(*st.Start), Dur: &d})
				}
			}
		}
		add("", f.Stages)
		for _, c := range f.Containers {
			add(c.Name+" ", c.Stages)
		}
		// The flow's spans, in order: its root, its stages, then each
		// container's span and its stages (the container's own span,
		// made of its stages', is not a figure of the engine's).
		var got []trace.ChromeEvent
		for len(spans) > 0 {
			e := spans[0]
			if len(got) > 0 && e.Cat == "pod" {
				break
			}
			spans = spans[1:]
			if e.Cat != "container" {
				got = append(got, e)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d Chrome spans, %d stages with times and the pod", f.Pod.Key(), len(got), len(want))
			continue
		}
		for j := range want {
			if got[j].Ts != want[j].Ts || *got[j].Dur != *want[j].Dur {
				t.Errorf("%s: Chrome span %s at %dµs for %dµs, %s at %dµs for %dµs", f.Pod.Key(), got[j].Name, got[j].Ts, *got[j].Dur, want[j].Name, want[j].Ts, *want[j].Dur)
			}
		}
	}
}

// clockReport: the report's pods (their waited, their stage tables and
// Gantt bars) show the flows' figures; a pod under way at a stage has a
// bar of that stage's status over its stall.
func clockReport(t *testing.T, in string, fl *timeline.FlowList) {
	ioS, _, _, _ := NewTestIO(false)
	a, err := Analyze(ioS, []string{in}, LoadOptions{})
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	data := report.Build(report.Input{Flows: a.Flows, Items: a.Flows.Items})
	for _, n := range data.Nodes {
		for _, p := range n.Pods {
			var f *timeline.Flow
			for i := range fl.Items {
				if g := &fl.Items[i]; g.Pod.Key() == p.Key && g.Node == n.Name && f == nil {
					f = g
				}
			}
			if f == nil {
				t.Errorf("report pod %s on %s: no such flow", p.Key, n.Name)
				continue
			}
			if f.StalledAt != "" && p.Waited != timeline.HumanDuration(time.Duration(f.Waited)) {
				t.Errorf("%s: report Waited %s, want %s", f.Pod.Key(), p.Waited, timeline.HumanDuration(time.Duration(f.Waited)))
			}
			sts := flatStages(f)
			if len(p.Stages) != len(sts) {
				t.Errorf("%s: report has %d stages, the flow %d", f.Pod.Key(), len(p.Stages), len(sts))
				continue
			}
			for j, rs := range p.Stages {
				if rs.Status != string(sts[j].Status) || rs.Duration != timeline.HumanDuration(time.Duration(sts[j].Duration)) {
					t.Errorf("%s: report stage %s %s %s, want %s %s", f.Pod.Key(), rs.Name, rs.Status, rs.Duration, sts[j].Status, timeline.HumanDuration(time.Duration(sts[j].Duration)))
				}
			}
			// The pod's own row: a bar per stage with times, its
			// length the stage's (ms, as the chart counts).
			var bars []report.Bar
			for _, b := range p.Bars {
				if b.Status != "mark" {
					bars = append(bars, b)
				}
			}
			var timed []timeline.Stage
			for _, st := range f.Stages {
				if st.Start != nil && st.Status != timeline.StatusPending && st.Status != timeline.StatusSkipped {
					timed = append(timed, st)
				}
			}
			if len(bars) != len(timed) {
				t.Errorf("%s: report draws %d stage bars, the flow has %d stages with times", f.Pod.Key(), len(bars), len(timed))
				continue
			}
			for j, b := range bars {
				st := &timed[j]
				if got, want := b.B-b.A, st.End.Sub(n0(data, n.Name, fl)).Milliseconds()-st.Start.Sub(n0(data, n.Name, fl)).Milliseconds(); got != want {
					t.Errorf("%s: report bar of %s %dms long, the stage %dms", f.Pod.Key(), st.ID, got, want)
				}
				status := string(st.Status)
				if st.Status == timeline.StatusDone && st.Attempts > 0 {
					status = "retried"
				}
				if b.Status != status {
					t.Errorf("%s: report bar of %s is %s, the stage %s", f.Pod.Key(), st.ID, b.Status, st.Status)
				}
			}
		}
	}
}

// n0 is the start of a node's chart axis: its earliest pod's start.
func n0(_ report.Data, node string, fl *timeline.FlowList) time.Time {
	var t0 time.Time
	for i := range fl.Items {
		if f := &fl.Items[i]; f.Node == node && !f.Start.IsZero() && (t0.IsZero() || f.Start.Before(t0)) {
			t0 = f.Start
		}
	}
	return t0
}

// clockCheck: check's JSON carries the same flows, and a pod that breaks
// --fail-on is measured by its waited.
func clockCheck(t *testing.T, in string, fl *timeline.FlowList) {
	out, errOut, code := runPodflow(t, false, "check", in, "--fail-on", "Stalled,Failed,Incomplete,Terminating,Rejected", "-o", "json")
	if code != 0 && code != 1 && code != 3 && code != ExitPartial {
		t.Fatalf("check: exit %d: %s", code, errOut)
	}
	var res struct {
		timeline.FlowList
		Pods []check.PodResult `json:"pods"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("check -o json: %v", err)
	}
	byKey := map[string]*timeline.Flow{}
	for i := range fl.Items {
		f := &fl.Items[i]
		byKey[fmt.Sprint(f.Pod, f.Node, f.Incarnation)] = f
	}
	for i := range res.Items {
		g := &res.Items[i]
		f := byKey[fmt.Sprint(g.Pod, g.Node, g.Incarnation)]
		if f == nil {
			continue // a pod check's rules leave out
		}
		if !f.Start.Equal(g.Start) || !f.End.Equal(g.End) || f.Duration != g.Duration || f.Waited != g.Waited {
			t.Errorf("%s: check start %s end %s duration %s waited %s; get pods %s %s %s %s", f.Pod.Key(), g.Start, g.End, g.Duration, g.Waited, f.Start, f.End, f.Duration, f.Waited)
		}
	}
	for _, p := range res.Pods {
		for _, v := range p.Violations {
			if v.Rule != "fail-on" {
				continue
			}
			// Incarnations share a PodRef: one of them has this wait.
			var waits []string
			for i := range res.Items {
				if g := &res.Items[i]; g.Pod == p.Pod && g.Verdict == p.Verdict {
					waits = append(waits, g.Waited.String())
				}
			}
			if !slices.Contains(waits, v.Value.String()) {
				t.Errorf("%s: check's fail-on value %s, its waited %v", p.Pod.Key(), v.Value, waits)
			}
		}
	}
}
