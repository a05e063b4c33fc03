package cmd

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// The get pods table: its columns and cells, the reasons shortened to fit,
// and the table fitted to the terminal.

// flowTime is the WAIT/DUR cell: waited for stalled flows,
// duration otherwise.
func flowTime(f *timeline.Flow) string {
	if f.Verdict == timeline.VerdictStalled && f.Waited > 0 {
		return humanDuration(time.Duration(f.Waited))
	}
	return humanDuration(time.Duration(f.Duration))
}

// waitedCell is how long a flow waited at the stage it stopped at, or
// "-" when it stopped at none or at one that never began (a pending
// stage waited no time that the log shows: "0s" would claim it did).
func waitedCell(f *timeline.Flow) string {
	if f.StalledAt == "" || f.Waited == 0 {
		return "-"
	}
	return humanDuration(time.Duration(f.Waited))
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// shortReason is the REASON width of the default table.
const shortReason = 80

var (
	grpcBoilerplate = regexp.MustCompile(`rpc error: code = \w+ desc = `)
	inPodSuffix     = regexp.MustCompile(` in pod [^ ]+_[^ ]+\([0-9a-f-]+\)`)
)

// shorten fits an error chain ("what: why: …: root cause") into n columns:
// gRPC boilerplate and "in pod name_ns(uid)" go, then the first link (what
// failed) and as many of the last links (the root cause) as fit are kept.
func shorten(s string, n int) string {
	// The literal each pattern starts with, looked for first: most reasons
	// have neither, and a regexp costs more even to find nothing.
	if strings.Contains(s, "rpc error: code = ") {
		s = grpcBoilerplate.ReplaceAllString(s, "")
	}
	if strings.Contains(s, " in pod ") {
		s = inPodSuffix.ReplaceAllString(s, "")
	}
	if textWidth(s) <= n {
		return s
	}
	if n < 30 {
		// Too narrow for a head and a root cause: the beginning, to a word.
		return truncateWords(s, n)
	}
	links := strings.Split(s, ": ")
	head := links[0]
	tail := ""
	for i := len(links) - 1; i > 0; i-- {
		cand := links[i]
		if tail != "" {
			cand += ": " + tail
		}
		if textWidth(head)+textWidth(" … ")+textWidth(cand) > n {
			break
		}
		tail = cand
	}
	if tail == "" {
		// Even the root cause does not fit beside the head: cut the head.
		last := links[len(links)-1]
		room := n - textWidth(last) - textWidth(" … ")
		if len(links) == 1 || room < n/3 {
			return truncateWords(s, n)
		}
		return cutWords(head, room) + " … " + last
	}
	return truncate(head, n) + " … " + tail
}

// Columns of the get-pods table.
const (
	colNS = iota
	colName
	colNode
	colStatus
	colVerdict
	colStage
	colTime
)

// podTableSteps is how the get-pods table gives up width on a terminal
// narrower than its widest row, in order: gaps of two, a NAMESPACE every
// pod shares left out, REASON down to 30 columns, then node names and
// stages cut (a DNS node name keeps its first label, a stage its
// container), REASON down to 20, nodes and stages cut further, REASON
// down to 12, NODE left out, STATUS and REASON down to a floor, and at last STAGE
// left out. NAME
// is never cut, as kubectl never cuts it: a pod name is what the user
// copies into the next command. reason is the REASON column; oneNS says
// every pod is in one namespace. -o wide keeps every column it was asked
// for: they only narrow.
func podTableSteps(reason int, oneNS, wide bool) []fitStep {
	steps := []fitStep{{col: -1, to: 2}}
	if oneNS && !wide {
		steps = append(steps, fitStep{col: colNS, drop: true}) // said on standard error: nothing is lost
	}
	steps = append(steps, fitStep{col: reason, to: 30})
	if wide {
		steps = append(steps, fitStep{col: reason - 2, to: 13}) // UID
	}
	steps = append(steps, fitStep{col: colNode, to: 14}, fitStep{col: colStage, to: 24}, fitStep{col: reason, to: 20},
		fitStep{col: colNode, to: 12}, fitStep{col: colStage, to: 20}, fitStep{col: reason, to: 12}, fitStep{col: colStage, to: 14})
	if !wide {
		steps = append(steps, fitStep{col: colNode, drop: true})
	}
	steps = append(steps, fitStep{col: colStage, to: 10}, fitStep{col: colStatus, to: 18}, fitStep{col: reason, to: 8})
	if !wide {
		// Long pod names in 80 columns: STATUS, VERDICT and the time
		// stay, and REASON says where it stopped better than a cut stage.
		steps = append(steps, fitStep{col: colStage, drop: true})
	}
	return steps
}

// printPodTable prints the get-pods table. On a terminal it is fitted to
// the width (fitWidths with podTableSteps): no row wraps; the reason is
// shortened to the room left, a node name and a stage cut, never a pod
// name; columns left out are said on standard error. Piped, the
// rows are whole (the reason as shorten gives it in 80 columns, whole
// with -o wide).
func printPodTable(ioS *IO, items []timeline.Flow, wide, noHeaders, color bool) {
	t := &Table{
		Headers:  []string{"NAMESPACE", "NAME", "NODE", "STATUS", "VERDICT", "STAGE", "WAIT/DUR", "REASON"},
		NoHeader: noHeaders,
		Flex:     -1,
	}
	if wide {
		// Each figure once: WAITED and DURATION stand for WAIT/DUR.
		t.Headers = []string{"NAMESPACE", "NAME", "NODE", "STATUS", "VERDICT", "STAGE", "START", "WAITED", "DURATION", "RESTARTS", "UID", "SOURCE", "REASON"}
	}
	reasons := make([]string, len(items))
	for i := range items {
		f := &items[i]
		name := f.Pod.Name
		if f.Incarnation > 1 {
			name += " #" + strconv.Itoa(f.Incarnation)
		}
		row := []string{dash(sanitize.OneLine(f.Pod.Namespace)), sanitize.OneLine(name), dash(sanitize.OneLine(f.Node)), dash(f.Status), string(f.Verdict), stageLabel(f)}
		if wide {
			restarts := 0
			for _, c := range f.Containers {
				restarts += c.Restarts
			}
			row = append(row, stamp(f.Start), waitedCell(f), humanDuration(time.Duration(f.Duration)),
				strconv.Itoa(restarts), dash(sanitize.OneLine(f.Pod.UID)), dash(f.Source))
		} else {
			row = append(row, flowTime(f))
		}
		reasons[i] = sanitize.OneLine(f.Reason)
		if ioS.OutTTY && f.Recovered() {
			// On a terminal a pod that ran after trouble is marked, as
			// one that did not is by its verdict's colour.
			reasons[i] = "⚠ " + reasons[i]
		}
		reason := reasons[i]
		if !wide {
			// The short form, like kubectl's STATUS; -o wide, describe and
			// -o json give it whole.
			reason = shorten(reason, shortReason)
		}
		row = append(row, dash(reason))
		t.Rows = append(t.Rows, row)
	}
	keep := make([]bool, len(t.Headers))
	for i := range keep {
		keep[i] = true
	}
	if ioS.OutTTY && ioS.Width > 0 {
		keep = fitPodTable(ioS, t, reasons, wide)
	}
	t.Color = func(row, col int) string {
		if col == colVerdict {
			return flowColor(&items[row])
		}
		return ""
	}
	if !keep[colNS] || !keep[colNode] {
		// Columns left out go from the table, and the colour follows the
		// verdict to its place.
		verdictAt := 0
		for i := range colVerdict {
			if keep[i] {
				verdictAt++
			}
		}
		t.Headers = keepCols(t.Headers, keep)
		for i, r := range t.Rows {
			t.Rows[i] = keepCols(r, keep)
		}
		t.Color = func(row, col int) string {
			if col == verdictAt {
				return flowColor(&items[row])
			}
			return ""
		}
	}
	t.Print(ioS.Out, color)
}

// fitPodTable fits t, the get-pods table, to the terminal's width: cells
// are cut to the widths fitWidths gives, the reasons shortened from their
// whole text, the gap set and lines clipped as a last resort. It returns
// which columns stay, and says on standard error which do not.
func fitPodTable(ioS *IO, t *Table, reasons []string, wide bool) []bool {
	reasonCol := len(t.Headers) - 1
	nat := make([]int, len(t.Headers))
	if !t.NoHeader {
		for i, h := range t.Headers {
			nat[i] = textWidth(h)
		}
	}
	oneNS := true
	for _, r := range t.Rows {
		for i, c := range r {
			nat[i] = max(nat[i], textWidth(c))
		}
		oneNS = oneNS && r[colNS] == t.Rows[0][colNS]
	}
	w, gap := fitWidths(nat, 3, reasonCol, podTableSteps(reasonCol, oneNS, wide), ioS.Width)
	t.Gap, t.MaxWidth, t.Clip = gap, ioS.Width, true
	cut := func(i int, s string) string {
		switch i {
		case colName:
			return s // never cut (podTableSteps)
		case colNode:
			return cutHost(s, w[i])
		case colStage:
			return cutStage(s, w[i])
		case reasonCol:
			return s // shortened below, from the whole reason
		}
		return truncate(s, w[i])
	}
	for ri, r := range t.Rows {
		for i := range r {
			if w[i] > 0 {
				r[i] = cut(i, r[i])
			}
		}
		if reasons[ri] != "" && w[reasonCol] < nat[reasonCol] {
			r[reasonCol] = shorten(reasons[ri], w[reasonCol])
		}
	}
	keep := make([]bool, len(w))
	var left []string
	for i, x := range w {
		keep[i] = x > 0
		if !keep[i] {
			what := t.Headers[i]
			if i == colNS && len(t.Rows) > 0 {
				what += " (all " + t.Rows[0][colNS] + ")"
			}
			left = append(left, what)
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(ioS.ErrOut, "podflow: %s left out to fit %d columns\n", strings.Join(left, " and "), ioS.Width)
	}
	return keep
}

// keepCols is r without the columns keep leaves out.
func keepCols(r []string, keep []bool) []string {
	out := r[:0:0]
	for i, c := range r {
		if i >= len(keep) || keep[i] {
			out = append(out, c)
		}
	}
	return out
}
