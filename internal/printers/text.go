package printers

// Colour, times, durations and text fitting shared by every view.

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// ANSI colours used by the views.
const (
	Reset  = "\x1b[0m"
	Red    = "\x1b[31m"
	Green  = "\x1b[32m"
	Yellow = "\x1b[33m"
	Grey   = "\x1b[90m"
	Bold   = "\x1b[1m"
)

// VerdictColor is the ANSI colour of a verdict.
func VerdictColor(v timeline.Verdict) string {
	switch v {
	case timeline.VerdictRunning, timeline.VerdictCompleted, timeline.VerdictTerminated:
		return Green
	case timeline.VerdictFailed, timeline.VerdictRejected:
		return Red
	case timeline.VerdictStalled, timeline.VerdictTerminating:
		return Yellow
	case timeline.VerdictIncomplete:
		return Grey
	}
	return ""
}

// FlowColor is the colour of a pod's verdict in a table: its verdict's,
// yellow for a pod that ran after trouble.
func FlowColor(f *timeline.Flow) string {
	if f.Recovered() {
		return Yellow
	}
	return VerdictColor(f.Verdict)
}

// StatusColor is the ANSI colour of a stage status.
func StatusColor(s timeline.Status) string {
	switch s {
	case timeline.StatusDone:
		return Green
	case timeline.StatusFailed:
		return Red
	case timeline.StatusStalled:
		return Yellow
	case timeline.StatusActive:
		return Yellow
	case timeline.StatusPending, timeline.StatusUnknown, timeline.StatusSkipped:
		return Grey
	}
	return ""
}

// Paint wraps s in colour when on.
func Paint(on bool, color, s string) string {
	if !on || color == "" || s == "" {
		return s
	}
	return color + s + Reset
}

// HumanDuration prints a duration as every view does
// (timeline.HumanDuration): 350ms, 1.25s, 59.1s, 1m12s, 2h3m.
func HumanDuration(d time.Duration) string { return timeline.HumanDuration(d) }

// RelDuration prints an offset from a flow's start: +1.23s.
func RelDuration(d time.Duration) string {
	if d < 0 {
		return HumanDuration(d)
	}
	return "+" + HumanDuration(d)
}

// Clock prints a log time: 06:08:06.545 (UTC).
func Clock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("15:04:05.000")
}

// Stamp prints an absolute log time: 2026-11-22T06:08:06.545Z.
func Stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// TextWidth is the display width of s (runes; podflow's own text is narrow).
func TextWidth(s string) int { return utf8.RuneCountInString(s) }

// Truncate shortens s to at most n display columns, ending in "…".
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if TextWidth(s) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Wrap breaks text into lines of at most width columns at spaces.
func Wrap(s string, width int) []string {
	if width < 20 {
		width = 20
	}
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(s) {
		if cur.Len() > 0 && TextWidth(cur.String())+1+TextWidth(w) > width {
			lines = append(lines, cur.String())
			cur.Reset()
		}
		if cur.Len() > 0 {
			cur.WriteByte(' ')
		}
		cur.WriteString(w)
	}
	if cur.Len() > 0 {
		lines = append(lines, cur.String())
	}
	return lines
}

// DidYouMean suggests the names closest to a mistyped one, as cobra does
// for commands: "\n\nDid you mean this?\n\tNAME…", or "" when none is
// close. Close is within an edit distance of a third of the name (at
// least 2), or holding it, or held by it; of those, the closest are
// given (three at most).
func DidYouMean(name string, names []string) string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	seen := map[string]bool{}
	limit := max(2, TextWidth(name)/3)
	for _, n := range names {
		if seen[n] || n == "" {
			continue
		}
		seen[n] = true
		d := editDistance(name, n)
		if strings.Contains(n, name) || strings.Contains(name, n) && TextWidth(n) > 3 {
			d = min(d, limit)
		}
		if d <= limit {
			cs = append(cs, cand{n, d})
		}
	}
	if len(cs) == 0 {
		return ""
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.dist - b.dist })
	var b strings.Builder
	b.WriteString("\n\nDid you mean this?")
	for i, c := range cs {
		if i == 3 || c.dist > cs[0].dist {
			break // the closest, not every name within reach
		}
		b.WriteString("\n\t" + sanitize.OneLine(c.name))
	}
	return b.String()
}

// editDistance is the edit distance between a and b in runes, a
// transposition of two neighbours counting one edit (nmae is one from
// name), as typing makes them.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	rows := [3][]int{make([]int, len(rb)+1), make([]int, len(rb)+1), make([]int, len(rb)+1)}
	for j := range rows[1] {
		rows[1][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		pp, prev, cur := rows[0], rows[1], rows[2]
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], pp[j-2]+1)
			}
		}
		rows[0], rows[1], rows[2] = prev, cur, pp
	}
	return rows[1][len(rb)]
}
