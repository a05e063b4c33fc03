package parser

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// readLine returns the next physical line without its line ending, and
// the line's length in the input (newline excluded). The slice is valid
// until the next call.
func (r *Reader) readLine() ([]byte, int, error) {
	if nl := bytes.IndexByte(r.win, '\n'); nl >= 0 {
		line := r.win[:nl]
		r.win = r.win[nl+1:]
		r.winUsed += nl + 1
		r.offset += int64(nl + 1)
		r.stats.Bytes += int64(nl + 1)
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		return line, nl, nil
	}
	if r.winUsed > 0 {
		r.br.Discard(r.winUsed) // (never more than br holds)
	}
	r.win, r.winUsed = nil, 0
	if r.peekIdle && r.br.Buffered() == 0 {
		r.peekIdle = false
		return nil, 0, ErrIdle
	}
	line, phys, err := r.readSlice()
	if err == nil {
		// What br holds past the line, without reading more: the lines
		// after it are taken from it without a call of ReadSlice each.
		r.win, _ = r.br.Peek(r.br.Buffered())
	}
	return line, phys, err
}

// readSlice is readLine by br.ReadSlice.
func (r *Reader) readSlice() ([]byte, int, error) {
	line, err := r.br.ReadSlice('\n')
	consumed := len(line)
	if errors.Is(err, bufio.ErrBufferFull) {
		r.long = append(r.long[:0], line...)
		truncated := false
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.br.ReadSlice('\n')
			consumed += len(line)
			room := r.opts.MaxLineBytes - len(r.long)
			if len(line) > room {
				truncated = true
				if room > 0 {
					r.long = append(r.long, line[:room]...)
				}
			} else {
				r.long = append(r.long, line...)
			}
		}
		if truncated {
			r.stats.Truncated++
		}
		line = r.long
	}
	r.offset += int64(consumed)
	r.stats.Bytes += int64(consumed)
	if consumed == 0 && err != nil {
		return nil, 0, err
	}
	phys := consumed
	if n := len(line); n > 0 && line[n-1] == '\n' {
		line = line[:n-1]
		phys--
	}
	if k := len(line); k > 0 && line[k-1] == '\r' {
		line = line[:k-1]
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return line, phys, err
	}
	return line, phys, nil
}

// consume classifies one physical line; it returns a record when this line
// completes the one before it. Its caller (take) gives a line that starts
// with a klog header to bare first, and consume the lines bare does not
// read.
//
// Most lines are a bare klog header: no wrapper to strip, and a header
// ends any record or multi-line value before it whatever the state. They
// skip the steps below, which would find just that (bareLogLine holds for
// every line parseKlogHeader accepts, and a line starting with I, W, E or
// F has no byte-order mark or NULs to trim).
func (r *Reader) consume(line []byte, phys int, start int64) *Record {
	if len(line) >= 30 && bareHeaderByte[line[0]] && r.slow == 0 {
		if h := &r.hdr; parseKlogHeaderTo(h, line) {
			format, msg := klogPayload(line, h)
			return r.begin(line, line, nil, format, h, msg, phys, start)
		}
	}
	r.cur.own()
	if r.cur.active && r.cur.multiline && !r.cur.hasPfx && bytes.HasPrefix(line, []byte(" > ")) {
		// A `key=<` value's closing line with the keys after it, not a quote.
		r.appendCont(line, line, '\n', start, phys)
		r.cur.multiline = false
		return nil
	}
	content, pfx := r.stripPrefix(line)
	// A UTF-8 byte-order mark on the first line, and the NULs a
	// copytruncate leaves where the file was cut, hide a record's header.
	if r.lineNo == 1 {
		content = bytes.TrimPrefix(content, []byte("\xef\xbb\xbf"))
	}
	if len(content) > 0 && content[0] == 0 {
		content = bytes.TrimLeft(content, "\x00")
	}
	if r.exp != nil {
		switch {
		case pfx.ends || pfx.journal || bareLogLine(content) && content[0] != '{':
			// A fence, a prompt or a log line ends a value cut short.
			r.endExport(true)
			if rec := r.nextQueued(); rec != nil {
				// The line is read again once the export's records are
				// made (it stays where it is until the next line is
				// read).
				r.replay, r.replayPhys, r.replayStart, r.more = line, phys, start, true
				r.stats.Lines-- // (counted again then)
				return rec
			}
		case pfx.annotation:
			r.stats.Annotations++
			return nil
		case !r.exportGoesOn(content):
			r.endExport(false)
			if rec := r.nextQueued(); rec != nil {
				r.replay, r.replayPhys, r.replayStart, r.more = line, phys, start, true
				r.stats.Lines--
				return rec
			}
		default:
			return r.exportLine(content, phys, start, cap(line)-cap(content))
		}
	}
	if r.cur.active && r.cur.multiline && sameStream(&r.cur.pfx, &pfx) {
		// Inside `key=<`: TAB-indented lines up to a line " >". Anything
		// else (a new header) ends an unclosed value.
		if len(content) > 0 && content[0] == '\t' || len(content) == 0 {
			r.appendCont(line, content, '\n', start, phys)
			return nil
		}
		if string(bytes.TrimRight(content, " ")) == " >" || bytes.HasPrefix(content, []byte(" > ")) { // keys may follow: ` > logger="UnhandledError"`
			r.appendCont(line, content, '\n', start, phys)
			r.cur.multiline = false
			return nil
		}
		if pfx.journal && content[0] == ' ' && !startsLogLine(bytes.TrimLeft(content, " ")) {
			// A journal's line whose TAB a paste turned into spaces.
			r.appendCont(line, content, '\n', start, phys)
			return nil
		}
		r.cur.multiline = false
	}
	format, h, msg := classify(content)
	if format == FormatUnknown && !pfx.annotation && len(content) > 0 {
		// A log line after text of a shape podflow does not know.
		if c, ok := r.embeddedLine(content, &pfx); ok {
			content = c
			format, h, msg = classify(content)
		}
	}
	if format == FormatLogrus && wrapsLine(msg) {
		return r.wrapped(line, content, &pfx, phys, start) // k0s: a kubelet or containerd line inside (wrapped.go)
	}
	if format == FormatUnknown && !pfx.annotation || format == FormatJSON && msg == nil {
		if body, host, ok := exportStart(content); ok {
			r.beginExport(host, body[0] == '"')
			return r.exportLine(body, phys, start, cap(line)-cap(body))
		}
	}
	if format == FormatUnknown && len(content) > 0 {
		r.noteCommand(content) // a kubectl describe pod command line (describe.go)
	}
	if format == FormatUnknown && (r.evt != nil && r.evt.on || maybeEventTable(content) || r.cmdBefore()) {
		if rec, done := r.eventLine(line, content, &pfx, phys, start); done {
			return rec // a line of a pasted events table (eventtable.go)
		}
	}
	if pfx.journal {
		r.judgeComponent(&pfx, format, content, &h)
	}
	if format == FormatUnknown && !pfx.annotation && len(content) > 0 && r.headerless(content, &pfx, &h) {
		format, msg = klogPayload(content, &h) // a kubelet line without its time (headerless.go)
	}
	if format == FormatUnknown {
		switch {
		case len(bytes.TrimSpace(content)) == 0:
			r.stats.Blank++
		case pfx.annotation:
			r.stats.Annotations++
			if pfx.ends && r.cur.active {
				return r.flush()
			}
		case r.cur.active && r.cur.line != r.wrapLine && sameStream(&r.cur.pfx, &pfx) && !r.endsIndented(&pfx):
			sep := byte('\n')
			if r.cur.want && (r.cur.openQuote() || r.cur.wrapped()) {
				sep = 0 // a terminal or editor hard-wrapped the line
			}
			r.appendCont(line, content, sep, start, phys)
		default:
			r.stats.Unrecognized++
			r.noteUnread(content)
		}
		return nil
	}
	return r.begin(line, content, &pfx, format, &h, msg, phys, start)
}

// begin starts the record whose first line is line (content without its
// prefix pfx; nil: none), completing the one before it.
func (r *Reader) begin(line, content []byte, pfx *prefix, format Format, h *klogHeader, msg []byte, phys int, start int64) *Record {
	var out *Record
	if r.cur.active {
		out = r.flush()
	}
	want, memo := r.want(format, msg)
	if !want && r.opts.Rescue != nil {
		want = r.rescueBegin(format, content, msg, memo)
	}
	var known knownText
	if memo != nil && format == FormatKlog {
		known.msg, known.plain = memo.s, memo.plain
	}
	r.open(line, content, pfx, format, want, known, phys, start)
	if want {
		r.cur.hdr = *h
	} else if (format == FormatKlog || format == FormatKlogLegacy) && !h.noTime {
		// Declined records still move the clock, in the order of the
		// records: the log's end time and the December→January rollover
		// must see every line.
		r.seeKlogTime(h)
	} else if format == FormatJSON {
		r.seeJSONTime(content)
	}
	return out
}

// open makes the record whose first line is line (content without its
// prefix pfx; nil: none) the pending one, once the one before it is
// flushed, with what is known of its first line. The caller sets the
// header of a wanted klog record.
func (r *Reader) open(line, content []byte, pfx *prefix, format Format, want bool, known knownText, phys int, start int64) {
	p := &r.cur
	if want || p.want {
		*p = pending{buf: p.buf[:0]}
	}
	// (Between declined records, what only a wanted one reads (buf, the
	// widths, the quote state, capped, msg, hdr) is left as it was: most
	// lines are declined, and the whole of pending costs more to clear
	// than the rest of such a line.)
	p.active, p.want, p.format = true, want, format
	p.line, p.offset, p.length, p.lines = r.lineNo, start, phys, 1
	p.multiline = format == FormatKlog && bytes.HasSuffix(content, []byte("=<"))
	if pfx != nil {
		p.pfx, p.hasPfx = *pfx, true
	} else if p.hasPfx {
		p.pfx, p.hasPfx = prefix{}, false
	}
	if want {
		p.firstN = len(content)
		p.known = known
		if r.stable {
			p.ref = content
		} else {
			p.buf = append(p.buf, content...)
		}
		// The width of the first line is wanted only when a continuation
		// line follows; a line without a prefix is what buf holds.
		p.firstW, p.lastW = -1, -1
		if len(line) != len(content) {
			p.firstW = lineWidth(line)
			p.lastW = p.firstW
		}
	}
}

// sameStream reports whether a line with prefix q may continue a record
// that began with prefix p: under journald, lines of another process or
// component are never joined.
func sameStream(p, q *prefix) bool {
	if !q.journal {
		return true
	}
	if !p.journal {
		return false
	}
	return p.pid == q.pid && p.component == q.component && p.host == q.host
}

// classify detects the format of a line (after any prefix was stripped) and
// returns the raw message for the Want filter.
func classify(b []byte) (Format, klogHeader, []byte) {
	if len(b) == 0 {
		return FormatUnknown, klogHeader{}, nil
	}
	switch b[0] {
	case 'I', 'W', 'E', 'F':
		if h, ok := parseKlogHeader(b); ok {
			f, msg := klogPayload(b, &h)
			return f, h, msg
		}
	case '{':
		if len(b) > 1 && (b[1] == '"' || b[1] == ' ') {
			return FormatJSON, klogHeader{}, jsonMsg(b)
		}
	case 't':
		if bytes.HasPrefix(b, []byte("time=")) {
			return FormatLogrus, klogHeader{}, logrusMsg(b)
		}
	}
	return FormatUnknown, klogHeader{}, nil
}

// klogPayload returns the format of the klog line b with header h and its
// raw message.
func klogPayload(b []byte, h *klogHeader) (Format, []byte) {
	payload := b[h.payload:]
	if len(payload) > 0 && payload[0] == '"' {
		return FormatKlog, klogMsg(payload)
	}
	return FormatKlogLegacy, payload
}
