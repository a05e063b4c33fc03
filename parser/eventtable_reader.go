package parser

import (
	"bytes"
	"strconv"
	"time"
)

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
