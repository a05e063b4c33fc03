package check

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/podflow/podflow/internal/failure"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

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

func WriteGitHub(w io.Writer, res *Result) {
	var anns []ghAnnotation
	if len(res.Incomplete) > 0 {
		// First, so that the limit on annotations never hides it.
		anns = append(anns, ghAnnotation{level: "error", title: fmt.Sprintf("podflow check: input incomplete (exit %d)", res.ExitCode), msg: res.incompleteText()})
	}
	for _, p := range Rank(res.Pods) {
		if p.Passed {
			continue
		}
		v := p.Violations[0]
		a := ghAnnotation{level: "error", title: fmt.Sprintf("%s %s (%s %s)", p.Pod.Key(), p.Verdict, v.Rule, v.Spec)}
		var b strings.Builder
		if p.Flow != nil && p.Flow.Diagnosis != "" && v.Rule == "fail-on" {
			b.WriteString(p.Flow.Diagnosis)
		} else {
			b.WriteString(v.Message)
		}
		for _, o := range p.Violations[1:] {
			fmt.Fprintf(&b, "\n[%s %s] %s", o.Rule, o.Spec, o.Message)
		}
		// The annotation points at the line that shows the cause.
		for i, ev := range v.Lines() {
			if i == 0 {
				a.file, a.line = ev.Input, ev.Line
			}
			if i == 5 {
				break
			}
			b.WriteString("\n" + EvidenceLine(ev))
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
	// Pods that look bad but no rule covers (e.g. Incomplete without
	// --fail-on=Incomplete), and pods that ran after trouble (⚠): warnings.
	for _, p := range Rank(res.Pods) {
		if !p.Passed || p.Flow == nil {
			continue
		}
		recovered := p.Flow.Recovered()
		if recovered || p.Verdict != timeline.VerdictRunning && p.Verdict != timeline.VerdictCompleted && p.Verdict != timeline.VerdictTerminated {
			title := fmt.Sprintf("%s %s", p.Pod.Key(), p.Verdict)
			if recovered {
				title = "⚠ " + title + " after trouble"
			}
			a := ghAnnotation{level: "warning", title: title, msg: p.Flow.Diagnosis}
			if ev := troubleLine(p.Flow); recovered && ev != nil {
				a.file, a.line = ev.Input, ev.Line
			} else if ev := failure.First(p.Flow.Evidence); ev != nil {
				a.file, a.line = ev.Input, ev.Line
			} else if len(p.Flow.Evidence) > 0 {
				a.file, a.line = p.Flow.Evidence[0].Input, p.Flow.Evidence[0].Line
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
	if res.Result == "pass" && len(res.Incomplete) == 0 {
		fmt.Fprintf(w, "::notice title=podflow check::%s\n", ghData(fmt.Sprintf("%d pods passed %d rules", len(res.Pods), len(res.Rules))))
	}
}

// troubleLine is the first line that shows a failure in the first stage
// of f that failed or backed off (its own or a container's): where a pod
// that ran after trouble had it.
func troubleLine(f *timeline.Flow) *timeline.Evidence {
	for _, st := range f.Stages {
		if st.Attempts > 0 {
			if ev := failure.First(st.Evidence); ev != nil {
				return ev
			}
		}
	}
	for _, c := range f.Containers {
		for _, st := range c.Stages {
			if st.Attempts > 0 {
				if ev := failure.First(st.Evidence); ev != nil {
					return ev
				}
			}
		}
	}
	return nil
}
