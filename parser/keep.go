package parser

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"time"
)

// A stream (standard input, a live node's log) is read once, and nothing
// of it goes to disk: what a view reads back by position after the read
// (evidence lines, the lines of a pod) is what it kept as the stream went
// by (MultiReader.Keep), in memory, up to KeepBytes per stream. A view
// keeps the lines it may show (a pod's, a node's), so that the memory
// goes with them, not with the stream.

// KeepBytes bounds the raw lines a stream keeps in memory for reading
// back (MultiReader.Keep); past it, records are not kept, and reading one
// back says so.
const KeepBytes = 64 << 20

// ringBytes is how much of a stream's latest text is held, to copy a
// record's raw lines from when the caller keeps it: the reader's buffer
// (256 KiB) and the line that completes a record past it, many times
// over. A record longer than that is not kept.
const ringBytes = 8 << 20

// ErrNotKept is what reading back a line of a stream that was not kept
// gives.
var ErrNotKept = errors.New("read once, and this line was not kept (name a file to read any of its lines back)")

// streamRing passes a stream's text through and holds its last ringBytes.
type streamRing struct {
	r   io.Reader
	buf []byte
	n   int64 // bytes passed through
}

func (t *streamRing) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	b := p[:n]
	if len(b) > len(t.buf) {
		t.n += int64(len(b) - len(t.buf))
		b = b[len(b)-len(t.buf):]
	}
	for len(b) > 0 {
		c := copy(t.buf[t.n%int64(len(t.buf)):], b)
		b = b[c:]
		t.n += int64(c)
	}
	return n, err
}

// appendRange appends the bytes [off, off+n) of the stream to dst, if the
// ring still holds them.
func (t *streamRing) appendRange(dst []byte, off int64, n int) ([]byte, bool) {
	size := int64(len(t.buf))
	if off < 0 || n < 0 || off < t.n-size || off+int64(n) > t.n {
		return dst, false
	}
	for n > 0 {
		i := off % size
		c := min(int64(n), size-i)
		dst = append(dst, t.buf[i:i+c]...)
		off += c
		n -= int(c)
	}
	return dst, true
}

// keptRecord is the place of a kept record's raw lines in keptLines.arena.
type keptRecord struct {
	pos  Position
	time time.Time
	at   int
	seq  int64 // MultiReader.Returned when it was returned: its place in the merge
}

// keptLines are the raw lines a stream kept, in the order read.
type keptLines struct {
	arena   []byte
	recs    []keptRecord
	dropped int64 // records not kept: past KeepBytes, or longer than the ring
}

// Kept is a record of a stream kept for reading back: its place, time and
// raw lines (as ReadRaw gives them).
//
// (KeptRecords gives them in the order the merge returned them.)
type Kept struct {
	Pos  Position
	Time time.Time
	Raw  []byte
}

// KeptRecords returns the records src kept (MultiReader.Keep), in the
// order read; nil for a file, which is read back where it lies.
func KeptRecords(src Source) []Kept {
	if src.stdin == nil {
		return nil
	}
	s := src.stdin
	s.mu.Lock()
	defer s.mu.Unlock()
	recs := slices.Clone(s.kept.recs)
	// In the merge's order: a newest-first log's is not its bytes'.
	slices.SortStableFunc(recs, func(a, b keptRecord) int { return cmp.Compare(a.seq, b.seq) })
	out := make([]Kept, len(recs))
	for i, k := range recs {
		out[i] = Kept{Pos: k.pos, Time: k.time, Raw: s.kept.arena[k.at : k.at+k.pos.Length : k.at+k.pos.Length]}
		out[i].Pos.Input = src.Name
	}
	return out
}

// NotKept is how many records src was asked to keep and could not
// (KeepBytes reached, or a record longer than what a stream holds).
func NotKept(src Source) int64 {
	if src.stdin == nil {
		return 0
	}
	src.stdin.mu.Lock()
	defer src.stdin.mu.Unlock()
	return src.stdin.kept.dropped
}

// keep copies the raw lines at pos, raw or else what the ring holds, into
// s's kept lines; it reports whether it could.
func (s *stdinInput) keep(pos Position, t time.Time, raw []byte, seq int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := &s.kept
	i := len(k.recs)
	if i > 0 && k.recs[i-1].pos.Offset >= pos.Offset {
		// Kept later than read (a line tied to a pod after it went by).
		i = sort.Search(len(k.recs), func(i int) bool { return k.recs[i].pos.Offset >= pos.Offset })
		if k.recs[i].pos.Offset == pos.Offset {
			return true // kept already
		}
	}
	if len(k.arena)+pos.Length+len(k.recs)*80 > KeepBytes || raw == nil && s.ring == nil || raw != nil && len(raw) != pos.Length {
		k.dropped++
		return false
	}
	at := len(k.arena)
	if raw != nil {
		k.arena = append(k.arena, raw...)
	} else {
		arena, ok := s.ring.appendRange(k.arena, pos.Offset, pos.Length)
		if !ok {
			k.dropped++
			return false
		}
		k.arena = arena
	}
	pos.Input = "" // (the source's name: not kept again with each)
	k.recs = slices.Insert(k.recs, i, keptRecord{pos: pos, time: t, at: at, seq: seq})
	return true
}

// readKept reads back the raw lines at pos from what s kept.
func (s *stdinInput) readKept(dst []byte, pos Position) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	recs := s.kept.recs
	i := sort.Search(len(recs), func(i int) bool { return recs[i].pos.Offset >= pos.Offset })
	if i == len(recs) || recs[i].pos.Offset != pos.Offset || recs[i].pos.Length < pos.Length {
		return nil, fmt.Errorf("%s:%d: %w", pos.Input, pos.Line, ErrNotKept)
	}
	k := recs[i]
	return append(dst[:0], s.kept.arena[k.at:k.at+pos.Length]...), nil
}

// Raw returns the raw lines of rec, the record Next returned last, when it
// comes from a stream read with Options.KeepStream (nil otherwise, or when
// the stream no longer holds them). They are valid until the next call.
func (m *MultiReader) Raw(rec *Record) []byte {
	s := m.last
	if s == nil || s.rec != rec || s.src.stdin == nil || s.src.stdin.ring == nil {
		return nil
	}
	var ok bool
	m.raw, ok = s.src.stdin.ring.appendRange(m.raw[:0], rec.Pos.Offset, rec.Pos.Length)
	if !ok {
		return nil
	}
	return m.raw
}

// Keep keeps the raw lines of rec, the record Next returned last, when it
// comes from a stream read with Options.KeepStream, so that ReadRaw can
// read them back after the stream is gone. It reports whether it kept
// them; a record of a file is always there to be read back.
func (m *MultiReader) Keep(rec *Record) bool {
	s := m.last
	if s == nil || s.rec != rec || s.src.stdin == nil {
		return s != nil && s.src.stdin == nil
	}
	return s.src.stdin.keep(rec.Pos, rec.Time, nil, m.returned)
}

// Returned is how many records Next has returned: the place in the merge
// of the one it returned last.
func (m *MultiReader) Returned() int64 { return m.returned }

// KeepLines keeps raw, the raw lines at pos of a stream of this reader
// of time t, which Raw returned when Returned was seq and the caller held:
// a record found to matter after the stream went past it. It reports
// whether it kept them.
func (m *MultiReader) KeepLines(pos Position, t time.Time, raw []byte, seq int64) bool {
	for _, s := range m.srcs {
		if s.src.Name == pos.Input && s.src.stdin != nil {
			return s.src.stdin.keep(pos, t, raw, seq)
		}
	}
	return false
}

// KeepEvery has every MultiReader that reads a stream among srcs keep each
// record it returns (MultiReader.Keep), KeepBytes of them at most: for a
// reader whose caller reads lines back but keeps nothing itself (the
// TUI's). Files are left as they are.
func KeepEvery(srcs []Source) {
	for _, s := range srcs {
		if s.stdin != nil {
			s.stdin.mu.Lock()
			s.stdin.every = true
			s.stdin.mu.Unlock()
		}
	}
}
