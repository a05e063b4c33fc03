package parser

import (
	"encoding/binary"
	"math/bits"
)

// wantMemoMax bounds the memo of Want answers; messages past it are asked
// each time.
const wantMemoMax = 4096

// want asks Options.Want about a record's raw message. Structured klog
// messages are few and repeat on every line of their kind, so the answer
// is remembered (Want is a function of the message alone); printf
// messages, which embed values, are asked each time.
//
// The entry of a remembered message comes back too: its text serves as
// the record's message (see decodeKlog).
func (r *Reader) want(format Format, msg []byte) (bool, *strSlot) {
	if r.opts.Want == nil {
		return true, nil
	}
	if format != FormatKlog && format != FormatJSON || len(msg) > 128 {
		return r.opts.Want(msg), nil
	}
	if e := r.wantMemo.find(msg); e != nil {
		return e.want, e
	}
	v := r.opts.Want(msg)
	if r.wantMemo.n >= wantMemoMax {
		return v, nil
	}
	e := r.wantMemo.add(string(msg))
	e.want = v
	return v, e
}

// strTable is a hash set of short strings (Want's answers, interned
// texts). It is cheaper than a map on every line: its hash takes the
// length and the first and last eight bytes of the text (a map hashes all
// of it), and a lookup is then one comparison with the entry found, most
// times. Entries are never removed.
type strTable struct {
	slots []strSlot // a power of two of them, at most half used
	n     int
	small bool // starts with a few slots, not 256 (a small input's)
}

type strSlot struct {
	s     string
	used  bool
	want  bool // Want's answer for s
	plain bool // s needs no unquoting (plainLen)
	// rescue is what Options.Rescue learnt of the message's fields
	// (rescue.go), 0 until it looked.
	rescue uint8
}

// find returns the entry for b, or nil.
func (t *strTable) find(b []byte) *strSlot {
	if len(t.slots) == 0 {
		return nil
	}
	mask := uint64(len(t.slots) - 1)
	for i := msgHash(b) & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if !e.used {
			return nil
		}
		if e.s == string(b) {
			return e
		}
	}
}

// add enters s, which is not in t yet, and returns its entry.
func (t *strTable) add(s string) *strSlot {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		least := 256
		if t.small {
			least = 8
		}
		t.slots = make([]strSlot, max(least, 2*len(old)))
		t.n = 0
		for _, e := range old {
			if e.used {
				*t.add(e.s) = e
			}
		}
	}
	mask := uint64(len(t.slots) - 1)
	i := msgHash([]byte(s)) & mask
	for t.slots[i].used {
		i = (i + 1) & mask
	}
	t.n++
	e := &t.slots[i]
	*e = strSlot{s: s, used: true, plain: plainLen(s) == len(s)}
	return e
}

// msgHash mixes the length and the first and last eight bytes of b.
func msgHash(b []byte) uint64 {
	var h uint64
	if n := len(b); n >= 8 {
		h = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 29)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	h ^= uint64(len(b)) << 56
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>29
}
