// Package parser turns the bytes of kubelet and container-runtime log captures
// into records: one streaming pass, io.Reader in, *Record out. It knows nothing
// of pods; the timeline package gives records their meaning.
package parser

import (
	"strconv"
	"strings"
	"time"
)

// Format says which log format a record was written in.
type Format uint8

const (
	FormatUnknown    Format = iota
	FormatKlog              // klog text header with a structured ("msg" k=v) payload
	FormatKlogLegacy        // klog text header with a printf payload (≤1.20 and leftover Infof calls)
	FormatJSON              // --logging-format=json
	FormatLogrus            // containerd / CRI-O logrus text (time="…" level=… msg="…")
	// FormatEventTable is a row of a pasted events table (kubectl describe
	// pod, kubectl get events) read as an "Event occurred" record: its
	// time is counted back from an age unless it has no "age" field
	// (eventtable.go).
	FormatEventTable
	// FormatDescribe is a container's status in a pasted kubectl
	// describe pod block, read as the status manager's "Patch status for
	// pod" record: its time is the state's own, else as an events
	// table's row with an unknown age (describe.go).
	FormatDescribe
)

var formatNames = [...]string{"unknown", "klog", "klog-legacy", "json", "logrus", "event-table", "describe"}

func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "format(" + strconv.Itoa(int(f)) + ")"
}

// MarshalText makes formats print as words in JSON output.
func (f Format) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// Severity is the record's level. klog JSON has no level key: errors are the
// lines with "err" and no "v".
type Severity uint8

const (
	SeverityUnknown Severity = iota
	SeverityDebug
	SeverityInfo
	SeverityWarning
	SeverityError
	SeverityFatal
)

var severityNames = [...]string{"unknown", "debug", "info", "warning", "error", "fatal"}

func (s Severity) String() string {
	if int(s) < len(severityNames) {
		return severityNames[s]
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText makes severities print as words in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Kind is the decoded shape of a field value.
type Kind uint8

const (
	KindString Kind = iota // a quoted string (Go or JSON quoting), already unquoted
	KindNumber             // a number; Str keeps its text
	KindBool
	KindNull   // null, <nil>, (MISSING)
	KindList   // a JSON array, or a klog %+v list such as [ns/a ns/b]
	KindObject // a JSON object, fields in their written order
	KindBare   // anything else written without quotes (%+v structs, durations, …)
	// KindQuoted is a string kept as written, for a field named in
	// Options.Quoted: Str holds it, quotes and escapes included, and Text
	// (or String) returns it unquoted. The parser keeps so only ASCII
	// strings whose escapes are all \" (the Go-quoted JSON klog writes),
	// which a consumer may read escaped, without unquoting them. Only a
	// reader that names the field makes this kind.
	KindQuoted
)

var kindNames = [...]string{"string", "number", "bool", "null", "list", "object", "bare", "quoted"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// MarshalText makes kinds print as words in JSON output.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Value is a decoded field value.
//
// The parser keeps a JSON object as its text (Str) and decodes its members
// on demand, in Get and Members; Obj is then nil. Read an object's members
// with Members, not Obj.
type Value struct {
	Kind Kind
	Str  string  // string content (KindQuoted: as written, see Text), the text of a number, bool or bare value, or of an object decoded on demand
	Num  float64 // for KindNumber
	List []Value // for KindList
	Obj  []Field // for KindObject, in written order, when decoded at once
}

// lazy reports whether v is an object whose members are decoded on demand.
func (v *Value) lazy() bool { return v.Kind == KindObject && v.Obj == nil && v.Str != "" }

// Members returns the members of an object value, in written order.
func (v Value) Members() []Field {
	if v.lazy() {
		return lazyMembers(v.Str)
	}
	return v.Obj
}

// Get returns the member of an object value with the given key.
func (v Value) Get(key string) (Value, bool) {
	if v.lazy() {
		return lazyGet(v.Str, key)
	}
	for _, f := range v.Obj {
		if f.Key == key {
			return f.Value, true
		}
	}
	return Value{}, false
}

// Text returns the text of a string, number, bool, null or bare value:
// Str, unquoted first when the parser kept it as written (KindQuoted).
func (v *Value) Text() string {
	if v.Kind == KindQuoted {
		return unquoteKept(v.Str)
	}
	return v.Str
}

// unquoteKept decodes a string kept as written (KindQuoted) exactly as the
// parser decodes the quoted values it does not keep.
func unquoteKept(q string) string {
	if str, e := quoted(q, 0, &scratch{}); e > 0 {
		return str
	}
	return q // (not made by the parser: a kept string is closed)
}

// String renders the value compactly: strings as they are, others as text.
func (v Value) String() string {
	switch v.Kind {
	case KindQuoted:
		return unquoteKept(v.Str)
	case KindList:
		var b strings.Builder
		b.WriteByte('[')
		for i, e := range v.List {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(e.String())
		}
		b.WriteByte(']')
		return b.String()
	case KindObject:
		var b strings.Builder
		b.WriteByte('{')
		for i, f := range v.Members() {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f.Key)
			b.WriteByte(':')
			b.WriteString(f.Value.String())
		}
		b.WriteByte('}')
		return b.String()
	}
	return v.Str
}

// Field is one key/value pair of a structured record.
type Field struct {
	Key   string
	Raw   string // the value exactly as written
	Value Value
}

// Position says where a record's raw text lies in its input, so that a view
// can read the original lines back without podflow keeping them in memory.
type Position struct {
	Input  string // input name as given (path, "-" for stdin, or path inside an archive)
	Line   int64  // 1-based number of the record's first physical line
	Lines  int    // physical lines the record spans (continuations included)
	Offset int64  // byte offset of the first line in the decompressed stream
	Length int    // bytes from Offset to the end of the last line, newline excluded
}

// Record is one log entry: a klog line with its continuations, a JSON line,
// or a runtime line.
type Record struct {
	Time      time.Time
	Severity  Severity
	Source    string // file:line of the emitting call (klog header or JSON caller)
	PID       int
	Msg       string
	Err       string
	Verbosity int // the JSON "v"; -1 where the format does not say
	Fields    []Field
	Host      string // node: from a journald prefix, the directory name or Options.Host
	Component string // kubelet, containerd, crio, …
	Format    Format
	Pos       Position
	// Truncated says the record's text was cut short (a line cut at a
	// fixed width, an ellipsis, a quoted value or list left open, which
	// the parser closed): its last value may be a part of what was
	// written, a name cut short.
	Truncated bool
}

// Field returns the value of the first field named key.
func (r *Record) Field(key string) (Value, bool) {
	for i := range r.Fields {
		if r.Fields[i].Key == key {
			return r.Fields[i].Value, true
		}
	}
	return Value{}, false
}

// Str returns the text of the first field named key (Value.String), or
// "". The engine asks it of nearly every record: the fields are not
// copied, and a value whose text is Str is returned without a call.
func (r *Record) Str(key string) string {
	for i := range r.Fields {
		if f := &r.Fields[i]; f.Key == key {
			if k := f.Value.Kind; k != KindList && k != KindObject && k != KindQuoted {
				return f.Value.Str
			}
			return f.Value.String()
		}
	}
	return ""
}

// Structured reports whether the record carries key/value fields, as
// opposed to a printf sentence.
func (r *Record) Structured() bool { return r.Format != FormatKlogLegacy && r.Format != FormatUnknown }
