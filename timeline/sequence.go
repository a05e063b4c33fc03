package timeline

import (
	"fmt"
	"time"

	"github.com/podflow/podflow/internal/stamps"
)

// Stage sequencing: judgeSeq turns raw stage states into stages one after
// another, each with its status (done, stalled, active, pending, unknown),
// and toStage makes a judged stage public. What judging reads of a stage's
// definition (title, -v, budget) it reads for every stage of every pod:
// made once per builder (stageDef).

// stageView is a stage being judged. Its times are stamps: judging
// compares them and makes the aggregate stages of them without converting
// and stamping anew, which would write to the builder (b.stamps.At).
type stageView struct {
	id         string
	st         *stageState
	start      stamps.Stamp
	end        stamps.Stamp
	status     Status
	implied    bool
	attempts   int
	reason     string
	evidence   []evidence
	timed      bool // shownStart, shownEnd and shownFor are made (times)
	shownStart time.Time
	shownEnd   time.Time
	shownFor   Duration // from shownStart to shownEnd when it is later
}

func (b *Builder) budget(id string) time.Duration {
	if d := b.stageDef(id); d != nil {
		return d.budget
	}
	return b.budgets[id]
}

// stageFacts is what judging reads of a stage's definition, made once
// per builder for the stages with a slot: judging asks for every stage of
// every pod.
type stageFacts struct {
	title  string
	minV   int
	budget time.Duration
}

// stageDef returns the facts of a stage with a slot (podSlot,
// containerSlot), nil for any other.
func (b *Builder) stageDef(id string) *stageFacts {
	if b.stageFacts == nil {
		b.stageFacts = &[podSlots + containerSlots]stageFacts{}
		for _, ids := range [][]string{PodStages, TerminationStages, ContainerStages} {
			for _, sid := range ids {
				k := stageIndex(sid)
				def, _ := b.p.StageDefByID(sid)
				b.stageFacts[k] = stageFacts{title: def.Title, minV: def.MinV, budget: b.budgets[sid]}
			}
		}
	}
	if k := stageIndex(id); k >= 0 {
		return &b.stageFacts[k]
	}
	return nil
}

// stageIndex is a stage's index in the facts: its pod slot, or after them
// its container slot; -1 when it has neither.
func stageIndex(id string) int {
	if k := podSlot(id); k >= 0 {
		return k
	}
	if k := containerSlot(id); k >= 0 {
		return podSlots + k
	}
	return -1
}

// quietAfterError is how long errors must have stopped before a stage whose
// completion the log's verbosity hides counts as possibly recovered: the
// kubelet re-reports a still-failing stage at every sync (10–20 s apart).
const quietAfterError = 30 * time.Second

// quietAfter is how long a stage's errors must have stopped before the
// log's end for it to count as possibly recovered: quietAfterError, or
// twice the interval at which the log showed them repeating when that is
// longer (the volume manager gives up on a mount only after its 2m wait,
// and a back-off grows to five minutes).
func (b *Builder) quietAfter(tr *trouble) time.Duration {
	q := quietAfterError
	if n := int64(tr.attempts) + int64(tr.retries); n > 1 && !tr.first.IsZero() {
		if every := b.stamps.Sub(b.stamps.Later(tr.lastFail, tr.lastRetry), tr.first) / time.Duration(n-1); 2*every > q {
			q = 2 * every
		}
	}
	return q
}

func (b *Builder) minV(id string) int {
	if d := b.stageDef(id); d != nil {
		return d.minV
	}
	if d, ok := b.p.StageDefByID(id); ok {
		return d.MinV
	}
	return 0
}

func (b *Builder) title(id string) string {
	if d := b.stageDef(id); d != nil {
		return d.title
	}
	if d, ok := b.p.StageDefByID(id); ok {
		return d.Title
	}
	return ""
}

func reasonOf(s *stageState) string {
	if s == nil {
		return ""
	}
	tr := s.report()
	if tr.rootReason != "" {
		return tr.rootReason
	}
	return tr.reason
}

// judgeSeq turns raw stage states into sequential stages: each starts no
// earlier than the previous one ended, so stages never overlap and the gaps
// between them are waiting time.
func (b *Builder) judgeSeq(js *judgeScratch, ids []string, states func(string) *stageState, logEnd time.Time, v int, prevEnd stamps.Stamp) []stageView {
	// From js.views, which judge empties for each flow: a slice handed out
	// keeps its array when a later one grows it.
	k := len(js.views)
	js.views = append(js.views, make([]stageView, len(ids))...)
	views := js.views[k:len(js.views):len(js.views)]
	// Index of the last stage with any progress: earlier stages without an
	// end are implied done.
	lastProgress := -1
	for i, id := range ids {
		views[i].id = id
		views[i].st = states(id)
		// A begin line alone proves nothing about earlier stages: the
		// kubelet logs "Creating container" before it pulls the image.
		if s := views[i].st; s != nil && (!s.complete.IsZero() || !s.report().lastFail.IsZero() || s.report().retries > 0) {
			lastProgress = i
		}
	}
	blocked := false // an earlier stage has not finished
	for i := range views {
		sv := &views[i]
		s := sv.st
		var tr trouble
		if s != nil {
			tr = s.report()
		}
		if blocked && s != nil && s.complete.IsZero() && tr.lastFail.IsZero() && tr.retries == 0 {
			sv.status = StatusPending
			if b.minV(sv.id) > v {
				sv.status = StatusUnknown
			}
			continue
		}
		if s != nil {
			sv.attempts = int(tr.attempts)
			sv.reason = reasonOf(s)
			sv.evidence = s.evidence
		}
		switch {
		case s != nil && !s.complete.IsZero():
			sv.status = StatusDone
			sv.start, sv.end = s.begin, s.complete
		case s != nil && s.began() && i < lastProgress && tr.lastFail.IsZero():
			sv.status, sv.implied = StatusDone, true
			sv.start = s.begin
		case s != nil && s.began():
			sv.start = s.begin
			switch {
			case !tr.lastFail.IsZero() && i < lastProgress:
				sv.status, sv.implied = StatusDone, true
			case (!tr.lastFail.IsZero() || tr.retries > 0) && b.minV(sv.id) > v && v >= 0 && logEnd.Sub(b.stamps.Time(b.stamps.Later(tr.lastFail, tr.lastRetry))) > b.quietAfter(&tr):
				// The log cannot show this stage completing, and its errors
				// stopped: it may have recovered. Not a stall.
				sv.status = StatusUnknown
			case !tr.lastFail.IsZero() || tr.retries > 0:
				sv.status = StatusStalled
			case b.budget(sv.id) > 0 && logEnd.Sub(b.stamps.Time(b.stamps.Later(sv.start, prevEnd))) > b.budget(sv.id):
				sv.status = StatusStalled
			default:
				sv.status = StatusActive
			}
		case i < lastProgress:
			if b.minV(sv.id) > v && v >= 0 {
				sv.status = StatusUnknown
			} else {
				sv.status, sv.implied = StatusDone, true
			}
		default:
			if b.minV(sv.id) > v {
				sv.status = StatusUnknown
			} else {
				sv.status = StatusPending
			}
		}
		if sv.status == StatusDone || sv.status == StatusStalled || sv.status == StatusActive {
			if sv.start.IsZero() || b.stamps.Before(sv.start, prevEnd) {
				sv.start = prevEnd
			}
		}
		if sv.status == StatusDone && !sv.end.IsZero() && b.stamps.Before(sv.end, sv.start) {
			sv.end = sv.start
		}
		if sv.status == StatusDone && !sv.end.IsZero() {
			prevEnd = sv.end
		}
		if sv.status == StatusStalled || sv.status == StatusActive || sv.status == StatusPending {
			blocked = true
		}
	}
	// Implied stages end where the next stage starts.
	for i := range views {
		sv := &views[i]
		if sv.status != StatusDone || !sv.end.IsZero() {
			continue
		}
		next := stamps.Stamp(0)
		for j := i + 1; j < len(views); j++ {
			if !views[j].start.IsZero() {
				next = views[j].start
				break
			}
		}
		if next.IsZero() {
			next = sv.start
		}
		if sv.start.IsZero() {
			sv.start = next
		}
		if b.stamps.Before(next, sv.start) {
			next = sv.start
		}
		sv.end = next
	}
	return views
}

// times is where a judged stage starts and ends: a stage not done runs to
// the log's end. Asked only once the view is judged, and made the first
// time (they are read twice: to count a flow's times, then to hand them
// out).
func (sv *stageView) times(b *Builder, logEnd time.Time) (start, end time.Time) {
	if sv.status != StatusDone && sv.status != StatusStalled && sv.status != StatusActive {
		return time.Time{}, time.Time{}
	}
	if !sv.timed {
		sv.timed, sv.shownStart, sv.shownEnd = true, b.stamps.Time(sv.start), logEnd
		if sv.status == StatusDone {
			sv.shownEnd = b.stamps.Time(sv.end)
			if !sv.start.IsZero() && !sv.end.IsZero() && b.stamps.After(sv.end, sv.start) {
				// As the times' Sub, on the stamps they are made from.
				sv.shownFor = Duration(b.stamps.Sub(sv.end, sv.start))
			}
		} else if !sv.shownStart.IsZero() && !logEnd.IsZero() && logEnd.After(sv.shownStart) {
			sv.shownFor = Duration(logEnd.Sub(sv.shownStart))
		}
	}
	return sv.shownStart, sv.shownEnd
}

// timeSlab hands out a flow's stage times from one allocation: a flow has
// some thirty of them, half of them the time just handed out (a stage ends
// when it starts, or starts when the one before ended), which it shares.
// Sized by a timeCount fed the same times in the same order.
type timeSlab []time.Time

func (ts *timeSlab) ptr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	if n := len(*ts); n > 0 && (*ts)[n-1] == t {
		return &(*ts)[n-1]
	}
	if len(*ts) == cap(*ts) {
		// Not reached when sized by timeCount; appending would move the
		// times already handed out.
		*ts = make([]time.Time, 0, 4)
	}
	*ts = append(*ts, t)
	return &(*ts)[len(*ts)-1]
}

// timeCount counts the times a timeSlab will hold for the views toStage
// is given, in that order.
type timeCount struct {
	n    int
	last time.Time
}

func (tc *timeCount) add(b *Builder, views []stageView, logEnd time.Time) {
	for i := range views {
		start, end := views[i].times(b, logEnd)
		if start.IsZero() && end.IsZero() {
			continue // toStage takes no time for it
		}
		for _, t := range [2]time.Time{start, end} {
			if !t.IsZero() && (tc.n == 0 || t != tc.last) {
				tc.n++
				tc.last = t
			}
		}
	}
}

// toStage makes a judged stage public; for a row (rows), without its
// title, evidence and reveal, which the verdict does not read.
func toStage(b *Builder, sv *stageView, logEnd time.Time, ts *timeSlab, rows bool) Stage {
	st := Stage{ID: sv.id, Status: sv.status, Attempts: sv.attempts, Reason: sv.reason}
	if !rows {
		st.Title, st.Evidence = b.title(sv.id), b.publicEvidence(sv.evidence)
	}
	if start, end := sv.times(b, logEnd); !start.IsZero() || !end.IsZero() {
		st.Start, st.End, st.Duration = ts.ptr(start), ts.ptr(end), sv.shownFor
	}
	if sv.status == StatusUnknown && !rows {
		st.Reveal = reveal(b.minV(sv.id))
	}
	if sv.status == StatusDone && sv.attempts == 0 && (sv.st == nil || sv.st.report().retries == 0) {
		st.Reason = ""
	}
	return st
}

var reveals = [...]string{"-v=0", "-v=1", "-v=2", "-v=3", "-v=4", "-v=5", "-v=6", "-v=7", "-v=8", "-v=9", "-v=10"}

// reveal names the kubelet -v that shows a stage.
func reveal(v int) string {
	if v >= 0 && v < len(reveals) {
		return reveals[v]
	}
	return fmt.Sprintf("-v=%d", v)
}
