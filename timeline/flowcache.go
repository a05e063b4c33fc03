package timeline

import (
	"hash/maphash"

	"github.com/podflow/podflow/parser"
)

// flowCache remembers which flow the last few distinct pod references
// resolved to, keyed by the raw field text they were read from, so that a
// record about a pod seen a moment ago (two records in three on a busy
// node: pod workers log in bursts) skips parsing the reference and the
// lookups in the node's indexes, which with thousands of pods miss the
// processor's caches.
//
// resolve is idempotent on the paths that return a flow: called again with
// the same reference it returns the same flow and changes nothing more. Its
// answer then depends on one index entry: byUID[uid] when the flow is
// there, else (no UID) byName[key]. An entry remembers which (dep), and a
// write to that index entry (indexUID, indexName) forgets it.
type flowCache struct {
	seed maphash.Seed
	key  []byte // the key being looked up
	ents [flowCacheSize]flowCacheEntry
}

const flowCacheSize = 256 // direct-mapped: a node has some hundred pods live, a few dozen busy

type flowCacheEntry struct {
	n   *nodeState
	f   *flowState
	dep uint64 // depHash of the index entry the answer came from
	key []byte
}

// Key classes: what was read to resolve, and how.
const (
	keyFlowFor       = 'f' // flowFor, create false
	keyFlowForCreate = 'F' // flowFor, create true
	keyEvent         = 'e' // an event's involved object
)

// begin starts a key of class c.
func (c *flowCache) begin(class byte) {
	c.key = append(c.key[:0], class)
}

// value adds a field's value to the key; false when the value's reading
// depends on more than its kind and text (a list, an object decoded at
// once), which no key can stand for.
func (c *flowCache) value(v *parser.Value) bool {
	if v == nil {
		c.key = append(c.key, 0)
		return true
	}
	switch {
	case v.Kind == parser.KindString, v.Kind == parser.KindBare:
	case v.Kind == parser.KindObject && v.Obj == nil && v.Str != "":
		// Decoded on demand from its text: the text decides.
	default:
		return false
	}
	n := len(v.Str)
	c.key = append(c.key, 1+byte(v.Kind), byte(n), byte(n>>8), byte(n>>16), byte(n>>24), byte(n>>32), byte(n>>40), byte(n>>48), byte(n>>56))
	c.key = append(c.key, v.Str...)
	return true
}

func (c *flowCache) init() {
	if c.seed == (maphash.Seed{}) {
		c.seed = maphash.MakeSeed()
	}
}

// get returns the key's entry and the flow it resolved to on node n, if
// remembered.
func (c *flowCache) get(n *nodeState) (*flowCacheEntry, *flowState) {
	c.init()
	e := &c.ents[maphash.Bytes(c.seed, c.key)&(flowCacheSize-1)]
	if e.f != nil && e.n == n && string(e.key) == string(c.key) {
		return e, e.f
	}
	return e, nil
}

// Index entries an answer can depend on, hashed (depHash).
const (
	depUID  = 'u'
	depName = 'n'
)

// depHash names an index entry: a collision only forgets more.
func (c *flowCache) depHash(kind byte, s string) uint64 {
	c.init()
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteByte(kind)
	h.WriteString(s)
	return h.Sum64()
}

// put remembers in e (the entry get returned) that the key resolved to f,
// read from index entry dep.
func (c *flowCache) put(e *flowCacheEntry, n *nodeState, f *flowState, dep uint64) {
	e.n, e.f, e.dep = n, f, dep
	e.key = append(e.key[:0], c.key...)
}

// forget drops the answers read from index entry dep.
func (c *flowCache) forget(dep uint64) {
	for i := range c.ents {
		if e := &c.ents[i]; e.f != nil && e.dep == dep {
			e.f, e.n = nil, nil
		}
	}
}

// reset forgets everything (the end of the build: flows are freed).
func (c *flowCache) reset() {
	for i := range c.ents {
		c.ents[i] = flowCacheEntry{}
	}
}

// remember puts f, what resolve(n, ref, hasRef, uid, …) returned, in e when
// its answer is one index entry's.
func (b *Builder) remember(e *flowCacheEntry, n *nodeState, f *flowState, ref PodRef, hasRef bool, uid string) {
	c := &b.flowCache
	switch {
	case f == nil:
		// Nothing resolved, or the flow cap dropped it: counted each time.
	case uid != "":
		if n.byUID[uid] == f {
			c.put(e, n, f, c.depHash(depUID, uid))
		}
	case hasRef:
		if k := ref.Key(); n.byName[k] == f {
			c.put(e, n, f, c.depHash(depName, k))
		}
	}
}

// indexUID sets n.byUID[uid].
func (b *Builder) indexUID(n *nodeState, uid string, f *flowState) {
	n.byUID[uid] = f
	b.flowCache.forget(b.flowCache.depHash(depUID, uid))
}

// indexName sets n.byName[key].
func (b *Builder) indexName(n *nodeState, key string, f *flowState) {
	n.byName[key] = f
	b.flowCache.forget(b.flowCache.depHash(depName, key))
}

// textMemo remembers what was read of the last few distinct texts (a JSON
// value the kubelet logs again and again word for word), in a
// direct-mapped table of copies: a text is read again only when another
// took its slot.
type textMemo[T any] struct {
	seed maphash.Seed
	ents [textMemoSize]memoEntry[T]
}

const (
	textMemoSize = 64
	maxMemoText  = 4 << 10 // longer texts are read each time, not copied
)

type memoEntry[T any] struct {
	key  []byte
	full bool
	val  T
}

// get returns s's slot and, when hit, what was read of s.
func (m *textMemo[T]) get(s string) (slot *memoEntry[T], val T, hit bool) {
	if m.seed == (maphash.Seed{}) {
		m.seed = maphash.MakeSeed()
	}
	e := &m.ents[maphash.String(m.seed, s)&(textMemoSize-1)]
	if e.full && string(e.key) == s {
		return e, e.val, true
	}
	return e, val, false
}

// put remembers val for s in slot (from get).
func (m *textMemo[T]) put(slot *memoEntry[T], s string, val T) {
	if len(s) > maxMemoText {
		return
	}
	slot.key = append(slot.key[:0], s...)
	slot.full, slot.val = true, val
}
