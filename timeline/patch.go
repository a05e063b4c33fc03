package timeline

import (
	"encoding/json"
	"math/bits"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/podflow/podflow/parser"
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
	// esc says that s is the body of a Go-quoted patch as klog writes
	// it, kept so by the parser (see decodeQuoted): ASCII, and a JSON
	// quote written \", the only escape. The backslash stands for the
	// quote there, and the quote after it is skipped unread.
	esc   bool
	stack []byte // skip's, reused
}

// quotedFields are the record fields the engine reads in their escaped
// form: the status patch (see decodeField). A field named here comes as
// parser.KindQuoted, whose Str is not its text: it must be read only
// through Record.Str, Value.Text or valueText, never through Str.
var quotedFields = []string{"patch"}

// QuotedFields names the record fields the Builder reads as the log
// writes them, escapes and all: readers that feed it save the work of
// unquoting them by naming them in parser.Options.Quoted.
func (b *Builder) QuotedFields() []string { return quotedFields }

// decodeField decodes the patch in the first field named key of rec, as
// decode(rec.Str(key)) would (or the field's Str, when that is empty),
// reading a value the parser kept as written (parser.KindQuoted) in its
// escaped form.
func (d *patchDecoder) decodeField(rec *parser.Record, key string) bool {
	for i := range rec.Fields {
		if f := &rec.Fields[i]; f.Key == key {
			if f.Value.Kind == parser.KindQuoted {
				return d.decodeQuoted(&f.Value)
			}
			break // the first of the name, as rec.Str reads
		}
	}
	raw := rec.Str(key)
	if raw == "" {
		if v, ok := rec.Field(key); ok {
			raw = v.Str
		}
	}
	return d.decode(raw)
}

// decodeQuoted is decode(v.Text()) for a string the parser kept as written
// (parser.KindQuoted). klog writes a patch with strconv.Quote: JSON's
// quotes become \" and nothing else changes while the JSON holds no
// backslash or non-ASCII byte, and the parser keeps only such strings.
// The patch is read as it is, with \" for the quote, saving the work and
// memory of unquoting 1.6 KB; what that read fails (every string must be
// plain, every byte in JSON's syntax) is unquoted and read again.
func (d *patchDecoder) decodeQuoted(v *parser.Value) bool {
	if q := v.Str; len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' {
		d.esc = true
		ok := d.decode(q[1 : len(q)-1])
		d.esc = false
		if ok {
			return true
		}
	}
	return d.decode(v.Text())
}

// escStr reads a string at s[i:] in the escaped form (esc): \" quotes
// around a body of strPlain bytes, which is the string. ok is false for
// any other string, which decodeQuoted leaves to the unquoted read.
func escStr(s string, i int) (body string, next int, ok bool) {
	if i+1 >= len(s) || s[i] != '\\' {
		return "", i, false
	}
	j := plainEnd(s, i+2)
	if j >= len(s) || s[j] != '\\' {
		return "", i, false
	}
	return s[i+2 : j], j + 2, true
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
// it; done at the closing brace. It works on a local index: it runs for
// every member of the objects the engine reads.
func (d *patchDecoder) member(first bool) (key string, done, ok bool) {
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
func (d *patchDecoder) elem(first bool) (done, ok bool) {
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

// wsEnd is the index of the first byte at or after i that is not JSON
// whitespace.
func wsEnd(s string, i int) int {
	// Patches are compact JSON: nearly always nothing to skip.
	if i < len(s) && s[i] > ' ' {
		return i
	}
	return wsEndSlow(s, i)
}

func wsEndSlow(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// plainEnd is the index of the first byte at or after i that strPlain
// rejects, or len(s).
func plainEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := special8(load8(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(s) && strPlain[s[i]] {
		i++
	}
	return i
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
	return x&0x8080808080808080 | stop8(x)
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
func (d *patchDecoder) skip() bool {
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

// strEnd validates the string whose body starts at i as encoding/json's
// scanner does (a control byte or a bad escape is an error, invalid UTF-8
// is not) and returns the index after its closing quote, or -1.
func strEnd(s string, i int) int {
	for {
		// Eight bytes at a time to the first byte strStop marks, then one
		// at a time near the end of s.
		for {
			if i+8 > len(s) {
				for i < len(s) && !strStop[s[i]] {
					i++
				}
				if i >= len(s) {
					return -1
				}
				break
			}
			if m := stop8(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		switch s[i] {
		case '"':
			return i + 1
		case '\\':
			if i+1 >= len(s) {
				return -1
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if getu4(s[i:]) < 0 {
					return -1
				}
				i += 6
			default:
				return -1
			}
		default: // a control byte
			return -1
		}
	}
}

// stop8 flags the bytes of x that end or escape a string's plain run
// (strStop), with special8's guarantee: the lowest flag is the first.
func stop8(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	// One test finds both a control byte and a quote: b^2 is below 0x21
	// exactly for b below 0x20 (which ^2 keeps there) and for '"' (0x22,
	// which becomes 0x20). A byte below n borrows in x-n: each test flags
	// the byte, and may flag bytes above it, never below.
	q := x ^ ones*0x02
	b := x ^ ones*'\\'
	return ((q-ones*0x21)&^q | (b-ones)&^b) & high
}

// strStop marks the bytes stop8 flags: below ' ', '"' and '\\'.
var strStop = func() (t [256]bool) {
	for c := range t {
		t[c] = c < ' ' || c == '"' || c == '\\'
	}
	return t
}()

// litEnd reads the literal w at i and returns the index after it, or -1.
func litEnd(s string, i int, w string) int {
	if len(s)-i < len(w) || s[i:i+len(w)] != w {
		return -1
	}
	return i + len(w)
}

// numEnd reads a JSON number at i and returns the index after it, or -1.
func numEnd(s string, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return -1
	case s[i] == '0':
		i++
	case '1' <= s[i] && s[i] <= '9':
		i = digitsEnd(s, i+1)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		j := digitsEnd(s, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digitsEnd(s, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digitsEnd(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// strField reads a value into a string field: null leaves it, any other
// type is an error. A nil dst reads the value for its type only.
func (d *patchDecoder) strField(dst *string) bool {
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
func (d *patchDecoder) object() (open, ok bool) {
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
func (d *patchDecoder) pointer(has *bool) (open, ok bool) {
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

// The lengths of the field names each object reader reads (keyLens): a
// plain ASCII key of another length, nearly every key it skips, is told
// apart without trying each name (unread).
var (
	topKeys             = keyLens("metadata", "status")
	statusKeys          = keyLens("phase", "conditions", "initContainerStatuses", "containerStatuses")
	conditionKeys       = keyLens("type", "status")
	containerStatusKeys = keyLens("name", "containerID", "image", "ready", "restartCount", "state")
	stateKeys           = keyLens("waiting", "running", "terminated")
	waitingKeys         = keyLens("reason", "message")
	terminatedKeys      = keyLens("exitCode", "reason")
)

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
func (d *patchDecoder) unread(key string, lens uint64) bool {
	return d.keyASCII && (len(key) >= 64 || lens>>len(key)&1 == 0)
}

// The object readers below walk their members in a loop of their own,
// member by member: each reads the fields statusPatch keeps and skips the
// rest.

func (d *patchDecoder) top() bool {
	d.open()
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, topKeys):
			ok = d.skip()
		case d.is(k, "metadata"):
			ok = d.metadata()
		case d.is(k, "status"):
			ok = d.status()
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) metadata() bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		if d.is(k, "uid") {
			ok = d.strField(&d.doc.uid)
		} else {
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) status() bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, statusKeys):
			ok = d.skip()
		case d.is(k, "phase"):
			ok = d.strField(&d.doc.phase)
		case d.is(k, "conditions"):
			ok = decodeSlice(d, &d.doc.conds, (*patchDecoder).condition)
		case d.is(k, "initContainerStatuses"):
			ok = decodeSlice(d, &d.doc.init, (*patchDecoder).containerStatus)
		case d.is(k, "containerStatuses"):
			ok = decodeSlice(d, &d.doc.ctrs, (*patchDecoder).containerStatus)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
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
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, conditionKeys):
			ok = d.skip()
		case d.is(k, "type"):
			ok = d.strField(&c.typ)
		case d.is(k, "status"):
			ok = d.strField(&c.status)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) containerStatus(cs *cstatus) bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, containerStatusKeys):
			ok = d.skip()
		case d.is(k, "name"):
			ok = d.strField(&cs.name)
		case d.is(k, "containerID"):
			ok = d.strField(&cs.containerID)
		case d.is(k, "image"):
			ok = d.strField(&cs.image)
		case d.is(k, "ready"):
			ok = d.boolField(&cs.ready, &cs.hasReady)
		case d.is(k, "restartCount"):
			ok = d.intField(&cs.restartCount, &cs.hasRestartCount)
		case d.is(k, "state"):
			ok = d.state(cs)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
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

func (d *patchDecoder) state(cs *cstatus) bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, stateKeys):
			ok = d.skip()
		case d.is(k, "waiting"):
			ok = d.waiting(cs)
		case d.is(k, "running"):
			ok = d.running(cs)
		case d.is(k, "terminated"):
			ok = d.terminated(cs)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) waiting(cs *cstatus) bool {
	if open, ok := d.pointer(&cs.waiting); !open {
		cs.waitingReason = ""
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, waitingKeys):
			ok = d.skip()
		case d.is(k, "reason"):
			ok = d.strField(&cs.waitingReason)
		case d.is(k, "message"):
			ok = d.strField(nil) // read for its type: a number is an error
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) running(cs *cstatus) bool {
	if open, ok := d.pointer(&cs.running); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		if d.is(k, "startedAt") {
			ok = d.strField(nil)
		} else {
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) terminated(cs *cstatus) bool {
	if open, ok := d.pointer(&cs.terminated); !open {
		cs.exitCode, cs.terminatedReason = 0, ""
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, terminatedKeys):
			ok = d.skip()
		case d.is(k, "exitCode"):
			ok = d.intField(&cs.exitCode, nil)
		case d.is(k, "reason"):
			ok = d.strField(&cs.terminatedReason)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

// is reports whether the key member last read names the field name, as
// encoding/json matches them (fieldIs).
func (d *patchDecoder) is(key, name string) bool {
	// Small enough to inline, with name a constant: the exact match, the
	// common one, compares in place; a key of another length, nearly
	// every other, is told apart at once.
	return key == name || (len(key) == len(name) || !d.keyASCII) && isFold(key, name)
}

// isFold is fieldIs, called: inlined, it would leave is too big to inline.
//
//go:noinline
func isFold(key, name string) bool { return fieldIs(key, name) }

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
