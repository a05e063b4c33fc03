package check

import (
	"sort"
	"time"

	"github.com/podflow/podflow/timeline"
)

// Rank orders pods worst first: failing pods by verdict (Failed,
// Stalled, …) and how long they waited, then by how far past a limit.
func Rank(pods []PodResult) []PodResult {
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
		if p.Flow != nil {
			m = time.Duration(p.Flow.Waited)
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
