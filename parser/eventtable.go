package parser

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// Events tables: what people paste most beside (or instead of) kubelet
// lines is kubectl's view of the kubelet's events, the Events section of
// `kubectl describe pod` (Type Reason Age From Message; before 1.14 or so
// FirstSeen LastSeen Count From SubObjectPath Type Reason Message) and
// `kubectl get events` / `kubectl events` (LAST SEEN TYPE REASON OBJECT
// MESSAGE; with -A a NAMESPACE column first, with -o wide SUBOBJECT,
// SOURCE, and FIRST SEEN, COUNT, NAME after the message; ≤1.13 LAST SEEN
// FIRST SEEN COUNT NAME KIND SUBOBJECT TYPE REASON SOURCE MESSAGE), and
// -o custom-columns with TIME, REASON and MSG.
//
// A table starts with its header line (the only line the reader looks at
// for it: an unrecognized line that starts with one of a header's words),
// or with a describe block's "Name:" line. Its rows that are the kubelet's
// (From or SOURCE "kubelet", or with no such column a reason only the
// kubelet gives) are read as records shaped like the kubelet's own
// "Event occurred" lines (FormatEventTable): object (namespace/name, or
// {"name": …} when no namespace is known), fieldPath when the table shows
// it, kind, apiVersion, type, reason, message, and the table's own words
// in source, count, age and firstSeen. A table has only ages: a row's time
// is base − its last-seen age, base being the latest time the input stated
// before the table (the input's modification time when none), so rows keep
// their order and spacing; such a record has an "age" field (a table with
// absolute times, custom-columns' TIME, has none). The header, its rules,
// the describe block's lines, "Events:" and the rows of other components
// are annotations; a row's wrapped lines are its continuations.

// evCol is what a column of an events table holds.
type evCol uint8

const (
	colLastSeen evCol = iota + 1 // Age, LAST SEEN, LastSeen
	colFirstSeen
	colCount
	colType
	colReason
	colObject
	colSubobject
	colSource // From, SOURCE
	colMessage
	colNamespace
	colKind
	colName
	colTime // an absolute time (custom-columns)
)

// maxEventCols bounds a header's columns; maxRowTokens the words of a
// row read before its message.
const (
	maxEventCols = 16
	maxRowTokens = 64
)

// eventTable is the events table, or the describe block before one, being
// read.
type eventTable struct {
	on   bool
	last int64 // the line last read as the table's (a gap ends it)
	// cols are the header's columns, none while in a describe block
	// before its table; msg is the message column's index.
	cols []evCol
	msg  int
	base time.Time
	// The pod of a describe block (Name:, Namespace:) or, for a table
	// that names none, of a Scheduled row ("Successfully assigned ns/name
	// to node"); assigned keeps the namespaces such rows gave to names.
	ns, name string
	assigned [][2]string
	describe bool
	indent   int  // the describe block's top-level indentation
	skip     bool // the row before was not the kubelet's: its wrapped lines are annotations
	rowOpen  bool // row (ctr, in a containers section) is the pending record's
	row      eventRow
	// The describe block's containers section being read (describe.go):
	// its containers' indentation (0 before the first), whether a
	// container's lines are being read, and what they state.
	section   describeSection
	ctrIndent int
	inCtr     bool
	ctr       describeCtr
	// The block's own status (Status:, Reason:, Message:), and whether
	// the pending record is it (describe.go).
	pod     describePod
	podRec  bool
	podLike bool // the block is a pod's: named by its command, or it has a Node: line …
	// host is the input's one kubelet host, once asked (pastedHost).
	host     string
	hostRead bool
}

// eventRow is what a row of a table gives its record.
type eventRow struct {
	typ, reason, fieldPath, source string
	ns, name                       string // the pod ("" when not known)
	age                            string // as written; "" for an absolute time
	t, first                       time.Time
	count                          int
}

var eventOccurred = []byte("Event occurred")

// maybeEventTable reports whether an unrecognized line may start an
// events table or a describe block: it is what the reader asks of every
// line no format reads, so it looks at one byte before it looks further.
func maybeEventTable(b []byte) bool {
	i := 0
	for i < len(b) && i < 24 && (b[i] == ' ' || b[i] == '\t' || b[i] == '>' || b[i] == '*') {
		i++
	}
	if i >= len(b) {
		return false
	}
	switch c := b[i]; {
	case c == 'N', c == 'E', c == 'T', c == 'L', c == 'F', c == 'A', c == 'W', c == '<', isDigit(c):
	default:
		return false
	}
	t, _ := tableText(b)
	if _, ok := describeName(t); ok {
		return true
	}
	if isEventsLine(t) {
		return true
	}
	if _, _, ok := eventHeader(t); ok {
		return true
	}
	_, ok := headerless(t)
	return ok
}

// The columns of the tables people paste without their header: describe's
// rows (a pod's events, under a "Events:" line cut off or not copied),
// `kubectl get events` rows and the old describe's.
var (
	describeCols    = []evCol{colType, colReason, colLastSeen, colSource, colMessage}
	getEventsCols   = []evCol{colLastSeen, colType, colReason, colObject, colMessage}
	oldDescribeCols = []evCol{colFirstSeen, colLastSeen, colCount, colSource, colSubobject, colType, colReason, colMessage}
)

// headerless returns the columns of a table row that came without its
// header: a row of one of the shapes above, its type Normal or Warning,
// its ages ages, its object kind/name, its source a component's.
func headerless(text []byte) ([]evCol, bool) {
	var buf [8]span
	ws := words(text, buf[:])
	if len(ws) < 5 {
		return nil, false
	}
	w := func(k int) string { return string(text[ws[k].from:ws[k].to]) }
	typ := func(k int) bool { return w(k) == "Normal" || w(k) == "Warning" }
	var cols []evCol
	switch {
	case typ(0):
		cols = describeCols
	case typ(1) && strings.IndexByte(w(3), '/') > 0:
		cols = getEventsCols
	case len(ws) >= 7 && strings.HasPrefix(w(3), "{"):
		cols = oldDescribeCols
	default:
		return nil, false
	}
	t := eventTable{cols: cols, msg: len(cols) - 1}
	row, _, _, ok := t.parseRow(text)
	if !ok || row.source != "" && strings.ContainsAny(sourceComponent(row.source), "/:=") {
		return nil, false
	}
	return cols, true
}

// tableText takes the decorations of a pasted table line off b (quote
// markers, indentation, bold) and returns the rest and its indentation.
func tableText(b []byte) ([]byte, int) {
	for len(b) > 0 && b[0] == '>' {
		b = b[1:]
		if len(b) > 0 && b[0] == ' ' {
			b = b[1:]
		}
	}
	n := 0
	for n < len(b) && (b[n] == ' ' || b[n] == '\t') {
		n++
	}
	b = bytes.TrimRight(b[n:], " \t")
	if bytes.HasPrefix(b, []byte("**")) {
		b = b[2:]
	}
	if bytes.HasSuffix(b, []byte("**")) {
		b = bytes.TrimRight(b[:len(b)-2], " \t")
	}
	return b, n
}

// describeName reads the first line of a describe block, "Name: <name>".
func describeName(t []byte) (string, bool) {
	v, ok := describeValue(t, "Name:")
	if !ok || v == "" || strings.ContainsAny(v, " \t") {
		return "", false
	}
	return v, true
}

// describeValue returns the value of a describe line "key  value".
func describeValue(t []byte, key string) (string, bool) {
	if !bytes.HasPrefix(t, []byte(key)) {
		return "", false
	}
	rest := t[len(key):]
	if len(rest) > 0 && rest[0] != ' ' && rest[0] != '\t' {
		return "", false
	}
	return string(bytes.TrimSpace(rest)), true
}

// isEventsLine reports the "Events:" line of describe (or "Events:
// <none>").
func isEventsLine(t []byte) bool {
	if !bytes.HasPrefix(t, []byte("Events:")) {
		return false
	}
	rest := bytes.TrimSpace(t[len("Events:"):])
	return len(rest) == 0 || string(rest) == "<none>"
}

// describeLine reports a line of a describe block: "Key:" or "Key:
// value" at its indentation, or any line indented deeper.
func describeLine(t []byte, indent, base int) bool {
	if len(t) == 0 {
		return false
	}
	if indent > base {
		return true
	}
	if indent < base || t[0] < 'A' || t[0] > 'Z' {
		return false
	}
	for i := 1; i < len(t) && i < 48; i++ {
		switch c := t[i]; {
		case c == ':':
			return i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\t'
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == ' ', c == '-', c == '(', c == ')':
		default:
			return false
		}
	}
	return false
}

// span is a word of a line, t[from:to].
type span struct{ from, to int }

// words splits t at blanks into at most len(dst) words.
func words(t []byte, dst []span) []span {
	out := dst[:0]
	i := 0
	for i < len(t) && len(out) < cap(dst) {
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
		if i == len(t) {
			break
		}
		s := i
		for i < len(t) && t[i] != ' ' && t[i] != '\t' {
			i++
		}
		out = append(out, span{s, i})
	}
	return out
}

// eventHeader reads a table's header line: its columns and the message
// column's index.
func eventHeader(t []byte) ([]evCol, int, bool) {
	if len(t) > 512 {
		return nil, 0, false
	}
	var buf [maxEventCols + 4]span
	ws := words(t, buf[:])
	if len(ws) < 3 || len(ws) > maxEventCols {
		return nil, 0, false
	}
	var cols [maxEventCols]evCol
	n, msg := 0, -1
	var seen [colTime + 1]bool
	for i := 0; i < len(ws); i++ {
		w := t[ws[i].from:ws[i].to]
		next := []byte(nil)
		if i+1 < len(ws) {
			next = t[ws[i+1].from:ws[i+1].to]
		}
		var c evCol
		switch {
		case eqFold(w, "last") && eqFold(next, "seen"):
			c, i = colLastSeen, i+1
		case eqFold(w, "first") && eqFold(next, "seen"):
			c, i = colFirstSeen, i+1
		case eqFold(w, "age"), eqFold(w, "lastseen"):
			c = colLastSeen
		case eqFold(w, "firstseen"):
			c = colFirstSeen
		case eqFold(w, "count"):
			c = colCount
		case eqFold(w, "type"):
			c = colType
		case eqFold(w, "reason"):
			c = colReason
		case eqFold(w, "object"), eqFold(w, "involvedobject"):
			c = colObject
		case eqFold(w, "subobject"), eqFold(w, "subobjectpath"):
			c = colSubobject
		case eqFold(w, "from"), eqFold(w, "source"):
			c = colSource
		case eqFold(w, "message"), eqFold(w, "msg"):
			c, msg = colMessage, n
		case eqFold(w, "namespace"):
			c = colNamespace
		case eqFold(w, "kind"):
			c = colKind
		case eqFold(w, "name"):
			c = colName
		case eqFold(w, "time"), eqFold(w, "lasttimestamp"), eqFold(w, "firsttimestamp"), eqFold(w, "timestamp"), eqFold(w, "eventtime"):
			c = colTime
		default:
			return nil, 0, false
		}
		if seen[c] {
			return nil, 0, false
		}
		seen[c] = true
		cols[n] = c
		n++
	}
	if msg < 0 || !seen[colReason] || !seen[colLastSeen] && !seen[colTime] && !seen[colType] {
		return nil, 0, false
	}
	return append([]evCol(nil), cols[:n]...), msg, true
}

func eqFold(b []byte, s string) bool { return len(b) == len(s) && strings.EqualFold(string(b), s) }

// parseAge reads kubectl's age of an event: "36s", "2m3s", "18m", "5d",
// "2y45d"; known is false for "<unknown>" and "<invalid>".
func parseAge(w []byte) (d time.Duration, known, ok bool) {
	switch string(w) {
	case "<unknown>", "<invalid>", "<nil>", "<none>":
		return 0, false, true
	}
	if len(w) == 0 {
		return 0, false, false
	}
	for i := 0; i < len(w); {
		s := i
		for i < len(w) && isDigit(w[i]) {
			i++
		}
		if i == s || i == len(w) || i-s > 6 {
			return 0, false, false
		}
		v, _ := strconv.Atoi(string(w[s:i]))
		var unit time.Duration
		switch w[i] {
		case 's':
			unit = time.Second
		case 'm':
			unit = time.Minute
		case 'h':
			unit = time.Hour
		case 'd':
			unit = 24 * time.Hour
		case 'y':
			unit = 365 * 24 * time.Hour
		default:
			return 0, false, false
		}
		d += time.Duration(v) * unit
		i++
	}
	return d, true, true
}
