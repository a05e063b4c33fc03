package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/podflow/podflow/timeline"
)

// The pod list's columns. Its width follows the terminal (listWidth): on
// a wide one every name is whole, on a narrow one a name is shortened in
// the middle so that the pod's unique suffix stays (payments-7b…-q9zrt).

const (
	listLead  = 3 // cursor mark, verdict icon, space
	listTimeW = 6
	listNodeW = 24 // the node column's widest
	listStage = 16 // the stage column's widest but on a wide list

	listStageWide = 40 // on a wide one
	listStatusW   = 18 // the STATUS column's widest (ImagePullBackOff whole)
)

// listName is the name a row shows: the name alone in the default
// namespace, namespace/name elsewhere.
// A pod seen again after its flow ended (a kubelet restart, a log read
// from its start again) is another incarnation: #2, as get pods says.
func listName(f *timeline.Flow) string {
	n := f.Pod.Key()
	if f.Pod.Namespace == "default" {
		n = f.Pod.Name
	}
	if f.Incarnation > 1 {
		n += fmt.Sprintf(" #%d", f.Incarnation)
	}
	return san(n)
}

// listNat are the widths the list's columns need to show every value
// whole, over the pods listed.
type listNat struct{ name, node, stage, status int }

func naturalCols(items []timeline.Flow, vis []int) listNat {
	n := listNat{name: len("NAME"), node: len("NODE"), stage: len("STAGE"), status: len("STATUS")}
	for _, i := range vis {
		f := &items[i]
		n.name = max(n.name, ansi.StringWidth(listName(f)))
		n.status = max(n.status, ansi.StringWidth(statusOf(f)))
		n.node = max(n.node, ansi.StringWidth(san(f.Node)))
		n.stage = max(n.stage, ansi.StringWidth(san(stageOf(f))))
	}
	return n
}

// width is the list's width with every column whole.
func (n listNat) width() int {
	return listLead + n.name + 1 + min(n.status, listStatusW) + 1 + min(n.node, listNodeW) + 1 + min(n.stage, listStageWide) + 1 + listTimeW
}

// statusOf is the STATUS kubectl get pods showed (Flow.Status), "-" when
// unknown.
func statusOf(f *timeline.Flow) string {
	if f.Status == "" {
		return "-"
	}
	return san(f.Status)
}

// listCols are the widths the list is drawn at; node or status 0 leaves
// it out.
type listCols struct{ w, name, status, node, stage int }

// layoutList fits the columns into w cells: stage and time first, then
// the name (whole if it can be), then STATUS (the symptom the user
// started from) and the node, each if the whole name leaves room for it.
func layoutList(n listNat, w int) listCols {
	c := listCols{w: w, stage: min(n.stage, listStage)}
	if w < 50 {
		c.stage = min(n.stage, 11)
	}
	rest := w - listLead - 1 - c.stage - 1 - listTimeW
	if status := min(n.status, listStatusW); rest-1-status >= n.name {
		c.status = status
		rest -= 1 + status
	}
	if node := min(n.node, listNodeW); rest-1-node >= n.name {
		c.node = node
		rest -= 1 + node
	}
	c.name = max(rest, 8)
	// Room left over once the name is whole goes to the stage.
	if extra := rest - n.name; extra > 0 && n.stage > c.stage {
		grow := min(extra, min(n.stage, listStageWide)-c.stage)
		c.stage += grow
		c.name -= grow
	}
	return c
}

// midShorten fits a pod name into w cells by cutting its middle, keeping
// the start and the last dash-separated part (a pod's unique suffix):
// payments-7b4d9c8f6-q9zrt at 18 is payments-7b…-q9zrt.
func midShorten(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	if w < 2 {
		return ansi.Truncate(s, w, "")
	}
	tail := ""
	if i := strings.LastIndexByte(s, '-'); i > 0 {
		tail = s[i:]
	}
	// The start keeps three cells or more: it says what the pod is, the
	// suffix which one.
	if ansi.StringWidth(tail) > w-4 {
		tail = ""
	}
	head := ansi.Truncate(s, w-1-ansi.StringWidth(tail), "")
	return head + "…" + tail
}

// renderListHeader is the list's column headers.
func renderListHeader(st styles, c listCols) string {
	row := strings.Repeat(" ", listLead) + fit("NAME", c.name) + " "
	if c.status > 0 {
		row += fit("STATUS", c.status) + " "
	}
	if c.node > 0 {
		row += fit("NODE", c.node) + " "
	}
	row += fit("STAGE", c.stage) + " " + fmt.Sprintf("%*s", listTimeW, "TIME")
	return fit(st.dim.Render(row), c.w)
}

// renderList draws the pod list rows items[vis[off:off+h]] only, so it
// costs the same with ten or ten thousand pods.
func renderList(st styles, items []timeline.Flow, vis []int, cur, off int, c listCols, h int, focused bool) []string {
	w := c.w
	lines := make([]string, 0, h)
	for i := off; i < len(vis) && len(lines) < h; i++ {
		f := &items[vis[i]]
		icon := verdictIcon[f.Verdict]
		if icon == "" {
			icon = "·"
		}
		vs := st.v(f.Verdict)
		if f.Recovered() {
			icon, vs = "⚠", st.recovered // ran, after trouble the log shows
		}
		row := fit(midShorten(listName(f), c.name), c.name) + " "
		if c.status > 0 {
			row += fit(statusOf(f), c.status) + " "
		}
		if c.node > 0 {
			row += fit(san(f.Node), c.node) + " "
		}
		row += fit(san(stageOf(f)), c.stage) + " " + fmt.Sprintf("%*s", listTimeW, fmtDur(time.Duration(f.Duration)))
		if i == cur {
			line := fit(">"+icon+" "+row, w)
			if st.color {
				line = st.selected.Render(line)
				if !focused {
					line = vs.Render(fit(">"+icon+" "+row, w))
				}
			}
			lines = append(lines, line)
			continue
		}
		lines = append(lines, fit(" "+vs.Render(icon)+" "+row, w))
	}
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return lines
}
