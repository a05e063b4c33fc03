package timeline

import (
	"strings"

	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/parser"
)

// A pod goes away in three stages (TerminationStages): the kubelet hears
// of its deletion and begins to kill it (terminating), its containers stop
// (stopped), and the pod worker forgets it (terminated). Most of this is
// marker data in pipeline.go; what needs code is below. A flow that ended
// matters beyond its own verdict: the next pod of its name is a new
// incarnation, not more of the same (resolve, syncLoop).

// terminal reports whether a flow has ended, so a later pod of the same name
// is a new incarnation.
func (f *flowState) terminal() bool {
	s := f.stages.get(StTerminated)
	return s != nil && !s.complete.IsZero()
}

// syncLoopDelete reads SyncLoop DELETE for one pod: the API server set its
// deletion timestamp, and the kubelet begins to tear it down. A slice
// that begins there still places the pod in its termination.
func (b *Builder) syncLoopDelete(n *nodeState, rec *parser.Record, r PodRef) {
	if f := b.resolve(n, r, true, r.UID, true); f != nil {
		f.deleted = true
		b.stageEffect(f, StTerminating, Begin, rec, "")
	}
}

// syncLoopRemove reads SyncLoop REMOVE for one pod: its source no longer
// has it. For a static pod that is where termination starts, not ends.
func (b *Builder) syncLoopRemove(n *nodeState, rec *parser.Record, r PodRef, source string) {
	f := b.resolve(n, r, true, r.UID, true) // (a slice may begin there)
	if f == nil {
		return
	}
	f.deleted = true
	if source != "" && source != "api" {
		// A static pod's manifest was removed: that starts termination.
		b.stageEffect(f, StTerminating, Begin, rec, "")
		return
	}
	if f.static && f.stages.get(StStopped) == nil && f.stages.get(StTerminating) != nil {
		// The mirror pod's removal before the static pod stopped.
		b.stageEffect(f, StTerminating, Observe, rec, "")
		return
	}
	b.stageEffect(f, StTerminated, Complete, rec, "")
}

// killing reads kuberuntime's "Killing container with a grace period"
// (≤1.20 `Killing container "docker://<id>" with a 30 second grace
// period`) and the ≤1.20 pod killer's "Killing unwanted pod". The kill line
// is the same whatever the kill is for (kuberuntime_container.go
// killContainer): a pod's termination, its eviction, or one container's
// restart (a liveness or startup probe's failure, a changed spec: see
// computePodActions in kuberuntime_manager.go). Only a pod-level signal
// begins termination (SyncLoop DELETE and REMOVE, the pod worker's
// teardown, eviction, the pod killer, the status manager's deletion);
// a kill without one is the container's, which the kubelet then starts
// again under a new ID.
func (b *Builder) killing(n *nodeState, rec *parser.Record) {
	if name, ok := strings.CutPrefix(rec.Msg, "Killing unwanted pod "); ok {
		// kubelet_pods.go podKiller (≤1.20) names the running pod only.
		if f := b.flowByName(n, strings.Trim(name, "\" ")); f != nil {
			b.stageEffect(f, StTerminating, Begin, rec, "")
		}
		return
	}
	id := b.idPack.Pack(stripRuntime(killedID(rec)))
	f := b.flowFor(n, rec, false)
	if f == nil && len(id) > 0 {
		f = n.byID[runtimeid.Packed(id)]
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	var c *containerState
	if name := rec.Str("containerName"); name != "" {
		c = b.container(f, name, "")
	} else if len(id) > 0 {
		c = f.containerByID(id)
	}
	if c != nil {
		// The ID is the container's (PLEG may have taken it for the
		// sandbox: its first ContainerStarted of a pod usually is).
		f.bindID(c, id)
		c.state = runTerminating
		c.troubleAt = b.stamps.Later(b.stamps.At(rec.Time), c.troubleAt)
	}
	b.evictionKill(n, f, rec)
	if f.stages.get(StTerminating) != nil {
		b.stageEffect(f, StTerminating, Complete, rec, "")
		return
	}
	// The container's own kill: its next start is a restart, under an ID
	// the kubelet names only in PLEG (claimID).
	b.touch(f, rec)
	if c != nil {
		c.needsID = true
	}
}

// killedID is the runtime ID of the container a kill line names.
func killedID(rec *parser.Record) string {
	if id := rec.Str("containerID"); id != "" {
		return id
	}
	if rec.Structured() {
		return ""
	}
	// Killing container "docker://<id>" with a 30 second grace period;
	// older: Killing container with id docker://<id>:Need to kill Pod.
	msg := strings.TrimPrefix(rec.Msg, "Killing container ")
	if q, rest, ok := strings.Cut(msg, "\""); ok && q == "" {
		id, _, _ := strings.Cut(rest, "\"")
		return id
	}
	if rest, ok := strings.CutPrefix(msg, "with id "); ok {
		id, _, _ := strings.Cut(rest, ":Need")
		id, _, _ = strings.Cut(id, " ")
		return id
	}
	return ""
}

// flowByName finds the flow of a pod named without its namespace (the
// ≤1.20 pod killer's line): the only live one of that name on the node,
// else a new flow of that name.
func (b *Builder) flowByName(n *nodeState, name string) *flowState {
	if name == "" {
		return nil
	}
	var found *flowState
	for key, f := range n.byName {
		if key == name || strings.HasSuffix(key, "/"+name) {
			if found != nil && found != f {
				return nil // several namespaces: not for this line to say
			}
			found = f
		}
	}
	if found != nil && !found.terminal() {
		return found
	}
	return b.newFlow(n, PodRef{Name: name})
}

// orphanedText reports a line of the kubelet's housekeeping of a pod it no
// longer has (kubelet_volumes.go cleanupOrphanedPodDirs, kubelet_pods.go):
// `Orphaned pod "<uid>" found, …`, in its message or in the error it
// reports. The kubelet calls a pod orphaned once its pod manager has
// forgotten it (deleted, or gone while the kubelet was down) and its
// containers are stopped: only its directories remain to remove.
func orphanedText(rec *parser.Record) bool {
	return strings.Contains(rec.Msg, "rphaned pod") || rec.Err != "" && strings.Contains(rec.Err, "rphaned pod")
}

// terminationEvidence reads a line the kubelet writes only of a pod on
// its way out (a termination stage's row in classes.tsv, an orphaned
// pod's cleanup): the pod is going away, from this line if no earlier
// one said so, and an error of it is that stage's failed attempt (a
// volume directory it cannot remove keeps the pod from its end).
func (b *Builder) terminationEvidence(f *flowState, stage string, rec *parser.Record, failure bool) {
	if f.stages.get(StTerminating) == nil {
		b.stageEffect(f, StTerminating, Begin, rec, "")
	}
	if orphanedText(rec) {
		f.deleted = true // (its source no longer has it)
	}
	switch {
	case failure:
		b.stageEffect(f, stage, Fail, rec, "")
	case stage != StTerminating:
		b.stageEffect(f, stage, Observe, rec, "")
	}
}

// ranToCompletion reports a pod whose last lines show it ended by
// itself, with success: its containers stopped and the pod worker went on
// to its terminated sync (the stopped stage done), no deletion or
// eviction is seen, no phase was logged, and every exit the log shows is
// 0 (at least one). The kubelet then reports phase Succeeded (status
// getPhase: every container terminated with exit code 0), and the pod is
// Completed, not Terminating: a slice that begins at a Job pod's end
// still closes its flow.
func (b *Builder) ranToCompletion(f *flowState, fl *Flow) bool {
	if f.deleted || f.phase != 0 || f.exits != exitedZero {
		return false
	}
	if st := f.stages.get(StStopped); st == nil || st.complete.IsZero() {
		return false
	}
	for i := range fl.Containers {
		if c := &fl.Containers[i]; c.Type == ContainerRegular && (c.ExitCode == nil || *c.ExitCode != 0) {
			return false
		}
	}
	return !strings.HasPrefix(fl.Reason, "Evicted")
}

// resumed reads a creation stage's failure of a pod whose termination
// began under an earlier kubelet process than this line's: a kubelet that
// restarts (a node that went down while its shutdown manager killed the
// pod, k8s#110755) forgets the kills under way and, the API still having
// the pod, syncs it again as any pod it is given. That termination was
// not the pod's end: its stages are dropped, and the pod's last lines say
// where it is. The process changed at its last start, or where the PID
// changed when the earlier process left too few lines to count as a run
// (kubeletPID), unless PIDs come back in this log (they then tell no
// processes apart).
func (b *Builder) resumed(f *flowState, rec *parser.Record) {
	st := f.stages.get(StTerminating)
	n := f.node
	if st == nil || n == nil || f.deleted || st.begin.IsZero() {
		return
	}
	since := n.lastStart
	if !n.pidFlaky && n.pidSince.After(since) {
		since = n.pidSince
	}
	if since.IsZero() || rec.Time.Before(since) || !b.stamps.Time(st.begin).Before(since) {
		return
	}
	if done := f.stages.get(StTerminated); done != nil && !done.complete.IsZero() {
		return // it ended: a pod of its name now is another (resolve)
	}
	for _, id := range TerminationStages {
		f.stages.put(id, nil)
	}
	delete(n.shutdownKilled, f)
}
