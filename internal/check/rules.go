package check

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/failure"
	"github.com/podflow/podflow/timeline"
)

func (res *Result) ruleFailOn(r Rules) {
	var names []string
	for _, v := range r.FailOrder {
		names = append(names, string(v))
	}
	rr := RuleResult{Rule: "fail-on", Spec: strings.Join(names, ","), Judged: len(res.Items)}
	for i := range res.Items {
		f := &res.Items[i]
		if !r.FailOn[f.Verdict] {
			continue
		}
		msg := f.Diagnosis
		if msg == "" {
			msg = string(f.Verdict)
			if f.Reason != "" {
				msg += ": " + f.Reason
			}
		}
		cause := failure.First(f.Evidence)
		if cause == nil {
			cause, _ = TroubleCause(f)
		}
		res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: f.StalledAt, Container: f.Container, Value: f.Waited, Message: msg, Cause: cause, Evidence: f.Evidence})
		rr.Pods++
	}
	rr.Status, rr.Message = RulePass, fmt.Sprintf("no pod is %s", orList(names))
	if rr.Pods > 0 {
		rr.Status, rr.Message = RuleFail, fmt.Sprintf("%d of %s %s %s", rr.Pods, plural(len(res.Items), "pod"), isAre(rr.Pods), orList(names))
	}
	res.add(rr)
}

func (res *Result) ruleMaxStartup(limit time.Duration, verb int) {
	rr := RuleResult{Rule: "max-startup", Spec: limit.String(), Limit: durPtr(limit)}
	def, _ := timeline.Reference.StageDefByID(timeline.StRunning)
	hidden := 0
	for i := range res.Items {
		f := &res.Items[i]
		if d, ok := PodStartup(f); ok {
			rr.Judged++
			if d > limit {
				var ev []timeline.Evidence
				cause, why := podCause(f)
				if cause != nil {
					ev = append(ev, *cause)
				}
				if f.Startup != nil && f.Startup.Evidence != nil {
					ev = append(ev, *f.Startup.Evidence)
				} else if cause == nil {
					ev = f.Evidence
				}
				msg := fmt.Sprintf("started in %s, over the %s maximum", FmtDur(d), FmtDur(limit))
				if why != "" {
					msg += "; " + why
				}
				res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: timeline.StRunning, Value: timeline.Duration(d), Limit: timeline.Duration(limit),
					Message: msg, Cause: cause, Evidence: ev})
				rr.Pods++
			}
			continue
		}
		s := stageByID(f.Stages, timeline.StRunning)
		if (s != nil && s.Status == timeline.StatusUnknown) || (s == nil && verb >= 0 && verb < def.MinV) {
			hidden++
			rr.Needs = needV(def, s)
			continue
		}
		// Not running (yet): it breaks the rule once it has waited longer
		// (its duration, to the log's end when under way: timeline/clock.go).
		if waited := time.Duration(f.Duration); waited > limit {
			rr.Judged++
			cause := failure.First(f.Evidence)
			if cause == nil {
				cause, _ = TroubleCause(f)
			}
			res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: f.StalledAt, Container: f.Container, Value: timeline.Duration(waited), Limit: timeline.Duration(limit),
				Message: fmt.Sprintf("not running after %s (maximum %s)", FmtDur(waited), FmtDur(limit)), Cause: cause, Evidence: f.Evidence})
			rr.Pods++
		}
	}
	res.conclude(&rr, hidden, fmt.Sprintf("every pod started within %s", FmtDur(limit)),
		fmt.Sprintf("%s took longer than %s to start", plural(rr.Pods, "pod"), FmtDur(limit)),
		"the running stage")
	res.add(rr)
}

func needV(def timeline.StageDef, s *timeline.Stage) string {
	if s != nil && s.Reveal != "" {
		return s.Reveal
	}
	return fmt.Sprintf("-v=%d", def.MinV)
}

func (res *Result) ruleBudget(id string, limit time.Duration, verb int) {
	def, _ := timeline.Reference.StageDefByID(id)
	rr := RuleResult{Rule: "budget", Spec: id + "=" + limit.String(), Limit: durPtr(limit)}
	hidden := 0
	judgeStage := func(i int, s *timeline.Stage, container string) {
		switch s.Status {
		case timeline.StatusUnknown:
			hidden++
			rr.Needs = needV(def, s)
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
			msg := fmt.Sprintf("%s %s %s, over its %s budget", where, state, FmtDur(d), FmtDur(limit))
			if s.Reason != "" {
				msg += ": " + s.Reason
			}
			res.violate(i, Violation{Rule: rr.Rule, Spec: rr.Spec, Stage: id, Container: container, Value: s.Duration, Limit: timeline.Duration(limit), Message: msg, Cause: failure.First(s.Evidence), Evidence: s.Evidence})
		}
	}
	for i := range res.Items {
		f := &res.Items[i]
		before := len(res.Pods[i].Violations)
		if def.Scope == timeline.ScopeContainer {
			if len(f.Containers) == 0 && verb >= 0 && verb < def.MinV {
				hidden++
				rr.Needs = needV(def, nil)
			}
			for c := range f.Containers {
				if s := stageByID(f.Containers[c].Stages, id); s != nil {
					judgeStage(i, s, f.Containers[c].Name)
				}
			}
		} else if s := stageByID(f.Stages, id); s != nil {
			judgeStage(i, s, "")
		} else if def.Scope == timeline.ScopePod && verb >= 0 && verb < def.MinV {
			hidden++
			rr.Needs = needV(def, nil)
		}
		if len(res.Pods[i].Violations) > before {
			rr.Pods++
		}
	}
	res.conclude(&rr, hidden, fmt.Sprintf("stage %s stayed within %s", id, FmtDur(limit)),
		fmt.Sprintf("%s spent longer than %s in stage %s", plural(rr.Pods, "pod"), FmtDur(limit), id),
		"stage "+id)
	if rr.Status == RulePass && rr.Judged == 0 {
		rr.Message = fmt.Sprintf("no pod reached stage %s", id)
	}
	res.add(rr)
}

func stageByID(stages []timeline.Stage, id string) *timeline.Stage {
	for i := range stages {
		if stages[i].ID == id {
			return &stages[i]
		}
	}
	return nil
}

func (res *Result) ruleSLO(s SLORule, verb int) {
	rr := RuleResult{Rule: "slo", Spec: s.Label + "=" + s.Limit.String(), Limit: durPtr(s.Limit)}
	var vals []time.Duration
	hidden := 0
	for i := range res.Items {
		d, ok, hid := PodSLO(&res.Items[i], verb)
		if hid {
			hidden++
			rr.Needs = "-v=3"
		}
		if !ok {
			continue
		}
		res.Pods[i].SLO = durPtr(d)
		vals = append(vals, d)
	}
	rr.Judged = len(vals)
	sort.Slice(vals, func(i, j int) bool { return vals[i] < vals[j] })
	if len(vals) > 0 {
		v := percentile(vals, s.Pct)
		rr.Value = durPtr(v)
		if v > s.Limit {
			n := 0
			for _, x := range vals {
				if x > s.Limit {
					n++
				}
			}
			rr.Status = RuleFail
			rr.Message = fmt.Sprintf("%s startup (image pulls excluded) is %s over %s, over the %s objective (%s slower)", s.Label, FmtDur(v), plural(len(vals), "pod"), FmtDur(s.Limit), plural(n, "pod"))
			res.add(rr)
			return
		}
		if hidden == 0 {
			rr.Status = RulePass
			rr.Message = fmt.Sprintf("%s startup (image pulls excluded) is %s over %s, within %s", s.Label, FmtDur(v), plural(len(vals), "pod"), FmtDur(s.Limit))
			res.add(rr)
			return
		}
	}
	res.conclude(&rr, hidden, "", "", "the image stages (and podStartSLOduration is not logged)")
	res.add(rr)
}
