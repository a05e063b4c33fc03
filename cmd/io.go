package cmd

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"time"

	"golang.org/x/term"
)

// IO is everything a command may touch outside itself: the streams, whether
// they are terminals, colour, width, the environment and the clock. Tests
// build one with NewTestIO.
type IO struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	InTTY, OutTTY, ErrTTY bool
	Width                 int // terminal width of Out; 0 when unknown

	Getenv func(string) string
	Now    func() time.Time
}

// SystemIO wires IO to the process's streams and environment.
func SystemIO() *IO {
	w := 0
	outTTY := term.IsTerminal(int(os.Stdout.Fd()))
	if outTTY {
		if cw, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
			w = cw
		}
	}
	if w == 0 {
		if c, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && c > 0 {
			w = c
		}
	}
	return &IO{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		InTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY: outTTY,
		ErrTTY: term.IsTerminal(int(os.Stderr.Fd())),
		Width:  w,
		Getenv: os.Getenv,
		Now:    time.Now,
	}
}

// NewTestIO returns an IO over buffers; tty says whether Out and ErrOut
// pretend to be terminals. The clock is fixed.
func NewTestIO(tty bool) (ioS *IO, in *bytes.Buffer, out *bytes.Buffer, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	env := map[string]string{}
	return &IO{
		In: in, Out: out, ErrOut: errOut,
		OutTTY: tty, ErrTTY: tty,
		Width:  120,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
	}, in, out, errOut
}

// ColorEnabled decides colour from --color (auto|always|never), NO_COLOR and
// whether Out is a terminal.
func (s *IO) ColorEnabled(mode string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if s.Getenv("NO_COLOR") != "" || s.Getenv("TERM") == "dumb" {
		return false
	}
	return s.OutTTY
}
