package timeline

import (
	"hash/maphash"
	"strings"

	"github.com/podflow/podflow/internal/linepos"
	"github.com/podflow/podflow/internal/refcache"
	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/parser"
)

// The kubelet's event recorder reports what happens to a pod (Pulling,
// Pulled, Created, Started, BackOff, FailedMount, …) as "Event occurred"
// lines: at -v=3 the only word on image pulls, and for many failures the
// plainest. An event is matched by its reason (and message) rather than by
// the line's message, names its pod by the involved object and its
// container by the field path, and repeats word for word for every pod:
// what its words give is read once and kept (eventWords, eventMemo).

// maxEvents bounds the distinct events a pod keeps; a repeat only counts.
const maxEvents = 64

// eventRecord is the event record being read, with its reason and message
// and what its words give.
type eventRecord struct {
	rec             *parser.Record
	reason, message string
	words           *eventWords
	// fresh is the reports of its event the record adds (addEvent).
	fresh tally
}

// eventFields are the fields of an "Event occurred" record, the first of
// each as Record.Str finds it, read in one pass.
type eventFields struct {
	object                                *parser.Value
	kind, reason, message, typ, fieldPath string
}

func readEvent(rec *parser.Record) eventFields {
	var e eventFields
	var seen [5]bool
	for i := range rec.Fields {
		f := &rec.Fields[i]
		k := -1
		var dst *string
		switch f.Key {
		case "object":
			if e.object == nil {
				e.object = &f.Value
			}
			continue
		case "kind":
			k, dst = 0, &e.kind
		case "reason":
			k, dst = 1, &e.reason
		case "message":
			k, dst = 2, &e.message
		case "type":
			k, dst = 3, &e.typ
		case "fieldPath":
			k, dst = 4, &e.fieldPath
		default:
			continue
		}
		if !seen[k] {
			seen[k] = true
			*dst = valueText(&f.Value)
		}
	}
	return e
}

func (b *Builder) event(n *nodeState, rec *parser.Record) {
	e := readEvent(rec)
	// The event's evidence text is made of its reason and message: read
	// here already (the first field of each name, as Record.Str reads).
	b.eventRec = eventRecord{rec: rec, reason: e.reason, message: e.message}
	defer func() { b.eventRec = eventRecord{} }()
	if e.kind == "Node" {
		b.nodeEvent(n, rec, e.typ, e.reason, e.message) // nodes.go
		return
	}
	if e.kind != "" && e.kind != "Pod" || e.object == nil {
		return
	}
	// A pasted events table (kubectl describe, get events) is all some
	// threads show of a pod: its rows start the pod, as the kubelet's own
	// event lines, which follow the pod's ADD, need not.
	f, ok := b.eventFlow(n, e.object, rec.Format == parser.FormatEventTable)
	if !ok {
		return
	}
	if f == nil && b.refusal(e.reason, e.message) {
		f, _ = b.eventFlow(n, e.object, true) // admission.go
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	w := b.eventWordsOf(&e)
	b.eventRec.words = w
	reason, message := e.reason, e.message
	b.eventRec.fresh = b.addEvent(f, rec, w, e.typ, reason, message, e.fieldPath)
	// An event is a line of the pod's, whatever stage it moves: a pod
	// known from a pasted events table alone spans its rows.
	b.touch(f, rec)
	cname, ctyp, isC := w.cname.of(w.key), w.ctyp, w.isC
	var kc uint32
	var cok bool
	if isC {
		kc, cok = b.texts.LookupIn(&w.kc, cname)
	}
	if isC && (reason == "Pulling" || reason == "Pulled") {
		c := b.containerNamed(f, cname, ctyp, kc, cok)
		c.notePull(reason, w.alreadyPresent, b.stamps.At(rec.Time))
		if img := w.image.of(w.key); img != "" {
			n.notePulling(f, img, !c.pullOpen.IsZero())
		}
	}
	for _, mk := range w.markers {
		if mk.Container {
			var c *containerState
			if isC {
				c = b.containerNamed(f, cname, ctyp, kc, cok)
			} else if c = soleBackOff(f, reason); c == nil {
				continue
			}
			if mk.Stage == CStImage && c.image == 0 {
				b.texts.Set(&c.image, w.image.of(w.key)) // Pulling image "x"
				b.linkImage(n, f, c)
			}
			b.containerEffect(f, c, mk.Stage, mk.Effect, rec, message)
			if reason == "Created" && c.stages.get(CStCreated) != nil {
				b.applyEffect(c.stages.get(CStCreated), Complete, rec, "")
			}
			continue
		}
		b.stageEffect(f, mk.Stage, mk.Effect, rec, message)
	}
	if reason == "Killing" || reason == "Unhealthy" {
		b.eventTrouble(f, rec, w, message, cname, kc, cok)
	}
}

// eventTrouble marks a container's kill (Killing) or failing liveness or
// startup probe (Unhealthy) as its latest trouble: the container its
// field path or message names, else the pod's only one (the prober and
// kuberuntime record these against the container's reference); one the
// pod's other lines did not show is left alone. A readiness probe's
// failure restarts nothing.
func (b *Builder) eventTrouble(f *flowState, rec *parser.Record, w *eventWords, message, cname string, kc uint32, cok bool) {
	if strings.HasPrefix(message, "Readiness probe") {
		return
	}
	var c *containerState
	if !w.isC {
		c = f.soleContainer()
	}
	for _, x := range f.containers {
		if w.isC && b.texts.Is(x.name, cname, kc, cok) {
			c = x
		}
	}
	if c != nil {
		c.troubleAt = b.stamps.Later(b.stamps.At(rec.Time), c.troubleAt)
	}
}

// soleBackOff is the container a BackOff event that names none belongs
// to: the pod's only container. The kubelet records a back-off against
// the container's reference (kuberuntime_manager.go doBackOff); a pasted
// table prints no field path, and an older kubelet's message ends at
// "Back-off restarting failed container" (1.24 in k8s#110977; newer ones
// add the name), so only a pod of one container says whose.
func soleBackOff(f *flowState, reason string) *containerState {
	if reason != "BackOff" {
		return nil
	}
	return f.soleContainer()
}

// soleContainer is the pod's container when it has one, else nil.
func (f *flowState) soleContainer() *containerState {
	if len(f.containers) != 1 {
		return nil
	}
	return f.containers[0]
}

// eventWords is what an event's words (type, reason, message, field path)
// give, whatever its pod: the kubelet logs the same few dozen events, word
// for word, for every pod. A memo (eventMemo) keeps what was read of the
// last few hundred distinct ones, each entry compact and its words in one
// string: the memo is read at every event.
type eventWords struct {
	// key is the words one after another (eventKey): the type, reason
	// and message of lengths lt, lr and lm, then the field path.
	key        string
	lt, lr, lm uint32
	// The indexes of the words in b.texts, once interned; 0 until then.
	// An interned text keeps its index for good (words.Table.Is).
	kt, kr, km, kfp, kc uint32 // kc: the container's name
	// evText is the interned index of the event's evidence text (Event
	// <reason>: <message>, cut: composeEvidenceText for a record without an
	// error); 0 until interned.
	evText  uint32
	markers []*Marker // the matcher's, a copy; never nil in a full entry
	// The container the field path names (when isC) and the message's
	// first quoted text, as spans of key.
	cname, image   span32
	ctyp           string
	isC            bool
	alreadyPresent bool // a Pulled event that pulled nothing
}

// span32 is s[from:to] of a string s kept beside it.
type span32 struct{ from, to uint32 }

func (p span32) of(s string) string { return s[p.from:p.to] }

func (w *eventWords) message() string {
	return w.key[w.lt+w.lr : w.lt+w.lr+w.lm]
}

const (
	eventMemoSize = 1024
	maxEventKey   = 4 << 10 // longer words are read each time, not kept
)

// eventKey writes e's words one after another into b.evKey.
func (b *Builder) eventKey(e *eventFields) []byte {
	k := append(append(append(append(b.evKey[:0], e.typ...), e.reason...), e.message...), e.fieldPath...)
	if cap(k) <= maxEventKey {
		b.evKey = k
	}
	return k
}

// eventWordsOf returns what e's words give: from the memo when they were
// read before, else read now (and kept, unless b is the reference).
func (b *Builder) eventWordsOf(e *eventFields) *eventWords {
	k := b.eventKey(e)
	w := &b.eventScratch
	if !b.reference && len(k) <= maxEventKey {
		if b.eventMemo == nil {
			b.eventMemo = new([eventMemoSize]eventWords)
			b.eventSeed = maphash.MakeSeed()
		}
		// Two ways a set: the one not used last gives way to a new text.
		set := maphash.Bytes(b.eventSeed, k) & (eventMemoSize/2 - 1)
		mru := &b.eventMRU[set]
		for way := range uint8(2) {
			w = &b.eventMemo[2*set+uint64(way)]
			if w.key == string(k) && w.lt == uint32(len(e.typ)) && w.lr == uint32(len(e.reason)) && w.lm == uint32(len(e.message)) && w.markers != nil {
				*mru = way
				return w
			}
		}
		*mru ^= 1
		w = &b.eventMemo[2*set+uint64(*mru)]
	}
	*w = eventWords{key: string(k), lt: uint32(len(e.typ)), lr: uint32(len(e.reason)), lm: uint32(len(e.message))}
	w.markers = append(make([]*Marker, 0, 1), b.m.event(e.reason, e.message)...)
	at := w.lt + w.lr + w.lm // the field path's start
	if name, typ, ok := containerFromFieldPath(w.key[at:]); ok {
		// The name ends before the closing brace, the key's last byte.
		end := uint32(len(w.key) - 1)
		w.cname, w.ctyp, w.isC = span32{end - uint32(len(name)), end}, typ, true
	}
	msg := w.message()
	if !w.isC {
		// No field path (kubectl's tables print none): the kubelet's own
		// messages name the container (kuberuntime_container.go,
		// kubelet_pods.go, prober).
		if from, to, ok := containerInMessage(msg); ok {
			at := w.lt + w.lr
			w.cname, w.ctyp, w.isC = span32{at + uint32(from), at + uint32(to)}, "", true
		}
	}
	if from, to, ok := firstQuotedAt(msg); ok {
		at := w.lt + w.lr // the message's start
		w.image = span32{at + uint32(from), at + uint32(to)}
	}
	w.alreadyPresent = strings.Contains(msg, "already present")
	return w
}

// eventFlow is the flow of an event's involved object (resolve's), ok
// false when the object names no pod.
func (b *Builder) eventFlow(n *nodeState, object *parser.Value, create bool) (*flowState, bool) {
	vals := refcache.Key{object}
	cached := !b.reference && refcache.Cacheable(object)
	var slot *refcache.Entry[nodeState, flowState]
	if cached {
		var f *flowState
		if slot, f = b.flowCache.Get(n, keyEvent, &vals); f != nil {
			return f, true
		}
	}
	ref, ok := refFromValue(*object)
	if !ok {
		return nil, false
	}
	f := b.resolve(n, ref, true, "", create)
	if cached {
		b.remember(slot, n, keyEvent, &vals, f, ref, true, "")
	}
	return f, true
}

// event is an Event as the builder keeps it, in 48 bytes of Event's 200
// (linepos, stamps): its evidence is the line's position, at the event's
// own time; the text the Where keeps is the message.
type event struct {
	linepos.Where
	typ, reason, fieldPath uint32 // indexes in b.texts
	count                  tally
	at, last               stamps.Stamp
}

// addEvent keeps the event of record rec with the pod's events, and
// returns how many reports of it the record adds: a line, or a table's
// row with no count (a watch's, custom columns'), one; a row with a count
// (tableCount), the reports it gives beyond those of its event the pod
// has (the log's own lines of the event, an earlier table's row), which
// it counts again.
func (b *Builder) addEvent(f *flowState, rec *parser.Record, w *eventWords, typ, reason, message, fieldPath string) (fresh tally) {
	// Reasons, types and most messages are interned: their indexes, known
	// from the event's words, tell an event from the pod's others without
	// reading texts all over the heap.
	kr, rok := b.texts.LookupIn(&w.kr, reason)
	kt, tok := b.texts.LookupIn(&w.kt, typ)
	km, mok := b.texts.LookupIn(&w.km, message)
	for i := range f.events {
		e := &f.events[i]
		if b.texts.Is(e.reason, reason, kr, rok) && b.texts.Is(e.typ, typ, kt, tok) && b.texts.Is(e.Text, message, km, mok) {
			fresh = 1
			if n, ok := tableCount(rec); ok {
				fresh = max(n-e.count, 0)
			}
			e.count.add(fresh)
			e.last = b.stamps.At(rec.Time)
			return fresh
		}
	}
	fresh, _ = tableCount(rec)
	if len(f.events) >= maxEvents {
		return fresh
	}
	if len(f.events) == cap(f.events) {
		// A pod has some five to ten events: grown by half, not doubled,
		// they waste half as much.
		f.events = append(make([]event, 0, min(max(4, cap(f.events)*3/2), maxEvents)), f.events...)
	}
	if !rok {
		kr = b.texts.InternID(reason)
	}
	if !tok {
		kt = b.texts.InternID(typ)
	}
	if !mok {
		km = b.texts.InternID(message)
	}
	kfp, ok := b.texts.LookupIn(&w.kfp, fieldPath)
	if !ok {
		kfp = b.texts.InternID(fieldPath)
	}
	f.events = append(f.events, event{Where: b.lines.Where(&rec.Pos, km), typ: kt, reason: kr, fieldPath: kfp,
		at: b.stamps.At(rec.Time), count: fresh})
	return fresh
}

// events returns a flow's events in their public form.
func (b *Builder) events(f *flowState) []Event {
	if len(f.events) == 0 {
		return nil
	}
	out := make([]Event, len(f.events))
	for i, e := range f.events {
		ev := b.evidence(e.Where, e.at, false)
		out[i] = Event{Time: ev.Time, Type: b.texts.Text(e.typ), Reason: b.texts.Text(e.reason), Message: b.texts.Text(e.Text), FieldPath: b.texts.Text(e.fieldPath), Count: int(e.count), LastTime: b.stamps.Time(e.last),
			Evidence: ev}
	}
	return out
}

// legacyEventLine reads an event in its ≤1.18 printf form (legacyEvent,
// identity.go) as the "Event occurred" record it stands for.
func (b *Builder) legacyEventLine(n *nodeState, rec *parser.Record) {
	fields, ok := legacyEvent(rec.Msg)
	if !ok {
		return
	}
	r := *rec
	r.Msg, r.Fields = "Event occurred", fields
	b.event(n, &r)
}

// containerMessages are the event messages that name their container
// after a fixed start, in the kubelet's words across versions.
var containerMessages = []string{
	"Created container: ", "Created container ",
	"Started container: ", "Started container ",
	"Stopping container ", "Killing container with id ",
	"Back-off restarting failed container ",
	"Container ", // "Container x failed liveness probe, will be restarted", "Container x definition changed"
}

// containerInMessage finds the container an event's message names: the
// word after one of containerMessages, where the message has no field
// path to say it.
func containerInMessage(msg string) (from, to int, ok bool) {
	for _, p := range containerMessages {
		if !strings.HasPrefix(msg, p) {
			continue
		}
		from = len(p)
		to = from
		for to < len(msg) && msg[to] != ' ' && msg[to] != ',' && msg[to] != '"' {
			to++
		}
		if p == "Container " && !strings.HasPrefix(msg[to:], " failed ") && !strings.HasPrefix(msg[to:], " definition changed") {
			return 0, 0, false // "Container image … already present"
		}
		return from, to, to > from
	}
	return 0, 0, false
}
