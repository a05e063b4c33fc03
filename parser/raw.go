package parser

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// RawReader reads back the raw lines of many records of one source, asked
// for in the order a reader returned them. A plain file is read where
// each record lies, a stream (standard input) from what it kept, so that a few records
// of a large file cost a few reads; a compressed file is decompressed
// once, forward (a position behind the last one read costs a pass from
// the start). ReadRaw is a RawReader for one record.
type RawReader struct {
	src  Source
	open bool
	at   io.ReaderAt   // plain file; nil when compressed or a stream
	file *os.File      // the plain file, to close
	rc   io.ReadCloser // the compressed file's decompressed text
	br   *bufio.Reader // on rc
	pos  int64         // rc's offset in the text
	buf  []byte
	err  error
}

// NewRawReader returns a RawReader of src. It opens src on the first Read.
func NewRawReader(src Source) *RawReader { return &RawReader{src: src} }

// Read returns the raw lines at pos, as ReadRaw does; they are valid until
// the next call.
func (r *RawReader) Read(pos Position) ([]byte, error) {
	if pos.Offset < 0 || pos.Length < 0 {
		return nil, fmt.Errorf("%s: bad position %d+%d", r.src.Name, pos.Offset, pos.Length)
	}
	if !r.open {
		r.open = true
		r.err = r.start()
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.src.stdin != nil {
		if pos.Input == "" {
			pos.Input = r.src.Name
		}
		var err error
		r.buf, err = r.src.stdin.readKept(r.buf, pos)
		return r.buf, err
	}
	r.buf = slices.Grow(r.buf[:0], int(pos.Length))[:pos.Length]
	if r.at != nil {
		n, err := r.at.ReadAt(r.buf, pos.Offset)
		if n == len(r.buf) {
			return r.buf, nil
		}
		if err == nil || errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%s: read back byte %d: %w", r.src.Name, pos.Offset, err)
	}
	if pos.Offset < r.pos {
		// Behind: decompress again from the start.
		r.rc.Close()
		if r.err = r.start(); r.err != nil {
			return nil, r.err
		}
		r.pos = 0
	}
	if _, err := r.br.Discard(int(min(pos.Offset-r.pos, 1<<62))); err != nil {
		r.err = fmt.Errorf("%s: skip to byte %d: %w", r.src.Name, pos.Offset, err)
		return nil, r.err
	}
	n, err := io.ReadFull(r.br, r.buf)
	r.pos = pos.Offset + int64(n)
	if err != nil {
		r.err = fmt.Errorf("%s: read back byte %d: %w", r.src.Name, pos.Offset, err)
		return nil, r.err
	}
	return r.buf, nil
}

// start opens the source: for reading at offsets when its text is the
// file's bytes, else for decompressing forward.
func (r *RawReader) start() error {
	if r.src.stdin != nil {
		return nil // (Read reads what the stream kept)
	}
	f, err := os.Open(r.src.Path)
	if err != nil {
		return pathError(r.src.Name, err)
	}
	var magic [4]byte
	n, _ := f.ReadAt(magic[:], 0)
	if !compressedMagic(magic[:n]) {
		r.at, r.file = f, f
		return nil
	}
	rc, err := decompress(f, r.src.Name)
	if err != nil {
		f.Close()
		return err
	}
	r.rc, r.br = rc, bufio.NewReaderSize(rc, 256<<10)
	return nil
}

// Close closes the file Read opened.
func (r *RawReader) Close() error {
	switch {
	case r.file != nil:
		return r.file.Close()
	case r.rc != nil:
		return r.rc.Close()
	}
	return nil
}

// compressedMagic reports whether a file that starts with magic is gzip
// or zstd, as decompress tells them.
func compressedMagic(magic []byte) bool {
	return len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b ||
		len(magic) == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd
}

// ReadRaws reads back the raw lines of the records at positions, each in
// the source of its Input, in the order of their places in the sources
// (with a RawReader each), so that a compressed source is decompressed
// once for all of them and not from its start for each. raws[i] and
// errs[i] answer positions[i]; raws[i] is a copy.
func ReadRaws(srcs []Source, positions []Position) (raws [][]byte, errs []error) {
	raws, errs = make([][]byte, len(positions)), make([]error, len(positions))
	byName := make(map[string]int, len(srcs))
	for k := len(srcs) - 1; k >= 0; k-- {
		byName[srcs[k].Name] = k
	}
	src := make([]int, len(positions))
	order := make([]int, len(positions))
	for i, p := range positions {
		order[i] = i
		k, ok := byName[p.Input]
		if !ok {
			k = -1
			errs[i] = fmt.Errorf("%s: not among the inputs", p.Input)
		}
		src[i] = k
	}
	slices.SortStableFunc(order, func(i, j int) int {
		return cmp.Or(cmp.Compare(src[i], src[j]), cmp.Compare(positions[i].Offset, positions[j].Offset))
	})
	// One source at a time (they come in order): one file open, whatever
	// the number of inputs.
	var r *RawReader
	at := -1
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	for _, i := range order {
		k := src[i]
		if k < 0 {
			continue
		}
		if k != at {
			if r != nil {
				r.Close()
			}
			r, at = NewRawReader(srcs[k]), k
		}
		raw, err := r.Read(positions[i])
		raws[i], errs[i] = bytes.Clone(raw), err
	}
	return raws, errs
}
