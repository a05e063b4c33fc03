package tui

import (
	"time"

	"github.com/podflow/podflow/timeline"
)

// VerdictInFlight is the TUI's word, during replay, for a pod whose flow
// has not reached its end at the replay clock.
const VerdictInFlight timeline.Verdict = "InFlight"

// asOf returns the flows as the kubelet had seen them at t: pods that had
// not started are dropped, stages after t are pending, stages still open
// at t are active, and verdicts are only given to flows that had ended.
func asOf(items []timeline.Flow, t time.Time) []timeline.Flow {
	out := make([]timeline.Flow, 0, len(items))
	for _, f := range items {
		if f.Start.After(t) {
			continue
		}
		if !f.End.After(t) {
			out = append(out, f)
			continue
		}
		g := f
		g.Verdict = VerdictInFlight
		g.StalledAt, g.Container, g.ContainerStage, g.Reason, g.Waited = "", "", "", "", 0
		g.Diagnosis = ""
		g.End = t
		g.Duration = timeline.Duration(t.Sub(f.Start))
		g.Stages, g.Stage = stagesAsOf(f.Stages, t)
		g.Containers = make([]timeline.Container, len(f.Containers))
		for i, c := range f.Containers {
			c.Stages, _ = stagesAsOf(c.Stages, t)
			g.Containers[i] = c
		}
		g.Evidence = evidenceAsOf(f.Evidence, t)
		g.Events = nil
		out = append(out, g)
	}
	return out
}

func stagesAsOf(in []timeline.Stage, t time.Time) ([]timeline.Stage, string) {
	out := make([]timeline.Stage, len(in))
	last := ""
	for i, s := range in {
		s.Evidence = evidenceAsOf(s.Evidence, t)
		switch {
		case s.Status == timeline.StatusSkipped || s.Status == timeline.StatusUnknown:
		case s.Start == nil || s.Start.After(t):
			s.Start, s.End, s.Status, s.Duration, s.Reason, s.Attempts = nil, nil, timeline.StatusPending, 0, "", 0
		case s.End == nil || s.End.After(t):
			tt := t
			s.End = &tt
			s.Status = timeline.StatusActive
			s.Duration = timeline.Duration(t.Sub(*s.Start))
			if len(s.Evidence) == 0 || !hasFailure(s) {
				s.Reason = ""
			}
		}
		if s.Status == timeline.StatusDone {
			last = s.ID
		}
		out[i] = s
	}
	return out, last
}

// hasFailure: keep a reason during replay only once an attempt has failed
// (Attempts counts them; the evidence is already cut at t).
func hasFailure(s timeline.Stage) bool { return s.Attempts > 0 }

func evidenceAsOf(in []timeline.Evidence, t time.Time) []timeline.Evidence {
	var out []timeline.Evidence
	for _, e := range in {
		if e.Time.IsZero() || !e.Time.After(t) {
			out = append(out, e)
		}
	}
	return out
}

// span is the time range of all flows.
func span(items []timeline.Flow) (start, end time.Time) {
	for _, f := range items {
		if !f.Start.IsZero() && (start.IsZero() || f.Start.Before(start)) {
			start = f.Start
		}
		if f.End.After(end) {
			end = f.End
		}
	}
	return start, end
}

// nextEvent is the first stage start or end after t, or end when none.
func nextEvent(items []timeline.Flow, t, end time.Time) time.Time {
	best := end
	consider := func(p *time.Time) {
		if p != nil && p.After(t) && p.Before(best) {
			best = *p
		}
	}
	for _, f := range items {
		st := f.Start
		consider(&st)
		for i := range f.Stages {
			consider(f.Stages[i].Start)
			consider(f.Stages[i].End)
		}
		for _, c := range f.Containers {
			for i := range c.Stages {
				consider(c.Stages[i].Start)
				consider(c.Stages[i].End)
			}
		}
	}
	return best
}
