package parser

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/swar"
)

// quotedEnd returns the index just past the closing quote of the quoted
// string starting at b[i] == '"', or -1 when it is not closed. It looks
// for the next quote or backslash eight bytes a step: the strings of the
// JSON objects klog values hold (container IDs, images, times) run to
// tens of bytes.
func quotedEnd[T string | []byte](b T, i int) int {
	for j := i + 1; j < len(b); {
		if j+8 <= len(b) {
			t := b[j : j+8] // (one bounds check, one load)
			w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
				uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
			m := quoteOrBackslash(w)
			if m == 0 {
				j += 8
				continue
			}
			j += bits.TrailingZeros64(m) / 8
		}
		switch b[j] {
		case '\\':
			j += 2
		case '"':
			return j + 1
		default:
			j++
		}
	}
	return -1
}

// quoteOrBackslash has the top bit set of each byte of w, and maybe of
// bytes above it, that is a quote or a backslash (see plainLen): the
// lowest bit set marks the first; 0 when there is none.
func quoteOrBackslash(w uint64) uint64 {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	q, bs := w^(lo*'"'), w^(lo*'\\')
	return ((q-lo)&^q | (bs-lo)&^bs) & hi
}

// msgEnd is quotedEnd for the message of every line, read before the
// line is known to be wanted. It jumps from quote to quote with IndexByte
// (many bytes a step) and looks back at the backslashes before each: a
// quote after an odd number of them is escaped. Messages hold few quotes,
// escaped or not ("MountVolume started for volume \"config\" …"); in the
// Go-quoted JSON of a value, where a quote comes every few bytes, the
// eight-byte steps of quotedEnd are faster.
func msgEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return -1
		}
		k += j
		n := 0
		for k-n-1 > i && b[k-n-1] == '\\' {
			n++
		}
		if n%2 == 0 {
			return k + 1
		}
		j = k + 1
	}
	return -1
}

// quoted decodes the quoted string at b[i] == '"' and returns it with the
// index just past its closing quote, in one pass: what unquote gives for
// b[i:quotedEnd(b, i)], and -1 when the string is not closed.
//
// unquote goes through strconv.Unquote, rune by rune. Here runs of plain
// bytes are copied whole and Go's escapes decoded in place; whatever
// strconv would reject or rewrite (a bare newline, invalid UTF-8, an escape
// Go does not know such as JSON's \/) is left to unquote, so the result is
// the same on every input.
func quoted(b string, i int, sc *scratch) (string, int) {
	j := i + 1
	k := j + plainLen(b[j:])
	if k < len(b) && b[k] == '"' {
		return b[j:k], k + 1 // no escapes: a substring
	}
	if k < len(b) && b[k] == '\\' {
		if str, end, ok := sc.goString(b, j, k); ok {
			return str, end
		}
	}
	e := quotedEnd(b, i)
	if e < 0 {
		return "", -1
	}
	return unquote(b[i:e]), e
}

// quotedCopy is quoted for the whole quoted string q, whose result shares
// no memory with q: q may be a view of a buffer that is reused.
func quotedCopy(q string, sc *scratch) string {
	k := 1 + plainLen(q[1:])
	if k < len(q) && q[k] == '"' {
		return sc.clone(q[1:k])
	}
	if k < len(q) && q[k] == '\\' {
		if str, _, ok := sc.goString(q, 1, k); ok {
			return str
		}
	}
	// (unquote may return a substring of its input.)
	return sc.clone(unquote(q))
}

// goString is appendGoString for the quoted text at b[j:], plain up to
// b[k], as a string of its own: made in the text arena when there is one
// (the decoded text is no longer than b[j:]), else in the scratch bytes
// and copied out.
func (sc *scratch) goString(b string, j, k int) (string, int, bool) {
	if t := sc.text; t != nil {
		if buf := t.room(len(b) - j); buf != nil {
			buf, end, ok := appendGoString(append(buf, b[j:k]...), b, k)
			if !ok {
				return "", end, false
			}
			return t.keep(buf), end, true
		}
	}
	buf := append(sc.bytes[:0], b[j:k]...)
	buf, end, ok := appendGoString(buf, b, k)
	sc.bytes = buf[:0]
	if !ok {
		return "", end, false
	}
	return string(buf), end, true
}

// clone is strings.Clone, in the text arena when there is one.
func (sc *scratch) clone(s string) string {
	if sc.text != nil {
		return sc.text.clone(s)
	}
	return strings.Clone(s)
}

// appendGoString decodes the Go-quoted text at s[i:] up to its closing
// quote, appending it to dst, and returns the index after the quote. ok is
// false where strconv.Unquote would not give the same: an escape it
// rejects, a bare newline, invalid UTF-8, no closing quote.
//
// Escapes come every few bytes in the Go-quoted JSON the kubelet logs
// (patch="{\"metadata\":…"), so runs of plain bytes are short: the decoded
// text, never longer than the quoted one, is stored by index into room made
// once, and a run is copied eight bytes a step as it is scanned (bytes
// stored past its end are overwritten next).
func appendGoString(dst []byte, s string, i int) (out []byte, end int, ok bool) {
	n := len(dst)
	buf := slices.Grow(dst, len(s)-i)
	buf = buf[:cap(buf)]
	// (Output never runs ahead of input: n-len(dst) <= i-i0, so room for
	// len(s)-i more bytes is left at every step.)
	for {
		for i+8 <= len(s) {
			w := swar.Word(s, i)
			binary.LittleEndian.PutUint64(buf[n:n+8], w)
			m := notPlain(w)
			if m == 0 {
				i, n = i+8, n+8
				continue
			}
			k := bits.TrailingZeros64(m) / 8
			i, n = i+k, n+k
			// A one-letter escape (nearly always \" in JSON) is
			// decoded here, and the words go on after it.
			if s[i] == '\\' && i+1 < len(s) {
				if d := simpleEscape[s[i+1]]; d != 0 {
					buf[n] = d
					i, n = i+2, n+1
					continue
				}
			}
			break
		}
		for i < len(s) && plainByte[s[i]] {
			buf[n] = s[i]
			i, n = i+1, n+1
		}
		if i >= len(s) {
			return buf[:n], -1, false
		}
		switch c := s[i]; {
		case c == '"':
			return buf[:n], i + 1, true
		case c == '\\':
			if i+1 >= len(s) {
				return buf[:n], -1, false
			}
			e := s[i+1]
			if d := simpleEscape[e]; d != 0 {
				buf[n] = d
				n++
				i += 2
				continue
			}
			switch e {
			case 'x':
				v, ok := hexDigits(s, i+2, 2)
				if !ok {
					return buf[:n], -1, false
				}
				buf[n] = byte(v)
				n++
				i += 4
			case 'u', 'U':
				k := 4
				if e == 'U' {
					k = 8
				}
				v, ok := hexDigits(s, i+2, k)
				if !ok || !utf8.ValidRune(v) {
					return buf[:n], -1, false
				}
				n += utf8.EncodeRune(buf[n:], v)
				i += 2 + k
			case '0', '1', '2', '3', '4', '5', '6', '7':
				if i+4 > len(s) {
					return buf[:n], -1, false
				}
				v := rune(e - '0')
				for _, d := range []byte(s[i+2 : i+4]) {
					if d < '0' || d > '7' {
						return buf[:n], -1, false
					}
					v = v<<3 | rune(d-'0')
				}
				if v > 255 {
					return buf[:n], -1, false
				}
				buf[n] = byte(v)
				n++
				i += 4
			default:
				return buf[:n], -1, false
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return buf[:n], -1, false // strconv writes U+FFFD for it
			}
			n += copy(buf[n:], s[i:i+size])
			i += size
		default: // a bare newline: strconv rejects the string
			return buf[:n], -1, false
		}
	}
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
// It looks at eight bytes a step (SWAR): a byte of w^(c*lo) is zero where
// w holds c, and (x-lo)&^x&hi sets the top bit of the first zero byte of x
// (a borrow can set bits above it, never below), so the lowest bit set
// across the tests is the first byte that is not plain.
func plainLen(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := notPlain(swar.Word(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)/8
		}
	}
	for ; i < len(s); i++ {
		if !plainByte[s[i]] {
			return i
		}
	}
	return i
}

// notPlain has the top bit set of each byte of w, and maybe of bytes
// above it, that is not plain (see plainLen): the lowest bit set marks the
// first such byte; 0 when all eight are plain.
//
// An ASCII byte y (top bit clear) plus 0x7f has its top bit set unless y
// is 0: y is a byte of w^(c*lo) for each c of '"', '\\' and '\n', and no
// sum carries into the byte above but that of a byte that is not ASCII,
// which is not plain itself.
func notPlain(w uint64) uint64 {
	const lo, hi, low7 = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	q, bs, nl := w^(lo*'"')+low7, w^(lo*'\\')+low7, w^(lo*'\n')+low7
	return (w | ^(q & bs & nl)) & hi
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

// unquote decodes a Go- or JSON-quoted string. It falls back to the raw
// inner text when the escapes are not valid Go, so no line is lost.
func unquote(q string) string {
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
	return string(appendUnescaped(make([]byte, 0, len(b)), b))
}

// appendUnescaped appends b with its escapes undone to dst: \n \t \r \" \\
// \/ and \uXXXX; an escape it does not know is kept, and so is a backslash
// a cut left at the end.
func appendUnescaped[T ~string | ~[]byte](dst []byte, b T) []byte {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			dst = append(dst, c)
			continue
		}
		i++
		switch b[i] {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case '"', '\\', '/':
			dst = append(dst, b[i])
		case 'u':
			if i+4 < len(b) {
				if n, err := strconv.ParseUint(string(b[i+1:i+5]), 16, 32); err == nil {
					dst = utf8.AppendRune(dst, rune(n))
					i += 4
					continue
				}
			}
			dst = append(dst, '\\', 'u')
		default:
			dst = append(dst, '\\', b[i])
		}
	}
	return dst
}
