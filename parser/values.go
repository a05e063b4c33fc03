package parser

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds nesting of JSON and bracketed values so a hostile line
// cannot exhaust the stack. A group nested deeper is not decoded but kept
// whole as a bare value holding its raw text, so the record and the rest of
// its fields survive.
const maxDepth = 64

// maxValues bounds the values (fields, list elements, object members)
// decoded from one record: a 64 MiB line of `[1,1,1,…]` or `k=1 k=1 …`
// would otherwise become gigabytes of Value structs. Past it, groups are
// kept whole as bare raw text (as past maxDepth) and the rest of a klog
// payload or JSON record as one bare field with no key, so nothing is
// lost. Kubelet records hold tens of values; a node's pod list, hundreds.
const maxValues = 1 << 14

// limits is the work one record may cost beyond a linear pass.
type limits struct {
	// scan is what failed bracket matches may still scan. A value that
	// opens a bracket it never closes makes bracketEnd scan to the end of
	// the payload; a line of `k={ k={ k={ …` would cost time quadratic in
	// its length. Once spent, brackets are no longer matched and such
	// values are read as bare tokens.
	scan int
	// values is what may still be decoded (see maxValues).
	values int
}

func newLimits(payload int) *limits {
	return &limits{scan: 2*payload + 64<<10, values: maxValues}
}

// quotedEnd returns the index just past the closing quote of the quoted
// string starting at b[i] == '"', or -1 when it is not closed.
func quotedEnd[T string | []byte](b T, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// msgEnd is quotedEnd for the message of every line, read before the
// line is known to be wanted. Messages seldom hold an escaped quote, so
// IndexByte (many bytes a step) finds the end of most at once; after an
// escaped quote the scan goes on byte by byte.
func msgEnd(b []byte, i int) int {
	k := bytes.IndexByte(b[i+1:], '"')
	if k < 0 {
		return -1
	}
	k += i + 1
	n := 0
	for k-n-1 > i && b[k-n-1] == '\\' {
		n++
	}
	if n%2 == 0 {
		return k + 1
	}
	// b[k] is escaped: the scan goes on after it as from an opening quote.
	return quotedEnd(b, k)
}

// unquote decodes a Go- or JSON-quoted string. It falls back to the raw
// inner text when the escapes are not valid Go, so no line is lost.
//
// It gives what strconv.Unquote gives (unquoteSlow), without going rune by
// rune: runs of plain bytes are copied whole and the common escapes decoded
// in place. Whatever strconv would reject or rewrite (a bare quote or
// newline, invalid UTF-8, an escape Go does not know such as JSON's \/) is
// left to unquoteSlow, so the result stays the same on every input.
func unquote(q string) string {
	n := len(q)
	if n < 2 || q[0] != '"' || q[n-1] != '"' {
		return unquoteSlow(q)
	}
	inner := q[1 : n-1]
	i := plainLen(inner)
	if i == len(inner) {
		return inner
	}
	if inner[i] != '\\' {
		return unquoteSlow(q)
	}
	var b strings.Builder
	b.Grow(len(inner))
	b.WriteString(inner[:i])
	for i < len(inner) {
		c := inner[i]
		switch {
		case c == '\\':
			if i+1 >= len(inner) {
				return unquoteSlow(q)
			}
			e := inner[i+1]
			if d := simpleEscape[e]; d != 0 {
				b.WriteByte(d)
				i += 2
				break
			}
			switch e {
			case 'x':
				v, ok := hexDigits(inner, i+2, 2)
				if !ok {
					return unquoteSlow(q)
				}
				b.WriteByte(byte(v))
				i += 4
			case 'u', 'U':
				k := 4
				if e == 'U' {
					k = 8
				}
				v, ok := hexDigits(inner, i+2, k)
				if !ok || !utf8.ValidRune(v) {
					return unquoteSlow(q)
				}
				b.WriteRune(v)
				i += 2 + k
			case '0', '1', '2', '3', '4', '5', '6', '7':
				if i+4 > len(inner) {
					return unquoteSlow(q)
				}
				v := rune(e - '0')
				for _, d := range []byte(inner[i+2 : i+4]) {
					if d < '0' || d > '7' {
						return unquoteSlow(q)
					}
					v = v<<3 | rune(d-'0')
				}
				if v > 255 {
					return unquoteSlow(q)
				}
				b.WriteByte(byte(v))
				i += 4
			default:
				return unquoteSlow(q)
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(inner[i:])
			if r == utf8.RuneError && size == 1 {
				return unquoteSlow(q) // strconv writes U+FFFD for it
			}
			b.WriteString(inner[i : i+size])
			i += size
		default: // a bare quote or newline: strconv rejects the string
			return unquoteSlow(q)
		}
		j := i + plainLen(inner[i:])
		b.WriteString(inner[i:j])
		i = j
	}
	return b.String()
}

// plainByte marks the bytes unquote copies as they are: ASCII but for the
// backslash, the quote and the newline.
var plainByte = func() (t [256]bool) {
	for c := 0; c < utf8.RuneSelf; c++ {
		t[c] = c != '\\' && c != '"' && c != '\n'
	}
	return t
}()

// simpleEscape maps the letter of a one-letter Go escape to its byte.
var simpleEscape = [256]byte{
	'a': '\a', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t', 'v': '\v',
	'\\': '\\', '"': '"',
}

// plainLen returns the length of the run of plain bytes at the start of s.
func plainLen(s string) int {
	i := 0
	for ; i+4 <= len(s); i += 4 {
		if !plainByte[s[i]] {
			return i
		}
		if !plainByte[s[i+1]] {
			return i + 1
		}
		if !plainByte[s[i+2]] {
			return i + 2
		}
		if !plainByte[s[i+3]] {
			return i + 3
		}
	}
	for ; i < len(s); i++ {
		if !plainByte[s[i]] {
			return i
		}
	}
	return i
}

// hexDigits reads n hex digits at s[i:].
func hexDigits(s string, i, n int) (rune, bool) {
	if i+n > len(s) {
		return 0, false
	}
	var v rune
	for _, c := range []byte(s[i : i+n]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		case c >= 'A' && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		v = v<<4 | rune(c)
	}
	return v, true
}

// unquoteSlow is unquote by strconv, for what unquote does not decode itself.
func unquoteSlow(q string) string {
	if len(q) < 2 {
		return string(q)
	}
	inner := q[1 : len(q)-1]
	simple := true
	for i := 0; i < len(inner); i++ {
		if c := inner[i]; c == '\\' || c >= utf8.RuneSelf {
			simple = false
			break
		}
	}
	if simple {
		return string(inner)
	}
	if s, err := strconv.Unquote(string(q)); err == nil {
		return s
	}
	return unescapeLoose(inner)
}

// unescapeLoose handles JSON-only escapes (\/) and anything strconv rejects,
// keeping unknown escapes as they are.
func unescapeLoose(b string) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		i++
		switch b[i] {
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'r':
			out = append(out, '\r')
		case '"', '\\', '/':
			out = append(out, b[i])
		case 'u':
			if i+4 < len(b) {
				if n, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 32); err == nil {
					out = utf8.AppendRune(out, rune(n))
					i += 4
					continue
				}
			}
			out = append(out, '\\', 'u')
		default:
			out = append(out, '\\', b[i])
		}
	}
	return string(out)
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b string, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// parseJSON decodes the JSON value at b[i:], returning the value and the
// index after it. ok is false on malformed input.
func parseJSON(b string, i, depth int) (v Value, next int, ok bool) {
	return parseJSONLim(b, i, depth, newLimits(len(b)))
}

func parseJSONLim(b string, i, depth int, lim *limits) (v Value, next int, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return v, i, false
	}
	switch c := b[i]; {
	case c == '"':
		e := quotedEnd(b, i)
		if e < 0 {
			return v, i, false
		}
		return Value{Kind: KindString, Str: unquote(b[i:e])}, e, true
	case (c == '{' || c == '[') && (depth >= maxDepth || lim.values <= 0):
		return bareGroup(b, i)
	case c == '{':
		gs := i
		v.Kind = KindObject
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			return v, i + 1, true
		}
		for {
			i = skipSpace(b, i)
			if lim.values <= 0 {
				if depth > 0 {
					return bareGroup(b, gs)
				}
				// A record's own object: keep the members decoded so far
				// and the rest as one bare field, as parseKV does.
				e := bracketEnd(b, gs)
				if e < 0 {
					return v, i, false
				}
				rest := b[i : e-1]
				v.Obj = append(v.Obj, Field{Raw: rest, Value: Value{Kind: KindBare, Str: rest}})
				return v, e, true
			}
			if i >= len(b) || b[i] != '"' {
				return v, i, false
			}
			e := quotedEnd(b, i)
			if e < 0 {
				return v, i, false
			}
			key := unquote(b[i:e])
			i = skipSpace(b, e)
			if i >= len(b) || b[i] != ':' {
				return v, i, false
			}
			vs := skipSpace(b, i+1)
			lim.values--
			mv, n, ok := parseJSONLim(b, vs, depth+1, lim)
			if !ok {
				return v, n, false
			}
			v.Obj = append(v.Obj, Field{Key: key, Raw: string(b[vs:n]), Value: mv})
			i = skipSpace(b, n)
			if i < len(b) && b[i] == ',' {
				i++
				continue
			}
			if i < len(b) && b[i] == '}' {
				return v, i + 1, true
			}
			return v, i, false
		}
	case c == '[':
		gs := i
		v.Kind = KindList
		v.List = []Value{}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == ']' {
			return v, i + 1, true
		}
		for {
			if lim.values <= 0 {
				return bareGroup(b, gs)
			}
			lim.values--
			ev, n, ok := parseJSONLim(b, i, depth+1, lim)
			if !ok {
				return v, n, false
			}
			v.List = append(v.List, ev)
			i = skipSpace(b, n)
			if i < len(b) && b[i] == ',' {
				i++
				continue
			}
			if i < len(b) && b[i] == ']' {
				return v, i + 1, true
			}
			return v, i, false
		}
	case c == 't' && hasPrefixAt(b, i, "true"):
		return Value{Kind: KindBool, Str: "true"}, i + 4, true
	case c == 'f' && hasPrefixAt(b, i, "false"):
		return Value{Kind: KindBool, Str: "false"}, i + 5, true
	case c == 'n' && hasPrefixAt(b, i, "null"):
		return Value{Kind: KindNull, Str: "null"}, i + 4, true
	case c == '-' || (c >= '0' && c <= '9'):
		j := i + 1
		for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
			j++
		}
		f, err := strconv.ParseFloat(string(b[i:j]), 64)
		if err != nil {
			return v, j, false
		}
		return Value{Kind: KindNumber, Str: string(b[i:j]), Num: f}, j, true
	}
	return v, i, false
}

// bareGroup keeps the bracketed group at b[i] undecoded, as bare raw text.
func bareGroup(b string, i int) (Value, int, bool) {
	if e := bracketEnd(b, i); e > 0 {
		return Value{Kind: KindBare, Str: b[i:e]}, e, true
	}
	return Value{}, i, false
}

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

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/'
}

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
func parseKV(b string, fields []Field) []Field {
	lim := newLimits(len(b))
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
		key := string(b[ks:i])
		i++
		vs := i
		lim.values--
		v, n := parseKlogValue(b, i, lim)
		fields = append(fields, Field{Key: key, Raw: string(b[vs:n]), Value: v})
		i = n
	}
}

// parseKlogValue reads one klog value at b[i:], in any rendering klog has
// used: Go-quoted, multi-line <…>, JSON, %+v structs, bare tokens.
func parseKlogValue(b string, i int, lim *limits) (Value, int) {
	if i >= len(b) {
		return Value{Kind: KindBare}, i
	}
	switch b[i] {
	case '"':
		if e := quotedEnd(b, i); e > 0 {
			return Value{Kind: KindString, Str: unquote(b[i:e])}, e
		}
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
				if string(line) == " >" {
					text := trimMultiline(b[i+2 : end])
					return Value{Kind: KindString, Str: text}, end + 2
				}
				if nl < 0 {
					break
				}
				end = nl + 1
			}
			text := trimMultiline(b[i+2:])
			return Value{Kind: KindString, Str: text}, len(b)
		}
		if hasPrefixAt(b, i, "<nil>") {
			return Value{Kind: KindNull, Str: "<nil>"}, i + 5
		}
	case '{', '[':
		if e := bracketEndLim(b, i, lim); e > 0 {
			if v, n, ok := parseJSONLim(b, i, 0, lim); ok && n == e {
				return v, e
			}
			raw := b[i:e]
			if raw[0] == '[' {
				return bareList(raw, lim), e
			}
			return Value{Kind: KindBare, Str: string(raw)}, e
		}
	case '&':
		if i+1 < len(b) && (b[i+1] == '{' || isKeyByte(b[i+1])) {
			j := i + 1
			for j < len(b) && b[j] != '{' && b[j] != ' ' {
				j++
			}
			if j < len(b) && b[j] == '{' {
				if e := bracketEndLim(b, j, lim); e > 0 {
					return Value{Kind: KindBare, Str: string(b[i:e])}, e
				}
			}
		}
	case 'm':
		if hasPrefixAt(b, i, "map[") {
			if e := bracketEndLim(b, i+3, lim); e > 0 {
				return Value{Kind: KindBare, Str: string(b[i:e])}, e
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
	tok := b[i:end]
	return bareValue(tok), j
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
	s := string(tok)
	switch s {
	case "true", "false":
		return Value{Kind: KindBool, Str: s}
	case "null", "<nil>", "(MISSING)":
		return Value{Kind: KindNull, Str: s}
	}
	if len(tok) > 0 && (tok[0] == '-' || tok[0] >= '0' && tok[0] <= '9') {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return Value{Kind: KindNumber, Str: s, Num: f}
		}
	}
	return Value{Kind: KindBare, Str: s}
}

// bareList splits klog's %+v list rendering, e.g. KObjs' [ns/a ns/b].
func bareList(raw string, lim *limits) Value {
	inner := raw[1 : len(raw)-1]
	v := Value{Kind: KindList, List: []Value{}}
	i := 0
	for i < len(inner) {
		i = skipSpace(inner, i)
		if i >= len(inner) {
			break
		}
		if lim.values <= 0 {
			v.List = append(v.List, bareValue(inner[i:]))
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
		v.List = append(v.List, bareValue(inner[i:j]))
		i = j
	}
	return v
}
