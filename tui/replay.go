package tui

import (
	"strings"
	"time"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// VerdictInFlight is the TUI's word, during replay, for a pod the log
// could not judge yet at the replay clock (Incomplete as of then).
const VerdictInFlight timeline.Verdict = "InFlight"

// replayer builds the flows again as of the replay clock from the
// records the load kept, in the log's order: every figure on screen
// (verdict, stage, attempts, waited, restarts) is what the log had said
// by then, never what it says later. Going forward it adds the records
// up to the clock to the same builder; going back it starts again.
type replayer struct {
	recs  []*parser.Record
	opts  timeline.Options
	r     *redact.Redactor
	b     *timeline.Builder
	runs  map[string]run
	next  int       // recs[next] is the first not added
	clock time.Time // the clock the builder is at
	items []timeline.Flow
}

func newReplayer(recs []*parser.Record, o timeline.Options, r *redact.Redactor) *replayer {
	p := &replayer{recs: recs, opts: o, r: r}
	p.reset()
	return p
}

func (p *replayer) reset() {
	p.b = timeline.NewBuilder(p.opts)
	p.runs = map[string]run{}
	p.next, p.clock, p.items = 0, time.Time{}, nil
}

// asOf returns the flows and the container runs as of t.
func (p *replayer) asOf(t time.Time) ([]timeline.Flow, map[string]run) {
	if p.items != nil && t.Equal(p.clock) {
		return p.items, p.runs
	}
	if t.Before(p.clock) {
		p.reset()
	}
	added := p.items == nil
	for p.next < len(p.recs) && !p.recs[p.next].Time.After(t) {
		rec := p.recs[p.next]
		p.b.Add(rec)
		noteRun(p.runs, rec)
		p.next++
		added = true
	}
	moved := !t.Equal(p.clock)
	p.clock = t
	if added || moved {
		// Judged as of the clock: a stage under way runs to it, as it
		// runs to the input's end once the log is played whole
		// (timeline/clock.go), so waits grow while the log is quiet.
		if !t.IsZero() {
			p.b.InputSpan("", time.Time{}, t)
		}
		fl := p.b.Snapshot()
		redact.FlowList(p.r, fl)
		for i := range fl.Items {
			if fl.Items[i].Verdict == timeline.VerdictIncomplete {
				fl.Items[i].Verdict = VerdictInFlight
			}
		}
		p.items = fl.Items
		if p.items == nil {
			p.items = []timeline.Flow{}
		}
	}
	return p.items, p.runs
}

// cloneRecord is a copy of rec that owns all its text: the parser's
// strings are valid only until its next record (Options.Borrow).
func cloneRecord(rec *parser.Record) *parser.Record {
	c := *rec
	c.Source = strings.Clone(rec.Source)
	c.Msg = strings.Clone(rec.Msg)
	c.Err = strings.Clone(rec.Err)
	c.Host = strings.Clone(rec.Host)
	c.Component = strings.Clone(rec.Component)
	c.Pos.Input = strings.Clone(rec.Pos.Input)
	c.Fields = cloneFields(rec.Fields)
	return &c
}

func cloneFields(fs []parser.Field) []parser.Field {
	if fs == nil {
		return nil
	}
	out := make([]parser.Field, len(fs))
	for i, f := range fs {
		out[i] = parser.Field{Key: strings.Clone(f.Key), Raw: strings.Clone(f.Raw), Value: cloneValue(f.Value)}
	}
	return out
}

func cloneValue(v parser.Value) parser.Value {
	v.Str = strings.Clone(v.Str)
	if v.List != nil {
		l := make([]parser.Value, len(v.List))
		for i, x := range v.List {
			l[i] = cloneValue(x)
		}
		v.List = l
	}
	v.Obj = cloneFields(v.Obj)
	return v
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

// events are the times replay steps to: each flow's start and each
// stage's start and end.
func events(items []timeline.Flow, fn func(time.Time)) {
	consider := func(p *time.Time) {
		if p != nil {
			fn(*p)
		}
	}
	for _, f := range items {
		fn(f.Start)
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
}

// nextEvent is the first event after t, or end when none.
func nextEvent(items []timeline.Flow, t, end time.Time) time.Time {
	best := end
	events(items, func(e time.Time) {
		if e.After(t) && e.Before(best) {
			best = e
		}
	})
	return best
}

// prevEvent is the last event before t, or start when none.
func prevEvent(items []timeline.Flow, t, start time.Time) time.Time {
	best := start
	events(items, func(e time.Time) {
		if e.Before(t) && e.After(best) {
			best = e
		}
	})
	return best
}
