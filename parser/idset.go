package parser

import "hash/maphash"

// idSet is the set of identities Rescue met lately, kept as 64-bit keyed
// hashes: a declined line pays one hash and, mostly, one probe of a small
// table, and nothing is copied or allocated per identity.
//
// It forgets: the table is a fixed 16,384 hashes (128 KiB), four to a set
// of slots chosen by the hash, and a set that is full drops its oldest
// hash for a new one. A forgotten identity's next record is decoded again,
// which the caller reads to no effect as it does the repeated records of
// a cut input (Rescue); an identity met for the first time is never in
// the table, so its first record always passes. A kubelet names few pods
// at a time (those being synced, probed, mounted), so little is forgotten
// while it matters: on make bench's 1 GiB log (some 35,000 identities)
// the table holding all of them took a megabyte a parsing goroutine,
// which the collector's headroom doubled in the peak RSS.
//
// Two identities share a hash with odds near n²/2⁶⁵ (under 1e-8 for a
// million identities): the cost of one would be a second identity's first
// record read as already met.
type idSet struct {
	sets *[idSets][idWays]uint64 // 0: an empty slot; newest first in a set
	seed maphash.Seed
}

const (
	idWays = 4
	idSets = 4096
)

// insert enters id and reports whether it was not in the set.
func (s *idSet) insert(id []byte) bool {
	if s.sets == nil {
		s.seed = maphash.MakeSeed()
		s.sets = new([idSets][idWays]uint64)
	}
	h := maphash.Bytes(s.seed, id) | 1 // never 0, the empty slot
	set := &s.sets[(h>>32)&(idSets-1)]
	if set[0] == h || set[1] == h || set[2] == h || set[3] == h {
		return false
	}
	set[3], set[2], set[1], set[0] = set[2], set[1], set[0], h
	return true
}
