package parser

import (
	"container/heap"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"time"
)

// MultiReader reads several sources at once and returns their records
// merged in time order (a k-way heap merge; ties keep source order). Each
// source gets its own Reader with the shared Options, its own name, node,
// component and modification time. As with Reader, a record is valid until
// the next call to Next.
//
// Inputs overlap: a rotated kubelet.log.1 and kubelet.log share a span,
// the same file is given twice, or once plain and once compressed. A
// record equal to one another source already returned (same time, node,
// component, severity, PID, call site, message and fields) is dropped and
// counted in that source's SourceStats.Duplicates, so the engine sees each
// line once. Records of one source are never dropped: a line repeated
// within a file is the kubelet's.
type MultiReader struct {
	opts    Options
	srcs    []*mergeSource
	h       mergeHeap
	started bool
	last    *mergeSource // the source of the record returned last
	// waiting are the streams that said ErrIdle (Options.StreamIdle), to
	// be read on at the next call.
	waiting  []*mergeSource
	errs     []error
	dedupe   dedupe
	byName   map[string]int // source index by name, for ReadRaw
	raw      []byte         // Raw's
	returned int64          // records returned (Returned)
	// live counts the sources open, peakLive the most at once.
	live, peakLive int
}

type mergeSource struct {
	src  Source
	idx  int
	rc   io.ReadCloser
	rd   *Reader
	rec  *Record
	key  time.Time // rec.Time, or the last time seen when a record has none
	err  error
	open bool
	// parked: s was closed after its first record was read (peek), which
	// key places; rd is nil until it is opened again.
	parked bool

	dups int64 // records dropped as duplicates of another source's
	back clockSteps
	// stats is rd's accounting once s ended: rd and rc are dropped then,
	// so a merge of many inputs holds no reader (buffers, tables) of an
	// input read to its end.
	stats *Stats
}

// SourceStats is the accounting of one source.
type SourceStats struct {
	Source Source
	// Stats count the source's lines. Records are those the merge
	// returned; Filtered includes the Duplicates.
	Stats Stats
	Err   error // the error that ended or prevented reading it, if any
	// Duplicates are records dropped because another source had already
	// returned the same record (overlapping inputs).
	Duplicates int64
	// Backwards are the records whose time lies more than
	// BackwardsTolerance before a record earlier in the source (clock
	// steps, a DST change in local-time journald output, logs of other
	// runs appended out of order). They are merged by their own times.
	Backwards int64
}

// NewMultiReader returns a MultiReader over srcs. Sources are opened on
// the first call to Next.
func NewMultiReader(srcs []Source, opts Options) *MultiReader {
	m := &MultiReader{opts: opts}
	for i, s := range srcs {
		m.srcs = append(m.srcs, &mergeSource{src: s, idx: i})
	}
	return m
}

// Sources returns the sources in the order given.
func (m *MultiReader) Sources() []Source {
	out := make([]Source, len(m.srcs))
	for i, s := range m.srcs {
		out[i] = s.src
	}
	return out
}

// LiveSources is how many sources a MultiReader reads from the start. It
// reads the first record of each source beyond them, to know where in the
// merge it falls, and closes it again until the merge comes to that record:
// a merge of rotated logs, or of many nodes' logs of different spans,
// holds a reader (its buffers, its file descriptor) only for the sources
// whose spans overlap the merge's present, not for all of them at once.
// (The descriptors of the sources it holds are bounded too: see fdPool.)
const LiveSources = 64

func (m *MultiReader) start() {
	m.started = true
	for i, s := range m.srcs {
		if len(m.srcs) > LiveSources && i >= LiveSources && !s.src.IsStdin() { // (stdin opens once)
			m.peek(s)
			continue
		}
		if m.openSource(s, false) {
			m.advance(s)
		}
	}
}

// openSource opens s and makes its Reader (sequential, for peek);
// it reports whether it could.
func (m *MultiReader) openSource(s *mergeSource, peek bool) bool {
	var rc io.ReadCloser
	var err error
	if s.src.stdin != nil {
		rc, err = s.src.stdin.openIdle(m.opts.StreamIdle)
	} else {
		rc, err = s.src.Open()
	}
	if err != nil {
		s.err = err
		m.errs = append(m.errs, err)
		return false
	}
	if s.src.stdin != nil && (m.opts.KeepStream || s.src.stdin.every) {
		s.src.stdin.holdRing(rc)
	}
	s.rc, s.open = rc, true
	m.live++
	m.peakLive = max(m.peakLive, m.live)
	o := m.opts
	o.Name = s.src.Name
	if !s.src.ModTime.IsZero() {
		o.ModTime = s.src.ModTime
	}
	if s.src.Node != "" {
		o.Node = s.src.Node
	}
	if s.src.Component != "" {
		o.Component = s.src.Component
	}
	o.Workers = workersFor(o, s.src)
	if peek {
		o.Workers = 1
	}
	o.bufBytes = readBufBytes(rc)
	s.rd = NewReader(rc, o)
	return true
}

// peek reads the first record of s, closes s again and puts it on the
// heap where that record falls in the merge, parked: the merge opens it
// again when it comes to it. (Its reader is made again then: the record
// is the same, and the first of the records are read twice, for the sake
// of holding nothing meanwhile.) A source that ends before a record is
// done with here.
func (m *MultiReader) peek(s *mergeSource) {
	if !m.openSource(s, true) {
		return
	}
	rec, err := s.rd.Next()
	if err != nil {
		m.end(s, err)
		return
	}
	if !rec.Time.IsZero() {
		s.key = rec.Time
	}
	m.close(s)
	s.rd, s.rc, s.parked = nil, nil, true
	m.h.push(s)
}

// advance reads the next record of s and puts s back on the heap, or
// closes it at its end.
func (m *MultiReader) advance(s *mergeSource) {
	rec, err := s.rd.Next()
	if errors.Is(err, ErrIdle) {
		m.waiting = append(m.waiting, s) // (off the heap until it goes on)
		return
	}
	if err != nil {
		m.end(s, err)
		return
	}
	s.rec = rec
	if !rec.Time.IsZero() {
		s.key = rec.Time
		s.back.see(rec)
	}
	m.h.push(s)
}

// end closes s, at its end or after the error err.
func (m *MultiReader) end(s *mergeSource, err error) {
	if !errors.Is(err, io.EOF) {
		s.err = err
		m.errs = append(m.errs, err)
	}
	st := s.rd.Stats()
	if st.Truncated > 0 {
		m.errs = append(m.errs, &LineTooLongError{Input: s.src.Name, Lines: st.Truncated, Max: s.rd.opts.MaxLineBytes})
	}
	s.rec = nil
	m.close(s)
	s.stats, s.rd, s.rc = &st, nil, nil
}

func (m *MultiReader) close(s *mergeSource) {
	if s.open {
		s.open = false
		m.live--
		s.rd.Close() // stops its goroutines before the input is closed
		if err := s.rc.Close(); err != nil && s.err == nil {
			s.err = fmt.Errorf("%s: close: %w", s.src.Name, err)
			m.errs = append(m.errs, s.err)
		}
	}
}

// Next returns the earliest pending record of all sources, or io.EOF when
// every source is exhausted. Errors of single sources (unreadable file,
// truncated gzip) do not stop the merge: see Errors. With
// Options.StreamIdle it returns ErrIdle when a stream is quiet; the next
// call reads on.
func (m *MultiReader) Next() (*Record, error) {
	if !m.started {
		m.start()
	}
	if w := m.waiting; len(w) > 0 {
		// Streams that were quiet: read them on (this waits for them).
		m.waiting = nil
		for _, s := range w {
			m.advance(s)
		}
	}
	if m.last != nil {
		s := m.last
		m.last = nil
		m.advance(s)
	}
	if len(m.waiting) > 0 {
		// A stream is quiet (Options.StreamIdle): what came is out, and
		// the merge cannot go on past it before it goes on.
		return nil, ErrIdle
	}
	for m.h.Len() > 0 {
		s := m.h.pop()
		if s.parked {
			// The merge has come to its first record: read it again.
			s.parked = false
			if m.openSource(s, false) {
				m.advance(s)
			}
			continue
		}
		if len(m.srcs) > 1 && m.dedupe.seen(s.rec, s.idx) {
			s.dups++
			m.advance(s)
			continue
		}
		m.last = s
		m.returned++
		if in := s.src.stdin; in != nil && in.every {
			in.keep(s.rec.Pos, s.rec.Time, nil, m.returned)
		}
		return s.rec, nil
	}
	return nil, io.EOF
}

// Close closes any source still open (after an early stop).
func (m *MultiReader) Close() error {
	for _, s := range m.srcs {
		m.close(s)
	}
	return nil
}

// Errors returns the non-fatal per-source errors so far: sources that
// could not be opened or are not text logs (a *NotTextError), read errors
// (a *ParseError naming the input, line and byte offset) after which the
// records read before were kept, and lines cut at Options.MaxLineBytes (a
// *LineTooLongError).
func (m *MultiReader) Errors() []error { return append([]error(nil), m.errs...) }

// Notices returns what is worth telling about inputs that were read in
// full: records dropped as duplicates of another input's, and time going
// backwards within an input. Each is a *Notice; none means data was lost.
func (m *MultiReader) Notices() []error {
	var out []error
	for _, s := range m.srcs {
		if s.dups > 0 {
			out = append(out, &Notice{Input: s.src.Name, Kind: NoticeDuplicates, Count: s.dups,
				Detail: dupDetail(s.dups)})
		}
		if b := &s.back; b.steps > 0 {
			out = append(out, &Notice{Input: s.src.Name, Kind: NoticeBackwards, Count: b.behind,
				Detail: fmt.Sprintf("time goes backwards %s, first at line %d (%s -> %s, %s back); %s merged by their own times",
					plural(b.steps, "time"), b.firstLine, b.from.Format(time.RFC3339Nano), b.to.Format(time.RFC3339Nano),
					b.from.Sub(b.to), plural(b.behind, "record"))})
		}
	}
	return out
}

// Stats returns the accounting summed over all sources.
func (m *MultiReader) Stats() Stats {
	t := Stats{ByFormat: map[string]int64{}}
	for _, s := range m.SourceStats() {
		t.Add(s.Stats)
	}
	return t
}

// SourceStats returns the accounting of each source, in the order given.
func (m *MultiReader) SourceStats() []SourceStats {
	out := make([]SourceStats, len(m.srcs))
	for i, s := range m.srcs {
		out[i] = SourceStats{Source: s.src, Err: s.err, Duplicates: s.dups, Backwards: s.back.behind}
		if s.rd != nil || s.stats != nil {
			if s.stats != nil {
				out[i].Stats = *s.stats
				out[i].Stats.ByFormat = maps.Clone(s.stats.ByFormat)
				out[i].Stats.Unread = slices.Clone(s.stats.Unread)
			} else {
				out[i].Stats = s.rd.Stats()
			}
			// Dropped duplicates were not returned: count them with the
			// records the caller did not want, so every line stays in
			// exactly one bucket.
			out[i].Stats.Records -= s.dups
			out[i].Stats.Filtered += s.dups
		} else {
			out[i].Stats = Stats{ByFormat: map[string]int64{}}
		}
	}
	return out
}

// BytesRead returns how many bytes of the sources have been read so far
// (Stats().Bytes, without the rest of the accounting).
func (m *MultiReader) BytesRead() int64 {
	var n int64
	for _, s := range m.srcs {
		switch {
		case s.stats != nil:
			n += s.stats.Bytes
		case s.rd != nil:
			n += s.rd.stats.Bytes
		}
	}
	return n
}

// Duplicates returns the records dropped as duplicates, over all sources.
func (m *MultiReader) Duplicates() int64 {
	var n int64
	for _, s := range m.srcs {
		n += s.dups
	}
	return n
}

// ReadRaw reads back the raw lines of a record returned by this reader.
func (m *MultiReader) ReadRaw(pos Position) ([]byte, error) {
	if m.byName == nil {
		m.byName = make(map[string]int, len(m.srcs))
		for i := len(m.srcs) - 1; i >= 0; i-- {
			m.byName[m.srcs[i].src.Name] = i
		}
	}
	if i, ok := m.byName[pos.Input]; ok {
		return ReadRaw(m.srcs[i].src, pos)
	}
	return nil, fmt.Errorf("%s: not an input of this reader", pos.Input)
}

type mergeHeap []*mergeSource

// push and pop are heap.Push and heap.Pop, but that a heap of one source
// (a single input: every record) is no heap to keep, and its record is
// taken and put back without the calls through heap.Interface.
func (h *mergeHeap) push(s *mergeSource) {
	if len(*h) == 0 {
		*h = append(*h, s)
		return
	}
	heap.Push(h, s)
}

func (h *mergeHeap) pop() *mergeSource {
	if len(*h) == 1 {
		s := (*h)[0]
		(*h)[0] = nil
		*h = (*h)[:0]
		return s
	}
	return heap.Pop(h).(*mergeSource)
}

func (h mergeHeap) Len() int { return len(h) }
func (h mergeHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if !a.key.Equal(b.key) {
		return a.key.Before(b.key)
	}
	return a.idx < b.idx
}
func (h mergeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *mergeHeap) Push(x any)   { *h = append(*h, x.(*mergeSource)) }
func (h *mergeHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	old[n-1] = nil
	*h = old[:n-1]
	return x
}

// dupDetail says how many records repeated another input's, in words.
func dupDetail(n int64) string {
	if n == 1 {
		return "1 record repeats one of another input (overlapping or repeated inputs), counted once"
	}
	return plural(n, "record") + " repeat those of another input (overlapping or repeated inputs), counted once"
}
