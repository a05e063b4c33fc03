package trace

import (
	"strconv"
	"time"

	"github.com/podflow/podflow/internal/failure"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// ChromeEvent is one Trace Event.
type ChromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   int64          `json:"ts"`
	Dur  *int64         `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	S    string         `json:"s,omitempty"` // an instant event's scope: t (thread)
	Args map[string]any `json:"args,omitempty"`
}

// ChromeTrace is the JSON object form of a Chrome trace.
type ChromeTrace struct {
	TraceEvents     []ChromeEvent `json:"traceEvents"`
	DisplayTimeUnit string        `json:"displayTimeUnit"`
	// OtherData is the trace's metadata (chrome://tracing shows it under
	// Metadata): startTime, the absolute time of ts 0, which the events'
	// times count from, as RFC 3339 and as microseconds since the epoch.
	OtherData map[string]any `json:"otherData,omitempty"`
}

// Instant event names: a failed attempt of a stage, and a back-off.
const (
	InstantFailed  = "failed attempt"
	InstantBackOff = "back-off"
)

// chromeBase is the time ts 0 stands for: the earliest flow start.
func chromeBase(flows []timeline.Flow) time.Time {
	var base time.Time
	for i := range flows {
		if base.IsZero() || flows[i].Start.Before(base) {
			base = flows[i].Start
		}
	}
	return base
}

// ChromeEnvelope is the Chrome trace of flows without its events: the
// metadata, and an empty list ChromeEvents fills.
func ChromeEnvelope(flows []timeline.Flow) ChromeTrace {
	tr := ChromeTrace{TraceEvents: []ChromeEvent{}, DisplayTimeUnit: "ms"}
	if base := chromeBase(flows); !base.IsZero() {
		tr.OtherData = map[string]any{
			"startTime":           base.UTC().Format(time.RFC3339Nano),
			"startTimeUnixMicros": base.UnixMicro(),
		}
	}
	return tr
}

// span is an interval in µs for one thread, before nesting is enforced.
type span struct {
	name     string
	cat      string
	from, to int64
	args     map[string]any
}

// laneSpans lays a thread's spans out so that each row nests: the parent
// first, then each child, clipped to the parent, in the first lane where
// it starts no earlier than that lane's last child ended. Lane 0 is the
// parent's own row; a child that overlaps it (a deletion's termination
// stages running beside a pull, 20-delete-during-pull) goes to a further
// lane, a row of its own, with its times kept, not cut or dropped.
func laneSpans(parent span, children []span) (out []span, lanes []int) {
	out, lanes = []span{parent}, []int{0}
	var ends []int64 // the last end in each lane
	for _, c := range children {
		c.from, c.to = max(c.from, parent.from), min(c.to, parent.to)
		if c.to < c.from {
			continue
		}
		lane := 0
		for lane < len(ends) && c.from < ends[lane] {
			lane++
		}
		if lane == len(ends) {
			ends = append(ends, c.to)
		} else {
			ends[lane] = c.to
		}
		out, lanes = append(out, c), append(lanes, lane)
	}
	return out, lanes
}

func stageSpans(stages []timeline.Stage, end time.Time, us func(time.Time) int64) []span {
	var out []span
	for _, s := range stages {
		if s.Start == nil {
			continue
		}
		e := end
		if s.End != nil {
			e = *s.End
		}
		args := map[string]any{"status": string(s.Status)}
		if s.Attempts > 0 {
			args["attempts"] = s.Attempts
		}
		if s.Reason != "" {
			args["reason"] = sanitize.OneLine(s.Reason)
		}
		out = append(out, span{name: s.ID, cat: "stage", from: us(*s.Start), to: us(e), args: args})
	}
	return out
}

// BuildChrome is the whole Chrome trace of flows.
func BuildChrome(flows []timeline.Flow) ChromeTrace {
	tr := ChromeEnvelope(flows)
	_ = ChromeEvents(flows, func(e *ChromeEvent) error {
		tr.TraceEvents = append(tr.TraceEvents, *e)
		return nil
	})
	return tr
}

// ChromeEvents gives the events of the Chrome trace of flows to out, in
// order, and stops at out's first error. A thread's spans come first, then
// its instant events: each line of a stage that shows a failure (a failed
// attempt, or a back-off) at the line's time, with the line.
func ChromeEvents(flows []timeline.Flow, out func(*ChromeEvent) error) error {
	base := chromeBase(flows)
	us := func(t time.Time) int64 { return t.Sub(base).Microseconds() }
	pids := map[string]int{}
	nextTid := map[int]int{}
	var err error
	meta := func(name string, pid, tid int, args map[string]any) {
		if err == nil {
			err = out(&ChromeEvent{Name: name, Ph: "M", Pid: pid, Tid: tid, Args: args})
		}
	}
	// emit writes a thread's laid-out spans; a lane past the first is a
	// thread of its own, named after the first's.
	emit := func(pid, tid int, name string, spans []span, lanes []int) {
		tids := []int{tid}
		for i, s := range spans {
			for lanes[i] >= len(tids) {
				nextTid[pid]++
				tids = append(tids, nextTid[pid])
				meta("thread_name", pid, nextTid[pid], map[string]any{"name": name + " (overlapping)"})
				meta("thread_sort_index", pid, nextTid[pid], map[string]any{"sort_index": nextTid[pid]})
			}
			d := s.to - s.from
			if err == nil {
				err = out(&ChromeEvent{Name: s.name, Cat: s.cat, Ph: "X", Ts: s.from, Dur: &d, Pid: pid, Tid: tids[lanes[i]], Args: s.args})
			}
		}
	}
	instants := func(pid, tid int, stages []timeline.Stage) {
		for _, st := range stages {
			for _, ev := range st.Evidence {
				if ev.Time.IsZero() || !failure.Line(ev.Text) || err != nil {
					continue
				}
				name := InstantFailed
				if failure.BackOff(ev.Text) {
					name = InstantBackOff
				}
				err = out(&ChromeEvent{Name: name, Cat: "failure", Ph: "i", S: "t", Ts: us(ev.Time), Pid: pid, Tid: tid, Args: map[string]any{
					"stage": st.ID, "line": sanitize.OneLine(ev.Input) + ":" + strconv.FormatInt(ev.Line, 10), "text": sanitize.OneLine(ev.Text)}})
			}
		}
	}
	for i := 0; i < len(flows) && err == nil; i++ {
		f := &flows[i]
		node := dash(sanitize.OneLine(f.Node))
		pid, ok := pids[node]
		if !ok {
			pid = len(pids) + 1
			pids[node] = pid
			meta("process_name", pid, 0, map[string]any{"name": node})
			meta("process_sort_index", pid, 0, map[string]any{"sort_index": pid})
		}
		nextTid[pid]++
		tid := nextTid[pid]
		key := sanitize.OneLine(f.Pod.Key())
		meta("thread_name", pid, tid, map[string]any{"name": key})
		meta("thread_sort_index", pid, tid, map[string]any{"sort_index": tid})
		root := span{name: key, cat: "pod", from: us(f.Start), to: us(f.End), args: map[string]any{
			"verdict": string(f.Verdict), "uid": sanitize.OneLine(f.Pod.UID), "stage": stageLabel(f), "reason": sanitize.OneLine(f.Reason)}}
		spans, lanes := laneSpans(root, stageSpans(f.Stages, f.End, us))
		emit(pid, tid, key, spans, lanes)
		instants(pid, tid, f.Stages)
		for _, c := range f.Containers {
			cs := stageSpans(c.Stages, f.End, us)
			if len(cs) == 0 {
				continue
			}
			nextTid[pid]++
			ctid := nextTid[pid]
			meta("thread_name", pid, ctid, map[string]any{"name": key + " " + sanitize.OneLine(c.Name)})
			meta("thread_sort_index", pid, ctid, map[string]any{"sort_index": ctid})
			cr := span{name: sanitize.OneLine(c.Name), cat: "container", from: cs[0].from, to: cs[0].to, args: map[string]any{
				"type": c.Type, "image": sanitize.OneLine(c.Image), "restarts": c.Restarts}}
			for _, s := range cs {
				cr.from, cr.to = min(cr.from, s.from), max(cr.to, s.to)
			}
			spans, lanes := laneSpans(cr, cs)
			emit(pid, ctid, key+" "+sanitize.OneLine(c.Name), spans, lanes)
			instants(pid, ctid, c.Stages)
		}
	}
	return err
}
