package printers

// Fitting a table to a terminal: which columns give up width, in which
// order, and how a cell is cut so that what tells rows apart stays.

import "strings"

// FitStep is one way a table gives up width on a terminal: column Col
// shrinks to at most width To (only as far as the table is still too
// wide), or is left out (Drop), or, with Col -1, the gap between columns
// becomes To.
type FitStep struct {
	Col  int
	To   int
	Drop bool
}

// FitWidths fits a table whose columns are nat wide (header included)
// into limit columns: the steps are taken in order, each only while the
// table is still too wide, and column flex (the last one, free text) then
// gets the room left, never more than its natural width. A dropped column
// has width 0. When even every step is not enough the widths returned are
// still too wide: the caller clips the lines (Table.Clip).
func FitWidths(nat []int, gap, flex int, steps []FitStep, limit int) (widths []int, gapOut int) {
	w := append([]int(nil), nat...)
	total := func() int {
		n, cols := 0, 0
		for _, x := range w {
			if x > 0 {
				n += x
				cols++
			}
		}
		if cols > 1 {
			n += gap * (cols - 1)
		}
		return n
	}
	if limit <= 0 || total() <= limit {
		return w, gap
	}
	for _, s := range steps {
		over := total() - limit
		if over <= 0 {
			break
		}
		switch {
		case s.Col < 0:
			if s.To < gap {
				gap = s.To
			}
		case s.Col >= len(w) || w[s.Col] == 0:
		case s.Drop:
			w[s.Col] = 0
		case w[s.Col] > s.To:
			w[s.Col] = max(s.To, w[s.Col]-over)
		}
	}
	if flex >= 0 && flex < len(w) && w[flex] > 0 {
		w[flex] = 0
		room := limit - total() - gap
		w[flex] = max(min(room, nat[flex]), 1)
	}
	return w, gap
}

// CutMiddle shortens s to n columns by taking out its middle, so that the
// end, which tells generated names apart (a pod's random suffix, a node's
// number, a container stage), stays: payments-7b4d9c8f6-q9zrt in 18
// columns is payments-7b…-q9zrt. The last part after a -, ., / or : is
// kept whole when it leaves at least three columns of the beginning.
func CutMiddle(s string, n int) string {
	if TextWidth(s) <= n {
		return s
	}
	if n < 5 {
		return Truncate(s, n)
	}
	r := []rune(s)
	tail := 0
	if i := strings.LastIndexAny(s, "-./:"); i > 0 {
		tail = TextWidth(s[i:])
	}
	if tail == 0 || n-1-tail < 3 {
		tail = (n - 1) / 2
	}
	head := n - 1 - tail
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// CutHost shortens a node name to n columns: a DNS name keeps its first
// label (ip-10-0-12-34.ec2.internal is ip-10-0-12-34…), anything else is
// cut in the middle.
func CutHost(s string, n int) string {
	if TextWidth(s) <= n {
		return s
	}
	if i := strings.IndexByte(s, '.'); i > 0 && TextWidth(s[:i]) < n {
		return Truncate(s, n)
	}
	return CutMiddle(s, n)
}

// CutStage shortens a stage label to n columns: in
// init-containers/init-config:completed the container and its stage
// tell more than the pod stage before them, which goes first
// (…/init-config:completed); then the middle is cut.
func CutStage(s string, n int) string {
	if TextWidth(s) <= n {
		return s
	}
	if i := strings.IndexByte(s, '/'); i > 0 && TextWidth(s[i:])+1 <= n {
		return "…" + s[i:]
	}
	return CutMiddle(s, n)
}

// CutWords is the longest beginning of s that ends a word and fits in n
// columns, or s cut at n when its first word is longer than half of n.
func CutWords(s string, n int) string {
	if TextWidth(s) <= n {
		return s
	}
	r := []rune(s)
	for i := n; i > n/2; i-- {
		if r[i] == ' ' {
			return strings.TrimRight(string(r[:i]), " ,;:")
		}
	}
	return string(r[:n])
}

// TruncateWords shortens s to n columns ending in "…", at the end of a
// word when one ends in the second half.
func TruncateWords(s string, n int) string {
	if TextWidth(s) <= n || n < 2 {
		return Truncate(s, n)
	}
	return CutWords(s, n-1) + "…"
}
