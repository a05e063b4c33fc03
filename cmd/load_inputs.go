package cmd

// The inputs around an analysis: each named one checked before anything
// is read, and the problems met told once per kind.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/parser"
)

// checkPaths opens every named input once, before anything is read, so
// that a missing or unreadable one is reported in words a person can act
// on; it returns the paths that can be read and an error for each of the
// others.
func (s *IO) checkPaths(paths []string) (ok []string, bad []error) {
	open := s.Open
	if open == nil {
		open = func(name string) (io.Closer, error) { return os.Open(name) }
	}
	for _, p := range paths {
		if p == "-" {
			ok = append(ok, p)
			continue
		}
		if err := parser.LinkError(p); err != nil {
			bad = append(bad, err)
			continue
		}
		f, err := open(p)
		switch {
		case err == nil:
			f.Close()
			ok = append(ok, p)
		case errors.Is(err, fs.ErrNotExist):
			bad = append(bad, fmt.Errorf("%s: no such file or directory; check the path, or give a directory of logs, or - to read standard input", p))
		case errors.Is(err, fs.ErrPermission):
			bad = append(bad, fmt.Errorf("%s: permission denied; run podflow as a user who can read it (kubelet logs are often root's: sudo), or copy the log somewhere readable", p))
		default:
			bad = append(bad, fmt.Errorf("%s: cannot open: %w", p, errors.Unwrap(err)))
		}
	}
	return ok, bad
}

// emptyDirs reports each directory among paths in which discovery found
// no log: without it, such a directory would vanish silently when another
// input has logs.
func emptyDirs(paths []string, srcs []parser.Source) []error {
	var errs []error
	for _, p := range paths {
		fi, err := os.Stat(p)
		if p == "-" || err != nil || !fi.IsDir() {
			continue
		}
		dir := filepath.Clean(p) + string(filepath.Separator)
		found := false
		for _, s := range srcs {
			if name := filepath.Clean(s.Path); strings.HasPrefix(name, dir) || filepath.Clean(p) == "." && !filepath.IsAbs(name) {
				found = true
				break
			}
		}
		if !found {
			errs = append(errs, fmt.Errorf("%s: no kubelet or container-runtime logs found in this directory; name the log files, or a directory holding kubelet.log, journal exports or a kind/Cluster API/must-gather dump", p))
		}
	}
	return errs
}

func inputName(s parser.Source) string {
	if s.IsStdin() && s.Name == "-" {
		return "standard input"
	}
	return s.Name
}

// summariseAt is how many warnings or notes of one kind, each about
// another input, become one line (--verbose lists them all).
const summariseAt = 3

// inputProblem is a warning podflow itself makes about one input, of a
// kind that many inputs may share (a folder of empty files).
type inputProblem struct {
	input, kind, detail string
}

func (e *inputProblem) Error() string { return e.input + ": " + e.detail }

// problemKind is how warn groups err with others: its kind and the
// one-line summary of n of them (records: the records they concern); ""
// for an error told on its own.
func problemKind(err error) (kind string, summary func(n int, records int64) string) {
	var nt *parser.Notice
	var ip *inputProblem
	var long *parser.LineTooLongError
	switch {
	case errors.As(err, &nt) && nt.Kind == parser.NoticeDuplicates:
		return "dup", func(n int, r int64) string {
			return fmt.Sprintf("%d inputs repeat records of another input (%d records), counted once", n, r)
		}
	case errors.As(err, &nt) && nt.Kind == parser.NoticeBackwards:
		return "back", func(n int, r int64) string {
			return fmt.Sprintf("%d inputs go back in time (a clock step or inputs out of order); %d records merged by their own times", n, r)
		}
	case errors.As(err, &ip) && ip.kind == "empty":
		return "empty", func(n int, _ int64) string { return fmt.Sprintf("%d inputs are empty; nothing to analyse in them", n) }
	case errors.As(err, &ip) && ip.kind == "notlog":
		return "notlog", func(n int, _ int64) string {
			return fmt.Sprintf("%d inputs are not kubelet or container-runtime logs (no line recognised); see what podflow reads with 'podflow parse --stats'", n)
		}
	case errors.As(err, &long):
		return "long", func(n int, _ int64) string {
			return fmt.Sprintf("%d inputs have lines longer than %s, cut to their first %s", n, humanBytes(int64(long.Max)), humanBytes(int64(long.Max)))
		}
	}
	return "", nil
}

// warn prints input warnings and notes to stderr, one line each, or one
// line for several of a kind (unless --verbose), and marks the run as
// partial (exit 5) when there are warnings.
func (a *Analysis) warn(ioS *IO) {
	ioS.partial = ioS.partial || len(a.Warnings) > 0
	a.tell(ioS, "warning", a.Warnings)
	a.tell(ioS, "note", a.Notes)
}

// tell prints errs under label, those of a kind many share as one line
// where the first of them would be.
func (a *Analysis) tell(ioS *IO, label string, errs []error) {
	type group struct {
		n       int
		records int64
		first   string
		summary func(int, int64) string
		told    bool
	}
	groups := map[string]*group{}
	for _, e := range errs {
		kind, summary := problemKind(e)
		if kind == "" {
			continue
		}
		g := groups[kind]
		if g == nil {
			g = &group{first: e.Error(), summary: summary}
			groups[kind] = g
		}
		g.n++
		var nt *parser.Notice
		if errors.As(e, &nt) {
			g.records += nt.Count
		}
	}
	for _, e := range errs {
		msg := e.Error()
		if kind, _ := problemKind(e); kind != "" && !a.verbose && groups[kind].n >= summariseAt {
			g := groups[kind]
			if g.told {
				continue
			}
			first, _, _ := strings.Cut(g.first, ": ")
			msg = g.summary(g.n, g.records) + " (the first " + first + "; --verbose lists them)"
			g.told = true
		}
		fmt.Fprintf(ioS.ErrOut, "podflow: %s: %s\n", label, sanitize.OneLine(a.redact.Text(msg)))
	}
}
