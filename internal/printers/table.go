package printers

import (
	"bufio"
	"io"
)

// Table is a kubectl-style column table. Cells are plain text; Color, when
// set, gives an ANSI colour for a cell (applied after padding, so
// alignment survives). Flex is the index of the column that gives up width
// when MaxWidth is set (-1: none).
type Table struct {
	Headers  []string
	Rows     [][]string
	Color    func(row, col int) string
	NoHeader bool
	MaxWidth int // 0: unlimited
	Flex     int
	Gap      int // spaces between columns; 0 means 3
	Indent   int // spaces before every line
	// Clip cuts every line to MaxWidth, so that a terminal never wraps
	// one, whatever the widths (the last resort of a fitted table).
	Clip bool
}

const spaces = "                                                                "

// Print writes the table.
func (t *Table) Print(w io.Writer, color bool) {
	gap := t.Gap
	if gap == 0 {
		gap = 3
	}
	ncol := len(t.Headers)
	for _, r := range t.Rows {
		if len(r) > ncol {
			ncol = len(r)
		}
	}
	widths := make([]int, ncol)
	measure := func(r []string) {
		for i, c := range r {
			if n := TextWidth(c); n > widths[i] {
				widths[i] = n
			}
		}
	}
	if !t.NoHeader {
		measure(t.Headers)
	}
	for _, r := range t.Rows {
		measure(r)
	}
	if t.MaxWidth > 0 && t.Flex >= 0 && t.Flex < ncol {
		total := t.Indent
		for i, wd := range widths {
			total += wd
			if i < ncol-1 {
				total += gap
			}
		}
		if over := total - t.MaxWidth; over > 0 {
			min := 10
			if !t.NoHeader && t.Flex < len(t.Headers) && TextWidth(t.Headers[t.Flex]) > min {
				min = TextWidth(t.Headers[t.Flex])
			}
			widths[t.Flex] -= over
			if widths[t.Flex] < min {
				widths[t.Flex] = min
			}
		}
	}
	// One write for many lines: Out is not buffered, and a write per line
	// is a system call per pod (and a pass of the terminal layer each).
	b := bufio.NewWriterSize(w, 64<<10)
	defer b.Flush()
	space := func(n int) {
		for n > 0 {
			k := min(n, len(spaces))
			b.WriteString(spaces[:k])
			n -= k
		}
	}
	line := func(r []string, row int) {
		space(t.Indent)
		last := len(r) - 1
		for last >= 0 && r[last] == "" {
			last--
		}
		pos := t.Indent
		clip := t.Clip && t.MaxWidth > 0
		for i := 0; i <= last; i++ {
			c, wd := r[i], TextWidth(r[i])
			if wd > widths[i] {
				c = Truncate(c, widths[i])
				wd = TextWidth(c)
			}
			pad := widths[i] - wd + gap
			if clip && pos+wd >= t.MaxWidth {
				c = Truncate(c, t.MaxWidth-pos)
				wd, last = TextWidth(c), i
			}
			if clip {
				pad = min(pad, t.MaxWidth-pos-wd)
			}
			pos += wd + pad
			if row >= 0 && t.Color != nil && color {
				c = Paint(true, t.Color(row, i), c)
			}
			b.WriteString(c)
			if i < last {
				space(pad)
			}
		}
		b.WriteByte('\n')
	}
	if !t.NoHeader {
		line(t.Headers, -1)
	}
	for i, r := range t.Rows {
		line(r, i)
	}
}
