// Package multimatch tells which of many patterns occur in a set of
// texts, in one pass over the texts: a rolling hash of a window as long
// as the shortest pattern (Rabin-Karp with many patterns), so the work
// grows with the texts' bytes, not with patterns × texts as one
// strings.Contains per pair does.
package multimatch

import "strings"

// maxWindow bounds the hashed window: longer windows tell patterns apart
// no better.
const maxWindow = 32

// base is the rolling hash's multiplier (odd, so that arithmetic modulo
// 2^64 loses nothing of it).
const base = 0x100000001b3

// filterBits sizes the bitset that turns down most windows before the
// map is asked.
const filterBits = 16

// Found reports, for each pattern, whether it occurs in one of texts, as
// strings.Contains would for some text. The empty pattern occurs in any
// text.
func Found(patterns, texts []string) []bool {
	found := make([]bool, len(patterns))
	w := maxWindow
	left := 0
	for i, p := range patterns {
		if p == "" {
			found[i] = len(texts) > 0
			continue
		}
		w = min(w, len(p))
		left++
	}
	if left == 0 {
		return found
	}
	// The candidates of a window hash: the patterns whose first w bytes
	// hash to it.
	cands := make(map[uint64][]int, left)
	var filter [1 << filterBits / 64]uint64
	for i, p := range patterns {
		if p == "" {
			continue
		}
		h := hash(p[:w])
		cands[h] = append(cands[h], i)
		k := h >> (64 - filterBits)
		filter[k/64] |= 1 << (k % 64)
	}
	// pow is base^(w-1), the weight of the byte that leaves the window.
	pow := uint64(1)
	for range w - 1 {
		pow *= base
	}
	for _, t := range texts {
		if len(t) < w {
			continue
		}
		h := hash(t[:w])
		for i := 0; ; i++ {
			if k := h >> (64 - filterBits); filter[k/64]&(1<<(k%64)) != 0 {
				for _, c := range cands[h] {
					if !found[c] && strings.HasPrefix(t[i:], patterns[c]) {
						found[c] = true
						if left--; left == 0 {
							return found
						}
					}
				}
			}
			if i+w >= len(t) {
				break
			}
			h = (h-uint64(t[i])*pow)*base + uint64(t[i+w])
		}
	}
	return found
}

// hash is the polynomial hash of s, its first byte weighted most.
func hash(s string) uint64 {
	var h uint64
	for i := 0; i < len(s); i++ {
		h = h*base + uint64(s[i])
	}
	return h
}
