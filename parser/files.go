package parser

import (
	"container/list"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"syscall"
)

// fileInput is an input file as Source.Open reads it: it knows the file it
// opened, the size it had when opened, and how far it has been read, and
// it watches the file while it is read. A file truncated while it is read
// (copytruncate, an editor saving over it) lost what was past its new
// size: its read ends with a *ChangedError, not a quiet EOF. So does a
// file whose path names another file by the end of the read (rotated by
// renaming, replaced): what was written to the new file is not read.
//
// A regular file holds a descriptor only while the pool of descriptors
// (files) has room: the least recently read one gives its descriptor up
// when another file needs one, and opens the file again, by its path, and
// reads on from its offset when it is read next (a file found to be
// another one then has changed). So a merge of more files than the process
// may open reads them all.
type fileInput struct {
	name, path string      // "" path: standard input
	f          *os.File    // nil while the descriptor is given up
	fi         os.FileInfo // the file opened
	regular    bool
	size       int64         // when opened
	maxSize    int64         // the largest size seen
	off        int64         // bytes read
	err        error         // sticky
	idle       *list.Element // in files.idle while it holds a descriptor and is not read
	closed     bool
}

// openFile opens path for reading as the input name.
func openFile(path, name string) (*fileInput, error) {
	h := &fileInput{name: name, path: path}
	f, err := files.open(path)
	if err != nil {
		return nil, err
	}
	h.f = f
	h.stat()
	if h.regular {
		files.release(h)
	} // (a device or a pipe cannot be opened again where it was: it keeps its descriptor)
	return h, nil
}

// stdinFile is openFile for standard input redirected from f (held
// outside the pool).
func stdinFile(f *os.File) *fileInput {
	h := &fileInput{name: "-", f: f}
	h.stat()
	return h
}

func (h *fileInput) stat() {
	if fi, err := h.f.Stat(); err == nil {
		h.fi = fi
		if fi.Mode().IsRegular() {
			h.regular, h.size, h.maxSize = true, fi.Size(), fi.Size()
		}
	}
}

func (h *fileInput) Read(p []byte) (int, error) {
	if h.err != nil {
		return 0, h.err
	}
	if h.path != "" && h.regular {
		if err := files.acquire(h); err != nil {
			h.err = err
			return 0, err
		}
		defer files.release(h)
	}
	n, err := h.f.Read(p)
	h.off += int64(n)
	if h.regular {
		if cerr := h.check(errors.Is(err, io.EOF)); cerr != nil {
			h.err = cerr
			return n, cerr
		}
	}
	if err != nil && !errors.Is(err, io.EOF) {
		h.err = err
	}
	return n, err
}

// check looks for a change of the file being read: a size smaller than
// one seen before, and at the end of the read, its path naming another
// file. (A stat a read of 64 KiB or more costs next to nothing.)
func (h *fileInput) check(atEOF bool) error {
	fi, err := h.f.Stat()
	if err != nil {
		return nil
	}
	if size := fi.Size(); size < h.maxSize {
		return &ChangedError{What: "truncated", Detail: fmt.Sprintf("%d bytes when seen before, %d now: bytes %d to %d were not read",
			h.maxSize, size, max(size, h.off), h.maxSize)}
	} else {
		h.maxSize = size
	}
	if atEOF && h.path != "" {
		if now, err := os.Stat(h.path); err == nil && !os.SameFile(now, h.fi) {
			return &ChangedError{What: "replaced", Detail: "its path names another file now (rotated, or saved over): what was written to that file is not read"}
		}
	}
	return nil
}

func (h *fileInput) Close() error {
	if h.path == "" {
		return h.f.Close()
	}
	return files.close(h)
}

// files is the pool of descriptors of input files.
var files fdPool

// fdPool bounds the descriptors the input files hold at once to half the
// process's limit (at most 4096; the rest is left to the others: standard
// streams, the spool of standard input, files read back, …).
type fdPool struct {
	mu    sync.Mutex
	limit int       // 0: not known yet (see fdLimit)
	held  int       // descriptors held
	peak  int       // the most held at once
	idle  list.List // *fileInput holding a descriptor, not being read, least recently read first
}

func (p *fdPool) max() int {
	if p.limit == 0 {
		p.limit = min(max(fdLimit()/2, 8), 4096)
	}
	return p.limit
}

// room gives up idle descriptors until one more can be held, or none is
// idle; p.mu is held.
func (p *fdPool) room(need int) {
	for p.held+need > p.max() && p.idle.Len() > 0 {
		p.evict()
	}
}

func (p *fdPool) evict() {
	h := p.idle.Remove(p.idle.Front()).(*fileInput)
	h.idle = nil
	h.f.Close()
	h.f = nil
	p.held--
}

// open opens path, making room for its descriptor: when the process is
// out of descriptors all the same (another part of it holds them), it
// gives up idle ones until the open succeeds or none is left.
func (p *fdPool) open(path string) (*os.File, error) {
	p.mu.Lock()
	p.room(1)
	p.mu.Unlock()
	for {
		f, err := os.Open(path)
		if err == nil {
			p.mu.Lock()
			p.held++
			p.peak = max(p.peak, p.held)
			p.mu.Unlock()
			return f, nil
		}
		if !errors.Is(err, syscall.EMFILE) && !errors.Is(err, syscall.ENFILE) {
			return nil, err
		}
		p.mu.Lock()
		if p.idle.Len() == 0 {
			p.mu.Unlock()
			return nil, err
		}
		p.evict()
		p.mu.Unlock()
	}
}

// acquire makes h hold a descriptor, opening its file again where it was
// given up, and takes it out of the idle list while it is read.
func (p *fdPool) acquire(h *fileInput) error {
	p.mu.Lock()
	if h.f != nil {
		if h.idle != nil {
			p.idle.Remove(h.idle)
			h.idle = nil
		}
		p.mu.Unlock()
		return nil
	}
	closed := h.closed
	p.mu.Unlock()
	if closed {
		return os.ErrClosed
	}
	f, err := p.open(h.path)
	if err != nil {
		return fmt.Errorf("open again to read on: %w", err)
	}
	fi, err := f.Stat()
	if err == nil && !os.SameFile(fi, h.fi) {
		err = &ChangedError{What: "replaced", Detail: fmt.Sprintf("its path names another file when opened again at byte %d (rotated, or saved over): the rest of the file read is lost", h.off)}
	}
	if err == nil {
		_, err = f.Seek(h.off, io.SeekStart)
	}
	if err != nil {
		f.Close()
		p.mu.Lock()
		p.held--
		p.mu.Unlock()
		return err
	}
	h.f = f
	return nil
}

// release puts h, read, at the end of the idle list.
func (p *fdPool) release(h *fileInput) {
	p.mu.Lock()
	if h.f != nil && h.idle == nil && !h.closed {
		h.idle = p.idle.PushBack(h)
	}
	p.mu.Unlock()
}

func (p *fdPool) close(h *fileInput) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	h.closed = true
	if h.idle != nil {
		p.idle.Remove(h.idle)
		h.idle = nil
	}
	if h.f == nil {
		return nil
	}
	err := h.f.Close()
	h.f = nil
	p.held--
	return err
}

// within reports whether what was read lies within the file as it was
// when opened (see lineGuard).
func (h *fileInput) within() bool { return h.regular && h.off <= h.size }

// ErrChanged is what a *ChangedError is.
var ErrChanged = errors.New("input changed while read")

// ChangedError reports an input file that changed while it was read, so
// that the lines read are not all it held.
type ChangedError struct {
	What   string // "truncated", "replaced"
	Detail string
}

func (e *ChangedError) Error() string { return "file " + e.What + " while it was read: " + e.Detail }

func (e *ChangedError) Is(target error) bool { return target == ErrChanged }

// smallBuf is the size of a buffer for reading r: n, or less for a small
// file, whose whole text (and growRoom more, should it grow: more is read
// on a later fill) it holds. A merge of many small files spends no 320
// KiB of buffers on each.
func smallBuf(r io.Reader, n int) int {
	if h, ok := r.(*fileInput); ok && h.regular && h.size < int64(n)-growRoom {
		return int(h.size) + growRoom
	}
	return n
}

const growRoom = 512

// readBufBytes is the size of the line buffer of a Reader of rc, which
// Source.Open returned: a small plain file's whole text, with room to grow,
// else the default. (So the first 64 KiB the reader looks into for the
// year stay the whole file.)
func readBufBytes(rc io.Reader) int {
	sr, ok := rc.(*stackReader)
	if !ok || len(sr.closers) != 1 {
		return 0 // compressed, or standard input
	}
	r, _ := sr.closers[0].(io.Reader)
	if n := smallBuf(r, prescanBytes); n < prescanBytes {
		return n
	}
	return 0
}
