package parser

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Holes and blank runs. A log rotated with copytruncate while the kubelet
// kept writing starts with a hole: the kubelet's next write lands at its
// old offset, and what lies before it reads as NULs, megabytes or
// gigabytes of them. Pasted and padded logs hold runs of blank lines.
// Neither holds anything to parse, and the line machine (consume) spent
// some 80 ns on each blank line (12 MB/s of newlines) and gathered a hole
// into the line after it, which a hole longer than MaxLineBytes swallowed.
// At the start of a line the reader passes over them here instead, eight
// bytes a step: NULs are dropped (they belong to no line: the line after
// them starts, and is placed, after them) and blank lines are counted, as
// consume would count them, in bulk.

// skipRun passes over the NULs and blank lines at the start of b, which
// starts a line, and returns how many bytes it passed: NULs, and whole
// blank lines ("\n", "\r\n", with NULs before them), counted in Lines and
// Blank. It stops at a line with text, at a blank line that is not merely
// blank in the reader's state (see blankIsPlain), and before a "\r" it
// cannot see the end of.
func (r *Reader) skipRun(b []byte) int {
	i := 0
	defer func() {
		// NULs that end what b holds, after its last line: a line of
		// their own if the input ends there (see nulTail).
		r.nulTail = i > 0 && b[i-1] == 0
	}()
	for i < len(b) {
		i += zeros(b[i:])
		if i == len(b) || !r.blankIsPlain() || oneByOne {
			return i
		}
		var n int
		switch {
		case b[i] == '\n':
			n = newlines(b[i:])
			r.countBlank(n)
		case b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n':
			r.countBlank(1)
			n = 2
		default:
			return i
		}
		// (The NULs before a blank line are its bytes, counted in
		// Bytes with the rest of the run.)
		i += n
	}
	return i
}

// endNulLine counts, where the input ends, the last line if it was only
// NULs and had no newline: a line, as every line is, and blank.
func (r *Reader) endNulLine() {
	if r.nulTail {
		r.nulTail = false
		r.countBlank(1)
	}
}

// oneByOne, for tests, leaves every blank line to the line machine.
var oneByOne bool

// blankIsPlain reports whether a blank line would be counted as one and
// change nothing else: not inside a klog `key=<` value, whose blank lines
// are its own, nor a JSON export (whose values may hold them), nor a
// pasted events table or the block systemctl status prints (which a blank
// line ends). (Any line state under which consume gives a blank line
// another meaning must be named here.)
func (r *Reader) blankIsPlain() bool {
	return !(r.cur.active && r.cur.multiline) && r.exp == nil && !r.paste.status && (r.evt == nil || !r.evt.on)
}

// countBlank counts n blank lines.
func (r *Reader) countBlank(n int) {
	r.lineNo += int64(n)
	r.stats.Lines += int64(n)
	r.stats.Blank += int64(n)
}

// skipHoles is skipRun for the sequential reader, at the start of a line:
// it passes over the NULs and blank lines in what the buffer holds and
// reads on while the buffer holds nothing else, so that a hole of any size
// costs no line buffer. It accounts the bytes it passes (offset, Bytes).
// It returns true when the input ended, or failed, during a hole: then
// Next ends as it does at the end of the input.
func (r *Reader) skipHoles() bool {
	for {
		k := r.skipRun(r.win)
		r.win, r.winUsed = r.win[k:], r.winUsed+k
		r.offset += int64(k)
		r.stats.Bytes += int64(k)
		if len(r.win) > 0 {
			r.nulTail = false // the NULs are the next line's
			return false      // a line with text, or one consume reads
		}
		// What br held is passed over: read on, if more of the run follows.
		if r.winUsed > 0 {
			r.br.Discard(r.winUsed)
		}
		r.win, r.winUsed = nil, 0
		if r.peekIdle && r.br.Buffered() == 0 {
			// The idle a Peek took, now that what it held is read.
			r.peekIdle, r.idle = false, true
			return true
		}
		next, err := r.br.Peek(1)
		if len(next) == 0 && errors.Is(err, ErrIdle) {
			r.idle = true // (Next ends the record under way and says so)
			return true
		}
		if len(next) == 0 {
			// (Peek takes the error from br: Next ends with it as
			// readLine would have.)
			r.done = true
			r.endNulLine()
			if !errors.Is(err, io.EOF) {
				r.readErr = &ParseError{Input: r.opts.Name, Line: r.lineNo + 1, Offset: r.offset, Err: err}
			}
			return true
		}
		if c := next[0]; c != 0 && c != '\n' && c != '\r' {
			return false
		}
		// (skipRun passes at least a NUL or a blank line of it, or leaves
		// it to readLine.)
		r.win, _ = r.br.Peek(r.br.Buffered())
	}
}

// zeros returns the number of NULs b starts with.
func zeros(b []byte) int { return runOf(b, 0, &zeroBlock) }

// newlines returns the number of newlines b starts with.
func newlines(b []byte) int { return runOf(b, '\n', &nlBlock) }

// zeroBlock and nlBlock are blocks of NULs and of newlines, which runs are
// compared with a block at a time (bytes.Equal compares many bytes a step).
var zeroBlock, nlBlock = [512]byte{}, func() (b [512]byte) {
	for i := range b {
		b[i] = '\n'
	}
	return b
}()

// runOf returns the number of bytes c that b starts with; block is a block
// of them.
func runOf(b []byte, c byte, block *[512]byte) int {
	i := 0
	for i+len(block) <= len(b) && bytes.Equal(b[i:i+len(block)], block[:]) {
		i += len(block)
	}
	w := uint64(c) * 0x0101010101010101
	for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:]) == w {
		i += 8
	}
	for i < len(b) && b[i] == c {
		i++
	}
	return i
}

// NoLineBytes is how far an input that may go on forever (a device, a
// pipe, a file grown since it was opened) is read with nothing in it but
// NULs and blank space before it is abandoned with a *NoLineError: a line
// of a log is never that far from the next.
//
// A line without end is not abandoned: its first MaxLineBytes are kept,
// its rest is skipped as it arrives (a *LineTooLongError counts it) in
// the reader's fixed buffer, and reading goes on after its newline, as in
// a file, however long it is. An input that never ends its last line
// (yes x | tr -d '\n') is thus read until it ends, in bounded memory, as
// cat would read it.
const NoLineBytes = 64 << 20

// ErrNoLine is what a *NoLineError is.
var ErrNoLine = errors.New("no line")

// NoLineError reports an input abandoned because it held nothing but NULs
// and blank space for NoLineBytes (/dev/zero, a file that is being filled
// with zeros).
type NoLineError struct {
	At  int64 // bytes of the (decompressed) input read
	Run int64 // bytes of NULs and blank space before At
}

func (e *NoLineError) Error() string {
	return fmt.Sprintf("no line in %s, only NULs and blank space: abandoned as an endless stream (a device, or a file filled with zeros while it is read?)",
		byteSize(NoLineBytes))
}

func (e *NoLineError) Is(target error) bool { return target == ErrNoLine }

// lineGuard passes an input through and abandons it, with a
// *NoLineError, once it has held nothing but NULs and blank space for
// NoLineBytes, unless within says that what was read so far lies within
// the file as it was when opened: a hole of a file on disk ends where the
// file did (a copytruncate hole may be gigabytes long), a device or a pipe
// may never end. (A long line is the reader's to skip: see NoLineBytes.)
type lineGuard struct {
	r      io.Reader
	within func() bool // nil: the input may go on forever
	at     int64       // bytes read
	run    int64       // bytes of NULs and blank space up to at
	err    error
}

func (g *lineGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	if n > 0 {
		g.at += int64(n)
		if i := lastText(p[:n]); i >= 0 {
			g.run = int64(n - 1 - i)
		} else {
			g.run += int64(n)
		}
		if g.run >= NoLineBytes && (g.within == nil || !g.within()) {
			g.err = &NoLineError{At: g.at, Run: g.run}
			return n, g.err
		}
	}
	return n, err
}

// lastText returns the index of the last byte of b that is neither a NUL
// nor blank space, or -1.
func lastText(b []byte) int {
	const nl8 = 0x0a0a0a0a0a0a0a0a
	i := len(b)
	for i >= len(zeroBlock) && (bytes.Equal(b[i-len(zeroBlock):i], zeroBlock[:]) || bytes.Equal(b[i-len(nlBlock):i], nlBlock[:])) {
		i -= len(zeroBlock)
	}
	for i >= 8 {
		w := binary.LittleEndian.Uint64(b[i-8:])
		if w != 0 && w != nl8 {
			break
		}
		i -= 8
	}
	for i > 0 {
		switch b[i-1] {
		case 0, '\t', '\n', '\v', '\f', '\r', ' ':
			i--
			continue
		}
		return i - 1
	}
	return -1
}
