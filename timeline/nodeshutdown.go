package timeline

import (
	"github.com/podflow/podflow/parser"
)

// Graceful node shutdown (pkg/kubelet/nodeshutdown): the kubelet holds a
// systemd inhibitor lock and, when logind says the node is shutting down
// ("Shutdown manager detected new shutdown event, isNodeShuttingDownNow"
// event=true; "… detected new shutdown event" event=shutdown, or
// "cancelled"; the node's Shutdown event "Shutdown manager detected
// shutdown event"), kills its pods group by group, by priority ("Shutdown
// manager killing pod with gracePeriod" pod= gracePeriod=, then "…
// finished killing pod" or "… failed killing pod"; "… pod killing time
// out" when a group outlives its grace period), and gives each the status
// reason Terminated, "Pod was terminated in response to imminent node
// shutdown." (nodeshutdown_manager.go nodeShutdownReason and
// nodeShutdownMessage; nodeshutdown_manager_linux.go). While it shuts down
// it refuses new pods (the NodeShutdown admission event, pipeline.go).
// The node gets a NodeShutdown finding; each pod killed, its termination.

// findingShutdown is the finding kind of a node shutting down.
const findingShutdown = "NodeShutdown"

// shutdownMessage is the status message the shutdown manager gives a pod
// it killed (reason Terminated), and shutdownReason the pod's reason.
const (
	shutdownMessage = "Pod was terminated in response to imminent node shutdown."
	shutdownReason  = "Terminated: " + shutdownMessage
)

// shutdownLine reads a node shutdown manager's line (SpecialShutdown).
func (b *Builder) shutdownLine(n *nodeState, rec *parser.Record, mk *Marker) {
	switch ev := rec.Str("event"); {
	case ev == "false" || ev == "cancelled":
		return // a shutdown called off: no finding begins
	case mk.Stage == "":
		b.shutdownFinding(n, rec, "")
		return
	}
	f := b.flowFor(n, rec, true)
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	b.shutdownFinding(n, rec, "")
	if n.shutdownKilled == nil {
		n.shutdownKilled = map[*flowState]bool{}
	}
	n.shutdownKilled[f] = true
	b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
}

// shutdownFinding notes the node's shutdown at rec, whose words are
// message when given (the node's event), else its own.
func (b *Builder) shutdownFinding(n *nodeState, rec *parser.Record, message string) {
	b.findingSaid(n, findingShutdown, rec, message)
}

// shutdownVerdict gives a pod the node shutdown manager killed the reason
// its status says, when its termination has no reason of its own.
func shutdownVerdict(f *flowState, fl *Flow) {
	if f.node == nil || !f.node.shutdownKilled[f] || fl.Reason != "" {
		return
	}
	switch fl.Verdict {
	case VerdictTerminated, VerdictTerminating, VerdictFailed: // Failed: the phase its status gave it
		fl.Reason = shutdownReason
	}
}

// shutdownStatus reads the status the shutdown manager gives a pod it
// killed, in the status manager's patch or a pasted describe: phase
// Failed, reason Terminated, its message. The node was shutting down.
func (b *Builder) shutdownStatus(f *flowState, rec *parser.Record) {
	n := f.node
	if n == nil {
		return
	}
	b.shutdownFinding(n, rec, "pod status: "+shutdownReason)
	if n.shutdownKilled == nil {
		n.shutdownKilled = map[*flowState]bool{}
	}
	n.shutdownKilled[f] = true
}
