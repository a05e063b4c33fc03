package linepos

import (
	"math"
	"strconv"
	"testing"

	"github.com/podflow/podflow/parser"
)

// Positions past what a Where holds inline come back whole.
func TestWhereRoundTrip(t *testing.T) {
	var tab Table
	// The 8,192 inputs a Where holds inline, then one past them.
	for i := range 1 << inputBits {
		tab.input(strconv.Itoa(i))
	}
	last := strconv.Itoa(1<<inputBits - 1)
	for i, tt := range []struct {
		p    parser.Position
		wide bool
	}{
		{parser.Position{Input: "0", Line: 1, Offset: 0, Length: 10}, false},
		{parser.Position{Input: last, Line: 1<<lineBits - 1, Offset: 1<<offsetBits - 1, Length: 1<<lengthBits - 1}, false},
		{parser.Position{Input: "past", Line: 7, Offset: 5, Length: 3}, true},
		{parser.Position{Input: "1", Line: 1 << lineBits, Offset: 5, Length: 3}, true},
		{parser.Position{Input: "1", Line: 7, Offset: 1 << offsetBits, Length: 3}, true},
		{parser.Position{Input: "1", Line: 7, Offset: 5, Length: 1 << lengthBits}, true},
		{parser.Position{Input: "1", Line: math.MaxInt64, Offset: math.MaxInt64, Length: math.MaxInt}, true},
		{parser.Position{Input: "1", Line: -1, Offset: -1, Length: -1}, true},
	} {
		w := tab.Where(&tt.p, uint32(i))
		if w.Wide() != tt.wide {
			t.Errorf("%d: wide %v, want %v", i, w.Wide(), tt.wide)
		}
		if got := tab.Position(w); got != tt.p || w.Text != uint32(i) {
			t.Errorf("%d: %+v came back as %+v, text %d", i, tt.p, got, w.Text)
		}
	}
}

// A released position's entry on the side is reused, and the others keep
// theirs.
func TestReleaseReuses(t *testing.T) {
	var tab Table
	far := func(line int64) parser.Position {
		return parser.Position{Input: "a.log", Line: line, Offset: 1 << offsetBits, Length: 1}
	}
	p1, p2, p3 := far(1), far(2), far(3)
	w1, w2 := tab.Where(&p1, 0), tab.Where(&p2, 0)
	tab.Release(w1)
	w3 := tab.Where(&p3, 0)
	if tab.Wide() != 2 {
		t.Fatalf("%d entries on the side, want 2 (one reused)", tab.Wide())
	}
	if tab.Position(w2) != p2 || tab.Position(w3) != p3 {
		t.Fatalf("after reuse: %+v, %+v", tab.Position(w2), tab.Position(w3))
	}
	near := parser.Position{Input: "a.log", Line: 1, Offset: 1, Length: 1}
	tab.Release(tab.Where(&near, 0)) // nothing on the side to give back
	if w := tab.Where(&p1, 0); tab.Wide() != 3 || tab.Position(w) != p1 {
		t.Fatalf("a compact release freed an entry: %d on the side", tab.Wide())
	}
}

// FuzzLinePos makes positions from the input, releases some, and checks
// that every one still held comes back exactly.
func FuzzLinePos(f *testing.F) {
	f.Add("a.log", int64(1), int64(0), 10, []byte{0, 1, 2, 3})
	f.Add("", int64(-1), int64(1<<40), 1<<20, []byte{7, 7, 0, 255})
	f.Add("x", int64(math.MaxInt64), int64(math.MinInt64), -3, []byte{})
	f.Fuzz(func(t *testing.T, input string, line, offset int64, length int, ops []byte) {
		var tab Table
		type held struct {
			w Where
			p parser.Position
		}
		var live []held
		for i, op := range ops {
			p := parser.Position{Input: input + strconv.Itoa(int(op%5)), Line: line + int64(op)<<(i%40), Offset: offset ^ int64(op)<<(i%50), Length: length + int(op)}
			if op%4 == 3 && len(live) > 0 {
				k := int(op) % len(live)
				tab.Release(live[k].w)
				live = append(live[:k], live[k+1:]...)
				continue
			}
			live = append(live, held{tab.Where(&p, uint32(i)), p})
			for _, h := range live {
				if got := tab.Position(h.w); got != h.p {
					t.Fatalf("%+v came back as %+v", h.p, got)
				}
			}
		}
	})
}
