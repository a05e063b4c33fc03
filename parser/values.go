package parser

import (
	"cmp"
	"slices"
	"strings"
	"unsafe"
)

// maxDepth bounds nesting of JSON and bracketed values so a hostile line
// cannot exhaust the stack. A group nested deeper is not decoded but kept
// whole as a bare value holding its raw text, so the record and the rest of
// its fields survive.
const maxDepth = 64

// maxValues bounds the values (fields, list elements, object members)
// decoded from one record: a 64 MiB line of `[1,1,1,…]` or `k=1 k=1 …`
// would otherwise become gigabytes of Value structs. Past it, groups are
// kept whole as bare raw text (as past maxDepth) and the rest of a klog
// payload or JSON record as one bare field with no key, so nothing is
// lost. Kubelet records hold tens of values; a node's pod list, hundreds.
const maxValues = 1 << 14

// limits is the work one record may cost beyond a linear pass.
type limits struct {
	// scan is what failed bracket matches may still scan. A value that
	// opens a bracket it never closes makes bracketEnd scan to the end of
	// the payload; a line of `k={ k={ k={ …` would cost time quadratic in
	// its length. Once spent, brackets are no longer matched and such
	// values are read as bare tokens.
	scan int
	// values is what may still be decoded (see maxValues).
	values int
	// sc is where the record's values are built.
	sc *scratch
	// lazyTop: an object at depth 0 may be kept as its text too (a klog
	// value), not only those nested in another value. The object a JSON
	// record is made of is decoded at once.
	lazyTop bool
	// eager: objects are decoded at once (inside an object that skipJSON
	// did not pass).
	eager bool
	// guess is what parseKlogValue's checks of objects that turn out not
	// to be JSON may still scan (as scan for failed bracket matches).
	guess int
	// noGuess turns that check off, for tests that compare it with the
	// way it saves.
	noGuess bool
}

func newLimits(payload int, sc *scratch) *limits {
	return &limits{scan: 2*payload + 64<<10, guess: 2*payload + 64<<10, values: maxValues, sc: sc}
}

// scratch is working memory a Reader reuses from record to record: an
// unquoted string, an object's members and a list's elements are built in
// it and copied out once, at their final size, instead of growing a slice
// of their own by doubling. Nested groups build on top of their parent's
// part, which stays in place below them.
type scratch struct {
	bytes  []byte
	fields []Field
	values []Value
	// text, when not nil, is where the strings a record keeps are made
	// (a Reader's); else each is its own allocation (values decoded on
	// demand, after the record).
	text *textArena
	// quoted is Options.Quoted, and quotedLens the lengths of its names
	// (modulo 64), a bit each: most keys are told apart by length.
	quoted     []string
	quotedLens uint64
}

// setQuoted sets Options.Quoted.
func (sc *scratch) setQuoted(names []string) {
	sc.quoted, sc.quotedLens = names, 0
	for _, n := range names {
		sc.quotedLens |= 1 << (len(n) & 63)
	}
}

// keeps reports whether the values of the field key are kept as written,
// when they may be (see parseKlogValue).
func (sc *scratch) keeps(key string) bool {
	return sc.quotedLens>>(len(key)&63)&1 != 0 && slices.Contains(sc.quoted, key)
}

// textArena makes the strings of records in blocks of textBlock bytes,
// one allocation for tens of records instead of one or two each (a wanted
// record copies its key=value text, and decodes escaped values, such as a
// status patch, into strings of their own). Bytes once given out are
// never written again, only the free end of the block is, until a reset
// (Options.Borrow).
//
// A string kept after its record keeps its block, up to textBlock bytes,
// alive: what is kept long should be cloned when it is small (the engine
// clones what it keeps).
type textArena struct {
	blk []byte
	// made counts the bytes given out since the last reset (see reset).
	made int
	// block is the size of a new block; 0: textBlock. (A small input's
	// reader makes smaller ones: see NewReader.)
	block int
}

const (
	textBlock = 8 << 10
	// textMax is the longest text made in a block; a longer one gets
	// its own allocation, so that a block is not left mostly empty.
	textMax = textBlock / 4
)

// room returns the free end of the block, with room for n bytes, or nil
// when n is more than a block takes. What is appended to it is given out
// by keep.
func (t *textArena) room(n int) []byte {
	if n > textMax {
		return nil
	}
	if cap(t.blk)-len(t.blk) < n {
		t.blk = make([]byte, 0, max(n, cmp.Or(t.block, textBlock)))
	}
	return t.blk[len(t.blk):len(t.blk)]
}

// keep returns b, which was appended to what room returned, as a string,
// and takes its bytes from the free end. (Should b have grown out of the
// block, it is copied.)
func (t *textArena) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	free := t.blk[len(t.blk):cap(t.blk)]
	if len(b) > len(free) || unsafe.SliceData(b) != unsafe.SliceData(free) {
		return string(b)
	}
	t.blk = t.blk[:len(t.blk)+len(b)]
	t.made += len(b)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// reset lets the block be written again from its start, when the strings
// made in it are no longer used (Options.Borrow), and makes it as large
// as all that was made since the last reset, so that the same again fits
// in it.
func (t *textArena) reset() {
	if t.made > cap(t.blk) {
		t.blk = make([]byte, 0, t.made+t.made/4)
	}
	t.blk, t.made = t.blk[:0], 0
}

// copy returns b as a string that shares no memory with b.
func (t *textArena) copy(b []byte) string {
	buf := t.room(len(b))
	if buf == nil {
		return string(b)
	}
	return t.keep(append(buf, b...))
}

// clone is copy for a string.
func (t *textArena) clone(s string) string {
	buf := t.room(len(s))
	if buf == nil {
		return strings.Clone(s)
	}
	return t.keep(append(buf, s...))
}

// takeFields returns a copy of fields[base:] (nil when empty) and drops
// them from the scratch.
func (sc *scratch) takeFields(base int) []Field { return takeTail(&sc.fields, base) }

func (sc *scratch) dropFields(base int) { dropTail(&sc.fields, base) }

// takeValues is takeFields for list elements; an empty list is empty, not nil.
func (sc *scratch) takeValues(base int) []Value {
	if out := takeTail(&sc.values, base); out != nil {
		return out
	}
	return []Value{}
}

func (sc *scratch) dropValues(base int) { dropTail(&sc.values, base) }

// takeTail returns a copy of (*s)[base:] (nil when empty), at its final
// size, and drops it from *s.
func takeTail[T any](s *[]T, base int) []T {
	var out []T
	if n := len(*s) - base; n > 0 {
		out = make([]T, n)
		copy(out, (*s)[base:])
	}
	dropTail(s, base)
	return out
}

// dropTail drops (*s)[base:], clearing it so that the scratch does not
// keep the strings of past records alive.
func dropTail[T any](s *[]T, base int) {
	clear((*s)[base:])
	*s = (*s)[:base]
}

// trim lets go of scratch memory a huge record made grow, after the record.
func (sc *scratch) trim() {
	if cap(sc.bytes) > 1<<20 {
		sc.bytes = nil
	}
	if cap(sc.fields) > 1<<12 {
		sc.fields = nil
	}
	if cap(sc.values) > 1<<12 {
		sc.values = nil
	}
}
