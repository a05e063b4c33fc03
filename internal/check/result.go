package check

import (
	"fmt"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/cause"
	"github.com/podflow/podflow/timeline"
)

// Result is `podflow check -o json`: the judged FlowList (pods left
// after --pod/-n/--ignore) plus the rule results.
type Result struct {
	timeline.FlowList
	Result   string       `json:"result"` // pass, fail, nothing
	ExitCode int          `json:"exitCode"`
	Rules    []RuleResult `json:"rules"`
	Pods     []PodResult  `json:"pods"`
	Ignored  []string     `json:"ignored,omitempty"`
	Nothing  []string     `json:"nothing,omitempty"` // why there was nothing to judge
	// Incomplete names each input that could not be read whole (an
	// unreadable file, a cut gzip): the result rests on part of what was
	// asked for, and the process exits ExitPartial when nothing failed.
	Incomplete []string      `json:"incomplete,omitempty"`
	Deltas     []StageDelta  `json:"stageDeltas,omitempty"`
	Causes     []cause.Group `json:"causes,omitempty"` // the pods that broke a rule, by cause
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

	// Flow is the judged flow (in Result.Items), for the outputs.
	Flow *timeline.Flow `json:"-"`
}

// Violation is one broken rule on one pod.
type Violation struct {
	Rule      string            `json:"rule"`
	Spec      string            `json:"spec"`
	Stage     string            `json:"stage,omitempty"`
	Container string            `json:"container,omitempty"`
	Value     timeline.Duration `json:"value"`
	Limit     timeline.Duration `json:"limit,omitempty"`
	Message   string            `json:"message"`
	// Cause is the line that shows why: the failure the stage logged (the
	// ConfigMap error, the BackOff event), not only the line that measured
	// the time. Lines puts it first.
	Cause    *timeline.Evidence  `json:"cause,omitempty"`
	Evidence []timeline.Evidence `json:"evidence,omitempty"`
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

// Rule result statuses.
const (
	RulePass    = "pass"
	RuleFail    = "fail"
	RuleUnknown = "unknown" // the log cannot show what the rule needs
)

// podStartupText is the pod's startup for display.
func (p *PodResult) startupText() string {
	if p.Startup == nil {
		return "-"
	}
	return FmtDur(time.Duration(*p.Startup))
}

// headline is a pod's worst violation in one line.
func (p *PodResult) headline() string {
	if len(p.Violations) == 0 {
		return ""
	}
	return p.Violations[0].Message
}

// Partial records the inputs that could not be read whole: every output
// says so, and a result that passed is "partial", exit ExitPartial, as
// the process exits (a broken rule or nothing to judge keeps its code).
// Never green on missing data.
func (res *Result) Partial(inputs []string) {
	if len(inputs) == 0 {
		return
	}
	res.Incomplete = append(res.Incomplete, inputs...)
	if res.ExitCode == ExitPass {
		res.Result, res.ExitCode = "partial", ExitPartial
	}
}

// incompleteText is one sentence about the inputs not read whole.
func (res *Result) incompleteText() string {
	return fmt.Sprintf("input incomplete: %s not read whole, so this result rests on part of the logs asked for (exit %d): %s",
		plural(len(res.Incomplete), "input"), res.ExitCode, strings.Join(res.Incomplete, "; "))
}
