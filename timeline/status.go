package timeline

import (
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/internal/statuspatch"
	"github.com/podflow/podflow/parser"
)

// The status manager (pkg/kubelet/status) sends the API server the pod's
// status as a patch, and logs it: the one place the log says which runtime
// ID is which container, with exit codes, restart counts and readiness. The
// prober's results reach it too, and a readiness probe turned ready is seen
// in the sync loop's "SyncLoop (probe)" line. Beside it, the startup latency
// tracker's "Observed pod startup duration" gives the kubelet's own figures
// for the pod's start, set here beside podflow's (slo.go).

// probeSaysReady reports whether a ready-stage marker line counts: a
// "SyncLoop (probe)" line does only for a readiness probe turned ready (a
// liveness or startup probe, or a failing one, says nothing of readiness).
func probeSaysReady(rec *parser.Record) bool {
	if rec.Msg != "SyncLoop (probe)" {
		return true
	}
	return rec.Str("probe") == "readiness" && rec.Str("status") == "ready"
}

// statusPatch reads "Patch status for pod": container statuses map runtime
// IDs to names and give exit codes and restart counts; the Ready condition
// completes the ready stage.
func (b *Builder) statusPatch(f *flowState, rec *parser.Record) {
	b.touch(f, rec)
	if !b.patch.DecodeField(rec, "patch") {
		return
	}
	p := b.patch.Doc()
	if u := p.UID; u != "" && u != f.ref.UID && f.static && looksLikeUID(u) {
		// A static pod's status goes to its mirror pod, under the API's UID.
		u = strings.Clone(u)
		f.mirror = u
		b.indexUID(f.node, u, f)
	}
	if p.Phase != "" {
		b.texts.Set(&f.phase, p.Phase)
		if p.Phase == "Running" && rec.Format != parser.FormatDescribe && patchShowsRun(p) {
			// A slice whose lines of the pod are its status alone still
			// shows it running, from this line.
			b.stageEffect(f, StRunning, Observe, rec, "")
		}
	}
	switch {
	case p.Reason == "Evicted":
		b.evictedStatus(f, rec, p.Message) // eviction.go
	case p.Reason == "Terminated" && p.Message == shutdownMessage:
		b.shutdownStatus(f, rec) // nodeshutdown.go
	}
	described := rec.Format == parser.FormatDescribe
	for i := range p.Init {
		if c := b.applyCStatus(f, &p.Init[i], ContainerInit, rec); c != nil && described {
			b.describedStatus(f, c, &p.Init[i], rec)
		}
	}
	for i := range p.Ctrs {
		if c := b.applyCStatus(f, &p.Ctrs[i], ContainerRegular, rec); c != nil && described {
			b.describedStatus(f, c, &p.Ctrs[i], rec)
		}
	}
	for _, c := range p.Conds {
		if c.Type == "Ready" && c.Status == "True" {
			b.stageEffect(f, StReady, Complete, rec, "")
		}
	}
}

// patchShowsRun reports a status patch of phase Running that shows a
// container running: one of its statuses is, or it gives none (a patch
// holds what changed; the phase changes when a container first runs).
// The status manager's getPhase also says Running of a pod whose
// containers all wait to be started again (restartPolicy Always, a start
// failed: RunContainerError), so a patch that shows them all waiting or
// terminated proves no run.
func patchShowsRun(p *statuspatch.Doc) bool {
	if len(p.Ctrs) == 0 {
		return true
	}
	for i := range p.Ctrs {
		if p.Ctrs[i].Running {
			return true
		}
	}
	return false
}

func (b *Builder) applyCStatus(f *flowState, cs *statuspatch.Container, typ string, rec *parser.Record) *containerState {
	if cs.Name == "" {
		return nil
	}
	c := b.container(f, cs.Name, typ)
	if cs.Image != "" && c.image == 0 {
		b.texts.Set(&c.image, cs.Image)
		b.linkImage(f.node, f, c)
	}
	if cs.ContainerID != "" {
		f.bindID(c, b.idPack.Pack(stripRuntime(cs.ContainerID)))
	}
	if cs.HasRestartCount && cs.RestartCount > c.restartCount {
		c.restartCount = cs.RestartCount
	}
	if cs.HasReady {
		c.ready = cs.Ready
	}
	switch {
	case cs.Waiting:
		c.state = runWaiting
		if cs.WaitingReason != "" {
			b.texts.Set(&c.reason, cs.WaitingReason)
		}
	case cs.Running:
		c.state = runRunning
		b.texts.Set(&c.reason, "") // the waiting reason (PodInitializing, …) is over
		if typ == ContainerInit && cs.HasReady && cs.Ready {
			// An init container ready while it runs is a sidecar: the
			// kubelet sets a regular one ready only once it has exited 0
			// (prober/prober_manager.go UpdatePodStatus).
			c.sidecar = true
		}
	case cs.Terminated:
		c.state = runTerminated
		code := cs.ExitCode
		c.exitCode, c.hasExit = code, true
		b.texts.Set(&c.reason, cs.TerminatedReason)
		if typ == ContainerInit && code == 0 {
			b.containerEffect(f, c, CStCompleted, Complete, rec, "")
			// PLEG saw it exit before this patch said how: it completed then.
			if s := c.stages.get(CStCompleted); !c.died.IsZero() && b.stamps.Before(c.died, s.complete) && !b.stamps.Before(c.died, s.begin) {
				s.complete = c.died
			} else if !c.died.IsZero() && b.stamps.Before(c.died, s.complete) && b.stamps.Before(c.died, s.begin) {
				s.begin, s.complete = c.died, c.died
			}
		}
	}
	return c
}

// describedStatus reads a container's status that a pasted kubectl
// describe pod shows (parser.FormatDescribe, often all a thread shows of
// the pod) for what the kubelet's own lines say of the same state. A
// container waits with a reason other than ContainerCreating or
// PodInitializing because its last start failed with that error
// (kubelet.go: the reason cache keeps the last SyncPod's StartContainer
// error, which "Error syncing pod" reports): the stage that error moves
// there. A running container was created and started, and the kubelet
// saw it running (PLEG), at its startedAt, the record's time. How its run
// before ended (lastState) is its last exit, and, while it runs again,
// its reason. (A kubelet's own patch follows the lines that said all
// this already.)
func (b *Builder) describedStatus(f *flowState, c *containerState, cs *statuspatch.Container, rec *parser.Record) {
	if cs.LastTerminated && !cs.Terminated {
		c.exitCode, c.hasExit = cs.LastExitCode, true
		if cs.Running {
			b.texts.Set(&c.reason, cs.LastReason)
		}
	}
	switch {
	case cs.Waiting && cs.WaitingReason != "":
		for _, mk := range b.m.syncError(errWith + cs.WaitingReason) {
			if mk.Container {
				b.containerEffect(f, c, mk.Stage, mk.Effect, rec, cs.WaitingReason)
			}
		}
	case cs.Running:
		// Created and started, as one start: the Started event of the
		// same start, in the events table after, counts none more.
		b.touch(f, rec)
		for _, id := range [...]string{CStCreated, CStStarted} {
			s := c.stages.get(id)
			if s == nil {
				s = &stageState{}
				c.stages.put(id, s)
			}
			b.applyEffect(s, Complete, rec, "")
		}
		c.plegStarted = true
		if c.plegAt.IsZero() {
			c.plegAt = b.stamps.At(rec.Time)
		}
	}
}

// restartVerdict names, for a Running pod that names no container, a
// regular container that was restarted after a run that failed (its last
// exit code not 0: OOMKilled, Error), as a status tells (restartCount,
// lastState): the pod runs, its container does not stay up (k8s#98157,
// OOMKilled 21 times). A probe's restarts are named before
// (probeVerdict).
func restartVerdict(fl *Flow) {
	if fl.Verdict != VerdictRunning || fl.Container != "" {
		return
	}
	for i := range fl.Containers {
		c := &fl.Containers[i]
		if c.Type != ContainerRegular || c.Restarts == 0 || c.ExitCode == nil || *c.ExitCode == 0 {
			continue
		}
		fl.Container, fl.ContainerStage = c.Name, CStStarted
		if fl.Reason == "" {
			r := "last exit code " + strconv.Itoa(*c.ExitCode)
			if c.Reason != "" {
				r = c.Reason + " (" + r + ")"
			}
			fl.Reason = r + "; " + plural(c.Restarts, "restart")
		}
		return
	}
}

// startupState is a Startup as the builder keeps it, in 80 bytes of the
// some 220 of a Startup and what it points to: what the kubelet's startup
// line says, the rule it follows, podflow's end-to-end figure then.
type startupState struct {
	kubeletE2E, kubeletSLO, podflowE2E Duration // when has says
	created, observed                  stamps.Stamp
	// running is the kubelet's observedRunningTime: when it saw the pod
	// running, before the API watch's lag (0 when the line has none).
	running stamps.Stamp
	ev      evidence
	has     startupHas
	rule    sloRule
}

type startupHas uint8

const (
	hasKubeletE2E startupHas = 1 << iota
	hasKubeletSLO
	hasPodflowE2E
)

func (b *Builder) startup(f *flowState, rec *parser.Record) {
	b.touch(f, rec)
	st := f.startup
	if st == nil {
		st = &startupState{}
		f.startup = st
	} else {
		b.release(st.ev)
		*st = startupState{}
	}
	st.ev = b.stageEvidence(rec)
	if v, ok := rec.Field("podStartE2EDuration"); ok {
		if d, err := time.ParseDuration(v.String()); err == nil {
			st.kubeletE2E, st.has = Duration(d), st.has|hasKubeletE2E
		}
	}
	if v, ok := rec.Field("podStartSLOduration"); ok && v.Kind == parser.KindNumber {
		st.kubeletSLO, st.has = Duration(time.Duration(v.Num*float64(time.Second))), st.has|hasKubeletSLO
	}
	// podflow's own figure: from the pod's creation to the moment this line
	// shows the kubelet observed it running.
	var start time.Time
	if !f.addedBefore {
		start = b.stamps.Time(f.first)
	}
	if v, ok := rec.Field("podCreationTimestamp"); ok && v.Kind == parser.KindString {
		if t, ok := parseKubeTime(v.Str); ok && t.Before(rec.Time) {
			st.created = b.stamps.At(t)
			start = t
		}
	}
	// Times in one line when it has them (the tracker's
	// watchObservedRunningTime is what podStartE2EDuration ends at), else
	// the line's own.
	obs := rec.Time
	if t, ok := lineTime(rec, "watchObservedRunningTime"); ok {
		obs = t
	}
	st.observed = b.stamps.At(obs)
	if t, ok := lineTime(rec, "observedRunningTime"); ok {
		st.running = b.stamps.At(t)
	}
	if !start.IsZero() {
		st.podflowE2E, st.has = Duration(obs.Sub(start)), st.has|hasPodflowE2E
	}
	st.rule = sloRuleOf(rec)
	// The pod was observed running: at V0 this is the only proof.
	b.stageEffect(f, StRunning, Observe, rec, "")
}

// lineTime is the time in a startup line's field key.
func lineTime(rec *parser.Record, key string) (time.Time, bool) {
	if v, ok := rec.Field(key); ok && v.Kind == parser.KindString {
		if t, ok := parseKubeTime(v.Str); ok && t.Year() > 1 {
			return t, true
		}
	}
	return time.Time{}, false
}

func parseKubeTime(s string) (time.Time, bool) {
	if i := strings.Index(s, " m="); i >= 0 {
		s = s[:i]
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700 MST", "2006-01-02 15:04:05 -0700 MST", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// publicStartup returns the flow's startup figures in their public form,
// with podflow's SLO figure, in one allocation.
func (b *Builder) publicStartup(f *flowState, v int) *Startup {
	st := f.startup
	blk := &struct {
		Startup
		ke2e, kslo, pe2e, pslo Duration
		created, obs           time.Time
		ev                     Evidence
	}{ke2e: st.kubeletE2E, kslo: st.kubeletSLO, pe2e: st.podflowE2E, obs: b.stamps.Time(st.observed), ev: b.evidence(st.ev.Where, st.ev.at, true)}
	out := &blk.Startup
	out.ObservedRunning, out.Evidence = &blk.obs, &blk.ev
	if st.has&hasKubeletE2E != 0 {
		out.KubeletE2E = &blk.ke2e
	}
	if st.has&hasKubeletSLO != 0 {
		out.KubeletSLO = &blk.kslo
	}
	if st.has&hasPodflowE2E != 0 {
		out.PodflowE2E = &blk.pe2e
	}
	if !st.created.IsZero() {
		blk.created = b.stamps.Time(st.created)
		out.Created = &blk.created
	}
	if d, ok := b.podflowSLO(f, out, st.rule, v); ok {
		blk.pslo = d
		out.PodflowSLO = &blk.pslo
	}
	return out
}

// span is a stretch of time that podflowSLO (slo.go) measures.
type span struct{ from, to stamps.Instant }

// quotedFields are the record fields the engine reads in their escaped
// form: the status patch (statuspatch.Decoder.DecodeField). A field named
// here comes as parser.KindQuoted, whose Str is not its text: it must be
// read only through Record.Str, Value.Text or valueText, never through Str.
var quotedFields = []string{"patch"}

// QuotedFields names the record fields the Builder reads as the log
// writes them, escapes and all: readers that feed it save the work of
// unquoting them by naming them in parser.Options.Quoted.
func (b *Builder) QuotedFields() []string { return quotedFields }
