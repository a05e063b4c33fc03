package cmd

// Shared printing helpers: tables, colour, durations, truncation, the
// pod-name filters and the progress line. Other commands may call these;
// keep the names stable.

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// ANSI colours used by the views.
const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiGrey   = "\x1b[90m"
	ansiBold   = "\x1b[1m"
)

// colorMode values for --color.
var colorModes = []string{"auto", "always", "never"}

// addColorFlag registers --color.
func addColorFlag(c *cobra.Command, mode *string) {
	c.Flags().StringVar(mode, "color", "auto", "colour output: auto (on a terminal, unless NO_COLOR is set), always or never")
	_ = c.RegisterFlagCompletionFunc("color", fixedCompletion(colorModes...))
}

// fixedCompletion completes a flag from a fixed list.
func fixedCompletion(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// outputCompletion completes -o: a template format (jsonpath=, …) is
// completed without the space after it, since its template follows.
func outputCompletion(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		noSpace := true
		for _, v := range vals {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
				noSpace = noSpace && strings.HasSuffix(v, "=")
			}
		}
		if noSpace && len(out) > 0 {
			return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// verdictColor is the ANSI colour of a verdict.
func verdictColor(v timeline.Verdict) string {
	switch v {
	case timeline.VerdictRunning, timeline.VerdictCompleted, timeline.VerdictTerminated:
		return ansiGreen
	case timeline.VerdictFailed, timeline.VerdictRejected:
		return ansiRed
	case timeline.VerdictStalled, timeline.VerdictTerminating:
		return ansiYellow
	case timeline.VerdictIncomplete:
		return ansiGrey
	}
	return ""
}

// flowColor is the colour of a pod's verdict in a table: its verdict's,
// yellow for a pod that ran after trouble.
func flowColor(f *timeline.Flow) string {
	if f.Recovered() {
		return ansiYellow
	}
	return verdictColor(f.Verdict)
}

// statusColor is the ANSI colour of a stage status.
func statusColor(s timeline.Status) string {
	switch s {
	case timeline.StatusDone:
		return ansiGreen
	case timeline.StatusFailed:
		return ansiRed
	case timeline.StatusStalled:
		return ansiYellow
	case timeline.StatusActive:
		return ansiYellow
	case timeline.StatusPending, timeline.StatusUnknown, timeline.StatusSkipped:
		return ansiGrey
	}
	return ""
}

// paint wraps s in colour when on.
func paint(on bool, color, s string) string {
	if !on || color == "" || s == "" {
		return s
	}
	return color + s + ansiReset
}

// humanDuration prints a duration as every view does
// (timeline.HumanDuration): 350ms, 1.25s, 59.1s, 1m12s, 2h3m.
func humanDuration(d time.Duration) string { return timeline.HumanDuration(d) }

// relDuration prints an offset from a flow's start: +1.23s.
func relDuration(d time.Duration) string {
	if d < 0 {
		return humanDuration(d)
	}
	return "+" + humanDuration(d)
}

// clock prints a log time: 06:08:06.545 (UTC).
func clock(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("15:04:05.000")
}

// stamp prints an absolute log time: 2026-11-22T06:08:06.545Z.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// textWidth is the display width of s (runes; podflow's own text is narrow).
func textWidth(s string) int { return utf8.RuneCountInString(s) }

// truncate shortens s to at most n display columns, ending in "…".
func truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if textWidth(s) <= n {
		return s
	}
	if n == 1 {
		return "…"
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// wrap breaks text into lines of at most width columns at spaces.
func wrap(s string, width int) []string {
	if width < 20 {
		width = 20
	}
	var lines []string
	var cur strings.Builder
	for _, w := range strings.Fields(s) {
		if cur.Len() > 0 && textWidth(cur.String())+1+textWidth(w) > width {
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
			if n := textWidth(c); n > widths[i] {
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
			if !t.NoHeader && t.Flex < len(t.Headers) && textWidth(t.Headers[t.Flex]) > min {
				min = textWidth(t.Headers[t.Flex])
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
			c, wd := r[i], textWidth(r[i])
			if wd > widths[i] {
				c = truncate(c, widths[i])
				wd = textWidth(c)
			}
			pad := widths[i] - wd + gap
			if clip && pos+wd >= t.MaxWidth {
				c = truncate(c, t.MaxWidth-pos)
				wd, last = textWidth(c), i
			}
			if clip {
				pad = min(pad, t.MaxWidth-pos-wd)
			}
			pos += wd + pad
			if row >= 0 && t.Color != nil && color {
				c = paint(true, t.Color(row, i), c)
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

// PodFilter selects flows by pod name. Each pattern is an exact name, a
// namespace/name, a UID, or else a regular expression matched against the
// name (and against namespace/name when the pattern holds a "/").
type PodFilter struct {
	exact []string
	res   []*regexp.Regexp
}

// NewPodFilter compiles name patterns; an empty list matches every pod.
func NewPodFilter(patterns []string) (*PodFilter, error) {
	f := &PodFilter{}
	for _, p := range patterns {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "pods/"), "pod/")
		if p == "" {
			continue
		}
		f.exact = append(f.exact, p)
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, usageErrorf("pod name %q: not a name or a valid regular expression: %v", p, err)
		}
		f.res = append(f.res, re)
	}
	return f, nil
}

// Empty reports whether the filter lets everything through.
func (f *PodFilter) Empty() bool { return f == nil || len(f.exact) == 0 }

// Match reports whether the flow's pod matches one of the patterns.
func (f *PodFilter) Match(fl *timeline.Flow) bool {
	if f.Empty() {
		return true
	}
	for i, p := range f.exact {
		if p == fl.Pod.Name || p == fl.Pod.Key() || (fl.Pod.UID != "" && p == fl.Pod.UID) {
			return true
		}
		subject := fl.Pod.Name
		if strings.Contains(p, "/") {
			subject = fl.Pod.Key()
		}
		if f.res[i].MatchString(subject) {
			return true
		}
	}
	return false
}

// splitInputsAndNames separates positional arguments into inputs (existing
// files or directories, "-", or anything that looks like a path: starting
// with / ./ ../ or ~, ending in /, or named like a log file, so that a
// mistyped path is reported rather than taken for a pod name) and
// pod-name patterns (anything else).
func splitInputsAndNames(args []string) (inputs, names []string) {
	for _, a := range args {
		if a == "-" || looksLikePath(a) {
			inputs = append(inputs, a)
			continue
		}
		if _, err := os.Lstat(a); err == nil {
			// (Lstat: a link that leads nowhere or in a loop is an input
			// to report, not a pod name.)
			inputs = append(inputs, a)
			continue
		}
		names = append(names, a)
	}
	return inputs, names
}

var logSuffix = regexp.MustCompile(`\.(log|gz|zst|txt|json)(\.[0-9]+)?$|\.log\.[0-9]+`)

func looksLikePath(a string) bool {
	return strings.HasPrefix(a, "/") || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") ||
		strings.HasPrefix(a, "~") || strings.HasSuffix(a, "/") || logSuffix.MatchString(a)
}

// progressThreshold is the input size above which a progress line is shown
// on a terminal.
const progressThreshold = 16 << 20

// progressAfter is how long standard input (or a compressed input, whose
// size read is unknown) is read before its progress line shows: a small
// one is done before.
var progressAfter = 500 * time.Millisecond

// analyze runs Analyze with a progress line on stderr when stderr is a
// terminal and the inputs are large (percent, bytes and time left; for
// standard input and compressed inputs the bytes read), prints input
// warnings, and returns the analysis.
func analyze(ioS *IO, paths []string, o LoadOptions) (*Analysis, error) {
	var pr *progress
	if ioS.ErrTTY {
		total, known := inputSize(paths), len(paths) > 0
		for _, p := range paths {
			known = known && p != "-" && !compressed(p)
		}
		start := time.Now()
		switch {
		case known && total >= progressThreshold:
			pr = &progress{w: ioS.RawErrOut(), total: total, now: time.Now, start: start}
		case !known:
			pr = &progress{w: ioS.RawErrOut(), now: time.Now, start: start, notBefore: start.Add(progressAfter)}
		}
		if pr != nil {
			o.progress = pr.poll
		}
	}
	a, err := Analyze(ioS, paths, o)
	if pr != nil {
		pr.done()
	}
	if err != nil {
		return nil, err
	}
	a.warn(ioS)
	return a, nil
}

// inputSize sums the sizes of files and directories named (stdin counts 0).
func inputSize(paths []string) int64 {
	var n int64
	for _, p := range paths {
		if p == "-" {
			continue
		}
		_ = filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if !d.IsDir() {
				if fi, err := d.Info(); err == nil {
					n += fi.Size()
				}
			}
			return nil
		})
	}
	return n
}

// humanBytes prints a size: 512 B, 3.4 KiB, 120 MiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	if v >= 100 {
		return fmt.Sprintf("%.0f %ciB", v, "KMGTPE"[exp])
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[exp])
}

// underWay reports whether the flow was still under way when the log
// ended (timeline's definition).
func underWay(f *timeline.Flow) bool { return f.UnderWay() }

// didYouMean suggests the names closest to a mistyped one, as cobra does
// for commands: "\n\nDid you mean this?\n\tNAME…", or "" when none is
// close. Close is within an edit distance of a third of the name (at
// least 2), or holding it, or held by it; of those, the closest are
// given (three at most).
func didYouMean(name string, names []string) string {
	type cand struct {
		name string
		dist int
	}
	var cs []cand
	seen := map[string]bool{}
	limit := max(2, textWidth(name)/3)
	for _, n := range names {
		if seen[n] || n == "" {
			continue
		}
		seen[n] = true
		d := editDistance(name, n)
		if strings.Contains(n, name) || strings.Contains(name, n) && textWidth(n) > 3 {
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

// inputsPhrase names the inputs of an analysis for a message: each, or
// for many the count and the first.
func inputsPhrase(inputs []string) string {
	if len(inputs) <= 3 {
		return strings.Join(inputs, ", ")
	}
	return fmt.Sprintf("%d inputs (%s, …)", len(inputs), inputs[0])
}

// timeArg parses --since/--until: RFC3339, or a duration back from end.
func timeArg(flag, v string, end time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return end.Add(-d), nil
	}
	return time.Time{}, usageErrorf("--%s %q: want an RFC3339 time (2026-11-22T06:08:00Z) or a duration back from the end of the log (10m)", flag, v)
}

// stageLabel is f's STAGE column (Flow.StageLabel), cleaned for output.
func stageLabel(f *timeline.Flow) string { return sanitize.OneLine(f.StageLabel()) }
