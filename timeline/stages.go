package timeline

import (
	"math"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/parser"
)

// What a marker line does to its stage (pipeline.go's Effect): the step
// every subsystem's handler ends with. The kubelet's subsystems each log in
// their own words, but a stage records them all the same way, so judging
// (finish.go) reads one shape whatever wrote it.

type stageState struct {
	begin, complete stamps.Stamp
	trouble         *trouble // nil until an attempt fails or the kubelet backs off
	evidence        []evidence
}

// trouble is what a stage keeps of its failed attempts and retries: apart,
// as most stages have none.
type trouble struct {
	// first is the first failure or back-off, lastFail and lastRetry the
	// latest of each: how often the kubelet reports the stage's trouble
	// tells how long a silence means it is over (sequence.go).
	first, lastFail, lastRetry stamps.Stamp
	attempts, retries          tally
	reason, rootReason         string
	// firstReason is the first failure's or back-off's words: the
	// trouble as it began (Flow.Trouble).
	firstReason string
	// failOpen, retryOpen: a failure or back-off was counted from a line
	// of a sync (the runtime manager's, an event) that the sync's own
	// "Error syncing pod" has not yet closed (syncCloses).
	failOpen, retryOpen bool
}

// syncCloses reports whether rec is the pod worker's "Error syncing pod",
// which reports at the end of a sync (pod_workers.go) the failures its
// steps already logged: the runtime manager's lines and events come
// while SyncPod runs, seconds before it when it goes on with other
// containers, and are that one attempt.
func syncCloses(rec *parser.Record) bool {
	return strings.HasPrefix(rec.Msg, "Error syncing pod")
}

// countOnce decides whether a report found apart from the last (counted)
// is a new attempt or back-off: not when it is the sync error closing
// one the sync's own lines already counted (open).
func countOnce(counted bool, open *bool, rec *parser.Record) bool {
	if syncCloses(rec) {
		if *open {
			counted = false
		}
		*open = false
		return counted
	}
	if counted {
		*open = true
	}
	return counted
}

// report returns s's trouble to read: the zero trouble when it has none.
func (s *stageState) report() trouble {
	if s.trouble == nil {
		return trouble{}
	}
	return *s.trouble
}

// note widens an aggregate stage's trouble to the times of a container
// stage's: when its trouble began and was last reported.
func (tr *trouble) note(b *Builder, c *trouble) {
	if !c.first.IsZero() && (tr.first.IsZero() || b.stamps.Before(c.first, tr.first)) {
		tr.first = c.first
	}
	if b.stamps.After(c.lastRetry, tr.lastRetry) {
		tr.lastRetry = c.lastRetry
	}
}

// mark returns s's trouble to change.
func (s *stageState) mark() *trouble {
	if s.trouble == nil {
		s.trouble = &trouble{}
	}
	return s.trouble
}

func (s *stageState) began() bool { return !s.begin.IsZero() || !s.complete.IsZero() }

// tally is a count of failed attempts, retries or an event's repeats: 32
// bits, as a flow holds dozens of them, and kept from wrapping.
type tally int32

func (t *tally) inc() { t.add(1) }

func (t *tally) add(d tally) { *t = tally(min(int64(*t)+int64(d), math.MaxInt32)) }

func (f *flowState) stage(id string) *stageState {
	s := f.stages.get(id)
	if s == nil {
		s = &stageState{}
		f.stages.put(id, s)
	}
	return s
}

// touch widens the flow's span to the record's time.
func (b *Builder) touch(f *flowState, rec *parser.Record) {
	if rec.Time.IsZero() {
		return
	}
	b.stamps.Widen(&f.first, &f.last, b.stamps.At(rec.Time))
}

// maxEvidence is the lines a stage keeps: its first ones and its latest.
const maxEvidence = 6

func (b *Builder) addEvidence(s *stageState, ev evidence) {
	if len(s.evidence) < maxEvidence {
		s.evidence = append(s.evidence, ev)
		return
	}
	// Keep the first lines and the latest one.
	b.release(s.evidence[maxEvidence-1])
	s.evidence[maxEvidence-1] = ev
}

// sameReport is how close two lines reporting a stage's failure or
// back-off must be to be one report: in one sync the kubelet logs the
// runtime manager's error, the event and the pod worker's "Error syncing
// pod" within milliseconds; its next sync is seconds later.
const sameReport = 100 * time.Millisecond

// apart reports whether t and u are two reports, not one: further apart
// than sameReport either way (pasted logs are not always in order).
func (b *Builder) apart(t, u stamps.Stamp) bool {
	d := b.stamps.Sub(t, u)
	return d > sameReport || d < -sameReport
}

// applyEffect applies eff to s; counted reports whether a Fail or Retry
// was a new attempt or back-off (not another line of one already counted).
func (b *Builder) applyEffect(s *stageState, eff Effect, rec *parser.Record, reason string) (counted bool) {
	t := b.stamps.At(rec.Time)
	switch eff {
	case Begin:
		if s.begin.IsZero() {
			s.begin = t
			if s.evidence == nil {
				// A stage that begins nearly always completes: room for
				// both lines at once.
				s.evidence = make([]evidence, 0, 2)
			}
			b.addEvidence(s, b.stageEvidence(rec))
		}
	case Complete:
		if s.complete.IsZero() {
			s.complete = t
			if s.begin.IsZero() {
				s.begin = t
			}
			b.addEvidence(s, b.stageEvidence(rec))
		}
	case Fail, Retry:
		if s.begin.IsZero() || rec.Format == parser.FormatEventTable && b.stamps.Before(t, s.begin) {
			// (An events table's row may tell of an earlier failure than
			// the line that began the stage: describe prints a pod's
			// containers, with the state they wait in now, before its
			// events.)
			s.begin = t
		}
		if reason == "" {
			reason = rec.Err
			if reason == "" {
				if m := rec.Str("message"); m != "" {
					reason = m
				} else {
					reason = rec.Msg
				}
			}
		}
		reason = b.texts.Intern(reason)
		tr := s.mark()
		if tr.first.IsZero() || b.stamps.Before(t, tr.first) {
			tr.first = t
			tr.firstReason = reason
		} else if !b.apart(t, tr.first) && len(reason) < len(tr.firstReason) && !syncCloses(rec) {
			// Another line of the first report: its plainest words (the
			// event's, not the operation executor's with every ID), not
			// the sync error's, which wraps them.
			tr.firstReason = reason
		}
		if eff == Fail {
			// Several lines report one failure (the error line, the event and
			// the sync error); they count as one attempt.
			if counted = countOnce(tr.lastFail.IsZero() || b.apart(t, tr.lastFail), &tr.failOpen, rec); counted {
				tr.attempts.inc()
			}
			tr.lastFail = b.stamps.Later(t, tr.lastFail)
			switch {
			case tr.rootReason != "" && volumeWait(reason) && !volumeWait(tr.rootReason):
				// The volume manager's wait, timed out on the failures
				// already given (volumes.go): the root cause stays theirs.
			case counted || tr.rootReason == "" || !syncCloses(rec):
				tr.rootReason = reason
			default:
				// The sync error wraps the error its sync's own lines gave
				// (kuberuntime: "Failed to create sandbox for pod %q: %v"):
				// the root cause stays theirs.
				reason = tr.reason
			}
		} else {
			// And one back-off ("Container start failed in pod", the BackOff
			// event, "Error syncing pod" with ImagePullBackOff).
			if counted = countOnce(tr.lastRetry.IsZero() || b.apart(t, tr.lastRetry), &tr.retryOpen, rec); counted {
				tr.retries.inc()
			}
			tr.lastRetry = b.stamps.Later(t, tr.lastRetry)
		}
		tr.reason = reason
		if counted || len(s.evidence) < maxEvidence {
			// The other lines of a report counted are kept while there is
			// room; past it, only each report's first line replaces the
			// latest (a report's lines are seconds from the next report's).
			b.addEvidence(s, b.stageEvidence(rec))
		}
	case Observe:
		if len(s.evidence) == 0 {
			b.addEvidence(s, b.stageEvidence(rec))
		}
	}
	return counted
}

func (b *Builder) stageEffect(f *flowState, id string, eff Effect, rec *parser.Record, reason string) {
	b.touch(f, rec)
	b.applyEffect(f.stage(id), eff, rec, reason)
}
