package timeline

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// verdict sets a judged flow's start, end and duration, the last creation
// stage it completed (Stage) and its verdict: the first row below that
// holds, in order, then the overrides. Each row's verdict is one of the
// README's Verdicts table. "current" is the first creation stage
// (PodStages) neither done, skipped nor unknown.
//
//	when                                            verdict      stalled at
//	admitted has failed attempts and is not done    Rejected     admitted
//	(a termination stage counts unless the pod ended itself: never
//	  deleted, its phase Failed or Succeeded (endedItself); then the
//	  rows below and the phase override judge it)
//	a termination stage was seen, terminated done   Terminated   -
//	a termination stage was seen, otherwise         Terminating  the first termination stage neither done nor unknown
//	current is stalled (errors, or over budget)     Stalled      current (*)
//	current failed                                  Failed       current (*)
//	current is ready and the last done is running   Running      -
//	current is active or pending                    Incomplete   current, waited since it began
//	no current: every creation stage done, skipped  Running      -
//	  or unknown, and running or ready done
//	no current, and nothing shows the pod ran       Incomplete   the last unknown stage with errors (*)
//
//	override: the eviction manager evicted the pod   Failed      running, or the stage under way (eviction.go)
//	the node shutdown manager killed the pod: its reason, Terminated (nodeshutdown.go)
//	override: Running or Incomplete, and the phase the kubelet patched
//	  Succeeded                                     Completed
//	  Failed                                        Failed
//	  (Failed at init-containers or containers: the container that did
//	  not complete, containerStall)
//	override: Terminating, no deletion seen, the containers stopped and
//	  every exit 0 (ranToCompletion, termination.go) Completed
//	override: Running, and a regular container or a native sidecar
//	  backed off after it ran
//	  (CrashLoopBackOff)                            Failed       running, the container's started (crashReason)
//	  and Stalled at running or at a container's start that only backed
//	  off (no failed start: it ran), or Incomplete
//	  there (its back-offs stopped)                 Failed       as above
//	  unless the loop is over (crashRecovered: its last start ran
//	  CrashLoopReset with nothing failing): Running, the container's
//	  restarts and back-off its reason (recoveredCrashReason)
//	override: Incomplete and no creation stage done: stalled at nothing
//	then: failed probes shown (probes.go): a Running pod whose container a
//	  liveness or startup probe restarted names it, at started
//	then: a Running pod that names no container names one its status says
//	  restarted after a non-zero exit (OOMKilled, Error), at started
//	  (status.go)
//
// (*) in init-containers or containers, the container and its stage that
// did not complete (containerStall); for Incomplete, the one whose errors
// stopped. The flow's end, duration and waited are clock.go's.
func (b *Builder) verdict(f *flowState, fl *Flow, logEnd time.Time) {
	// Start and end.
	for _, st := range fl.Stages {
		if st.Start != nil && (fl.Start.IsZero() || st.Start.Before(fl.Start)) {
			fl.Start = *st.Start
		}
		if st.End != nil && st.End.After(fl.End) {
			fl.End = *st.End
		}
	}
	first, last := b.stamps.Time(f.first), b.stamps.Time(f.last)
	if fl.Start.IsZero() {
		fl.Start = first
	}
	if fl.End.IsZero() || last.After(fl.End) && fl.End.Before(first) {
		fl.End = last
	}
	// judge gives the stages in PodStages' order, then TerminationStages':
	// a stage is looked for first where that puts it (at).
	stageByID := func(id string, at int) *Stage {
		if at < len(fl.Stages) && fl.Stages[at].ID == id {
			return &fl.Stages[at]
		}
		for i := range fl.Stages {
			if fl.Stages[i].ID == id {
				return &fl.Stages[i]
			}
		}
		return nil
	}
	// Last completed creation stage, and the first that is not done.
	var current *Stage
	for k, id := range PodStages {
		st := stageByID(id, k)
		if st == nil {
			continue
		}
		switch st.Status {
		case StatusDone:
			fl.Stage = id
		case StatusSkipped, StatusUnknown:
		default:
			if current == nil {
				current = st
			}
		}
	}
	setStall := func(st *Stage) {
		fl.StalledAt = st.ID
		fl.Reason = st.Reason
		if st.Start != nil {
			fl.Waited = Duration(logEnd.Sub(*st.Start))
		}
		fl.Evidence = failEvidence(st.Evidence)
		if st.ID == StInitContainers || st.ID == StContainers {
			b.containerStall(fl, st.ID == StInitContainers)
		}
	}
	if adm := stageByID(StAdmitted, admittedAt); adm != nil && adm.Attempts > 0 && adm.Status != StatusDone {
		fl.Verdict = VerdictRejected
		fl.StalledAt = StAdmitted
		fl.Reason = b.rejectReason(f, adm.Reason)
		fl.Evidence = failEvidence(adm.Evidence)
	} else if term := stageByID(StTerminating, len(PodStages)); term != nil && !b.endedItself(f) {
		done := stageByID(StTerminated, len(PodStages)+len(TerminationStages)-1)
		if done != nil && done.Status == StatusDone {
			fl.Verdict = VerdictTerminated
			fl.Stage = StTerminated
		} else {
			fl.Verdict = VerdictTerminating
			for k, id := range TerminationStages {
				st := stageByID(id, len(PodStages)+k)
				if st.Status == StatusDone {
					fl.Stage = id
					continue
				}
				if st.Status == StatusUnknown {
					continue
				}
				fl.StalledAt = id
				fl.Reason = st.Reason
				if st.Start != nil {
					fl.Waited = Duration(logEnd.Sub(*st.Start))
				}
				fl.Evidence = failEvidence(st.Evidence)
				break
			}
		}
	} else if current != nil {
		switch current.Status {
		case StatusStalled:
			if f.node.kubeletLines == 0 && current.Attempts == 0 {
				// A runtime's log alone: the kubelet's markers that would
				// complete the stage are not in the input, so a budget run
				// out proves nothing (failures the runtime logged do).
				fl.Verdict = VerdictIncomplete
				fl.StalledAt = current.ID
				if current.Start != nil {
					fl.Waited = Duration(logEnd.Sub(*current.Start))
				}
				break
			}
			fl.Verdict = VerdictStalled
			setStall(current)
		case StatusFailed:
			fl.Verdict = VerdictFailed
			setStall(current)
		default:
			if current.ID == StReady && fl.Stage == StRunning {
				fl.Verdict = VerdictRunning
			} else {
				fl.Verdict = VerdictIncomplete
				fl.StalledAt = current.ID
				if current.Start != nil {
					fl.Waited = Duration(logEnd.Sub(*current.Start))
				}
			}
		}
	} else if ran(stageByID(StRunning, len(PodStages)-2), stageByID(StReady, len(PodStages)-1)) {
		fl.Verdict = VerdictRunning
	} else {
		// Every stage done, skipped or unknown, but nothing shows the pod
		// ran: an errors-only or grep-filtered log. No evidence is not
		// success; the last trouble it shows, whose errors stopped, is
		// where the pod was last seen.
		fl.Verdict = VerdictIncomplete
		for k := len(PodStages) - 1; k >= 0; k-- {
			if st := stageByID(PodStages[k], k); st != nil && st.Status == StatusUnknown && st.Reason != "" {
				fl.StalledAt, fl.Reason = st.ID, st.Reason
				fl.Evidence = failEvidence(st.Evidence)
				if st.ID == StInitContainers || st.ID == StContainers {
					b.containerStall(fl, st.ID == StInitContainers)
				}
				break
			}
		}
	}
	b.evictionVerdict(f, fl, logEnd) // an evicted pod is Failed, whatever its termination (eviction.go)
	if fl.Verdict == VerdictRunning || fl.Verdict == VerdictIncomplete {
		switch b.texts.Text(f.phase) {
		case "Succeeded":
			fl.Verdict = VerdictCompleted
		case "Failed":
			fl.Verdict = VerdictFailed
			if fl.Container == "" && (fl.StalledAt == StInitContainers || fl.StalledAt == StContainers) {
				// The container that ended it (restartPolicy Never: an init
				// container or a container that exited non-zero, not retried).
				b.containerStall(fl, fl.StalledAt == StInitContainers)
			}
		}
	}
	if fl.Verdict == VerdictTerminating && b.ranToCompletion(f, fl) {
		// (termination.go) Not a deletion under way: the pod's end.
		fl.Verdict, fl.StalledAt, fl.Reason, fl.Waited, fl.Evidence = VerdictCompleted, "", "", 0, nil
	}
	shutdownVerdict(f, fl) // a pod the node's shutdown killed says so (nodeshutdown.go)
	// Stalled, or Incomplete (its errors stopped), at a container's start
	// that, if it only backed off, ran.
	stalledStart := fl.Verdict == VerdictStalled && (fl.StalledAt == StRunning || fl.StalledAt == StContainers && fl.ContainerStage == CStStarted) ||
		fl.Verdict == VerdictIncomplete && fl.StalledAt == StContainers && fl.ContainerStage == CStStarted
	if fl.Verdict == VerdictRunning || stalledStart {
		// A container that crashes after it ran: the pod is failing. In a
		// log that shows only the back-offs (errors only, -v=0), the
		// CrashLoopBackOff is the proof that it ran: the kubelet backs off
		// restarting a container that exited (kuberuntime_manager.go
		// doBackOff), while one that never started failed its start
		// (RunContainerError, an attempt of its started stage).
		//
		// Unless the crash loop is over: the container's last start ran
		// the kubelet's reset period with nothing failing (crashRecovered).
		var over *Container
		for i := range fl.Containers {
			c := &fl.Containers[i]
			// A native sidecar (a restartable init container) that
			// crash-loops beside the running containers fails the pod by
			// the same rule as a regular container.
			if (c.Type == ContainerRegular || c.Sidecar) && c.BackOffs > 0 && (!stalledStart || ranThenCrashed(c) && (fl.Container == "" || fl.Container == c.Name)) {
				if b.crashRecovered(f, c.Name, logEnd) {
					if over == nil {
						over = c
					}
					continue
				}
				fl.Verdict = VerdictFailed
				// The pod got to running and does not stay there: that is
				// where it fails, since its container's first start.
				fl.StalledAt = StRunning
				fl.Container = c.Name
				fl.ContainerStage = CStStarted
				fl.Reason = crashReason(c)
				for _, st := range c.Stages {
					if st.ID == CStStarted {
						fl.Evidence = failEvidence(st.Evidence)
						if st.End != nil && logEnd.After(*st.End) {
							fl.Waited = Duration(logEnd.Sub(*st.End))
						}
					}
				}
				break
			}
		}
		if over != nil && fl.Verdict == VerdictRunning {
			fl.Container, fl.ContainerStage = over.Name, CStStarted
			fl.Reason = recoveredCrashReason(over)
		}
	}
	if fl.Verdict == VerdictIncomplete && fl.Stage == "" && len(fl.Stages) > 0 && fl.Reason == "" {
		fl.StalledAt = ""
	}
	b.probeVerdict(f, fl) // failed probes, in the containers and the reason (probes.go)
	restartVerdict(fl)    // a container restarted after a failed run (status.go)
	// End, Duration and Waited are settled once the flow is judged, by
	// the one definition every view reads (clock.go).
}

// endedItself reports whether a pod the kubelet tore down had ended by
// itself: nothing deleted it (no SyncLoop DELETE or REMOVE), and the
// kubelet's status gave it a terminal phase. With restartPolicy Never (or
// OnFailure and an exit 0) a pod whose containers, or an init container,
// exited is Failed or Succeeded (kubelet_pods.go getPhase), and the pod
// worker then terminates it ("Pod is terminal", SyncTerminatingPod): a
// cleanup after the pod's end, not a deletion that ended it.
func (b *Builder) endedItself(f *flowState) bool {
	if f.deleted {
		return false
	}
	phase := b.texts.Text(f.phase)
	return phase == "Failed" || phase == "Succeeded"
}

// ran reports whether the log shows the pod running: its running or
// ready stage done (PLEG's ContainerStarted, the kubelet's "Observed pod
// startup duration", a Ready condition), not merely unknown.
func ran(running, ready *Stage) bool {
	return running != nil && running.Status == StatusDone || ready != nil && ready.Status == StatusDone
}

// ranThenCrashed reports whether c's start shows no failure of its own,
// only back-offs: it started, exited, and is backing off.
func ranThenCrashed(c *Container) bool {
	for _, st := range c.Stages {
		if st.ID == CStStarted && st.Attempts > 0 && st.Status != StatusDone {
			return false
		}
	}
	return true
}

// crashRecovered reports whether the crash loop of the pod's container
// name is over, by the kubelet's own rule (CrashLoopReset): the log shows
// its latest start (a new ID's ContainerStarted, Started), nothing of it
// failing since (no exit, back-off, failed stage, kill or failing
// liveness or startup probe), and runs on past that start for longer
// than the kubelet's reset period. A container the log shows just
// started again in its loop has not recovered: its next exit may come.
func (b *Builder) crashRecovered(f *flowState, name string, logEnd time.Time) bool {
	for _, c := range f.containers {
		if b.texts.Text(c.name) != name {
			continue
		}
		if c.startedAt.IsZero() || !b.stamps.After(c.startedAt, b.stamps.Later(c.died, c.troubleAt)) {
			return false
		}
		return logEnd.Sub(b.stamps.Time(c.startedAt)) > CrashLoopReset
	}
	return false
}

// recoveredCrashReason is the reason of a pod running again after its
// container c's crash loop: how often it restarted, and why.
func recoveredCrashReason(c *Container) string {
	n := plural(c.Restarts, "restart")
	if c.Restarts == 0 {
		n = plural(c.BackOffs, "back-off")
	}
	why := crashReason(c)
	if !strings.Contains(why, "CrashLoopBackOff") {
		why = "CrashLoopBackOff: " + why
	}
	return "Running after " + n + " of container " + c.Name + ": " + why
}

// admittedAt is StAdmitted's place in PodStages.
var admittedAt = slices.Index(PodStages, StAdmitted)

func crashReason(c *Container) string {
	var parts []string
	for _, st := range c.Stages {
		if st.ID == CStStarted && st.Reason != "" {
			parts = append(parts, st.Reason)
		}
		if st.ID == CStCompleted && st.Reason != "" {
			parts = append(parts, st.Reason)
		}
	}
	r := strings.Join(parts, "; ")
	switch {
	case r != "":
	case c.BackOffs == 0 && c.Reason != "":
		// It ran once and was not restarted (restartPolicy Never): how
		// it ended (Error, OOMKilled), no back-off.
		r = c.Reason
	default:
		r = "CrashLoopBackOff"
	}
	if c.ExitCode != nil {
		r += fmt.Sprintf(" (last exit code %d)", *c.ExitCode)
	}
	return r
}

// containerStall finds the container and container stage inside an
// aggregate stage that did not complete.
func (b *Builder) containerStall(fl *Flow, init bool) {
	want := ContainerRegular
	if init {
		want = ContainerInit
	}
	for i := range fl.Containers {
		c := &fl.Containers[i]
		if c.Type != want {
			continue
		}
		for _, st := range c.Stages {
			if st.Status == StatusDone || st.Status == StatusSkipped || st.Status == StatusUnknown && (fl.Verdict != VerdictIncomplete || st.Reason == "") {
				continue
			}
			fl.Container = c.Name
			fl.ContainerStage = st.ID
			if st.Reason != "" {
				fl.Reason = st.Reason
			}
			if c.ExitCode != nil && *c.ExitCode != 0 && (st.ID == CStCompleted || st.ID == CStStarted) {
				fl.Reason = crashReason(c)
			}
			if st.ID == CStImage && c.Reason == "ImagePullBackOff" && !strings.Contains(fl.Reason, "ImagePullBackOff") {
				// Backing off after a failed pull: the state kubectl shows,
				// then the pull's own error.
				fl.Reason = "ImagePullBackOff: " + fl.Reason
			}
			if len(st.Evidence) > 0 {
				fl.Evidence = failEvidence(st.Evidence)
			}
			if st.Start != nil {
				fl.Waited = Duration(fl.End.Sub(*st.Start))
			}
			return
		}
	}
}

// failEvidence prefers the lines that carry an error.
func failEvidence(ev []Evidence) []Evidence {
	if len(ev) <= 3 {
		return ev
	}
	return append([]Evidence{ev[0]}, ev[len(ev)-2:]...)
}
