package parser

import (
	"io"
	"sync"
	"time"
)

// streamGrace is how long a stream read with Options.StreamIdle may be
// quiet, after a whole line, before it says ErrIdle: a writer that passes
// a record on in more than one write (a pipe through ssh or kubectl logs
// splits where its buffers end) has this long to send the rest, and a
// line still shows well within a second of being written.
const streamGrace = 100 * time.Millisecond

// idleReader reads a stream (standard input, a live node's log) on a
// goroutine, so that it can tell when the stream has nothing more for now:
// a Read that finds nothing waiting, at the end of a line, waits
// streamGrace and then says ErrIdle, as a followed file does at its end
// (internal/follow). Without it a pipe written to slowly shows a record
// only when the next one begins (the reader cannot know a record has no
// continuation lines before that), and nothing at all until the first
// 64 KiB the year pre-scan looks at have come.
//
// While the input is being opened (opening: its compression and text
// sniffed by bufio Peeks, each of which takes an error once) ErrIdle is
// said to every Read that finds nothing; after that once per quiet spell
// (until a byte comes), so a reader at the stream's end blocks. A
// compressed stream is never idle: a decompressor keeps a read error.
type idleReader struct {
	ch      chan idleChunk
	free    chan []byte
	stop    chan struct{}
	once    sync.Once
	cur     []byte // what is left of the chunk being read
	buf     []byte // the buffer cur lies in, given back when read
	err     error  // the stream's error, after cur
	last    byte   // the last byte given ('\n': at the end of a line)
	started bool   // a byte was given
	said    bool   // ErrIdle was said since the last byte given
	opening bool
	packed  bool // compressed
}

type idleChunk struct {
	b   []byte
	err error
}

func newIdleReader(r io.Reader) *idleReader {
	ir := &idleReader{ch: make(chan idleChunk), free: make(chan []byte, 2), stop: make(chan struct{}), last: '\n', opening: true}
	for range 2 {
		ir.free <- make([]byte, 64<<10)
	}
	go ir.pump(r)
	return ir
}

// pump reads the stream into the free buffers until it ends or the
// reader is closed. (A goroutine blocked in the stream's Read stays so
// until the stream gives something: standard input cannot be woken.)
func (ir *idleReader) pump(r io.Reader) {
	for {
		var buf []byte
		select {
		case buf = <-ir.free:
		case <-ir.stop:
			return
		}
		n, err := r.Read(buf)
		if n == 0 && err == nil {
			ir.free <- buf
			continue
		}
		select {
		case ir.ch <- idleChunk{b: buf[:n], err: err}:
		case <-ir.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// opened ends the opening: from now on ErrIdle is said once per quiet
// spell.
func (ir *idleReader) opened() { ir.opening, ir.said = false, false }

func (ir *idleReader) Read(p []byte) (int, error) {
	if len(ir.cur) == 0 && ir.err == nil {
		var c idleChunk
		select {
		case c = <-ir.ch:
		default:
			if ir.started && !ir.said && !ir.packed && ir.last == '\n' {
				t := time.NewTimer(streamGrace)
				select {
				case c = <-ir.ch:
					t.Stop()
				case <-t.C:
					ir.said = !ir.opening
					return 0, ErrIdle
				case <-ir.stop:
					t.Stop()
					return 0, io.EOF
				}
			} else {
				select {
				case c = <-ir.ch:
				case <-ir.stop:
					return 0, io.EOF
				}
			}
		}
		ir.take(c)
	}
	if len(ir.cur) == 0 {
		return 0, ir.err
	}
	n := copy(p, ir.cur)
	if !ir.started {
		ir.started = true
		ir.packed = compressedMagic(ir.cur[:min(4, len(ir.cur))])
	}
	ir.cur = ir.cur[n:]
	ir.last, ir.said = p[n-1], false
	return n, nil
}

// take makes c the chunk being read, and gives the buffer of the one
// before back to pump.
func (ir *idleReader) take(c idleChunk) {
	if ir.buf != nil {
		ir.free <- ir.buf[:cap(ir.buf)]
	}
	ir.buf, ir.cur, ir.err = c.b, c.b, c.err
}

// Close stops the pump (not the stream: standard input is not ours).
func (ir *idleReader) Close() error {
	ir.once.Do(func() { close(ir.stop) })
	return nil
}
