// Package runtimeid keeps runtime (container or sandbox) IDs in half the
// bytes: a 64-digit lowercase hex ID, as nearly all are, packed in the 32
// bytes it stands for; any other ID as itself, with 0xff added when it
// could be taken for a packed one (32 bytes) or for one with 0xff added
// (33 bytes or more, ending in 0xff). Distinct IDs pack distinctly, and
// each comes back as it was given.
package runtimeid

import (
	"encoding/binary"
	"encoding/hex"
)

// Packed is a packed ID (Packer.Pack), kept as a map key or in a slice.
type Packed string

// Packer packs IDs into a buffer of its own, reused; its zero value is
// ready.
type Packer struct{ buf []byte }

// Pack writes id packed into the packer's buffer and returns it: valid
// until the next Pack. Look up with Packed(p) (no copy); keep Packed(p).
func (k *Packer) Pack(id string) []byte {
	p := k.buf[:0]
	if len(id) == 64 {
		// Packed whole, eight digits a step, checked once.
		p = append(p, make([]byte, 32)...)
		if packHex(p[:32], id) {
			k.buf = p
			return p
		}
		p = p[:0]
	}
	p = append(p, id...)
	if len(id) == 32 || len(id) > 32 && id[len(id)-1] == 0xff {
		p = append(p, 0xff)
	}
	k.buf = p
	return p
}

// packHex decodes the 64 characters of id into the 32 bytes they stand
// for when each is a lowercase hex digit; ok is false otherwise.
func packHex(q []byte, id string) (ok bool) {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	q, id = q[:32], id[:64]
	var bad uint64
	for i := 0; i < 8; i++ {
		x := load8(id, 8*i)
		// For bytes below 0x80, b+(0x80-n) sets the byte's high bit
		// exactly when b >= n, and carries into no other byte.
		low := x &^ high
		letter := (low + ones*(0x80-'a')) &^ (low + ones*(0x80-'f'-1))
		digit := (low + ones*(0x80-'0')) &^ (low + ones*(0x80-'9'-1))
		bad |= x | ^(digit | letter)
		letter &= high
		// Each byte's value: its low four bits, and nine more for a
		// letter; pairs of them into bytes, in the 16-bit lanes, then
		// side by side.
		d := x&(ones*0x0f) + letter>>7*9
		t := (d&0x00ff00ff00ff00ff)<<4 | (d>>8)&0x00ff00ff00ff00ff
		t = (t | t>>8) & 0x0000ffff0000ffff
		t = (t | t>>16) & 0xffffffff
		binary.LittleEndian.PutUint32(q[4*i:], uint32(t))
	}
	return bad&high == 0
}

// String is the ID r stands for.
func (r Packed) String() string {
	switch {
	case len(r) == 32:
		return hex.EncodeToString([]byte(r))
	case len(r) > 32 && r[len(r)-1] == 0xff:
		return string(r[:len(r)-1])
	}
	return string(r)
}

// Strings is ids as the IDs they stand for; nil for nil.
func Strings(ids []Packed) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, len(ids))
	for i, r := range ids {
		out[i] = r.String()
	}
	return out
}

// load8 is s[i:i+8] as a little-endian word (one load).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
