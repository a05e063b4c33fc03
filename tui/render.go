package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/progress"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// Renderers are pure: data, styles and a size in, lines out. Every
// log-derived string goes through san before it is measured or styled.

func san(s string) string { return sanitize.Sanitize(s) }

// fit truncates s (which may hold styles) to w cells and pads it to w.
func fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if lipgloss.Width(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if pad := w - lipgloss.Width(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// fmtDur is a duration as every view prints it (timeline.HumanDuration),
// none shorter than 0s.
func fmtDur(d time.Duration) string { return timeline.HumanDuration(max(d, 0)) }

// stageOf is the stage a list row names: where it stalled, else the last
// stage completed.
func stageOf(f *timeline.Flow) string {
	if f.StalledAt != "" {
		if f.ContainerStage != "" {
			return f.StalledAt + "/" + f.ContainerStage
		}
		return f.StalledAt
	}
	return f.Stage
}

// tlRow is one row of the timeline: a pod stage or a container stage.
type tlRow struct {
	label     string
	container string // container name for container stages
	stage     timeline.Stage
	pod       bool
	cycle     []cycleSpan         // a restart row: the container's runs and back-offs
	cont      *timeline.Container // of a restart row
}

// timelineRows lists the pod's stages with each container's stages right
// after the aggregate stage they make up. Skipped stages are left out.
//
// A container that restarted gets a row of its own after its stages: its
// runs and back-offs up to end (restarts.go).
func timelineRows(f *timeline.Flow, runs map[string]run, end time.Time) []tlRow {
	var rows []tlRow
	for _, s := range f.Stages {
		if s.Status == timeline.StatusSkipped {
			continue
		}
		rows = append(rows, tlRow{label: s.ID, stage: s, pod: true})
		typ := ""
		switch s.ID {
		case timeline.StInitContainers:
			typ = timeline.ContainerInit
		case timeline.StContainers:
			typ = timeline.ContainerRegular
		}
		if typ == "" {
			continue
		}
		for i := range f.Containers {
			c := &f.Containers[i]
			if c.Type != typ {
				continue
			}
			for _, cs := range c.Stages {
				if cs.Status == timeline.StatusSkipped {
					continue
				}
				rows = append(rows, tlRow{label: " " + c.Name + "/" + cs.ID, container: c.Name, stage: cs})
			}
			if sp := cycles(c, runs, end); sp != nil {
				from, to := sp[0].from, sp[len(sp)-1].to
				st := timeline.Stage{ID: "restarts", Status: timeline.StatusFailed, Start: &from, End: &to, Duration: timeline.Duration(to.Sub(from))}
				rows = append(rows, tlRow{label: " " + c.Name + "/restarts", container: c.Name, stage: st, cycle: sp, cont: c})
			}
		}
	}
	return rows
}

// stallRow is the index of the row to mark: the stage the flow stalled or
// failed at (inside the container when it says so); for a flow that got
// through, the slowest stage that needed retries. -1 when none.
func stallRow(f *timeline.Flow, rows []tlRow) (int, bool) {
	if f.StalledAt != "" {
		for i, r := range rows {
			if f.Container != "" && r.container == f.Container && r.stage.ID == f.ContainerStage {
				return i, true
			}
		}
		for i, r := range rows {
			if r.pod && r.stage.ID == f.StalledAt {
				return i, true
			}
		}
	}
	best, bestD := -1, timeline.Duration(-1)
	for i, r := range rows {
		if r.pod && (r.stage.Attempts > 0 || r.stage.Reason != "") && r.stage.Duration > bestD {
			best, bestD = i, r.stage.Duration
		}
	}
	return best, false
}

// axis is the visible time window of the timeline.
type axis struct {
	from, to time.Time
	cols     int
}

func (a axis) col(t time.Time) int {
	span := a.to.Sub(a.from)
	if span <= 0 {
		return 0
	}
	return int(float64(t.Sub(a.from)) / float64(span) * float64(a.cols))
}

// window is the axis for zoom z and pan p over [start, end].
func window(start, end time.Time, zoom int, pan time.Duration, cols int) axis {
	total := end.Sub(start)
	if total <= 0 {
		total = time.Second
	}
	if zoom < 1 {
		zoom = 1
	}
	w := total / time.Duration(zoom)
	if pan > total-w {
		pan = total - w
	}
	if pan < 0 {
		pan = 0
	}
	from := start.Add(pan)
	return axis{from: from, to: from.Add(w), cols: cols}
}

const (
	tlLabelW = 18
	tlDurW   = 7
)

// tlLabel is a timeline row's label in its column, cut to leave at least
// one blank before the value beside it ("log-shipper/imagepending" was
// one word).
func tlLabel(label string) string { return fit(san(label), tlLabelW-1) + " " }

// renderTimeline draws one pod's stages on a shared time axis: bars to
// scale, waiting gaps dotted, and the stall marked and labelled with its
// reason. cur is the selected row (-1: none).
func renderTimeline(st styles, f *timeline.Flow, rows []tlRow, ax axis, cur, w, h int, focused bool) []string {
	var lines []string
	barW := ax.cols
	lead := strings.Repeat(" ", 1+tlLabelW+tlDurW+1)
	// Axis: offsets from the pod's start at both ends and the middle.
	tick := func(t time.Time) string { return "+" + fmtDur(t.Sub(f.Start)) }
	axisLine := []rune(strings.Repeat("─", barW))
	left, mid, right := tick(ax.from), tick(ax.from.Add(ax.to.Sub(ax.from)/2)), tick(ax.to)
	lbl := fit(left, barW/2-len(mid)/2) + mid
	if len(left)+len(mid)+len(right)+4 > barW {
		lbl = left // too narrow for three labels that do not run together
	}
	lbl = fit(lbl, barW-len(right)) + right
	lines = append(lines, fit(lead+st.dim.Render(lbl), w), fit(lead+st.dim.Render(string(axisLine)), w))
	mark, stalled := stallRow(f, rows)
	var prevEnd *time.Time
	for i, r := range rows {
		if r.cycle != nil {
			lines = append(lines, fit(renderCycleRow(st, r, ax, i == cur, focused), w))
			continue
		}
		s := r.stage
		bar := make([]rune, barW)
		for k := range bar {
			bar[k] = ' '
		}
		if s.Start != nil && r.pod && prevEnd != nil && s.Start.After(*prevEnd) {
			// Waiting gap between the previous stage's end and this start.
			a, b := ax.col(*prevEnd), ax.col(*s.Start)
			for k := max(a, 0); k < b && k < barW; k++ {
				bar[k] = '·'
			}
		}
		fill := '█'
		switch s.Status {
		case timeline.StatusActive:
			fill = '▒'
		case timeline.StatusStalled, timeline.StatusFailed:
			fill = '▓'
		}
		if s.Start != nil {
			end := *s.Start
			if s.End != nil {
				end = *s.End
			}
			a, b := ax.col(*s.Start), ax.col(end)
			if b <= a {
				b = a + 1
			}
			for k := max(a, 0); k < b && k < barW; k++ {
				bar[k] = fill
			}
		}
		if r.pod && s.End != nil {
			e := *s.End
			prevEnd = &e
		}
		dur := "–"
		switch s.Status {
		case timeline.StatusPending:
			dur = "pending"
		case timeline.StatusUnknown:
			dur = "-v=?"
			if s.Reveal != "" {
				dur = s.Reveal
			}
		default:
			if s.Start != nil {
				dur = fmtDur(time.Duration(s.Duration))
			}
		}
		sel := " "
		if i == cur {
			sel = "›"
		}
		labelTxt := tlLabel(r.label)
		durTxt := fmt.Sprintf("%*s", tlDurW, ansi.Truncate(dur, tlDurW, "…"))
		barTxt := string(bar)
		var line string
		if i == cur && focused && st.color {
			line = st.selected.Render(sel+labelTxt+durTxt) + " " + st.st(s.Status).Render(barTxt)
		} else if i == cur && focused {
			line = ">" + labelTxt + durTxt + " " + barTxt
		} else {
			line = sel + st.st(s.Status).Render(labelTxt) + durTxt + " " + st.st(s.Status).Render(barTxt)
		}
		lines = append(lines, fit(line, w))
		if i == mark {
			word := "WAITING" // the log ends before the stage could be judged
			switch {
			case s.Status == timeline.StatusFailed:
				word = "FAILED"
			case !stalled:
				word = "SLOW"
			case s.Status == timeline.StatusStalled || f.Verdict == timeline.VerdictStalled:
				word = "STALLED"
			}
			txt := fmt.Sprintf("  ⚠ %s %s", word, fmtDur(time.Duration(s.Duration)))
			if stalled && f.Waited > 0 {
				txt = fmt.Sprintf("  ⚠ %s %s", word, fmtDur(time.Duration(f.Waited)))
			}
			if s.Attempts > 0 {
				txt += fmt.Sprintf(", %d failed attempts", s.Attempts)
			}
			reason := s.Reason
			if reason == "" {
				reason = f.Reason
			}
			if reason != "" {
				txt += ": " + san(reason)
			}
			lines = append(lines, fit(st.stall.Render(fit(txt, w)), w))
		}
	}
	if len(rows) == 0 {
		lines = append(lines, fit(" no stages seen yet", w))
	}
	return lines
}

// renderCycleRow draws a restart row: each run █, each back-off ░, and
// the restarts in the duration column.
func renderCycleRow(st styles, r tlRow, ax axis, cur, focused bool) string {
	bar := []rune(strings.Repeat(" ", ax.cols))
	for _, sp := range r.cycle {
		fill := '█'
		if sp.backOff {
			fill = '░'
		}
		a, b := ax.col(sp.from), ax.col(sp.to)
		if b <= a {
			b = a + 1
		}
		for k := max(a, 0); k < b && k < ax.cols; k++ {
			bar[k] = fill
		}
	}
	sel := " "
	if cur {
		sel = "›"
	}
	label := tlLabel(r.label)
	dur := fmt.Sprintf("%*s", tlDurW, fmt.Sprintf("↻%d", r.cont.Restarts))
	if cur && focused && st.color {
		return st.selected.Render(sel+label+dur) + " " + st.stall.Render(string(bar))
	}
	if cur && focused {
		sel = ">"
	}
	return sel + st.stall.Render(label) + dur + " " + st.stall.Render(string(bar))
}

// renderDetail draws the diagnosis and the evidence of the selected stage.
func renderDetail(st styles, f *timeline.Flow, row *tlRow, w int) []string {
	var out []string
	wrap := func(s string, style lipgloss.Style) {
		for _, l := range strings.Split(ansi.Wordwrap(s, w-1, " "), "\n") {
			out = append(out, fit(" "+style.Render(l), w))
		}
	}
	head := fmt.Sprintf("%s  %s  %s on %s", verdictIcon[f.Verdict], f.Verdict, san(f.Pod.Key()), san(f.Node))
	out = append(out, fit(" "+st.v(f.Verdict).Render(head), w))
	if f.Diagnosis != "" {
		wrap(san(f.Diagnosis), lipgloss.NewStyle())
	}
	if f.WaitingOn != "" {
		wrap("Waiting on "+san(f.WaitingOn), st.warn)
	}
	if len(f.Findings) > 0 {
		wrap("Node findings: "+san(strings.Join(f.Findings, ", ")), st.warn)
	}
	if row != nil && row.cycle != nil {
		out = append(out, fit(" "+st.title.Render("Restarts"), w))
		wrap(cyclesText(row.cont, row.cycle), st.stall)
		out = append(out, fit(" "+st.dim.Render("█ run  ░ back-off   enter: all the pod's lines"), w))
		return out
	}
	if row != nil {
		s := row.stage
		t := fmt.Sprintf("Stage %s: %s", san(strings.TrimSpace(row.label)), s.Status)
		if s.Start != nil {
			t += " " + fmtDur(time.Duration(s.Duration))
		}
		if s.Attempts > 0 {
			t += fmt.Sprintf(", %d failed attempts", s.Attempts)
		}
		out = append(out, fit(" "+st.title.Render(t), w))
		if s.Reason != "" {
			wrap(san(s.Reason), st.stall)
		}
		ev := stageEvidence(f, row)
		if len(ev) == 0 {
			out = append(out, fit(" "+st.dim.Render("no evidence lines for this stage"), w))
		}
		for _, e := range ev {
			ts := ""
			if !e.Time.IsZero() {
				ts = e.Time.Format("15:04:05.000")
			}
			out = append(out, fit(" "+st.dim.Render(fmt.Sprintf("%s:%d %s", san(shortInput(e.Input)), e.Line, ts))+" "+san(e.Text), w))
		}
		out = append(out, fit(" "+st.dim.Render("enter: raw lines"), w))
	}
	return out
}

func shortInput(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// stageEvidence is the evidence of a row; an aggregate stage without its
// own takes its containers'.
func stageEvidence(f *timeline.Flow, row *tlRow) []timeline.Evidence {
	if len(row.stage.Evidence) > 0 || !row.pod {
		return row.stage.Evidence
	}
	typ := ""
	switch row.stage.ID {
	case timeline.StInitContainers:
		typ = timeline.ContainerInit
	case timeline.StContainers:
		typ = timeline.ContainerRegular
	default:
		return nil
	}
	var ev []timeline.Evidence
	for _, c := range f.Containers {
		if c.Type == typ {
			for _, s := range c.Stages {
				ev = append(ev, s.Evidence...)
			}
		}
	}
	sort.SliceStable(ev, func(i, j int) bool { return ev[i].Time.Before(ev[j].Time) })
	return ev
}

// renderNode draws one node's summary and findings.
func renderNode(st styles, fl *timeline.FlowList, n timeline.Node, w int) []string {
	var out []string
	add := func(s string) { out = append(out, fit(" "+s, w)) }
	add(st.title.Render("Node " + san(n.Name)))
	if n.KubeletVersion != "" {
		add("kubelet " + san(n.KubeletVersion) + fmt.Sprintf("  -v=%d", n.Verbosity))
	}
	if !n.Start.IsZero() {
		add(fmt.Sprintf("log %s → %s (%s)", n.Start.Format("01-02 15:04:05"), n.End.Format("15:04:05"), fmtDur(n.End.Sub(n.Start))))
	}
	rs := fmt.Sprintf("kubelet restarts: %d", n.Restarts)
	if n.Restarts > 0 {
		rs = st.warn.Render(rs)
	}
	add(rs)
	if n.PLEGHealthy {
		add("PLEG: healthy")
	} else {
		add(st.stall.Render("PLEG: unhealthy"))
	}
	var vs []string
	for _, v := range timeline.Verdicts {
		if c := n.Pods[v]; c > 0 {
			vs = append(vs, st.v(v).Render(fmt.Sprintf("%s %d", v, c)))
		}
	}
	add("pods: " + strings.Join(vs, "  "))
	add("")
	add(st.title.Render("Findings"))
	found := 0
	for _, fd := range fl.Findings {
		if fd.Node != n.Name {
			continue
		}
		found++
		t := fmt.Sprintf("%s %s ×%d", fd.Time.Format("15:04:05"), san(fd.Kind), fd.Count)
		add(st.warn.Render(t) + " " + san(fd.Message))
		if len(fd.Pods) > 0 {
			var ps []string
			for _, p := range fd.Pods {
				ps = append(ps, san(p.Key()))
			}
			add(st.dim.Render("  pods in flight: " + strings.Join(ps, ", ")))
		}
	}
	if found == 0 {
		add(st.dim.Render("none"))
	}
	return out
}

// renderProgress is the loading bar (bubbles/progress) of w cells for read
// of total bytes; without colour it is plain characters.
func renderProgress(st styles, read, total int64, w int) string {
	if total <= 0 || w < 10 {
		return ""
	}
	p := min(max(float64(read)/float64(total), 0), 1)
	opts := []progress.Option{progress.WithWidth(w)}
	if !st.color {
		opts = append(opts, progress.WithFillCharacters('#', '.'))
	}
	bar := progress.New(opts...).ViewAs(p)
	if !st.color {
		bar = ansi.Strip(bar)
	}
	return bar
}
