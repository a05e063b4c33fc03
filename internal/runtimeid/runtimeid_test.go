package runtimeid

import (
	"bytes"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"
)

// Runtime IDs come back as they were given, packed or not, and distinct
// IDs stay distinct.
func TestRuntimeIDRoundTrip(t *testing.T) {
	hex64 := "4f3a0c9e1b2d7f6a8e5c3b1a0f9d8c7b6a5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c"
	ids := []string{
		"", "a", hex64,
		strings.ToUpper(hex64),   // not lowercase: kept as is
		hex64[:63] + "g",         // not hex
		hex64[:62],               // shorter
		hex64[:32],               // 32 bytes: could pass for a packed one
		hex64[:32] + "\xff",      // and with the 0xff that marks it
		hex64[:32] + "\xff\xff",  // and once more
		hex64[:31] + "\xff",      // 32 bytes ending in 0xff
		string(make([]byte, 32)), // 32 zero bytes
		"containerd://" + hex64,  // a prefix left on
		"sandbox-\xff",           // a short one ending in 0xff
	}
	var b Packer
	seen := map[Packed]string{}
	for _, id := range ids {
		r := Packed(b.Pack(id))
		if got := r.String(); got != id {
			t.Errorf("%q came back as %q", id, got)
		}
		if other, ok := seen[r]; ok {
			t.Errorf("%q and %q pack alike", id, other)
		}
		seen[r] = id
	}
	if n := len(b.Pack(hex64)); n != 32 {
		t.Errorf("a 64-digit hex ID packs in %d bytes, want 32", n)
	}
}

// A 64-character ID packs into the bytes it stands for exactly when each
// character is a lowercase hex digit: every byte value at every position
// of a hex ID, over random digits around it.
func TestRuntimeIDPacksHexOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const digits = "0123456789abcdef"
	var b Packer
	for pos := range 64 {
		for c := range 256 {
			id := make([]byte, 64)
			for i := range id {
				id[i] = digits[rng.IntN(16)]
			}
			id[pos] = byte(c)
			want, err := hex.DecodeString(string(id))
			isHex := err == nil && strings.IndexFunc(string(id), func(r rune) bool { return r >= 'A' && r <= 'F' }) < 0
			got := b.Pack(string(id))
			if isHex != (len(got) == 32) || isHex && !bytes.Equal(got, want) {
				t.Fatalf("%q packs as %x; hex: %v", id, got, isHex)
			}
			if r := Packed(got).String(); r != string(id) {
				t.Fatalf("%q came back as %q", id, r)
			}
		}
	}
}

func FuzzRuntimeID(f *testing.F) {
	f.Add("4f3a0c9e1b2d7f6a8e5c3b1a0f9d8c7b6a5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c", "4f3a0c9e1b2d7f6a8e5c3b1a0f9d8c7b\xff")
	f.Add(string(make([]byte, 32)), "0000000000000000000000000000000000000000000000000000000000000000")
	f.Fuzz(func(t *testing.T, x, y string) {
		var b Packer
		rx := Packed(b.Pack(x))
		ry := Packed(b.Pack(y))
		if rx.String() != x || ry.String() != y {
			t.Fatalf("%q, %q came back as %q, %q", x, y, rx.String(), ry.String())
		}
		if (rx == ry) != (x == y) {
			t.Fatalf("%q and %q: packed equal %v", x, y, rx == ry)
		}
	})
}
