package printers

// YAML for a flow straight from walkFlow: the bytes the YAML writer
// (yamlwriter.go) makes of the flow's JSON, without writing the JSON and
// reading it back (keys, times and durations, whose YAML form the types
// settle, skip the writer's analysis of scalars). What this writer does
// not settle alone (a string the YAML writer hands to the library, text
// that is not valid UTF-8, a time not in UTC or out of RFC 3339's range)
// makes it give up, and the caller takes the JSON road for that flow.

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// yamlFrame is an open mapping or sequence.
type yamlFrame struct {
	seq      bool
	col      int  // the column of its keys or dashes
	afterKey bool // a mapping that is a member's value (not a list item)
	n        int  // members or items written
}

// flowYAML writes block YAML as yamlWriter.item writes the flow's JSON.
type flowYAML struct {
	b      []byte
	ok     bool
	frames []yamlFrame
	tmp    []byte
}

// appendFlowYAML appends f as an item of a block sequence whose dashes
// are at col, as yamlWriter.item(dst, f's JSON, col) would; ok is false
// when it cannot, and then dst is returned as it was.
func (y *flowYAML) appendFlowYAML(dst []byte, f *timeline.Flow, col int) (out []byte, ok bool) {
	y.b, y.ok = dst, true
	y.frames = append(y.frames[:0], yamlFrame{seq: true, col: col})
	walkFlow(y, f)
	if !y.ok {
		return dst, false
	}
	out, y.b = y.b, nil
	return out, true
}

func (y *flowYAML) pad(n int) {
	for range n {
		y.b = append(y.b, ' ')
	}
}

// value starts a value: a space after its key, or a dash at the
// sequence's column.
func (y *flowYAML) value() {
	fr := &y.frames[len(y.frames)-1]
	if !fr.seq {
		y.b = append(y.b, ' ')
		return
	}
	y.pad(fr.col)
	y.b = append(y.b, "- "...)
	fr.n++
}

func (y *flowYAML) key(k string) {
	fr := &y.frames[len(y.frames)-1]
	switch {
	case fr.n == 0 && fr.afterKey:
		y.b = append(y.b, '\n')
		y.pad(fr.col)
	case fr.n == 0: // after the item's dash
	default:
		y.pad(fr.col)
	}
	fr.n++
	y.b = append(y.b, k...)
	y.b = append(y.b, ':')
}

func (y *flowYAML) str(s string) {
	y.value()
	if !sanitize.BelowDEL(s) && !utf8.ValidString(s) {
		// The JSON holds each bad byte as U+FFFD: left to that road.
		y.ok = false
		return
	}
	var ok bool
	if y.b, ok = yamlScalar(y.b, yamlText(s)); !ok {
		y.ok = false
		return
	}
	y.b = append(y.b, '\n')
}

func (y *flowYAML) int(v int64) {
	y.value()
	y.b = strconv.AppendInt(y.b, v, 10)
	y.b = append(y.b, '\n')
}

func (y *flowYAML) bool(v bool) {
	y.value()
	if v {
		y.b = append(y.b, "true\n"...)
	} else {
		y.b = append(y.b, "false\n"...)
	}
}

// time writes t's RFC 3339 text as the YAML writer writes it: a time in
// UTC reads as a YAML timestamp, so it is double-quoted (yamlTimestamp).
func (y *flowYAML) time(t time.Time) {
	y.value()
	b, err := t.AppendText(y.tmp[:0])
	y.tmp = b
	if err != nil || b[len(b)-1] != 'Z' {
		y.ok = false // out of range: an error; in a zone: left to the library
		return
	}
	y.b = append(y.b, '"')
	y.b = append(y.b, b...)
	y.b = append(y.b, "\"\n"...)
}

// duration writes d plain: a Go duration ends with a unit ('s' of "0s",
// "1m0s", "3ms"), so it is neither a number, a timestamp nor a word YAML
// resolves, and holds no indicator (yamlScalar).
func (y *flowYAML) duration(d timeline.Duration) {
	y.value()
	y.b = append(y.b, time.Duration(d).String()...)
	y.b = append(y.b, '\n')
}

func (y *flowYAML) null() {
	y.value()
	y.b = append(y.b, "null\n"...)
}

func (y *flowYAML) emptyList() {
	y.value()
	y.b = append(y.b, "[]\n"...)
}

func (y *flowYAML) openObject() {
	fr := y.frames[len(y.frames)-1]
	if fr.seq {
		y.pad(fr.col)
		y.b = append(y.b, "- "...)
		y.frames[len(y.frames)-1].n++
	}
	y.frames = append(y.frames, yamlFrame{col: fr.col + 2, afterKey: !fr.seq})
}

func (y *flowYAML) closeObject() {
	fr := y.frames[len(y.frames)-1]
	y.frames = y.frames[:len(y.frames)-1]
	if fr.n == 0 {
		if fr.afterKey {
			y.b = append(y.b, ' ')
		}
		y.b = append(y.b, "{}\n"...)
	}
}

func (y *flowYAML) openList() {
	fr := y.frames[len(y.frames)-1]
	if fr.seq {
		y.ok = false // "- - x": left to the library
	}
	y.b = append(y.b, '\n')
	y.frames = append(y.frames, yamlFrame{seq: true, col: fr.col + 2})
}

func (y *flowYAML) closeList() {
	y.frames = y.frames[:len(y.frames)-1]
}
