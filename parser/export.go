package parser

import (
	"bytes"
	"encoding/json"
	"strings"
	"time"
)

// Exports of log stores: JSON values, pretty-printed over many lines or
// not, whose records carry a log line in a field (log, message, MESSAGE,
// textPayload, jsonPayload.message, line) with a time beside it
// (timestamp, @timestamp, time, receiveTimestamp): the shapes of Cloud
// Logging, CloudWatch, Loki and Grafana, Elasticsearch and Fluent Bit, and
// docker's json-file lines. They are read line by line like the rest: a
// line that opens such a value starts an export, whose lines are held
// until an object that is an element of an array (or the whole value)
// closes; its log lines are then read as records, in the order written,
// each placed at the lines of its object. A paste that begins inside a
// record (its opening lines not pasted) is read too: a closing bracket
// with nothing open stands for the opener that was cut, and an object
// that does not decode gives what its "key": "value" lines say.
//
// A record's time is its own when its line holds an absolute one (JSON
// ts, a zoned runtime time), else the export's: the klog header has no
// year and no zone.

// exportMsgKeys name the fields that hold the log line, in order of
// preference.
var exportMsgKeys = []string{"log", "message", "MESSAGE", "textPayload", "line", "Line", "Message", "@message", "body", "Body"}

// exportTimeKeys name the fields that hold a record's time, in order of
// preference (the time a store received a record comes last).
var exportTimeKeys = []string{"timestamp", "@timestamp", "time", "Timestamp", "Time", "date", "__REALTIME_TIMESTAMP", "ts", "receiveTimestamp", "ingestionTime"}

// exportHostKeys name the fields that name the node.
var exportHostKeys = []string{"_HOSTNAME", "hostname", "host", "node_name", "nodename", "nodeName", "node", "kubernetes_host"}

// exportMax bounds the text an export holds while one of its values is
// open: past it, what it holds is read as it is and the export ends.
const exportMax = 16 << 20

// exportRec is a log line found in an export, to be made a record.
type exportRec struct {
	text []byte // the log line, its own copy
	time time.Time
	host string
	// pos is where the object it was read from lies; acct is how many of
	// the export's lines the record accounts for (its first and the
	// continuations), 0 when it shares a line with another record.
	pos  Position
	acct int
}

// exportOpen is a bracket of the export still open.
type exportOpen struct {
	kind   byte  // '{' or '['
	at     int   // index of the bracket in buf
	line   int64 // number of the line it is on
	parent byte  // the kind of the bracket it is inside, 0 at the top
}

// heldLine is a line of the export not yet accounted for.
type heldLine struct {
	line   int64
	start  int64 // offset in the input
	phys   int
	pre    int // bytes of the line before its text (a prefix taken off)
	c0, c1 int // its text in buf
}

// exportState is the JSON value an export is reading.
type exportState struct {
	buf     []byte // the text of the lines held, each ended by '\n' (objects read are replaced by null)
	stack   []exportOpen
	held    []heldLine
	host    string // a node name written before the value ("node-1: {…}")
	records int    // records found in it so far
	found   int    // objects with a log line found in it so far (records, and lines that are no log line)
	cut     bool   // it began inside a value whose start was not pasted
	first   int64  // number of its first line
	// curStart and curPhys place the line being read.
	curStart int64
	curPhys  int
}

// exportStart reports whether content opens a JSON export: a line that
// opens an object or array (not a record of the kubelet's JSON format,
// which classify reads), a "key": line of a record whose start was not
// pasted, or a node name before an object. It returns the JSON text and
// the node name.
func exportStart(content []byte) (body []byte, host string, ok bool) {
	t := bytes.TrimLeft(content, " \t")
	if len(t) == 0 {
		return nil, "", false
	}
	switch t[0] {
	case '{':
		if len(t) == 1 || t[1] == '"' || t[1] == ' ' || t[1] == '\t' || t[1] == '}' {
			return t, "", true
		}
	case '[':
		if len(t) == 1 || t[1] == '{' || t[1] == '[' || t[1] == ']' || (t[1] == ' ' || t[1] == '\t') && len(bytes.TrimSpace(t[1:])) > 0 && bytes.TrimSpace(t[1:])[0] == '{' {
			return t, "", true
		}
	case '"':
		if key, rest, ok := memberKey(t); ok && exportKey(key) && len(rest) > 0 {
			return t, "", true
		}
	default:
		// "node-1: {…}"
		c := bytes.Index(t[:min(len(t), 80)], []byte(": "))
		if c <= 0 || bytes.ContainsAny(t[:c], " \t\"=[]{}") {
			return nil, "", false
		}
		rest := bytes.TrimLeft(t[c+2:], " ")
		if len(rest) == 1 && (rest[0] == '{' || rest[0] == '[') ||
			len(rest) > 1 && (rest[0] == '{' && (rest[1] == '"' || rest[1] == ' ') || rest[0] == '[' && rest[1] == '{') {
			return rest, string(t[:c]), true
		}
	}
	return nil, "", false
}

// memberKey reads `"key":` at the start of b and returns the key and what
// follows the colon.
func memberKey(b []byte) (string, []byte, bool) {
	e := bytes.IndexByte(b[1:], '"')
	if e < 0 || e > 64 {
		return "", nil, false
	}
	key := string(b[1 : 1+e])
	rest := bytes.TrimLeft(b[2+e:], " ")
	if len(rest) == 0 || rest[0] != ':' {
		return "", nil, false
	}
	return key, bytes.TrimLeft(rest[1:], " "), true
}

func exportKey(k string) bool {
	for _, l := range [][]string{exportMsgKeys, exportTimeKeys, exportHostKeys} {
		for _, s := range l {
			if s == k {
				return true
			}
		}
	}
	switch k {
	case "insertId", "jsonPayload", "resource", "labels", "logName", "severity", "stream", "kubernetes", "_source", "_index", "_id", "logStreamName", "eventId", "events", "values":
		return true
	}
	return false
}

// beginExport starts an export at the current line (cut: inside a value
// whose start was not pasted).
func (r *Reader) beginExport(host string, cut bool) {
	r.exp = &exportState{host: host, first: r.lineNo, cut: cut}
	r.slow |= slowExport
}

// exportLine reads a line of an export (body: its JSON text); it returns
// a record completed by it, others are queued.
func (r *Reader) exportLine(body []byte, phys int, start int64, pre int) *Record {
	e := r.exp
	e.curStart, e.curPhys = start, phys
	if pre < 0 || pre > phys {
		pre = 0 // (the text is not in the line: a journal entry's message)
	}
	base := len(e.buf)
	e.buf = append(e.buf, body...)
	e.buf = append(e.buf, '\n')
	e.held = append(e.held, heldLine{line: r.lineNo, start: start, phys: phys, pre: pre, c0: base, c1: base + len(body)})
	inStr, esc := false, false
	for i := base; i < len(e.buf)-1; i++ {
		c := e.buf[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			var parent byte
			if n := len(e.stack); n > 0 {
				parent = e.stack[n-1].kind
			}
			e.stack = append(e.stack, exportOpen{kind: c, at: i, line: r.lineNo, parent: parent})
		case '}', ']':
			if len(e.stack) == 0 {
				// It closes what opened before the paste began: the
				// opener stands at the start.
				open := byte('{')
				if c == ']' {
					open = '['
				}
				e.buf = append(e.buf, 0)
				copy(e.buf[1:], e.buf)
				e.buf[0] = open
				for k := range e.held {
					e.held[k].c0++
					e.held[k].c1++
				}
				i++
				e.stack = append(e.stack, exportOpen{kind: open, line: e.first})
				e.cut = true
			}
			o := e.stack[len(e.stack)-1]
			e.stack = e.stack[:len(e.stack)-1]
			if o.kind == '{' && c == '}' && o.parent != '{' {
				i = r.exportUnit(o, i)
			}
			if len(e.stack) == 0 && e.found == 0 && !e.cut {
				// A JSON value with no log line: no export.
				r.endExport(false)
				return r.nextQueued()
			}
		}
	}
	if len(e.stack) == 0 && e.found > 0 {
		// Between values: the lines no record took are the structure
		// around them. The export goes on while lines continue it.
		r.settleHeld()
		e.buf = e.buf[:0]
	}
	if len(e.buf) > exportMax {
		r.endExport(true)
	}
	return r.nextQueued()
}

// settleHeld counts the lines an export holds that no record took: the
// brackets and fields around its records.
func (r *Reader) settleHeld() {
	e := r.exp
	for _, h := range e.held {
		if len(bytes.TrimSpace(e.buf[h.c0:h.c1])) == 0 {
			r.stats.Blank++
		} else {
			r.stats.Annotations++
		}
	}
	e.held = e.held[:0]
}

// exportGoesOn reports whether a line continues an export whose values
// are all closed: another value, or the brackets and commas around them.
func (r *Reader) exportGoesOn(content []byte) bool {
	if len(r.exp.stack) > 0 {
		return true
	}
	t := bytes.TrimLeft(content, " \t")
	if len(t) == 0 {
		return false
	}
	switch t[0] {
	case '{', '[', ']', '}', ',':
		return true
	case '"':
		_, _, ok := memberKey(t)
		return ok && r.exp.cut
	}
	_, _, ok := exportStart(t)
	return ok
}

// exportUnit reads the object o that closes at buf[end]: an element of an
// array, or a value at the top. When it holds log lines, they are queued
// as records placed at its lines and the object is replaced by null in
// buf; it returns where buf[end] is then.
func (r *Reader) exportUnit(o exportOpen, end int) int {
	e := r.exp
	recs, found := r.exportRecords(e.buf[o.at:end+1], e.host)
	if found == 0 && o.parent != 0 {
		return end // (part of a record, read with the object around it)
	}
	r.placeExport(recs, found, o.line, o.at, end+1)
	if found == 0 {
		return end
	}
	n := copy(e.buf[o.at:], "null")
	e.buf = append(e.buf[:o.at+n], e.buf[end+1:]...)
	shift := end + 1 - (o.at + n)
	for k := range e.held {
		if h := &e.held[k]; h.c0 > o.at {
			h.c0 = max(h.c0-shift, o.at)
			h.c1 = max(h.c1-shift, o.at)
		}
	}
	return o.at + n - 1
}

// placeExport queues the records of an object that began on line from,
// whose text is buf[b0:b1], accounting for the lines it spans that no
// record before took. A record is placed at its log line's JSON string
// when it is found there as written, else at the object's lines.
func (r *Reader) placeExport(recs []exportRec, found int, from int64, b0, b1 int) {
	e := r.exp
	k := 0
	for k < len(e.held) && e.held[k].line < from {
		k++
	}
	own := e.held[k:]
	if found == 0 {
		return
	}
	e.found += found
	var pos Position
	if len(own) > 0 {
		first, last := own[0], own[len(own)-1]
		pos = Position{Input: r.opts.Name, Line: first.line, Lines: int(last.line-first.line) + 1, Offset: first.start, Length: int(last.start-first.start) + last.phys}
	} else if n := len(e.held); n > 0 {
		// (On a line a record before took: it is placed there too.)
		l := e.held[n-1]
		pos = Position{Input: r.opts.Name, Line: l.line, Lines: 1, Offset: l.start, Length: l.phys}
	} else {
		pos = Position{Input: r.opts.Name, Line: r.lineNo, Lines: 1, Offset: e.curStart, Length: e.curPhys}
	}
	switch {
	case len(recs) == 0:
		r.stats.Unrecognized += int64(len(own))
		r.noteShape(shapeExportText, int64(len(own)))
	default:
		lines := len(own)
		at := b0
		for j := range recs {
			recs[j].pos = pos
			if p, next, ok := r.stringAt(recs[j].text, at, b1); ok {
				recs[j].pos, at = p, next
			}
			if j < lines {
				recs[j].acct = 1
			}
		}
		if lines > len(recs) {
			recs[0].acct += lines - len(recs)
		}
		e.records += len(recs)
		r.queue = append(r.queue, recs...)
		r.more = true
	}
	e.held = e.held[:k]
}

// endExport ends the export: what it holds of a value still open (cut
// short) is read as it is, and the lines no record took are structure
// (annotations) when the export gave records, else what they would have
// been without it.
func (r *Reader) endExport(cut bool) {
	e := r.exp
	if cut && len(e.held) > 0 {
		recs, found := r.exportRecords(e.buf, e.host)
		r.placeExport(recs, found, e.held[0].line, 0, len(e.buf))
	}
	if e.found > 0 {
		r.settleHeld()
	} else {
		for _, h := range e.held {
			content := e.buf[h.c0:h.c1]
			switch {
			case len(bytes.TrimSpace(content)) == 0:
				r.stats.Blank++
			case r.cur.active && r.queued >= len(r.queue):
				r.appendCont(content, content, '\n', h.start, h.phys)
			default:
				r.stats.Unrecognized++
				r.noteUnread(content)
			}
		}
	}
	r.exp = nil
	r.slow &^= slowExport
	r.endQueue, r.more = true, true
}

// drainOne makes the next record an export queued, or reads again the
// line that ended it; ok is false when neither is left.
func (r *Reader) drainOne() (rec *Record, ok bool) {
	switch {
	case r.queued < len(r.queue) || r.endQueue:
		return r.nextQueued(), true
	case r.replay != nil:
		l := r.replay
		r.replay = nil
		r.stats.Lines++
		return r.consume(l, r.replayPhys, r.replayStart), true
	}
	r.more = false
	return nil, false
}

// nextQueued makes the next record an export queued, and returns the
// record that completes (the one before it). Once an export ended and
// its records are made, the last one is complete too.
func (r *Reader) nextQueued() *Record {
	for r.queued < len(r.queue) {
		q := &r.queue[r.queued]
		r.queued++
		if rec := r.beginExportRec(q); rec != nil {
			return rec
		}
	}
	r.queue, r.queued = r.queue[:0], 0
	if r.endQueue {
		r.endQueue = false
		if r.cur.active && r.cur.export {
			return r.flush()
		}
	}
	return nil
}

// beginExportRec starts the record of an export's log line, completing
// the one before it.
func (r *Reader) beginExportRec(q *exportRec) *Record {
	pfx := prefix{host: r.interned.get([]byte(q.host)), outer: true}
	if !q.time.IsZero() {
		pfx.time, pfx.hasTime = q.time, true
		r.clock.anchor(q.time)
	}
	content := q.text
	// The line may have a prefix of its own (a syslog line shipped as
	// it is).
	if !bareLogLine(content) {
		if jp := parseJournal(content); jp.ok {
			if h := content[jp.hostS:jp.hostE]; pfx.host == "" {
				pfx.host = r.interned.get(h)
			}
			pfx.component = r.identComponent(content[jp.idS:jp.idE])
			pfx.pid = jp.pid
			content = content[jp.rest:]
			if w := leadingWord(content); w > 0 && startsLogLine(content[w+1:]) {
				pfx.component = r.identComponent(content[:w])
				content = content[w+1:]
			}
		} else if c, ok := r.embeddedLine(content, &pfx); ok {
			content = c
		}
	}
	format, h, msg := classify(content)
	if format == FormatUnknown {
		if _, ok := kubeletEventOf(content); ok {
			// The message of an event the kubelet records (exportevent.go).
			format, msg = FormatEventTable, eventOccurred
		}
	}
	if format == FormatUnknown {
		// (Counted by placeExport: such a line takes no line of its own
		// unless it is alone, then its lines are unrecognized.)
		r.stats.Unrecognized += int64(q.acct)
		r.noteShape(shapeExportText, int64(q.acct))
		return nil
	}
	if pfx.journal {
		r.judgeComponent(&pfx, format, content, &h)
	}
	rec := r.begin(content, content, &pfx, format, &h, msg, len(content), q.pos.Offset)
	p := &r.cur
	p.export, p.acct = true, q.acct
	p.line, p.lines, p.offset, p.length = q.pos.Line, q.pos.Lines, q.pos.Offset, q.pos.Length
	if q.acct > 1 {
		r.stats.Continuations += int64(q.acct - 1)
	}
	if q.acct == 0 {
		r.stats.Packed++
	}
	return rec
}

// stringAt finds, in buf[from:to] of the export, the JSON string that says
// text, and returns its position in the input and the index after it.
func (r *Reader) stringAt(text []byte, from, to int) (Position, int, bool) {
	e := r.exp
	b := e.buf[:to]
	for i := from; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end := quotedEnd(b, i)
		if end < 0 {
			return Position{}, 0, false
		}
		if end-i-2 >= len(text) {
			var s string
			if json.Unmarshal(b[i:end], &s) == nil && strings.TrimRight(s, "\r\n") == string(text) {
				for _, h := range e.held {
					if h.c0 <= i && end <= h.c1 {
						return Position{Input: r.opts.Name, Line: h.line, Lines: 1, Offset: h.start + int64(h.pre+i-h.c0), Length: end - i}, end, true
					}
				}
				return Position{}, 0, false
			}
		}
		i = end - 1
	}
	return Position{}, 0, false
}
