package timeline

import (
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// The status manager's "Patch status for pod" carries the pod's status as a
// JSON merge patch of about 1.6 KB, on one line in sixty of a busy log. The
// engine reads a dozen fields of it. patchDecoder reads exactly those, in
// one pass that allocates nothing for well-formed patches, and otherwise
// behaves as encoding/json.Unmarshal into the struct the fields come from
// (patchRef in the tests): the same JSON is accepted and rejected, keys
// match case-insensitively, a repeated key merges into what the first one
// set, null clears pointers and slices and leaves the rest. The fuzz test
// FuzzStatusPatch holds it to that.

// patchDoc is what statusPatch reads of a patch. Its strings may point into
// the patch text: copy what is kept.
type patchDoc struct {
	uid, phase string
	conds      []patchCond
	init, ctrs []cstatus
}

type patchCond struct{ typ, status string }

// cstatus is one container status. The has* flags stand for the pointers of
// the API's type: set when the patch gives the value, cleared by null.
type cstatus struct {
	name, containerID, image string
	ready, hasReady          bool
	restartCount             int
	hasRestartCount          bool
	waiting                  bool
	waitingReason            string
	running                  bool
	terminated               bool
	exitCode                 int
	terminatedReason         string
}

// maxPatchDepth is encoding/json's nesting limit.
const maxPatchDepth = 10000

type patchDecoder struct {
	s     string
	i     int
	depth int
	doc   patchDoc
	// keyASCII says the key member last read is plain ASCII as written:
	// it can match a field name only when of the same length (is).
	keyASCII bool
	// strASCII says the same of the string scanStr last read.
	strASCII bool
}

// decode reads s into d.doc, reusing its slices; false when
// encoding/json.Unmarshal would return an error.
func (d *patchDecoder) decode(s string) bool {
	d.s, d.i, d.depth = s, 0, 0
	d.doc.uid, d.doc.phase = "", ""
	d.doc.conds = resetSlice(d.doc.conds)
	d.doc.init = resetSlice(d.doc.init)
	d.doc.ctrs = resetSlice(d.doc.ctrs)
	d.ws()
	switch d.peek() {
	case 'n':
		if !d.lit("null") {
			return false
		}
	case '{':
		if !d.top() {
			return false
		}
	default:
		return false // a syntax error or, for any other value, a type error
	}
	d.ws()
	return d.i == len(d.s)
}

// resetSlice empties s and zeroes its backing array, as a new slice would
// be: encoding/json decodes into elements left past the length.
func resetSlice[T any](s []T) []T {
	clear(s[:cap(s)])
	return s[:0]
}

func (d *patchDecoder) peek() byte {
	if d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

func (d *patchDecoder) ws() {
	// Patches are compact JSON: nearly always nothing to skip.
	if d.i < len(d.s) && d.s[d.i] > ' ' {
		return
	}
	d.wsSlow()
}

func (d *patchDecoder) wsSlow() {
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *patchDecoder) lit(w string) bool {
	if len(d.s)-d.i < len(w) || d.s[d.i:d.i+len(w)] != w {
		return false
	}
	d.i += len(w)
	return true
}

// open consumes '{' or '['.
func (d *patchDecoder) open() bool {
	d.i++
	d.depth++
	return d.depth <= maxPatchDepth
}

// member reads the next key of the object being read and the colon after
// it; done at the closing brace.
func (d *patchDecoder) member(first bool) (key string, done, ok bool) {
	d.ws()
	switch d.peek() {
	case '}':
		d.i++
		d.depth--
		return "", true, true
	case ',':
		if first {
			return "", false, false
		}
		d.i++
		d.ws()
	default:
		if !first {
			return "", false, false
		}
	}
	if d.peek() != '"' {
		return "", false, false
	}
	if k, ok := d.plainKey(); ok {
		key = k
	} else if key, ok = d.str(); !ok {
		return "", false, false
	}
	d.keyASCII = d.strASCII
	d.ws()
	if d.peek() != ':' {
		return "", false, false
	}
	d.i++
	d.ws()
	return key, false, true
}

// elem moves to the next element of the array being read; done at the
// closing bracket.
func (d *patchDecoder) elem(first bool) (done, ok bool) {
	d.ws()
	switch d.peek() {
	case ']':
		d.i++
		d.depth--
		return true, true
	case ',':
		if first {
			return false, false
		}
		d.i++
		d.ws()
		return false, true
	}
	return false, first
}

// str reads a string at '"', validated as encoding/json's scanner does, and
// unquoted as it unquotes: escapes decoded, invalid UTF-8 and lone
// surrogates replaced by U+FFFD. It returns a substring of d.s unless the
// string needs either.
func (d *patchDecoder) str() (string, bool) {
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
func (d *patchDecoder) scanStr() (body string, plain, ok bool) {
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

// plainKey reads a key at '"' that is plain ASCII, as nearly all are, on a
// shorter path than str; false leaves d.i for str.
func (d *patchDecoder) plainKey() (string, bool) {
	s, start := d.s, d.i+1
	for i := start; i+8 <= len(s); i += 8 {
		if m := special8(load8(s, i)); m != 0 {
			// The first special byte: plain ASCII before it.
			i += bits.TrailingZeros64(m) >> 3
			if s[i] != '"' {
				return "", false
			}
			d.i, d.strASCII = i+1, true
			return s[start:i], true
		}
	}
	return "", false
}

// load8 is s[i:i+8] as a little-endian word (one load).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// special8 flags the bytes of x that are not strPlain: below ' ', '"',
// '\\' or non-ASCII. Each test for a byte below n may also flag bytes
// above (more significant than) one it rightly flags, never below, so the
// lowest flag is the first special byte.
func special8(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	below := func(x uint64, n uint64) uint64 { return (x - ones*n) & ^x & high }
	return x&high | below(x, ' ') | below(x^(ones*'"'), 1) | below(x^(ones*'\\'), 1)
}

// strPlain marks the bytes a string holds as they are: ASCII but for
// control characters, '"' and '\\'.
var strPlain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s string) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// number reads a JSON number and returns its text.
func (d *patchDecoder) number() (string, bool) {
	start := d.i
	if d.peek() == '-' {
		d.i++
	}
	switch c := d.peek(); {
	case c == '0':
		d.i++
	case '1' <= c && c <= '9':
		d.digits()
	default:
		return "", false
	}
	if d.peek() == '.' {
		d.i++
		if !d.digits() {
			return "", false
		}
	}
	if c := d.peek(); c == 'e' || c == 'E' {
		d.i++
		if c := d.peek(); c == '+' || c == '-' {
			d.i++
		}
		if !d.digits() {
			return "", false
		}
	}
	return d.s[start:d.i], true
}

func (d *patchDecoder) digits() bool {
	start := d.i
	for d.i < len(d.s) && '0' <= d.s[d.i] && d.s[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// skip reads and validates any value the engine does not read.
func (d *patchDecoder) skip() bool {
	switch c := d.peek(); {
	case c == '"':
		_, _, ok := d.scanStr()
		return ok
	case c == '{':
		if !d.open() {
			return false
		}
		for first := true; ; first = false {
			_, done, ok := d.member(first)
			if !ok || done {
				return ok
			}
			if !d.skip() {
				return false
			}
		}
	case c == '[':
		if !d.open() {
			return false
		}
		for first := true; ; first = false {
			done, ok := d.elem(first)
			if !ok || done {
				return ok
			}
			if !d.skip() {
				return false
			}
		}
	case c == 't':
		return d.lit("true")
	case c == 'f':
		return d.lit("false")
	case c == 'n':
		return d.lit("null")
	default:
		_, ok := d.number()
		return ok
	}
}

// strField reads a value into a string field: null leaves it, any other
// type is an error. A nil dst reads the value for its type only.
func (d *patchDecoder) strField(dst *string) bool {
	switch d.peek() {
	case '"':
		if dst == nil {
			_, _, ok := d.scanStr()
			return ok
		}
		s, ok := d.str()
		if ok {
			*dst = s
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
func (d *patchDecoder) intField(dst *int, has *bool) bool {
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
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return false
	}
	*dst = int(n)
	if has != nil {
		*has = true
	}
	return true
}

// object starts reading an object into a struct field: null leaves the
// field (ok, not open); any other type is an error.
func (d *patchDecoder) object() (open, ok bool) {
	switch d.peek() {
	case '{':
		return true, d.open()
	case 'n':
		return false, d.lit("null")
	}
	return false, false
}

func (d *patchDecoder) top() bool {
	d.open()
	return d.members(func(k string) bool {
		switch {
		case d.is(k, "metadata"):
			return d.fields(func(k string) bool {
				if d.is(k, "uid") {
					return d.strField(&d.doc.uid)
				}
				return d.skip()
			})
		case d.is(k, "status"):
			return d.fields(d.status)
		}
		return d.skip()
	})
}

// members reads the members of an open object, each by member(key).
func (d *patchDecoder) members(member func(key string) bool) bool {
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		if !member(k) {
			return false
		}
	}
}

// fields reads an object into a struct field (null leaves it), each
// member by member(key).
func (d *patchDecoder) fields(member func(key string) bool) bool {
	open, ok := d.object()
	if !open {
		return ok
	}
	return d.members(member)
}

func (d *patchDecoder) status(k string) bool {
	switch {
	case d.is(k, "phase"):
		return d.strField(&d.doc.phase)
	case d.is(k, "conditions"):
		return decodeSlice(d, &d.doc.conds, (*patchDecoder).condition)
	case d.is(k, "initContainerStatuses"):
		return decodeSlice(d, &d.doc.init, (*patchDecoder).containerStatus)
	case d.is(k, "containerStatuses"):
		return decodeSlice(d, &d.doc.ctrs, (*patchDecoder).containerStatus)
	}
	return d.skip()
}

// decodeSlice reads an array into *dst as encoding/json does: element i
// is decoded into what is already there (a repeated key merges), the
// slice is cut to the array's length, and null or [] empties it.
func decodeSlice[T any](d *patchDecoder, dst *[]T, elem func(*patchDecoder, *T) bool) bool {
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

func (d *patchDecoder) condition(c *patchCond) bool {
	return d.fields(func(k string) bool {
		switch {
		case d.is(k, "type"):
			return d.strField(&c.typ)
		case d.is(k, "status"):
			return d.strField(&c.status)
		}
		return d.skip()
	})
}

func (d *patchDecoder) containerStatus(cs *cstatus) bool {
	return d.fields(func(k string) bool {
		switch {
		case d.is(k, "name"):
			return d.strField(&cs.name)
		case d.is(k, "containerID"):
			return d.strField(&cs.containerID)
		case d.is(k, "image"):
			return d.strField(&cs.image)
		case d.is(k, "ready"):
			return d.boolField(&cs.ready, &cs.hasReady)
		case d.is(k, "restartCount"):
			return d.intField(&cs.restartCount, &cs.hasRestartCount)
		case d.is(k, "state"):
			return d.fields(func(k string) bool { return d.state(cs, k) })
		}
		return d.skip()
	})
}

// boolField reads a *bool field.
func (d *patchDecoder) boolField(dst, has *bool) bool {
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

func (d *patchDecoder) state(cs *cstatus, k string) bool {
	switch {
	case d.is(k, "waiting"):
		return d.pointerObject(&cs.waiting, func() { cs.waitingReason = "" }, func(k string) bool {
			switch {
			case d.is(k, "reason"):
				return d.strField(&cs.waitingReason)
			case d.is(k, "message"):
				return d.strField(nil) // read for its type: a number is an error
			}
			return d.skip()
		})
	case d.is(k, "running"):
		return d.pointerObject(&cs.running, func() {}, func(k string) bool {
			if d.is(k, "startedAt") {
				return d.strField(nil)
			}
			return d.skip()
		})
	case d.is(k, "terminated"):
		return d.pointerObject(&cs.terminated, func() { cs.exitCode, cs.terminatedReason = 0, "" }, func(k string) bool {
			switch {
			case d.is(k, "exitCode"):
				return d.intField(&cs.exitCode, nil)
			case d.is(k, "reason"):
				return d.strField(&cs.terminatedReason)
			}
			return d.skip()
		})
	}
	return d.skip()
}

// pointerObject reads a pointer-to-struct field: null sets it nil (has
// false, the struct zeroed so a later object starts afresh); an object
// sets it and decodes its members into it.
func (d *patchDecoder) pointerObject(has *bool, zero func(), member func(key string) bool) bool {
	switch d.peek() {
	case 'n':
		*has = false
		zero()
		return d.lit("null")
	case '{':
	default:
		return false
	}
	if !d.open() {
		return false
	}
	*has = true
	return d.members(member)
}

// is is fieldIs for the key member last read.
func (d *patchDecoder) is(key, name string) bool {
	// Small enough to inline: a member's key is tried against each name
	// its struct reads, and nearly always differs in length.
	return (len(key) == len(name) || !d.keyASCII) && isField(key, name)
}

// isField is fieldIs, called: inlined, it would leave is too big to inline.
//
//go:noinline
func isField(key, name string) bool { return fieldIs(key, name) }

// fieldIs matches a key to a field name as encoding/json does: exactly,
// else after folding case (Unicode simple folding: "ſ" matches "s").
// name is ASCII.
func fieldIs(key, name string) bool {
	// A rune of the key stands for one byte of the name, and takes one
	// byte (ASCII) or more: a shorter key never matches.
	if len(key) < len(name) {
		return false
	}
	return key == name || fieldFold(key, name)
}

// fieldFold is fieldIs for keys not exactly the name.
func fieldFold(key, name string) bool {
	if len(key) == len(name) {
		// Only ASCII can match: one byte a rune.
		for i := 0; i < len(key); i++ {
			c := key[i]
			if c >= utf8.RuneSelf || upper(c) != upper(name[i]) {
				return false
			}
		}
		return true
	}
	j := 0
	for i := 0; i < len(key); {
		c := key[i]
		if c < utf8.RuneSelf {
			i++
		} else {
			r, n := utf8.DecodeRuneInString(key[i:])
			i += n
			r = foldRune(r)
			if r >= utf8.RuneSelf {
				return false
			}
			c = byte(r)
		}
		if j >= len(name) || upper(c) != upper(name[j]) {
			return false
		}
		j++
	}
	return j == len(name)
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// foldRune is the smallest rune of r's simple-folding orbit.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}
