package parser

import (
	"bytes"
	"unicode/utf8"
)

// Lines cut at a fixed width: terminal captures, `systemctl status` (whose
// journal lines end at the terminal's width, with "…" or without), pastes
// into fields of limited length. What is there is read; a quoted value or
// list left open is closed; the record is marked Truncated, so that a
// consumer never takes a name cut short for a whole one. A record is cut
// when its text ends inside a quoted value, list or object, when its last
// line ends in an ellipsis, or when that line is as wide as the input's
// lines are cut (cutWidth).

// cutWidth returns the width in runes at which the lines in buf (the start
// of an input) are cut, or 0: the width of the widest log lines, when at
// least three are exactly that wide, no log line is wider, the lines after
// most of them start a log line (a hard-wrapped input goes on in the line
// after), and a quarter of them show the cut: a quote left open, or an
// ellipsis.
func cutWidth(buf []byte) int {
	type line struct {
		w    int
		log  bool // it starts a log line
		next bool // the line after it does
		cut  bool // it ends inside quotes, or in an ellipsis
	}
	var ls []line
	for len(buf) > 0 && len(ls) < 4096 {
		l := buf
		if nl := bytes.IndexByte(buf, '\n'); nl >= 0 {
			l, buf = buf[:nl], buf[nl+1:]
		} else {
			buf = nil
		}
		l = bytes.TrimRight(l, "\r")
		log := startsLogLine(l) || peelsToLog(l)
		if n := len(ls); n > 0 {
			ls[n-1].next = log
		}
		ls = append(ls, line{w: utf8.RuneCount(l), log: log, cut: ellipsis(l) > 0 || oddQuotes(l)})
	}
	m := 0
	for _, l := range ls {
		if l.log {
			m = max(m, l.w)
		}
	}
	if m < minWrapWidth || m > maxCutWidth {
		return 0
	}
	n, starts, cut := 0, 0, 0
	for _, l := range ls {
		if l.log && l.w == m {
			n++
			if l.next {
				starts++
			}
			if l.cut {
				cut++
			}
		}
	}
	if n < 3 || 2*starts <= n || 4*cut < n {
		return 0
	}
	return m
}

// oddQuotes reports a line that ends inside a quoted string.
func oddQuotes(b []byte) bool {
	in, esc := false, false
	for _, c := range b {
		switch {
		case esc:
			esc = false
		case c == '\\':
			esc = in
		case c == '"':
			in = !in
		}
	}
	return in
}

// maxCutWidth bounds the widths taken for a cut: terminals and the fields
// people paste into are narrower (lineWidth is exact up to it).
const maxCutWidth = 1024

// ellipsis reports a line that ends in "…" or "...", the mark systemctl,
// journalctl and log viewers leave where they cut.
func ellipsis(b []byte) int {
	switch {
	case bytes.HasSuffix(b, []byte("…")):
		return len("…")
	case bytes.HasSuffix(b, []byte("...")) && len(b) > 3 && b[len(b)-4] != '.':
		return 3
	}
	return 0
}

// closers returns what closes the quoted string, lists and objects that
// the value text v leaves open ("" when it closes all it opens), and v
// without a backslash cut from its escape.
func closers(v string) (string, string) {
	var stack []byte
	in, esc := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		if in {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
			continue
		}
		switch c {
		case '"':
			in = true
		case '[', '{':
			stack = append(stack, c)
		case ']', '}':
			if n := len(stack); n > 0 {
				stack = stack[:n-1]
			}
		}
	}
	if esc {
		v = v[:len(v)-1]
	}
	var b []byte
	if in {
		b = append(b, '"')
	}
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i] == '[' {
			b = append(b, ']')
		} else {
			b = append(b, '}')
		}
	}
	return string(b), v
}

// closeCut reads again the last field of a record whose text was cut
// inside it (a quoted value, list or object left open), closed. It
// reports whether it was.
func (r *Reader) closeCut(kv string, rec *Record) bool {
	n := len(rec.Fields)
	if n == 0 {
		return false
	}
	f := &rec.Fields[n-1]
	if f.Value.Kind != KindBare || f.Raw == "" || f.Raw[0] != '"' && f.Raw[0] != '[' && f.Raw[0] != '{' {
		return false
	}
	close, raw := closers(f.Raw)
	if close == "" {
		return false
	}
	text := f.Key + "=" + raw + close
	fields := parseKV(text, nil, &r.scratch)
	r.scratch.trim()
	if len(fields) != 1 || fields[0].Key != f.Key {
		return false
	}
	orig := f.Raw
	*f = fields[0]
	f.Raw = orig // (as written)
	if f.Value.Kind == KindQuoted {
		// (Not as written: closed.)
		f.Value = Value{Kind: KindString, Str: unquoteKept(f.Value.Str)}
	}
	f.Value = cloneValue(f.Value)
	return true
}

// cutMessage reads the structured message of a klog payload cut before
// its closing quote.
func (r *Reader) cutMessage(payload []byte) (string, bool) {
	if len(payload) < 2 || payload[0] != '"' {
		return "", false
	}
	_, body := closers(string(payload))
	if str, e := quoted(body+`"`, 0, &r.scratch); e == len(body)+1 {
		return string(str), true
	}
	return "", false
}
