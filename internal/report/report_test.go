package report

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/timeline"
)

var t0 = time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)

func at(s float64) *time.Time { v := t0.Add(time.Duration(s * float64(time.Second))); return &v }

// pod is a flow of one stage, sandbox, that took d seconds from start.
func pod(node, name string, v timeline.Verdict, start, d float64, attempts int) timeline.Flow {
	st := timeline.StatusDone
	if v == timeline.VerdictStalled || v == timeline.VerdictFailed {
		st = timeline.StatusStalled
	}
	return timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: name}, Node: node, Verdict: v, Start: *at(start), End: *at(start + d),
		Duration: timeline.Duration(time.Duration(d * float64(time.Second))),
		Stages: []timeline.Stage{{ID: timeline.StSandbox, Status: st, Attempts: attempts, Start: at(start), End: at(start + d), Duration: timeline.Duration(time.Duration(d * float64(time.Second))),
			Reason: "failed to setup network", Evidence: []timeline.Evidence{{Input: "k.log", Line: 7, Time: *at(start + 1), Text: "Failed to create sandbox for pod: failed to setup network"}}}}}
}

func TestHealth(t *testing.T) {
	crash := pod("n", "c", timeline.VerdictTerminating, 0, 5, 0)
	crash.Containers = []timeline.Container{{Name: "app", State: "waiting", BackOffs: 3}}
	tests := []struct {
		name string
		f    timeline.Flow
		want Health
	}{
		{"failed", pod("n", "a", timeline.VerdictFailed, 0, 5, 0), HealthFailed},
		{"stalled", pod("n", "a", timeline.VerdictStalled, 0, 5, 2), HealthFailed},
		{"rejected", pod("n", "a", timeline.VerdictRejected, 0, 5, 0), HealthFailed},
		{"running after retries", pod("n", "a", timeline.VerdictRunning, 0, 5, 2), HealthRecovered},
		{"running", pod("n", "a", timeline.VerdictRunning, 0, 5, 0), HealthOK},
		{"terminating, crash looping", crash, HealthFailed},
		{"terminating", pod("n", "a", timeline.VerdictTerminating, 0, 5, 0), HealthOther},
	}
	for _, tt := range tests {
		if got := healthOf(&tt.f); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestRoutineFindings(t *testing.T) {
	tests := []struct {
		kind, msg string
		pods      int
		want      bool
	}{
		{"SyncLoopSkipped", "Skipping pod synchronization: [container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]", 0, true},
		{"SyncLoopSkipped", "Skipping pod synchronization: [PLEG is not healthy: pleg has yet to be successful]", 0, true},
		{"SyncLoopSkipped", "Skipping pod synchronization: [PLEG is not healthy: pleg was last seen active 3m0s ago; threshold is 3m0s]", 0, false},
		{"SyncLoopSkipped", "Skipping pod synchronization: [container runtime is down, PLEG is not healthy: pleg has yet to be successful]", 0, false},
		{"SyncLoopSkipped", "Skipping pod synchronization: [PLEG is not healthy: pleg has yet to be successful]", 2, false},
		{"PLEGUnhealthy", "PLEG is not healthy: pleg was last seen active 3m0s ago", 0, false},
		{"KubeletRestart", "kubelet restarted", 0, false},
	}
	for _, tt := range tests {
		fd := timeline.Finding{Kind: tt.kind, Message: tt.msg, Pods: make([]timeline.PodRef, tt.pods)}
		if got := routine(&fd); got != tt.want {
			t.Errorf("routine(%s %q, %d pods) = %v, want %v", tt.kind, tt.msg, tt.pods, got, tt.want)
		}
	}
}

func render(t *testing.T, in Input) (Data, string) {
	t.Helper()
	d := Build(in)
	var b bytes.Buffer
	if err := Write(&b, d); err != nil {
		t.Fatal(err)
	}
	return d, b.String()
}

// TestReportLeadsWithTrouble: a short title; the real findings and the
// worst pods first, the kubelet's start-up notes last and folded; a chart
// per node on its own axis; failed pods red, recovered ones yellow.
func TestReportLeadsWithTrouble(t *testing.T) {
	fl := &timeline.FlowList{Kind: timeline.KindFlowList, Summary: timeline.Summary{Inputs: []string{"a/kubelet.log", "b/kubelet.log", "c/kubelet.log"}},
		Items: []timeline.Flow{
			pod("node-a", "ok-1", timeline.VerdictRunning, 0, 4, 0),
			pod("node-a", "broken-2", timeline.VerdictStalled, 1, 60, 3),
			pod("node-b", "back-3", timeline.VerdictRunning, 7200, 12, 2), // two hours later
		},
		Findings: []timeline.Finding{
			{Kind: "SyncLoopSkipped", Node: "node-a", Time: t0, Count: 1, Message: "Skipping pod synchronization: [PLEG is not healthy: pleg has yet to be successful]"},
			{Kind: "RuntimeDown", Node: "node-b", Time: *at(7205), Count: 1, Message: "container runtime is down"},
		}}
	fl.Summary.Pods = len(fl.Items)
	d, html := render(t, Input{Flows: fl, Items: fl.Items})
	if !strings.Contains(html, "<title>podflow: 1 of 3 pods in trouble (1 Stalled), 1 recovered</title>") {
		t.Errorf("title: %s", regexp.MustCompile(`<title>.*</title>`).FindString(html))
	}
	attn, chart, routine := strings.Index(html, `id="attention"`), strings.Index(html, `<section class="node"`), strings.Index(html, `<details class="routine`)
	if attn < 0 || chart < attn || routine < chart {
		t.Fatalf("order: attention at %d, first chart at %d, routine notes at %d", attn, chart, routine)
	}
	lead := html[attn:chart]
	if !strings.Contains(lead, "container runtime is down") || strings.Contains(lead, "pleg has yet to be successful") {
		t.Errorf("the page leads with the wrong findings:\n%s", lead)
	}
	if strings.Count(html, "pleg has yet to be successful") != 1 || !strings.Contains(html[routine:], "pleg has yet to be successful") {
		t.Errorf("the start-up note is not only in the folded notes")
	}
	if i, j := strings.Index(lead, "broken-2"), strings.Index(lead, "back-3"); i < 0 || j < i || strings.Contains(lead, "ok-1") {
		t.Errorf("the worst pods do not lead: broken-2 at %d, back-3 at %d:\n%s", i, j, lead)
	}
	if len(d.Nodes) != 2 || d.Nodes[0].Name != "node-a" || d.Nodes[1].Name != "node-b" {
		t.Fatalf("nodes %+v", d.Nodes)
	}
	// node-b's axis spans its own 12 s, not the two hours since node-a.
	if last := d.Nodes[1].Ticks[len(d.Nodes[1].Ticks)-1]; last.Label != "+12s" || d.Nodes[1].Ticks[0].X != labelW {
		t.Errorf("node-b's axis: %+v", d.Nodes[1].Ticks)
	}
	for name, want := range map[string]string{"broken-2": "failed", "back-3": "recovered", "ok-1": "ok"} {
		if !regexp.MustCompile(`<g class="pod" id="bar-pod-\d+" data-target="pod-\d+" data-health="` + want + `">\s*<title>default/` + name).MatchString(html) {
			t.Errorf("%s is not drawn as %s", name, want)
		}
	}
	if !strings.Contains(html, `class="bar st-retried"`) {
		t.Errorf("a stage done after failed attempts is not drawn as retried")
	}
}

// TestReportDrawsTheWorstInFull: of many pods the worst few hundred are
// drawn, the others counted, so the page of a large log stays small.
func TestReportDrawsTheWorstInFull(t *testing.T) {
	fl := &timeline.FlowList{Kind: timeline.KindFlowList}
	for i := 0; i < 5000; i++ {
		v, attempts := timeline.VerdictRunning, 0
		switch {
		case i%50 == 0:
			v = timeline.VerdictStalled
		case i%10 == 0:
			attempts = 2
		}
		fl.Items = append(fl.Items, pod("node-a", fmt.Sprintf("p-%d", i), v, float64(i), 5, attempts))
	}
	d, html := render(t, Input{Flows: fl, Items: fl.Items})
	if n := strings.Count(html, `<g class="pod"`); n != DefaultMaxDrawn || len(d.Drawn) != DefaultMaxDrawn || d.NotDrawn != 5000-DefaultMaxDrawn {
		t.Errorf("%d pods drawn (%d not), want %d", n, d.NotDrawn, DefaultMaxDrawn)
	}
	// The 100 stalled ones first, then the 400 that recovered.
	if d.Drawn[0].Health != HealthFailed || d.Drawn[99].Health != HealthFailed || d.Drawn[100].Health != HealthRecovered {
		t.Errorf("not the worst first: %s %s %s", d.Drawn[0].Health, d.Drawn[99].Health, d.Drawn[100].Health)
	}
	if !strings.Contains(html, `class="muted more">4700 more pods not drawn: 4700 Running<`) {
		t.Errorf("the pods not drawn are not summarised: %s", regexp.MustCompile(`class="muted more">[^<]*`).FindString(html))
	}
	if len(html) > 3<<20 {
		t.Errorf("the page is %d bytes", len(html))
	}
}

// TestReportCountsAreVerdicts: the page's counts are get pods' verdicts
// (a Stalled pod is counted Stalled, never "failed"), and its heading
// says how many of each verdict are in trouble.
func TestReportCountsAreVerdicts(t *testing.T) {
	fl := &timeline.FlowList{Items: []timeline.Flow{
		pod("n", "stalled-1", timeline.VerdictStalled, 0, 5, 0),
		pod("n", "stalled-2", timeline.VerdictStalled, 1, 5, 0),
		pod("n", "failed-1", timeline.VerdictFailed, 2, 5, 0),
		pod("n", "ok-1", timeline.VerdictRunning, 3, 5, 0),
	}}
	fl.Summary.Pods = len(fl.Items)
	d, html := render(t, Input{Flows: fl, Items: fl.Items})
	want := map[string]int{"Stalled": 2, "Failed": 1, "Running": 1}
	for _, c := range d.Counts {
		if want[c.Verdict] != c.N || c.Label != c.Verdict {
			t.Errorf("count %+v, want %d %s", c, want[c.Verdict], c.Verdict)
		}
		delete(want, c.Verdict)
	}
	if len(want) > 0 {
		t.Errorf("counts missing: %v", want)
	}
	if d.Heading != "3 of 4 pods in trouble (1 Failed, 2 Stalled)" && d.Heading != "3 of 4 pods in trouble (2 Stalled, 1 Failed)" {
		t.Errorf("heading %q", d.Heading)
	}
	// "failed" appears only as the verdict Failed's count, never as a
	// label of the three pods in trouble.
	if regexp.MustCompile(`>\s*(3 )?failed\s*<`).MatchString(html) {
		t.Errorf("a label says failed for pods that are not all Failed")
	}
}

// TestReportNamesWrapWhole: a long pod or container name is never cut
// in the chart's label column: it wraps onto lines, at its dashes, and
// every character is there.
func TestReportNamesWrapWhole(t *testing.T) {
	long := "payments-reconciliation-worker-with-a-very-long-deployment-name-7b4d9c8f6-q9zrt"
	f := pod("n", long, timeline.VerdictRunning, 0, 5, 0)
	f.Pod.Namespace = "team-payments-production"
	f.Containers = []timeline.Container{{Name: "sidecar-log-shipper-for-the-payments-reconciliation-app", Type: timeline.ContainerRegular}}
	fl := &timeline.FlowList{Items: []timeline.Flow{f}}
	fl.Summary.Pods = 1
	d, html := render(t, Input{Flows: fl, Items: fl.Items})
	p := d.Nodes[0].Pods[0]
	if got := strings.Join(p.Label, ""); got != "team-payments-production/"+long {
		t.Errorf("label %q, want the whole key", got)
	}
	if len(p.Label) < 3 {
		t.Errorf("label not wrapped: %q", p.Label)
	}
	for _, l := range p.Label {
		if n := len([]rune(l)); n > labelChars {
			t.Errorf("label line %q: %d characters", l, n)
		}
		if !strings.HasSuffix(l, "-") && !strings.HasSuffix(l, "/") && l != p.Label[len(p.Label)-1] {
			t.Errorf("label line %q cut mid-word", l)
		}
	}
	if c := p.Rows[0].Label; strings.Join(c, "") != f.Containers[0].Name {
		t.Errorf("container label %q", c)
	}
	if strings.Contains(html, "…</tspan>") || !strings.Contains(html, "q9zrt</tspan>") {
		t.Errorf("a name was cut in the chart")
	}
	// The rows below start under the wrapped label.
	if p.H < rowH+lineH*float64(len(p.Label)-1) {
		t.Errorf("row height %v for %d label lines", p.H, len(p.Label))
	}
}
