package check

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
)

type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

type JUnitSuite struct {
	Name      string      `xml:"name,attr"`
	Tests     int         `xml:"tests,attr"`
	Failures  int         `xml:"failures,attr"`
	Errors    int         `xml:"errors,attr"`
	Skipped   int         `xml:"skipped,attr"`
	Time      string      `xml:"time,attr"`
	Timestamp string      `xml:"timestamp,attr,omitempty"`
	Cases     []JUnitCase `xml:"testcase"`
}

type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitFailure `xml:"failure,omitempty"`
	Skipped   *JUnitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type JUnitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type JUnitSkipped struct {
	Message string `xml:"message,attr"`
}

// xmlText makes log text safe for XML 1.0 (sanitize.XML) and for a CI
// log that shows the file (sanitize.Defuse).
func xmlText(s string) string { return sanitize.Defuse(sanitize.XML(s)) }

func secs(d time.Duration) string { return fmt.Sprintf("%.3f", d.Seconds()) }

// WriteJUnit writes res as JUnit XML: a testcase per pod (its startup as
// its time) and one per rule. elapsed, the time the analysis took, is the
// suites' time (test-report tools show it as the run's duration; the pods'
// startups overlap, so their sum means nothing).
func WriteJUnit(w io.Writer, res *Result, elapsed time.Duration) error {
	pods := JUnitSuite{Name: "podflow pods"}
	if !res.Summary.Start.IsZero() {
		pods.Timestamp = res.Summary.Start.UTC().Format("2006-01-02T15:04:05")
	}
	for _, p := range res.Pods {
		d := time.Duration(0)
		if p.Startup != nil {
			d = time.Duration(*p.Startup)
		} else if p.Flow != nil {
			d = time.Duration(p.Flow.Duration)
		}
		c := JUnitCase{Name: xmlText(sanitize.Sanitize(p.Pod.Key())), Classname: xmlText("podflow." + sanitize.Sanitize(p.Pod.Namespace)), Time: secs(d)}
		if !p.Passed {
			var b strings.Builder
			diag := ""
			if p.Flow != nil {
				diag = p.Flow.Diagnosis
			}
			if diag != "" {
				b.WriteString(diag)
				b.WriteString("\n")
			}
			for _, v := range p.Violations {
				fmt.Fprintf(&b, "\n[%s %s] %s\n", v.Rule, v.Spec, v.Message)
				for i, ev := range v.Lines() {
					mark := ""
					if i == 0 && v.Cause != nil {
						mark = "cause: "
					}
					b.WriteString("  " + mark + EvidenceLine(ev) + "\n")
				}
			}
			msg := p.headline()
			if diag != "" {
				msg = diag
			}
			c.Failure = &JUnitFailure{Message: xmlText(sanitize.Sanitize(msg)), Type: string(p.Verdict), Text: xmlText(b.String())}
			pods.Failures++
		} else if p.Flow != nil && p.Flow.Diagnosis != "" {
			c.SystemOut = xmlText(p.Flow.Diagnosis)
		}
		pods.Cases = append(pods.Cases, c)
	}
	pods.Tests, pods.Time = len(pods.Cases), secs(elapsed)

	rules := JUnitSuite{Name: "podflow rules", Time: "0.000"}
	for _, r := range res.Rules {
		c := JUnitCase{Name: xmlText(r.Rule + " " + r.Spec), Classname: "podflow.rules", Time: "0.000"}
		switch r.Status {
		case RuleFail:
			c.Failure = &JUnitFailure{Message: xmlText(sanitize.Sanitize(r.Message)), Type: r.Rule, Text: xmlText(r.Message)}
			rules.Failures++
		case RuleUnknown:
			c.Skipped = &JUnitSkipped{Message: xmlText(sanitize.Sanitize(r.Message))}
			rules.Skipped++
		}
		rules.Cases = append(rules.Cases, c)
	}
	if len(res.Incomplete) > 0 {
		// A failed case, so that no report shows the run green.
		c := JUnitCase{Name: "inputs read whole", Classname: "podflow.inputs", Time: "0.000",
			Failure: &JUnitFailure{Message: xmlText(sanitize.Sanitize(res.incompleteText())), Type: "incomplete", Text: xmlText(strings.Join(res.Incomplete, "\n"))}}
		rules.Cases = append(rules.Cases, c)
		rules.Failures++
	}
	rules.Tests = len(rules.Cases)
	out := JUnitSuites{Name: "podflow check", Tests: pods.Tests + rules.Tests, Failures: pods.Failures + rules.Failures, Skipped: rules.Skipped, Time: secs(elapsed), Suites: []JUnitSuite{pods, rules}}
	io.WriteString(w, xml.Header)
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write junit: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}
