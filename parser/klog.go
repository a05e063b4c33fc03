package parser

import (
	"bytes"
	"encoding/binary"
	"unsafe"
)

// klogHeader is the decoded fixed part of `Lmmdd hh:mm:ss.uuuuuu PID file:line] `.
type klogHeader struct {
	sev Severity
	// noTime: the line had no "Lmmdd hh:mm:ss.uuuuuu" (headerless.go):
	// the record's time is its prefix's, or none; the clock is not moved.
	noTime                 bool
	month, day             int
	hour, min, sec, micros int
	pid                    int
	srcStart, srcEnd       int // file:line
	payload                int // index of the payload after "] "
	// second is "mmdd hh:mm:ss" as written, in two words (see
	// secondKey): equal keys are the same second, and a line whose key
	// is that of a header read before has valid digits there.
	second secondKey
	// msgEnd, when not 0, is the index in the line just past the closing
	// quote of a structured message, which Reader.bare found.
	msgEnd int
}

// secondKey is the bytes b[1:9] and b[9:14] of a klog header line, the
// second it was written in. (A struct, not an array: the compiler keeps
// its words in registers.)
type secondKey struct{ day, sec uint64 }

// keyOf returns the secondKey of a header line from the words
// b[1:9] and b[9:17] that parseKlogHeaderTo reads.
func keyOf(w1, w2 uint64) secondKey { return secondKey{w1, w2 & 0xff_ffff_ffff} }

func digits(b []byte, i, n int) (int, bool) {
	v := 0
	for k := i; k < i+n; k++ {
		c := b[k]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// severityOf maps the first byte of a klog header to its severity.
var severityOf = [256]Severity{'I': SeverityInfo, 'W': SeverityWarning, 'E': SeverityError, 'F': SeverityFatal}

// parseKlogHeader reads the klog header at the start of b by fixed offsets
// (no regexp: this runs on every line).
func parseKlogHeader(b []byte) (h klogHeader, ok bool) {
	ok = parseKlogHeaderTo(&h, b)
	return h, ok
}

// parseKlogHeaderTo is parseKlogHeader into *h, every field of which it
// sets when it returns true. (Returned, the 88-byte header is copied
// right after its fields were stored one by one, and the copy waits for
// them.)
func parseKlogHeaderTo(h *klogHeader, b []byte) bool {
	if len(b) < 30 {
		return false
	}
	switch b[0] {
	case 'I':
		h.sev = SeverityInfo
	case 'W':
		h.sev = SeverityWarning
	case 'E':
		h.sev = SeverityError
	case 'F':
		h.sev = SeverityFatal
	default:
		return false
	}
	// "mmdd hh:mm:ss.uuuuuu" at b[1:21], checked as three words (see
	// headerWords): one test for all of it instead of one per byte.
	w1 := binary.LittleEndian.Uint64(b[1:9])   // mmdd hh:
	w2 := binary.LittleEndian.Uint64(b[9:17])  // mm:ss.uu
	w3 := binary.LittleEndian.Uint64(b[13:21]) // s.uuuuuu
	if !headerWords(w1, w2, w3) {
		return false
	}
	h.setTime(w1, w2, w3)
	if h.month < 1 || h.month > 12 || h.day < 1 || h.day > 31 {
		return false
	}
	if b[21] != ' ' {
		return false
	}
	h.msgEnd, h.noTime = 0, false
	i := 30
	if pid, ok := klogPID(b); ok {
		h.pid = pid
	} else if i, ok = pidField(h, b); !ok {
		return false
	}
	h.srcStart = i
	var ok bool
	h.srcEnd, h.payload, ok = klogSource(b, i)
	return ok
}

// setTime sets the time of h from the words b[1:9], b[9:17] and b[13:21]
// of its line, which headerWords accepts.
func (h *klogHeader) setTime(w1, w2, w3 uint64) {
	// The two-digit numbers, read from the words: byte k of pairs(w) is
	// the number of the digits at bytes k and k+1 of w.
	p1, p2, p3 := pairs(w1), pairs(w2), pairs(w3)
	h.month, h.day, h.hour = int(p1&0xff), int(p1>>16&0xff), int(p1>>40&0xff)
	h.min, h.sec = int(p2&0xff), int(p2>>24&0xff)
	h.micros = microsOf(p3)
	h.second = keyOf(w1, w2)
}

// microsOf returns the microseconds of a header from pairs of its word
// b[13:21] ("s.uuuuuu").
func microsOf(p3 uint64) int {
	return int(p3>>16&0xff)*10000 + int(p3>>32&0xff)*100 + int(p3>>48&0xff)
}

// pairs returns w, a word of digits (and other bytes), with the number of
// the digits at bytes k and k+1 in byte k. (A byte's low four bits are its
// digit; 10 times one plus the next is at most 165: no byte carries into
// the next.)
func pairs(w uint64) uint64 {
	w &= 0x0f0f0f0f0f0f0f0f
	return w*10 + w>>8
}

// klogPID reads the PID of a header as klog writes it: right-aligned in
// the seven bytes b[22:29] ("%7d": spaces, then digits) between the
// spaces at b[21] and b[29], looked at as one word instead of byte by
// byte. ok is false for any other field (a wider PID, more spaces), which
// pidField reads.
func klogPID(b []byte) (pid int, ok bool) {
	const (
		lo, hi = 0x0101010101010101, 0x8080808080808080
		hi7    = hi >> 8 // the top bits of bytes 0-6
	)
	w := binary.LittleEndian.Uint64(b[22:30])
	if w>>56 != ' ' {
		return 0, false
	}
	// The top bit of (x&0x7f)+0x76 | x is set where the byte x of w^'0'
	// is 10 or more (not a digit), and that of (y&0x7f)+0x7f | y where
	// the byte y of w^' ' is not 0 (not a space); no byte carries into
	// the next.
	x, y := w^lo*'0', w^lo*' '
	notDigit := ((x &^ hi) + lo*0x76 | x) & hi7
	notSpace := ((y &^ hi) + lo*0x7f | y) & hi7
	digit := hi7 &^ notDigit
	// Each byte a digit or a space, and the digits one run up to b[28].
	if digit == 0 || notDigit&notSpace != 0 || digit != hi7&^(digit&-digit-1) {
		return 0, false
	}
	// The digits as a number of eight, spaces as leading zeros (a space's
	// low four bits are 0), combined in pairs, fours and eights (the
	// first digit is in the lowest byte).
	v := w << 8 & 0x0f0f0f0f0f0f0f0f
	v = v * (10<<8 + 1) >> 8
	v = (v & 0x00ff00ff00ff00ff) * (100<<16 + 1) >> 16
	v = (v & 0x0000ffff0000ffff) * (10000<<32 + 1) >> 32
	return int(uint32(v)), true
}

// pidField reads the PID field of a header that klogPID does not, from the
// space at b[21] on: spaces, digits (of which the first ten make the PID)
// and a space. It returns the index after that space.
func pidField(h *klogHeader, b []byte) (int, bool) {
	i := 21
	for i < len(b) && b[i] == ' ' {
		i++
	}
	ps := i
	pid := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if i-ps < 10 {
			pid = pid*10 + int(b[i]-'0')
		}
		i++
	}
	h.pid = pid
	if i == ps || i >= len(b) || b[i] != ' ' {
		return 0, false
	}
	return i + 1, true
}

// headerWords reports whether the words w1, w2, w3 read at b[1:9],
// b[9:17] and b[13:21] of a line are the "mmdd hh:mm:ss.uuuuuu" of a klog
// header: digits and, between them, ' ', ':', ':' and '.'.
//
// A byte x is a digit when its high nibble is 3 and that of x+6 too; the
// other bytes are masked off. (x+6 carries into the next byte only for x
// of 0xfa and above, which fails the first test: the answer is no anyway.)
func headerWords(w1, w2, w3 uint64) bool {
	const (
		// digit bytes of each word, and the separators' bytes and values
		d1, s1, v1 = 0x00ffff00ffffffff, 0xff0000ff00000000, uint64(':')<<56 | uint64(' ')<<32
		d2, s2, v2 = 0xffff00ffff00ffff, 0x0000ff0000ff0000, uint64('.')<<40 | uint64(':')<<16
		d3         = 0xffffffffffff0000
	)
	return w1&s1 == v1 && w2&s2 == v2 && digitBytes(w1, d1) && digitBytes(w2, d2) && digitBytes(w3, d3)
}

// digitBytes reports whether the bytes of w that mask m selects are
// digits (see headerWords).
func digitBytes(w, m uint64) bool {
	const hi, six, three = 0xf0f0f0f0f0f0f0f0, 0x0606060606060606, 0x3030303030303030
	w &= m
	return w&hi == three&m && (w+six&m)&hi == three&m
}

// microWords is headerWords for the words of a header whose second is
// known to be valid (clock.known): the '.' at b[14] and the digits of
// b[15:21].
func microWords(w2, w3 uint64) bool {
	return w2>>40&0xff == '.' && digitBytes(w3, 0xffffffffffff0000)
}

// validDate reports whether the month and day of a header, from pairs of
// its word b[1:9], are in range.
func validDate(p1 uint64) bool {
	month, day := p1&0xff, p1>>16&0xff
	return month-1 < 12 && day-1 < 31
}

// klogSource finds the end of the header's file:line, which starts at
// b[i] and holds no space, and the payload after it: file:line ends with
// the "] " at the first space.
func klogSource(b []byte, i int) (srcEnd, payload int, ok bool) {
	sp := bytes.IndexByte(b[i:], ' ')
	if sp < 0 {
		// A header with an empty payload ends in "]".
		if len(b) > 0 && b[len(b)-1] == ']' {
			return len(b) - 1, len(b), true
		}
		return 0, 0, false
	}
	if sp == 0 || b[i+sp-1] != ']' {
		return 0, 0, false
	}
	return i + sp - 1, i + sp + 1, true
}

// klogMsg returns the raw (still quoted) message bytes of a klog payload,
// for the cheap Want filter.
func klogMsg(payload []byte) []byte {
	if len(payload) > 0 && payload[0] == '"' {
		if e := msgEnd(payload, 0); e > 0 {
			return payload[1 : e-1]
		}
		return payload[1:]
	}
	return payload
}

// decodeKlog fills rec from a complete klog record (header line plus any
// continuation lines joined with '\n').
//
// The text of the fields is copied in one string, as encoding/csv copies
// a record, and keys, raw texts and values are substrings of it (the
// string made in the Reader's text arena, with those of other records). The
// header, read into numbers, and the source and message, which the
// kubelet repeats on every line of a kind, are not part of it: the source
// and a message with nothing to unquote are interned per Reader (a
// message with escapes is decoded into its own string).
//
// k.msg, when not "", is the raw message of the record's first line as
// Want's memo keeps it, and k.plain says whether it needs no unquoting.
// The raw message of the record starts where the first line's does, in
// bytes that are the first line's: when it is as long, it is the same, and
// k.msg serves as its interned string. k.source, when not "", is the
// source interned, and h.msgEnd, when not 0, where the message ends.
//
// inPlace says that b stays as it is while the record is used
// (Options.Borrow): the text of the fields is not copied.
func (r *Reader) decodeKlog(b []byte, h *klogHeader, rec *Record, k *knownText, inPlace bool) {
	rec.Severity = h.sev
	rec.PID = h.pid
	if rec.Source = k.source; rec.Source == "" {
		rec.Source = r.intern(b[h.srcStart:h.srcEnd])
	}
	if !h.noTime {
		rec.Time = r.clock.klogTime(h)
	}
	rec.Verbosity = -1
	payload := b[h.payload:]
	if len(payload) > 0 && payload[0] == '"' {
		e := h.msgEnd - h.payload
		if h.msgEnd == 0 {
			e = msgEnd(payload, 0)
		}
		if e > 0 {
			memo, plain := k.msg, k.plain
			rec.Format = FormatKlog
			raw := payload[1 : e-1]
			if memo == "" || len(memo) != len(raw) {
				memo, plain = "", plainLen(view(raw)) == len(raw)
			}
			if plain {
				rec.Msg = memo
				if memo == "" {
					rec.Msg = r.intern(raw)
				}
			} else {
				rec.Msg = quotedCopy(view(payload[:e]), &r.scratch)
			}
			kv := view(payload[e:])
			if !inPlace {
				kv = r.text.copy(payload[e:])
			}
			rec.Fields = parseKV(kv, rec.Fields[:0], &r.scratch)
			r.scratch.trim()
			if n := len(rec.Fields); n > 0 && rec.Fields[n-1].Value.Kind == KindBare && r.closeCut(kv, rec) {
				rec.Truncated = true
			}
			for i := range rec.Fields { // (a Field is 112 bytes: not copied)
				if f := &rec.Fields[i]; f.Key == "err" {
					rec.Err = f.Value.String()
					break
				}
			}
			return
		}
	}
	rec.Fields = rec.Fields[:0]
	if len(payload) > 0 && payload[0] == '"' && bytes.IndexByte(payload, '\n') < 0 {
		// A structured message cut before its closing quote.
		if msg, ok := r.cutMessage(payload); ok {
			rec.Format, rec.Msg, rec.Truncated = FormatKlog, msg, true
			return
		}
	}
	rec.Format = FormatKlogLegacy
	rec.Msg = r.text.copy(bytes.TrimRight(payload, " \n"))
}

// knownText is what the reader knew of the first line of a klog record
// when it began, for decodeKlog.
type knownText struct {
	msg    string // the raw message as Want's memo holds it, or ""
	plain  bool   // msg needs no unquoting
	source string // file:line, interned, or ""
}

// internMax and internLen bound what a Reader interns: a message that
// embeds values is not repeated, and should not fill the table.
const (
	internMax = 4096
	internLen = 128
)

// intern returns b as a string, the same string each time for short
// texts seen before.
func (r *Reader) intern(b []byte) string {
	if len(b) > internLen {
		return string(b)
	}
	if e := r.strs.find(b); e != nil {
		return e.s
	}
	s := string(b)
	if r.strs.n < internMax {
		r.strs.add(s)
	}
	return s
}

// view is b as a string, to be scanned, not kept: nothing taken from it
// may outlive b's next reuse. (quoted returns substrings of its input;
// quotedCopy does not.)
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// decodeJSON fills rec from a --logging-format=json line.
func (r *Reader) decodeJSON(b []byte, rec *Record) bool {
	v, _, ok := parseJSON(string(b), 0, 0, &r.scratch)
	r.scratch.trim()
	if !ok || v.Kind != KindObject {
		return false
	}
	rec.Format = FormatJSON
	rec.Verbosity = -1
	rec.Fields = rec.Fields[:0]
	hasV := false
	for _, f := range v.Obj {
		switch f.Key {
		case "ts":
			if f.Value.Kind == KindNumber {
				rec.Time = epochMillis(f.Value).In(r.clock.loc)
				r.clock.anchor(rec.Time)
			}
		case "caller":
			rec.Source = f.Value.Str
		case "msg":
			rec.Msg = f.Value.Str
		case "v":
			hasV = true
			rec.Verbosity = int(f.Value.Num)
		case "err":
			rec.Err = f.Value.String()
			rec.Fields = append(rec.Fields, f)
		case "level":
			rec.Severity = parseLevel(f.Value.Str)
		default:
			rec.Fields = append(rec.Fields, f)
		}
	}
	if rec.Severity == SeverityUnknown {
		if !hasV && rec.Err != "" {
			rec.Severity = SeverityError
		} else {
			rec.Severity = SeverityInfo
		}
	}
	return true
}

// jsonMsg finds the raw "msg" value of a JSON line without decoding it.
func jsonMsg(b []byte) []byte {
	k := bytes.Index(b, []byte(`"msg":"`))
	if k < 0 {
		return nil
	}
	s := k + 6
	e := msgEnd(b, s)
	if e < 0 {
		return b[s+1:]
	}
	return b[s+1 : e-1]
}

func parseLevel(s string) Severity {
	switch s {
	case "debug", "trace", "DEBUG", "TRACE":
		return SeverityDebug
	case "info", "INFO":
		return SeverityInfo
	case "warn", "warning", "WARN", "WARNING":
		return SeverityWarning
	case "error", "ERROR":
		return SeverityError
	case "fatal", "panic", "FATAL", "PANIC":
		return SeverityFatal
	}
	return SeverityUnknown
}
