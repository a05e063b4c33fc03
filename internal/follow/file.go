// Package follow reads logs as they grow, as tail -F does, for the views
// that follow them (tui -f, get pods -w, lines pod -f): a file is read on
// from where a first pass stopped, a rotated or copy-truncated file is
// read from its new start, and the parser is told when the writer has
// nothing more for now (parser.ErrIdle) so that the last line written is
// seen at once, not when the next one comes. The present of a followed
// log is its last line's time moved on by the wall clock (Clock).
package follow

import (
	"errors"
	"io"
	"os"
	"sync"
	"time"

	"github.com/podflow/podflow/parser"
)

// DefaultPoll is how often a file at its end is looked at again: what is
// appended shows well within a second.
const DefaultPoll = 200 * time.Millisecond

// File reads a growing file as tail -F does: at its end it waits for more
// (looking again every poll) until stop is closed, then ends (io.EOF). A
// line the writer has not finished is read on when the rest arrives. At
// its end, after a whole line, it says parser.ErrIdle once (then waits):
// the parser ends the record under way. When the file at path is another
// one (rotated: renamed and created again) or shorter than what was read
// (copy-truncated), it ends (io.EOF) with Restart saying which; after
// Restart it reads the new content from its start.
type File struct {
	path    string
	poll    time.Duration
	stop    <-chan struct{}
	mu      sync.Mutex
	f       *os.File
	prev    *os.File // the file before a rotation, until Restart: its last record is read back from it
	off     int64    // bytes read of f
	last    byte     // the last byte given ('\n' at a line's end)
	idle    bool     // ErrIdle was said since the last byte given
	restart string
}

// Open opens path to read it on from off (where a first pass stopped).
// was is the file the first pass read (nil: not known): when path is
// another file by now, the log was rotated in between, and the File
// starts by saying so (Restart: "rotated") and reads the new file from its
// start, as it does for a rotation it sees.
func Open(path string, off int64, was os.FileInfo, poll time.Duration, stop <-chan struct{}) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if poll <= 0 {
		poll = DefaultPoll
	}
	if was != nil {
		if now, err := f.Stat(); err == nil && !os.SameFile(now, was) {
			return &File{path: path, poll: poll, stop: stop, f: f, last: '\n', restart: "rotated"}, nil
		}
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &File{path: path, poll: poll, stop: stop, f: f, off: off, last: '\n'}, nil
}

// Close closes the file.
func (t *File) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.prev != nil {
		t.prev.Close()
	}
	return t.f.Close()
}

// ReadAt reads the text of a record at off (Position.Offset, in the
// content the parser reads now: after a restart, the new content's) into
// p. Before Restart is taken, the records still coming are the old
// file's, which a rotation keeps open until then.
func (t *File) ReadAt(p []byte, off int64) (int, error) {
	t.mu.Lock()
	f := t.f
	if t.restart != "" && t.prev != nil {
		f = t.prev
	}
	t.mu.Unlock()
	return f.ReadAt(p, off)
}

// Restart says whether (and why: "rotated", "truncated") the reader
// ended because the file started over, and lets it read the new content.
func (t *File) Restart() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.restart
	t.restart = ""
	if t.prev != nil {
		t.prev.Close()
		t.prev = nil
	}
	return r
}

func (t *File) Read(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.restart != "" {
		return 0, io.EOF // a parser reading on after its end
	}
	for {
		n, err := t.f.Read(p)
		if n > 0 {
			t.off += int64(n)
			t.last, t.idle = p[n-1], false
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if what := t.moved(); what != "" {
			t.restart, t.off, t.last, t.idle = what, 0, '\n', false
			return 0, io.EOF
		}
		if !t.idle && t.last == '\n' {
			t.idle = true
			return 0, parser.ErrIdle
		}
		t.mu.Unlock()
		select {
		case <-t.stop:
			t.mu.Lock()
			return 0, io.EOF
		case <-time.After(t.poll):
		}
		t.mu.Lock()
	}
}

// moved reopens the file when it was rotated and goes back to its start
// when it was truncated; it says which ("" when neither).
func (t *File) moved() string {
	st, err := os.Stat(t.path)
	if err != nil {
		return "" // between the rename and the new file: wait
	}
	cur, err := t.f.Stat()
	if err != nil {
		return ""
	}
	if !os.SameFile(st, cur) {
		nf, err := os.Open(t.path)
		if err != nil {
			return ""
		}
		t.prev, t.f = t.f, nf
		return "rotated"
	}
	if st.Size() < t.off {
		if _, err := t.f.Seek(0, io.SeekStart); err != nil {
			return ""
		}
		return "truncated"
	}
	return ""
}
