package timeline

import "github.com/podflow/podflow/parser"

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
// deletion timestamp, and the kubelet begins to tear it down.
func (b *Builder) syncLoopDelete(n *nodeState, rec *parser.Record, r PodRef) {
	if f := b.resolve(n, r, true, r.UID, false); f != nil {
		b.stageEffect(f, StTerminating, Begin, rec, "")
	}
}

// syncLoopRemove reads SyncLoop REMOVE for one pod: its source no longer
// has it. For a static pod that is where termination starts, not ends.
func (b *Builder) syncLoopRemove(n *nodeState, rec *parser.Record, r PodRef, source string) {
	f := b.resolve(n, r, true, r.UID, false)
	if f == nil {
		return
	}
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

// killingContainer marks the container a "Killing container" line names as
// terminating: its state until PLEG or a status patch says it stopped.
func (b *Builder) killingContainer(f *flowState, rec *parser.Record) {
	if name := rec.Str("containerName"); name != "" {
		c := b.container(f, name, "")
		c.state = runTerminating
	}
}
