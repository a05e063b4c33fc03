package parser

import (
	"bytes"
	"encoding/binary"
	"unsafe"
)

// klogHeader is the decoded fixed part of `Lmmdd hh:mm:ss.uuuuuu PID file:line] `.
type klogHeader struct {
	sev                    Severity
	month, day             int
	hour, min, sec, micros int
	pid                    int
	srcStart, srcEnd       int // file:line
	payload                int // index of the payload after "] "
}

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

// digit2 reads the two decimal digits at b[i:]. (A byte below '0' wraps
// round to more than 9.)
func digit2(b []byte, i int) (int, bool) {
	x, y := b[i]-'0', b[i+1]-'0'
	return int(x)*10 + int(y), x <= 9 && y <= 9
}

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
	d := func(i int) int { return int(b[i]-'0')*10 + int(b[i+1]-'0') }
	h.month, h.day, h.hour, h.min, h.sec = d(1), d(3), d(6), d(9), d(12)
	if h.month < 1 || h.month > 12 || h.day < 1 || h.day > 31 {
		return false
	}
	h.micros = d(15)*10000 + d(17)*100 + d(19)
	i := 21
	if i >= len(b) || b[i] != ' ' {
		return false
	}
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
		return false
	}
	i++
	h.srcStart = i
	var ok bool
	h.srcEnd, h.payload, ok = klogSource(b, i)
	return ok
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
		hi, six    = 0xf0f0f0f0f0f0f0f0, 0x0606060606060606
		three      = 0x3030303030303030
	)
	digits := func(w, m uint64) bool {
		w &= m
		return w&hi == three&m && (w+six&m)&hi == three&m
	}
	return w1&s1 == v1 && w2&s2 == v2 && digits(w1, d1) && digits(w2, d2) && digits(w3, d3)
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
// memo, when not "", is the raw message of the record's first line as
// Want's memo keeps it, and plain says whether it needs no unquoting. The
// raw message of the record starts where the first line's does, in bytes
// that are the first line's: when it is as long, it is the same, and memo
// serves as its interned string.
func (r *Reader) decodeKlog(b []byte, h klogHeader, rec *Record, memo string, plain bool) {
	rec.Severity = h.sev
	rec.PID = h.pid
	rec.Source = r.intern(b[h.srcStart:h.srcEnd])
	rec.Time = r.clock.klogTime(&h)
	rec.Verbosity = -1
	payload := b[h.payload:]
	if len(payload) > 0 && payload[0] == '"' {
		if e := msgEnd(payload, 0); e > 0 {
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
			rec.Fields = parseKV(r.text.copy(payload[e:]), rec.Fields[:0], &r.scratch)
			r.scratch.trim()
			for _, f := range rec.Fields {
				if f.Key == "err" {
					rec.Err = f.Value.String()
					break
				}
			}
			return
		}
	}
	rec.Format = FormatKlogLegacy
	rec.Msg = r.text.copy(bytes.TrimRight(payload, " \n"))
	rec.Fields = rec.Fields[:0]
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
