package parser

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/swar"
)

func hasPrefixAt(b string, i int, p string) bool {
	return len(b)-i >= len(p) && string(b[i:i+len(p)]) == p
}

// bracketEnd returns the index after the bracketed group starting at b[i]
// (one of '{', '[' or '('), matching nested brackets and skipping quoted
// strings, or -1 when it does not close.
func bracketEnd(b string, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			e := quotedEnd(b, j)
			if e < 0 {
				return -1
			}
			j = e - 1
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

// bracketEndLim is bracketEnd that charges a failed match, which scanned
// to the end of b, to lim.scan, and gives up once that is spent.
func bracketEndLim(b string, i int, lim *limits) int {
	if lim.scan <= 0 {
		return -1
	}
	e := bracketEnd(b, i)
	if e < 0 {
		lim.scan -= len(b) - i
	}
	return e
}

func isKeyByte(c byte) bool { return keyByte[c] }

// keyByte marks the bytes of klog keys.
var keyByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/'
	}
	return t
}()

// keyAt reports whether b[i:] starts with `key=`.
func keyAt(b string, i int) bool {
	j := i
	for j < len(b) && isKeyByte(b[j]) {
		j++
	}
	return j > i && j < len(b) && b[j] == '='
}

// parseKV reads klog's ` key=value …` pairs from b (the payload after the
// quoted message) and appends them to fields.
func parseKV(b string, fields []Field, sc *scratch) []Field {
	lim := newLimits(len(b), sc)
	lim.lazyTop = true
	return parseKVLim(b, fields, lim)
}

func parseKVLim(b string, fields []Field, lim *limits) []Field {
	i := 0
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return fields
		}
		ks := i
		for i < len(b) && isKeyByte(b[i]) {
			i++
		}
		if i == ks || i >= len(b) || b[i] != '=' || lim.values <= 0 {
			// Not a key: keep the rest as one bare value so nothing is lost.
			rest := string(b[ks:])
			return append(fields, Field{Key: "", Raw: rest, Value: Value{Kind: KindBare, Str: rest}})
		}
		key := b[ks:i]
		i++
		vs := i
		lim.values--
		// The value is decoded in place: a Value is 80 bytes, and
		// copied out of a call and into the slice it costs more than
		// most values take to read.
		// (Nor is a Field built and copied in: the copy would wait for
		// the stores that built it.)
		if len(fields) == cap(fields) {
			fields = slices.Grow(fields, 1)
		}
		fields = fields[:len(fields)+1]
		f := &fields[len(fields)-1]
		*f = Field{}
		f.Key = key
		n := parseKlogValue(&f.Value, b, i, key, lim)
		f.Raw = b[vs:n]
		i = n
	}
}

// escapedEnd is quotedEnd for text where escapes come every few bytes,
// as in the Go-quoted JSON of a status patch (\" every six bytes or so).
// It goes eight bytes a step while they are ASCII, each quote among them
// escaped and each backslash escaping a quote: no string ends there, and
// where quotedEnd stops at each escape this finds the quotes and
// backslashes of the eight bytes at once. The rest, from the closing
// quote's eight bytes or other escapes, is read a byte at a time. simple
// says the string is ASCII and its escapes all \" (as KindQuoted
// promises).
func escapedEnd(b string, i int) (end int, simple bool) {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	j := i + 1
	var carry uint64 // 0x80 when b[j-1] is a backslash that escapes b[j]
	for j+8 <= len(b) {
		w := swar.Word(b, j)
		// qm and bm flag the quotes and the backslashes (the top bit of
		// each), and maybe bytes just above one (see plainLen). The loop
		// goes on only when the bytes are ASCII and the quotes flagged
		// are exactly the bytes after a backslash: then no flag is
		// spurious (one would sit just above a flagged byte, and break
		// the match), and the carry into the next eight is right.
		q, bs := w^(lo*'"'), w^(lo*'\\')
		qm, bm := (q-lo)&^q&hi, (bs-lo)&^bs&hi
		if qm^(bm<<8|carry)|w&hi != 0 {
			break
		}
		carry = bm >> 56
		j += 8
	}
	// The rest a byte at a time: the last bytes, or from the word the
	// loop stopped at.
	simple = true
	if carry != 0 {
		simple = simple && j < len(b) && b[j] == '"'
		j++
	}
	for j < len(b) {
		switch c := b[j]; {
		case c == '\\':
			simple = simple && j+1 < len(b) && b[j+1] == '"'
			j += 2
		case c == '"':
			return j + 1, simple
		default:
			simple = simple && c < utf8.RuneSelf
			j++
		}
	}
	return -1, false
}

// parseKlogValue reads one klog value at b[i:] into the zero value *v, in
// any rendering klog has used: Go-quoted, multi-line <…>, JSON, %+v
// structs, bare tokens. It returns the index after the value. A quoted
// value of a field key names in Options.Quoted is kept as written
// (KindQuoted) when it is closed, ASCII and has escapes, all \" (a plain
// one is a substring as it is).
func parseKlogValue(v *Value, b string, i int, key string, lim *limits) int {
	if i >= len(b) {
		v.Kind = KindBare
		return i
	}
	switch b[i] {
	case '"':
		// (quoted's first step, here: most values need no unquoting.)
		k := i + 1 + plainLen(b[i+1:])
		if k < len(b) && b[k] == '"' {
			v.Kind, v.Str = KindString, b[i+1:k]
			return k + 1
		}
		if k < len(b) && lim.sc.keeps(key) {
			// (b[i+1:k] is plain: the quote at b[k-1], were it there,
			// would open the same string.)
			if e, simple := escapedEnd(b, k-1); simple {
				v.Kind, v.Str = KindQuoted, b[i:e]
				return e
			}
		}
		if str, e := quoted(b, i, lim.sc); e > 0 {
			v.Kind, v.Str = KindString, str
			return e
		}
		// Not closed before the payload ends: klog closes every quote it
		// opens, so the line was cut inside this value (a terminal's
		// width). Its text runs to the cut: a ` key=` in it is the
		// value's own (`plugin type=\"calico\"`), not a field. It is
		// left bare and open, the last field, for closeCut.
		end := len(b)
		for end > i && isSpace(b[end-1]) {
			end--
		}
		v.Kind, v.Str = KindBare, b[i:end]
		return end
	case '<':
		// Multi-line value: `<` newline, TAB-indented lines, newline, ` >`.
		if i+1 < len(b) && b[i+1] == '\n' {
			end := i + 2
			for end < len(b) {
				nl := indexByteFrom(b, end, '\n')
				line := b[end:]
				if nl >= 0 {
					line = b[end:nl]
				}
				if string(line) == " >" || strings.HasPrefix(line, " > ") {
					// (klog writes the keys after the value on the closing line: ` > logger="UnhandledError"`.)
					v.Kind, v.Str = KindString, trimMultiline(b[i+2:end])
					return end + 2
				}
				if nl < 0 {
					break
				}
				end = nl + 1
			}
			v.Kind, v.Str = KindString, trimMultiline(b[i+2:])
			return len(b)
		}
		if hasPrefixAt(b, i, "<nil>") {
			v.Kind, v.Str = KindNull, "<nil>"
			return i + 5
		}
	case '{', '[':
		// A klog value that is a JSON object is kept as its text once
		// skipJSON has checked it (see parseJSONLim), and the check finds
		// its end: where bracketEnd would (in JSON, brackets outside
		// strings are its own), so the match below need not scan it
		// first. A value that fails the check leaves the limits as they
		// were and goes the way below, which fails it again.
		if b[i] == '{' && lim.lazyTop && !lim.eager && !lim.noGuess && lim.values > 0 && lim.scan > 0 && lim.guess > 0 {
			saved := lim.values
			e, ok := skipJSON(b, i, 0, lim)
			if ok {
				v.Kind, v.Str = KindObject, b[i:e]
				return e
			}
			lim.values = saved
			lim.guess -= max(e-i, 1)
		}
		if e := bracketEndLim(b, i, lim); e > 0 {
			if jv, n, ok := parseJSONLim(b, i, 0, lim); ok && n == e {
				*v = jv
				return e
			}
			raw := b[i:e]
			if raw[0] == '[' {
				*v = bareList(raw, lim)
				return e
			}
			v.Kind, v.Str = KindBare, raw
			return e
		}
	case '&':
		if i+1 < len(b) && (b[i+1] == '{' || isKeyByte(b[i+1])) {
			j := i + 1
			for j < len(b) && b[j] != '{' && b[j] != ' ' {
				j++
			}
			if j < len(b) && b[j] == '{' {
				if e := bracketEndLim(b, j, lim); e > 0 {
					v.Kind, v.Str = KindBare, b[i:e]
					return e
				}
			}
		}
	case 'm':
		if hasPrefixAt(b, i, "map[") {
			if e := bracketEndLim(b, i+3, lim); e > 0 {
				v.Kind, v.Str = KindBare, b[i:e]
				return e
			}
		}
	}
	// A bare token runs to the next ` key=`, so %+v text with spaces stays
	// whole. A run of spaces is skipped at once: looking for a key after
	// each of its spaces would be quadratic in the run's length.
	j := i
	for j < len(b) {
		if b[j] != ' ' {
			j++
			continue
		}
		k := skipSpace(b, j)
		if keyAt(b, k) {
			break
		}
		j = k
	}
	end := j
	for end > i && isSpace(b[end-1]) {
		end--
	}
	setBare(v, b[i:end])
	return j
}

func indexByteFrom(b string, from int, c byte) int {
	if k := strings.IndexByte(b[from:], c); k >= 0 {
		return from + k
	}
	return -1
}

// trimMultiline drops the TAB klog puts before each line of a multi-line value.
func trimMultiline(b string) string {
	out := make([]byte, 0, len(b))
	start := true
	for i := 0; i < len(b); i++ {
		c := b[i]
		if start && c == '\t' {
			start = false
			continue
		}
		start = c == '\n'
		out = append(out, c)
	}
	for len(out) > 0 && out[len(out)-1] == '\n' {
		out = out[:len(out)-1]
	}
	return string(out)
}

func bareValue(tok string) Value {
	var v Value
	setBare(&v, tok)
	return v
}

// setBare is bareValue into the zero value *v.
func setBare(v *Value, s string) {
	v.Str = s
	switch s {
	case "true", "false":
		v.Kind = KindBool
		return
	case "null", "<nil>", "(MISSING)":
		v.Kind = KindNull
		return
	}
	if len(s) > 0 && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			v.Kind, v.Num = KindNumber, f
			return
		}
	}
	v.Kind = KindBare
}

// bareList splits klog's %+v list rendering, e.g. KObjs' [ns/a ns/b].
func bareList(raw string, lim *limits) Value {
	inner := raw[1 : len(raw)-1]
	sc := lim.sc
	base := len(sc.values)
	i := 0
	for i < len(inner) {
		i = skipSpace(inner, i)
		if i >= len(inner) {
			break
		}
		if lim.values <= 0 {
			sc.values = append(sc.values, bareValue(inner[i:]))
			break
		}
		lim.values--
		j := i
		if inner[i] == '{' || inner[i] == '[' || inner[i] == '&' {
			k := i
			if inner[k] == '&' {
				k++
			}
			if e := bracketEndLim(inner, k, lim); e > 0 {
				j = e
			}
		}
		for j < len(inner) && inner[j] != ' ' {
			j++
		}
		sc.values = append(sc.values, bareValue(inner[i:j]))
		i = j
	}
	return Value{Kind: KindList, List: sc.takeValues(base)}
}
