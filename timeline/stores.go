package timeline

import (
	"github.com/podflow/podflow/internal/linepos"
	"github.com/podflow/podflow/internal/stamps"
)

// The builder's glue to its stores, the packages under internal/ that keep
// a flow compact while the log is read (doc.go, Storage): some hundred
// times and thirty lines per pod in the compact forms of internal/stamps,
// internal/linepos and internal/words, which send what does not fit to
// tables on the side. Those tables grow with what flows keep, not with
// lines: a kept line that is overwritten (a stage keeps its latest line in
// one slot) gives its entries back (release), and the times on the side
// that nothing holds any more are swept (sweepTimes), which takes the walk
// of every stamp a flow's state holds (eachStamp): that walk knows the
// flow's layout, so it stays here.

// stampSpan is a span of stamps.
type stampSpan struct{ from, to stamps.Stamp }

// release gives back what e holds on the side: it is overwritten.
func (b *Builder) release(e evidence) {
	b.lines.Release(e.Where)
	b.texts.Release(e.Text)
}

// sweepTimes drops the times on the side that nothing holds any more
// (stamps.Table.Sweep): the times a flow keeps are overwritten (its last
// line's, a stage's last failure) and copied (a stage ends when its
// container died). It runs between records (Add), when no stamp is held
// outside the builder's flows.
func (b *Builder) sweepTimes() {
	if b.stamps.Due() { // as good as never: inlined
		b.stamps.Sweep(b.eachStamp)
	}
}

// eachStamp calls visit with every stamp the builder's flows hold.
func (b *Builder) eachStamp(visit func(*stamps.Stamp)) {
	stage := func(s *stageState) {
		if s == nil {
			return
		}
		visit(&s.begin)
		visit(&s.complete)
		if s.trouble != nil {
			visit(&s.trouble.first)
			visit(&s.trouble.lastFail)
			visit(&s.trouble.lastRetry)
		}
		for i := range s.evidence {
			visit(&s.evidence[i].at)
		}
	}
	for _, f := range b.flows {
		if f == nil {
			continue
		}
		visit(&f.first)
		visit(&f.last)
		for _, s := range f.stages {
			stage(s)
		}
		if f.fallback != nil {
			for i := range f.fallback.evidence {
				visit(&f.fallback.evidence[i].at)
			}
		}
		for i := range f.events {
			visit(&f.events[i].at)
			visit(&f.events[i].last)
		}
		if st := f.startup; st != nil {
			visit(&st.created)
			visit(&st.observed)
			visit(&st.running)
			visit(&st.ev.at)
		}
		for _, c := range f.containers {
			for _, s := range c.stages {
				stage(s)
			}
			visit(&c.attemptAt)
			visit(&c.died)
			visit(&c.startedAt)
			visit(&c.troubleAt)
			visit(&c.plegAt)
			visit(&c.pullOpen)
			visit(&c.ran.from)
			visit(&c.ran.to)
			for i := range c.pulls {
				visit(&c.pulls[i].from)
				visit(&c.pulls[i].to)
			}
			for i := range c.present {
				visit(&c.present[i])
			}
		}
	}
}

// evidence returns w as public evidence at time t, its text left out
// when text is false.
func (b *Builder) evidence(w linepos.Where, t stamps.Stamp, text bool) Evidence {
	p := b.lines.Position(w)
	ev := Evidence{Input: p.Input, Line: p.Line, Offset: p.Offset, Length: p.Length, Time: b.stamps.Time(t)}
	if text {
		ev.Text = b.texts.Text(w.Text)
	}
	return ev
}
