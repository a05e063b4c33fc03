package cmd

// The describe pod sections' rendering: stages, containers, events,
// startup, findings and evidence.

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

const barWidth = 20

// bar draws d to scale of total, width cells at most.
func bar(d, total time.Duration, width int) string {
	if total <= 0 || d <= 0 || width <= 0 {
		return ""
	}
	n := int(float64(d)/float64(total)*float64(width) + 0.5)
	if n < 1 {
		n = 1
	}
	if n > width {
		n = width
	}
	return strings.Repeat("█", n)
}

// stageEnd is a stage's end, or the flow's end for stages still open.
func (d *describer) stageEnd(s *timeline.Stage) time.Time { return stageEnd(d.f, s) }

func (d *describer) stages(stages []timeline.Stage, indent int, gaps bool) {
	f := d.f
	total := time.Duration(f.Duration)
	t := &Table{Headers: []string{"STAGE", "START", "DURATION", "STATUS", "", "NOTE"}, Indent: indent, Flex: 5, MaxWidth: d.width}
	// On a narrow terminal (80 columns) the clock time of each start
	// and most of the bar give way, so that the table fits and NOTE
	// keeps some room; the offset from the start stays.
	barW, clockTimes := barWidth, true
	if d.width > 0 && d.width < 110 {
		barW, clockTimes = 6, false
	}
	var colors []string
	var prevEnd *time.Time
	for i := range stages {
		s := &stages[i]
		if s.Start == nil {
			status := string(s.Status)
			if s.Status == timeline.StatusUnknown && s.Reveal != "" {
				status += " (" + sanitize.OneLine(s.Reveal) + " shows it)"
			}
			t.Rows = append(t.Rows, []string{s.ID, "-", "-", status, "", ""})
			colors = append(colors, statusColor(s.Status))
			continue
		}
		if gaps && prevEnd != nil {
			if gap := s.Start.Sub(*prevEnd); gap > 0 {
				t.Rows = append(t.Rows, []string{"  (waiting " + humanDuration(gap) + ")", "", "", "", "", ""})
				colors = append(colors, ansiGrey)
			}
		}
		dur := time.Duration(s.Duration)
		if s.End == nil && dur == 0 {
			dur = d.stageEnd(s).Sub(*s.Start)
		}
		var note []string
		if s.Attempts > 0 {
			note = append(note, fmt.Sprintf("%d failed attempts", s.Attempts))
			if s.Attempts == 1 {
				note[0] = "1 failed attempt"
			}
		}
		if s.Reason != "" {
			note = append(note, sanitize.OneLine(s.Reason))
		}
		start := relDuration(s.Start.Sub(f.Start))
		if clockTimes {
			start += " (" + clock(*s.Start) + ")"
		}
		durCell := humanDuration(dur)
		if s.Status == timeline.StatusPending {
			// Begun in name only: it has taken no time the log shows.
			durCell, dur = "-", 0
		}
		t.Rows = append(t.Rows, []string{s.ID, start, durCell, string(s.Status), bar(dur, total, barW), strings.Join(note, ": ")})
		colors = append(colors, statusColor(s.Status))
		if s.End != nil {
			e := *s.End
			prevEnd = &e
		}
	}
	t.Color = func(row, col int) string {
		if col == 0 && colors[row] == ansiGrey && t.Rows[row][1] == "" {
			return ansiGrey
		}
		if col == 3 || col == 4 {
			return colors[row]
		}
		return ""
	}
	t.Print(d.w, d.color)
}

func (d *describer) containers() {
	f := d.f
	d.section("Containers")
	if len(f.Containers) == 0 {
		fmt.Fprintln(d.w, "  <none>")
		return
	}
	for i := range f.Containers {
		c := &f.Containers[i]
		fmt.Fprintf(d.w, "  %s (%s):\n", sanitize.OneLine(c.Name), dash(c.Type))
		kv := func(k, v string) { fmt.Fprintf(d.w, "    %-16s%s\n", k+":", v) }
		kv("Image", dash(sanitize.OneLine(c.Image)))
		var ids []string
		for _, id := range c.IDs {
			ids = append(ids, shortID(sanitize.OneLine(id)))
		}
		idLines := []string{dash(strings.Join(ids, ", "))}
		if d.width > 0 {
			// Wrapped whole (never an ID cut), to the terminal's width.
			idLines = wrap(idLines[0], max(d.width-20, 14))
		}
		kv("IDs", idLines[0])
		for _, l := range idLines[1:] {
			fmt.Fprintf(d.w, "    %-16s%s\n", "", l)
		}
		state := dash(c.State)
		if c.Reason != "" {
			state += " (" + sanitize.OneLine(c.Reason) + ")"
		}
		kv("State", state)
		kv("Ready", strconv.FormatBool(c.Ready))
		r := strconv.Itoa(c.Restarts)
		if c.BackOffs > 0 {
			r += fmt.Sprintf(" (%d back-offs)", c.BackOffs)
		}
		kv("Restarts", r)
		if c.PullBackOffs > 0 {
			kv("Pull Back-offs", strconv.Itoa(c.PullBackOffs))
		}
		if c.ExitCode != nil {
			kv("Exit Code", strconv.Itoa(*c.ExitCode))
		}
		fmt.Fprintf(d.w, "    Stages:\n")
		d.stages(c.Stages, 6, false)
	}
}

// shortID shortens a 64-hex runtime ID to 13 characters, as crictl does.
func shortID(id string) string {
	if len(id) == 64 {
		return id[:13]
	}
	return id
}

var hexID = regexp.MustCompile(`[0-9a-f]{64}`)

type eventGroup struct {
	typ, reason, msg string
	first, last      time.Time
	count            int
}

func (d *describer) events() {
	f := d.f
	d.section("Events")
	if len(f.Events) == 0 {
		fmt.Fprintln(d.w, "  <none>")
		return
	}
	// Group like kubectl: same type, reason and message (runtime IDs masked).
	var groups []*eventGroup
	idx := map[string]*eventGroup{}
	for _, e := range f.Events {
		msg := sanitize.OneLine(e.Message)
		key := e.Type + "\x00" + e.Reason + "\x00" + hexID.ReplaceAllString(msg, "…")
		n := e.Count
		if n < 1 {
			n = 1
		}
		last := e.Time
		if !e.LastTime.IsZero() {
			last = e.LastTime // the event's own repeats (Count > 1)
		}
		if g, ok := idx[key]; ok {
			g.count += n
			if last.After(g.last) {
				g.last = last
			}
			g.msg = msg
			continue
		}
		g := &eventGroup{typ: e.Type, reason: e.Reason, msg: msg, first: e.Time, last: last, count: n}
		idx[key] = g
		groups = append(groups, g)
	}
	// Ages as kubectl describe prints them: the time since the event was
	// last seen, and for a repeated one since it was first seen, where
	// "now" is the end of the log.
	now := d.logEnd()
	t := &Table{Headers: []string{"TYPE", "REASON", "AGE", "MESSAGE"}, Indent: 2, Flex: 3, MaxWidth: d.width}
	for _, g := range groups {
		age := kubectlAge(now.Sub(g.last))
		if g.count > 1 {
			age += fmt.Sprintf(" (x%d over %s)", g.count, kubectlAge(now.Sub(g.first)))
		}
		t.Rows = append(t.Rows, []string{dash(sanitize.OneLine(g.typ)), dash(sanitize.OneLine(g.reason)), age, g.msg})
	}
	t.Color = func(row, col int) string {
		if col == 0 && groups[row].typ == "Warning" {
			return ansiYellow
		}
		return ""
	}
	t.Print(d.w, d.color)
}

// logEnd is the end of the log the pod was read from, kubectl's "now"
// for ages: the last record of the inputs, else the pod's own end.
func (d *describer) logEnd() time.Time {
	end := d.f.End
	if d.a != nil && d.a.Flows != nil && d.a.Flows.Summary.End.After(end) {
		end = d.a.Flows.Summary.End
	}
	return end
}

// kubectlAge is a duration as kubectl prints ages (HumanDuration of
// k8s.io/apimachinery/pkg/util/duration): whole seconds up to 2 minutes,
// then minutes and seconds up to 10 minutes, minutes up to 3 hours,
// hours and minutes up to 8 hours, then hours, days, years. An age a
// little below zero (clocks) is 0s.
func kubectlAge(d time.Duration) string {
	if d < 0 {
		return "0s"
	}
	seconds := int(d / time.Second)
	if seconds < 120 {
		return fmt.Sprintf("%ds", seconds)
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		if s := seconds % 60; s != 0 {
			return fmt.Sprintf("%dm%ds", minutes, s)
		}
		return fmt.Sprintf("%dm", minutes)
	}
	if minutes < 60*3 {
		return fmt.Sprintf("%dm", minutes)
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		if m := minutes % 60; m != 0 {
			return fmt.Sprintf("%dh%dm", hours, m)
		}
		return fmt.Sprintf("%dh", hours)
	case hours < 48:
		return fmt.Sprintf("%dh", hours)
	case hours < 24*8:
		if h := hours % 24; h != 0 {
			return fmt.Sprintf("%dd%dh", hours/24, h)
		}
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*2:
		return fmt.Sprintf("%dd", hours/24)
	case hours < 24*365*8:
		if dy := (hours / 24) % 365; dy != 0 {
			return fmt.Sprintf("%dy%dd", hours/24/365, dy)
		}
		return fmt.Sprintf("%dy", hours/24/365)
	}
	return fmt.Sprintf("%dy", hours/24/365)
}

func durPtr(p *timeline.Duration) string {
	if p == nil {
		return "-"
	}
	return humanDuration(time.Duration(*p))
}

func (d *describer) startup() {
	s := d.f.Startup
	d.section("Startup")
	if s == nil {
		fmt.Fprintln(d.w, "  <none> (no \"Observed pod startup duration\" line for this pod)")
		return
	}
	t := &Table{Headers: []string{"", "KUBELET", "PODFLOW"}, Indent: 2, Flex: -1}
	t.Rows = append(t.Rows, []string{"E2E (podStartE2EDuration)", durPtr(s.KubeletE2E), durPtr(s.PodflowE2E)})
	t.Rows = append(t.Rows, []string{"SLO (podStartSLOduration)", durPtr(s.KubeletSLO), durPtr(s.PodflowSLO)})
	t.Print(d.w, false)
	if s.Created != nil {
		fmt.Fprintf(d.w, "  %-18s%s\n", "Created:", stamp(*s.Created))
	}
	if s.ObservedRunning != nil {
		fmt.Fprintf(d.w, "  %-18s%s\n", "Observed Running:", stamp(*s.ObservedRunning))
	}
}

func (d *describer) findings() {
	f := d.f
	d.section("Findings")
	if len(f.Findings) == 0 {
		fmt.Fprintln(d.w, "  <none>")
		return
	}
	byID := map[string]*timeline.Finding{}
	for i := range d.a.Flows.Findings {
		byID[d.a.Flows.Findings[i].ID] = &d.a.Flows.Findings[i]
	}
	for _, id := range f.Findings {
		fd, ok := byID[id]
		if !ok {
			fmt.Fprintf(d.w, "  %s\n", sanitize.OneLine(id))
			continue
		}
		n := ""
		if fd.Count > 1 {
			n = fmt.Sprintf(" (x%d)", fd.Count)
		}
		fmt.Fprintf(d.w, "  %s  %s%s  %s\n", fd.Kind, relDuration(fd.Time.Sub(f.Start)), n, sanitize.OneLine(fd.Message))
	}
}

// evidenceLines collects the flow's evidence: the lines that prove the
// verdict, then those of failed, stalled or retried stages, once each.
func (d *describer) evidenceLines() []timeline.Evidence {
	f := d.f
	var out []timeline.Evidence
	seen := map[string]bool{}
	add := func(evs []timeline.Evidence) {
		for _, e := range evs {
			k := e.Input + ":" + strconv.FormatInt(e.Line, 10)
			if !seen[k] {
				seen[k] = true
				out = append(out, e)
			}
		}
	}
	add(f.Evidence)
	interesting := func(s *timeline.Stage) bool {
		return s.Status == timeline.StatusFailed || s.Status == timeline.StatusStalled || s.Attempts > 0
	}
	for i := range f.Stages {
		if interesting(&f.Stages[i]) {
			add(f.Stages[i].Evidence)
		}
	}
	for _, c := range f.Containers {
		for i := range c.Stages {
			if interesting(&c.Stages[i]) {
				add(c.Stages[i].Evidence)
			}
		}
	}
	if f.Startup != nil && f.Startup.Evidence != nil {
		add([]timeline.Evidence{*f.Startup.Evidence})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Time.Equal(out[j].Time) {
			return out[i].Time.Before(out[j].Time)
		}
		return out[i].Input == out[j].Input && out[i].Line < out[j].Line
	})
	return out
}

func (d *describer) evidence() {
	d.section("Evidence")
	d.evidenceList(d.evidenceLines(), ", or 'podflow lines pod "+sanitize.OneLine(d.f.Pod.Name)+"'")
}

// evidenceList prints evidence lines read back from the inputs, at most
// maxEvidence of them; more says where the others are.
func (d *describer) evidenceList(evs []timeline.Evidence, more string) {
	if len(evs) == 0 {
		fmt.Fprintln(d.w, "  <none>")
		return
	}
	shown := evs
	if d.maxEvidence >= 0 && len(shown) > d.maxEvidence {
		shown = shown[:d.maxEvidence]
	}
	raws, errs := d.a.ReadRaws(shown)
	for i, e := range shown {
		pos := sanitize.OneLine(e.Input) + ":" + strconv.FormatInt(e.Line, 10)
		raw, err := raws[i], errs[i]
		text := ""
		if err != nil {
			text = "(" + sanitize.OneLine(e.Text) + ")"
		} else {
			first, rest, more := strings.Cut(string(raw), "\n")
			text = sanitize.OneLine(first)
			if more {
				text += fmt.Sprintf(" (+%d lines)", strings.Count(rest, "\n")+1)
			}
		}
		room := 1000 // not a terminal: long lines are cut, not wrapped
		if d.width > 0 {
			room = max(d.width-textWidth(pos)-4, 40)
		}
		fmt.Fprintf(d.w, "  %s  %s\n", paint(d.color, ansiGrey, pos), truncate(text, room))
	}
	if n := len(evs) - len(shown); n > 0 {
		fmt.Fprintf(d.w, "  … %d more (--evidence %d%s)\n", n, len(evs), more)
	}
}
