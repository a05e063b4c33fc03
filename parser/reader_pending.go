package parser

import (
	"encoding/binary"
	"unicode/utf8"
)

// pending is the record being assembled: it is complete only when the next
// header line (or EOF) shows that no continuation follows.
type pending struct {
	active    bool
	want      bool
	format    Format
	hdr       klogHeader
	pfx       prefix
	hasPfx    bool // pfx may be other than zero
	buf       []byte
	line      int64
	offset    int64
	length    int
	lines     int
	multiline bool // inside a klog `key=<` … ` >` value
	firstN    int  // bytes of the first line in buf
	firstW    int  // width in runes of the first physical line; -1: not measured yet (see wrapped)
	lastW     int  // width in runes of the last physical line; -1: that of the first
	// Quote state of buf[:qPos], so that each continuation line scans only
	// its own bytes (a goroutine dump of 20,000 lines stays linear).
	qPos       int
	qIn, qSkip bool
	capped     bool // buf reached MaxLineBytes: later lines counted, not kept
	// known is what was known of the first line of a klog record when
	// it began.
	known knownText
	// ref, when not nil, is the first line of a wanted record where it
	// was read, standing for buf: see Reader.stable.
	ref []byte
	// export: the record is a log line of a JSON export, placed at the
	// lines of its object (line, lines, …), of which it accounts for
	// acct (0: it shares a line with another record, Stats.Packed).
	export bool
	acct   int
	// cut: the line was cut inside the wrapper it was read from (a
	// logrus msg left open, wrapped.go): the record is Truncated.
	cut bool
}

// data is the text of the record.
func (p *pending) data() []byte {
	if p.ref != nil {
		return p.ref
	}
	return p.buf
}

// own copies the first line into buf, before a continuation line is
// joined to it.
func (p *pending) own() {
	if p.ref != nil {
		p.buf = append(p.buf[:0], p.ref...)
		p.ref = nil
	}
}

// openQuote reports whether buf ends inside a quoted string, scanning only
// what was appended since the last call.
func (p *pending) openQuote() bool {
	b := p.buf
	for i := p.qPos; i < len(b); i++ {
		if p.qSkip {
			p.qSkip = false
			continue
		}
		switch b[i] {
		case '\\':
			if p.qIn {
				p.qSkip = true
			}
		case '"':
			p.qIn = !p.qIn
		}
	}
	p.qPos = len(b)
	return p.qIn
}

// lastWidth is the width in runes of the record's last physical line.
func (p *pending) lastWidth() int {
	switch {
	case p.lastW >= 0:
		return p.lastW
	case p.firstW >= 0:
		return p.firstW
	}
	return lineWidth(p.data())
}

// wrapped reports whether the last line of the record looks hard-wrapped:
// as wide as its first, at a width people wrap at.
func (p *pending) wrapped() bool {
	if p.firstW < 0 {
		p.firstW = lineWidth(p.buf[:p.firstN])
		if p.lastW < 0 {
			p.lastW = p.firstW
		}
	}
	return p.lastW == p.firstW && wrapWidth(p.firstW)
}

// wrapWidth reports terminal and editor widths at which people hard-wrap
// pasted logs, from minWrapWidth to maxWrapWidth.
func wrapWidth(w int) bool {
	switch w {
	case 72, 76, 78, 79, 80, 100, 120, 132, 140, 150, 160, 180, 200, 240, 250, 256:
		return true
	}
	return false
}

const minWrapWidth, maxWrapWidth = 72, 256

// lineWidth is the width in runes of a physical line, as far as hard-wrap
// detection needs it: exact where it may be a wrapWidth, else a stand-in
// that is no wrap width either (the width lies between a quarter of the
// bytes and all of them), so that counting the runes of every long line
// is spared.
func lineWidth(line []byte) int {
	if len(line) < minWrapWidth || len(line) > utf8.UTFMax*maxWrapWidth {
		return len(line)
	}
	// Lines are mostly ASCII: skip it eight bytes a step.
	i := 0
	for ; i+8 <= len(line); i += 8 {
		if binary.LittleEndian.Uint64(line[i:])&0x8080808080808080 != 0 {
			break
		}
	}
	return i + utf8.RuneCount(line[i:])
}

func (r *Reader) appendCont(line, content []byte, sep byte, start int64, phys int) {
	r.stats.Continuations++
	r.cur.lines++
	r.cur.length = int(start-r.cur.offset) + phys
	if r.cur.want && !r.cur.capped {
		r.cur.own()
		if len(r.cur.buf)+1+len(content) > r.opts.MaxLineBytes {
			// A record as long as the longest line allowed: the rest of
			// it is counted, not kept, so memory stays bounded.
			r.cur.capped = true
			r.stats.Truncated++
			return
		}
		if sep != 0 {
			r.cur.buf = append(r.cur.buf, sep)
		}
		r.cur.buf = append(r.cur.buf, content...)
		r.cur.lastW = lineWidth(line)
	}
}

// flush completes the pending record. Records the caller did not want are
// only counted.
func (r *Reader) flush() *Record {
	p := &r.cur
	p.active = false
	if !p.want {
		// (Its time was seen when it began.)
		r.stats.Filtered++
		r.byFormat[p.format]++
		return nil
	}
	if r.opts.Match != nil && !r.opts.Match(p.data()) {
		r.stats.Filtered++
		r.byFormat[p.format]++
		if (p.format == FormatKlog || p.format == FormatKlogLegacy) && !p.hdr.noTime {
			// As begin does for a record Want declines.
			r.seeKlogTime(&p.hdr)
		}
		return nil
	}
	rec := r.out
	if rec == nil {
		rec = &r.rec
	}
	fields := rec.Fields[:0]
	*rec = Record{Fields: fields}
	rec.Host = r.opts.Host
	rec.Component = r.opts.Component
	if p.pfx.host != "" {
		rec.Host = p.pfx.host
	}
	if r.opts.Node != "" {
		rec.Host = r.opts.Node
	}
	if p.pfx.component != "" {
		rec.Component = p.pfx.component
	}
	if p.pfx.journal && p.pfx.host != r.khost && rec.Component == "kubelet" {
		r.seeKubeletHost(p.pfx.host)
	}
	ok, format := true, p.format
	if format == FormatEventTable && p.export {
		r.decodeExportEvent(p.data(), rec) // an event's message in an export (exportevent.go)
		format = FormatUnknown
	}
	if rec.Host == "" && (format == FormatEventTable || format == FormatDescribe) {
		rec.Host = r.pastedHost() // the input's one kubelet host (describe.go)
	}
	switch format {
	case FormatKlog, FormatKlogLegacy:
		// (A record of one line in a chunk is where it was read until it
		// is handed on; buf is written again by the next record.)
		data, cut := p.data(), p.cut
		if n := len(data); n > 0 && (data[n-1] == '.' || data[n-1] == 0xa6) {
			// ("..." ends some printf messages: only a structured
			// record is cut there.)
			if e := ellipsis(data); e > 0 && (p.format == FormatKlog || data[n-1] == 0xa6) {
				data, cut = data[:n-e], true
			}
		} else if n > 0 && data[n-1] == '>' && r.cutW > 0 && p.lastWidth() == r.cutW {
			// less -S (journalctl's pager) marks a line it chops with a
			// '>' in the terminal's last column: no text of the line.
			data, cut = data[:n-1], true
		}
		r.decodeKlog(data, &p.hdr, rec, &p.known, r.opts.Borrow && p.ref != nil)
		if cut || r.cutW > 0 && p.lastWidth() == r.cutW {
			rec.Truncated = true
		}
	case FormatJSON:
		ok = r.decodeJSON(p.data(), rec)
	case FormatLogrus:
		ok = r.decodeLogrus(p.data(), rec, p.pfx.component != "")
	case FormatEventTable:
		r.decodeEventRow(p.data(), rec)
	case FormatDescribe:
		r.decodeDescribe(rec)
	}
	if !ok {
		// Looked like JSON or logrus but did not decode: keep it countable.
		lines := p.lines
		if p.export {
			if lines = p.acct; lines == 0 {
				r.stats.Packed-- // (no line of its own)
				return nil
			}
		}
		r.stats.Unrecognized++
		r.stats.Continuations -= int64(lines - 1)
		r.stats.Unrecognized += int64(lines - 1)
		return nil
	}
	switch {
	case p.pfx.outer && p.pfx.hasTime && (rec.Time.IsZero() || p.format == FormatKlog || p.format == FormatKlogLegacy):
		// A JSON export's time, absolute, wins over a klog header's.
		rec.Time = outerTime(rec.Time, p.pfx.time)
		r.seeTime(rec.Time)
	case rec.Time.IsZero() && p.pfx.hasTime:
		rec.Time = p.pfx.time
		r.seeTime(rec.Time)
	case p.hdr.noTime && rec.Time.IsZero():
		// (A klog line without its time and no prefix's: headerless.go.)
	case p.format == FormatKlog || p.format == FormatKlogLegacy:
		// rec.Time is the second the clock was moved to and the
		// header's microseconds.
		r.seeMicros(r.clock.sec, p.hdr.micros)
	case p.format == FormatEventTable, p.format == FormatDescribe:
		// (Counted back from an age: a time the input does not state; or
		// the API's time of a container's state, not the log's.)
	default:
		r.seeTime(rec.Time)
	}
	if rec.PID == 0 {
		rec.PID = p.pfx.pid
	}
	rec.Pos = Position{Input: r.opts.Name, Line: p.line, Lines: p.lines, Offset: p.offset, Length: p.length}
	if rec.Truncated {
		r.stats.CutShort++
	}
	r.stats.Records++
	r.byFormat[rec.Format]++
	return rec
}
