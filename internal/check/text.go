package check

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
)

func WriteText(w io.Writer, res *Result) {
	s := sanitize.Sanitize
	// The pods that broke a rule, by verdict: a Stalled pod is not a
	// Failed one, and a Running pod over --max-startup is neither.
	failed := 0
	var verdicts []string
	byVerdict := map[string]int{}
	for _, p := range res.Pods {
		if !p.Passed {
			failed++
			v := string(p.Verdict)
			if byVerdict[v] == 0 {
				verdicts = append(verdicts, v)
			}
			byVerdict[v]++
		}
	}
	slices.Sort(verdicts)
	var counts []string
	for _, v := range verdicts {
		counts = append(counts, fmt.Sprintf("%d %s", byVerdict[v], v))
	}
	breakdown := ""
	if len(counts) > 0 {
		breakdown = " (" + strings.Join(counts, ", ") + ")"
	}
	switch res.Result {
	case "fail":
		broken := 0
		for _, r := range res.Rules {
			if r.Status == RuleFail {
				broken++
			}
		}
		fmt.Fprintf(w, "FAIL  %s broken; %d of %s broke one%s\n", plural(broken, "rule"), failed, plural(len(res.Pods), "pod"), breakdown)
	case "nothing":
		fmt.Fprintf(w, "NOTHING TO JUDGE  %s\n", s(strings.Join(res.Nothing, "; ")))
	case "partial":
		fmt.Fprintf(w, "PARTIAL  %s, %s passed on what could be read\n", plural(len(res.Pods), "pod"), plural(len(res.Rules), "rule"))
	default:
		fmt.Fprintf(w, "PASS  %s, %s\n", plural(len(res.Pods), "pod"), plural(len(res.Rules), "rule"))
	}
	if len(res.Incomplete) > 0 {
		fmt.Fprintf(w, "INCOMPLETE  %s\n", s(res.incompleteText()))
	}
	if len(res.Causes) > 0 {
		fmt.Fprintf(w, "  by cause (names, IDs and numbers masked):\n")
		for _, g := range res.Causes {
			fmt.Fprintf(w, "  %5d  %s  %s\n", g.Pods, s(g.Stage), Trunc(s(g.Cause), 200))
		}
	}
	for _, p := range Rank(res.Pods) {
		if p.Passed {
			continue
		}
		fmt.Fprintf(w, "\n  %s  %s  startup %s\n", s(p.Pod.Key()), p.Verdict, p.startupText())
		for _, v := range p.Violations {
			fmt.Fprintf(w, "    [%s %s] %s\n", v.Rule, s(v.Spec), s(v.Message))
			lines := v.Lines()
			for i, ev := range lines {
				if i == 3 {
					fmt.Fprintf(w, "      … %d more lines\n", len(lines)-3)
					break
				}
				mark := ""
				if i == 0 && v.Cause != nil {
					mark = "cause: "
				}
				fmt.Fprintf(w, "      %s%s\n", mark, s(EvidenceLine(ev)))
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
				FmtDur(time.Duration(d.BaseP50)), FmtDur(time.Duration(d.P50)), pct(d.DeltaP50),
				FmtDur(time.Duration(d.BaseP90)), FmtDur(time.Duration(d.P90)), pct(d.DeltaP90), mark)
		}
	}
	if len(res.Ignored) > 0 {
		fmt.Fprintf(w, "\nIgnored: %s\n", s(strings.Join(res.Ignored, ", ")))
	}
}

func WriteJSON(w io.Writer, res *Result) error {
	enc := json.NewEncoder(sanitize.JSONWriter(w))
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
