package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// Admission (kubelet.go HandlePodAdditions → canAdmitPod, with the
// handlers of lifecycle/predicate.go, the eviction manager, sysctls, the
// topology, CPU, memory and device managers, node shutdown): a refused pod
// never reaches the pod workers; the kubelet records a Warning event whose
// reason is the admit reason (OutOf<resource>, NodeAffinity,
// TopologyAffinityError, UnexpectedAdmissionError, SysctlForbidden, …) and
// sets the pod Failed with that reason and "Pod was rejected: <message>".
// The log shows it as the admit lines below, the event (pipeline.go's
// admission event rows) or the status. The pod is Rejected with its reason
// (verdict.go), and stays so when it is deleted after.

// admissionLine reads an admission line (SpecialAdmission).
func (b *Builder) admissionLine(n *nodeState, rec *parser.Record) {
	f := b.flowFor(n, rec, true)
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	if rec.Msg == "Pod Admit Result" {
		// The topology manager's result (topologymanager.go), logged for
		// every pod: a message only when it refuses.
		msg := rec.Str("Message")
		if msg == "" {
			b.stageEffect(f, StAdmitted, Complete, rec, "")
			return
		}
		b.reject(f, rec, "TopologyAffinityError", msg)
		return
	}
	reason, message := admitWords(rec)
	b.reject(f, rec, reason, message)
	b.unhealthyDevices(n, rec, message) // devicemanager.go
	// The eviction manager's admit handler refuses pods while the node is
	// under pressure: "node has conditions: [DiskPressure]".
	cond := rec.Str("nodeCondition")
	if cond == "" && strings.Contains(rec.Msg, "node has conditions") {
		cond = rec.Msg
	}
	for _, kind := range pressureKinds {
		if strings.Contains(cond, kind) {
			b.finding(n, kind, rec, rec.Msg+" "+cond, false)
		}
	}
}

// refusal reports whether an event of this reason and message is the
// kubelet's refusal of a pod (rejectPod's event, an admission row of
// pipeline.go): the pod it names is one the sync loop has just added, so
// the event starts it when the log begins after its ADD.
func (b *Builder) refusal(reason, message string) bool {
	for _, mk := range b.m.event(reason, message) {
		if mk.Stage == StAdmitted && mk.Effect == Fail {
			return true
		}
	}
	return false
}

// reject fails f's admission with "<reason>: <message>". A refusal after
// a handler's pass (the topology manager's result) is the verdict.
func (b *Builder) reject(f *flowState, rec *parser.Record, reason, message string) {
	text := message
	if reason != "" && !strings.HasPrefix(message, reason) {
		text = reason + ": " + message
	}
	s := f.stage(StAdmitted)
	s.complete = 0
	b.stageEffect(f, StAdmitted, Fail, rec, strings.TrimSuffix(text, ": "))
}

// admitWords reads an admission line's reason and message, in every
// kubelet's words: reason= and message= (1.29+), message= or err= (1.23–
// 1.28), "Failed to admit pod name_ns(uid) - <message>" and "Predicate
// failed on Pod: name_ns(uid), for reason: <message>" (≤1.20). Without a
// reason key the reason is the predicate's (predicate.go): "Predicate
// NodeAffinity failed" is NodeAffinity, "Node didn't have enough
// resource: cpu" is OutOfcpu.
func admitWords(rec *parser.Record) (reason, message string) {
	reason = rec.Str("reason")
	message = rec.Str("message")
	if message == "" {
		message = rec.Err
	}
	if message == "" {
		message = rec.Str("err")
	}
	if message == "" && !rec.Structured() {
		msg := rec.Msg
		for _, sep := range []string{", for reason: ", " - "} {
			if i := strings.Index(msg, sep); i >= 0 {
				message = msg[i+len(sep):]
				break
			}
		}
	}
	if reason == "" {
		reason = admitReason(message)
	}
	return reason, message
}

// admitReason is the admit reason a refusal's message gives, or "".
func admitReason(message string) string {
	if rest, ok := strings.CutPrefix(message, "Predicate "); ok {
		if name, _, ok := strings.Cut(rest, " failed"); ok && !strings.Contains(name, " ") {
			return name
		}
	}
	if rest, ok := strings.CutPrefix(message, "Node didn't have enough resource: "); ok {
		res, _, _ := strings.Cut(rest, ",")
		return "OutOf" + res
	}
	if strings.Contains(message, "node has conditions") || strings.HasPrefix(message, "The node had condition") {
		return "Evicted"
	}
	return ""
}

// rejectReason is a Rejected pod's reason: its admission stage's, with the
// admit reason in front when the stage has only the message (an event's:
// its reason is the admit reason).
func (b *Builder) rejectReason(f *flowState, reason string) string {
	for i := range f.events {
		e := &f.events[i]
		if b.texts.Text(e.Text) == reason && b.texts.Text(e.typ) == "Warning" {
			if r := b.texts.Text(e.reason); r != "" && !strings.HasPrefix(reason, r) {
				return r + ": " + reason
			}
			break
		}
	}
	if r := admitReason(reason); r != "" && !strings.HasPrefix(reason, r) {
		return r + ": " + reason
	}
	return reason
}
