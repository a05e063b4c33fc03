package parser

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"
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
	// sc is where the record's values are built.
	sc *scratch
	// lazyTop: an object at depth 0 may be kept as its text too (a klog
	// value), not only those nested in another value. The object a JSON
	// record is made of is decoded at once.
	lazyTop bool
	// eager: objects are decoded at once (inside an object that skipJSON
	// did not pass).
	eager bool
	// guess is what parseKlogValue's checks of objects that turn out not
	// to be JSON may still scan (as scan for failed bracket matches).
	guess int
	// noGuess turns that check off, for tests that compare it with the
	// way it saves.
	noGuess bool
}

func newLimits(payload int, sc *scratch) *limits {
	return &limits{scan: 2*payload + 64<<10, guess: 2*payload + 64<<10, values: maxValues, sc: sc}
}

// scratch is working memory a Reader reuses from record to record: an
// unquoted string, an object's members and a list's elements are built in
// it and copied out once, at their final size, instead of growing a slice
// of their own by doubling. Nested groups build on top of their parent's
// part, which stays in place below them.
type scratch struct {
	bytes  []byte
	fields []Field
	values []Value
	// text, when not nil, is where the strings a record keeps are made
	// (a Reader's); else each is its own allocation (values decoded on
	// demand, after the record).
	text *textArena
	// quoted is Options.Quoted, and quotedLens the lengths of its names
	// (modulo 64), a bit each: most keys are told apart by length.
	quoted     []string
	quotedLens uint64
}

// setQuoted sets Options.Quoted.
func (sc *scratch) setQuoted(names []string) {
	sc.quoted, sc.quotedLens = names, 0
	for _, n := range names {
		sc.quotedLens |= 1 << (len(n) & 63)
	}
}

// keeps reports whether the values of the field key are kept as written,
// when they may be (see parseKlogValue).
func (sc *scratch) keeps(key string) bool {
	return sc.quotedLens>>(len(key)&63)&1 != 0 && slices.Contains(sc.quoted, key)
}

// textArena makes the strings of records in blocks of textBlock bytes,
// one allocation for tens of records instead of one or two each (a wanted
// record copies its key=value text, and decodes escaped values, such as a
// status patch, into strings of their own). Bytes once given out are
// never written again, only the free end of the block is, until a reset
// (Options.Borrow).
//
// A string kept after its record keeps its block, up to textBlock bytes,
// alive: what is kept long should be cloned when it is small (the engine
// clones what it keeps).
type textArena struct {
	blk []byte
	// made counts the bytes given out since the last reset (see reset).
	made int
	// block is the size of a new block; 0: textBlock. (A small input's
	// reader makes smaller ones: see NewReader.)
	block int
}

const (
	textBlock = 8 << 10
	// textMax is the longest text made in a block; a longer one gets
	// its own allocation, so that a block is not left mostly empty.
	textMax = textBlock / 4
)

// room returns the free end of the block, with room for n bytes, or nil
// when n is more than a block takes. What is appended to it is given out
// by keep.
func (t *textArena) room(n int) []byte {
	if n > textMax {
		return nil
	}
	if cap(t.blk)-len(t.blk) < n {
		t.blk = make([]byte, 0, max(n, cmp.Or(t.block, textBlock)))
	}
	return t.blk[len(t.blk):len(t.blk)]
}

// keep returns b, which was appended to what room returned, as a string,
// and takes its bytes from the free end. (Should b have grown out of the
// block, it is copied.)
func (t *textArena) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	free := t.blk[len(t.blk):cap(t.blk)]
	if len(b) > len(free) || unsafe.SliceData(b) != unsafe.SliceData(free) {
		return string(b)
	}
	t.blk = t.blk[:len(t.blk)+len(b)]
	t.made += len(b)
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// reset lets the block be written again from its start, when the strings
// made in it are no longer used (Options.Borrow), and makes it as large
// as all that was made since the last reset, so that the same again fits
// in it.
func (t *textArena) reset() {
	if t.made > cap(t.blk) {
		t.blk = make([]byte, 0, t.made+t.made/4)
	}
	t.blk, t.made = t.blk[:0], 0
}

// copy returns b as a string that shares no memory with b.
func (t *textArena) copy(b []byte) string {
	buf := t.room(len(b))
	if buf == nil {
		return string(b)
	}
	return t.keep(append(buf, b...))
}

// clone is copy for a string.
func (t *textArena) clone(s string) string {
	buf := t.room(len(s))
	if buf == nil {
		return strings.Clone(s)
	}
	return t.keep(append(buf, s...))
}

// takeFields returns a copy of fields[base:] (nil when empty) and drops
// them from the scratch.
func (sc *scratch) takeFields(base int) []Field { return takeTail(&sc.fields, base) }

func (sc *scratch) dropFields(base int) { dropTail(&sc.fields, base) }

// takeValues is takeFields for list elements; an empty list is empty, not nil.
func (sc *scratch) takeValues(base int) []Value {
	if out := takeTail(&sc.values, base); out != nil {
		return out
	}
	return []Value{}
}

func (sc *scratch) dropValues(base int) { dropTail(&sc.values, base) }

// takeTail returns a copy of (*s)[base:] (nil when empty), at its final
// size, and drops it from *s.
func takeTail[T any](s *[]T, base int) []T {
	var out []T
	if n := len(*s) - base; n > 0 {
		out = make([]T, n)
		copy(out, (*s)[base:])
	}
	dropTail(s, base)
	return out
}

// dropTail drops (*s)[base:], clearing it so that the scratch does not
// keep the strings of past records alive.
func dropTail[T any](s *[]T, base int) {
	clear((*s)[base:])
	*s = (*s)[:base]
}

// trim lets go of scratch memory a huge record made grow, after the record.
func (sc *scratch) trim() {
	if cap(sc.bytes) > 1<<20 {
		sc.bytes = nil
	}
	if cap(sc.fields) > 1<<12 {
		sc.fields = nil
	}
	if cap(sc.values) > 1<<12 {
		sc.values = nil
	}
}

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
			w := word(s, i)
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

// word returns the eight bytes at s[i:], the first in the low byte. (One
// bounds check and one load: binary.LittleEndian on []byte(s[i:i+8]) is
// eight instructions more.)
func word(s string, i int) uint64 {
	t := s[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// plainLen returns the length of the run of plain bytes at the start of s.
// It looks at eight bytes a step (SWAR): a byte of w^(c*lo) is zero where
// w holds c, and (x-lo)&^x&hi sets the top bit of the first zero byte of x
// (a borrow can set bits above it, never below), so the lowest bit set
// across the tests is the first byte that is not plain.
func plainLen(s string) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := notPlain(word(s, i)); m != 0 {
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
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) {
		i++
	}
	return i
}

// parseJSON decodes the JSON value at b[i:], returning the value and the
// index after it. ok is false on malformed input.
func parseJSON(b string, i, depth int, sc *scratch) (v Value, next int, ok bool) {
	return parseJSONLim(b, i, depth, newLimits(len(b), sc))
}

func parseJSONLim(b string, i, depth int, lim *limits) (v Value, next int, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return v, i, false
	}
	switch c := b[i]; {
	case c == '"':
		str, e := quoted(b, i, lim.sc)
		if e < 0 {
			return v, i, false
		}
		return Value{Kind: KindString, Str: str}, e, true
	case (c == '{' || c == '[') && (depth >= maxDepth || lim.values <= 0):
		return bareGroup(b, i)
	case c == '{':
		eager := lim.eager
		if (depth > 0 || lim.lazyTop) && !eager {
			saved := lim.values
			if e, ok := skipJSON(b, i, depth, lim); ok {
				return Value{Kind: KindObject, Str: b[i:e]}, e, true
			}
			// Malformed or at a limit: the eager decode says what to
			// keep, and charges the limits as it always has. The
			// objects inside it are decoded at once too, so that no
			// byte is checked more than twice.
			lim.values = saved
			lim.eager = true
		}
		base := len(lim.sc.fields)
		v, next, ok = parseObject(b, i, depth, lim)
		lim.eager = eager
		if ok && v.Kind == KindObject {
			v.Obj = lim.sc.takeFields(base)
		} else {
			lim.sc.dropFields(base)
		}
		return v, next, ok
	case c == '[':
		base := len(lim.sc.values)
		v, next, ok = parseList(b, i, depth, lim)
		if ok && v.Kind == KindList {
			v.List = lim.sc.takeValues(base)
		} else {
			lim.sc.dropValues(base)
		}
		return v, next, ok
	case c == 't' && hasPrefixAt(b, i, "true"):
		return Value{Kind: KindBool, Str: "true"}, i + 4, true
	case c == 'f' && hasPrefixAt(b, i, "false"):
		return Value{Kind: KindBool, Str: "false"}, i + 5, true
	case c == 'n' && hasPrefixAt(b, i, "null"):
		return Value{Kind: KindNull, Str: "null"}, i + 4, true
	case c == '-' || (c >= '0' && c <= '9'):
		j := numberEnd(b, i)
		f, err := strconv.ParseFloat(string(b[i:j]), 64)
		if err != nil {
			return v, j, false
		}
		return Value{Kind: KindNumber, Str: string(b[i:j]), Num: f}, j, true
	}
	return v, i, false
}

// skipJSON checks the JSON value at b[i:] as parseJSONLim decodes it,
// building nothing, and returns the index after it. ok is true only where
// parseJSONLim would decode it in full: it is well formed, and no group in
// it reaches the depth or value limits, where parseJSONLim would keep that
// group bare. lim.values is charged as parseJSONLim charges it.
//
// An object that passes is kept as its text (Value.Str) and its members
// decoded on demand (Value.Get, Value.Members): the engine reads a few
// members of a few objects (4 of the 26 of a container status), while
// decoding them all at once costs 112 bytes a member for every record.
func skipJSON(b string, i, depth int, lim *limits) (next int, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '"':
		e := quotedEnd(b, i)
		return e, e >= 0
	case c == '{' || c == '[':
		// (One level of room is kept, so that the members of a lazy
		// object, decoded later from depth 1, stay clear of it too.)
		if depth >= maxDepth-1 || lim.values <= 0 {
			return i, false
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == end {
			return i + 1, true
		}
		for {
			i = skipSpace(b, i)
			if lim.values <= 0 {
				return i, false
			}
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return i, false
				}
				e := quotedEnd(b, i)
				if e < 0 {
					return i, false
				}
				i = skipSpace(b, e)
				if i >= len(b) || b[i] != ':' {
					return i, false
				}
				i++
			}
			lim.values--
			n, ok := skipJSON(b, i, depth+1, lim)
			if !ok {
				return n, false
			}
			i = skipSpace(b, n)
			if i < len(b) && b[i] == ',' {
				i++
				continue
			}
			if i < len(b) && b[i] == end {
				return i + 1, true
			}
			return i, false
		}
	case c == 't' && hasPrefixAt(b, i, "true"):
		return i + 4, true
	case c == 'f' && hasPrefixAt(b, i, "false"):
		return i + 5, true
	case c == 'n' && hasPrefixAt(b, i, "null"):
		return i + 4, true
	case c == '-' || (c >= '0' && c <= '9'):
		j := numberEnd(b, i)
		_, err := strconv.ParseFloat(b[i:j], 64)
		return j, err == nil
	}
	return i, false
}

// numberEnd returns the index after the run of number bytes at b[i:].
func numberEnd(b string, i int) int {
	j := i + 1
	for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
		j++
	}
	return j
}

// lazyMembers decodes the members of an object kept as its text.
func lazyMembers(s string) []Field {
	var sc scratch
	if _, _, ok := parseObject(s, 0, 0, newLimits(len(s), &sc)); !ok {
		return nil // (skipJSON let it through: not reached)
	}
	return sc.takeFields(0)
}

// lazyGet is Value.Get on an object kept as its text: it walks the
// members, skipping values without decoding them, and decodes only the
// value of the first member named key.
func lazyGet(s, key string) (Value, bool) {
	var sc scratch
	i := skipSpace(s, 1)
	if i < len(s) && s[i] == '}' {
		return Value{}, false
	}
	for i < len(s) && s[i] == '"' {
		e := quotedEnd(s, i)
		if e < 0 {
			break
		}
		k := s[i+1 : e-1]
		var match bool
		if plainLen(k) == len(k) {
			match = k == key
		} else {
			dk, _ := quoted(s, i, &sc)
			match = dk == key
		}
		vs := skipSpace(s, skipSpace(s, e)+1) // after the ':'
		if match {
			v, _, ok := parseJSONLim(s, vs, 1, newLimits(len(s), &sc))
			return v, ok
		}
		n := jsonValueEnd(s, vs)
		if n < 0 {
			break
		}
		i = skipSpace(s, n)
		if i >= len(s) || s[i] != ',' {
			break
		}
		i = skipSpace(s, i+1)
	}
	return Value{}, false
}

// jsonValueEnd returns the index after the JSON value at s[i:], which
// skipJSON found well formed.
func jsonValueEnd(s string, i int) int {
	switch s[i] {
	case '"':
		return quotedEnd(s, i)
	case '{', '[':
		return bracketEnd(s, i)
	}
	for j := i; j < len(s); j++ {
		switch s[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
	}
	return len(s)
}

// parseObject is parseJSONLim for the object at b[i] == '{'. Its members
// are left in lim.sc.fields, above what was there.
func parseObject(b string, i, depth int, lim *limits) (v Value, next int, ok bool) {
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
			lim.sc.fields = append(lim.sc.fields, Field{Raw: rest, Value: Value{Kind: KindBare, Str: rest}})
			return v, e, true
		}
		if i >= len(b) || b[i] != '"' {
			return v, i, false
		}
		key, e := quoted(b, i, lim.sc)
		if e < 0 {
			return v, i, false
		}
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
		lim.sc.fields = append(lim.sc.fields, Field{Key: key, Raw: string(b[vs:n]), Value: mv})
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
}

// parseList is parseJSONLim for the list at b[i] == '['. Its elements are
// left in lim.sc.values, above what was there.
func parseList(b string, i, depth int, lim *limits) (v Value, next int, ok bool) {
	gs := i
	v.Kind = KindList
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
		lim.sc.values = append(lim.sc.values, ev)
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
		w := word(b, j)
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
