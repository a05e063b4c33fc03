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
	ents [flowCacheSize]flowCacheEntry
	// deps counts the entries held by each dep (depSlot): a write
	// to an index entry no answer was read from (a new pod's, nearly
	// always) then forgets without a walk of every entry.
	deps [1 << flowDepBits]uint16
}

// flowDepBits sizes flowCache.deps at four times the entries, so that a
// slot is rarely shared.
const flowDepBits = flowCacheBits + 2

// depSlot is dep's count in deps: by its top bits, the best mixed.
func (c *flowCache) depSlot(dep uint64) *uint16 { return &c.deps[dep>>(64-flowDepBits)] }

// The cache is direct-mapped, 2^flowCacheBits entries: a node has some
// hundred pods live, each looked up under three or four keys.
const (
	flowCacheBits = 10
	flowCacheSize = 1 << flowCacheBits
)

type flowCacheEntry struct {
	n     *nodeState
	f     *flowState
	dep   uint64 // depHash of the index entry the answer came from
	class byte
	kinds [flowKeyFields]byte // 0: no field, else 1+its Kind
	lens  [flowKeyFields]uint8
	// key holds the values' texts one after another, in the entry: a
	// lookup reads no memory elsewhere. A key that does not fit (a pod
	// name near its 253 bytes) is not remembered.
	key [flowKeyBytes]byte
}

// flowKeyBytes holds a namespace/name and a UID of usual lengths.
const flowKeyBytes = 112

// flowKeyFields is how many field values make a key.
const flowKeyFields = 3

// Key classes: what was read to resolve, and how.
const (
	keyFlowFor       = 'f' // flowFor, create false
	keyFlowForCreate = 'F' // flowFor, create true
	keyEvent         = 'e' // an event's involved object
	keyPLEG          = 'p' // a PLEG event's pod and UID
)

// cacheable reports whether a value's reading depends on its kind and
// text alone (not a list, not an object decoded at once), so that they
// can stand for it in a key.
func cacheable(v *parser.Value) bool {
	return v == nil || v.Kind == parser.KindString || v.Kind == parser.KindBare ||
		v.Kind == parser.KindObject && v.Obj == nil && v.Str != "" // decoded on demand from its text
}

// kindOfKey is a value's kind in a key.
func kindOfKey(v *parser.Value) byte {
	if v == nil {
		return 0
	}
	return 1 + byte(v.Kind)
}

// tail8 is the last eight bytes of s (fewer when shorter) as a word: the
// part of a pod name or UID that differs most.
func tail8(s string) uint64 {
	if len(s) >= 8 {
		return load8(s, len(s)-8)
	}
	return short8(s)
}

// short8 is tail8 of a string shorter than eight bytes: apart, so that
// tail8 inlines.
func short8(s string) uint64 {
	var x uint64
	for i := 0; i < len(s); i++ {
		x = x<<8 | uint64(s[i])
	}
	return x
}

// get returns the entry of the key (class, vals) and the flow it resolved
// to on node n, if remembered. The values must be cacheable.
func (c *flowCache) get(n *nodeState, class byte, vals *[flowKeyFields]*parser.Value) (*flowCacheEntry, *flowState) {
	// Unrolled, and the texts compared once each: this runs for nearly
	// every record.
	v0, v1, v2 := vals[0], vals[1], vals[2]
	h := (uint64(class)*0x9e3779b97f4a7c15 ^ keyHash(v0)) * 0x9e3779b97f4a7c15
	h = (h ^ keyHash(v1)) * 0x9e3779b97f4a7c15
	h = (h ^ keyHash(v2)) * 0x9e3779b97f4a7c15
	e := &c.ents[h>>(64-flowCacheBits)]
	if e.f == nil || e.n != n || e.class != class || e.kinds != [flowKeyFields]byte{kindOfKey(v0), kindOfKey(v1), kindOfKey(v2)} {
		return e, nil
	}
	at := 0
	if v0 != nil {
		if int(e.lens[0]) != len(v0.Str) || string(e.key[:len(v0.Str)]) != v0.Str {
			return e, nil
		}
		at = len(v0.Str)
	}
	if v1 != nil {
		if int(e.lens[1]) != len(v1.Str) || string(e.key[at:at+len(v1.Str)]) != v1.Str {
			return e, nil
		}
		at += len(v1.Str)
	}
	if v2 != nil {
		if int(e.lens[2]) != len(v2.Str) || string(e.key[at:at+len(v2.Str)]) != v2.Str {
			return e, nil
		}
	}
	return e, e.f
}

// keyHash is a value's part of its key's slot: its kind, length and last
// eight bytes (tail8); 0 for no value.
func keyHash(v *parser.Value) uint64 {
	if v == nil {
		return 0
	}
	return tail8(v.Str) + uint64(len(v.Str))<<3 + uint64(v.Kind)
}

// Index entries an answer can depend on, hashed (depHash).
const (
	depUID  = 'u'
	depName = 'n'
)

// depHash names an index entry, cheaply: a collision only forgets more.
func (c *flowCache) depHash(kind byte, s string) uint64 {
	h := uint64(kind)<<56 ^ uint64(len(s))<<40 ^ tail8(s)
	if len(s) > 16 {
		h ^= load8(s, len(s)/2-4) * 0x9e3779b97f4a7c15
	}
	return h * 0xc2b2ae3d27d4eb4f
}

// put remembers in e (the entry get returned) that the key resolved to f,
// read from index entry dep.
func (c *flowCache) put(e *flowCacheEntry, n *nodeState, class byte, vals *[flowKeyFields]*parser.Value, f *flowState, dep uint64) {
	size := 0
	for _, v := range vals {
		if v != nil {
			size += len(v.Str)
		}
	}
	if size > flowKeyBytes {
		return
	}
	if e.f != nil {
		*c.depSlot(e.dep)--
	}
	*c.depSlot(dep)++
	e.n, e.f, e.dep, e.class = n, f, dep, class
	at := 0
	for i, v := range vals {
		e.kinds[i], e.lens[i] = kindOfKey(v), 0
		if v != nil {
			e.lens[i] = uint8(len(v.Str))
			at += copy(e.key[at:], v.Str)
		}
	}
}

// forget drops the answers read from index entry dep.
func (c *flowCache) forget(dep uint64) {
	held := c.depSlot(dep)
	if *held == 0 {
		return
	}
	for i := range c.ents {
		if e := &c.ents[i]; e.f != nil && e.dep == dep {
			e.f, e.n = nil, nil
			*held--
		}
	}
}

// reset forgets everything (the end of the build: flows are freed).
func (c *flowCache) reset() {
	*c = flowCache{}
}

// remember puts f, what resolve(n, ref, hasRef, uid, …) returned for the
// key (class, vals), in e when its answer is one index entry's.
func (b *Builder) remember(e *flowCacheEntry, n *nodeState, class byte, vals *[flowKeyFields]*parser.Value, f *flowState, ref PodRef, hasRef bool, uid string) {
	c := &b.flowCache
	switch {
	case f == nil:
		// Nothing resolved, or the flow cap dropped it: counted each time.
	case uid != "":
		if n.byUID[uid] == f {
			c.put(e, n, class, vals, f, c.depHash(depUID, uid))
		}
	case hasRef:
		if n.byName[string(b.nameKey(ref))] == f {
			c.put(e, n, class, vals, f, c.depHash(depName, ref.Key()))
		}
	}
}

// indexUID sets n.byUID[uid].
func (b *Builder) indexUID(n *nodeState, uid string, f *flowState) {
	n.byUID[uid] = f
	b.flowCache.forget(b.flowCache.depHash(depUID, uid))
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
	b.flowCache.forget(b.flowCache.depHash(depName, key))
}

// textMemo remembers what was read of the last few hundred distinct texts
// (a JSON value the kubelet logs again and again word for word), in a
// two-way set-associative table of copies: a text is read again only when
// two others took its set since.
type textMemo[T any] struct {
	seed maphash.Seed
	ents [textMemoSize]memoEntry[T]
	mru  [textMemoSize / 2]uint8 // the way of each set used last
}

const (
	textMemoSize = 256
	maxMemoText  = 4 << 10 // longer texts are read each time, not copied
)

type memoEntry[T any] struct {
	key  []byte
	full bool
	val  T
}

// get returns s's slot and, when hit, what was read of s; missed, the slot
// is the one its set used least lately, for put.
func (m *textMemo[T]) get(s string) (slot *memoEntry[T], val T, hit bool) {
	if m.seed == (maphash.Seed{}) {
		m.seed = maphash.MakeSeed()
	}
	set := maphash.String(m.seed, s) & (textMemoSize/2 - 1)
	for way := range uint8(2) {
		if e := &m.ents[2*set+uint64(way)]; e.full && string(e.key) == s {
			m.mru[set] = way
			return e, e.val, true
		}
	}
	m.mru[set] ^= 1
	return &m.ents[2*set+uint64(m.mru[set])], val, false
}

// put remembers val for s in slot (from get).
func (m *textMemo[T]) put(slot *memoEntry[T], s string, val T) {
	if len(s) > maxMemoText {
		return
	}
	slot.key = append(slot.key[:0], s...)
	slot.full, slot.val = true, val
}
