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

// kubeletReasons are the reasons of the events only the kubelet records,
// for tables without a source column (lower case before 1.2).
var kubeletReasons = []string{
	"Pulling", "Pulled", "Failed", "BackOff", "Created", "Started", "Killing", "Unhealthy", "ProbeWarning",
	"FailedMount", "FailedAttachVolume", "FailedMapVolume", "FailedCreatePodSandBox", "FailedPodSandBoxStatus",
	"SandboxChanged", "FailedKillPod", "FailedCreatePodContainer", "FailedSync", "FailedValidation",
	"FailedPostStartHook", "FailedPreStopHook", "ErrImageNeverPull", "InspectFailed", "ExceededGracePeriod",
	"Evicted", "Preempting", "NetworkNotReady", "HostPortConflict", "NodeSelectorMismatching",
	"OutOfDisk", "UnexpectedAdmissionError", "NodeAffinity", "OutOfcpu", "OutOfmemory",
	"FailedToUpdateEndpoint", "DNSConfigForming", "FailedCreate",
}

func kubeletReason(r string) bool {
	for _, k := range kubeletReasons {
		if strings.EqualFold(k, r) {
			return true
		}
	}
	return false
}

// sourceComponent is the component of a From or SOURCE cell: "kubelet",
// "kubelet, node-1", "{kubelet node-1}".
func sourceComponent(s string) string {
	s = strings.TrimPrefix(s, "{")
	if i := strings.IndexAny(s, " ,}"); i >= 0 {
		s = s[:i]
	}
	return s
}

// kubeletRow reports a row of the kubelet's: its source says so, or
// with none its reason is one only the kubelet gives.
func kubeletRow(row *eventRow) bool {
	switch {
	case row.reason == "":
		return false
	case row.source != "":
		return sourceComponent(row.source) == "kubelet"
	}
	return kubeletReason(row.reason)
}

// parseRow reads a row of the table t heads; ok false when the line is
// no row of it. The message is t[from:to].
func (t *eventTable) parseRow(text []byte) (row eventRow, from, to int, ok bool) {
	var buf [maxRowTokens]span
	ws := words(text, buf[:])
	i, j := 0, len(ws)
	var objKind, objName string
	typeCol := false
	var last, first time.Duration
	lastKnown, firstKnown, hasAge := false, false, false
	word := func(k int) []byte { return text[ws[k].from:ws[k].to] }
	// The columns after the message, from the right.
	for c := len(t.cols) - 1; c > t.msg; c-- {
		if j <= i {
			return row, 0, 0, false
		}
		j--
		w := word(j)
		switch t.cols[c] {
		case colFirstSeen:
			d, known, ok := parseAge(w)
			if !ok {
				return row, 0, 0, false
			}
			first, firstKnown = d, known
		case colCount:
			n, err := strconv.Atoi(string(w))
			if err != nil {
				return row, 0, 0, false
			}
			row.count = n
		case colLastSeen:
			d, known, ok := parseAge(w)
			if !ok {
				return row, 0, 0, false
			}
			last, lastKnown, hasAge = d, known, true
			row.age = string(w)
		}
	}
	for _, c := range t.cols[:t.msg] {
		if i >= j {
			if c == colSubobject || c == colSource {
				continue // (empty cells at the end)
			}
			return row, 0, 0, false
		}
		w := word(i)
		switch c {
		case colLastSeen, colFirstSeen:
			d, known, ok := parseAge(w)
			if !ok {
				return row, 0, 0, false
			}
			s := ws[i].from
			i++
			// "3m (x4 over 5m)"
			var over time.Duration
			overKnown := false
			if i+2 < j && bytes.HasPrefix(word(i), []byte("(x")) && string(word(i+1)) == "over" && bytes.HasSuffix(word(i+2), []byte(")")) {
				n, err := strconv.Atoi(string(word(i)[2:]))
				o, k, ok := parseAge(bytes.TrimSuffix(word(i+2), []byte(")")))
				if err == nil && ok {
					row.count, over, overKnown = n, o, k
					i += 3
				}
			}
			if c == colLastSeen {
				last, lastKnown, hasAge = d, known, true
				row.age = string(text[s:ws[i-1].to])
				if overKnown {
					first, firstKnown = over, true
				}
			} else {
				first, firstKnown = d, known
			}
		case colTime:
			i++
			if tm, err := time.Parse(time.RFC3339Nano, string(w)); err == nil {
				row.t = tm
			}
		case colCount:
			n, err := strconv.Atoi(string(w))
			if err != nil {
				return row, 0, 0, false
			}
			row.count = n
			i++
		case colType:
			if string(w) != "Normal" && string(w) != "Warning" {
				return row, 0, 0, false
			}
			row.typ, typeCol = string(w), true
			i++
		case colReason:
			row.reason = string(w)
			i++
		case colObject:
			objName = string(w)
			if k := strings.IndexByte(objName, '/'); k > 0 {
				objKind, objName = objName[:k], objName[k+1:]
			}
			i++
		case colKind:
			objKind = string(w)
			i++
		case colName:
			if t.has(colKind) {
				objName = string(w)
			}
			i++
		case colNamespace:
			row.ns = string(w)
			i++
		case colSubobject:
			// Empty for the pod itself: a field path or nothing.
			if bytes.HasPrefix(w, []byte("spec.")) || bytes.HasPrefix(w, []byte("status.")) {
				s := ws[i].from
				for i < j-1 && bytes.IndexByte(word(i), '}') < 0 && bytes.IndexByte(word(i), '{') >= 0 {
					i++
				}
				row.fieldPath = string(text[s:ws[i].to])
				i++
			}
		case colSource:
			s := ws[i].from
			switch {
			case w[0] == '{':
				for i < j-1 && bytes.IndexByte(word(i), '}') < 0 {
					i++
				}
			case w[len(w)-1] == ',' && i < j-1:
				i++
			}
			row.source = string(text[s:ws[i].to])
			i++
		default:
			i++
		}
	}
	if row.reason == "" || !hasAge && row.t.IsZero() && !t.has(colTime) || !typeCol && t.has(colType) {
		return row, 0, 0, false
	}
	if t.has(colLastSeen) && !hasAge {
		return row, 0, 0, false
	}
	if i < j {
		from, to = ws[i].from, ws[j-1].to
	} else {
		from, to = len(text), len(text)
	}
	if hasAge {
		row.t = t.base
		if lastKnown {
			row.t = t.base.Add(-last)
		}
		if firstKnown {
			row.first = t.base.Add(-first)
		}
	} else if row.t.IsZero() {
		row.t = t.base
	}
	if objKind != "" && !strings.EqualFold(objKind, "pod") {
		row.reason = "" // another object's event
		return row, from, to, true
	}
	row.name = objName
	msg := text[from:to]
	if row.reason == "Scheduled" {
		t.noteAssigned(msg, objName)
	}
	switch {
	case row.name == "":
		row.ns, row.name = t.ns, t.name
	case row.ns == "":
		row.ns = t.nsOf(row.name)
	}
	return row, from, to, true
}

func (t *eventTable) has(c evCol) bool {
	for _, x := range t.cols {
		if x == c {
			return true
		}
	}
	return false
}

// noteAssigned learns the pod a Scheduled row names in its message
// ("Successfully assigned ns/name to node"), of the object name when
// the table has one.
func (t *eventTable) noteAssigned(msg []byte, obj string) {
	const p = "Successfully assigned "
	if !bytes.HasPrefix(msg, []byte(p)) {
		return
	}
	ref := msg[len(p):]
	if k := bytes.IndexByte(ref, ' '); k >= 0 {
		ref = ref[:k]
	}
	k := bytes.IndexByte(ref, '/')
	if k <= 0 || k == len(ref)-1 {
		return
	}
	ns, name := string(ref[:k]), string(ref[k+1:])
	if obj != "" && obj != name {
		return
	}
	if obj == "" && t.name == "" {
		t.ns, t.name = ns, name
	}
	if len(t.assigned) < 64 {
		t.assigned = append(t.assigned, [2]string{name, ns})
	}
}

// nsOf is the namespace known of the pod name.
func (t *eventTable) nsOf(name string) string {
	if name == t.name {
		return t.ns
	}
	for _, a := range t.assigned {
		if a[0] == name {
			return a[1]
		}
	}
	return ""
}

// tableBase is the time a table's ages count back from: the latest time
// the input states (rows state none), before the table or in the log
// lines the reader holds after it, else its modification time, else now.
func (r *Reader) tableBase() time.Time {
	r.settle()
	t := r.stats.LastTime
	if a := r.aheadTime(); a.After(t) {
		t = a
	}
	switch {
	case !t.IsZero():
		return t
	case !r.opts.ModTime.IsZero():
		return r.opts.ModTime.Truncate(time.Second)
	}
	return time.Now().Truncate(time.Second)
}

// aheadTime is the latest klog header's time in what the reader holds
// past the line it reads (a sequential reader's buffer, up to 64 KiB of
// it), bare or behind a journald prefix: a table pasted before the log
// lines counts back from them. The clock is not moved.
func (r *Reader) aheadTime() time.Time {
	var latest time.Time
	buf := r.win[:min(len(r.win), prescanBytes)]
	for line := range bytes.Lines(buf) {
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line, _ = tableText(line)
		if len(line) >= 30 && !bareHeaderByte[line[0]] {
			if jp := parseJournal(line); jp.ok {
				line = line[jp.rest:] // the journal's kubelet lines as well
			}
		}
		if len(line) < 30 || !bareHeaderByte[line[0]] {
			continue
		}
		if h, ok := parseKlogHeader(line); ok {
			c := r.clock
			if t := c.klogTime(&h); t.After(latest) {
				latest = t
			}
		}
	}
	return latest
}

// eventLine reads an unrecognized line as a line of an events table or
// of the describe block before it; done false leaves it to the reader.
func (r *Reader) eventLine(line, content []byte, pfx *prefix, phys int, start int64) (*Record, bool) {
	t := r.evt
	if t == nil {
		t = &eventTable{}
		r.evt = t
	}
	if t.on && r.lineNo != t.last+1 {
		t.on = false // other lines came between
	}
	if pfx.annotation || pfx.journal {
		t.on = false
		return nil, false
	}
	text, indent := tableText(content)
	if !t.on {
		// A describe block, an "Events:" line or a header starts a table,
		// and completes the record before it.
		var cols []evCol
		var msg int
		name, describe := describeName(text)
		row := false // a row without its header
		// A block without its "Name:" line, named by the kubectl
		// describe command line before it (describe.go).
		named := !describe && r.cmdBefore() && describeTop(text)
		if named {
			describe, name = true, r.cmd.name
		}
		if !describe && !isEventsLine(text) {
			var ok bool
			if cols, msg, ok = eventHeader(text); !ok {
				if cols, ok = headerless(text); !ok {
					return nil, false
				}
				msg, row = len(cols)-1, true
			}
		}
		var rec *Record
		if r.cur.active {
			rec = r.flush()
		}
		*t = eventTable{on: true, last: r.lineNo, cols: cols, msg: msg, describe: describe, name: name, indent: indent, assigned: t.assigned[:0]}
		if cols != nil {
			t.base = r.tableBase()
		}
		if named {
			t.ns, t.podLike = r.cmd.ns, true
		}
		if !row && !named {
			r.stats.Annotations++
			return rec, true
		}
		if rec != nil {
			// (The row is read once the record before it is handed out.)
			r.replay, r.replayPhys, r.replayStart, r.more = line, phys, start, true
			r.stats.Lines--
			t.last--
			return rec, true
		}
	}
	t.last = r.lineNo
	if len(text) == 0 {
		return r.endTable(line, phys, start)
	}
	if t.describe && t.cols == nil {
		if cols, ok := headerless(text); ok {
			// describe's rows under an "Events:" whose header was not
			// copied.
			t.cols, t.msg, t.base = cols, len(cols)-1, r.tableBase()
		}
	}
	if name, ok := describeName(text); ok && (t.cols != nil || !t.describe || indent <= t.indent) {
		// The next pod's describe block, once the record before is
		// complete.
		rec := r.tableRecordDone()
		*t = eventTable{on: true, last: r.lineNo, describe: true, name: name, indent: indent, assigned: t.assigned[:0]}
		r.stats.Annotations++
		return rec, true
	}
	if cols, msg, ok := eventHeader(text); ok {
		t.cols, t.msg, t.base, t.skip = cols, msg, r.tableBase(), false
		return r.tableAnnotation(), true
	}
	if t.cols == nil {
		switch {
		case isEventsLine(text):
			t.section, t.inCtr = sectionNone, false
			r.stats.Annotations++
			return r.tableRecordDone(), true
		case t.describe && describeLine(text, indent, t.indent):
			if ns, ok := describeValue(text, "Namespace:"); ok && indent == t.indent {
				t.ns = ns
			}
			if rec, ok := r.describeContainer(line, text, indent, pfx, phys, start); ok {
				return rec, true
			}
		default:
			return r.endTable(line, phys, start)
		}
		r.stats.Annotations++
		return nil, true
	}
	if isRule(text) {
		return r.tableAnnotation(), true
	}
	row, from, to, ok := t.parseRow(text)
	switch {
	case ok && kubeletRow(&row):
		var h klogHeader
		// (begin completes the row before, whose words t.row still holds.)
		rec := r.begin(line, text[from:to], pfx, FormatEventTable, &h, eventOccurred, phys, start)
		t.row, t.rowOpen, t.skip = row, r.cur.active, false
		return rec, true
	case ok:
	case t.skip:
		r.stats.Annotations++ // the wrapped message of a row not read
		return nil, true
	case t.rowOpen && r.cur.active && r.cur.format == FormatEventTable:
		sep := byte('\n')
		if indent > 0 {
			sep = ' '
		}
		if r.cur.wrapped() {
			sep = 0
		}
		r.appendCont(line, text, sep, start, phys)
		return nil, true
	default:
		return r.endTable(line, phys, start)
	}
	// A row, not the kubelet's: an annotation that completes the row
	// before.
	t.skip = true
	return r.tableAnnotation(), true
}

// tableAnnotation counts a table's line that is no row as an annotation,
// and completes the row before it.
func (r *Reader) tableAnnotation() *Record {
	r.stats.Annotations++
	return r.tableRecordDone()
}

// endTable ends the table at a line that is not its own: the row before
// it is completed first, and the line read again after.
func (r *Reader) endTable(line []byte, phys int, start int64) (*Record, bool) {
	t := r.evt
	t.on = false
	if t.rowOpen && r.cur.active && (r.cur.format == FormatEventTable || r.cur.format == FormatDescribe) {
		if rec := r.flush(); rec != nil {
			r.replay, r.replayPhys, r.replayStart, r.more = line, phys, start, true
			r.stats.Lines-- // (counted again then)
			return rec, true
		}
	}
	return nil, false
}

// isRule reports the rule under a header: dashes and blanks.
func isRule(t []byte) bool {
	dash := false
	for _, c := range t {
		switch c {
		case '-':
			dash = true
		case ' ', '\t':
		default:
			return false
		}
	}
	return dash
}

// decodeEventRow makes the record of a table's row, whose message (with
// its wrapped lines) is msg.
func (r *Reader) decodeEventRow(msg []byte, rec *Record) {
	w := &r.evt.row
	r.evt.rowOpen = false
	rec.Format = FormatEventTable
	rec.Component = "kubelet"
	rec.Msg = "Event occurred"
	rec.Verbosity = -1
	rec.Time = w.t
	rec.Severity = SeverityInfo
	if w.typ == "Warning" {
		rec.Severity = SeverityWarning
	}
	str := func(k, v string) {
		rec.Fields = append(rec.Fields, Field{Key: k, Raw: strconv.Quote(v), Value: Value{Kind: KindString, Str: v}})
	}
	switch {
	case w.name != "" && w.ns != "":
		str("object", w.ns+"/"+w.name)
	case w.name != "":
		o := `{"name":` + strconv.Quote(w.name) + `}`
		rec.Fields = append(rec.Fields, Field{Key: "object", Raw: o, Value: Value{Kind: KindObject, Str: o}})
	}
	if w.fieldPath != "" {
		str("fieldPath", w.fieldPath)
	}
	str("kind", "Pod")
	str("apiVersion", "v1")
	if w.typ != "" {
		str("type", w.typ)
	}
	str("reason", w.reason)
	str("message", string(msg))
	if w.source != "" {
		str("source", w.source)
	}
	if w.count > 0 {
		c := strconv.Itoa(w.count)
		rec.Fields = append(rec.Fields, Field{Key: "count", Raw: c, Value: Value{Kind: KindNumber, Str: c, Num: float64(w.count)}})
	}
	if w.age != "" {
		str("age", w.age)
	}
	if !w.first.IsZero() {
		str("firstSeen", w.first.Format(time.RFC3339))
	}
}
