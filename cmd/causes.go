package cmd

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/podflow/podflow/internal/cause"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// printCauses prints failed pods grouped by cause (internal/cause): a
// title line saying how many of all pods failed, then one row a cause,
// the largest first. most > 0 prints that many causes and says how many
// more there are; width > 0 fits the rows to it (the cause is
// shortened, as get pods' REASON is).
func printCauses(w io.Writer, gs []cause.Group, pods int, noHeaders bool, most, width int) {
	failed := cause.Total(gs)
	if !noHeaders {
		// In get pods' words: a Stalled pod is in trouble, not Failed.
		byVerdict := map[timeline.Verdict]int{}
		for _, g := range gs {
			for v, n := range g.Verdicts {
				byVerdict[v] += n
			}
		}
		title := func(breakdown string) string {
			return fmt.Sprintf("PODS IN TROUBLE BY CAUSE (%d of %d pods%s; %d %s)", failed, pods, breakdown, len(gs), plural(len(gs), "cause", "causes"))
		}
		head := title(verdictBreakdown(byVerdict))
		if width > 0 && textWidth(head) > width {
			head = title("") // (a narrow terminal: the rows say more)
		}
		fmt.Fprintln(w, head)
	}
	if failed == 0 {
		return
	}
	t := &Table{Headers: []string{"PODS", "STAGE", "CAUSE", "EXAMPLE"}, NoHeader: noHeaders, Flex: 2, MaxWidth: width}
	shown := gs
	if most > 0 && len(shown) > most {
		shown = shown[:most]
	}
	for _, g := range shown {
		t.Rows = append(t.Rows, []string{strconv.Itoa(g.Pods), sanitize.OneLine(g.Stage), sanitize.OneLine(g.Cause), sanitize.OneLine(g.Example)})
	}
	if width > 0 {
		// The example pod is what to describe next: whole; the cause
		// gives up the room.
		room := width
		for i, h := range t.Headers {
			if i == 2 {
				continue
			}
			n := textWidth(h)
			for _, r := range t.Rows {
				n = max(n, textWidth(r[i]))
			}
			room -= n + 3
		}
		room = max(room, 12)
		for _, r := range t.Rows {
			r[2] = shorten(r[2], room)
		}
		t.MaxWidth, t.Clip = width, true
	}
	t.Print(w, false)
	if n := len(gs) - len(shown); n > 0 {
		fmt.Fprintf(w, "… %d more %s (podflow stats --by cause)\n", n, plural(n, "cause", "causes"))
	}
}

// verdictBreakdown is ": 2 Failed, 6 Stalled", worst first ("" for none).
func verdictBreakdown(m map[timeline.Verdict]int) string {
	var parts []string
	for _, v := range timeline.Verdicts {
		if n := m[v]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+string(v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
