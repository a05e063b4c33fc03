package parser

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"time"
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
	// KeepStream has a MultiReader hold the latest text of each stream it
	// reads (standard input, StreamSource), so that the caller can keep
	// the records it will read back (MultiReader.Keep): a stream is read
	// once, and written nowhere.
	KeepStream bool
	// StreamIdle has a stream (standard input, StreamSource) say ErrIdle,
	// as a followed file does, when it has given every whole line it has
	// and is quiet: the record under way is ended then, and a
	// MultiReader's Next returns ErrIdle (the other inputs' records wait
	// for the stream to go on; see Next). For a caller that follows a
	// stream and shows what came at once (tui -f -, get pods -w -).
	StreamIdle bool
	// Quoted names fields whose klog values, when quoted ASCII text with
	// \" its only escape, the reader keeps as written (KindQuoted)
	// instead of unquoting: for a consumer that reads the escaped text
	// itself, such as the engine's status-patch decoder, or reads it
	// rarely (Value.Text unquotes).
	Quoted []string

	bufBytes int // the line buffer's size (0: 256 KiB); see readBufBytes
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
	// idle: the input said ErrIdle (it has given every line written so
	// far): the record under way is ended and Next returns ErrIdle, once.
	// peekIdle: a Peek took the input's ErrIdle (bufio hands a read error
	// out once): readLine gives it when what br holds is used up.
	idle, peekIdle bool

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
	rescued  idSet       // the identities Rescue met (rescue.go)
	idBuf    []byte      // an identity Rescue composed of two values (rescue.go)
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
	// wrap holds the kubelet line of the last logrus wrapper read, and
	// wrapMd its working copy (wrapped.go).
	wrap, wrapMd []byte
	// wrapLine is the line the last wrapper began its record at: that
	// record takes no continuation lines.
	wrapLine int64
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

// ErrIdle is what an input read as it grows (a followed file, see
// internal/follow) returns from Read when it has given every whole line
// written so far and waits for more. The Reader then ends the record under
// way, which would otherwise wait for the next line to begin (a record
// takes the continuation lines after it), and Next returns ErrIdle once
// the records before it are out; the next call of Next reads on. A writer
// writes a log entry whole (klog with one write), so an entry is not cut
// by this. The input must give ErrIdle only at the end of a line.
var ErrIdle = errors.New("no more input for now")

// Next returns the next record, or io.EOF after the last one. A read error
// (e.g. a truncated gzip stream) is returned as a *ParseError after the
// records read before it. ErrIdle from the input is returned as it is,
// after the records read before it (see ErrIdle).
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
		if r.idle {
			if r.cur.active {
				if rec := r.flush(); rec != nil {
					return rec, nil
				}
				continue
			}
			r.idle = false
			return nil, ErrIdle
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
		if err != nil && errors.Is(err, ErrIdle) { // (errors.Is costs a call on every line)
			r.idle = true
			if line == nil {
				continue
			}
			err = nil // (a line cut by an input that broke ErrIdle's rule)
		}
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
