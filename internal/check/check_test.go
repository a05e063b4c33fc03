package check

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/timeline"
)

// hostileResult is a failing pod whose log text tries to break every format.
func hostileResult() *Result {
	evil := "boom 100% done\n::set-output name=x::y\r\n::error::forged\x00\x1b[31mred\x0b]]><script>alert(1)</script> | a,b:c"
	f := timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "evil%0A::warning::x"}, Verdict: timeline.VerdictFailed,
		StalledAt: "containers", Reason: evil, Diagnosis: "Failed: " + evil, Waited: timeline.Duration(time.Minute),
		Evidence: []timeline.Evidence{{Input: "logs/node,1:x/kubelet.log", Line: 42, Text: evil}}}
	fl := &timeline.FlowList{APIVersion: timeline.APIVersion, Kind: timeline.KindFlowList, Items: []timeline.Flow{f}}
	r := Rules{FailOn: map[timeline.Verdict]bool{timeline.VerdictFailed: true}, FailOrder: []timeline.Verdict{timeline.VerdictFailed}}
	return Judge(fl, r, nil)
}

// TestJUnitHostile: characters XML 1.0 forbids are removed, markup escaped.
func TestJUnitHostile(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, hostileResult(), 0); err != nil {
		t.Fatal(err)
	}
	var back JUnitSuites
	if err := xml.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("hostile junit does not parse: %v\n%s", err, buf.String())
	}
	f := back.Suites[0].Cases[0].Failure
	if f == nil || !strings.Contains(f.Text, "<script>") || strings.ContainsAny(f.Text, "\x00\x1b\x0b") || !strings.Contains(f.Text, "]]>") {
		t.Errorf("hostile failure text: %q", f)
	}
}

func TestGitHubHostile(t *testing.T) {
	var buf bytes.Buffer
	WriteGitHub(&buf, hostileResult())
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one annotation line, got %d:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "::error file=") {
			t.Errorf("line does not start with the annotation: %q", l)
		}
		if strings.ContainsAny(l, "\r\x00\x1b") {
			t.Errorf("raw control characters in %q", l)
		}
	}
	for _, w := range []string{"file=logs/node%2C1%3Ax/kubelet.log,line=42,title=default/evil%250A%3A%3Awarning%3A%3Ax Failed", "100%25 done%0A::set-output", "y%0A::error::forgedred"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	var buf bytes.Buffer
	WriteMarkdown(&buf, hostileResult())
	out := buf.String()
	if strings.Contains(out, "<script>") || strings.Contains(out, "\x1b") || !strings.Contains(out, "&lt;script&gt;") {
		t.Errorf("markdown not escaped:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| default/evil") && strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") != 5 {
			t.Errorf("table row broken: %q", l)
		}
	}
}

// TestMarkdownPingsNobody: a pod's log text that names @someone, an
// @org/team or #123 (or owner/repo#123) pings no one and links nothing
// in a step summary or a PR comment (issue #28 point 13): GitHub's
// mentions and references need the name or number right after the sign.
func TestMarkdownPingsNobody(t *testing.T) {
	res := hostileResult()
	text := "pull denied, ask @octocat or @podflow/maintainers, see #123 and podflow/podflow#45 (mail ops@example.com)"
	res.Pods[0].Flow.Diagnosis = text
	res.Pods[0].Violations[0].Message = text
	res.Rules[0].Message = text
	var buf bytes.Buffer
	WriteMarkdown(&buf, res)
	out := buf.String()
	for _, bad := range []string{"@octocat", "@podflow", "#123", "#45", "@example"} {
		if strings.Contains(out, bad) {
			t.Errorf("markdown holds %q:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "@&#8203;octocat") || !strings.Contains(out, `\#&#8203;123`) {
		t.Errorf("the text is not kept:\n%s", out)
	}
}

// TestMaxStartupCause: a pod that started late because a stage was
// retried is reported with that stage's failure line first, the startup
// line after it; with no failure, with its slowest stage's last line.
func TestMaxStartupCause(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	at := func(s int) *time.Time { v := t0.Add(time.Duration(s) * time.Second); return &v }
	ev := func(line int64, text string) timeline.Evidence {
		return timeline.Evidence{Input: "k.log", Line: line, Text: text}
	}
	startupLine := ev(90, "Observed pod startup duration")
	flow := func(volumes timeline.Stage) timeline.Flow {
		e2e := timeline.Duration(40 * time.Second)
		return timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "web"}, Verdict: timeline.VerdictRunning, Start: t0, End: *at(40),
			Stages: []timeline.Stage{
				{ID: timeline.StSandbox, Status: timeline.StatusDone, Start: at(0), End: at(2), Duration: timeline.Duration(2 * time.Second), Evidence: []timeline.Evidence{ev(5, "Created PodSandbox for pod")}},
				volumes,
			},
			Startup: &timeline.Startup{PodflowE2E: &e2e, Evidence: &startupLine}}
	}
	tests := []struct {
		name      string
		volumes   timeline.Stage
		wantCause int64
		wantMsg   string
	}{
		{"retried stage", timeline.Stage{ID: timeline.StVolumes, Status: timeline.StatusDone, Attempts: 3, Reason: `configmap "app" not found`, Start: at(2), End: at(38), Duration: timeline.Duration(36 * time.Second),
			Evidence: []timeline.Evidence{ev(10, "Waiting for volumes"), ev(11, `MountVolume.SetUp failed for volume "config" : configmap "app" not found`), ev(60, "All volumes are attached")}},
			11, `started in 40s, over the 30s maximum; stage volumes failed 3 times: configmap "app" not found`},
		{"slow stage", timeline.Stage{ID: timeline.StVolumes, Status: timeline.StatusDone, Start: at(2), End: at(38), Duration: timeline.Duration(36 * time.Second),
			Evidence: []timeline.Evidence{ev(10, "Waiting for volumes"), ev(60, "All volumes are attached")}},
			60, "started in 40s, over the 30s maximum; the slowest was stage volumes (36s)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fl := &timeline.FlowList{Kind: timeline.KindFlowList, Items: []timeline.Flow{flow(tt.volumes)}}
			res := Judge(fl, Rules{MaxStartup: 30 * time.Second}, nil)
			v := res.Pods[0].Violations
			if len(v) != 1 {
				t.Fatalf("violations %+v", v)
			}
			lines := v[0].Lines()
			if v[0].Cause == nil || v[0].Cause.Line != tt.wantCause || lines[0].Line != tt.wantCause || lines[len(lines)-1].Line != 90 || v[0].Message != tt.wantMsg {
				t.Errorf("cause %+v, lines %+v, message %q; want line %d first, the startup line last, %q", v[0].Cause, lines, v[0].Message, tt.wantCause, tt.wantMsg)
			}
		})
	}
}

func TestJUnitTime(t *testing.T) {
	d8, d30 := timeline.Duration(8*time.Second), timeline.Duration(30*time.Second)
	fl := &timeline.FlowList{Kind: timeline.KindFlowList, Items: []timeline.Flow{
		{Pod: timeline.PodRef{Namespace: "a", Name: "p"}, Verdict: timeline.VerdictRunning, Startup: &timeline.Startup{PodflowE2E: &d8}},
		{Pod: timeline.PodRef{Namespace: "a", Name: "q"}, Verdict: timeline.VerdictRunning, Startup: &timeline.Startup{PodflowE2E: &d30}},
	}}
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, Judge(fl, Rules{}, nil), 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var s JUnitSuites
	if err := xml.Unmarshal(buf.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Time != "1.500" || s.Suites[0].Time != "1.500" || s.Suites[0].Cases[0].Time != "8.000" || s.Suites[0].Cases[1].Time != "30.000" {
		t.Errorf("times: all %s, pods %s, cases %s %s; want the analysis 1.500 and the startups 8.000 30.000",
			s.Time, s.Suites[0].Time, s.Suites[0].Cases[0].Time, s.Suites[0].Cases[1].Time)
	}
}

// TestGitHubWarnsRecovered: a pod that passed but ran after trouble gets a
// ⚠ warning annotation pointing at the first failure line of the stage
// that had it; a pod that ran clean gets none.
func TestGitHubWarnsRecovered(t *testing.T) {
	failed := timeline.Evidence{Input: "kubelet.log", Line: 769, Text: `"CreatePodSandbox for pod failed" err="failed to setup network"`}
	recovered := timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "payments"}, Verdict: timeline.VerdictRunning,
		Reason: "Running after 4 failed sandbox attempts: failed to setup network", Diagnosis: "Running after 1m1s.",
		Stages: []timeline.Stage{{ID: timeline.StSandbox, Attempts: 4, Evidence: []timeline.Evidence{{Input: "kubelet.log", Line: 728, Text: "No sandbox for pod can be found"}, failed}}}}
	clean := timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "web"}, Verdict: timeline.VerdictRunning}
	res := &Result{Result: "pass", Pods: []PodResult{
		{Pod: recovered.Pod, Verdict: recovered.Verdict, Passed: true, Flow: &recovered},
		{Pod: clean.Pod, Verdict: clean.Verdict, Passed: true, Flow: &clean},
	}}
	var b bytes.Buffer
	WriteGitHub(&b, res)
	out := b.String()
	if !strings.Contains(out, "::warning file=kubelet.log,line=769,title=⚠ default/payments Running after trouble::") {
		t.Errorf("no warning at the failure line for the recovered pod:\n%s", out)
	}
	if strings.Contains(out, "default/web") {
		t.Errorf("a pod that ran clean is annotated:\n%s", out)
	}
}
