package timeline

import (
	"strings"

	"github.com/podflow/podflow/internal/refcache"
	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/internal/statuspatch"
	"github.com/podflow/podflow/parser"
)

// The pod lifecycle event generator (pkg/kubelet/pleg) relists the runtime
// and tells the sync loop what changed: ContainerStarted, ContainerDied,
// with the pod's UID and the container's runtime ID, never its name. It is
// the kubelet's own proof that a container runs (the running stage) and
// that an init container exited. Its first ContainerStarted for a pod is
// usually the sandbox's, before any container: that is how a log at -v=2,
// without the sandbox lines, still shows the sandbox ready.

// pleg reads "SyncLoop (PLEG): event for pod".
func (b *Builder) pleg(n *nodeState, rec *parser.Record) {
	uid, typ, data := plegEvent(rec)
	if !looksLikeUID(uid) {
		uid = ""
	}
	f := b.plegFlow(n, rec, uid)
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	b.touch(f, rec)
	id := b.idPack.Pack(stripRuntime(data))
	switch typ {
	case "ContainerStarted":
		if f.isSandbox(id) {
			b.stageEffect(f, StSandbox, Complete, rec, "")
			return
		}
		sb := f.stages.get(StSandbox)
		anyContainer := false
		for _, c := range f.containers {
			if c.starts > 0 || c.stages.get(CStCreated) != nil && !c.stages.get(CStCreated).complete.IsZero() || c.stages.get(CStImage) != nil {
				// (The kubelet pulls a container's image only once its
				// sandbox is up: SyncPod makes the sandbox first. A pull
				// the slice shows failing dates the sandbox before it.)
				anyContainer = true
			}
		}
		if !anyContainer && !f.diedFirst && (sb == nil || sb.complete.IsZero() || len(f.sandboxes) == 0) {
			f.addSandbox(n, id)
			b.stageEffect(f, StSandbox, Complete, rec, "")
			return
		}
		c := f.containerByID(id)
		if c == nil {
			c = b.claimID(f, id)
		}
		if c == nil {
			if len(f.containers) == 0 && (!rec.Structured() || f.diedFirst) {
				b.unnamedStart(f, rec)
			}
			return
		}
		// The ID as the container keeps it (nearly always: it was found
		// or claimed by it): one copy for both, and none made here.
		var key runtimeid.Packed
		kept := false
		for _, cid := range c.ids {
			if cid == runtimeid.Packed(id) {
				key, kept = cid, true
			}
		}
		if !kept {
			key = runtimeid.Packed(id)
		}
		if n.byID[key] != f {
			// Set only when new: a container is seen started again and again.
			n.byID[key] = f
		}
		c.plegStarted = true
		at := b.stamps.At(rec.Time)
		if c.plegAt.IsZero() {
			c.plegAt = at
		}
		c.startedAt = b.stamps.Later(at, c.startedAt)
		if c.state != runTerminated {
			c.state = runRunning
		}
		b.containerEffect(f, c, CStStarted, Observe, rec, "")
	case "ContainerDied":
		if f.isSandbox(id) {
			return
		}
		c := f.containerByID(id)
		if c == nil {
			c = b.claimID(f, id)
		}
		if c == nil {
			if f.first == f.last && len(f.containers) == 0 && len(f.sandboxes) == 0 {
				// The pod's first line: something of it ran before the
				// log began, so the next start is a restart, not its
				// sandbox's first (a slice begun mid-life).
				f.diedFirst = true
			}
			return
		}
		c.state = runTerminated
		c.died = b.stamps.At(rec.Time)
		if c.kind == kindInit && c.hasExit && c.exitCode == 0 {
			b.containerEffect(f, c, CStCompleted, Complete, rec, "")
		} else if c.kind == kindInit && !c.hasExit {
			b.containerEffect(f, c, CStCompleted, Observe, rec, "")
		}
	}
}

// unnamedStart reads a ContainerStarted for a container no line names. A
// ≤1.20 kubelet (the printf form of the event) at -v=2 names none: PLEG's
// runtime IDs are all it tells of them, and it has no startup line
// ("Observed pod startup duration" is 1.26+). The pod runs from the last
// such start: the running stage's evidence, which judge reads when no
// container says.
func (b *Builder) unnamedStart(f *flowState, rec *parser.Record) {
	s := f.stage(StRunning)
	b.touch(f, rec)
	for _, ev := range s.evidence {
		b.release(ev)
	}
	s.evidence = append(s.evidence[:0], b.stageEvidence(rec))
}

// plegFlow is the flow of a PLEG event for pod UID uid (resolve's).
func (b *Builder) plegFlow(n *nodeState, rec *parser.Record, uid string) *flowState {
	pod, _, _ := podFields(rec)
	// A structured record's reference is its pod field's: with the UID, the key.
	uidVal := parser.Value{Kind: parser.KindString, Str: uid}
	vals := refcache.Key{pod, &uidVal}
	cached := !b.reference && rec.Structured() && refcache.Cacheable(pod)
	var slot *refcache.Entry[nodeState, flowState]
	if cached {
		var f *flowState
		if slot, f = b.flowCache.Get(n, keyPLEG, &vals); f != nil {
			return f
		}
	}
	ref, hasRef := refOf(rec, pod)
	f := b.resolve(n, ref, hasRef, uid, false)
	if cached {
		b.remember(slot, n, keyPLEG, &vals, f, ref, hasRef, uid)
	}
	return f
}

// plegEvent reads event={ID,Type,Data} in its JSON, %+v and %#v renderings.
func plegEvent(rec *parser.Record) (uid, typ, data string) {
	v, ok := rec.Field("event")
	if ok && v.Kind == parser.KindObject {
		if v.Obj == nil {
			if uid, typ, data, ok := plegPlain(v.Str); ok {
				return uid, typ, data
			}
		}
		id, _ := v.Get("ID")
		t, _ := v.Get("Type")
		d, _ := v.Get("Data")
		return id.String(), t.String(), d.String()
	}
	s := v.Str
	if !ok {
		s = rec.Msg
	}
	get := func(key string) string {
		i := strings.Index(s, key+":")
		if i < 0 {
			return ""
		}
		rest := strings.TrimLeft(s[i+len(key)+1:], "\"")
		j := strings.IndexAny(rest, "\" ,}")
		if j < 0 {
			return rest
		}
		return rest[:j]
	}
	return get("ID"), get("Type"), get("Data")
}

// plegPlain reads an event object kept as its text (Value.Obj nil) in the
// one form the kubelet writes, {"ID":"…","Type":"…","Data":"…"} with plain
// ASCII strings, in one pass: what Get would return for each key, three
// walks of the text. ok is false for any other text.
func plegPlain(s string) (uid, typ, data string, ok bool) {
	var v [3]string
	if rest, ok := plainMembers(s, plegKeys[:], v[:]); !ok || rest != "}" {
		return "", "", "", false
	}
	return v[0], v[1], v[2], true
}

var plegKeys = [...]string{`{"ID":"`, `,"Type":"`, `,"Data":"`}

// plainMembers reads the first members of an object's text when they are
// the keys given, in order, written as keys holds them (the first with
// the '{', each up to its value's opening quote), with plain string
// values (cutPlainString), into vals; rest is the text after them.
func plainMembers(s string, keys, vals []string) (rest string, ok bool) {
	rest = s
	for i, k := range keys {
		if rest, ok = strings.CutPrefix(rest, k); !ok {
			return "", false
		}
		if vals[i], rest, ok = statuspatch.CutPlainString(rest); !ok {
			return "", false
		}
	}
	return rest, true
}
