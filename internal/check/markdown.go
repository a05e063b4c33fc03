package check

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
)

// mdCell makes log text safe in a Markdown table cell: one line, HTML
// special characters as entities, Markdown punctuation backslash-escaped.
func mdCell(s string) string {
	s = sanitize.Sanitize(strings.ReplaceAll(s, "\n", " "))
	var b strings.Builder
	for i, r := range s {
		// A zero-width space (as an entity: the terminal layer removes the
		// character itself) after @ and # keeps a log's @someone and #123
		// from pinging anyone or linking an issue in a PR comment or a
		// step summary, and shows as the same text.
		if (r == '@' || r == '#') && i+1 < len(s) && isMentionByte(s[i+1]) {
			if r == '#' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
			b.WriteString("&#8203;")
			continue
		}
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

// isMentionByte is a byte a GitHub @mention or #reference goes on with.
func isMentionByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_'
}

func WriteMarkdown(w io.Writer, res *Result) {
	var b bytes.Buffer
	icon := map[string]string{"pass": "✅ pass", "fail": "❌ fail", "nothing": "⚠️ nothing to judge", "partial": "⚠️ partial input"}
	fmt.Fprintf(&b, "### podflow check: %s (exit %d)\n\n", icon[res.Result], res.ExitCode)
	if len(res.Incomplete) > 0 {
		fmt.Fprintf(&b, "> [!WARNING]\n> %s\n\n", mdCell(res.incompleteText()))
	}
	failed := 0
	for _, p := range res.Pods {
		if !p.Passed {
			failed++
		}
	}
	fmt.Fprintf(&b, "%s judged, %d broke a rule", plural(len(res.Pods), "pod"), failed)
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
	for i, p := range Rank(res.Pods) {
		if i == 50 {
			fmt.Fprintf(&b, "| … %d more pods | | | |\n", len(res.Pods)-50)
			break
		}
		result := "pass"
		if !p.Passed {
			result = "**fail**: " + mdCell(Trunc(p.headline(), 300))
			if ev := p.Violations[0].Lines(); len(ev) > 0 {
				result += "<br>" + mdCell(Trunc(EvidenceLine(ev[0]), 300))
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
				FmtDur(time.Duration(d.BaseP50)), FmtDur(time.Duration(d.P50)), pct(d.DeltaP50),
				FmtDur(time.Duration(d.BaseP90)), FmtDur(time.Duration(d.P90)), pct(d.DeltaP90))
		}
	}
	b.WriteString("\n")
	w.Write(b.Bytes())
}
