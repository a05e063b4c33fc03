package parser

import (
	"bytes"
	"strconv"
)

// A log store's export of Kubernetes events may keep only each event's
// time and message ({"timestamp": …, "log": "Starting kubelet."}): text
// that is no log line, but the message of an event the kubelet records,
// which names its reason. Such a text is read as the kubelet's "Event
// occurred" record (FormatEventTable, as a pasted events table's row),
// at the export's time, with the reason, type and kind the kubelet
// records it with. Only the messages below, whole, are read so; other
// texts of an export that are no log line stay unread.
//
//   - "Starting kubelet." (kubelet.go: reason Starting, Normal, the node)
//   - "Shutdown manager detected shutdown event" and "… shutdown
//     cancellation" (nodeshutdown_manager_linux.go: reason Shutdown,
//     Normal, the node)
//   - "Node <name> status is now: <Event>" (kubelet_node_status.go
//     recordNodeStatusEvent: reason <Event>, Normal, the node <name>)
//   - "Predicate <Name> failed" (lifecycle/predicate.go: a pod rejected
//     at admission, reason <Name>, Warning; the pod is not named)

// kubeletEvent is what an event's message tells of it.
type kubeletEvent struct {
	reason, typ, kind string
	object            []byte // the node a node status event names
}

// kubeletEventOf reads text, the whole text of an export's record, as
// the message of an event the kubelet records.
func kubeletEventOf(text []byte) (kubeletEvent, bool) {
	if len(text) < 16 {
		return kubeletEvent{}, false
	}
	switch string(text) {
	case "Starting kubelet.":
		return kubeletEvent{reason: "Starting", typ: "Normal", kind: "Node"}, true
	case "Shutdown manager detected shutdown event", "Shutdown manager detected shutdown cancellation":
		return kubeletEvent{reason: "Shutdown", typ: "Normal", kind: "Node"}, true
	}
	if rest, ok := bytes.CutPrefix(text, []byte("Predicate ")); ok {
		if name, ok := bytes.CutSuffix(rest, []byte(" failed")); ok && eventWord(name) {
			return kubeletEvent{reason: string(name), typ: "Warning", kind: "Pod"}, true
		}
	}
	if rest, ok := bytes.CutPrefix(text, []byte("Node ")); ok {
		if node, ev, ok := bytes.Cut(rest, []byte(" status is now: ")); ok && len(node) > 0 && bytes.IndexByte(node, ' ') < 0 && eventWord(ev) {
			return kubeletEvent{reason: string(ev), typ: "Normal", kind: "Node", object: node}, true
		}
	}
	return kubeletEvent{}, false
}

// eventWord reports an event reason's shape: letters, 64 at most.
func eventWord(b []byte) bool {
	if len(b) == 0 || len(b) > 64 {
		return false
	}
	for _, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// decodeExportEvent makes the record of an export's text that is the
// message msg of an event the kubelet records (its time is the
// export's, set by flush).
func (r *Reader) decodeExportEvent(msg []byte, rec *Record) {
	ev, _ := kubeletEventOf(msg)
	rec.Format = FormatEventTable
	rec.Msg = "Event occurred"
	rec.Verbosity = -1
	rec.Severity = SeverityInfo
	if ev.typ == "Warning" {
		rec.Severity = SeverityWarning
	}
	str := func(k, v string) {
		rec.Fields = append(rec.Fields, Field{Key: k, Raw: strconv.Quote(v), Value: Value{Kind: KindString, Str: v}})
	}
	if len(ev.object) > 0 {
		str("object", string(ev.object))
	}
	str("kind", ev.kind)
	str("apiVersion", "v1")
	str("type", ev.typ)
	str("reason", ev.reason)
	str("message", string(msg))
}
