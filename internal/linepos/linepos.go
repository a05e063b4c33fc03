// Package linepos keeps the positions of log lines compactly: a flow holds
// some thirty lines as proof (a stage's evidence, its events), each as
// where it is in its input, so that views read the whole line back.
//
// A Where is a line's position and a text index of the caller's in 16
// bytes: in pos the byte offset in 36 bits (64 GiB) and the line in 28
// (268M lines); in more the length in 18 bits (256 KiB) and the input in
// 13, an index in the table's inputs. A position that does not fit goes
// to a table on the side (more's top bit set, pos its index), so nothing
// is lost; its entry is given back with Release when what held it is
// overwritten.
package linepos

import "github.com/podflow/podflow/parser"

// Where is a kept line's position, and Text, the caller's (an index of
// the line's text in its own store), which fills what would be padding.
type Where struct {
	pos  uint64
	more uint32
	Text uint32
}

const (
	lineBits   = 28
	offsetBits = 64 - lineBits
	lengthBits = 18
	inputBits  = 13
	wideBit    = 1 << 31
)

// Wide reports whether w's position is in its table's side table.
func (w Where) Wide() bool { return w.more&wideBit != 0 }

// widePos is a position Where does not hold.
type widePos struct {
	line, offset int64
	length       int
	input        int32
}

// Table holds the inputs named by positions and the positions on the
// side. Its zero value is empty and ready.
type Table struct {
	inputs    []string
	inputIdx  map[string]int32
	lastInput int32
	wide      []widePos
	free      []int // entries of wide to reuse
}

// Where is p as a Where, with text.
func (t *Table) Where(p *parser.Position, text uint32) Where {
	in := t.input(p.Input)
	if p.Offset >= 0 && p.Offset < 1<<offsetBits && p.Line >= 0 && p.Line < 1<<lineBits &&
		p.Length >= 0 && p.Length < 1<<lengthBits && in >= 0 && in < 1<<inputBits {
		return Where{pos: uint64(p.Offset)<<lineBits | uint64(p.Line), more: uint32(p.Length) | uint32(in)<<lengthBits, Text: text}
	}
	wp := widePos{line: p.Line, offset: p.Offset, length: p.Length, input: in}
	var k int
	if n := len(t.free); n > 0 {
		k = t.free[n-1]
		t.free = t.free[:n-1]
		t.wide[k] = wp
	} else {
		t.wide = append(t.wide, wp)
		k = len(t.wide) - 1
	}
	return Where{pos: uint64(k), more: wideBit, Text: text}
}

// input is input's index in t.inputs, added if new.
func (t *Table) input(input string) int32 {
	if k := t.lastInput; int(k) < len(t.inputs) && t.inputs[k] == input {
		return k
	}
	k, ok := t.inputIdx[input]
	if !ok {
		if t.inputIdx == nil {
			t.inputIdx = map[string]int32{}
		}
		k = int32(len(t.inputs))
		t.inputs = append(t.inputs, input)
		t.inputIdx[input] = k
	}
	t.lastInput = k
	return k
}

// Position is the position w was made from (Lines, which a Where does
// not keep, is 0).
func (t *Table) Position(w Where) parser.Position {
	if w.Wide() {
		p := t.wide[w.pos]
		return parser.Position{Input: t.inputs[p.input], Line: p.line, Offset: p.offset, Length: p.length}
	}
	return parser.Position{Input: t.inputs[w.more>>lengthBits], Line: int64(w.pos & (1<<lineBits - 1)),
		Offset: int64(w.pos >> lineBits), Length: int(w.more & (1<<lengthBits - 1))}
}

// Release gives back what w holds on the side: what held it is
// overwritten.
func (t *Table) Release(w Where) {
	if w.Wide() {
		t.free = append(t.free, int(w.pos))
	}
}

// Wide is how many positions the side table holds, free entries included.
func (t *Table) Wide() int { return len(t.wide) }
