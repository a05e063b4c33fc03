package timeline

import (
	"slices"
	"time"

	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/internal/stamps"
)

// Judging one flow: judge orders its containers, sequences the pod's
// stages (sequence.go), the containers' and the aggregate stages made of
// them (init-containers, containers, running), and makes the public Flow;
// judgeRow ends it for a row (FinishRows). The verdict is verdict.go's,
// the diagnosis diagnose.go's.

// typeRank orders containers by type: init, regular, ephemeral.
func typeRank(typ string) int {
	switch typ {
	case ContainerRegular:
		return 1
	case ContainerEphemeral:
		return 2
	}
	return 0
}

// containerViews judges one container's stages.
func (b *Builder) containerViews(js *judgeScratch, c *containerState, logEnd time.Time, v int, after stamps.Stamp, sidecar bool) []stageView {
	ids := ContainerStages
	if c.kind != kindInit || sidecar {
		// A sidecar's start is its part of the init containers: it
		// never completes (its completed stage keeps its trouble only
		// when the line came before the log told it was one).
		ids = ContainerStages[:3]
	}
	return b.judgeSeq(js, ids, func(id string) *stageState { return c.stages.get(id) }, logEnd, v, after)
}

// isSidecar reports whether init container c is judged as a sidecar: a
// line said so, or the pod's regular containers began while c, started,
// runs on without having completed (the kubelet starts them only once
// every init container but the restartable ones has completed:
// kuberuntime_container.go computeInitContainerActions).
func (c *containerState) isSidecar(regularBegun bool) bool {
	if c.kind != kindInit {
		return false
	}
	if c.sidecar {
		return true
	}
	if !regularBegun || c.state != runRunning || c.hasExit {
		return false
	}
	st, done := c.stages.get(CStStarted), c.stages.get(CStCompleted)
	return st != nil && !st.complete.IsZero() && (done == nil || done.complete.IsZero())
}

// regularBegun reports whether a regular container of cs was created or
// started.
func (b *Builder) regularBegun(cs []*containerState) bool {
	for _, c := range cs {
		if c.kind != kindRegular {
			continue
		}
		for _, id := range [...]string{CStCreated, CStStarted} {
			if s := c.stages.get(id); s != nil && s.began() {
				return true
			}
		}
	}
	return false
}

// preStages are the pod's stages before its containers.
var preStages = []string{StObserved, StAdmitted, StSynced, StVolumes, StSandbox}

// aggStages are a flow's aggregate stages while it is judged.
type aggStages struct{ init, ctrs *stageState }

func (a *aggStages) set(id string, s *stageState) {
	if id == StInitContainers {
		a.init = s
	} else {
		a.ctrs = s
	}
}

// judgeScratch is judge's working memory, kept from flow to flow: what
// judge returns holds none of it. Each goroutine judging has its own.
type judgeScratch struct {
	views   []stageView
	cs      []*containerState
	cviews  [][]stageView
	group   []int
	agg     [3]stageState // the aggregate stages of the flow being judged: init-containers, containers, running
	row     rowScratch    // FinishRows' working memory for what a row does not keep
	trouble []Trouble     // the flow's trouble (trouble.go)
}

// rowScratch holds what judging a flow for a row (FinishRows) needs only
// until the verdict is reached: its stages, their times and the
// containers' detail, kept from flow to flow.
type rowScratch struct {
	stages []Stage
	times  []time.Time
	ctrs   []Container
	exits  []int
}

// judge judges one flow; for a row (rows), only as far as FinishRows
// says, the stages and containers it reads on the way held in scratch.
func (b *Builder) judge(js *judgeScratch, f *flowState, node string, rows bool) Flow {
	n := f.node
	v := n.verbosity()
	logEnd := b.inputEnd(n)
	fl := Flow{Pod: f.ref, Node: node, Source: b.texts.Text(f.source), Static: f.static, Mirror: f.mirror, Incarnation: f.incarnation, Phase: b.texts.Text(f.phase), Deleted: f.deleted}
	if !rows {
		fl.Sandboxes, fl.Events = runtimeid.Strings(f.sandboxes), b.events(f)
	}
	if fl.Pod.Name == "" {
		fl.Pod.Name = f.ref.UID
	}

	// Containers: init first, then regular, then ephemeral, each in the
	// order the log named them.
	// cs, the views and the lists below are in js.
	cs := append(js.cs[:0], f.containers...)
	js.cs = cs
	slices.SortStableFunc(cs, func(x, y *containerState) int { return typeRank(x.typ()) - typeRank(y.typ()) })
	js.views = js.views[:0]

	// Pod creation stages before the containers.
	pre := b.judgeSeq(js, preStages, func(id string) *stageState { return f.stages.get(id) }, logEnd, v, 0)
	// The aggregate stages come from the containers; running and ready after.
	sandboxEnd := stamps.Stamp(0)
	for _, sv := range pre {
		if sv.status == StatusDone {
			sandboxEnd = sv.end
		}
	}
	// agg holds the aggregate stages (init-containers, containers);
	// cviews[i] the stages of container cs[i].
	var agg aggStages
	cviews := js.cviews[:0]
	for range cs {
		cviews = append(cviews, nil)
	}
	js.cviews = cviews
	prevEnd := sandboxEnd
	for _, typ := range []string{ContainerInit, ContainerRegular} {
		id := StInitContainers
		if typ == ContainerRegular {
			id = StContainers
		}
		group := js.group[:0]
		for i, c := range cs {
			if c.typ() == typ {
				group = append(group, i)
			}
		}
		js.group = group
		if len(group) == 0 {
			continue
		}
		s := &js.agg[typeRank(typ)]
		*s = stageState{}
		regularBegun := typ == ContainerInit && b.regularBegun(cs)
		allDone := true
		var begin, groupEnd stamps.Stamp
		after := prevEnd
		for _, ci := range group {
			views := b.containerViews(js, cs[ci], logEnd, v, after, cs[ci].isSidecar(regularBegun))
			cviews[ci] = views
			for _, sv := range views {
				if !sv.start.IsZero() && (begin.IsZero() || b.stamps.Before(sv.start, begin)) {
					begin = sv.start
				}
				if sv.status != StatusDone && sv.status != StatusUnknown {
					allDone = false
				}
				if sv.status == StatusDone && b.stamps.After(sv.end, groupEnd) {
					groupEnd = sv.end
				}
				if sv.st != nil && sv.st.trouble != nil {
					st, agg := sv.st.trouble, s.mark()
					agg.note(b, st)
					agg.attempts.add(st.attempts)
					if !st.lastFail.IsZero() && b.stamps.After(st.lastFail, agg.lastFail) {
						agg.lastFail = st.lastFail
						agg.rootReason = reasonOf(sv.st)
					}
					if st.retries > 0 {
						agg.retries.add(st.retries)
						if agg.reason == "" || st.lastFail.IsZero() {
							agg.reason = st.reason
						}
					}
				}
			}
			if typ == ContainerInit && len(views) > 0 && views[len(views)-1].status == StatusDone {
				// Init containers run one after another.
				after = views[len(views)-1].end
			}
		}
		if allDone && groupEnd.IsZero() {
			// Only unknown stages: the log's verbosity hides this group,
			// and the errors it shows of it (its trouble) have stopped.
			if s.trouble != nil {
				agg.set(id, s)
			}
			continue
		}
		if allDone {
			s.complete = groupEnd
			if begin.IsZero() {
				begin = groupEnd
			}
			prevEnd = groupEnd
		}
		s.begin = begin
		agg.set(id, s)
	}
	// running: every regular container seen started by PLEG (or the
	// kubelet's own startup line).
	run := &js.agg[2]
	*run = stageState{}
	regular, plegged := 0, 0
	var plegAt stamps.Stamp
	for _, c := range cs {
		if c.kind != kindRegular {
			continue
		}
		regular++
		if c.plegStarted || c.starts > 0 && v < 2 {
			plegged++
			if b.stamps.After(c.plegAt, plegAt) {
				plegAt = c.plegAt
			}
			if st := c.stages.get(CStStarted); c.plegAt.IsZero() && st != nil && b.stamps.After(st.complete, plegAt) {
				plegAt = st.complete
			}
		}
	}
	if regular > 0 && plegged == regular && !plegAt.IsZero() {
		run.begin, run.complete = plegAt, plegAt
		if a := agg.ctrs; a != nil && !a.complete.IsZero() {
			run.begin = a.complete
		}
	}
	if rs := f.stages.get(StRunning); rs != nil && run.complete.IsZero() && len(rs.evidence) > 0 {
		// "Observed pod startup duration": the kubelet saw it running, at
		// its observedRunningTime (the line is written after the API
		// watch's lag, which is not the containers' time).
		t := rs.evidence[0].at
		if st := f.startup; st != nil && !st.running.IsZero() && b.stamps.Before(st.running, t) {
			t = st.running
		}
		run.begin, run.complete = t, t
		run.evidence = rs.evidence
	}
	if rs := f.stages.get(StRunning); rs != nil && run.evidence == nil {
		run.evidence = rs.evidence
	}
	for _, c := range cs {
		if c.kind == kindRegular {
			if st := c.stages.get(CStStarted); st != nil && st.report().retries > 0 {
				tr := run.mark()
				tr.note(b, st.trouble)
				tr.retries.add(st.trouble.retries)
				tr.reason = st.trouble.reason
			}
		}
	}
	if run.complete.IsZero() && run.begin.IsZero() {
		if a := agg.ctrs; a != nil && !a.complete.IsZero() && regular > 0 {
			run.begin = a.complete
		}
	}
	podStates := func(id string) *stageState {
		switch id {
		case StInitContainers:
			return agg.init
		case StContainers:
			return agg.ctrs
		case StRunning:
			if run.began() {
				return run
			}
			return nil
		}
		return f.stages.get(id)
	}
	all := b.judgeSeq(js, PodStages, podStates, logEnd, v, 0)
	// Stages that do not apply.
	hasInit := false
	for _, c := range cs {
		if c.kind == kindInit {
			hasInit = true
		}
	}
	// No init container seen is "skipped" only when the log could have
	// named one: container events are V3; below that, with no container
	// named at all, whether the pod has init containers is unknown.
	initHidden := false
	for i := range all {
		if all[i].id == StInitContainers && !hasInit && all[i].st == nil {
			switch {
			case v >= 3 || len(cs) > 0 || v < 0 && all[i].status != StatusUnknown:
				all[i].status = StatusSkipped
			default:
				all[i].status, initHidden = StatusUnknown, true
			}
			all[i].start, all[i].end = 0, 0
		}
	}
	var term []stageView
	if f.stages.get(StTerminating) != nil || f.stages.get(StStopped) != nil || f.stages.get(StTerminated) != nil {
		term = b.judgeSeq(js, TerminationStages, func(id string) *stageState { return f.stages.get(id) }, logEnd, v, 0)
	}
	// The stages, the containers and their times, each in one allocation
	// of the size it needs: the list holds them for every pod at once.
	var tc timeCount
	tc.add(b, all, logEnd)
	for _, views := range cviews {
		tc.add(b, views, logEnd)
	}
	tc.add(b, term, logEnd)
	if rows {
		return b.judgeRow(js, f, fl, all, cviews, term, tc.n, logEnd)
	}
	ts := make(timeSlab, 0, tc.n)
	fl.Stages = make([]Stage, 0, len(all)+len(term))
	for i := range all {
		st := toStage(b, &all[i], logEnd, &ts, false)
		if st.Status == StatusUnknown {
			if st.ID == StInitContainers && initHidden {
				st.Reveal = "-v=3"
			}
			fl.Hidden = append(fl.Hidden, st.ID+" ("+st.Reveal+")")
		}
		fl.Stages = append(fl.Stages, st)
	}
	fl.Containers = make([]Container, 0, len(cs))
	for ci, c := range cs {
		ct := Container{Name: b.texts.Text(c.name), Type: c.typ(), Image: b.texts.Text(c.image), IDs: runtimeid.Strings(c.ids), Restarts: c.restartCount, BackOffs: int(c.backOffs), PullBackOffs: int(c.pullBackOffs), ExitCode: c.exit(), State: c.state.String(), Reason: b.texts.Text(c.reason), Ready: c.ready}
		views := cviews[ci]
		// (An init container judged as a sidecar has no completed stage.)
		ct.Sidecar = c.kind == kindInit && len(views) == len(ContainerStages)-1
		ct.Stages = make([]Stage, 0, len(views))
		for i := range views {
			ct.Stages = append(ct.Stages, toStage(b, &views[i], logEnd, &ts, false))
		}
		fl.Containers = append(fl.Containers, ct)
	}
	for i := range term {
		fl.Stages = append(fl.Stages, toStage(b, &term[i], logEnd, &ts, false))
	}
	if f.startup != nil {
		fl.Startup = b.publicStartup(f, v)
	} else if st := ownStartup(fl.Stages); st != nil {
		// No kubelet figure: podflow's own, by the SLO's documented rule
		// (pulls and init containers left out).
		if d, ok := b.podflowSLO(f, st, sloTotals, v); ok {
			st.PodflowSLO = &d
		}
		fl.Startup = st
	}
	b.verdict(f, &fl, logEnd)
	js.trouble = b.troubles(js.trouble[:0], all, cs, cviews, logEnd)
	if len(js.trouble) > 0 {
		fl.Trouble = slices.Clone(js.trouble)
		stillFailing(&fl, fl.Trouble, logEnd)
	}
	troubleReason(&fl, fl.Trouble)
	troubleContainer(&fl, fl.Trouble)
	b.fallbackJudge(f, &fl, true)
	fl.Status = KubectlStatus(&fl)
	b.clock(&fl, logEnd) // the times every view shows (clock.go)
	fl.Diagnosis = diagnose(&fl)
	fl.WaitingOn = waitingOn(&fl, f.pullNote) // (waiting.go)
	return fl
}

// judgeRow ends judge for a row: the verdict reads the stages and the
// containers' stages, exit codes and back-offs, made here in scratch
// without their titles and evidence; the flow keeps none of them, only
// its containers' names, types and restarts. Hidden, the startup figures
// and the diagnosis are not made: the verdict does not read them.
func (b *Builder) judgeRow(js *judgeScratch, f *flowState, fl Flow, all []stageView, cviews [][]stageView, term []stageView, times int, logEnd time.Time) Flow {
	sc := &js.row
	cs := js.cs
	if cap(sc.times) < times {
		sc.times = make([]time.Time, 0, times)
	}
	ts := timeSlab(sc.times[:0])
	need := len(all) + len(term)
	for _, views := range cviews {
		need += len(views)
	}
	if cap(sc.stages) < need {
		sc.stages = make([]Stage, need)
	}
	stages := sc.stages[:need]
	fl.Stages = stages[: 0 : len(all)+len(term)]
	stages = stages[len(all)+len(term):]
	for i := range all {
		fl.Stages = append(fl.Stages, toStage(b, &all[i], logEnd, &ts, true))
	}
	if cap(sc.ctrs) < len(cs) {
		sc.ctrs = make([]Container, len(cs))
		sc.exits = make([]int, len(cs))
	}
	fl.Containers = sc.ctrs[:0]
	for ci, c := range cs {
		ct := Container{Name: b.texts.Text(c.name), Type: c.typ(), Restarts: c.restartCount, BackOffs: int(c.backOffs), Reason: b.texts.Text(c.reason), State: c.state.String(), Ready: c.ready}
		if c.hasExit {
			sc.exits[ci] = c.exitCode
			ct.ExitCode = &sc.exits[ci]
		}
		views := cviews[ci]
		ct.Sidecar = c.kind == kindInit && len(views) == len(ContainerStages)-1 // the verdict reads it (a sidecar's crash loop)
		ct.Stages = stages[:0:len(views)]
		stages = stages[len(views):]
		for i := range views {
			ct.Stages = append(ct.Stages, toStage(b, &views[i], logEnd, &ts, true))
		}
		fl.Containers = append(fl.Containers, ct)
	}
	for i := range term {
		fl.Stages = append(fl.Stages, toStage(b, &term[i], logEnd, &ts, true))
	}
	b.verdict(f, &fl, logEnd)
	if fl.Verdict == VerdictRunning && (fl.Reason == "" || fl.Container == "") || fl.Verdict == VerdictIncomplete && fl.Reason == "" && fl.Container == "" {
		js.trouble = b.troubles(js.trouble[:0], all, cs, cviews, logEnd)
		troubleReason(&fl, js.trouble)
		troubleContainer(&fl, js.trouble)
	}
	b.fallbackJudge(f, &fl, false)
	fl.Status = KubectlStatus(&fl) // before the containers' states are dropped
	b.clock(&fl, logEnd)           // the times every view shows (clock.go)
	ctrs := make([]Container, len(cs))
	for i, c := range cs {
		ctrs[i] = Container{Name: fl.Containers[i].Name, Type: fl.Containers[i].Type, Restarts: c.restartCount}
	}
	fl.Stages, fl.Containers, fl.Evidence = nil, ctrs, nil
	return fl
}
