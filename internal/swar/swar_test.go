package swar

import (
	"strings"
	"testing"
)

// Each mask against the byte-by-byte answer, with the flagged byte at each
// place of the word and every byte value: First must name the lowest.
func TestMasks(t *testing.T) {
	for c := range 256 {
		for at := range 8 {
			for _, fill := range []byte{'a', 0x00, 0xff, 0x7e} {
				s := []byte(strings.Repeat(string([]byte{fill}), 8))
				s[at] = byte(c)
				w := Word(string(s), 0)
				for i := range 8 {
					if byte(w>>(8*i)) != s[i] {
						t.Fatalf("Word(%q) byte %d = %#x", s, i, byte(w>>(8*i)))
					}
				}
				check := func(name string, m uint64, want func(byte) bool) {
					lowest := -1
					for i := range 8 {
						if want(s[i]) {
							lowest = i
							break
						}
					}
					switch {
					case lowest < 0 && m != 0:
						t.Fatalf("%s(%q) = %#x, want none", name, s, m)
					case lowest >= 0 && (m == 0 || First(m) != lowest):
						t.Fatalf("%s(%q): first %d, want %d", name, s, First(m), lowest)
					}
				}
				check("Eq '#'", Eq(w, '#'), func(b byte) bool { return b == '#' })
				check("Eq 0", Eq(w, 0), func(b byte) bool { return b == 0 })
				check("High", High(w), func(b byte) bool { return b >= 0x7f })
			}
		}
	}
}
