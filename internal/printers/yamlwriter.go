package printers

// A YAML writer that walks a value's JSON text and writes block YAML
// directly, byte for byte what writeYAMLTree (JSON -> yaml.Node tree ->
// go.yaml.in/yaml/v3's encoder) writes: the tree and the library's
// emitter cost some 2.5 ms of CPU a pod and a gigabyte of garbage on the
// 1 GiB bench log, most of the 27 s `get pods -o yaml` took. What the
// writer does not know how to write as the library would (a multi-line
// string, a list in a list, an odd key) it gives up on, and the caller
// falls back to the library for that document or item; a string that is
// not plain printable ASCII is styled by the library alone (one scalar).

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// yamlWriter writes YAML from JSON text; it is not safe for concurrent use.
type yamlWriter struct {
	js  []byte
	pos int
	out []byte
	str []byte // an unescaped string, reused
}

// yamlContext is where a value is written: as a document, after "key:",
// or after "- ".
type yamlContext int

const (
	yamlTop yamlContext = iota
	yamlAfterKey
	yamlAfterDash
)

// document appends js (one JSON value, a mapping or a sequence) as a
// YAML document; ok is false when the writer cannot write it as the
// library would, and then nothing is appended.
func (y *yamlWriter) document(dst, js []byte) (out []byte, ok bool) {
	return y.run(dst, js, 0, yamlTop)
}

// item appends js as an item of a block sequence whose dashes are at col.
func (y *yamlWriter) item(dst, js []byte, col int) (out []byte, ok bool) {
	return y.run(dst, js, col, yamlAfterDash)
}

func (y *yamlWriter) run(dst, js []byte, col int, ctx yamlContext) (out []byte, ok bool) {
	y.js, y.pos, y.out = js, 0, dst
	if ctx == yamlAfterDash {
		y.pad(col)
		y.out = append(y.out, "- "...)
	}
	ok = y.value(col, ctx)
	y.skipSpace()
	if !ok || y.pos != len(y.js) {
		return dst, false
	}
	out, y.out, y.js = y.out, nil, nil
	return out, true
}

func (y *yamlWriter) pad(n int) {
	for range n {
		y.out = append(y.out, ' ')
	}
}

func (y *yamlWriter) skipSpace() {
	for y.pos < len(y.js) {
		switch y.js[y.pos] {
		case ' ', '\t', '\n', '\r':
			y.pos++
		default:
			return
		}
	}
}

// value writes the next JSON value. col is the column of the key or dash
// before it (0 for a document).
func (y *yamlWriter) value(col int, ctx yamlContext) bool {
	y.skipSpace()
	if y.pos >= len(y.js) {
		return false
	}
	switch c := y.js[y.pos]; c {
	case '{':
		return y.mapping(col, ctx)
	case '[':
		return y.sequence(col, ctx)
	case '"':
		if ctx == yamlTop {
			return false
		}
		s, ok := y.string()
		if !ok {
			return false
		}
		if ctx == yamlAfterKey {
			y.out = append(y.out, ' ')
		}
		if y.out, ok = yamlScalar(y.out, yamlText(s)); !ok {
			return false
		}
		y.out = append(y.out, '\n')
		return true
	default: // a number, true, false or null: written as it is
		if ctx == yamlTop {
			return false
		}
		start := y.pos
		for y.pos < len(y.js) && !strings.ContainsRune(",}] \t\r\n", rune(y.js[y.pos])) {
			y.pos++
		}
		if y.pos == start {
			return false
		}
		if ctx == yamlAfterKey {
			y.out = append(y.out, ' ')
		}
		y.out = append(y.out, y.js[start:y.pos]...)
		y.out = append(y.out, '\n')
		return true
	}
}

// empty reports whether the container just opened closes at once, and
// consumes the closing delimiter if so.
func (y *yamlWriter) empty(close byte) bool {
	y.skipSpace()
	if y.pos < len(y.js) && y.js[y.pos] == close {
		y.pos++
		return true
	}
	return false
}

// next consumes a ',' (more items: true) or close (false); ok is false on
// anything else.
func (y *yamlWriter) next(close byte) (more, ok bool) {
	y.skipSpace()
	if y.pos >= len(y.js) {
		return false, false
	}
	switch y.js[y.pos] {
	case ',':
		y.pos++
		return true, true
	case close:
		y.pos++
		return false, true
	}
	return false, false
}

func (y *yamlWriter) mapping(col int, ctx yamlContext) bool {
	y.pos++ // {
	if y.empty('}') {
		if ctx == yamlAfterKey {
			y.out = append(y.out, ' ')
		}
		y.out = append(y.out, "{}\n"...)
		return true
	}
	keyCol := 0
	switch ctx {
	case yamlAfterKey:
		y.out = append(y.out, '\n')
		keyCol = col + 2
	case yamlAfterDash:
		keyCol = col + 2
	}
	for first := true; ; first = false {
		y.skipSpace()
		if y.pos >= len(y.js) || y.js[y.pos] != '"' {
			return false
		}
		k, ok := y.string()
		if !ok || !yamlPlainKey(k) {
			return false
		}
		if !first || ctx != yamlAfterDash {
			y.pad(keyCol)
		}
		y.out = append(y.out, k...)
		y.out = append(y.out, ':')
		y.skipSpace()
		if y.pos >= len(y.js) || y.js[y.pos] != ':' {
			return false
		}
		y.pos++
		if !y.value(keyCol, yamlAfterKey) {
			return false
		}
		more, ok := y.next('}')
		if !ok {
			return false
		}
		if !more {
			return true
		}
	}
}

func (y *yamlWriter) sequence(col int, ctx yamlContext) bool {
	y.pos++ // [
	if y.empty(']') {
		if ctx == yamlAfterKey {
			y.out = append(y.out, ' ')
		}
		y.out = append(y.out, "[]\n"...)
		return true
	}
	dashCol := 0
	switch ctx {
	case yamlAfterKey:
		y.out = append(y.out, '\n')
		dashCol = col + 2
	case yamlAfterDash:
		return false // "- - x": left to the library
	}
	for {
		y.pad(dashCol)
		y.out = append(y.out, "- "...)
		if !y.value(dashCol, yamlAfterDash) {
			return false
		}
		more, ok := y.next(']')
		if !ok {
			return false
		}
		if !more {
			return true
		}
	}
}

// string reads a JSON string at pos; the result aliases the writer's
// buffer or the JSON text and is valid until the next call.
func (y *yamlWriter) string() (string, bool) {
	y.pos++ // "
	start := y.pos
	for y.pos < len(y.js) {
		switch y.js[y.pos] {
		case '"':
			s := y.js[start:y.pos]
			y.pos++
			return unsafeString(s), true
		case '\\':
			return y.escapedString(start)
		}
		y.pos++
	}
	return "", false
}

// escapedString is string for one with escapes, from start.
func (y *yamlWriter) escapedString(start int) (string, bool) {
	b := append(y.str[:0], y.js[start:y.pos]...)
	for y.pos < len(y.js) {
		c := y.js[y.pos]
		switch {
		case c == '"':
			y.pos++
			y.str = b
			return unsafeString(b), true
		case c != '\\':
			b = append(b, c)
			y.pos++
			continue
		}
		if y.pos+1 >= len(y.js) {
			return "", false
		}
		e := y.js[y.pos+1]
		y.pos += 2
		switch e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := y.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if y.pos+1 < len(y.js) && y.js[y.pos] == '\\' && y.js[y.pos+1] == 'u' {
					save := y.pos
					y.pos += 2
					if r2, ok = y.hex4(); !ok {
						return "", false
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
					} else {
						y.pos = save
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return "", false
		}
	}
	return "", false
}

func (y *yamlWriter) hex4() (rune, bool) {
	if y.pos+4 > len(y.js) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(y.js[y.pos:y.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	y.pos += 4
	return rune(v), true
}

// unsafeString is b as a string without a copy: b is not changed while
// the string is in use (yamlScalar copies what it keeps, and yamlText
// returns its argument or a new string).
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// yamlPlainKey reports whether a mapping key is written as it is: a
// short identifier the library writes plain.
func yamlPlainKey(k string) bool {
	if k == "" || len(k) > 128 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || i > 0 && '0' <= c && c <= '9') {
			return false
		}
	}
	if yamlResolveHint[k[0]] != 0 {
		if _, ok := yamlNonStrWords[k]; ok {
			return false
		}
	}
	return true
}

// yamlResolveHint marks the first characters with which a plain scalar
// may resolve to something other than a string (the library's resolve
// table): signs and digits (numbers, timestamps), '.' (floats), the
// letters of true/false/null and '~', '<' (the merge key).
var yamlResolveHint = func() (t [256]byte) {
	for _, c := range "+-" {
		t[c] = 'S'
	}
	for _, c := range "0123456789" {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~<" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

// yamlNonStrWords are the plain scalars the library resolves by name.
var yamlNonStrWords = func() map[string]struct{} {
	m := map[string]struct{}{}
	for _, w := range strings.Fields("true True TRUE false False FALSE ~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF <<") {
		m[w] = struct{}{}
	}
	return m
}()

// yamlScalar appends s as the library writes a !!str scalar in a block
// mapping or sequence; ok is false when that takes more than one line.
func yamlScalar(dst []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f {
			return yamlLibraryScalar(dst, s)
		} else if c >= 0x80 {
			// A rune the library's analysis counts printable (U+00A0 to
			// U+FFFD but the BOM; it escapes the others) and no line
			// break (its encoder writes Unicode as it is) reads as
			// a letter would: a reason cut with "…" need not be handed
			// to the library, set up anew for each scalar.
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError || r < 0xa0 || r > 0xfffd || r == 0x2028 || r == 0x2029 || r == 0xfeff {
				return yamlLibraryScalar(dst, s)
			}
			i += size - 1
		}
	}
	if s == "" {
		return append(dst, `""`...), true
	}
	switch yamlResolveHint[s[0]] {
	case 0:
	case 'M':
		if _, ok := yamlNonStrWords[s]; ok {
			return yamlDoubleQuoted(dst, s), true
		}
	case '.':
		if _, ok := yamlNonStrWords[s]; ok {
			return yamlDoubleQuoted(dst, s), true
		}
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return yamlDoubleQuoted(dst, s), true
		}
	default: // 'S', 'D'
		if _, ok := yamlNonStrWords[s]; ok {
			return yamlDoubleQuoted(dst, s), true
		}
		if yamlTimestamp(s) {
			return yamlDoubleQuoted(dst, s), true
		}
		// Only these can make a number or a timestamp; anything else
		// (a duration such as 1m3.5s) is a string.
		if !strings.ContainsFunc(s, func(r rune) bool { return !strings.ContainsRune("0123456789abcdefABCDEFxXoO_+-.:tTzZ ", r) }) && !yamlDashed(s) {
			return yamlLibraryScalar(dst, s)
		}
	}
	if yamlPlainAllowed(s) {
		return append(dst, s...), true
	}
	dst = append(dst, '\'')
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			dst = append(dst, '\'')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '\''), true
}

// yamlDashed reports whether s, made of the characters of numbers and
// timestamps, is neither: two '-' past its first byte (a UID, which the
// library's encoder, set up anew for each scalar, cost most of -o yaml's
// time on) are more than a number holds (a sign and an exponent's sign,
// the first of them at s[0]), and no ':' or ' ' leaves room for a time of
// day or a base-60 number, nor four digits and a '-' for a date.
func yamlDashed(s string) bool {
	if strings.ContainsAny(s, ": ") || len(s) > 4 && s[4] == '-' && strings.Trim(s[:4], "0123456789") == "" {
		return false
	}
	return strings.Count(s[1:], "-") >= 2
}

// yamlTimestamp reports whether s is an RFC 3339 time in UTC as
// time.Format writes it (the times of every output), which the library
// resolves to a timestamp and so quotes.
func yamlTimestamp(s string) bool {
	if len(s) < 20 || s[len(s)-1] != 'Z' || s[4] != '-' || s[10] != 'T' {
		return false
	}
	for i := 0; i < len(s)-1; i++ {
		if c := s[i]; !('0' <= c && c <= '9' || c == '-' || c == ':' || c == '.' || c == 'T') {
			return false
		}
	}
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// yamlPlainAllowed is the library's analysis of printable ASCII text on
// one line for a block context: no indicator where one would be read.
func yamlPlainAllowed(s string) bool {
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return false
	}
	for i := 0; i < len(s); i++ {
		followedBySpace := i+1 == len(s) || s[i+1] == ' '
		switch s[i] {
		case '#', ',', '[', ']', '{', '}', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
			if i == 0 {
				return false
			}
			if s[i] == '#' && s[i-1] == ' ' {
				return false
			}
		case '?':
			if i == 0 && followedBySpace {
				return false
			}
		case ':':
			if followedBySpace {
				return false
			}
		case '-':
			if i == 0 && followedBySpace {
				return false
			}
		}
	}
	return true
}

// yamlDoubleQuoted is printable ASCII text double-quoted as the library
// writes it.
func yamlDoubleQuoted(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			dst = append(dst, '\\')
		}
		dst = append(dst, s[i])
	}
	return append(dst, '"')
}

// yamlLibraryScalar has the library write s alone, for text that is not
// printable ASCII; a scalar on one line is written alike wherever it
// stands in a block document.
func yamlLibraryScalar(dst []byte, s string) ([]byte, bool) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}}})
	if err == nil {
		err = enc.Close()
	}
	b := buf.Bytes()
	if err != nil || len(b) == 0 || b[len(b)-1] != '\n' || bytes.IndexByte(b[:len(b)-1], '\n') >= 0 {
		return dst, false
	}
	return append(dst, b[:len(b)-1]...), true
}
