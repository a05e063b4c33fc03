package parser

import (
	"errors"
	"fmt"
	"io"
)

// MaxRatio bounds how many bytes of text a compressed input may give per
// byte of it, measured as it streams. Real logs compress 10-30 times
// (kubelet text, gzip or zstd -19 alike; the bench logs 9 and 16 times),
// gzip itself cannot pass some 1,030 times, but zstd can reach 30,000
// (a 0.9 MB file took 151 s to read): past MaxRatio the input is a
// decompression bomb, not a log, and is read no further.
const MaxRatio = 1000

// ratioSlack is how far the text may run ahead of MaxRatio times the
// compressed bytes behind it, and the most a stretch of it read below the
// ratio earns for a later one above: the start of a stream, and the
// decompressor's read-ahead, are not held against it, and a bomb after a
// long good stretch is caught as soon as one at the start.
const ratioSlack = 4 << 20

// ErrRatio is what a *RatioError is.
var ErrRatio = errors.New("decompression ratio exceeded")

// RatioError reports a compressed input abandoned because its text grew
// more than MaxRatio times the compressed bytes it came from.
type RatioError struct {
	What string // gzip, zstd
	At   int64  // compressed bytes read
	Text int64  // bytes of text read
}

func (e *RatioError) Error() string {
	return fmt.Sprintf("%s stream expands more than %d times (%s of text from its first %s): read no further, as a decompression bomb",
		e.What, MaxRatio, sizeOf(e.Text), sizeOf(e.At))
}

func (e *RatioError) Is(target error) bool { return target == ErrRatio }

// sizeOf is n bytes in words (1.5 MiB).
func sizeOf(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// countReader counts the bytes read from r.
type countReader struct {
	r io.Reader
	n int64
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// ratioGuard passes a decompressor's text through and stops it with a
// *RatioError once it runs ratioSlack past MaxRatio times the compressed
// bytes consumed (a token bucket: each compressed byte earns MaxRatio
// bytes of text, up to ratioSlack banked). Reads of NULs alone are not
// counted: a log rotated with copytruncate starts with a hole of zeros,
// which compresses past any ratio and which the reader skips at memory
// speed.
type ratioGuard struct {
	r        io.Reader
	what     string
	consumed func() int64 // compressed bytes the decompressor has taken
	seen     int64        // consumed at the last read
	credit   int64        // bytes of text the stream may still give
	text     int64
	err      error
}

func newRatioGuard(r io.Reader, what string, consumed func() int64) *ratioGuard {
	return &ratioGuard{r: r, what: what, consumed: consumed, credit: ratioSlack}
}

func (g *ratioGuard) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.r.Read(p)
	if n > 0 {
		g.text += int64(n)
		if in := g.consumed(); in > g.seen {
			g.credit = min(g.credit+(in-g.seen)*MaxRatio, ratioSlack+(in-g.seen)*MaxRatio)
			g.seen = in
		}
		if zeros(p[:n]) < n {
			g.credit -= int64(n)
		}
		if g.credit < 0 {
			g.err = &RatioError{What: g.what, At: g.seen, Text: g.text}
			return n, g.err
		}
	}
	return n, err
}
