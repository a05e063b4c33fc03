package timeline

import (
	"sort"
	"strings"

	"github.com/podflow/podflow/internal/refcache"
	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/parser"
)

// The kubelet's pod manager (pkg/kubelet/pod) maps UIDs and full names to
// pods, and a static pod to its mirror pod. The builder does the same from
// the log: every line names its pod by some of name, namespace and UID, in
// one of several renderings (identity.go), and must land on one flow. A
// name seen again after its pod ended or began to go away is a new
// incarnation (a new UID, a replaced static pod); a static pod's mirror,
// under the API's UID, is the same pod. flowCache spares the repeated
// lookups.

// flowState is a pod as the builder keeps it while the log is read; judge
// (finish.go) turns it into a Flow.
type flowState struct {
	ref           PodRef
	node          *nodeState
	mirror        string
	incarnation   int
	stages        podStages
	containers    []*containerState
	sandboxes     []runtimeid.Packed
	events        []event
	startup       *startupState
	first, last   stamps.Stamp
	source, phase uint32 // indexes in b.texts
	static        bool
	deleted       bool           // SyncLoop DELETE, or REMOVE: the pod's deletion (termination.go)
	addedBefore   bool           // the sync loop added it before the log began (syncLoopUpdate): its first line is not its creation
	run           uint16         // the kubelet's run (nodeState.starts) when the sync loop added it
	exits         exitSeen       // the exit codes its containers' ends gave, named or not (containers.go finished)
	diedFirst     bool           // its first line is a PLEG ContainerDied: it ran before the log began (pleg.go)
	fallback      *fallbackState // lines only the fallback read (fallback.go); nil: none
	// pullNote is the runtime's latest word on how far a pull of the
	// pod's is (runtimePullProgress, images.go), for WaitingOn.
	pullNote *pullNote
}

func (b *Builder) newFlow(n *nodeState, ref PodRef) *flowState {
	if len(b.flows) >= b.opts.MaxFlows {
		b.capped = true
		b.dropped++
		return nil
	}
	ref = PodRef{Namespace: b.texts.Name(ref.Namespace), Name: strings.Clone(ref.Name), UID: strings.Clone(ref.UID)}
	f := &flowState{ref: ref, node: n}
	b.flows = append(b.flows, f)
	if ref.Name != "" {
		// (A pod known by its UID alone has no name to index, nor an
		// earlier incarnation of it: two such are two pods.)
		if prev := n.byName[ref.Key()]; prev != nil {
			f.incarnation = prev.incarnation + 1
			if prev.incarnation == 0 {
				prev.incarnation = 1
				f.incarnation = 2
			}
		}
		b.indexName(n, ref.Key(), f)
	}
	if ref.UID != "" {
		b.indexUID(n, ref.UID, f)
		if isStaticUID(ref.UID) {
			f.static = true
		}
	}
	return f
}

func (b *Builder) newFlowWithUID(n *nodeState, ref PodRef, uid string) *flowState {
	r := ref
	r.UID = uid
	return b.newFlow(n, r)
}

// flowFor finds (or, when create is set, starts) the flow a record is about.
func (b *Builder) flowFor(n *nodeState, rec *parser.Record, create bool) *flowState {
	pod, podUID, podID := podFields(rec)
	// A structured record's reference is read from these fields alone (a
	// printf one's may come from its message): their text is the key.
	class := byte(keyFlowFor)
	if create {
		class = keyFlowForCreate
	}
	vals := refcache.Key{pod, podUID, podID}
	cached := !b.reference && rec.Structured() && refcache.Cacheable(pod) && refcache.Cacheable(podUID) && refcache.Cacheable(podID)
	var slot *refcache.Entry[nodeState, flowState]
	if cached {
		var f *flowState
		if slot, f = b.flowCache.Get(n, class, &vals); f != nil {
			return f
		}
	}
	uid := uidOf(podUID, podID)
	ref, hasRef := refOf(rec, pod)
	if uid == "" && ref.UID != "" {
		uid = ref.UID
	}
	f := b.resolve(n, ref, hasRef, uid, create)
	if cached {
		b.remember(slot, n, class, &vals, f, ref, hasRef, uid)
	}
	if f == nil && !hasRef && uid == "" {
		f = b.partialPod(n, rec, pod, create)
	}
	return f
}

// partialPod finds the pod of a line that names it other than in whole:
// a pod field cut short, or a printf line's bare UID, name_ns, lone name,
// cut name, or only the runtime ID of one of its containers (≤1.20 kill
// lines), known from an earlier line.
func (b *Builder) partialPod(n *nodeState, rec *parser.Record, pod *parser.Value, create bool) *flowState {
	if pod != nil {
		// A pod field refFromValue refused: whole, it is no pod; its
		// closing quote missing, the line was cut in it.
		if cutField(rec, "pod") {
			if p, ok := partialFromText(strings.TrimPrefix(fieldRaw(rec, "pod"), `"`), false); ok {
				return b.resolvePartial(n, p, create)
			}
		}
		return nil
	}
	if rec.Structured() {
		return nil
	}
	if uid := uidAfterPod(rec.Msg); uid != "" {
		if f := n.byUID[uid]; f != nil {
			return f
		}
		// A pod named by its UID alone (pod_workers.go ≤1.20 "Error
		// syncing pod <uid>"), named by the first line that names it with
		// its UID (resolve).
		return b.newFlow(n, PodRef{UID: uid})
	}
	if p, ok := quotedPodRef(rec.Msg); ok {
		return b.resolvePartial(n, p, create)
	}
	if id := runtimeIDIn(rec.Msg); id != "" {
		return n.byID[runtimeid.Packed(b.idPack.Pack(id))]
	}
	return nil
}

// resolvePartial is the one known pod p fits, or none when several do; a
// whole name no known pod has starts a pod when create is set (its
// namespace, unknown or cut, is learnt from a later line: adoptName).
func (b *Builder) resolvePartial(n *nodeState, p partialRef, create bool) *flowState {
	var found *flowState
	for _, f := range n.byName {
		if f != found && p.fits(f.ref) {
			if found != nil {
				return nil
			}
			found = f
		}
	}
	if found == nil && create && p.nameCut && staticName(n, p.Name) {
		// A static pod's name is its manifest's name and the node's,
		// "<name>-<node>" (config/common.go generatePodName): cut where the
		// node's name ends, it is whole.
		p.nameCut = false
	}
	if found != nil || !create || p.nameCut {
		return found
	}
	r := p.PodRef
	if p.nsCut {
		r.Namespace = ""
	}
	f := b.newFlow(n, r)
	if f != nil && len(n.cutAdds) > 0 {
		b.takeCutAdd(n, f, p)
	}
	return f
}

// adoptName gives a pod known by its name alone (resolvePartial) the
// namespace a whole reference tells.
func (b *Builder) adoptName(n *nodeState, ref PodRef) *flowState {
	f := n.byName[ref.Name]
	if f == nil || f.ref.Namespace != "" || f.terminal() {
		return nil
	}
	f.ref.Namespace = b.texts.Name(ref.Namespace)
	b.indexName(n, f.ref.Key(), f)
	return f
}

func (b *Builder) resolve(n *nodeState, ref PodRef, hasRef bool, uid string, create bool) *flowState {
	if uid == "" {
		uid = ref.UID
	}
	if uid != "" {
		if f := n.byUID[uid]; f != nil {
			if hasRef && (f.ref.Name == "" || f.ref.Namespace == "" && ref.Namespace != "" && f.ref.Name == ref.Name) {
				// A pod known by its UID alone (or its name alone) is named
				// by the first line that tells.
				f.ref.Name, f.ref.Namespace = strings.Clone(ref.Name), b.texts.Name(ref.Namespace)
				if n.byName[f.ref.Key()] == nil {
					b.indexName(n, f.ref.Key(), f)
				}
			}
			return f
		}
	}
	if hasRef {
		f := n.byName[string(b.nameKey(ref))]
		if f == nil && ref.Namespace != "" {
			f = b.adoptName(n, ref)
		}
		switch {
		case f != nil && uid != "" && f.ref.UID == "":
			uid = strings.Clone(uid)
			f.ref.UID = uid
			b.indexUID(n, uid, f)
			if isStaticUID(uid) {
				f.static = true
			}
			return f
		case f != nil && uid != "" && f.ref.UID != uid:
			if f.static && !isStaticUID(uid) {
				// The mirror pod of a static pod: one pod.
				uid = strings.Clone(uid)
				f.mirror = uid
				b.indexUID(n, uid, f)
				return f
			}
			if !create && !f.terminal() && f.stages.get(StTerminating) == nil {
				// An unknown UID for a live pod of the same name: a new
				// incarnation only when the old one has begun to go away.
				return b.newFlowWithUID(n, ref, uid)
			}
			return b.newFlowWithUID(n, ref, uid)
		case f != nil:
			return f
		}
		if !create && uid == "" {
			return nil
		}
		r := ref
		r.UID = uid
		return b.newFlow(n, r)
	}
	return nil
}

// nameKey writes ref.Key() into b.keyBuf, valid until the next call: a
// lookup in byName by it, string(p), makes no copy.
func (b *Builder) nameKey(ref PodRef) []byte {
	p := b.keyBuf[:0]
	if ref.Namespace != "" {
		p = append(append(p, ref.Namespace...), '/')
	}
	p = append(p, ref.Name...)
	b.keyBuf = p
	return p
}

func recordUID(rec *parser.Record) string {
	_, podUID, podID := podFields(rec)
	return uidOf(podUID, podID)
}

func recordRef(rec *parser.Record) (PodRef, bool) {
	pod, _, _ := podFields(rec)
	return refOf(rec, pod)
}

// podFields returns the fields that name a record's pod, the first of each
// as Record.Field finds it, in one pass: nearly every record the engine
// reads looks them up.
func podFields(rec *parser.Record) (pod, podUID, podID *parser.Value) {
	for i := range rec.Fields {
		f := &rec.Fields[i]
		switch {
		case f.Key == "pod" && pod == nil:
			pod = &f.Value
		case f.Key == "podUID" && podUID == nil:
			podUID = &f.Value
		case f.Key == "podID" && podID == nil:
			podID = &f.Value
		}
	}
	return pod, podUID, podID
}

// uidOf is the pod UID that podUID, else podID, gives.
func uidOf(podUID, podID *parser.Value) string {
	for _, v := range [2]*parser.Value{podUID, podID} {
		if v == nil {
			continue
		}
		if u := valueText(v); looksLikeUID(u) {
			return u
		}
	}
	return ""
}

// refOf is the pod reference of a record whose pod field is pod (nil when
// it has none).
func refOf(rec *parser.Record, pod *parser.Value) (PodRef, bool) {
	if pod != nil && rec.Truncated && cutField(rec, "pod") {
		return PodRef{}, false // partialPod's
	}
	if pod != nil {
		if r, ok := refFromValue(*pod); ok {
			return r, true
		}
	}
	if !rec.Structured() {
		if refs := legacyRefs(rec.Msg); len(refs) > 0 && allSame(refs) {
			return refs[0], true
		}
	}
	return PodRef{}, false
}

// sortFlows orders flows by start time, then name. Flows are made as
// the log first names their pods, so they nearly always come in order
// already: a pass that finds them so spares the sort, which on thousands
// of flows moves big structs.
func sortFlows(items []Flow) {
	for i := 1; i < len(items); i++ {
		if flowBefore(&items[i], &items[i-1]) {
			sort.SliceStable(items, func(i, j int) bool { return flowBefore(&items[i], &items[j]) })
			return
		}
	}
}

// flowBefore is sortFlows' order: by start time, then Pod.Key, made only
// when the namespaces differ (with the same one, the names decide).
func flowBefore(x, y *Flow) bool {
	if !x.Start.Equal(y.Start) {
		return x.Start.Before(y.Start)
	}
	if x.Pod.Namespace == y.Pod.Namespace {
		return x.Pod.Name < y.Pod.Name
	}
	return x.Pod.Key() < y.Pod.Key()
}

// allSame reports whether refs are one pod named again and again (an
// error that quotes its pod inside the message that names it).
func allSame(refs []PodRef) bool {
	for _, r := range refs[1:] {
		if r != refs[0] {
			return false
		}
	}
	return true
}

// staticName reports whether a cut pod name ends in "-<node>", the node
// this log is of (its name or its hostname).
func staticName(n *nodeState, name string) bool {
	for _, node := range [2]string{n.name, n.hostname} {
		if len(node) > 0 && len(name) > len(node)+1 && strings.HasSuffix(name, node) && name[len(name)-len(node)-1] == '-' {
			return true
		}
	}
	return false
}

// cutField reports whether rec's field key is a quoted value the line
// lost the end of (its closing quote; parser.Record.Truncated marks such
// a record, a pager may add a '>').
func cutField(rec *parser.Record, key string) bool {
	raw := fieldRaw(rec, key)
	if len(raw) > 0 && raw[0] != '"' {
		// A bare value a pager cut ends in its mark (no name has '>').
		return strings.HasSuffix(raw, ">") || strings.HasSuffix(raw, "…")
	}
	return len(raw) > 0 && raw[0] == '"' && (len(raw) == 1 || raw[len(raw)-1] != '"')
}

// podNameLine reads a line that may name its pod by its name alone
// (SpecialPodName): the topology manager's "Topology Admit Handler"
// (podNamespace, podName, podUID: topology_manager.go 1.21–1.30), the DRA
// manager's "Processing resource" before 1.31 and the resize lines before
// 1.32 (pod=pod.Name, kubelet.go). A name with its namespace finds or
// starts its pod; a name alone, the one live pod of that name (flowByName).
func (b *Builder) podNameLine(n *nodeState, rec *parser.Record, mk *Marker) {
	f := b.flowFor(n, rec, true)
	if f == nil {
		name, ns := rec.Str("podName"), rec.Str("podNamespace")
		if name == "" {
			if v, ok := rec.Field("pod"); ok && (v.Kind == parser.KindString || v.Kind == parser.KindBare) && !strings.ContainsAny(v.Str, "/ ") {
				name = v.Str
			}
		}
		switch {
		case name != "" && ns != "":
			f = b.resolve(n, PodRef{Namespace: ns, Name: name}, true, recordUID(rec), true)
		case name != "":
			f = b.flowByName(n, name)
		}
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
}

// Key classes of b.flowCache (package internal/refcache): what was read
// to resolve a pod reference, and how.
const (
	keyFlowFor       = 'f' // flowFor, create false
	keyFlowForCreate = 'F' // flowFor, create true
	keyEvent         = 'e' // an event's involved object
	keyPLEG          = 'p' // a PLEG event's pod and UID
)

// The node's indexes an answer of b.flowCache is read from
// (refcache.DepOf): resolve is idempotent on the paths that return a flow,
// so its answer depends on one index entry, byUID[uid] when the flow is
// there, else (no UID) byName[key]; a write to that entry (indexUID,
// indexName) forgets it.
const (
	depUID  = 'u'
	depName = 'n'
)

// remember puts f, what resolve(n, ref, hasRef, uid, …) returned for the
// key (class, vals), in e when its answer is one index entry's.
func (b *Builder) remember(e *refcache.Entry[nodeState, flowState], n *nodeState, class byte, vals *refcache.Key, f *flowState, ref PodRef, hasRef bool, uid string) {
	switch {
	case f == nil:
		// Nothing resolved, or the flow cap dropped it: counted each time.
	case uid != "":
		if n.byUID[uid] == f {
			b.flowCache.Put(e, n, class, vals, f, refcache.DepOf(depUID, uid))
		}
	case hasRef:
		if n.byName[string(b.nameKey(ref))] == f {
			b.flowCache.Put(e, n, class, vals, f, refcache.DepOf(depName, ref.Key()))
		}
	}
}

// indexUID sets n.byUID[uid].
func (b *Builder) indexUID(n *nodeState, uid string, f *flowState) {
	n.byUID[uid] = f
	b.flowCache.Forget(refcache.DepOf(depUID, uid))
	if n.uidSeen != nil {
		b.uidBound(n, uid, f)
	}
}

// indexName sets n.byName[key].
func (b *Builder) indexName(n *nodeState, key string, f *flowState) {
	n.byName[key] = f
	if n.byShort != nil {
		n.indexShort(key, f)
	}
	b.flowCache.Forget(refcache.DepOf(depName, key))
}
