package cmd

// The progress line of a long analysis: on standard error, on a terminal
// only, redrawn in place at most ten times a second and cleared at the
// end.

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress draws how far the reading of the inputs is.
type progress struct {
	w     io.Writer
	total int64 // bytes to read; 0 when unknown (standard input, compressed inputs)
	now   func() time.Time
	start time.Time
	last  time.Time
	drawn bool
	// notBefore is when the line may first show (a small input read
	// from standard input is done before it would).
	notBefore time.Time
}

// progressEvery is how often the line is redrawn at most.
const progressEvery = 100 * time.Millisecond

// poll is update for the bytes read tells, asked only when the line is
// to be redrawn.
func (p *progress) poll(read func() int64) {
	if t := p.now(); t.Before(p.notBefore) || p.drawn && t.Sub(p.last) < progressEvery {
		return
	}
	p.update(read())
}

// update redraws the line for read bytes, unless it was drawn less than
// progressEvery ago.
func (p *progress) update(read int64) {
	t := p.now()
	if t.Before(p.notBefore) || p.drawn && t.Sub(p.last) < progressEvery {
		return
	}
	p.last, p.drawn = t, true
	fmt.Fprintf(p.w, "\r%s\x1b[K", progressLine(read, p.total, t.Sub(p.start)))
}

// done clears the line.
func (p *progress) done() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// progressLine is the progress line after elapsed with read of total
// bytes read: a bar, the percent, the bytes and the time left; with no
// total (standard input, compressed inputs, whose size read is not
// known) the bytes read and the rate.
func progressLine(read, total int64, elapsed time.Duration) string {
	if total <= 0 {
		rate := ""
		if elapsed >= time.Second/10 {
			rate = fmt.Sprintf(" (%s/s)", humanBytes(int64(float64(read)/elapsed.Seconds())))
		}
		return fmt.Sprintf("podflow: reading… %s read%s", humanBytes(read), rate)
	}
	read = min(read, total)
	frac := float64(read) / float64(total)
	const cells = 20
	full := int(frac * cells)
	bar := strings.Repeat("█", full) + strings.Repeat("░", cells-full)
	left := "estimating time left"
	if read > 0 && elapsed >= time.Second/10 {
		eta := time.Duration(float64(elapsed) * float64(total-read) / float64(read))
		left = humanDuration(eta.Round(time.Second)) + " left"
	}
	return fmt.Sprintf("podflow: reading %s %3d%% %s of %s, %s", bar, int(frac*100), humanBytes(read), humanBytes(total), left)
}

// compressed reports whether the file at path starts as gzip or zstd
// does: its size on disk then says nothing of the bytes read from it.
func compressed(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var b [4]byte
	n, _ := io.ReadFull(f, b[:])
	return n >= 2 && b[0] == 0x1f && b[1] == 0x8b || n == 4 && b == [4]byte{0x28, 0xb5, 0x2f, 0xfd}
}
