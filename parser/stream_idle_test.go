package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// nextOf is one call of MultiReader.Next, made on a goroutine so that a
// test can tell a record given at once from one held back.
type nextOf struct {
	rec  *Record
	text string // rec.Message, copied before the next call
	err  error
}

func nextAsync(m *MultiReader) <-chan nextOf {
	ch := make(chan nextOf, 1)
	go func() {
		rec, err := m.Next()
		n := nextOf{rec: rec, err: err}
		if rec != nil {
			n.text = fmt.Sprint(rec.Pos.Line, " ", rec.Msg)
		}
		ch <- n
	}()
	return ch
}

// A pipe written to one record at a time (tui -f -, get pods -w -, a live
// node): with StreamIdle each record comes out while the writer waits to
// write the next one, followed by ErrIdle; the records are those of the
// whole input read at once. Without it the reader holds the last record
// back until the next line begins (it may have continuation lines), which
// is the lag this exists for.
func TestStreamIdleGivesEachLineBeforeTheNext(t *testing.T) {
	raw, err := os.ReadFile("../testdata/corpus/v1.36.3/05-crashloop-backoff.log")
	if err != nil {
		t.Fatal(err)
	}
	// Records of the real log, each with its continuation lines: a
	// record is written whole, as klog writes it.
	want, _ := readRecords(t, bytes.NewReader(raw), Options{Year: 2026})
	lines := bytes.SplitAfter(raw, []byte("\n"))
	var pieces [][]byte // one record's lines each, for the first records
	for i := 0; i < len(lines) && len(pieces) < 12; {
		j := i + 1
		for j < len(lines) && len(lines[j]) > 0 && !isKlogStart(lines[j]) {
			j++
		}
		pieces = append(pieces, bytes.Join(lines[i:j], nil))
		i = j
	}
	for _, idle := range []bool{true, false} {
		pr, pw := io.Pipe()
		m := NewMultiReader([]Source{StreamSource("-", "", "", time.Time{}, pr)}, Options{Year: 2026, StreamIdle: idle})
		got := 0
		held := false
		var pending <-chan nextOf // the call still waiting when held
		for _, p := range pieces {
			go pw.Write(p)
			ch := nextAsync(m)
			for {
				var n nextOf
				select {
				case n = <-ch:
				case <-time.After(3 * time.Second):
					held, pending = true, ch
				}
				if held {
					break
				}
				if errors.Is(n.err, ErrIdle) {
					ch = nil
					break
				}
				if n.err != nil {
					t.Fatalf("idle=%v: record %d: %v", idle, got, n.err)
				}
				if w := fmt.Sprint(want[got].Pos.Line, " ", want[got].Msg); n.text != w {
					t.Fatalf("idle=%v: record %d is %q, want %q", idle, got, n.text, w)
				}
				got++
				ch = nextAsync(m)
			}
			if held {
				break
			}
		}
		pw.Close()
		if pending != nil {
			// The held call ends with the pipe; the reader is closed
			// only after it (Next and Close are not for concurrent use).
			select {
			case <-pending:
			case <-time.After(10 * time.Second):
				t.Fatalf("idle=%v: Next did not return after the pipe was closed", idle)
			}
		}
		if idle && (held || got != len(pieces)) {
			t.Errorf("with StreamIdle %d of %d records came out before the next was written (held back: %v)", got, len(pieces), held)
		}
		if !idle && !held {
			t.Errorf("without StreamIdle the last record came out before the next line began: the test no longer shows the lag")
		}
		m.Close()
	}
}

// isKlogStart reports whether line begins a klog record ("I1122 …").
func isKlogStart(line []byte) bool {
	return len(line) > 5 && strings.ContainsRune("IWEF", rune(line[0])) && line[1] >= '0' && line[1] <= '9'
}

// A stream read with StreamIdle gives the same records as one read at
// once, however it is cut into writes (whole lines), and ends at its end.
func TestStreamIdleSameRecords(t *testing.T) {
	raw, err := os.ReadFile("../testdata/corpus/v1.36.3/03-slow-image-pull.log")
	if err != nil {
		t.Fatal(err)
	}
	want, _ := readRecords(t, bytes.NewReader(raw), Options{Year: 2026})
	lines := bytes.SplitAfter(raw, []byte("\n"))
	for _, every := range []int{1, 7, 5000} {
		pr, pw := io.Pipe()
		go func() {
			for i := 0; i < len(lines); i += every {
				pw.Write(bytes.Join(lines[i:min(i+every, len(lines))], nil))
			}
			pw.Close()
		}()
		m := NewMultiReader([]Source{StreamSource("-", "", "", time.Time{}, pr)}, Options{Year: 2026, StreamIdle: true})
		var got []string
		for {
			rec, err := m.Next()
			if errors.Is(err, ErrIdle) {
				continue
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprint(rec.Pos.Line, " ", rec.Time, " ", rec.Msg))
		}
		m.Close()
		if len(got) != len(want) {
			t.Fatalf("%d lines a write: %d records, want %d", every, len(got), len(want))
		}
		for i := range got {
			if w := fmt.Sprint(want[i].Pos.Line, " ", want[i].Time, " ", want[i].Msg); got[i] != w {
				t.Fatalf("%d lines a write: record %d is %q, want %q", every, i, got[i], w)
			}
		}
	}
}
