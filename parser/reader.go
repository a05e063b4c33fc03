package parser

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"time"
	"unicode/utf8"
)

// DefaultMaxLineBytes caps one physical line; the rest of a longer line is
// skipped and counted in Stats.Truncated, so memory stays bounded.
const DefaultMaxLineBytes = 64 << 20

// Options configure a Reader.
type Options struct {
	Name     string         // input name used in positions and errors
	Year     int            // year for klog times; 0 infers it
	Location *time.Location // zone the klog times were written in; nil means UTC
	ModTime  time.Time      // input modification time, a fallback for the year
	Host     string         // node name when no line names one
	// Node, when set, is the node every record belongs to (e.g. from the
	// directory layout of a log dump); it wins over a journald host.
	Node      string
	Component string // component when no line names one (default "kubelet")
	// Want, when set, is asked with the raw (still escaped) message of each
	// record before it is decoded; records it declines are counted in
	// Stats.Filtered and cost no allocation. Want must answer by the
	// message alone (answers are remembered) and be safe for concurrent
	// use (large inputs are parsed on several goroutines).
	Want func(msg []byte) bool
	// Rescue, when set, decodes some records Want declines (rescue.go).
	Rescue *Rescue
	// Match, when set, is asked with the text of each record Want keeps
	// (its lines joined, prefixes stripped, as far as MaxLineBytes keeps
	// it) before it is decoded; records it declines are counted in
	// Stats.Filtered (as with Want, even one that would not have
	// decoded), and their klog times still move the clock. It is
	// for a caller that looks for given strings in whole records, as a
	// grep does, without the cost of decoding the others. Like Want, it
	// must be safe for concurrent use.
	Match        func(text []byte) bool
	MaxLineBytes int // 0 means DefaultMaxLineBytes
	// NoPrescan turns off the look at the first 64 KiB of the input for an
	// absolute time that fixes the year of klog's year-less headers.
	NoPrescan bool
	// Workers is how many goroutines parse one input. 0: NewReader parses
	// sequentially, MultiReader parses files of ParallelMinBytes or more
	// on GOMAXPROCS goroutines; 1: sequentially; n > 1: on n goroutines
	// (MultiReader: every file, never standard input, which must not wait
	// for a chunk to fill). Records, positions and Stats are the same.
	Workers int
	// ChunkBytes is how much input one worker parses at a time (0: 256 KiB).
	ChunkBytes int
	// StartOffset and StartLine place the input in a longer stream: its
	// first byte lies at StartOffset, after StartLine lines (reading on
	// where another Reader stopped, as when following a growing file), so
	// that positions stay those of the whole stream.
	StartOffset int64
	StartLine   int64
	// Borrow makes the strings of a record valid, like the record, only
	// until the next call to Next: the caller copies what it keeps (and
	// reads the members of an object value before it). A
	// record's text is then decoded where the reader holds it (a parallel
	// reader's chunk), or in memory it reuses, instead of into strings of
	// its own, so that records cost next to no allocation and the
	// garbage collector runs less often.
	Borrow bool
	// Quoted names fields whose klog values, when quoted ASCII text with
	// \" its only escape, the reader keeps as written (KindQuoted)
	// instead of unquoting: for a consumer that reads the escaped text
	// itself, such as the engine's status-patch decoder, or reads it
	// rarely (Value.Text unquotes).
	Quoted []string

	bufBytes int // the line buffer's size (0: 256 KiB); see readBufBytes
}

// Stats account for every input line: Lines == Records + Filtered +
// Continuations + Annotations + Blank + Unrecognized.
type Stats struct {
	Lines         int64 `json:"lines"`
	Bytes         int64 `json:"bytes"`
	Records       int64 `json:"records"`       // records returned by Next
	Filtered      int64 `json:"filtered"`      // records of a known format the caller did not want
	Continuations int64 `json:"continuations"` // lines joined to the record before them
	Annotations   int64 `json:"annotations"`   // lines people add around logs: "-- Logs begin at …", "..."
	Blank         int64 `json:"blank"`
	Unrecognized  int64 `json:"unrecognized"`
	Truncated     int64 `json:"truncated"` // lines, or records with their continuation lines, longer than MaxLineBytes (cut, still counted above)
	// CutShort are the records returned whose text was cut short
	// (Record.Truncated).
	CutShort int64 `json:"cutShort,omitempty"`
	// Packed are the records beyond the first read from one line (a
	// JSON export that writes several records on a line).
	Packed int64 `json:"packed,omitempty"`
	// FirstTime and LastTime span the timestamps of all records, declined
	// ones included (klog headers), so callers know where the log ends.
	FirstTime time.Time `json:"firstTime,omitzero"`
	LastTime  time.Time `json:"lastTime,omitzero"`
	// Zone, when not "", says at which UTC offset the klog times of an
	// input were read and why: inferred from zoned times in it. (Add
	// leaves it: it is an input's.)
	Zone string `json:"zone,omitempty"`
	// NewestFirst says the input was written newest first (journalctl
	// -r, a log store's export): its records were read at once and
	// handed out in time order.
	NewestFirst bool `json:"newestFirst,omitempty"`
	// Unread tells the likely shapes of the unrecognized lines (those
	// that reached no record, not those of a record that did not decode)
	// and what to do about them.
	Unread []LineShape `json:"unread,omitempty"`
	// ByFormat counts records (returned or filtered) per format name.
	ByFormat map[string]int64 `json:"byFormat"`
}

// Add sums s and o.
func (s *Stats) Add(o Stats) {
	s.Lines += o.Lines
	s.Bytes += o.Bytes
	s.Records += o.Records
	s.Filtered += o.Filtered
	s.Continuations += o.Continuations
	s.Annotations += o.Annotations
	s.Blank += o.Blank
	s.Unrecognized += o.Unrecognized
	s.Truncated += o.Truncated
	s.Packed += o.Packed
	s.CutShort += o.CutShort
	s.NewestFirst = s.NewestFirst || o.NewestFirst
	s.Unread = addShapes(s.Unread, o.Unread)
	if !o.FirstTime.IsZero() && (s.FirstTime.IsZero() || o.FirstTime.Before(s.FirstTime)) {
		s.FirstTime = o.FirstTime
	}
	if o.LastTime.After(s.LastTime) {
		s.LastTime = o.LastTime
	}
	for k, v := range o.ByFormat {
		if s.ByFormat == nil {
			s.ByFormat = map[string]int64{}
		}
		s.ByFormat[k] += v
	}
}

func (r *Reader) seeTime(t time.Time) {
	r.settle()
	if t.IsZero() {
		return
	}
	if r.stats.FirstTime.IsZero() || t.Before(r.stats.FirstTime) {
		r.stats.FirstTime = t
	}
	if t.After(r.stats.LastTime) {
		r.stats.LastTime = t
	}
}

// secTimes gathers the times of declined klog records of one second (most
// lines), which are that second plus their microseconds: only the least
// and the greatest can be the first or last time, and they are given to
// seeTime when another second comes or the stats are read. (Two adding
// of the microseconds and two comparisons of times a line cost as much as
// the rest of the time a declined line takes.)
type secTimes struct {
	sec      time.Time
	min, max int // microseconds
	set      bool
}

// seeKlogTime is seeTime for the time of the declined klog record with
// header h.
func (r *Reader) seeKlogTime(h *klogHeader) { r.seeMicros(r.clock.second(h), h.micros) }

// seeMicros is seeKlogTime for the time that is the second sec plus
// micros microseconds.
func (r *Reader) seeMicros(sec time.Time, micros int) {
	g := &r.secTimes
	if g.set && g.sec == sec {
		g.min, g.max = min(g.min, micros), max(g.max, micros)
		return
	}
	r.settle()
	*g = secTimes{sec: sec, min: micros, max: micros, set: true}
}

// settle gives the times secTimes holds to seeTime.
func (r *Reader) settle() {
	g := &r.secTimes
	if !g.set {
		return
	}
	g.set = false
	r.seeTime(g.sec.Add(time.Duration(g.min) * time.Microsecond))
	if g.max != g.min {
		r.seeTime(g.sec.Add(time.Duration(g.max) * time.Microsecond))
	}
}

// Accounted reports whether every line falls in exactly one bucket (the
// records packed on a line of another record aside).
func (s Stats) Accounted() bool {
	return s.Lines+s.Packed == s.Records+s.Filtered+s.Continuations+s.Annotations+s.Blank+s.Unrecognized
}

// ParseError is an input error with its position.
type ParseError struct {
	Input  string
	Line   int64
	Offset int64
	Err    error
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("%s:%d (byte %d): %v", e.Input, e.Line, e.Offset, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

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

// Reader is a pull parser over one input stream. Next returns records in
// input order; a record and its Fields slice are valid until the next call,
// but all strings in them may be kept. (The strings of many records share
// blocks of memory: a string kept for long should be cloned when it is
// small, see textArena.)
type Reader struct {
	opts  Options
	br    *bufio.Reader
	clock clock
	stats Stats
	cur   pending
	long  []byte // line assembly for lines longer than the bufio buffer
	// win is what br holds past the lines readLine returned: a view of
	// its buffer, valid until br is read again, of which winUsed bytes
	// were given out as lines and are to be discarded from br first.
	win     []byte
	winUsed int
	offset  int64 // offset of the next line
	lineNo  int64
	done    bool
	rec     Record
	readErr error

	scanned bool // the year pre-scan ran
	// rev, for an input written newest first, holds its records, read
	// at once and handed out from the last (see nextReversed).
	rev      *reversed
	interned interner // host and ident strings
	quoted   bool     // the input is pasted with "> " markers
	grep     bool     // the input is grep -n output …
	grepName []byte   // … with this file name before the line number
	paste    pasteState
	// cutW is the width in runes at which the input's lines are cut,
	// 0 when they are not (see cutWidth).
	cutW int
	// sysLoc, when not nil, is the zone of syslog prefixes' times, when
	// the input says it differs from the klog headers' (inferZone).
	sysLoc  *time.Location
	zoneOff int
	zoneLoc *time.Location

	// byFormat counts records per format (a map increment per line
	// costs more than the rest of a declined line); Stats adds them up.
	byFormat [len(formatNames)]int64
	// wantMemo remembers Want's answer for structured klog messages,
	// which are constants of the kubelet's code: a few hundred of them.
	wantMemo strTable
	rescued  strTable    // the identities Rescue met (rescue.go)
	rkeys    []rescueKey // Rescue's keys as words (rescue.go)
	// sites, pidWord and pidOK are what bare remembers of the lines
	// before: the messages of call sites, and the last PID field found
	// valid (as read at b[22:30]).
	sites    siteTable
	pidWord  uint64
	pid      int // klogPID of pidWord
	pidOK    bool
	secTimes secTimes
	// unread counts the shapes of unrecognized lines.
	unread unreadCount
	// strs interns klog sources and messages (see intern).
	strs strTable
	// scratch is working memory for decoding records.
	scratch scratch
	// text is where the strings of records are made (see textArena).
	text textArena

	// hdr is where consume reads a header line's header.
	hdr klogHeader
	// out, when not nil, is where flush makes the record (a parallel
	// worker's chunk), else rec.
	out *Record
	// stable: the lines given to consume stay where they are until the
	// records are made (a parallel worker's chunk), so a wanted record of
	// one line is decoded from there instead of a copy.
	stable bool
	// slow turns off the shortcuts for bare klog lines (bare, and the
	// first step of consume): slowTest for tests that compare them with
	// the full path, slowExport while a JSON export is read (a klog line
	// then ends it, see export).
	slow uint8
	// exp is the JSON export being read, nil when none (see export.go);
	// queue holds the records it gave that are yet to be made, from
	// queued on.
	exp    *exportState
	queue  []exportRec
	queued int
	// endQueue: an export ended; once its queued records are made, the
	// last one is complete.
	endQueue bool
	// nulTail: the last run skipRun passed ended in NULs after its last
	// line, which make a line of their own if the input ends there.
	nulTail bool
	// replay is the line that ended an export, to be read once the
	// export's records are made. more: records are queued or a line is
	// to be read again (drainOne).
	more        bool
	replay      []byte
	replayPhys  int
	replayStart int64

	parN int       // workers of a parallel reader; 0: sequential
	src  io.Reader // the input of a parallel reader
	par  *parallel // set while chunks are parsed in parallel

	evt *eventTable // the pasted events table being read (eventtable.go)
	// cmd is the pod the last kubectl describe command line named, and
	// khost the kubelet's journald host the input showed (khostMany: more
	// than one): for the describe blocks and tables pasted without a
	// name or a host (describe.go).
	cmd       describeCmd
	khost     string
	khostMany bool
}

// The bits of Reader.slow.
const (
	slowTest   = 1 << iota // a test compares the shortcuts with the full path
	slowExport             // a JSON export is being read
)

// NewReader returns a Reader over r.
func NewReader(r io.Reader, opts Options) *Reader {
	if opts.Component == "" {
		opts.Component = "kubelet"
	}
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = DefaultMaxLineBytes
	}
	rd := &Reader{
		opts:   opts,
		br:     bufio.NewReaderSize(r, cmp.Or(opts.bufBytes, 256<<10)),
		clock:  newClock(opts),
		stats:  Stats{ByFormat: map[string]int64{}},
		offset: opts.StartOffset,
		lineNo: opts.StartLine,
	}
	rd.scratch.text = &rd.text
	if opts.bufBytes > 0 {
		// A small file (readBufBytes): its tables and the blocks of its
		// records' strings start small too, so that a merge of thousands
		// of small inputs, each waiting on its next record, holds little
		// for each.
		rd.strs.small, rd.wantMemo.small = true, true
		rd.text.block = min(opts.bufBytes, textBlock)
	}
	rd.scratch.setQuoted(opts.Quoted)
	if opts.Workers > 1 && opts.MaxLineBytes == DefaultMaxLineBytes {
		// (Cutting lines at a smaller MaxLineBytes is left to the
		// sequential path.)
		rd.parN, rd.src = opts.Workers, r
	}
	return rd
}

// Stats returns the line accounting so far.
func (r *Reader) Stats() Stats {
	r.settle()
	s := r.stats
	s.ByFormat = make(map[string]int64, len(r.stats.ByFormat))
	for k, v := range r.stats.ByFormat {
		s.ByFormat[k] = v
	}
	for f, v := range r.byFormat {
		if v > 0 {
			s.ByFormat[Format(f).String()] += v
		}
	}
	s.Unread = addShapes(append([]LineShape(nil), s.Unread...), r.unread.shapes(0))
	return s
}

// Anchor gives the reader an absolute time known to fall near the start of
// the input (e.g. found by a pre-scan), from which it takes the year.
func (r *Reader) Anchor(t time.Time) { r.clock.anchor(t) }

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

// Next returns the next record, or io.EOF after the last one. A read error
// (e.g. a truncated gzip stream) is returned as a *ParseError after the
// records read before it.
func (r *Reader) Next() (*Record, error) {
	if r.par != nil {
		return r.nextParallel()
	}
	if r.parN > 0 && !r.scanned {
		if r.startParallel() {
			return r.nextParallel()
		}
	}
	if !r.scanned {
		r.scanned = true
		r.prescan()
	}
	if r.rev != nil {
		return r.nextReversed()
	}
	return r.nextForward()
}

// nextForward is Next for a sequential reader: the records in the order
// of the input.
func (r *Reader) nextForward() (*Record, error) {
	if r.opts.Borrow {
		// The record returned last is done with.
		r.text.reset()
	}
	for {
		if r.more {
			if rec, ok := r.drainOne(); ok {
				if rec != nil {
					return rec, nil
				}
				continue
			}
		}
		if r.done {
			if r.exp != nil {
				r.endExport(true)
				continue
			}
			if r.cur.active {
				if rec := r.flush(); rec != nil {
					return rec, nil
				}
				continue
			}
			if r.readErr != nil {
				err := r.readErr
				r.readErr = nil
				return nil, err
			}
			return nil, io.EOF
		}
		if (len(r.win) == 0 || r.win[0] <= '\r') && r.skipHoles() { // NULs and blank lines, in bulk (holes.go)
			continue
		}
		start := r.offset
		line, phys, err := r.readLine()
		if err != nil {
			r.done = true
			if !errors.Is(err, io.EOF) {
				r.readErr = &ParseError{Input: r.opts.Name, Line: r.lineNo + 1, Offset: r.offset, Err: err}
			}
			if line == nil {
				continue
			}
		}
		r.lineNo++
		r.stats.Lines++
		if rec := r.take(line, phys, start); rec != nil {
			return rec, nil
		}
	}
}

// take reads one physical line, as Next and runChunk do: a line that
// starts with a klog header goes to bare first, the others and those bare
// does not read to consume. It returns a record when this line completes
// the one before it. (Small enough to be inlined: most lines take no call
// but bare's.)
func (r *Reader) take(line []byte, phys int, start int64) *Record {
	if len(line) >= 30 && bareHeaderByte[line[0]] && r.slow == 0 {
		if rec, ok := r.bare(line, phys, start); ok {
			return rec
		}
	}
	return r.consume(line, phys, start)
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
		if string(bytes.TrimRight(content, " ")) == " >" {
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
		case r.cur.active && sameStream(&r.cur.pfx, &pfx):
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

// wantMemoMax bounds the memo of Want answers; messages past it are asked
// each time.
const wantMemoMax = 4096

// want asks Options.Want about a record's raw message. Structured klog
// messages are few and repeat on every line of their kind, so the answer
// is remembered (Want is a function of the message alone); printf
// messages, which embed values, are asked each time.
//
// The entry of a remembered message comes back too: its text serves as
// the record's message (see decodeKlog).
func (r *Reader) want(format Format, msg []byte) (bool, *strSlot) {
	if r.opts.Want == nil {
		return true, nil
	}
	if format != FormatKlog && format != FormatJSON || len(msg) > 128 {
		return r.opts.Want(msg), nil
	}
	if e := r.wantMemo.find(msg); e != nil {
		return e.want, e
	}
	v := r.opts.Want(msg)
	if r.wantMemo.n >= wantMemoMax {
		return v, nil
	}
	e := r.wantMemo.add(string(msg))
	e.want = v
	return v, e
}

// strTable is a hash set of short strings (Want's answers, interned
// texts). It is cheaper than a map on every line: its hash takes the
// length and the first and last eight bytes of the text (a map hashes all
// of it), and a lookup is then one comparison with the entry found, most
// times. Entries are never removed.
type strTable struct {
	slots []strSlot // a power of two of them, at most half used
	n     int
	small bool // starts with a few slots, not 256 (a small input's)
}

type strSlot struct {
	s     string
	used  bool
	want  bool // Want's answer for s
	plain bool // s needs no unquoting (plainLen)
	// rescue is what Options.Rescue learnt of the message's fields
	// (rescue.go), 0 until it looked.
	rescue uint8
}

// find returns the entry for b, or nil.
func (t *strTable) find(b []byte) *strSlot {
	if len(t.slots) == 0 {
		return nil
	}
	mask := uint64(len(t.slots) - 1)
	for i := msgHash(b) & mask; ; i = (i + 1) & mask {
		e := &t.slots[i]
		if !e.used {
			return nil
		}
		if e.s == string(b) {
			return e
		}
	}
}

// add enters s, which is not in t yet, and returns its entry.
func (t *strTable) add(s string) *strSlot {
	if 2*(t.n+1) > len(t.slots) {
		old := t.slots
		least := 256
		if t.small {
			least = 8
		}
		t.slots = make([]strSlot, max(least, 2*len(old)))
		t.n = 0
		for _, e := range old {
			if e.used {
				*t.add(e.s) = e
			}
		}
	}
	mask := uint64(len(t.slots) - 1)
	i := msgHash([]byte(s)) & mask
	for t.slots[i].used {
		i = (i + 1) & mask
	}
	t.n++
	e := &t.slots[i]
	*e = strSlot{s: s, used: true, plain: plainLen(s) == len(s)}
	return e
}

// msgHash mixes the length and the first and last eight bytes of b.
func msgHash(b []byte) uint64 {
	var h uint64
	if n := len(b); n >= 8 {
		h = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 29)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	h ^= uint64(len(b)) << 56
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>29
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
		data, cut := p.data(), false
		if n := len(data); n > 0 && (data[n-1] == '.' || data[n-1] == 0xa6) {
			// ("..." ends some printf messages: only a structured
			// record is cut there.)
			if e := ellipsis(data); e > 0 && (p.format == FormatKlog || data[n-1] == 0xa6) {
				data, cut = data[:n-e], true
			}
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
