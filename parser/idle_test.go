package parser

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"
)

// growing is an input read as it grows: each Read gives the next piece
// written, or ErrIdle between the pieces, as a followed file does when it
// has given every line written so far.
type growing struct {
	pieces [][]byte
	idle   bool // the last piece was given whole: ErrIdle comes next
}

func (g *growing) Read(p []byte) (int, error) {
	if g.idle {
		g.idle = false
		return 0, ErrIdle
	}
	if len(g.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.pieces[0])
	g.pieces[0] = g.pieces[0][n:]
	if len(g.pieces[0]) == 0 {
		g.pieces = g.pieces[1:]
		g.idle = true
	}
	return n, nil
}

// A record is ended when the input goes idle, not when the next line
// begins: a quiet log's last entry is read as soon as it is written. The
// records, their positions and times are those of one pass over the whole
// input, and Next reads on after ErrIdle.
func TestIdleEndsTheRecordUnderWay(t *testing.T) {
	raw, err := os.ReadFile("../testdata/corpus/v1.36.3/03-slow-image-pull.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	cases := []struct {
		name  string
		every int // lines per piece
	}{
		{"one line at a time", 1},
		{"three lines at a time", 3},
		{"pieces past the pre-scan's 64 KiB", 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var pieces [][]byte
			for i := 0; i < len(lines); i += tc.every {
				pieces = append(pieces, bytes.Join(lines[i:min(i+tc.every, len(lines))], nil))
			}
			want, _ := readRecords(t, bytes.NewReader(raw), Options{Year: 2026})
			rd := NewReader(&growing{pieces: pieces}, Options{Year: 2026})
			var got []Record
			idles := 0
			for {
				rec, err := rd.Next()
				if errors.Is(err, ErrIdle) {
					idles++
					// Every record of the pieces given so far is out: the
					// last of them ends where the input stopped.
					if len(got) > 0 && got[len(got)-1].Pos.Offset+int64(got[len(got)-1].Pos.Length)+1 != rd.offset {
						t.Fatalf("idle %d: the last record ends at %d, the input at %d", idles, got[len(got)-1].Pos.Offset+int64(got[len(got)-1].Pos.Length)+1, rd.offset)
					}
					continue
				}
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatal(err)
					}
					break
				}
				got = append(got, cloneRecord(rec))
			}
			// Each piece ends in an idle, the first one too, which the
			// year pre-scan's look ahead takes from the input.
			if idles != len(pieces) {
				t.Errorf("ErrIdle %d times, want one after each of %d pieces", idles, len(pieces))
			}
			if len(got) != len(want) {
				t.Fatalf("%d records, one pass gives %d", len(got), len(want))
			}
			for i := range want {
				if got[i].Pos != want[i].Pos || !got[i].Time.Equal(want[i].Time) || got[i].Msg != want[i].Msg {
					t.Fatalf("record %d: %+v %v %q, one pass: %+v %v %q", i, got[i].Pos, got[i].Time, got[i].Msg, want[i].Pos, want[i].Time, want[i].Msg)
				}
			}
		})
	}
}
