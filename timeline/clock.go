package timeline

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// One clock. Every view of a flow (get pods' columns, describe, JSON and
// YAML, the TUI's list, bars and pages, replay, the report, the traces,
// check) reads a flow's and its stages' times from the Flow the engine
// made, never computing its own, and prints a duration with
// HumanDuration. The figures are set here, once a flow is judged, by one
// definition, against the input's end: the time of the input's last line
// (InputSpan; a view that follows a growing log, or replays one, moves it
// on to the time it has read or played to and judges again):
//
//   - A stage done runs from its start to its completion. A stage begun
//     and not done (stalled, failed, active) runs from its start to the
//     input's end: it is still under way there. Its Duration is End −
//     Start. A stage not begun (pending, unknown, skipped) has no times.
//   - A flow starts at its earliest stage's start (its first record when
//     no stage has a time).
//   - A flow under way when the input ends — Stalled, Incomplete,
//     Terminating, Failed while still trying (a stage it failed at runs
//     on), or any flow with a stage still under way — ends at the input's
//     end; any other ends at its latest stage's end (its last record when
//     no stage has a time). Its Duration is End − Start, exactly.
//   - The stage a flow stalled at (StalledAt, and Container's
//     ContainerStage when the stall is inside a container) is never done
//     while the flow is under way: when the verdict puts the stall on a
//     stage whose own lines completed it (a crash loop after the container
//     ran: running and the container's started), that stage becomes
//     failed (a Failed flow) or stalled, and runs to the input's end; the
//     stages after it, not reached again, are pending (stages never
//     overlap); Stage, the last stage done, is the last one before it.
//   - Waited is how long the stage the flow stalled at has been under way:
//     the container's stage when the stall is inside one, else the pod's;
//     that stage's Duration. 0 when the flow stalled nowhere or that stage
//     never began (an excerpt whose errors stopped, or that ends before
//     it).
//
// Following a growing log, the input's end is the present (Now): the log
// is quiet, not over, and a stage under way goes on running (its timer
// moves while no line comes); a budget passed on the way stalls it.
//
// Times are exact in every machine output (JSON, YAML, OTLP, Chrome, the
// report's data); people read HumanDuration's rounding of them.

// clock settles fl's times by the definition above, inputEnd being the
// end of the input its node's lines came from. It runs once the verdict,
// the trouble and the kubectl status are made, before the diagnosis
// (which quotes Waited and Duration).
func (b *Builder) clock(fl *Flow, inputEnd time.Time) {
	under := underWay(fl)
	if under && fl.StalledAt != "" && !inputEnd.IsZero() {
		status := StatusStalled
		if fl.Verdict == VerdictFailed {
			status = StatusFailed
		}
		if st := flowStage(fl.Stages, fl.StalledAt); st != nil && st.Status == StatusDone {
			runOn(st, status, inputEnd)
			fl.Stage = lastDoneBefore(fl.Stages, fl.StalledAt)
			notReached(fl.Stages, PodStages, fl.StalledAt)
		}
		if st := stallStage(fl, fl.Container, fl.ContainerStage); st != nil && st.Status == StatusDone {
			runOn(st, status, inputEnd)
			for i := range fl.Containers {
				if fl.Containers[i].Name == fl.Container {
					notReached(fl.Containers[i].Stages, ContainerStages, fl.ContainerStage)
				}
			}
		}
	}
	// Start and end.
	var end time.Time
	for i := range fl.Stages {
		st := &fl.Stages[i]
		if st.Start != nil && (fl.Start.IsZero() || st.Start.Before(fl.Start)) {
			fl.Start = *st.Start
		}
		if st.End != nil && st.End.After(end) {
			end = *st.End
		}
	}
	under = under || stageUnderWay(fl.Stages)
	if end.After(fl.End) {
		fl.End = end
	}
	if under && inputEnd.After(fl.End) {
		fl.End = inputEnd
	}
	fl.Duration = 0 // no line of the pod's had a time: its span is unknown
	if !fl.Start.IsZero() && fl.End.After(fl.Start) {
		fl.Duration = Duration(fl.End.Sub(fl.Start))
	}
	// Waited.
	fl.Waited = 0
	if fl.StalledAt == "" || !under {
		return
	}
	st := stallStage(fl, fl.Container, fl.ContainerStage)
	if st == nil || st.Start == nil {
		st = flowStage(fl.Stages, fl.StalledAt)
	}
	if st != nil && st.Start != nil && st.Status != StatusDone && fl.End.After(*st.Start) {
		fl.Waited = Duration(fl.End.Sub(*st.Start))
	}
}

// Now tells a builder fed by a log being followed what time it is: the
// flows judged after it are judged as of t, a stage still under way
// running to t rather than to the last line read, wherever t is later
// than the node's last line. The follower says what its present is (in
// the log's own time: see internal/follow). It only moves forward; the
// zero time (the default) leaves the input's end to be its last line.
func (b *Builder) Now(t time.Time) {
	if t.After(b.now) {
		b.now = t
	}
}

// inputEnd is the end of n's input the clock measures to: its last line,
// or the present when following (Now).
func (b *Builder) inputEnd(n *nodeState) time.Time {
	if b.now.After(n.end) {
		return b.now
	}
	return n.end
}

// UnderWay reports whether the flow was still under way when its input
// ended (or when it was judged, for a log followed or replayed): its End
// is then the input's end, not a stage's, and its Duration runs to it.
// For a flow from the engine with its stages (not a row of FinishRows,
// which drops them and leaves the verdict's say alone); the definition is
// clock's.
func (f *Flow) UnderWay() bool { return underWay(f) || stageUnderWay(f.Stages) }

// stageUnderWay reports whether a stage begun is not done.
func stageUnderWay(stages []Stage) bool {
	for i := range stages {
		switch stages[i].Status {
		case StatusStalled, StatusFailed, StatusActive:
			if stages[i].Start != nil {
				return true
			}
		}
	}
	return false
}

// underWay reports whether the verdict says the flow was still under way
// when the input ended: stalled, incomplete, terminating, or failed while
// the kubelet goes on trying (not a pod its kubelet reported Failed,
// nor one whose termination completed).
func underWay(fl *Flow) bool {
	switch fl.Verdict {
	case VerdictStalled, VerdictIncomplete, VerdictTerminating:
		return true
	case VerdictFailed:
		if fl.Phase == "Failed" || fl.Phase == "Succeeded" {
			return false
		}
		if st := flowStage(fl.Stages, StTerminated); st != nil && st.Status == StatusDone {
			return false
		}
		return fl.StalledAt != ""
	}
	return false
}

// runOn makes a stage the verdict stalled at, which its own lines
// completed, one still under way at the input's end.
func runOn(st *Stage, status Status, inputEnd time.Time) {
	st.Status = status
	if st.Start == nil {
		return
	}
	end := inputEnd
	st.End = &end // a time of its own: stages may share theirs (see Stage)
	st.Duration = 0
	if end.After(*st.Start) {
		st.Duration = Duration(end.Sub(*st.Start))
	}
}

// notReached makes the stages of order after id, the stage a flow
// stalled at, pending: stages follow one another, and the flow, still at
// id, has not got past it (a crash loop's ready: the container was ready
// once, between two of its crashes). Their evidence stays.
func notReached(stages []Stage, order []string, id string) {
	after := false
	for _, sid := range order {
		if sid == id {
			after = true
			continue
		}
		if st := flowStage(stages, sid); after && st != nil && st.Status == StatusDone {
			st.Status, st.Start, st.End, st.Duration = StatusPending, nil, nil, 0
		}
	}
}

// lastDoneBefore is the last creation stage done before stage id.
func lastDoneBefore(stages []Stage, id string) string {
	at := slices.Index(PodStages, id)
	last := ""
	for _, sid := range PodStages[:max(at, 0)] {
		if st := flowStage(stages, sid); st != nil && st.Status == StatusDone {
			last = sid
		}
	}
	return last
}

func flowStage(stages []Stage, id string) *Stage {
	for i := range stages {
		if stages[i].ID == id {
			return &stages[i]
		}
	}
	return nil
}

func stallStage(fl *Flow, name, id string) *Stage {
	if name == "" || id == "" {
		return nil
	}
	for i := range fl.Containers {
		if fl.Containers[i].Name == name {
			return flowStage(fl.Containers[i].Stages, id)
		}
	}
	return nil
}

// HumanDuration is how every view prints a duration for people to read
// (exact figures are the machine outputs'): 350µs, 412ms, 1.25s, 59.1s,
// 1m12s, 2h3m, 3d4h. Below a second, whole micro- or milliseconds, cut (as
// kubectl cuts); under ten seconds two decimals, under a minute one;
// above, whole seconds, then minutes, then hours, rounded to the nearest,
// a figure that rounds up to the next unit printed in it (59.97s is
// 1m0s, not 60s).
func HumanDuration(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var s string
	switch {
	case d == 0:
		s = "0s"
	case d < time.Millisecond:
		s = fmt.Sprintf("%dµs", d/time.Microsecond)
	case d < time.Second:
		s = fmt.Sprintf("%dms", d/time.Millisecond)
	case d < 10*time.Second:
		s = trimZero(fmt.Sprintf("%.2f", d.Seconds())) + "s"
	case d < time.Minute-50*time.Millisecond:
		s = trimZero(fmt.Sprintf("%.1f", d.Seconds())) + "s"
	case d < time.Hour-500*time.Millisecond:
		d = d.Round(time.Second)
		s = fmt.Sprintf("%dm%ds", d/time.Minute, (d%time.Minute)/time.Second)
	case d < 48*time.Hour-30*time.Second:
		d = d.Round(time.Minute)
		s = fmt.Sprintf("%dh%dm", d/time.Hour, (d%time.Hour)/time.Minute)
	default:
		d = d.Round(time.Hour)
		s = fmt.Sprintf("%dd%dh", d/(24*time.Hour), (d%(24*time.Hour))/time.Hour)
	}
	if neg {
		return "-" + s
	}
	return s
}

// Human is HumanDuration of d.
func (d Duration) Human() string { return HumanDuration(time.Duration(d)) }

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}
