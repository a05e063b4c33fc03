package parser

import (
	"os"
)

// fileInput is an input file as Source.Open reads it: it knows the size
// the file had when it was opened, and how far it has been read.
type fileInput struct {
	f       *os.File
	regular bool
	size    int64 // when opened
	off     int64 // bytes read
}

// openFile opens path for reading as an input.
func openFile(path string) (*fileInput, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	h := &fileInput{f: f}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		h.regular, h.size = true, fi.Size()
	}
	return h, nil
}

func (h *fileInput) Read(p []byte) (int, error) {
	n, err := h.f.Read(p)
	h.off += int64(n)
	return n, err
}

func (h *fileInput) Close() error { return h.f.Close() }

// within reports whether what was read lies within the file as it was
// when opened (see lineGuard).
func (h *fileInput) within() bool { return h.regular && h.off <= h.size }
