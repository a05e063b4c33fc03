package parser

import "hash/maphash"

// idSet is the set of identities Rescue met, kept as 64-bit keyed hashes:
// a declined line pays one hash and, mostly, one probe of a table small
// enough to stay in cache, and nothing is copied or allocated per identity.
// Two identities share a hash with odds near n²/2⁶⁵ (under 1e-8 at
// rescueMax): the cost of one would be a second identity's first record
// read as already met.
type idSet struct {
	slots []uint64 // a power of two of them, at most half used; 0: empty
	n     int
	seed  maphash.Seed
}

// insert enters id and reports whether it was new.
func (s *idSet) insert(id []byte) bool {
	if s.slots == nil {
		s.seed = maphash.MakeSeed()
		s.slots = make([]uint64, 1024)
	}
	h := maphash.Bytes(s.seed, id) | 1 // never 0, the empty slot
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
