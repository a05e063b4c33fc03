package parser

import (
	"bytes"
	"encoding/binary"
)

// Rescue picks out, among the records Want declines, the few a caller
// must not miss all the same: those at Severity or above, and the first
// record of each identity they name (the value of one of Keys, or what Text
// finds). Want answers by a message alone, and a message the caller does
// not know may still name something it keeps: a later record naming the same
// identity again is declined, since the caller has it by then.
//
// Its cost is paid on every declined line, so it looks at as little as it
// can: a structured call site's key is found once (sites remember which
// of Keys its lines carry and whether it is their first field), and Text
// runs only on printf payloads and on structured lines that carry none of
// Keys.
//
// Which repeated records pass depends on how the input was cut into chunks
// for parallel parsing (each worker remembers the identities it met lately,
// idset.go): the first record of an identity always does, and a caller
// reads the others so that they change nothing.
type Rescue struct {
	// Keys are structured field keys (klog's key=, JSON's "key":) whose
	// value is an identity, in the order they are looked for.
	Keys []string
	// Text returns the identity a text names (a printf payload, or the
	// fields of a structured line without any of Keys), nil when none. It
	// must not allocate, be cheap on text that names none, and be safe
	// for concurrent use.
	Text func(b []byte) []byte
	// Severity: records at it or above are decoded whatever they name
	// (SeverityUnknown: none).
	Severity Severity
	// Needs maps a key of Keys to a key that must be among a klog line's
	// fields too for the first to name an identity (a pod's name names
	// one only with its namespace): a call site whose lines carry the
	// first alone is looked at as though it had neither, and the identity
	// of one that carries both is the second's value, a slash and the
	// first's.
	Needs map[string]string
}

// Site memo states (siteSlot.rescue): what a structured call site's lines
// carry. 0: not looked at yet.
const (
	rescueNone  uint8 = 1    // none of Keys, and Text found nothing on the first line: nothing is looked for
	rescueText  uint8 = 0xff // none of Keys: Text reads the fields
	rescueFirst uint8 = 2    // rescueFirst+2i: Keys[i] is the first field
	rescueAny   uint8 = 3    // rescueAny+2i: Keys[i] is a later field
)

// rescueKlog reports whether a declined klog record is to be decoded:
// sev is its header's severity letter, fields what follows its message's
// closing quote (nil for a printf payload, text), memo its call site's
// rescue state (nil when none is kept).
func (r *Reader) rescueKlog(sev byte, text, fields []byte, memo *uint8) bool {
	rs := r.opts.Rescue
	if rs.Severity != SeverityUnknown && severityOf[sev] >= rs.Severity {
		return true
	}
	if fields == nil {
		return rs.Text != nil && r.rescueID(rs.Text(text))
	}
	var m uint8
	if memo != nil {
		m = *memo
		// The common case, first: a site whose lines begin their fields
		// with the key, compared as one word.
		if m >= rescueFirst && m != rescueText && (m-rescueFirst)%2 == 0 {
			k := &r.rescueKeys()[(m-rescueFirst)/2]
			if len(fields) >= 8 && binary.LittleEndian.Uint64(fields)&k.mask == k.word && k.need == "" {
				return r.rescueID(valueAt(fields[k.n:]))
			}
		}
	}
	if m == 0 {
		m = 0
		for i, k := range rs.Keys {
			at := klogKeyAt(fields, k)
			if at < 0 {
				continue
			}
			if need := r.rescueKeys()[i].need; need != "" && klogKeyAt(fields, need) < 0 {
				continue
			}
			if at == 0 {
				m = rescueFirst + 2*uint8(i)
			} else {
				m = rescueAny + 2*uint8(i)
			}
			break
		}
		if m == 0 {
			m = rescueNone
			if rs.Text != nil && rs.Text(fields) != nil {
				m = rescueText
			}
		}
		if memo != nil {
			*memo = m
		}
	}
	switch m {
	case rescueNone:
		// A structured call site logs the same keys each time: one that
		// named no pod on its first line names none (checking every line
		// would cost more than the rest of a declined one).
		return false
	case rescueText:
		return r.rescueID(rs.Text(fields))
	}
	k := rs.Keys[(m-rescueFirst)/2]
	at := 0
	if (m-rescueFirst)%2 == 1 || !hasKlogKey(fields, k) {
		if at = klogKeyAt(fields, k); at < 0 {
			// (Not there on this line: a site whose key comes and goes.)
			return rs.Text != nil && r.rescueID(rs.Text(fields))
		}
	}
	id := valueAt(fields[at+len(k)+2:])
	if need := r.rescueKeys()[(m-rescueFirst)/2].need; need != "" {
		// The identity is both values, as the one key that holds both
		// writes them (podNamespace/podName, as pod="ns/name"): the
		// same name in two namespaces is two pods.
		nat := klogKeyAt(fields, need)
		if nat < 0 {
			return rs.Text != nil && r.rescueID(rs.Text(fields))
		}
		r.idBuf = append(append(append(r.idBuf[:0], valueAt(fields[nat+len(need)+2:])...), '/'), id...)
		id = r.idBuf
	}
	return r.rescueID(id)
}

// rescueJSON reports whether a declined JSON record is to be decoded.
// The JSON format writes no level: an error is a line with "err" and no
// "v" (as decodeJSON reads it).
func (r *Reader) rescueJSON(line []byte) bool {
	rs := r.opts.Rescue
	if rs.Severity != SeverityUnknown && rs.Severity <= SeverityError && bytes.Contains(line, []byte(`"err":`)) && !bytes.Contains(line, []byte(`"v":`)) {
		return true
	}
	if i := jsonKeysAt(line, rs.Keys); i >= 0 {
		return r.rescueID(valueAt(line[i:]))
	}
	return rs.Text != nil && r.rescueID(rs.Text(line))
}

// rescueID reports whether id is an identity met for the first time. A
// list of one names the identity its element does (the kubelet's
// pods=["ns/name"] and pod="ns/name" are one pod).
func (r *Reader) rescueID(id []byte) bool {
	if n := len(id); n > 4 && id[0] == '[' && id[1] == '"' && id[n-1] == ']' && id[n-2] == '"' && bytes.IndexByte(id[2:n-2], '"') < 0 {
		id = id[2 : n-2]
	}
	if len(id) == 0 {
		return false
	}
	return r.rescued.insert(id)
}

// hasKlogKey reports whether fields begins with the field key.
func hasKlogKey(fields []byte, key string) bool {
	return len(fields) > len(key)+1 && fields[0] == ' ' && fields[len(key)+1] == '=' && string(fields[1:len(key)+1]) == key
}

// klogKeyAt returns where " key=" begins in fields, -1 when nowhere.
func klogKeyAt(fields []byte, key string) int {
	for i := 0; ; {
		j := bytes.IndexByte(fields[i:], '=')
		if j < 0 {
			return -1
		}
		i += j
		if s := i - len(key) - 1; s >= 0 && fields[s] == ' ' && string(fields[s+1:i]) == key {
			return s
		}
		i++
	}
}

// jsonKeysAt returns where the value of the first "key": of keys begins
// in line, -1 when none is there: one pass over the line's keys.
func jsonKeysAt(line []byte, keys []string) int {
	for i := 0; ; {
		j := bytes.IndexByte(line[i:], ':')
		if j < 0 {
			return -1
		}
		i += j
		if i > 0 && line[i-1] == '"' {
			for _, key := range keys {
				if s := i - len(key) - 2; s >= 0 && line[s] == '"' && string(line[s+1:i-1]) == key {
					return i + 1
				}
			}
		}
		i++
	}
}

// valueAt returns the value b begins with as written: a quoted string
// without its quotes, a list or object up to its first closing bracket,
// else up to a space or comma.
func valueAt(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	var end int
	switch b[0] {
	case '"':
		if end = bytes.IndexByte(b[1:], '"'); end < 0 {
			return b[1:]
		}
		return b[1 : 1+end]
	case '[':
		end = bytes.IndexByte(b, ']')
	case '{':
		end = bytes.IndexByte(b, '}')
	default:
		end = bytes.IndexAny(b, " ,")
	}
	if end < 0 {
		return b
	}
	return b[:end+1]
}

// rescueBegin is rescueKlog and rescueJSON for a record that begin
// starts: content is its first line without a prefix, msg the raw message
// classify found in it.
func (r *Reader) rescueBegin(format Format, content, msg []byte, memo *strSlot) bool {
	switch format {
	case FormatJSON:
		return r.rescueJSON(content)
	case FormatKlogLegacy:
		return r.rescueKlog(content[0], msg, nil, nil)
	case FormatKlog:
		// msg lies in content, after its opening quote.
		end := cap(content) - cap(msg) + len(msg) + 1
		if end > len(content) || end <= 0 {
			return r.rescueKlog(content[0], msg, nil, nil)
		}
		var m *uint8
		if memo != nil {
			m = &memo.rescue
		}
		return r.rescueKlog(content[0], nil, content[end:], m)
	}
	return false
}

// rescueKey is " key=" as a word under a mask (its first eight bytes),
// and its length.
type rescueKey struct {
	word, mask uint64
	n          int
	need       string // Rescue.Needs of the key
}

// rescueKeys returns Rescue.Keys as words, made on first use (apart, so
// that this stays small enough to inline: it runs on most declined lines).
func (r *Reader) rescueKeys() []rescueKey {
	if r.rkeys == nil {
		r.makeRescueKeys()
	}
	return r.rkeys
}

//go:noinline
func (r *Reader) makeRescueKeys() {
	for _, k := range r.opts.Rescue.Keys {
		p := " " + k + "="
		rk := rescueKey{n: len(p), need: r.opts.Rescue.Needs[k]}
		for i := range min(len(p), 8) {
			rk.word |= uint64(p[i]) << (8 * i)
			rk.mask |= 0xff << (8 * i)
		}
		if len(p) > 8 {
			// Longer keys are compared by the word, then in whole by
			// klogKeyAt: mark the word as never matching alone.
			rk.mask, rk.word = ^uint64(0), 0
		}
		r.rkeys = append(r.rkeys, rk)
	}
}
