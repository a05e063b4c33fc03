// Package words keeps the texts a log repeats once each, and hands out a
// 4-byte index for each: the same few thousand words (marker messages,
// reasons, images, container names, errors) recur across every pod of a
// node, and a flow that holds an index keeps no 16-byte header and no copy.
//
// A Table holds two kinds of entries. Interned words are entered once, in
// a map, and never change or go away: the table is bounded (MaxInterned),
// past it texts get entries of their own. An entry of its own (Add, or a
// text too long to intern) is given back with Release when what held it is
// overwritten, and its slot reused. Index 0 is always the empty text.
//
// Strings handed to the table may point into a parser's line buffers:
// whatever is kept is copied first, except by Add and AddWord, which take
// a string the caller owns.
package words

import (
	"encoding/binary"
	"strings"
	"unicode/utf8"
)

// Table is the store of texts. Its zero value is not ready: use New.
type Table struct {
	texts []string
	free  []int // entries of texts to reuse
	words map[string]uint32
	// cache holds indexes of interned texts by Hash: a text is
	// interned once and looked up at every line that names it again,
	// from a handful of texts. Interned entries never change, so a
	// cached index whose text is s is s's.
	cache   [cacheSize]uint32
	maxWord int  // longer texts are never interned
	noCache bool // SetReference
}

// MaxInterned bounds the interned words: the table pins at most some 20
// MiB on a log of ever new texts.
const MaxInterned = 1 << 16

// MaxReason is the longest text Keep and the interning calls keep, in
// bytes, before "…": far above real reasons (a CNI or registry error chain
// is a few hundred bytes), far below a line (64 MiB).
const MaxReason = 4096

const cacheSize = 512

// New returns an empty table that interns texts of up to maxWord bytes.
func New(maxWord int) Table {
	return Table{texts: []string{""}, words: map[string]uint32{"": 0}, maxWord: maxWord}
}

// SetReference turns the lookup cache off (on) or back on: tests compare
// a table that caches with one that always asks the map.
func (t *Table) SetReference(on bool) { t.noCache = on }

// Text is entry k's text.
func (t *Table) Text(k uint32) string { return t.texts[k] }

// Lookup is s's interned index, if s is interned.
func (t *Table) Lookup(s string) (uint32, bool) {
	slot := &t.cache[Hash(s)]
	if k := *slot; k != 0 && t.texts[k] == s && !t.noCache {
		return k, true
	}
	k, ok := t.words[s]
	if ok {
		*slot = k
	}
	return k, ok
}

// LookupBytes is Lookup for text composed in a buffer.
func (t *Table) LookupBytes(p []byte) (uint32, bool) {
	slot := &t.cache[hashOfBytes(p)]
	if k := *slot; k != 0 && t.texts[k] == string(p) && !t.noCache {
		return k, true
	}
	k, ok := t.words[string(p)]
	if ok {
		*slot = k
	}
	return k, ok
}

// LookupIn returns *k, the interned index of s, looking it up while *k is
// 0 (unknown) and remembering it in *k once found.
func (t *Table) LookupIn(k *uint32, s string) (uint32, bool) {
	if *k != 0 {
		return *k, true
	}
	id, ok := t.Lookup(s)
	if ok {
		*k = id
	}
	return id, ok
}

// Is reports whether entry id holds s, where k and interned are what
// Lookup gave for s: an interned text has one index, as the table never
// changes an interned entry nor interns a text once full (a text given an
// entry of its own while it was full is never interned later).
func (t *Table) Is(id uint32, s string, k uint32, interned bool) bool {
	if interned {
		return id == k
	}
	return t.texts[id] == s
}

// Intern returns one copy of s, a short string that repeats: the interned
// one when there is room, else a copy (cut at MaxReason).
func (t *Table) Intern(s string) string {
	if k, ok := t.Lookup(s); ok {
		return t.texts[k]
	}
	if len(s) > t.maxWord {
		return Keep(s)
	}
	w := strings.Clone(s)
	t.AddWord(w)
	return w
}

// Name is Intern for names, which must stay whole: a long one is copied,
// not cut.
func (t *Table) Name(s string) string {
	if len(s) > t.maxWord {
		return strings.Clone(s)
	}
	return t.Intern(s)
}

// InternID is Intern as an index: an interned entry, or one of its own
// (cut at MaxReason) when s is too long or the table full.
func (t *Table) InternID(s string) uint32 {
	if k, ok := t.Lookup(s); ok {
		return k
	}
	if len(s) > t.maxWord {
		return t.Add(Keep(s))
	}
	w := strings.Clone(s)
	if k, ok := t.AddWord(w); ok {
		return k
	}
	return t.Add(w)
}

// NameID is Name as an index: a long name gets an entry of its own,
// whole.
func (t *Table) NameID(s string) uint32 {
	if len(s) > t.maxWord {
		return t.Add(strings.Clone(s))
	}
	return t.InternID(s)
}

// Set sets *dst to InternID(s), giving back the entry *dst held when it
// was one of its own.
func (t *Table) Set(dst *uint32, s string) {
	if t.texts[*dst] == s {
		// Nearly always (a status patch says again what the last one
		// said): the entry stays, which reads the same as a new one.
		return
	}
	old := *dst
	*dst = t.InternID(s)
	t.Release(old)
}

// InternBytes is Intern for text composed in a buffer; a text longer than
// MaxReason is cut.
func (t *Table) InternBytes(p []byte) string {
	if k, ok := t.LookupBytes(p); ok {
		return t.texts[k]
	}
	if len(p) > MaxReason {
		return Cut(string(p[:MaxReason+1]), MaxReason)
	}
	if len(p) > t.maxWord {
		return string(p)
	}
	w := string(p)
	t.AddWord(w)
	return w
}

// InternBytesID is InternBytes as an index (what ID would give for its
// result).
func (t *Table) InternBytesID(p []byte) uint32 {
	if k, ok := t.LookupBytes(p); ok {
		return k
	}
	// As InternBytes: a text longer than maxWord is never interned.
	if len(p) > MaxReason {
		return t.Add(Cut(string(p[:MaxReason+1]), MaxReason))
	}
	w := string(p)
	if len(p) <= t.maxWord {
		if k, ok := t.AddWord(w); ok {
			return k
		}
	}
	return t.Add(w)
}

// ID is s's index: its interned entry, else a new one of its own holding
// s itself (which the caller owns).
func (t *Table) ID(s string) uint32 {
	if k, ok := t.Lookup(s); ok {
		return k
	}
	return t.Add(s)
}

// AddWord interns w, a string the caller owns and has not interned, unless
// the table is full.
func (t *Table) AddWord(w string) (uint32, bool) {
	if len(t.words) >= MaxInterned {
		return 0, false
	}
	k := t.Add(w)
	t.words[w] = k
	return k, true
}

// Add gives s, a string the caller owns, an entry of its own.
func (t *Table) Add(s string) uint32 {
	if n := len(t.free); n > 0 {
		k := t.free[n-1]
		t.free = t.free[:n-1]
		t.texts[k] = s
		return uint32(k)
	}
	t.texts = append(t.texts, s)
	return uint32(len(t.texts) - 1)
}

// Release gives back entry k when it is one of its own: what held it is
// overwritten. An interned entry, and entry 0, stay.
func (t *Table) Release(k uint32) {
	if k != 0 && t.cache[Hash(t.texts[k])] == k && !t.noCache {
		return // interned (the cache holds only interned entries)
	}
	if w, ok := t.words[t.texts[k]]; !ok || w != k {
		t.texts[k] = ""
		t.free = append(t.free, int(k))
	}
}

// Counts are a table's sizes: entries in use, interned words among them,
// and free entries.
type Counts struct{ Used, Interned, Free int }

// Counts returns the table's sizes.
func (t *Table) Counts() Counts {
	return Counts{Used: len(t.texts) - len(t.free), Interned: len(t.words), Free: len(t.free)}
}

// Full reports whether the table interns no more words.
func (t *Table) Full() bool { return len(t.words) >= MaxInterned }

// Keep copies s out of its record's line, cut at MaxReason bytes on a
// rune boundary: an error can be as long as a line, and every pod keeps
// its reasons.
func Keep(s string) string {
	if s == "" {
		return s
	}
	if len(s) > MaxReason {
		return Cut(s, MaxReason)
	}
	return strings.Clone(s)
}

// Cut returns the first n bytes of s (fewer, to end on a rune boundary)
// and "…", as a new string that keeps nothing of s alive. s must be longer
// than n bytes.
func Cut(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// CutBytes is Cut for text composed in a buffer: p is cut in place.
func CutBytes(p []byte, n int) []byte {
	for n > 0 && !utf8.RuneStart(p[n]) {
		n--
	}
	return append(p[:n], "…"...)
}

// Hash is a cheap 9-bit hash of s, for direct-mapped caches (the table's
// own, and others keyed by text): its length and first and last eight
// bytes, mixed.
func Hash(s string) uint32 {
	var h uint64
	if len(s) >= 8 {
		h = load8(s, 0) ^ load8(s, len(s)-8)*0x9e3779b97f4a7c15
	} else {
		h = short8(s)
	}
	h = (h ^ uint64(len(s))) * 0xc2b2ae3d27d4eb4f
	return uint32(h >> (64 - 9))
}

// hashOfBytes is Hash for bytes.
func hashOfBytes(p []byte) uint32 {
	var h uint64
	if len(p) >= 8 {
		h = binary.LittleEndian.Uint64(p) ^ binary.LittleEndian.Uint64(p[len(p)-8:])*0x9e3779b97f4a7c15
	} else {
		for _, c := range p {
			h = h<<8 | uint64(c)
		}
	}
	h = (h ^ uint64(len(p))) * 0xc2b2ae3d27d4eb4f
	return uint32(h >> (64 - 9))
}

// load8 is s[i:i+8] as a little-endian word (one load).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// short8 is a string shorter than eight bytes as a word.
func short8(s string) uint64 {
	var x uint64
	for i := 0; i < len(s); i++ {
		x = x<<8 | uint64(s[i])
	}
	return x
}
