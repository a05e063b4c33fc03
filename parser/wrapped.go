package parser

import (
	"bytes"

	"github.com/go-logfmt/logfmt"
)

// Log lines inside a logrus line. k0s runs the kubelet (and containerd)
// as child processes and logs each line of their standard error as a
// logrus line of its own, the child's whole line the msg value, escaped:
//
//	time="2026-11-22 06:03:25" level=info msg="I1122 06:03:25.671345    1234 kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"default/web-0\"]" component=kubelet stream=stderr
//
// The record is the inner line, read as its writer wrote it: a kubelet
// line's time from its klog header (the wrapper's, to the second and in
// the same zone, is the fallback and gives the year), its severity letter
// (k0s logs all of standard error at level=info), PID and call site; a
// containerd line inside one (component=containerd) as the logrus line it
// is (logrus.go). The wrapper's component names the record's.
//
// A paste that went through a markdown editor carries its escapes: a
// backslash before `_`, `[`, `]` and before the backslashes themselves
// (`remote\_runtime.go:176\] \\"RunPodSandbox …\\"`). Neither logfmt nor
// Go's quoting writes `\_` or `\]`, so a line with them is unescaped
// first. A quote escaped once more than klog writes it (the payload
// starting `\"`) is unescaped once more. A wrapper cut before its msg
// closes (a terminal's width) gives the inner line up to the cut, marked
// Truncated. A wrapper is a line of its own: the text after it is no
// continuation of it (k0s wraps each line of a multi-line message).
//
// The logrus lines of containerd and CRI-O themselves are no wrappers:
// their msg is no log line, which consume tells by its first bytes.

// wrapsLine reports whether the raw msg of a logrus line starts with a
// klog header or a logrus line's time: the first bytes of the wrapped
// line, which no escape changes.
func wrapsLine(msg []byte) bool {
	// (Short: a markdown editor's `time=\\"` ends the raw msg early.)
	if len(msg) < 6 {
		return false
	}
	if bareHeaderByte[msg[0]] {
		return isDigit(msg[1]) && isDigit(msg[4]) && msg[5] == ' '
	}
	return string(msg[:5]) == "time="
}

// wrapped begins the record of the logrus line content (line as read, its
// prefix pfx) whose msg is a log line, as begin does for that line. A
// wrapper whose inner line does not read is begun as the logrus line.
func (r *Reader) wrapped(line, content []byte, pfx *prefix, phys int, start int64) *Record {
	inner, cut, ok := r.unwrap(content, pfx)
	if !ok {
		return r.begin(line, content, pfx, FormatLogrus, &klogHeader{}, logrusMsg(content), phys, start)
	}
	format, h, msg := classify(inner)
	if pfx.journal {
		r.judgeComponent(pfx, format, inner, &h)
	}
	// inner is in r.wrap, which the next wrapper is decoded into before
	// this record is made: the record keeps a copy, not a reference to
	// where it was read.
	stable := r.stable
	r.stable = false
	out := r.begin(line, inner, pfx, format, &h, msg, phys, start)
	r.stable = stable
	if r.cur.want {
		r.cur.cut = cut
	}
	r.wrapLine = r.cur.line
	return out
}

// unwrap decodes the wrapper b into r.wrap and returns the line it holds,
// whether the wrapper was cut inside it, and false when it holds no klog
// or logrus line. The wrapper's time, when it has one and pfx none,
// becomes pfx's (and anchors the year), its component pfx's.
func (r *Reader) unwrap(b []byte, pfx *prefix) ([]byte, bool, bool) {
	switch {
	case mdDoubled(b):
		r.wrapMd = mdUnescape(r.wrapMd[:0], b, true)
		b = r.wrapMd
	case mdEscaped(b):
		r.wrapMd = mdUnescape(r.wrapMd[:0], b, false)
		b = r.wrapMd
	}
	return r.unwrapAs(b, pfx)
}

// unwrapAs is unwrap for a wrapper with no markdown escapes.
func (r *Reader) unwrapAs(b []byte, pfx *prefix) ([]byte, bool, bool) {
	comp := ""
	msgOK, cut := false, false
	d := logfmt.NewDecoderSize(bytes.NewReader(b), len(b)+1)
	if d.ScanRecord() {
		for d.ScanKeyval() {
			switch v := d.Value(); string(d.Key()) {
			case "time":
				if t, off, has, n, ok := parseISO(v, 0); ok && n == len(v) {
					tt := t.date(t.year, r.zone(off, has)).In(r.clock.loc)
					r.clock.anchor(tt)
					if !pfx.hasTime {
						pfx.time, pfx.hasTime = tt, true
					}
				}
			case "msg":
				r.wrap = append(r.wrap[:0], v...)
				msgOK = true
			case "component":
				comp = r.interned.get(v) // (v is the decoder's, until its next value)
			}
		}
	}
	if d.Err() != nil || !msgOK {
		// Cut inside a value (or no logfmt past the msg): the msg as
		// written, up to the cut, its escapes undone as far as they go.
		raw := logrusMsg(b)
		if raw == nil {
			return nil, false, false
		}
		cut = msgEnd(b, cap(b)-cap(raw)-1) < 0 // (raw is b[quote+1:…])
		r.wrap = appendUnescaped(r.wrap[:0], raw)
	}
	inner := r.wrap
	var h klogHeader
	switch {
	case parseKlogHeaderTo(&h, inner):
		if bytes.HasPrefix(inner[h.payload:], []byte(`\"`)) {
			// Its quotes escaped once more than klog writes them.
			r.wrapMd = appendUnescaped(r.wrapMd[:0], inner)
			r.wrap, r.wrapMd = r.wrapMd, r.wrap
			inner = r.wrap
		}
	case bytes.HasPrefix(inner, []byte(`time="`)):
	default:
		return nil, false, false
	}
	if comp != "" {
		pfx.component = comp
	}
	return inner, cut, true
}

// mdEscape marks the ASCII punctuation markdown escapes with a backslash
// that neither logfmt nor Go's quoting does (they escape `"` and `\`).
var mdEscape = func() (t [256]bool) {
	for _, c := range []byte("!#$%&'()*+,-.:;<=>?@[]^_`{|}~") {
		t[c] = true
	}
	return t
}()

// mdEscaped reports a backslash before a byte only markdown escapes.
func mdEscaped(b []byte) bool {
	for i := 0; i+1 < len(b); i++ {
		k := bytes.IndexByte(b[i:], '\\')
		if k < 0 || i+k+1 >= len(b) {
			return false
		}
		i += k + 1
		if mdEscape[b[i]] {
			return true
		}
	}
	return false
}

// mdDoubled reports a wrapper whose backslashes a markdown editor
// doubled: the wrapped line's first quote, after a klog header's "] " or
// a logrus line's "time=", is preceded by two.
func mdDoubled(b []byte) bool {
	return bytes.Contains(b, []byte(`] \\"`)) || bytes.Contains(b, []byte(`msg="time=\\"`))
}

// mdUnescape appends b to dst as it was before a markdown editor escaped
// it: a backslash before the punctuation only markdown escapes dropped,
// and with all, before a backslash or a quote too (an editor that
// escapes backslashes made k0s's `\"` `\\"`).
func mdUnescape(dst, b []byte, all bool) []byte {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\\' && i+1 < len(b) {
			if n := b[i+1]; mdEscape[n] || all && (n == '\\' || n == '"' || n == '/') {
				i++
				c = n
			} else {
				dst = append(dst, c)
				i++
				c = n // (an escape of its own: kept whole)
			}
		}
		dst = append(dst, c)
	}
	return dst
}
