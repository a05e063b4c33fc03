package parser

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// fileInput is an input file as Source.Open reads it: it knows the file it
// opened, the size it had when opened, and how far it has been read, and
// it watches the file while it is read. A file truncated while it is read
// (copytruncate, an editor saving over it) lost what was past its new
// size: its read ends with a *ChangedError, not a quiet EOF. So does a
// file whose path names another file by the end of the read (rotated by
// renaming, replaced): what was written to the new file is not read.
type fileInput struct {
	name, path string // "" path: standard input
	f          *os.File
	fi         os.FileInfo // the file opened
	regular    bool
	size       int64 // when opened
	maxSize    int64 // the largest size seen
	off        int64 // bytes read
	err        error // sticky
}

// openFile opens path for reading as the input name.
func openFile(path, name string) (*fileInput, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	h := &fileInput{name: name, path: path, f: f}
	h.stat()
	return h, nil
}

// stdinFile is openFile for standard input redirected from f.
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

func (h *fileInput) Close() error { return h.f.Close() }

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
