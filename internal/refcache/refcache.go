// Package refcache remembers what the last few distinct pod references
// resolved to, keyed by the raw field values they were read from, so that
// a record about a pod seen a moment ago (two records in three on a busy
// node: pod workers log in bursts) skips parsing the reference and the
// lookups in the node's indexes, which with thousands of pods miss the
// processor's caches.
//
// A key is a node, a class (what was read, and how: the caller's) and up
// to three field values; an answer is a flow. Each answer depends on one
// index entry of the caller's (a Dep): when the caller writes that entry,
// it calls Forget, and no answer read from the old entry is given again.
// The cache holds pointers to N and F; it never reads what they point to.
package refcache

import "github.com/podflow/podflow/parser"

// Fields is how many field values make a key.
const Fields = 3

// Key is a key's field values; nil for a field not read.
type Key = [Fields]*parser.Value

// The cache is direct-mapped, 2^bits entries: a node has some hundred
// pods live, each looked up under three or four keys.
const (
	bits = 10
	size = 1 << bits
	// depBits sizes Cache.deps at four times the entries, so that a
	// slot is rarely shared.
	depBits = bits + 2
)

// keyBytes holds a namespace/name and a UID of usual lengths.
const keyBytes = 112

// Cache is the cache; its zero value is empty and ready.
type Cache[N, F any] struct {
	ents [size]Entry[N, F]
	// deps counts the entries held by each dep (depSlot): a write to an
	// index entry no answer was read from (a new pod's, nearly always)
	// then forgets without a walk of every entry.
	deps [1 << depBits]uint16
}

// Entry is one remembered answer: Get returns the entry a key maps to,
// for Put.
type Entry[N, F any] struct {
	n     *N
	f     *F
	dep   Dep
	class byte
	kinds [Fields]byte // 0: no field, else 1+its Kind
	lens  [Fields]uint8
	// key holds the values' texts one after another, in the entry: a
	// lookup reads no memory elsewhere. A key that does not fit (a pod
	// name near its 253 bytes) is not remembered.
	key [keyBytes]byte
}

// Dep names an index entry an answer was read from (DepOf).
type Dep uint64

// DepOf names the index entry of kind (the caller's: which index) and key
// s, cheaply: a collision only forgets more.
func DepOf(kind byte, s string) Dep {
	h := uint64(kind)<<56 ^ uint64(len(s))<<40 ^ tail8(s)
	if len(s) > 16 {
		h ^= load8(s, len(s)/2-4) * 0x9e3779b97f4a7c15
	}
	return Dep(h * 0xc2b2ae3d27d4eb4f)
}

// depSlot is dep's count in deps: by its top bits, the best mixed.
func (c *Cache[N, F]) depSlot(dep Dep) *uint16 { return &c.deps[dep>>(64-depBits)] }

// Cacheable reports whether a value's reading depends on its kind and
// text alone (not a list, not an object decoded at once), so that they
// can stand for it in a key.
func Cacheable(v *parser.Value) bool {
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

// Get returns the entry of the key (class, vals) and the answer
// remembered for it on node n, if any. The values must be Cacheable.
func (c *Cache[N, F]) Get(n *N, class byte, vals *Key) (*Entry[N, F], *F) {
	// Unrolled, and the texts compared once each: this runs for nearly
	// every record.
	v0, v1, v2 := vals[0], vals[1], vals[2]
	h := (uint64(class)*0x9e3779b97f4a7c15 ^ keyHash(v0)) * 0x9e3779b97f4a7c15
	h = (h ^ keyHash(v1)) * 0x9e3779b97f4a7c15
	h = (h ^ keyHash(v2)) * 0x9e3779b97f4a7c15
	e := &c.ents[h>>(64-bits)]
	if e.f == nil || e.n != n || e.class != class || e.kinds != [Fields]byte{kindOfKey(v0), kindOfKey(v1), kindOfKey(v2)} {
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

// Put remembers in e (the entry Get returned for the key) that the key
// (class, vals) resolved to f on node n, read from index entry dep. A
// nil f is not remembered.
func (c *Cache[N, F]) Put(e *Entry[N, F], n *N, class byte, vals *Key, f *F, dep Dep) {
	size := 0
	for _, v := range vals {
		if v != nil {
			size += len(v.Str)
		}
	}
	if size > keyBytes || f == nil {
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

// Forget drops the answers read from index entry dep.
func (c *Cache[N, F]) Forget(dep Dep) {
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

// Reset forgets everything.
func (c *Cache[N, F]) Reset() {
	*c = Cache[N, F]{}
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

// load8 is s[i:i+8] as a little-endian word (one load).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
