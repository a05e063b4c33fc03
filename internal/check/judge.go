package check

import (
	"fmt"
	"github.com/podflow/podflow/internal/cause"
	"regexp"
	"time"

	"github.com/podflow/podflow/timeline"
)

// Rules are the rules of one run, resolved from flags and the config file
// (cmd/check.go): which verdicts fail, the limits, and which pods are
// judged. A zero field is a rule not asked for.
type Rules struct {
	FailOn      map[timeline.Verdict]bool
	FailOrder   []timeline.Verdict // FailOn's verdicts as given, for messages
	MaxStartup  time.Duration
	Budgets     map[string]time.Duration // stage ID → limit
	BudgetOrder []string                 // Budgets' stages in pipeline order
	SLO         []SLORule
	Pods        []*regexp.Regexp // --pod: any matches the name
	Namespaces  map[string]bool  // -n
	Ignore      []*regexp.Regexp // --ignore: matched on namespace/name

	// With a baseline (Judge's base), a stage regressed when its p50 or
	// p90 rose by more than Regression (a fraction: 0.2) and by at least
	// RegressionMin.
	Regression    float64
	RegressionMin time.Duration
}

// SLORule is one --slo pNN=DUR: the nearest-rank percentile Pct of the
// pods' startup as the SLO counts it must stay within Limit.
type SLORule struct {
	Pct   float64
	Label string // p99
	Limit time.Duration
}

// The exit codes of podflow check that a Result carries (cmd maps them to
// the process's exit code unchanged).
const (
	ExitPass    = 0 // every rule passed
	ExitFail    = 1 // a rule was broken
	ExitNothing = 3 // nothing to judge
	ExitPartial = 5 // every rule passed, on inputs not all read whole
)

// Judge applies the rules to the flows. base is the baseline, if any.
func Judge(fl *timeline.FlowList, r Rules, base *Baseline) *Result {
	res := &Result{FlowList: *fl}
	res.Items, res.Ignored = r.Select(fl.Items)
	res.Summary.Pods = len(res.Items)
	verb := fl.Summary.Verbosity
	for i := range res.Items {
		f := &res.Items[i]
		pr := PodResult{Pod: f.Pod, Verdict: f.Verdict, Flow: f}
		if d, ok := PodStartup(f); ok {
			pr.Startup = durPtr(d)
		}
		res.Pods = append(res.Pods, pr)
	}
	if len(res.Items) == 0 {
		switch {
		case len(fl.Items) == 0:
			res.Nothing = append(res.Nothing, "the logs show no pods")
		case len(res.Ignored) > 0:
			res.Nothing = append(res.Nothing, fmt.Sprintf("no pods left to judge: %d of %d matched --ignore", len(res.Ignored), len(fl.Items)))
		default:
			res.Nothing = append(res.Nothing, fmt.Sprintf("no pods match --pod/-n (of %d)", len(fl.Items)))
		}
		res.finish()
		return res
	}

	if len(r.FailOrder) > 0 {
		res.ruleFailOn(r)
	}
	if r.MaxStartup > 0 {
		res.ruleMaxStartup(r.MaxStartup, verb)
	}
	for _, id := range r.BudgetOrder {
		res.ruleBudget(id, r.Budgets[id], verb)
	}
	for _, s := range r.SLO {
		res.ruleSLO(s, verb)
	}
	if base != nil {
		res.ruleRegression(base, r)
	}
	res.finish()
	// The pods that broke a rule, grouped by cause: a hundred failed
	// pods are often two causes.
	broke := map[*timeline.Flow]bool{}
	for _, p := range res.Pods {
		if !p.Passed {
			broke[p.Flow] = true
		}
	}
	if len(broke) > 0 {
		res.Causes = cause.Groups(res.Items, func(f *timeline.Flow) bool { return broke[f] })
	}
	return res
}

func (res *Result) finish() {
	failed := false
	for _, rr := range res.Rules {
		if rr.Status == RuleFail {
			failed = true
		}
		if rr.Status == RuleUnknown {
			res.Nothing = append(res.Nothing, rr.Rule+" "+rr.Spec+": "+rr.Message)
		}
	}
	for i := range res.Pods {
		res.Pods[i].Passed = len(res.Pods[i].Violations) == 0
	}
	switch {
	case failed:
		res.Result, res.ExitCode = "fail", ExitFail
	case len(res.Nothing) > 0:
		res.Result, res.ExitCode = "nothing", ExitNothing
	default:
		res.Result, res.ExitCode = "pass", ExitPass
	}
}

func (res *Result) add(rr RuleResult) { res.Rules = append(res.Rules, rr) }

func (res *Result) violate(i int, v Violation) {
	res.Pods[i].Violations = append(res.Pods[i].Violations, v)
}

// conclude sets the status: fail on any violation, unknown when a pod's
// stage was hidden (or nothing could be judged), else pass.
func (res *Result) conclude(rr *RuleResult, hidden int, pass, fail, what string) {
	switch {
	case rr.Pods > 0:
		rr.Status, rr.Message = RuleFail, fail
	case hidden > 0:
		rr.Status = RuleUnknown
		rr.Message = fmt.Sprintf("the log's kubelet verbosity (-v=%d) hides %s for %s; run the kubelet with %s or higher",
			res.Summary.Verbosity, what, plural(hidden, "pod"), rr.Needs)
	case rr.Judged == 0 && rr.Rule != "budget":
		rr.Status, rr.Message = RuleUnknown, "no pod has started, so there is no startup to measure"
	default:
		rr.Status, rr.Message = RulePass, pass
	}
}
