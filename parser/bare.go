package parser

import (
	"encoding/binary"
	"math/bits"
)

// bare reads a line that begins with a klog header (no journald, paste or
// grep prefix) as consume's way through parseKlogHeaderTo and begin does,
// looking at as few of its bytes as it can: three lines in four of a -v=4
// kubelet log are declined by Want, and all a declined line gives is its
// place in the line accounting and its time. ok is false when the line is
// left to that way: no header, or one bare does not read (a PID wider
// than klog writes it, no payload).
//
// What it spares, from what lines before it showed:
//   - A header of the second the clock was last moved to has valid digits
//     up to the microseconds (clock.known), and a declined record of that
//     second is no more than its microseconds (clock.same).
//   - The PID field of the line before, valid then, is valid.
//   - A call site logs the message it logged before, most times: sites
//     knows where it ends and Want's answer, so the message is compared,
//     not searched for its closing quote and looked up.
func (r *Reader) bare(line []byte, phys int, start int64) (*Record, bool) {
	w1 := binary.LittleEndian.Uint64(line[1:9])
	w2 := binary.LittleEndian.Uint64(line[9:17])
	w3 := binary.LittleEndian.Uint64(line[13:21])
	k := keyOf(w1, w2)
	if r.clock.known(k) {
		if !microWords(w2, w3) {
			return nil, false
		}
	} else if !headerWords(w1, w2, w3) || !validDate(pairs(w1)) {
		return nil, false
	}
	if line[21] != ' ' {
		return nil, false
	}
	if pw := binary.LittleEndian.Uint64(line[22:30]); pw != r.pidWord || !r.pidOK {
		pid, ok := klogPID(line)
		if !ok {
			return nil, false
		}
		r.pidWord, r.pid, r.pidOK = pw, pid, true
	}
	var (
		sp     int // the space after file:line
		end    int // after the message's closing quote; 0: none
		format = FormatKlog
		want   bool
		known  knownText
	)
	if e := r.sites.find(line); e != nil {
		sp, end, want = 30+e.src, 30+len(e.key), e.want
		if !want && r.opts.Rescue != nil {
			want = r.rescueKlog(line[0], nil, line[end:], &e.rescue)
		}
		known = knownText{msg: e.msg, plain: e.plain, source: e.key[:e.src-1]}
	} else {
		// file:line runs to the first space, after its ']' (klogSource).
		if sp = spaceFrom(line, 30); sp < 0 || line[sp-1] != ']' {
			return nil, false
		}
		payload := line[sp+1:]
		if len(payload) > 0 && payload[0] == '"' {
			msg := klogMsg(payload)
			// (A message without its closing quote could end in a
			// backslash that escapes the quote of a line that has one.)
			if 1+len(msg) < len(payload) {
				end = sp + 1 + len(msg) + 2
			}
			var m *strSlot
			if want, m = r.want(format, msg); m != nil {
				known.msg, known.plain = m.s, m.plain
				if end > 0 {
					r.sites.add(line, sp, end, m.s, want, m.plain)
				}
			}
			if !want && r.opts.Rescue != nil {
				switch {
				case end > 0 && m != nil:
					want = r.rescueKlog(line[0], nil, line[end:], &m.rescue)
				case end > 0:
					want = r.rescueKlog(line[0], nil, line[end:], nil)
				default:
					want = r.rescueKlog(line[0], payload, nil, nil)
				}
			}
		} else {
			format = FormatKlogLegacy
			want, _ = r.want(format, payload)
			if !want && r.opts.Rescue != nil {
				want = r.rescueKlog(line[0], payload, nil, nil)
			}
		}
	}
	var out *Record
	if r.cur.active {
		out = r.flush()
	}
	if want {
		r.open(line, line, nil, format, want, known, phys, start)
		// The header as parseKlogHeaderTo reads it, from what was
		// read of it above.
		h := &r.cur.hdr
		h.sev = severityOf[line[0]]
		h.setTime(w1, w2, w3)
		h.pid, h.srcStart, h.srcEnd, h.payload, h.msgEnd = r.pid, 30, sp-1, sp+1, end
		return out, true
	}
	// open, for a declined record without a prefix.
	p := &r.cur
	if p.want {
		*p = pending{buf: p.buf[:0]}
	}
	p.active, p.want, p.format = true, false, format
	p.line, p.offset, p.length, p.lines = r.lineNo, start, phys, 1
	p.multiline = format == FormatKlog && line[len(line)-1] == '<' && line[len(line)-2] == '='
	if p.hasPfx {
		p.pfx, p.hasPfx = prefix{}, false
	}
	if r.clock.same(k) {
		r.seeMicros(r.clock.sec, microsOf(pairs(w3)))
	} else {
		h := &r.hdr
		parseKlogHeaderTo(h, line)
		r.seeKlogTime(h)
	}
	return out, true
}

// bareHeaderByte marks the first bytes of klog headers, the lines bare
// reads.
var bareHeaderByte = [256]bool{'I': true, 'W': true, 'E': true, 'F': true}

// spaceFrom returns the index of the first space in b from b[i] on, or -1.
// (File names are short: a call of IndexByte costs more than the eight
// bytes a step here.)
func spaceFrom(b []byte, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:]) ^ lo*' '
		if m := (x - lo) &^ x & hi; m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(b); i++ {
		if b[i] == ' ' {
			return i
		}
	}
	return -1
}

// siteTable remembers the structured messages of bare klog lines whose
// PID field klog wrote (the call site starts at b[30]), each with its call
// site (file:line), its length and Want's answer: a call site writes one
// message, as a rule, so that a line's site and message are found by
// comparing them with those remembered under the hash of its first bytes
// after the PID, without looking for the end of either or hashing all of
// the message.
//
// A message is entered with its closing quote found by msgEnd: a line
// that holds it, quote included, at the same place has its closing quote
// there too (msgEnd decides by the bytes up to it), and its file:line
// ends at the same space (klogSource: the first).
type siteTable struct {
	slots []siteSlot // a power of two of them, at most half used
	n     int
}

type siteSlot struct {
	hash  uint64 // siteHash; 0: free
	key   string // b[30:] up to the message's closing quote: `file:line] "msg"`
	msg   string // the raw message, Want's memo's string
	src   int    // the length of file:line and its ']'
	want  bool
	plain bool // msg needs no unquoting
	// rescue is what Options.Rescue learnt of the site's fields
	// (rescue.go), 0 until it looked.
	rescue uint8
}

const (
	sitesMax = 4096
	// siteHashed is the bytes from b[30] that siteHash mixes: with a
	// site's line number and the start of its message (kubelet file
	// names run to 25 bytes), and no longer than the keys entered.
	siteHashed = 32
	// siteSame bounds the messages entered under one hash (a site that
	// logs messages that differ only past the bytes hashed), so that a
	// lookup compares a few at most.
	siteSame = 4
)

// siteHash mixes siteHashed bytes of line from b[30].
func siteHash(line []byte) uint64 {
	t := line[30 : 30+siteHashed]
	a := binary.LittleEndian.Uint64(t[0:8])
	b := binary.LittleEndian.Uint64(t[8:16])
	c := binary.LittleEndian.Uint64(t[16:24])
	d := binary.LittleEndian.Uint64(t[24:32])
	h := (a ^ bits.RotateLeft64(b, 17) ^ bits.RotateLeft64(c, 31) ^ bits.RotateLeft64(d, 47)) * 0x9e3779b97f4a7c15
	return h ^ h>>32 | 1
}

// find returns the entry whose key line holds at b[30], or nil.
func (t *siteTable) find(line []byte) *siteSlot {
	if len(t.slots) == 0 || len(line) < 30+siteHashed {
		return nil
	}
	h := siteHash(line)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if e.hash == 0 {
			return nil
		}
		if e.hash == h && len(e.key) <= len(line)-30 && string(line[30:30+len(e.key)]) == e.key {
			return e
		}
	}
}

// add enters the message that the quote at line[sp+1] opens and a quote
// closes before line[end], msg, with Want's answer.
func (t *siteTable) add(line []byte, sp, end int, msg string, want, plain bool) {
	if end-30 < siteHashed || t.n >= sitesMax {
		return
	}
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		t.slots = make([]siteSlot, max(256, 2*len(old)))
		mask := uint64(len(t.slots) - 1)
		for _, e := range old {
			if e.hash != 0 {
				i := e.hash & mask
				for t.slots[i].hash != 0 {
					i = (i + 1) & mask
				}
				t.slots[i] = e
			}
		}
	}
	h := siteHash(line)
	mask := uint64(len(t.slots) - 1)
	same := 0
	i := h & mask
	for ; t.slots[i].hash != 0; i = (i + 1) & mask {
		if t.slots[i].hash == h {
			same++
		}
	}
	if same >= siteSame {
		return
	}
	t.slots[i] = siteSlot{hash: h, key: string(line[30:end]), msg: msg, src: sp - 30, want: want, plain: plain}
	t.n++
}
