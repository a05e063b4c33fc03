package follow

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/podflow/podflow/parser"
)

// The present of a followed log is its latest line's time moved on by the
// wall clock since that line was read: it moves while the log is quiet,
// a line of an earlier time does not move it back, and before any line
// had a time there is none.
func TestClockPresent(t *testing.T) {
	base := time.Date(2026, 11, 22, 6, 7, 0, 0, time.UTC)
	wall := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) // another clock: only its steps count
	now := func() time.Time { return wall }
	for _, tc := range []struct {
		name  string
		steps func(c *Clock)
		want  time.Time
	}{
		{"just started", func(*Clock) {}, base},
		{"quiet for 5s", func(*Clock) { wall = wall.Add(5 * time.Second) }, base.Add(5 * time.Second)},
		{"a line 2s later, read 3s later", func(c *Clock) {
			wall = wall.Add(3 * time.Second)
			c.Saw(base.Add(2 * time.Second))
		}, base.Add(2 * time.Second)},
		{"then quiet for 1s", func(c *Clock) {
			wall = wall.Add(3 * time.Second)
			c.Saw(base.Add(2 * time.Second))
			wall = wall.Add(time.Second)
		}, base.Add(3 * time.Second)},
		{"an older line", func(c *Clock) {
			wall = wall.Add(4 * time.Second)
			c.Saw(base.Add(-time.Minute))
		}, base.Add(4 * time.Second)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewClock(base, now)
			tc.steps(c)
			if got := c.Present(); !got.Equal(tc.want) {
				t.Errorf("present %s, want %s", got, tc.want)
			}
		})
	}
	if got := NewClock(time.Time{}, now).Present(); !got.IsZero() {
		t.Errorf("no line had a time: present %s, want none", got)
	}
}

// File at its end says parser.ErrIdle once after a whole line, never
// inside one; it ends with Restart saying "rotated" or "truncated" when
// the file starts over, and reads the new content from its start.
func TestFileIdleAndRestart(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.log")
	if err := os.WriteFile(path, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	f, err := Open(path, 0, nil, time.Millisecond, stop)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64)
	read := func() (string, error) {
		t.Helper()
		n, err := f.Read(buf)
		return string(buf[:n]), err
	}
	add := func(s string) {
		t.Helper()
		w, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		w.WriteString(s)
		w.Close()
	}
	expect := func(want string, wantErr error) {
		t.Helper()
		got, err := read()
		if got != want || !errors.Is(err, wantErr) {
			t.Fatalf("read %q, %v; want %q, %v", got, err, want, wantErr)
		}
	}
	expect("one\n", nil)
	expect("", parser.ErrIdle)
	// Half a line: no idle inside it; the rest is waited for.
	add("tw")
	expect("tw", nil)
	go func() { time.Sleep(20 * time.Millisecond); add("o\n") }()
	expect("o\n", nil)
	expect("", parser.ErrIdle)
	// Rotated.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	expect("", io.EOF)
	if r := f.Restart(); r != "rotated" {
		t.Fatalf("restart %q, want rotated", r)
	}
	expect("three\n", nil)
	expect("", parser.ErrIdle)
	// Copy-truncated.
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	add("4\n")
	expect("", io.EOF)
	if r := f.Restart(); r != "truncated" {
		t.Fatalf("restart %q, want truncated", r)
	}
	expect("4\n", nil)
}

// A file rotated between the first pass and the follow's start is read
// from its new start, said as a rotation (not a truncation of the new
// file, which is shorter than what was read of the old one).
func TestOpenAfterRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.log")
	if err := os.WriteFile(path, []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	was, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("four\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	f, err := Open(path, 14, was, time.Millisecond, stop)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 64)
	if n, err := f.Read(buf); n != 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("first read %q, %v; want the end, to start over", buf[:n], err)
	}
	if r := f.Restart(); r != "rotated" {
		t.Fatalf("Restart() = %q, want rotated", r)
	}
	if n, err := f.Read(buf); string(buf[:n]) != "four\n" || err != nil {
		t.Fatalf("read %q, %v; want the new file from its start", buf[:n], err)
	}

	// The same file as the first pass read: on from where it stopped.
	was, _ = os.Stat(path)
	g, err := Open(path, 2, was, time.Millisecond, stop)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if n, err := g.Read(buf); string(buf[:n]) != "ur\n" || err != nil {
		t.Fatalf("read %q, %v; want the rest", buf[:n], err)
	}
}
