package statuspatch

import (
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode/utf8"
)

// Decoder's JSON reading, under schema.go's object readers: its
// state, the tokens (members, elements, literals), strings unquoted as
// encoding/json unquotes them, skip for every value the engine does not
// read, the readers that set a struct field as encoding/json would
// (strField, intField, boolField, object, pointer, decodeSlice), and the
// match of a key to a field name (unread, is). The byte-level scanning
// they share is bytes.go's.

// maxPatchDepth is encoding/json's nesting limit.
const maxPatchDepth = 10000

type Decoder struct {
	s     string
	i     int
	depth int
	doc   Doc
	// keyASCII says the key member last read is plain ASCII as written:
	// it can match a field name only when of the same length (is).
	keyASCII bool
	// strASCII says the same of the string scanStr last read.
	strASCII bool
	// esc says that s is the body of a Go-quoted patch as klog writes
	// it, kept so by the parser (see decodeQuoted): ASCII, and a JSON
	// quote written \", the only escape. The backslash stands for the
	// quote there, and the quote after it is skipped unread.
	esc   bool
	stack []byte // skip's, reused
}

// resetSlice empties s and zeroes its backing array, as a new slice would
// be: encoding/json decodes into elements left past the length.
func resetSlice[T any](s []T) []T {
	clear(s[:cap(s)])
	return s[:0]
}

func (d *Decoder) peek() byte {
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

func (d *Decoder) ws() {
	// Patches are compact JSON: nearly always nothing to skip.
	if d.i < len(d.s) && d.s[d.i] > ' ' {
		return
	}
	d.wsSlow()
}

func (d *Decoder) wsSlow() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *Decoder) lit(w string) bool {
	if len(d.s)-d.i < len(w) || d.s[d.i:d.i+len(w)] != w {
		return false
	}
	d.i += len(w)
	return true
}

// open consumes '{' or '['.
func (d *Decoder) open() bool {
	d.i++
	d.depth++
	return d.depth <= maxPatchDepth
}

// member reads the next key of the object being read and the colon after
// it; done at the closing brace. It works on a local index: it runs for
// every member of the objects the engine reads.
func (d *Decoder) member(first bool) (key string, done, ok bool) {
	s := d.s
	i := wsEnd(s, d.i)
	if i >= len(s) {
		return "", false, false
	}
	switch s[i] {
	case '}':
		d.i = i + 1
		d.depth--
		return "", true, true
	case ',':
		if first {
			return "", false, false
		}
		i = wsEnd(s, i+1)
	default:
		if !first {
			return "", false, false
		}
	}
	quote, qw := byte('"'), 1 // (see esc)
	if d.esc {
		quote, qw = '\\', 2
	}
	if i >= len(s) || s[i] != quote {
		return "", false, false
	}
	// Nearly every key is plain ASCII: its body ends at the first byte
	// strPlain rejects, a quote (plainEnd, in place: no call).
	j := i + qw
	for ; j+8 <= len(s); j += 8 {
		if m := special8(load8(s, j)); m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			break
		}
	}
	if j+8 > len(s) {
		j = plainEnd(s, j)
	}
	if j < len(s) && s[j] == quote {
		key, d.keyASCII, i = s[i+qw:j], true, j+qw
	} else {
		if d.esc {
			return "", false, false
		}
		d.i = i
		if key, ok = d.str(); !ok {
			return "", false, false
		}
		d.keyASCII, i = d.strASCII, d.i
	}
	i = wsEnd(s, i)
	if i >= len(s) || s[i] != ':' {
		return "", false, false
	}
	d.i = wsEnd(s, i+1)
	return key, false, true
}

// elem moves to the next element of the array being read; done at the
// closing bracket.
func (d *Decoder) elem(first bool) (done, ok bool) {
	s := d.s
	i := wsEnd(s, d.i)
	if i < len(s) {
		switch s[i] {
		case ']':
			d.i = i + 1
			d.depth--
			return true, true
		case ',':
			if first {
				return false, false
			}
			d.i = wsEnd(s, i+1)
			return false, true
		}
	}
	d.i = i
	return false, first
}

// str reads a string at '"', validated as encoding/json's scanner does, and
// unquoted as it unquotes: escapes decoded, invalid UTF-8 and lone
// surrogates replaced by U+FFFD. It returns a substring of d.s unless the
// string needs either.
func (d *Decoder) str() (string, bool) {
	body, plain, ok := d.scanStr()
	if !ok || plain {
		return body, ok
	}
	// Rare (an escape, invalid UTF-8): encoding/json's own unquoting, on
	// a string scanStr found valid.
	var out string
	if json.Unmarshal([]byte(`"`+body+`"`), &out) != nil {
		return "", false
	}
	return out, true
}

// scanStr reads and validates a string at '"' and returns its body, plain
// when it is what it says (no escapes, valid UTF-8).
func (d *Decoder) scanStr() (body string, plain, ok bool) {
	start := d.i + 1
	plain = true
	d.strASCII = true
	i := start
	for i < len(d.s) {
		// Eight bytes at a time to the first special byte: a patch's
		// strings are keys, times, names and images, nearly all plain ASCII.
		if i+8 <= len(d.s) {
			m := special8(load8(d.s, i))
			if m == 0 {
				i += 8
				continue
			}
			i += bits.TrailingZeros64(m) >> 3
		} else if strPlain[d.s[i]] {
			i++
			continue
		}
		c := d.s[i]
		switch {
		case c == '"':
			d.i = i + 1
			return d.s[start:i], plain, true
		case c == '\\':
			plain, d.strASCII = false, false
			i++
			if i >= len(d.s) {
				return "", false, false
			}
			switch d.s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				if getu4(d.s[i-1:]) < 0 {
					return "", false, false
				}
				i += 5
			default:
				return "", false, false
			}
		case c < ' ':
			return "", false, false
		default:
			d.strASCII = false
			r, n := utf8.DecodeRuneInString(d.s[i:])
			if r == utf8.RuneError && n == 1 {
				plain = false
			}
			i += n
		}
	}
	return "", false, false
}

// number reads a JSON number and returns its text.
func (d *Decoder) number() (string, bool) {
	start := d.i
	end := numEnd(d.s, start)
	if end < 0 {
		return "", false
	}
	d.i = end
	return d.s[start:end], true
}

// skip reads and validates any value the engine does not read: in one
// loop over a local index, with the containers it opens on a stack (most
// of a patch's bytes are in values the engine skips: conditions' times
// and messages, volume mounts, image IDs).
func (d *Decoder) skip() bool {
	s, i := d.s, d.i
	open := d.stack[:0]       // '{' or '[' for each container open in the value
	key := false              // the next string is a member's key
	quote, qw := byte('"'), 1 // (see esc)
	if d.esc {
		quote, qw = '\\', 2
	}
	for {
		// A value, or when key a member's key, starts at i.
		if i >= len(s) {
			return false
		}
		switch c := s[i]; {
		case c == quote:
			// To the first byte that ends or escapes the string, eight
			// bytes a step, in place; strEnd for the rest (an escape, a
			// control byte, the text's last bytes).
			j := i + qw
			for j+8 <= len(s) {
				if m := stop8(load8(s, j)); m != 0 {
					j += bits.TrailingZeros64(m) >> 3
					break
				}
				j += 8
			}
			if j+8 > len(s) {
				// The text's last bytes, fewer than eight: one at a time
				// (the escaped form has no strEnd to fall back on).
				for j < len(s) && !strStop[s[j]] {
					j++
				}
			}
			if j < len(s) && s[j] == quote {
				i = j + qw
			} else if d.esc {
				return false
			} else if i = strEnd(s, i+1); i < 0 {
				return false
			}
			if key {
				key = false
				if i = wsEnd(s, i); i >= len(s) || s[i] != ':' {
					return false
				}
				i = wsEnd(s, i+1)
				continue
			}
		case key:
			return false
		case c == '{' || c == '[':
			if d.depth+len(open) >= maxPatchDepth {
				return false
			}
			i = wsEnd(s, i+1)
			if i < len(s) && s[i] == c+2 { // '}' or ']': empty
				i++
				break
			}
			open = append(open, c)
			key = c == '{'
			continue
		case c == 't':
			if i = litEnd(s, i, "true"); i < 0 {
				return false
			}
		case c == 'f':
			if i = litEnd(s, i, "false"); i < 0 {
				return false
			}
		case c == 'n':
			if i = litEnd(s, i, "null"); i < 0 {
				return false
			}
		default:
			if i = numEnd(s, i); i < 0 {
				return false
			}
		}
		// After a value: close the containers it ends, move to the next.
		for {
			if len(open) == 0 {
				d.i = i
				if cap(open) > cap(d.stack) {
					d.stack = open // grown: kept for the next patch
				}
				return true
			}
			if i = wsEnd(s, i); i >= len(s) {
				return false
			}
			top := open[len(open)-1]
			if s[i] == top+2 {
				open = open[:len(open)-1]
				i++
				continue
			}
			if s[i] != ',' {
				return false
			}
			i = wsEnd(s, i+1)
			key = top == '{'
			break
		}
	}
}

// strField reads a value into a string field: null leaves it, any other
// type is an error. A nil dst reads the value for its type only.
func (d *Decoder) strField(dst *string) bool {
	s, i := d.s, d.i
	if i >= len(s) {
		return false
	}
	if d.esc && s[i] != 'n' {
		body, next, ok := escStr(s, i)
		if ok && dst != nil {
			*dst = body
		}
		d.i = next
		return ok
	}
	switch s[i] {
	case '"':
		if dst == nil {
			j := strEnd(s, i+1)
			d.i = j
			return j >= 0
		}
		// Nearly always plain ASCII: the body is the string.
		if j := plainEnd(s, i+1); j < len(s) && s[j] == '"' {
			*dst, d.i = s[i+1:j], j+1
			return true
		}
		v, ok := d.str()
		if ok {
			*dst = v
		}
		return ok
	case 'n':
		return d.lit("null")
	}
	return false
}

// intField reads a number into an int field (an integer, as
// strconv.ParseInt reads it); null clears has when the field is a pointer
// (has != nil) and leaves a plain int.
func (d *Decoder) intField(dst *int, has *bool) bool {
	if d.peek() == 'n' {
		if has != nil {
			*dst, *has = 0, false
		}
		return d.lit("null")
	}
	s, ok := d.number()
	if !ok {
		return false
	}
	var n int64
	if len(s) == 1 {
		n = int64(s[0] - '0') // a digit: restart counts and exit codes
	} else {
		var err error
		if n, err = strconv.ParseInt(s, 10, 64); err != nil {
			return false
		}
	}
	*dst = int(n)
	if has != nil {
		*has = true
	}
	return true
}

// object starts reading an object into a struct field: null leaves the
// field (ok, not open); any other type is an error.
func (d *Decoder) object() (open, ok bool) {
	switch d.peek() {
	case '{':
		return true, d.open()
	case 'n':
		return false, d.lit("null")
	}
	return false, false
}

// pointer starts reading a pointer-to-struct field: null sets it nil (has
// false: the caller zeroes the struct, so a later object starts afresh);
// an object sets it, open.
func (d *Decoder) pointer(has *bool) (open, ok bool) {
	switch d.peek() {
	case '{':
		*has = true
		return true, d.open()
	case 'n':
		*has = false
		return false, d.lit("null")
	}
	return false, false
}

// boolField reads a *bool field.
func (d *Decoder) boolField(dst, has *bool) bool {
	switch d.peek() {
	case 't':
		*dst, *has = true, true
		return d.lit("true")
	case 'f':
		*dst, *has = false, true
		return d.lit("false")
	case 'n':
		*dst, *has = false, false
		return d.lit("null")
	}
	return false
}

// decodeSlice reads an array into *dst as encoding/json does: element i
// is decoded into what is already there (a repeated key merges), the
// slice is cut to the array's length, and null or [] empties it.
func decodeSlice[T any](d *Decoder, dst *[]T, elem func(*Decoder, *T) bool) bool {
	switch d.peek() {
	case 'n':
		*dst = resetSlice(*dst)
		return d.lit("null")
	case '[':
	default:
		return false
	}
	if !d.open() {
		return false
	}
	s := *dst
	i := 0
	for first := true; ; first = false {
		done, ok := d.elem(first)
		if !ok {
			return false
		}
		if done {
			break
		}
		if i >= cap(s) {
			var zero T
			s = append(s, zero)
		}
		if i >= len(s) {
			s = s[:i+1]
		}
		if !elem(d, &s[i]) {
			return false
		}
		i++
	}
	if i < len(s) {
		s = s[:i]
	}
	if i == 0 {
		s = resetSlice(s)
	}
	*dst = s
	return true
}

// keyLens is the set of the lengths of names, a bit each.
func keyLens(names ...string) uint64 {
	var m uint64
	for _, n := range names {
		m |= 1 << len(n) // field names are short: below 64 bytes
	}
	return m
}

// unread reports that the key member last read matches none of the names
// whose lengths are lens: a plain ASCII key matches only a name of its
// length (is).
func (d *Decoder) unread(key string, lens uint64) bool {
	return d.keyASCII && (len(key) >= 64 || lens>>len(key)&1 == 0)
}

// is reports whether the key member last read names the field name, as
// encoding/json matches them (fieldIs).
func (d *Decoder) is(key, name string) bool {
	// Small enough to inline, with name a constant: the exact match, the
	// common one, compares in place; a key of another length, nearly
	// every other, is told apart at once.
	return key == name || (len(key) == len(name) || !d.keyASCII) && isFold(key, name)
}

// isFold is fieldIs, called: inlined, it would leave is too big to inline.
//
//go:noinline
func isFold(key, name string) bool { return fieldIs(key, name) }
