package parser

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"slices"
	"sync"
)

// Large inputs are parsed in parallel, inside Reader: a dispatcher
// goroutine reads the stream (decompressing it) in chunks cut just before
// a line that begins a record, workers run the sequential line machine
// (consume/flush) over whole chunks, and Next hands out their records in
// input order. Positions, line numbers and Stats are those of the
// sequential path, because a chunk is parsed exactly as the sequential
// Reader would parse it when it starts from the same state:
//
//   - A chunk starts at a bare record header (no journald, paste or grep
//     prefix). Such a line starts a new record in every state, so the
//     record before it ends with the chunk before: no record spans chunks.
//   - The state a line's parsing depends on (the klog year clock, the
//     paste and grep modes) rarely changes. A worker assumes the state
//     known when it starts; Next checks the assumption against the real
//     state at the chunk's start and parses the chunk again, in order,
//     when it was wrong (say at a December→January rollover).
//   - Inputs without such split points within parallelMaxLine bytes
//     (journald captures, pasted logs, huge lines) go on sequentially
//     from where the chunks stopped.
//
// Want is then called from several goroutines at once.

const (
	// parallelChunk is the bytes per chunk. The chunks queued and in
	// flight, with their records, are live heap the whole run: 256 KiB
	// chunks keep 15-20 MB less of it than 1 MiB on the 1 GiB log, and
	// parse as fast (BenchmarkParseGenerated).
	parallelChunk   = 256 << 10
	parallelMaxLine = 4 << 20 // no split point within this many bytes: go on sequentially
	// ParallelMinBytes is the input size from which MultiReader parses a
	// source on all cores.
	ParallelMinBytes = 8 << 20
)

// unknownLines stands for the lines before a chunk other than the first:
// far from 1 (a byte-order mark is looked for on line 1 only), and from
// the int64 limit.
const unknownLines = 1 << 50

// lineState is the part of a Reader's state that carries from one line
// to the next.
type lineState struct {
	clock    clock
	quoted   bool
	grep     bool
	grepName []byte
	cur      pending
	paste    pasteState
}

// pasteState is what a Reader learnt of the decorations of an input's
// lines, beyond the quote and grep modes.
type pasteState struct {
	grepSpace bool // grep's line numbers are followed by a space
	// deco are the paste decorations the input's log lines showed, and
	// indentN and indentTab their indentation, for the continuation lines.
	deco      deco
	indentN   int
	indentTab bool
	// status: the lines are in the block `systemctl status` prints under
	// its header.
	status bool
	// kubelets are the processes found to be kubelets by their lines.
	kubelets kubeletIdents
}

// compatible reports whether parsing from state a gives the same result as
// parsing from state b: the clock's year and month-rollover inputs and the
// paste modes agree, and no record is open.
func (a *lineState) compatible(b *lineState) bool {
	ca, cb := &a.clock, &b.clock
	return !a.cur.active && !b.cur.active &&
		ca.year == cb.year && ca.anchored == cb.anchored && ca.yearFixed == cb.yearFixed &&
		monthClass(ca.lastMonth) == monthClass(cb.lastMonth) &&
		a.quoted == b.quoted && a.grep == b.grep && bytes.Equal(a.grepName, b.grepName) && a.paste == b.paste
}

// monthClass: the clock only asks whether the last month is unset (0) or
// December (12).
func monthClass(m int) int {
	switch m {
	case 0, 12:
		return m
	}
	return 1
}

func (r *Reader) saveState() lineState {
	s := lineState{clock: r.clock, quoted: r.quoted, grep: r.grep, grepName: bytes.Clone(r.grepName), cur: r.cur, paste: r.paste}
	s.cur.buf, s.cur.ref = bytes.Clone(r.cur.data()), nil
	return s
}

func (r *Reader) loadState(s *lineState) {
	r.clock, r.quoted, r.grep, r.paste = s.clock, s.quoted, s.grep, s.paste
	r.grepName = append(r.grepName[:0], s.grepName...)
	buf := append(r.cur.buf[:0], s.cur.buf...)
	r.cur = s.cur
	r.cur.buf = buf
}

// chunk is a run of whole lines of the input and, once parsed, its records.
type chunk struct {
	data   []byte
	offset int64 // of data[0] in the (decompressed) stream
	// lineNo is the number of lines before data for the first chunk of a
	// stream; for the others, which the dispatcher does not count the
	// lines of, a stand-in far from the real one (unknownLines), and
	// Next moves their records' line numbers by the difference.
	lineNo int64
	cut    bool // the line after data begins a record (false at EOF or a forced cut)

	// rest, on the last chunk of a stream that goes on sequentially, is
	// the remaining input.
	rest io.Reader
	// err ends the stream after this chunk (a read error).
	err error

	assumed lineState
	end     lineState
	recs    []Record
	spans   [][2]int // Fields of recs[i] are fields[spans[i][0]:spans[i][1]]
	fields  []Field
	stats   Stats
	done    chan struct{}
	// text is where the strings of recs are made (Options.Borrow: the
	// chunk's own, reused with it).
	text textArena
}

// parallel is the machinery behind a Reader that parses on many cores.
type parallel struct {
	order chan *chunk // chunks in input order, as dispatched
	work  chan *chunk
	quit  chan struct{}
	once  sync.Once

	mu    sync.Mutex
	state lineState // the state as of the last chunk handed out, for new chunks to assume

	size int // chunk size
	cur  *chunk
	next int
	// Free lists (not sync.Pools, which every GC empties) of chunks whose
	// records were handed out and of their data buffers.
	bufs       chan []byte
	chunks     chan *chunk
	dispatched chan struct{}
}

// workersFor says how many goroutines MultiReader gives a source.
func workersFor(o Options, src Source) int {
	switch {
	case src.IsStdin() || o.Workers == 1:
		return 1
	case o.Workers > 1:
		return o.Workers
	case src.Size >= ParallelMinBytes:
		return runtime.GOMAXPROCS(0)
	}
	return 1
}

// startParallel starts the dispatcher and the workers. It returns false,
// and leaves the input to the sequential reader, when the input is written
// newest first.
func (r *Reader) startParallel() bool {
	n, src := r.parN, r.src
	size := r.opts.ChunkBytes
	if size <= 0 {
		size = parallelChunk
	}
	first := make([]byte, 0, max(size+size/16, prescanBytes))
	first, err := readFull(src, first, prescanBytes)
	r.stats.Zone = r.inferZone(first[:min(len(first), prescanBytes)])
	r.cutW = cutWidth(first[:min(len(first), prescanBytes)])
	if newestFirst(first[:min(len(first), prescanBytes)]) {
		r.parN = 0
		if err != nil && !errors.Is(err, io.EOF) {
			r.br.Reset(io.MultiReader(bytes.NewReader(first), &errReader{err}))
		} else {
			r.br.Reset(io.MultiReader(bytes.NewReader(first), src))
		}
		return false
	}
	p := &parallel{
		size:       size,
		order:      make(chan *chunk, 2*n+2),
		work:       make(chan *chunk, 2*n+2),
		quit:       make(chan struct{}),
		dispatched: make(chan struct{}),
	}
	r.par = p
	p.bufs = make(chan []byte, cap(p.order)+4)
	p.chunks = make(chan *chunk, cap(p.order)+4)
	if r.opts.Year == 0 && !r.opts.NoPrescan {
		if t, ok := r.findAnchor(first[:min(len(first), prescanBytes)]); ok {
			r.clock.anchor(t)
		}
	}
	r.scanned = true
	p.state = r.saveState()
	for i := 0; i < n; i++ {
		w := r.worker()
		go func() {
			for c := range p.work {
				w.runChunk(c, &c.assumed)
				close(c.done)
			}
		}()
	}
	go p.dispatch(src, first, err, r.offset, r.lineNo)
	return true
}

// errReader returns its error.
type errReader struct{ err error }

func (e *errReader) Read([]byte) (int, error) { return 0, e.err }

// worker returns a Reader that parses chunks for r.
func (r *Reader) worker() *Reader {
	w := &Reader{opts: r.opts, clock: r.clock, slow: r.slow & slowTest, cutW: r.cutW, sysLoc: r.sysLoc}
	w.scratch.text = &w.text
	w.scratch.setQuoted(r.opts.Quoted)
	return w
}

// readFull appends to buf from src until it holds at least n bytes, src
// ends or fails.
func readFull(src io.Reader, buf []byte, n int) ([]byte, error) {
	for len(buf) < n {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		k, err := src.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+k]
		if err != nil {
			return buf, err
		}
	}
	return buf, nil
}

// splitPoint returns the index in b of the last line start, with a whole
// line before the final newline, that begins a record whatever the state;
// -1 when there is none.
func splitPoint(b []byte) int {
	end := bytes.LastIndexByte(b, '\n')
	for end > 0 {
		start := bytes.LastIndexByte(b[:end], '\n') + 1
		line := b[start:end]
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		if bareLogLine(line) {
			if f, _, _ := classify(line); f != FormatUnknown {
				return start
			}
		}
		end = start - 1
	}
	return -1
}

// dispatch reads src into chunks and queues them for the workers and, in
// order, for Next.
func (p *parallel) dispatch(src io.Reader, buf []byte, err error, offset, lineNo int64) {
	defer close(p.dispatched)
	defer close(p.work)
	defer close(p.order)
	start := offset
	newChunk := func(data []byte) *chunk {
		var c *chunk
		select {
		case c = <-p.chunks:
		default:
			c = &chunk{}
		}
		c.data, c.offset, c.lineNo, c.cut, c.rest, c.err = data, offset, lineNo, false, nil, nil
		return c
	}
	send := func(c *chunk) bool {
		p.mu.Lock()
		c.assumed = p.state
		p.mu.Unlock()
		if offset > start {
			// The month of the line before the chunk is, but for a month
			// boundary, that of its first line.
			if h, ok := parseKlogHeader(c.data[:max(bytes.IndexByte(c.data, '\n'), 0)]); ok {
				c.assumed.clock.lastMonth = h.month
			}
		}
		c.done = make(chan struct{})
		// Account before sending: once sent, the chunk may be parsed,
		// handed out and recycled.
		offset += int64(len(c.data))
		lineNo = unknownLines
		select {
		case p.order <- c:
		case <-p.quit:
			return false
		}
		select {
		case p.work <- c:
		case <-p.quit:
			return false
		}
		return true
	}
	for {
		if err == nil && len(buf) < p.size {
			buf, err = readFull(src, buf, p.size)
		}
		if err != nil {
			c := newChunk(buf)
			if !errors.Is(err, io.EOF) {
				c.err = err
			}
			send(c)
			return
		}
		cut := splitPoint(buf)
		if cut <= 0 {
			if len(buf) >= parallelMaxLine {
				// No split point in sight: the rest is read sequentially.
				c := newChunk(buf)
				c.rest = src
				send(c)
				return
			}
			// A long record: read on until another line ends.
			for err == nil && len(buf) < parallelMaxLine {
				prev := len(buf)
				buf, err = readFull(src, buf, len(buf)+p.size)
				if bytes.IndexByte(buf[prev:], '\n') >= 0 {
					break
				}
			}
			continue
		}
		var nb []byte
		select {
		case nb = <-p.bufs:
		default:
			nb = make([]byte, 0, p.size+p.size/16)
		}
		nb = append(nb[:0], buf[cut:]...)
		c := newChunk(buf[:cut])
		c.cut = true
		if !send(c) {
			return
		}
		buf = nb
	}
}

// runChunk parses the lines of c from state st, as Next would.
func (r *Reader) runChunk(c *chunk, st *lineState) {
	r.loadState(st)
	r.stats = Stats{ByFormat: map[string]int64{}}
	r.unread = unreadCount{}
	r.secTimes = secTimes{}
	r.byFormat = [len(formatNames)]int64{}
	r.lineNo, r.offset = c.lineNo, c.offset
	r.cmd = describeCmd{} // (line numbers start again at a stand-in)
	c.recs, c.spans, c.fields = c.recs[:0], c.spans[:0], c.fields[:0]
	if r.opts.Borrow {
		// The records the chunk held before were handed out and done
		// with: their strings are made again from the start.
		r.text = c.text
		r.text.reset()
	}
	// Records are made in the chunk's, past those before (see add).
	r.out = c.slot()
	r.stable = r.slow&slowTest == 0
	data := c.data
	if c.rest != nil {
		// Only the whole lines: the partial last line is read on by the
		// sequential reader.
		data = data[:bytes.LastIndexByte(data, '\n')+1]
	}
	for len(data) > 0 {
		if data[0] <= '\r' { // NULs and blank lines, in bulk (holes.go)
			k := r.skipRun(data)
			data = data[k:]
			r.offset += int64(k)
			r.stats.Bytes += int64(k)
			if len(data) == 0 {
				if c.rest == nil {
					r.endNulLine() // the input's last line, only NULs
				}
				break
			}
		}
		line := data
		consumed := len(data)
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			line, consumed = data[:nl], nl+1
		}
		data = data[consumed:]
		r.win = data // what the reader holds past the line (aheadTime, pastedHost)
		phys := len(line)
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		start := r.offset
		r.offset += int64(consumed)
		r.stats.Bytes += int64(consumed)
		r.lineNo++
		r.stats.Lines++
		if rec := r.take(line, phys, start); rec != nil {
			r.out = c.add(rec)
		}
		if r.more {
			r.drain(c)
		}
	}
	r.win = nil
	if r.exp != nil {
		// (The next line begins a record, which would end the export,
		// or is read by the sequential reader: it reads the rest of a
		// value cut here as a paste that began inside it.)
		r.endExport(true)
		r.drain(c)
	}
	if r.cur.active && (c.cut || c.rest == nil) {
		// The next line begins a record, or the input ends: the open
		// record is complete.
		if rec := r.flush(); rec != nil {
			c.add(rec)
		}
	}
	r.out = nil // (c is handed out)
	for i, s := range c.spans {
		c.recs[i].Fields = c.fields[s[0]:s[1]:s[1]]
	}
	c.stats = r.Stats()
	c.end = r.saveState()
	if r.opts.Borrow {
		c.text = r.text
	}
}

// drain makes the records of an export the line just read completed,
// and reads again the line that ended it, keeping the records in c.
func (r *Reader) drain(c *chunk) {
	for {
		rec, ok := r.drainOne()
		if !ok {
			return
		}
		if rec != nil {
			r.out = c.add(rec)
		}
	}
}

// add keeps the record r.flush returned and returns where the next one
// is to be made (slot).
//
// The record was made where it is kept, after the chunk's records, and its
// fields after theirs, unless they outgrew c.fields: then they are copied
// in. (A copy of each record and its fields cost more than making it.)
func (c *chunk) add(rec *Record) *Record {
	a := len(c.fields)
	if n := len(rec.Fields); n > 0 {
		if a < cap(c.fields) && &c.fields[:a+1][a] == &rec.Fields[0] {
			c.fields = c.fields[:a+n]
		} else {
			c.fields = append(c.fields, rec.Fields...)
		}
	}
	c.spans = append(c.spans, [2]int{a, len(c.fields)})
	if n := len(c.recs); n < cap(c.recs) && &c.recs[:n+1][n] == rec {
		c.recs = c.recs[:n+1]
	} else {
		c.recs = append(c.recs, *rec)
	}
	return c.slot()
}

// slot returns the record just past the chunk's, its Fields room just
// past the chunk's, for a worker to make the next record in.
func (c *chunk) slot() *Record {
	if len(c.recs) == cap(c.recs) {
		c.recs = slices.Grow(c.recs, 1)
	}
	s := &c.recs[:len(c.recs)+1][len(c.recs)]
	s.Fields = c.fields[len(c.fields):]
	return s
}

// nextParallel is Next for a parallel reader.
func (r *Reader) nextParallel() (*Record, error) {
	p := r.par
	for {
		if c := p.cur; c != nil {
			if p.next < len(c.recs) {
				p.next++
				return &c.recs[p.next-1], nil
			}
			p.cur = nil
			switch {
			case c.err != nil:
				r.stopParallel()
				r.done = true
				line := r.lineNo + 1
				if partialLine(c.data) {
					line-- // the error cut the last line short: it is the one named
				}
				return nil, &ParseError{Input: r.opts.Name, Line: line, Offset: r.offset, Err: c.err}
			case c.rest != nil:
				// Go on sequentially after the last whole line.
				tail := c.data[bytes.LastIndexByte(c.data, '\n')+1:]
				r.br.Reset(io.MultiReader(bytes.NewReader(tail), c.rest))
				r.win, r.winUsed = nil, 0
				r.stopParallel()
				return r.Next()
			}
			// Records handed out are valid until the next call only: the
			// chunk and its buffer can serve again.
			select {
			case p.bufs <- c.data[:0]:
			default:
			}
			c.data = nil
			select {
			case p.chunks <- c:
			default:
			}
		}
		c, ok := <-p.order
		if !ok {
			r.stopParallel()
			r.done = true
			return r.Next()
		}
		<-c.done
		actual := r.saveState()
		if !actual.compatible(&c.assumed) {
			// The worker assumed another state: parse again from the
			// real one, in order.
			w := r.worker()
			w.runChunk(c, &actual)
		}
		d := r.lineNo - c.lineNo
		if d != 0 {
			for i := range c.recs {
				c.recs[i].Pos.Line += d
			}
			for i := range c.stats.Unread {
				c.stats.Unread[i].First += d
			}
		}
		r.loadState(&c.end)
		r.cur.line += d // (a record left open for the sequential reader)
		r.settle()
		r.stats.Add(c.stats)
		r.lineNo += c.stats.Lines
		r.offset = c.offset + c.stats.Bytes
		p.cur, p.next = c, 0
		p.mu.Lock()
		p.state = c.end
		p.state.cur = pending{}
		p.mu.Unlock()
	}
}

// partialLine reports whether b ends without a newline.
func partialLine(b []byte) bool { return len(b) > 0 && b[len(b)-1] != '\n' }

// stopParallel stops the dispatcher and the workers and waits for the
// dispatcher, which reads the input, to return.
func (r *Reader) stopParallel() {
	p := r.par
	if p == nil {
		return
	}
	r.par = nil
	p.once.Do(func() { close(p.quit) })
	<-p.dispatched
}

// Close stops the goroutines of a Reader that parses in parallel (after
// an early stop); it does not close the underlying io.Reader. A Reader
// that reached the end needs no Close.
func (r *Reader) Close() error {
	r.stopParallel()
	return nil
}
