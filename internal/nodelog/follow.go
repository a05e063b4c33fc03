package nodelog

import (
	"bufio"
	"context"
	"errors"
	"hash/maphash"
	"io"
	"time"
)

// Open reads q's log of node once: the reader ends where the node's
// answer does. Refusals come back here, before anything is read.
func (c *Client) Open(ctx context.Context, node string, q Query) (io.ReadCloser, bool, error) {
	r, err := c.Fetch(ctx, node, q)
	if err != nil {
		return nil, false, err
	}
	return r, r.Whole, nil
}

// FollowOptions tune Follow.
type FollowOptions struct {
	// Every is how long to wait between two asks (0: 2s).
	Every time.Duration
	// Overlap is how far before the last answer's Date the next ask
	// starts (0: 3s): journalctl's --since has whole seconds, and the
	// node's clock and the API server's differ a little. Lines asked for
	// twice are passed on once.
	Overlap time.Duration
	// Sleep waits d or until ctx ends; nil: a timer. Tests pass their own.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Follow reads q's log of node and then, as the log query has no
// streaming, asks again every so often for what came since the last
// answer, passing on each line once; it ends when ctx does or when it is
// closed. A node that keeps the log in a file is asked for all of it each
// time, and the bytes already passed on are skipped (a shorter file has
// started over: it is passed on from its start). The first answer is
// asked for here, so that a refusal is an error of Follow; a later one
// ends the reader with it.
func (c *Client) Follow(ctx context.Context, node string, q Query, o FollowOptions) (io.ReadCloser, bool, error) {
	if o.Every <= 0 {
		o.Every = 2 * time.Second
	}
	if o.Overlap <= 0 {
		o.Overlap = 3 * time.Second
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	ctx, cancel := context.WithCancel(ctx)
	first, err := c.Fetch(ctx, node, q)
	if err != nil {
		cancel()
		return nil, false, err
	}
	f := &follower{c: c, ctx: ctx, cancel: cancel, node: node, q: q, o: o, seen: newRecent(1 << 16)}
	f.take(first)
	return f, first.Whole, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type follower struct {
	c      *Client
	ctx    context.Context
	cancel context.CancelFunc
	node   string
	q      Query
	o      FollowOptions

	cur    *Response
	br     *bufio.Reader
	whole  bool      // the node serves the whole file: skip what was passed on
	passed int64     // bytes of the whole file passed on
	skip   int64     // bytes of the current answer still to skip
	last   time.Time // the last answer's Date
	seen   *recent   // lines passed on lately (journal answers overlap)
	line   []byte    // the line being passed on
	err    error
}

func (f *follower) take(r *Response) {
	f.cur, f.whole = r, r.Whole
	f.br = bufio.NewReaderSize(r, 64<<10)
	if !r.Date.IsZero() {
		f.last = r.Date
	} else {
		f.last = time.Now()
	}
	if f.whole {
		f.skip = f.passed
	}
}

func (f *follower) Read(p []byte) (int, error) {
	for len(f.line) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.next()
	}
	n := copy(p, f.line)
	f.line = f.line[n:]
	return n, nil
}

// next sets f.line to the next line to pass on, or f.err.
func (f *follower) next() {
	if f.cur == nil {
		if err := f.o.Sleep(f.ctx, f.o.Every); err != nil {
			f.err = io.EOF
			return
		}
		q := f.q
		if !f.whole {
			q.Since = f.last.Add(-f.o.Overlap)
			q.TailLines = 0
		}
		r, err := f.c.Fetch(f.ctx, f.node, q)
		if err != nil {
			if f.ctx.Err() != nil {
				f.err = io.EOF
			} else {
				f.err = err
			}
			return
		}
		f.take(r)
		return
	}
	if f.whole && f.skip > 0 {
		n, err := io.CopyN(io.Discard, f.br, f.skip)
		f.skip -= n
		if err != nil {
			// Shorter than what was passed on: the file started over.
			f.endAnswer()
			f.passed, f.skip = 0, 0
		}
		return
	}
	line, err := f.br.ReadBytes('\n')
	if len(line) > 0 && (err == nil || errors.Is(err, io.EOF)) {
		if f.whole {
			if err == nil {
				f.passed += int64(len(line))
				f.line = line
			}
			// A last line without its newline is still being written:
			// the next ask passes it on whole.
		} else if line[len(line)-1] == '\n' && f.seen.add(line) {
			f.line = line
		}
	}
	if err != nil {
		if !errors.Is(err, io.EOF) && f.ctx.Err() == nil {
			f.err = err
		}
		f.endAnswer()
	}
}

func (f *follower) endAnswer() {
	f.cur.Close()
	f.cur, f.br = nil, nil
}

func (f *follower) Close() error {
	f.cancel()
	if f.cur != nil {
		f.cur.Close()
	}
	return nil
}

// recent remembers the hashes of the last n lines passed on.
type recent struct {
	seed maphash.Seed
	ring []uint64
	at   int
	set  map[uint64]int
}

func newRecent(n int) *recent {
	return &recent{seed: maphash.MakeSeed(), ring: make([]uint64, 0, n), set: map[uint64]int{}}
}

// add reports whether line is new, and remembers it.
func (r *recent) add(line []byte) bool {
	h := maphash.Bytes(r.seed, line)
	if r.set[h] > 0 {
		return false
	}
	if len(r.ring) < cap(r.ring) {
		r.ring = append(r.ring, h)
	} else {
		old := r.ring[r.at]
		if r.set[old]--; r.set[old] <= 0 {
			delete(r.set, old)
		}
		r.ring[r.at] = h
		r.at = (r.at + 1) % len(r.ring)
	}
	r.set[h]++
	return true
}
