package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
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

	// ConfigDir is where podflow keeps what it keeps for the user (the
	// --redact key); nil means os.UserConfigDir.
	ConfigDir func() (string, error)

	// Open opens a named input to check it can be read before the parser
	// reads it; nil means os.Open. Tests inject failures (permission
	// denied cannot be produced with chmod when tests run as root).
	Open func(name string) (io.Closer, error)

	// partial is set when some inputs could not be read but the others
	// were analysed: Main exits ExitPartial instead of ExitOK.
	partial bool

	// Redact is set by --redact: every output masks what it masks (see
	// internal/redact). nil: nothing is masked.
	Redact *redact.Redactor

	// rawOut and rawErr are Out and ErrOut before protect wrapped them in
	// the terminal layer; only output that must carry control sequences or
	// workflow commands of its own (the TUI, check -o github, the progress
	// line) writes there.
	rawOut, rawErr io.Writer

	// outErr is under every layer of Out: it keeps the first error a
	// write to standard output met, so that a command whose printing
	// path dropped it (a table writer, a deferred Flush) still fails.
	outErr *stickyWriter
}

// stickyWriter passes writes on and keeps the first error; after one, it
// writes nothing more (the stream is broken: a full disk or a closed
// pipe), so that a command's further output costs nothing.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	if err != nil {
		s.err = err
	}
	return n, err
}

// OutputErr is the first error met writing standard output, or nil.
func (s *IO) OutputErr() error {
	if s.outErr == nil {
		return nil
	}
	return s.outErr.err
}

// palette is every escape sequence podflow itself paints with; the
// terminal layer lets these through and nothing else.
var palette = []string{ansiReset, ansiRed, ansiGreen, ansiYellow, ansiGrey, ansiBold}

// protect puts the terminal layer (internal/sanitize.Terminal) under Out
// and ErrOut, once: whatever a command prints then carries no escape
// sequence but podflow's colours, no control or hidden character and no
// GitHub workflow command, even where a log-derived value was not cleaned.
func (s *IO) protect() {
	if s.rawOut != nil {
		return
	}
	// RawOut stays the stream itself: the TUI needs the terminal's file
	// to size and drive the screen, and what writes there checks its
	// own errors.
	s.rawOut, s.rawErr = s.Out, s.ErrOut
	s.outErr = &stickyWriter{w: s.Out}
	s.Out = sanitize.Terminal(s.outErr, palette...)
	s.ErrOut = sanitize.Terminal(s.ErrOut, palette...)
}

// RawOut is Out without the terminal layer.
func (s *IO) RawOut() io.Writer {
	if s.rawOut != nil {
		return s.rawOut
	}
	return s.Out
}

// RawErrOut is ErrOut without the terminal layer.
func (s *IO) RawErrOut() io.Writer {
	if s.rawErr != nil {
		return s.rawErr
	}
	return s.ErrOut
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
		InTTY:     term.IsTerminal(int(os.Stdin.Fd())),
		OutTTY:    outTTY,
		ErrTTY:    term.IsTerminal(int(os.Stderr.Fd())),
		Width:     w,
		Getenv:    os.Getenv,
		Now:       time.Now,
		ConfigDir: os.UserConfigDir,
	}
}

// NewTestIO returns an IO over buffers; tty says whether Out and ErrOut
// pretend to be terminals. The clock is fixed. The environment holds a
// --redact key (testRedactKey) so that commands mask alike, as a team
// sharing one would; no configuration directory is touched.
func NewTestIO(tty bool) (ioS *IO, in *bytes.Buffer, out *bytes.Buffer, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	env := map[string]string{"PODFLOW_REDACT_KEY": testRedactKey}
	return &IO{
		ConfigDir: func() (string, error) { return "", errors.New("tests keep no configuration") },
		In:        in, Out: out, ErrOut: errOut,
		OutTTY: tty, ErrTTY: tty,
		Width:  120,
		Getenv: func(k string) string { return env[k] },
		Now:    func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) },
	}, in, out, errOut
}

// testRedactKey is the tests' --redact key (NewTestIO).
const testRedactKey = "podflow-tests-shared-key"

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

// maxSideFile bounds what podflow reads of a file that is not a log
// (--config, --baseline, -o jsonpath-file=, custom-columns-file=): such a
// file is small, and one pointed at /dev/zero or a huge log must not
// grow memory without bound.
const maxSideFile = 64 << 20

// readSideFile reads the whole of path, up to maxSideFile bytes.
func readSideFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxSideFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxSideFile {
		return nil, fmt.Errorf("%s: over %d MiB; this is not the file it should be", path, maxSideFile>>20)
	}
	return b, nil
}
