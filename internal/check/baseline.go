package check

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/podflow/podflow/timeline"
)

type stageStat struct {
	p50, p90 time.Duration
	n        int
}

// stageStats gives p50/p90 per stage across pods (pod stages and every
// container's stages), from stages that completed.
func stageStats(items []timeline.Flow) map[string]stageStat {
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
	out := map[string]stageStat{}
	for id, v := range samples {
		sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
		out[id] = stageStat{p50: percentile(v, 50), p90: percentile(v, 90), n: len(v)}
	}
	return out
}

func rel(cur, base time.Duration) float64 {
	if base == 0 {
		if cur == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return float64(cur-base) / float64(base)
}

func (res *Result) ruleRegression(baseline *Baseline, r Rules) {
	rr := RuleResult{Rule: "regression", Spec: fmt.Sprintf("%g%%", r.Regression*100)}
	cur, base := stageStats(res.Items), baseline.stats(r)
	var bad []string
	for _, def := range timeline.Reference.Stages {
		c, okc := cur[def.ID]
		b, okb := base[def.ID]
		if !okc || !okb {
			continue
		}
		d := StageDelta{Stage: def.ID, BaseP50: timeline.Duration(b.p50), BaseP90: timeline.Duration(b.p90), P50: timeline.Duration(c.p50), P90: timeline.Duration(c.p90),
			DeltaP50: rel(c.p50, b.p50), DeltaP90: rel(c.p90, b.p90), Samples: c.n}
		regressed := func(c, b time.Duration) bool {
			return c-b >= r.RegressionMin && c-b > 0 && float64(c) > float64(b)*(1+r.Regression)
		}
		if regressed(c.p50, b.p50) || regressed(c.p90, b.p90) {
			d.Regression = true
			bad = append(bad, fmt.Sprintf("%s p50 %s→%s, p90 %s→%s", def.ID, FmtDur(b.p50), FmtDur(c.p50), FmtDur(b.p90), FmtDur(c.p90)))
		}
		res.Deltas = append(res.Deltas, d)
		rr.Judged++
	}
	switch {
	case len(bad) > 0:
		rr.Status, rr.Pods = RuleFail, 0
		rr.Message = fmt.Sprintf("%s slower than the baseline by more than %s: %s", plural(len(bad), "stage"), rr.Spec, strings.Join(bad, "; "))
	case rr.Judged == 0:
		rr.Status, rr.Message = RuleUnknown, "the baseline and this run share no completed stage"
	default:
		rr.Status, rr.Message = RulePass, fmt.Sprintf("%s within %s of the baseline", plural(rr.Judged, "stage"), rr.Spec)
	}
	res.add(rr)
}

// Baseline is what --baseline read from an earlier run: its flows (the
// -o json of check or get pods), whose stages this run's pod selection
// also applies to, or only its stage latencies (stats -o json), taken as
// they are.
type Baseline struct {
	Flows  *timeline.FlowList
	stages map[string]stageStat
}

// stats returns the baseline's p50/p90 per stage, for the pods r selects.
func (b *Baseline) stats(r Rules) map[string]stageStat {
	if b.Flows == nil {
		return b.stages
	}
	items, _ := r.Select(b.Flows.Items)
	return stageStats(items)
}

// statsDoc is the part of `podflow stats -o json` a baseline needs.
type statsDoc struct {
	Pods   *int `json:"pods"`
	Stages []struct {
		Stage string            `json:"stage"`
		Count int               `json:"count"`
		P50   timeline.Duration `json:"p50"`
		P90   timeline.Duration `json:"p90"`
	} `json:"stages"`
}

// DecodeBaseline reads the -o json output of an earlier check, get pods
// or stats (name is for messages).
func DecodeBaseline(name string, b []byte) (*Baseline, error) {
	var head struct {
		Kind string `json:"kind"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, fmt.Errorf("--baseline %s: not podflow JSON: %w", name, err)
	}
	if head.Kind == "" {
		var st statsDoc
		if err := json.Unmarshal(b, &st); err == nil && st.Pods != nil && st.Stages != nil {
			out := &Baseline{stages: map[string]stageStat{}}
			for _, s := range st.Stages {
				if s.Stage == "" || s.Count == 0 {
					continue
				}
				out.stages[s.Stage] = stageStat{p50: time.Duration(s.P50), p90: time.Duration(s.P90), n: s.Count}
			}
			return out, nil
		}
	}
	var fl timeline.FlowList
	if err := json.Unmarshal(b, &fl); err != nil {
		return nil, fmt.Errorf("--baseline %s: not podflow JSON: %w", name, err)
	}
	if fl.Kind != timeline.KindFlowList {
		return nil, fmt.Errorf("--baseline %s: kind %q, want %s (the -o json output of podflow check or get pods) or the -o json output of podflow stats", name, fl.Kind, timeline.KindFlowList)
	}
	return &Baseline{Flows: &fl}, nil
}
