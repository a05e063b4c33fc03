package cmd

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/podflow/podflow/timeline"
)

// Rule result statuses.
const (
	RulePass    = "pass"
	RuleFail    = "fail"
	RuleUnknown = "unknown" // the log cannot show what the rule needs
)

// CheckResult is `podflow check -o json`: the judged FlowList (pods left
// after --pod/-n/--ignore) plus the rule results.
type CheckResult struct {
	timeline.FlowList
	Result   string       `json:"result"` // pass, fail, nothing
	ExitCode int          `json:"exitCode"`
	Rules    []RuleResult `json:"rules"`
	Pods     []PodResult  `json:"pods"`
	Ignored  []string     `json:"ignored,omitempty"`
	Nothing  []string     `json:"nothing,omitempty"` // why there was nothing to judge
	Deltas   []StageDelta `json:"stageDeltas,omitempty"`
}

// RuleResult is one rule's outcome.
type RuleResult struct {
	Rule    string             `json:"rule"` // fail-on, max-startup, budget, slo, regression
	Spec    string             `json:"spec"` // as given: "sandbox=5s", "p99=5s"
	Status  string             `json:"status"`
	Message string             `json:"message"`
	Value   *timeline.Duration `json:"value,omitempty"` // slo: the measured percentile
	Limit   *timeline.Duration `json:"limit,omitempty"`
	Pods    int                `json:"pods"`            // pods that broke it
	Judged  int                `json:"judged"`          // pods (or stages) it could judge
	Needs   string             `json:"needs,omitempty"` // the -v that would reveal what it needs
}

// PodResult is one pod's outcome.
type PodResult struct {
	Pod        timeline.PodRef    `json:"pod"`
	Verdict    timeline.Verdict   `json:"verdict"`
	Startup    *timeline.Duration `json:"startup,omitempty"` // end to end
	SLO        *timeline.Duration `json:"slo,omitempty"`     // startup as the SLO counts it
	Passed     bool               `json:"passed"`
	Violations []Violation        `json:"violations,omitempty"`

	flow *timeline.Flow
}

// Violation is one broken rule on one pod.
type Violation struct {
	Rule      string              `json:"rule"`
	Spec      string              `json:"spec"`
	Stage     string              `json:"stage,omitempty"`
	Container string              `json:"container,omitempty"`
	Value     timeline.Duration   `json:"value"`
	Limit     timeline.Duration   `json:"limit,omitempty"`
	Message   string              `json:"message"`
	Evidence  []timeline.Evidence `json:"evidence,omitempty"`
}

// StageDelta compares one stage's latency with the baseline.
type StageDelta struct {
	Stage      string            `json:"stage"`
	BaseP50    timeline.Duration `json:"baseP50"`
	BaseP90    timeline.Duration `json:"baseP90"`
	P50        timeline.Duration `json:"p50"`
	P90        timeline.Duration `json:"p90"`
	DeltaP50   float64           `json:"deltaP50"` // fraction: 0.25 is +25%
	DeltaP90   float64           `json:"deltaP90"`
	Samples    int               `json:"samples"`
	Regression bool              `json:"regression"`
}

func (r checkRules) selected(f *timeline.Flow) bool {
	if len(r.namespaces) > 0 && !r.namespaces[f.Pod.Namespace] {
		return false
	}
	if len(r.pods) > 0 {
		ok := false
		for _, re := range r.pods {
			if re.MatchString(f.Pod.Name) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

func (r checkRules) ignored(f *timeline.Flow) bool {
	for _, re := range r.ignore {
		if re.MatchString(f.Pod.Key()) {
			return true
		}
	}
	return false
}

// selectFlows applies --pod, -n and --ignore.
func (r checkRules) selectFlows(items []timeline.Flow) (kept []timeline.Flow, ignored []string) {
	for i := range items {
		f := &items[i]
		if !r.selected(f) {
			continue
		}
		if r.ignored(f) {
			ignored = append(ignored, f.Pod.Key())
			continue
		}
		kept = append(kept, *f)
	}
	return kept, ignored
}

func chkDurPtr(d time.Duration) *timeline.Duration { v := timeline.Duration(d); return &v }

// chkFmtDur prints a duration short: ms below a minute, tenths above.
func chkFmtDur(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Second:
		return d.Round(time.Millisecond).String()
	}
	return d.Round(time.Microsecond).String()
}

// judge applies the rules to the flows. base is the baseline, if any.
func judge(fl *timeline.FlowList, r checkRules, base *timeline.FlowList) *CheckResult {
	res := &CheckResult{FlowList: *fl}
	res.Items, res.Ignored = r.selectFlows(fl.Items)
	res.Summary.Pods = len(res.Items)
	verb := fl.Summary.Verbosity
	for i := range res.Items {
		f := &res.Items[i]
		pr := PodResult{Pod: f.Pod, Verdict: f.Verdict, flow: f}
		if d, ok := checkPodStartup(f); ok {
			pr.Startup = chkDurPtr(d)
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

	if len(r.failOrder) > 0 {
		res.ruleFailOn(r)
	}
	if r.maxStartup > 0 {
		res.ruleMaxStartup(r.maxStartup, verb)
	}
	for _, id := range r.budgetOrder {
		res.ruleBudget(id, r.budgets[id], verb)
	}
	for _, s := range r.slo {
		res.ruleSLO(s, verb)
	}
	if base != nil {
		baseItems, _ := r.selectFlows(base.Items)
		res.ruleRegression(baseItems, r)
	}
	res.finish()
	return res
}

func (res *CheckResult) finish() {
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
		res.Result, res.ExitCode = "fail", ExitRule
	case len(res.Nothing) > 0:
		res.Result, res.ExitCode = "nothing", ExitNothing
	default:
		res.Result, res.ExitCode = "pass", ExitOK
	}
}

func (res *CheckResult) add(rr RuleResult) { res.Rules = append(res.Rules, rr) }

func (res *CheckResult) violate(i int, v Violation) {
	res.Pods[i].Violations = append(res.Pods[i].Violations, v)
}

func (res *CheckResult) ruleFailOn(r checkRules) {
	var names []string
	for _, v := range r.failOrder {
		names = append(names, string(v))
	}
	rr := RuleResult{Rule: "fail-on", Spec: strings.Join(names, ","), Judged: len(res.Items)}
	for i := range res.Items {
		f := &res.Items[i]
		if !r.failOn[f.Verdict] {
			continue
		}
		msg := f.Diagnosis
		if msg == "" {
			msg = string(f.Verdict)
			if f.Reason != "" {
				msg += ": " + f.Reason
			}
		}
		res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: f.StalledAt, Container: f.Container, Value: f.Waited, Message: msg, Evidence: f.Evidence})
		rr.Pods++
	}
	rr.Status, rr.Message = RulePass, fmt.Sprintf("no pod is %s", chkOrList(names))
	if rr.Pods > 0 {
		rr.Status, rr.Message = RuleFail, fmt.Sprintf("%d of %s %s %s", rr.Pods, chkPlural(len(res.Items), "pod"), chkIsAre(rr.Pods), chkOrList(names))
	}
	res.add(rr)
}

func chkOrList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func chkStage(stages []timeline.Stage, id string) *timeline.Stage {
	for i := range stages {
		if stages[i].ID == id {
			return &stages[i]
		}
	}
	return nil
}

// checkPodStartup is the pod's end-to-end startup: the kubelet-observed figure
// when the log has it, else the flow's start to the end of `running`.
func checkPodStartup(f *timeline.Flow) (time.Duration, bool) {
	if f.Startup != nil && f.Startup.PodflowE2E != nil {
		return time.Duration(*f.Startup.PodflowE2E), true
	}
	if s := chkStage(f.Stages, timeline.StRunning); s != nil && s.Status == timeline.StatusDone && s.End != nil {
		return s.End.Sub(f.Start), true
	}
	return 0, false
}

func chkNeedV(def timeline.StageDef, s *timeline.Stage) string {
	if s != nil && s.Reveal != "" {
		return s.Reveal
	}
	return fmt.Sprintf("-v=%d", def.MinV)
}

func (res *CheckResult) ruleMaxStartup(limit time.Duration, verb int) {
	rr := RuleResult{Rule: "max-startup", Spec: limit.String(), Limit: chkDurPtr(limit)}
	def, _ := timeline.Reference.StageDefByID(timeline.StRunning)
	hidden := 0
	for i := range res.Items {
		f := &res.Items[i]
		if d, ok := checkPodStartup(f); ok {
			rr.Judged++
			if d > limit {
				ev := f.Evidence
				if f.Startup != nil && f.Startup.Evidence != nil {
					ev = []timeline.Evidence{*f.Startup.Evidence}
				}
				res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: timeline.StRunning, Value: timeline.Duration(d), Limit: timeline.Duration(limit),
					Message: fmt.Sprintf("started in %s, over the %s maximum", chkFmtDur(d), chkFmtDur(limit)), Evidence: ev})
				rr.Pods++
			}
			continue
		}
		s := chkStage(f.Stages, timeline.StRunning)
		if (s != nil && s.Status == timeline.StatusUnknown) || (s == nil && verb >= 0 && verb < def.MinV) {
			hidden++
			rr.Needs = chkNeedV(def, s)
			continue
		}
		// Not running (yet): it breaks the rule once it has waited longer.
		if waited := f.End.Sub(f.Start); waited > limit {
			rr.Judged++
			res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: f.StalledAt, Container: f.Container, Value: timeline.Duration(waited), Limit: timeline.Duration(limit),
				Message: fmt.Sprintf("not running after %s (maximum %s)", chkFmtDur(waited), chkFmtDur(limit)), Evidence: f.Evidence})
			rr.Pods++
		}
	}
	res.conclude(&rr, hidden, fmt.Sprintf("every pod started within %s", chkFmtDur(limit)),
		fmt.Sprintf("%s took longer than %s to start", chkPlural(rr.Pods, "pod"), chkFmtDur(limit)),
		"the running stage")
	res.add(rr)
}

// conclude sets the status: fail on any violation, unknown when a pod's
// stage was hidden (or nothing could be judged), else pass.
func (res *CheckResult) conclude(rr *RuleResult, hidden int, pass, fail, what string) {
	switch {
	case rr.Pods > 0:
		rr.Status, rr.Message = RuleFail, fail
	case hidden > 0:
		rr.Status = RuleUnknown
		rr.Message = fmt.Sprintf("the log's kubelet verbosity (-v=%d) hides %s for %s; run the kubelet with %s or higher",
			res.Summary.Verbosity, what, chkPlural(hidden, "pod"), rr.Needs)
	case rr.Judged == 0 && rr.Rule != "budget":
		rr.Status, rr.Message = RuleUnknown, "no pod has started, so there is no startup to measure"
	default:
		rr.Status, rr.Message = RulePass, pass
	}
}

func (res *CheckResult) ruleBudget(id string, limit time.Duration, verb int) {
	def, _ := timeline.Reference.StageDefByID(id)
	rr := RuleResult{Rule: "budget", Spec: id + "=" + limit.String(), Limit: chkDurPtr(limit)}
	hidden := 0
	judgeStage := func(i int, s *timeline.Stage, container string) {
		switch s.Status {
		case timeline.StatusUnknown:
			hidden++
			rr.Needs = chkNeedV(def, s)
			return
		case timeline.StatusPending, timeline.StatusSkipped:
			return
		}
		rr.Judged++
		if d := time.Duration(s.Duration); d > limit {
			where := "stage " + id
			if container != "" {
				where = fmt.Sprintf("container %s stage %s", container, id)
			}
			state := "took"
			if s.Status == timeline.StatusActive || s.Status == timeline.StatusStalled {
				state = "has waited"
			}
			msg := fmt.Sprintf("%s %s %s, over its %s budget", where, state, chkFmtDur(d), chkFmtDur(limit))
			if s.Reason != "" {
				msg += ": " + s.Reason
			}
			res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: id, Container: container, Value: s.Duration, Limit: timeline.Duration(limit), Message: msg, Evidence: s.Evidence})
		}
	}
	for i := range res.Items {
		f := &res.Items[i]
		before := len(res.Pods[i].Violations)
		if def.Scope == timeline.ScopeContainer {
			if len(f.Containers) == 0 && verb >= 0 && verb < def.MinV {
				hidden++
				rr.Needs = chkNeedV(def, nil)
			}
			for c := range f.Containers {
				if s := chkStage(f.Containers[c].Stages, id); s != nil {
					judgeStage(i, s, f.Containers[c].Name)
				}
			}
		} else if s := chkStage(f.Stages, id); s != nil {
			judgeStage(i, s, "")
		} else if def.Scope == timeline.ScopePod && verb >= 0 && verb < def.MinV {
			hidden++
			rr.Needs = chkNeedV(def, nil)
		}
		if len(res.Pods[i].Violations) > before {
			rr.Pods++
		}
	}
	res.conclude(&rr, hidden, fmt.Sprintf("stage %s stayed within %s", id, chkFmtDur(limit)),
		fmt.Sprintf("%s spent longer than %s in stage %s", chkPlural(rr.Pods, "pod"), chkFmtDur(limit), id),
		"stage "+id)
	if rr.Status == RulePass && rr.Judged == 0 {
		rr.Message = fmt.Sprintf("no pod reached stage %s", id)
	}
	res.add(rr)
}

// checkPodSLO is the pod's startup as the Kubernetes pod-startup SLO counts
// it: podflow's own figure (the engine leaves out image pulls and init
// containers by the rule of the kubelet that wrote the log), else the
// kubelet's logged podStartSLOduration when the log's verbosity hides the
// pulls. hidden is true when neither is available for a pod that ran.
func checkPodSLO(f *timeline.Flow, verb int) (d time.Duration, ok, hidden bool) {
	if f.Startup != nil && f.Startup.PodflowSLO != nil {
		return time.Duration(*f.Startup.PodflowSLO), true, false
	}
	if f.Startup != nil && f.Startup.KubeletSLO != nil {
		return time.Duration(*f.Startup.KubeletSLO), true, false
	}
	_, ran := checkPodStartup(f)
	return 0, false, ran
}

// percentile is the nearest-rank percentile of sorted values.
func chkPercentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	if k < 0 {
		k = 0
	}
	if k >= len(sorted) {
		k = len(sorted) - 1
	}
	return sorted[k]
}

func (res *CheckResult) ruleSLO(s sloRule, verb int) {
	rr := RuleResult{Rule: "slo", Spec: s.Label + "=" + s.Limit.String(), Limit: chkDurPtr(s.Limit)}
	var vals []time.Duration
	hidden := 0
	for i := range res.Items {
		d, ok, hid := checkPodSLO(&res.Items[i], verb)
		if hid {
			hidden++
			rr.Needs = "-v=3"
		}
		if !ok {
			continue
		}
		res.Pods[i].SLO = chkDurPtr(d)
		vals = append(vals, d)
	}
	rr.Judged = len(vals)
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	if len(vals) > 0 {
		v := chkPercentile(vals, s.Pct)
		rr.Value = chkDurPtr(v)
		if v > s.Limit {
			n := 0
			for _, x := range vals {
				if x > s.Limit {
					n++
				}
			}
			rr.Status = RuleFail
			rr.Message = fmt.Sprintf("%s startup (image pulls excluded) is %s over %s, over the %s objective (%s slower)", s.Label, chkFmtDur(v), chkPlural(len(vals), "pod"), chkFmtDur(s.Limit), chkPlural(n, "pod"))
			res.add(rr)
			return
		}
		if hidden == 0 {
			rr.Status = RulePass
			rr.Message = fmt.Sprintf("%s startup (image pulls excluded) is %s over %s, within %s", s.Label, chkFmtDur(v), chkPlural(len(vals), "pod"), chkFmtDur(s.Limit))
			res.add(rr)
			return
		}
	}
	res.conclude(&rr, hidden, "", "", "the image stages (and podStartSLOduration is not logged)")
	res.add(rr)
}

type checkStageStat struct {
	p50, p90 time.Duration
	n        int
}

// checkStageStats gives p50/p90 per stage across pods (pod stages and every
// container's stages), from stages that completed.
func checkStageStats(items []timeline.Flow) map[string]checkStageStat {
	samples := map[string][]time.Duration{}
	for _, f := range items {
		for _, s := range f.Stages {
			if s.Status == timeline.StatusDone {
				samples[s.ID] = append(samples[s.ID], time.Duration(s.Duration))
			}
		}
		for _, c := range f.Containers {
			for _, s := range c.Stages {
				if s.Status == timeline.StatusDone {
					samples[s.ID] = append(samples[s.ID], time.Duration(s.Duration))
				}
			}
		}
	}
	out := map[string]checkStageStat{}
	for id, v := range samples {
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		out[id] = checkStageStat{p50: chkPercentile(v, 50), p90: chkPercentile(v, 90), n: len(v)}
	}
	return out
}

func chkRel(cur, base time.Duration) float64 {
	if base == 0 {
		if cur == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return float64(cur-base) / float64(base)
}

func (res *CheckResult) ruleRegression(baseItems []timeline.Flow, r checkRules) {
	rr := RuleResult{Rule: "regression", Spec: fmt.Sprintf("%g%%", r.regression*100)}
	cur, base := checkStageStats(res.Items), checkStageStats(baseItems)
	var bad []string
	for _, def := range timeline.Reference.Stages {
		c, okc := cur[def.ID]
		b, okb := base[def.ID]
		if !okc || !okb {
			continue
		}
		d := StageDelta{Stage: def.ID, BaseP50: timeline.Duration(b.p50), BaseP90: timeline.Duration(b.p90), P50: timeline.Duration(c.p50), P90: timeline.Duration(c.p90),
			DeltaP50: chkRel(c.p50, b.p50), DeltaP90: chkRel(c.p90, b.p90), Samples: c.n}
		regressed := func(c, b time.Duration) bool {
			return c-b >= r.regressionMin && c-b > 0 && float64(c) > float64(b)*(1+r.regression)
		}
		if regressed(c.p50, b.p50) || regressed(c.p90, b.p90) {
			d.Regression = true
			bad = append(bad, fmt.Sprintf("%s p50 %s→%s, p90 %s→%s", def.ID, chkFmtDur(b.p50), chkFmtDur(c.p50), chkFmtDur(b.p90), chkFmtDur(c.p90)))
		}
		res.Deltas = append(res.Deltas, d)
		rr.Judged++
	}
	switch {
	case len(bad) > 0:
		rr.Status, rr.Pods = RuleFail, 0
		rr.Message = fmt.Sprintf("%s slower than the baseline by more than %s: %s", chkPlural(len(bad), "stage"), rr.Spec, strings.Join(bad, "; "))
	case rr.Judged == 0:
		rr.Status, rr.Message = RuleUnknown, "the baseline and this run share no completed stage"
	default:
		rr.Status, rr.Message = RulePass, fmt.Sprintf("%s within %s of the baseline", chkPlural(rr.Judged, "stage"), rr.Spec)
	}
	res.add(rr)
}

// plural is "1 pod", "2 pods".
func chkPlural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func chkIsAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}
