package timeline

import (
	"sort"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/internal/textmemo"
	"github.com/podflow/podflow/parser"
)

// sloRule is how the kubelet that wrote the log leaves time out of
// podStartSLOduration; podflow follows the same rule so both figures compare.
type sloRule uint8

const (
	// sloPullSpan: E2E minus (lastFinishedPulling - firstStartedPulling),
	// the 1.26–1.33 tracker.
	sloPullSpan sloRule = iota
	// sloPullSpanInitSpan: also minus (lastInitContainerFinish -
	// firstInitContainerStart).
	sloPullSpanInitSpan
	// sloTotals: E2E minus totalImagesPullingTime (pull sessions, overlaps
	// counted once) minus totalInitContainerRuntime, the 1.34+ tracker.
	sloTotals
)

// sloRuleOf reads the rule from the keys the startup line carries.
func sloRuleOf(rec *parser.Record) sloRule {
	if _, ok := rec.Field("totalImagesPullingTime"); ok {
		return sloTotals
	}
	if _, ok := rec.Field("firstInitContainerStart"); ok {
		return sloPullSpanInitSpan
	}
	return sloPullSpan
}

// notePull records a pull from the Pulling and Pulled events. "Pulled" with
// "already present" is no pull at all.
func (c *containerState) notePull(reason string, alreadyPresent bool, t stamps.Stamp) {
	switch reason {
	case "Pulling":
		if c.pullOpen.IsZero() {
			c.pullOpen = t
		}
	case "Pulled":
		if alreadyPresent {
			if (len(c.pulls) > 0 || !c.pullOpen.IsZero()) && len(c.present) < maxPulls {
				c.present = append(c.present, t)
			}
			return
		}
		if c.pullOpen.IsZero() {
			return
		}
		if len(c.pulls) < maxPulls {
			c.pulls = append(c.pulls, stampSpan{c.pullOpen, t})
		}
		c.pullOpen = 0
	}
}

// maxPulls bounds the pulls kept per container: a pod restarting for days
// with imagePullPolicy Always pulls on every restart, and only the pulls
// before the pod first ran matter for the SLO.
const maxPulls = 16

// podflowSLO is podflow's own podStartSLOduration: its end-to-end figure
// minus the image pulls and init-container run time it saw, by the rule of
// the kubelet that wrote the log. None when podflow has no end-to-end
// figure or the log's verbosity v hides the pull events (V3) it needs.
func (b *Builder) podflowSLO(f *flowState, st *Startup, rule sloRule, v int) (Duration, bool) {
	if v < 3 || st == nil || st.PodflowE2E == nil || st.ObservedRunning == nil {
		return 0, false
	}
	until := b.stamps.Instant(*st.ObservedRunning)
	var pulls, inits []span
	for _, c := range f.containers {
		for _, p := range c.pulls {
			if from := b.stamps.InstantOf(p.from); from.Before(until) {
				pulls = append(pulls, span{from, earlierOf(b.stamps.InstantOf(p.to), until)})
			}
		}
		if c.kind != kindInit || c.sidecar {
			// A sidecar (restartable init container) runs beside the
			// containers: the kubelet counts none of its run time
			// (totalInitContainerRuntime="0s" in the 1.37 sidecar logs).
			continue
		}
		if !c.ran.from.IsZero() {
			if from := b.stamps.InstantOf(c.ran.from); from.Before(until) {
				inits = append(inits, span{from, earlierOf(b.stamps.InstantOf(c.ran.to), until)})
			}
			continue
		}
		started, done := c.stages.get(CStStarted), c.stages.get(CStCompleted)
		if started == nil || done == nil || started.complete.IsZero() || done.complete.IsZero() {
			continue
		}
		inits = append(inits, span{b.stamps.InstantOf(started.complete), earlierOf(b.stamps.InstantOf(done.complete), until)})
	}
	if rule != sloTotals && presentEndsPulls(f.node) && len(pulls) > 0 {
		// The 1.35.0-1.35.4 tracker: image_manager.go records a finished
		// pull on every "already present" check of a pod that pulled, so
		// lastFinishedPulling moves to a restart's check before the pod
		// was seen running (05's worker: 5 s of its crash loop left out).
		first := pulls[0].from
		for _, p := range pulls {
			first = earlierOf(first, p.from)
		}
		for _, c := range f.containers {
			for _, at := range c.present {
				if t := b.stamps.InstantOf(at); first.Before(t) && t.Before(until) {
					pulls = append(pulls, span{t, t})
				}
			}
		}
	}
	left := time.Duration(*st.PodflowE2E)
	switch rule {
	case sloTotals:
		left -= unionLength(pulls) + unionLength(inits)
	case sloPullSpanInitSpan:
		left -= extent(pulls) + extent(inits)
	default:
		left -= extent(pulls)
	}
	return Duration(left), true
}

// presentEndsPulls reports whether node's kubelet is a 1.35 one whose
// pull-span tracker (firstStartedPulling/lastFinishedPulling keys; from
// 1.35.8 and in 1.36+ it counts pull sessions and logs
// totalImagesPullingTime) also ends the span at "already present" checks.
func presentEndsPulls(n *nodeState) bool {
	return n != nil && (n.version == "v1.35" || strings.HasPrefix(n.version, "v1.35."))
}

func earlierOf(a, b stamps.Instant) stamps.Instant {
	if b.Before(a) {
		return b
	}
	return a
}

// extent is the time from the first span's start to the last span's end.
func extent(ss []span) time.Duration {
	if len(ss) == 0 {
		return 0
	}
	from, to := ss[0].from, ss[0].to
	for _, s := range ss[1:] {
		if s.from.Before(from) {
			from = s.from
		}
		if s.to.After(to) {
			to = s.to
		}
	}
	return to.Sub(from)
}

// unionLength is the time covered by at least one span.
func unionLength(ss []span) time.Duration {
	ss = append([]span(nil), ss...)
	sort.Slice(ss, func(i, j int) bool { return ss[i].from.Before(ss[j].from) })
	var total time.Duration
	var cur span
	for i, s := range ss {
		if i == 0 || s.from.After(cur.to) {
			if i > 0 {
				total += cur.to.Sub(cur.from)
			}
			cur = s
			continue
		}
		if s.to.After(cur.to) {
			cur.to = s.to
		}
	}
	if len(ss) > 0 {
		total += cur.to.Sub(cur.from)
	}
	return total
}

// initAction reads "Computing init container action": once the init
// container has exited, its status carries the runtime's start and finish
// times, to the nanosecond, where PLEG sees the exit up to a relist later.
func (b *Builder) initAction(f *flowState, rec *parser.Record) {
	b.touch(f, rec)
	name := rec.Str("container")
	st, ok := rec.Field("status")
	if name == "" || !ok {
		return
	}
	// The kubelet logs an init container's status at every sync, word
	// for word while it runs and once it has exited, until the pod's
	// containers start: read once.
	var ran ranStatus
	memo := !b.reference && st.Kind == parser.KindObject && st.Obj == nil && st.Str != ""
	var slot *textmemo.Slot[ranStatus]
	hit := false
	if memo {
		slot, ran, hit = b.ranMemo.Get(st.Str)
	}
	if !hit {
		ran = readRanStatus(st)
		if memo {
			b.ranMemo.Put(slot, st.Str, ran)
		}
	}
	if !ran.valid {
		return
	}
	started, finished := ran.started, ran.finished
	c := b.container(f, name, ContainerInit)
	c.ran = stampSpan{b.stamps.At(started), b.stamps.At(finished)}
	if !ran.exit0 {
		return
	}
	b.containerEffect(f, c, CStCompleted, Complete, rec, "")
	if s := c.stages.get(CStCompleted); b.stamps.Before(c.ran.to, s.complete) {
		s.complete = c.ran.to
		if b.stamps.Before(c.ran.to, s.begin) {
			s.begin = c.ran.to
		}
	}
}

// ranStatus is what initAction reads of an init container's status.
type ranStatus struct {
	started, finished time.Time
	valid             bool // exited, with times that make sense
	exit0             bool
}

func readRanStatus(st parser.Value) ranStatus {
	if st.Kind == parser.KindObject && st.Obj == nil {
		if state, ok := ranState(st.Str); ok && state != "exited" {
			return ranStatus{} // running or waiting: no times yet
		}
		if state, started, finished, exit, ok := ranPlain(st.Str); ok {
			return ranStatusOf(state, started, finished, func() string { return exit })
		}
	}
	get := func(k string) string {
		v, ok := st.Get(k)
		if !ok {
			return ""
		}
		return v.String()
	}
	return ranStatusOf(get("State"), get("StartedAt"), get("FinishedAt"), func() string { return get("ExitCode") })
}

// ranStatusOf is the ranStatus of a status's State, StartedAt, FinishedAt
// and ExitCode (read only when needed).
func ranStatusOf(state, startedAt, finishedAt string, exitCode func() string) ranStatus {
	if state != "exited" {
		return ranStatus{}
	}
	started, err1 := time.Parse(time.RFC3339Nano, startedAt)
	finished, err2 := time.Parse(time.RFC3339Nano, finishedAt)
	if err1 != nil || err2 != nil || finished.Before(started) || started.Year() < 2000 {
		return ranStatus{}
	}
	return ranStatus{started: started, finished: finished, valid: true, exit0: exitCode() == "0"}
}

// ranKeys are the first members of a container status as the kubelet
// writes it (kubecontainer.Status), up to ExitCode.
var ranKeys = [...]string{`{"ID":"`, `,"Name":"`, `,"State":"`, `,"CreatedAt":"`, `,"StartedAt":"`, `,"FinishedAt":"`}

// ranState reads the State of a container status kept as its text when
// its first members are the kubelet's, up to State, as ranPlain reads
// them: what Get("State") returns then, read before the rest.
func ranState(s string) (string, bool) {
	var v [3]string
	if _, ok := plainMembers(s, ranKeys[:3], v[:]); !ok {
		return "", false
	}
	return v[2], true
}

// ranPlain reads a container status kept as its text when its first
// members are the kubelet's, in its order, plain strings (plainMembers)
// and an integer ExitCode: in one pass what Get would return for State,
// StartedAt, FinishedAt and ExitCode, four walks of the text. ok is false
// for any other text.
func ranPlain(s string) (state, startedAt, finishedAt, exitCode string, ok bool) {
	var v [len(ranKeys)]string
	rest, ok := plainMembers(s, ranKeys[:], v[:])
	if !ok {
		return "", "", "", "", false
	}
	if rest, ok = strings.CutPrefix(rest, `,"ExitCode":`); !ok {
		return "", "", "", "", false
	}
	// An integer as written, ended by the next member or the object's end:
	// Get's text for it.
	n := 0
	if n < len(rest) && rest[n] == '-' {
		n++
	}
	digits := n
	for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
		n++
	}
	if n == digits || n == len(rest) || rest[n] != ',' && rest[n] != '}' {
		return "", "", "", "", false
	}
	return v[2], v[4], v[5], rest[:n], true
}

// ownStartup is podflow's startup figure for a pod that ran but whose
// kubelet logged no "Observed pod startup duration" (before 1.26, or the
// line fell outside the log): from the first stage to the end of running.
func ownStartup(stages []Stage) *Startup {
	var start, running *time.Time
	for i := range stages {
		st := &stages[i]
		if st.Start != nil && (start == nil || st.Start.Before(*start)) {
			start = st.Start
		}
		if st.ID == StRunning && st.Status == StatusDone && st.End != nil {
			running = st.End
		}
	}
	if start == nil || running == nil {
		return nil
	}
	e2e := Duration(running.Sub(*start))
	obs := *running
	return &Startup{PodflowE2E: &e2e, ObservedRunning: &obs}
}
