package cmd

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// chkEvidenceLine is "input:line text" for one evidence line.
func chkEvidenceLine(ev timeline.Evidence) string {
	return fmt.Sprintf("%s:%d %s", ev.Input, ev.Line, ev.Text)
}

// podStartupText is the pod's startup for display.
func (p *PodResult) startupText() string {
	if p.Startup == nil {
		return "-"
	}
	return chkFmtDur(time.Duration(*p.Startup))
}

// headline is a pod's worst violation in one line.
func (p *PodResult) headline() string {
	if len(p.Violations) == 0 {
		return ""
	}
	return p.Violations[0].Message
}

// ---- text ----

func writeCheckText(w io.Writer, res *CheckResult) {
	s := sanitize.Sanitize
	failed := 0
	for _, p := range res.Pods {
		if !p.Passed {
			failed++
		}
	}
	switch res.Result {
	case "fail":
		broken := 0
		for _, r := range res.Rules {
			if r.Status == RuleFail {
				broken++
			}
		}
		fmt.Fprintf(w, "FAIL  %s broken; %d of %s failed\n", chkPlural(broken, "rule"), failed, chkPlural(len(res.Pods), "pod"))
	case "nothing":
		fmt.Fprintf(w, "NOTHING TO JUDGE  %s\n", s(strings.Join(res.Nothing, "; ")))
	default:
		fmt.Fprintf(w, "PASS  %s, %s\n", chkPlural(len(res.Pods), "pod"), chkPlural(len(res.Rules), "rule"))
	}
	for _, p := range rankPods(res.Pods) {
		if p.Passed {
			continue
		}
		fmt.Fprintf(w, "\n  %s  %s  startup %s\n", s(p.Pod.Key()), p.Verdict, p.startupText())
		for _, v := range p.Violations {
			fmt.Fprintf(w, "    [%s %s] %s\n", v.Rule, s(v.Spec), s(v.Message))
			for i, ev := range v.Evidence {
				if i == 3 {
					fmt.Fprintf(w, "      … %d more lines\n", len(v.Evidence)-3)
					break
				}
				fmt.Fprintf(w, "      %s\n", s(chkEvidenceLine(ev)))
			}
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Rules:")
	for _, r := range res.Rules {
		fmt.Fprintf(w, "  %-7s %s %s: %s\n", strings.ToUpper(r.Status), r.Rule, s(r.Spec), s(r.Message))
	}
	if len(res.Rules) == 0 {
		fmt.Fprintln(w, "  (none)")
	}
	if len(res.Deltas) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "Stage latency vs baseline:")
		fmt.Fprintf(w, "  %-16s %12s %12s %8s %12s %12s %8s\n", "STAGE", "BASE P50", "P50", "Δ", "BASE P90", "P90", "Δ")
		for _, d := range res.Deltas {
			mark := ""
			if d.Regression {
				mark = "  REGRESSION"
			}
			fmt.Fprintf(w, "  %-16s %12s %12s %8s %12s %12s %8s%s\n", d.Stage,
				chkFmtDur(time.Duration(d.BaseP50)), chkFmtDur(time.Duration(d.P50)), chkPct(d.DeltaP50),
				chkFmtDur(time.Duration(d.BaseP90)), chkFmtDur(time.Duration(d.P90)), chkPct(d.DeltaP90), mark)
		}
	}
	if len(res.Ignored) > 0 {
		fmt.Fprintf(w, "\nIgnored: %s\n", s(strings.Join(res.Ignored, ", ")))
	}
}

func chkPct(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+∞"
	case f >= 0:
		return fmt.Sprintf("+%.0f%%", f*100)
	}
	return fmt.Sprintf("%.0f%%", f*100)
}

// rankPods orders pods worst first: failing pods by verdict (Failed,
// Stalled, …) and how long they waited, then by how far past a limit.
func rankPods(pods []PodResult) []PodResult {
	out := append([]PodResult(nil), pods...)
	rank := func(p PodResult) int {
		if p.Passed {
			return 100
		}
		for i, v := range timeline.Verdicts {
			if v == p.Verdict {
				return i
			}
		}
		return 50
	}
	over := func(p PodResult) time.Duration {
		var m time.Duration
		if p.flow != nil {
			m = time.Duration(p.flow.Waited)
		}
		for _, v := range p.Violations {
			if d := time.Duration(v.Value - v.Limit); v.Limit > 0 && d > m {
				m = d
			}
		}
		return m
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i]), rank(out[j])
		if ri != rj {
			return ri < rj
		}
		return over(out[i]) > over(out[j])
	})
	return out
}

// ---- json ----

func writeCheckJSON(w io.Writer, res *CheckResult) error {
	enc := json.NewEncoder(sanitize.JSONWriter(w))
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}

// ---- junit ----

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Cases     []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// xmlText makes log text safe for XML 1.0 (sanitize.XML) and for a CI
// log that shows the file (sanitize.Defuse).
func xmlText(s string) string { return sanitize.Defuse(sanitize.XML(s)) }

func chkSecs(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

func writeCheckJUnit(w io.Writer, res *CheckResult) error {
	pods := junitSuite{Name: "podflow pods"}
	if !res.Summary.Start.IsZero() {
		pods.Timestamp = res.Summary.Start.UTC().Format("2006-01-02T15:04:05")
	}
	var total time.Duration
	for _, p := range res.Pods {
		d := time.Duration(0)
		if p.Startup != nil {
			d = time.Duration(*p.Startup)
		} else if p.flow != nil {
			d = time.Duration(p.flow.Duration)
		}
		total += d
		c := junitCase{Name: xmlText(sanitize.Sanitize(p.Pod.Key())), Classname: xmlText("podflow." + sanitize.Sanitize(p.Pod.Namespace)), Time: chkSecs(d)}
		if !p.Passed {
			var b strings.Builder
			diag := ""
			if p.flow != nil {
				diag = p.flow.Diagnosis
			}
			if diag != "" {
				b.WriteString(diag)
				b.WriteString("\n")
			}
			for _, v := range p.Violations {
				fmt.Fprintf(&b, "\n[%s %s] %s\n", v.Rule, v.Spec, v.Message)
				for _, ev := range v.Evidence {
					b.WriteString("  " + chkEvidenceLine(ev) + "\n")
				}
			}
			msg := p.headline()
			if diag != "" {
				msg = diag
			}
			c.Failure = &junitFailure{Message: xmlText(sanitize.Sanitize(msg)), Type: string(p.Verdict), Text: xmlText(b.String())}
			pods.Failures++
		} else if p.flow != nil && p.flow.Diagnosis != "" {
			c.SystemOut = xmlText(p.flow.Diagnosis)
		}
		pods.Cases = append(pods.Cases, c)
	}
	pods.Tests, pods.Time = len(pods.Cases), chkSecs(total)

	rules := junitSuite{Name: "podflow rules", Time: "0.000"}
	for _, r := range res.Rules {
		c := junitCase{Name: xmlText(r.Rule + " " + r.Spec), Classname: "podflow.rules", Time: "0.000"}
		switch r.Status {
		case RuleFail:
			c.Failure = &junitFailure{Message: xmlText(sanitize.Sanitize(r.Message)), Type: r.Rule, Text: xmlText(r.Message)}
			rules.Failures++
		case RuleUnknown:
			c.Skipped = &junitSkipped{Message: xmlText(sanitize.Sanitize(r.Message))}
			rules.Skipped++
		}
		rules.Cases = append(rules.Cases, c)
	}
	rules.Tests = len(rules.Cases)
	out := junitSuites{Name: "podflow check", Tests: pods.Tests + rules.Tests, Failures: pods.Failures + rules.Failures, Skipped: rules.Skipped, Time: chkSecs(total), Suites: []junitSuite{pods, rules}}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// ---- github ----

// ghData escapes a workflow command's message (GitHub's escapeData).
func ghData(s string) string { return sanitize.GitHubData(s) }

// ghProp escapes a workflow command's property (GitHub's escapeProperty).
func ghProp(s string) string { return sanitize.GitHubProperty(s) }

// ghMax is how many annotations a step shows.
const ghMax = 10

type ghAnnotation struct {
	level, file string
	line        int64
	title, msg  string
}

func (a ghAnnotation) String() string {
	var props []string
	if a.file != "" {
		props = append(props, "file="+ghProp(filepath.ToSlash(a.file)))
		if a.line > 0 {
			props = append(props, fmt.Sprintf("line=%d", a.line))
		}
	}
	props = append(props, "title="+ghProp(a.title))
	return "::" + a.level + " " + strings.Join(props, ",") + "::" + ghData(a.msg) + "\n"
}

func writeCheckGitHub(w io.Writer, res *CheckResult) {
	var anns []ghAnnotation
	for _, p := range rankPods(res.Pods) {
		if p.Passed {
			continue
		}
		v := p.Violations[0]
		a := ghAnnotation{level: "error", title: fmt.Sprintf("%s %s (%s %s)", p.Pod.Key(), p.Verdict, v.Rule, v.Spec)}
		var b strings.Builder
		if p.flow != nil && p.flow.Diagnosis != "" && v.Rule == "fail-on" {
			b.WriteString(p.flow.Diagnosis)
		} else {
			b.WriteString(v.Message)
		}
		for _, o := range p.Violations[1:] {
			fmt.Fprintf(&b, "\n[%s %s] %s", o.Rule, o.Spec, o.Message)
		}
		for i, ev := range v.Evidence {
			if i == 0 {
				a.file, a.line = ev.Input, ev.Line
			}
			if i == 5 {
				break
			}
			b.WriteString("\n" + chkEvidenceLine(ev))
		}
		a.msg = b.String()
		anns = append(anns, a)
	}
	for _, r := range res.Rules {
		if r.Status == RuleFail && (r.Rule == "slo" || r.Rule == "regression") {
			anns = append(anns, ghAnnotation{level: "error", title: "podflow " + r.Rule + " " + r.Spec, msg: r.Message})
		}
	}
	for _, r := range res.Rules {
		if r.Status == RuleUnknown {
			anns = append(anns, ghAnnotation{level: "warning", title: "podflow " + r.Rule + " " + r.Spec + ": nothing to judge", msg: r.Message})
		}
	}
	// Pods that look bad but no rule covers (e.g. Incomplete without --fail-on=Incomplete).
	for _, p := range rankPods(res.Pods) {
		if p.Passed && p.flow != nil && p.Verdict != timeline.VerdictRunning && p.Verdict != timeline.VerdictCompleted && p.Verdict != timeline.VerdictTerminated {
			a := ghAnnotation{level: "warning", title: fmt.Sprintf("%s %s", p.Pod.Key(), p.Verdict), msg: p.flow.Diagnosis}
			if len(p.flow.Evidence) > 0 {
				a.file, a.line = p.flow.Evidence[0].Input, p.flow.Evidence[0].Line
			}
			anns = append(anns, a)
		}
	}
	if len(anns) > ghMax {
		more := len(anns) - (ghMax - 1)
		anns = append(anns[:ghMax-1], ghAnnotation{level: "error", title: "podflow check", msg: fmt.Sprintf("%d more annotations not shown; see the job summary or -o junit", more)})
	}
	for _, a := range anns {
		io.WriteString(w, a.String())
	}
	if res.Result == "pass" {
		fmt.Fprintf(w, "::notice title=podflow check::%s\n", ghData(fmt.Sprintf("%d pods passed %d rules", len(res.Pods), len(res.Rules))))
	}
}

// ---- markdown ----

// mdCell makes log text safe in a Markdown table cell: one line, HTML
// special characters as entities, Markdown punctuation backslash-escaped.
func mdCell(s string) string {
	s = sanitize.Sanitize(strings.ReplaceAll(s, "\n", " "))
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '\\', '`', '*', '_', '[', ']', '(', ')', '#', '|', '~':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\t':
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func chkTrunc(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func writeCheckMarkdown(w io.Writer, res *CheckResult) {
	var b bytes.Buffer
	icon := map[string]string{"pass": "✅ pass", "fail": "❌ fail", "nothing": "⚠️ nothing to judge"}
	fmt.Fprintf(&b, "### podflow check: %s\n\n", icon[res.Result])
	failed := 0
	for _, p := range res.Pods {
		if !p.Passed {
			failed++
		}
	}
	fmt.Fprintf(&b, "%s judged, %d broke a rule", chkPlural(len(res.Pods), "pod"), failed)
	if len(res.Ignored) > 0 {
		fmt.Fprintf(&b, ", %d ignored", len(res.Ignored))
	}
	b.WriteString(".\n\n")
	if len(res.Rules) > 0 {
		b.WriteString("| Rule | Status | Result |\n|---|---|---|\n")
		for _, r := range res.Rules {
			fmt.Fprintf(&b, "| %s %s | %s | %s |\n", mdCell(r.Rule), mdCell(r.Spec), r.Status, mdCell(r.Message))
		}
		b.WriteString("\n")
	}
	b.WriteString("| Pod | Verdict | Startup | Result |\n|---|---|---|---|\n")
	for i, p := range rankPods(res.Pods) {
		if i == 50 {
			fmt.Fprintf(&b, "| … %d more pods | | | |\n", len(res.Pods)-50)
			break
		}
		result := "pass"
		if !p.Passed {
			result = "**fail**: " + mdCell(chkTrunc(p.headline(), 300))
			if ev := p.Violations[0].Evidence; len(ev) > 0 {
				result += "<br>" + mdCell(chkTrunc(chkEvidenceLine(ev[0]), 300))
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", mdCell(p.Pod.Key()), p.Verdict, p.startupText(), result)
	}
	if len(res.Deltas) > 0 {
		b.WriteString("\n| Stage | Base p50 | p50 | Δ | Base p90 | p90 | Δ |\n|---|---|---|---|---|---|---|\n")
		for _, d := range res.Deltas {
			st := mdCell(d.Stage)
			if d.Regression {
				st = "**" + st + "** (regression)"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s |\n", st,
				chkFmtDur(time.Duration(d.BaseP50)), chkFmtDur(time.Duration(d.P50)), chkPct(d.DeltaP50),
				chkFmtDur(time.Duration(d.BaseP90)), chkFmtDur(time.Duration(d.P90)), chkPct(d.DeltaP90))
		}
	}
	b.WriteString("\n")
	w.Write(b.Bytes())
}
