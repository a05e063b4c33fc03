package parser

import "hash/maphash"

// idSet is the set of identities Rescue met, kept as 64-bit keyed hashes:
// a declined line pays one hash and, mostly, one probe of a small table,
// and nothing is copied or allocated per identity. Two identities share a
// hash with odds near n²/2⁶⁵ (under 1e-8 at rescueMax): the cost of one
// would be a second identity's first record read as already met.
//
// The table holds every identity of the input, some 35,000 on make
// bench's 1 GiB log (a megabyte of slots), where a probe is likely a
// cache miss. But a kubelet names the same few pods line after line
// (those being synced, probed, mounted), so a small direct-mapped cache
// of the hashes met lately, which stays in the core's cache, answers most
// lookups (94% on that log; the instructions are the same, the wall time
// some 3% less). It holds only hashes the table holds: its answer is the
// table's.
type idSet struct {
	slots  []uint64 // a power of two of them, at most half used; 0: empty
	n      int
	seed   maphash.Seed
	recent *[recentSlots]uint64 // hashes met lately, by their low bits; 0: empty
}

// recentSlots is the size of idSet's cache: 8 KiB.
const recentSlots = 1024

// insert enters id and reports whether it was new.
func (s *idSet) insert(id []byte) bool {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
		s.slots = make([]uint64, 1024)
		s.recent = new([recentSlots]uint64)
	}
	h := maphash.Bytes(s.seed, id) | 1 // never 0, the empty slot
	r := &s.recent[h&(recentSlots-1)]
	if *r == h {
		return false
	}
	*r = h
	mask := uint64(len(s.slots) - 1)
	i := h & mask
	for {
		switch s.slots[i] {
		case h:
			return false
		case 0:
			s.slots[i] = h
			s.n++
			if 2*s.n > len(s.slots) {
				s.grow()
			}
			return true
		}
		i = (i + 1) & mask
	}
}

func (s *idSet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	mask := uint64(len(s.slots) - 1)
	for _, h := range old {
		if h == 0 {
			continue
		}
		i := h & mask
		for s.slots[i] != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = h
	}
}
