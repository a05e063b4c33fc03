// Package textmemo remembers what was read of the last few hundred
// distinct texts (a JSON value the kubelet logs again and again word for
// word), in a two-way set-associative table of copies: a text is read
// again only when two others took its set since.
package textmemo

import "hash/maphash"

// Memo maps texts to what was read of them. Its zero value is empty and
// ready.
type Memo[T any] struct {
	seed maphash.Seed
	ents [size]Slot[T]
	mru  [size / 2]uint8 // the way of each set used last
}

const size = 256

// MaxText is the longest text remembered, in bytes: longer texts are read
// each time, not copied.
const MaxText = 4 << 10

// Slot is an entry of a memo: Get returns the one a text is in, or would
// go in, for Put.
type Slot[T any] struct {
	key  []byte
	full bool
	val  T
}

// Get returns s's slot and, when hit, what was read of s; missed, the
// slot is the one its set used least lately, for Put.
func (m *Memo[T]) Get(s string) (slot *Slot[T], val T, hit bool) {
	if m.seed == (maphash.Seed{}) {
		m.seed = maphash.MakeSeed()
	}
	set := maphash.String(m.seed, s) & (size/2 - 1)
	for way := range uint8(2) {
		if e := &m.ents[2*set+uint64(way)]; e.full && string(e.key) == s {
			m.mru[set] = way
			return e, e.val, true
		}
	}
	m.mru[set] ^= 1
	return &m.ents[2*set+uint64(m.mru[set])], val, false
}

// Put remembers val for s in slot (from Get for s). A text longer than
// MaxText is not remembered.
func (m *Memo[T]) Put(slot *Slot[T], s string, val T) {
	if len(s) > MaxText {
		return
	}
	slot.key = append(slot.key[:0], s...)
	slot.full, slot.val = true, val
}
