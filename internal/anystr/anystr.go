// Package anystr tells whether a text holds any of a few strings, in one
// pass that skips most of the text: Wu and Manber's shift table over the
// blocks of three bytes that end a window as long as the shortest string.
//
// It serves `lines pod`, which looks for a pod's name and IDs (a handful
// of strings of 20 to 64 bytes) in every record of a log: one
// bytes.Contains per string read each record as many times, and the IDs,
// hex like much of a kubelet log, sent bytes.Index's first-byte search to
// a false start every few bytes.
package anystr

import "bytes"

const (
	block     = 3  // bytes hashed for a shift
	tableBits = 15 // shift table of 32 KiB
	// minWindow is the shortest string the table is used for; below it a
	// shift saves little over bytes.Contains for each.
	minWindow = 6
)

// Matcher finds any of its strings. It is read-only once made and safe
// for concurrent use.
type Matcher struct {
	needles [][]byte
	window  int                   // the length of the shortest needle
	always  bool                  // an empty needle: every text holds it
	ends    []uint16              // hash of the block that ends needle i's window
	shift   *[1 << tableBits]byte // how far the window may move on when it ends in a block of this hash
}

// New returns a Matcher of needles (which it keeps, not copies).
func New(needles [][]byte) *Matcher {
	m := &Matcher{needles: needles}
	if len(needles) == 0 {
		return m
	}
	m.window = len(needles[0])
	for _, n := range needles {
		m.window = min(m.window, len(n))
	}
	if m.window == 0 {
		m.always = true
		return m
	}
	if m.window < minWindow {
		return m
	}
	// A window longer than a byte can shift is cut: needles are then
	// found by their first 255+block-1 bytes, and checked whole.
	m.window = min(m.window, 255+block-1)
	m.shift = new([1 << tableBits]byte)
	most := byte(m.window - block + 1)
	for i := range m.shift {
		m.shift[i] = most
	}
	m.ends = make([]uint16, len(needles))
	for i, n := range needles {
		w := n[:m.window]
		for j := block - 1; j < len(w); j++ {
			h := hash(w[j-2], w[j-1], w[j])
			m.shift[h] = min(m.shift[h], byte(len(w)-1-j))
		}
		m.ends[i] = hash(w[len(w)-3], w[len(w)-2], w[len(w)-1])
	}
	return m
}

func hash(a, b, c byte) uint16 {
	return uint16((uint32(a)<<10 ^ uint32(b)<<5 ^ uint32(c)) & (1<<tableBits - 1))
}

// Match reports whether b holds any of the needles.
func (m *Matcher) Match(b []byte) bool {
	if m.always {
		return true
	}
	if m.shift == nil {
		for _, n := range m.needles {
			if bytes.Contains(b, n) {
				return true
			}
		}
		return false
	}
	w := m.window
	for end := w - 1; end < len(b); {
		h := hash(b[end-2], b[end-1], b[end])
		if s := m.shift[h]; s > 0 {
			end += int(s)
			continue
		}
		at := b[end-w+1:]
		for i, n := range m.needles {
			if m.ends[i] == h && bytes.HasPrefix(at, n) {
				return true
			}
		}
		end++
	}
	return false
}
