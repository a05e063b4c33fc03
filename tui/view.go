package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/podflow/podflow/internal/sanitize"
)

// View lays out header, status line, body and help bar.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

func (m Model) render() string {
	w := m.w
	d := m.dims()
	lines := make([]string, 0, m.h)
	lines = append(lines, fit(m.st.header.Render(m.headerText()), w))
	lines = append(lines, fit(m.statusText(), w))
	var body []string
	switch {
	case m.err != nil:
		body = []string{fit(m.st.stall.Render("podflow: "+sanitize.Sanitize(m.opts.Redact.Text(m.err.Error()))), w)}
	case m.showHelp:
		body = append(body, fit(m.st.title.Render(" Keys (any key closes)"), w))
		for _, l := range m.fullHelp(w - 1) {
			body = append(body, fit(" "+l, w))
		}
	case m.pageOpen:
		body = append(body, fit(m.st.focus.Render(" "+m.pg.title)+m.st.dim.Render(m.pageStatus()), w))
		for _, l := range strings.Split(m.pg.vp.View(), "\n") {
			body = append(body, fit(l, w))
		}
	default:
		body = m.panes(d)
	}
	for len(body) < d.bodyH {
		body = append(body, strings.Repeat(" ", w))
	}
	lines = append(lines, body[:d.bodyH]...)
	switch {
	case m.pageOpen && m.pg.searching:
		lines = append(lines, fit(m.st.focus.Render("/")+sanitize.Sanitize(m.pg.query)+"█  "+m.st.dim.Render("enter finds · esc clears"), w))
	case m.pageOpen:
		lines = append(lines, fit(m.help.ShortHelpView(keyMap{page: true}.ShortHelp()), w))
	case m.filtering:
		lines = append(lines, fit(m.st.focus.Render("/")+sanitize.Sanitize(m.filter)+"█  "+m.st.dim.Render("enter keeps · esc clears"), w))
	default:
		lines = append(lines, fit(m.help.ShortHelpView(m.keys.ShortHelp()), w))
	}
	// Every value was sanitized where it was drawn; Defuse is the screen's
	// guard against GitHub workflow commands, which wrapping can bring to a
	// line start (the screen may end up in a CI log, e.g. a recorded
	// session).
	return sanitize.Defuse(strings.Join(lines, "\n"))
}

func (m Model) headerText() string {
	inputs := m.all.Summary.Inputs
	in := ""
	if len(inputs) == 1 {
		in = shortInput(inputs[0])
	} else if len(inputs) > 1 {
		in = fmt.Sprintf("%d inputs", len(inputs))
	}
	parts := []string{"podflow", sanitize.Sanitize(in), fmt.Sprintf("%d/%d pods", len(m.vis), len(m.items))}
	parts = append(parts, "sort:"+sortModes[m.sortMode])
	if vf := m.vFilter; vf != "" {
		parts = append(parts, "verdict:"+vf)
	}
	if m.filter != "" {
		parts = append(parts, "filter:"+sanitize.Sanitize(m.filter))
	}
	if m.node >= 0 && m.node < len(m.all.Nodes) {
		parts = append(parts, "node:"+sanitize.Sanitize(m.all.Nodes[m.node].Name))
	}
	return " " + strings.Join(parts, " · ")
}

func (m Model) statusText() string {
	switch {
	case m.loading && m.total > 0:
		return " loading " + renderProgress(m.st, m.read, m.total, min(40, max(m.w/3, 12))) + fmt.Sprintf("  %d records", m.records+m.declined)
	case m.loading:
		return fmt.Sprintf(" reading… %d records", m.records+m.declined)
	case m.opts.Replay && !m.clock.IsZero():
		state := "▶ playing"
		if m.paused {
			state = "⏸ paused"
		}
		return fmt.Sprintf(" replay %s %s  +%s/%s  %gx   p pause · . step · </> speed", state, m.clock.Format("15:04:05.000"), fmtDur(m.clock.Sub(m.rStart)), fmtDur(m.rEnd.Sub(m.rStart)), m.speed)
	case m.opts.Load.Follow:
		s := fmt.Sprintf(" following… %d records", m.records+m.declined)
		if n := len(m.notes); n > 0 {
			s += " · " + sanitize.Sanitize(m.opts.Redact.Text(m.notes[n-1].Error()))
		}
		return m.st.dim.Render(s)
	case len(m.warnings) > 0:
		return m.st.warn.Render(" warning: " + sanitize.Sanitize(m.opts.Redact.Text(m.warnings[0].Error())))
	case len(m.notes) > 0:
		return m.st.dim.Render(" note: " + sanitize.Sanitize(m.opts.Redact.Text(m.notes[0].Error())))
	}
	return m.st.dim.Render(fmt.Sprintf(" %d records", m.records+m.declined))
}

func (m Model) paneTitle(p pane, s string, w int) string {
	if m.focus == p {
		return fit(m.st.focus.Render("▸ "+s), w)
	}
	return fit(m.st.title.Render("  "+s), w)
}

// panes joins the list with the timeline and detail (or node) column.
func (m Model) panes(d dims) []string {
	left := []string{m.paneTitle(paneList, fmt.Sprintf("PODS %d/%d", min(m.cur+1, len(m.vis)), len(m.vis)), d.listW)}
	cols := layoutList(m.nat, d.listW)
	left = append(left, renderListHeader(m.st, cols))
	left = append(left, renderList(m.st, m.items, m.vis, m.cur, m.off, cols, d.bodyH-2, m.focus == paneList)...)
	if d.rightW < 20 {
		return left
	}
	right := m.rightColumn(d)
	sep := m.st.dim.Render("│")
	out := make([]string, d.bodyH)
	for i := range out {
		l, r := strings.Repeat(" ", d.listW), strings.Repeat(" ", d.rightW)
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out[i] = l + sep + r
	}
	return out
}

func (m Model) rightColumn(d dims) []string {
	w := d.rightW
	if m.node >= 0 && m.node < len(m.all.Nodes) {
		out := []string{m.paneTitle(paneDetail, "NODE (o: next node, esc: close)", w)}
		return append(out, renderNode(m.st, m.all, m.all.Nodes[m.node], w)...)
	}
	f := m.selected()
	if f == nil {
		msg := " no pods"
		if m.loading {
			msg = " loading…"
		}
		return []string{m.paneTitle(paneTimeline, "TIMELINE", w), fit(msg, w)}
	}
	rows := m.rows(f)
	ax := window(f.Start, m.flowEnd(f), m.zoom, m.pan, max(w-(1+tlLabelW+tlDurW+1), 4))
	title := fmt.Sprintf("TIMELINE %s", sanitize.Sanitize(f.Pod.Key()))
	if m.zoom > 1 {
		title += fmt.Sprintf("  zoom %dx", m.zoom)
	}
	tl := renderTimeline(m.st, f, rows, ax, m.rowCur, w, d.tlH-1, m.focus == paneTimeline)
	// Keep the selected row in view when the timeline is taller than its pane.
	if over := len(tl) - (d.tlH - 1); over > 0 {
		skip := min(max(m.rowCur+2+2-(d.tlH-1)+1, 0), over)
		tl = append(tl[:2:2], tl[2+skip:]...)
	}
	out := []string{m.paneTitle(paneTimeline, title, w)}
	out = append(out, tl...)
	for len(out) < d.tlH {
		out = append(out, strings.Repeat(" ", w))
	}
	out = out[:d.tlH]
	var row *tlRow
	if m.rowCur >= 0 && m.rowCur < len(rows) {
		row = &rows[m.rowCur]
	}
	det := renderDetail(m.st, f, row, w)
	off := min(m.detailOff, max(len(det)-(d.detailH-1), 0))
	out = append(out, m.paneTitle(paneDetail, "DETAIL", w))
	out = append(out, det[off:]...)
	return out
}

var _ = time.Second

// fullHelp is every key in columns; when they do not fit in w, in two
// rows of columns.
func (m Model) fullHelp(w int) []string {
	h := m.help
	h.SetWidth(0)
	cols := m.keys.FullHelp()
	lines := strings.Split(h.FullHelpView(cols), "\n")
	fits := func(ls []string) bool {
		for _, l := range ls {
			if lipgloss.Width(l) > w {
				return false
			}
		}
		return true
	}
	if fits(lines) || len(cols) < 2 {
		return lines
	}
	k := (len(cols) + 1) / 2
	top := strings.Split(h.FullHelpView(cols[:k]), "\n")
	return append(append(top, ""), strings.Split(h.FullHelpView(cols[k:]), "\n")...)
}
