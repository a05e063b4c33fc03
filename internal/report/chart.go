package report

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/check"
	"github.com/podflow/podflow/internal/failure"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// charts lays out a chart per node, each on its own time axis (nodes of
// different runs may be hours apart: one axis would squeeze each to a
// line). rs are every pod, worst first; drawn[i] is rs[i]'s model for the
// first len(drawn). Nodes come in the order of their worst pod.
func charts(rs []ranked, drawn []*Pod) []*Node {
	type group struct {
		node     *Node
		t0, t1   time.Time
		idx      []int // into rs
		notDrawn []int
	}
	byName := map[string]*group{}
	var order []*group
	for i, r := range rs {
		g := byName[r.f.Node]
		if g == nil {
			name := r.f.Node
			if name == "" {
				name = "(node unknown)"
			}
			g = &group{node: &Node{ID: fmt.Sprintf("node-%d", len(order)), Name: text(name, 253)}}
			byName[r.f.Node] = g
			order = append(order, g)
		}
		if g.t0.IsZero() || (!r.f.Start.IsZero() && r.f.Start.Before(g.t0)) {
			g.t0 = r.f.Start
		}
		if e := r.f.End; e.After(g.t1) {
			g.t1 = e
		}
		if i < len(drawn) {
			g.idx = append(g.idx, i)
		} else {
			g.notDrawn = append(g.notDrawn, i)
		}
	}
	var out []*Node
	for _, g := range order {
		n := g.node
		span := g.t1.Sub(g.t0)
		if span <= 0 {
			span = time.Second
		}
		n.SpanMS = span.Milliseconds()
		if n.SpanMS <= 0 {
			n.SpanMS = 1
		}
		n.Span = fmt.Sprintf("%s – %s (%s)", g.t0.UTC().Format("2006-01-02 15:04:05"), g.t1.UTC().Format("15:04:05"), check.FmtDur(span))
		x := func(t time.Time) float64 {
			return math.Round((labelW+float64(t.Sub(g.t0))/float64(span)*chartW)*10) / 10
		}
		ms := func(t time.Time) int64 { return t.Sub(g.t0).Milliseconds() }
		n.Ticks = ticks(span, x, g.t0)
		// Drawn pods by start, so the chart reads left to right.
		sort.SliceStable(g.idx, func(a, b int) bool { return rs[g.idx[a]].f.Start.Before(rs[g.idx[b]].f.Start) })
		healths := map[Health]int{}
		y := top
		for _, i := range g.idx {
			f, p := rs[i].f, drawn[i]
			healths[p.Health]++
			p.Y, p.TextY = y, y+15
			p.Bars = bars(f, f.Stages, y+3, rowH-6, "", x, ms)
			// A long name wraps onto more lines: the row grows.
			y += rowH + lineH*float64(len(p.Label)-1)
			for _, c := range f.Containers {
				row := Row{Label: wrapName(text(c.Name, 253), labelChars-2), TextY: y + 11}
				row.Bars = bars(f, c.Stages, y+2, cRowH-4, "container "+c.Name+" ", x, ms)
				p.Rows = append(p.Rows, row)
				y += cRowH + lineH*float64(len(row.Label)-1)
			}
			p.H = y - p.Y
			y += 4
			n.Pods = append(n.Pods, p)
		}
		for _, i := range g.notDrawn {
			healths[rs[i].health]++
		}
		n.Health = healthCounts(healths)
		n.More = summarise(rs, g.notDrawn)
		n.Width, n.Height = int(labelW+chartW+20), int(y+4)
		out = append(out, n)
	}
	return out
}

// ticks are about eight marks at a round step over span.
func ticks(span time.Duration, x func(time.Time) float64, t0 time.Time) []Tick {
	step := time.Second
	for _, s := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour, 2 * time.Hour, 6 * time.Hour, 12 * time.Hour, 24 * time.Hour} {
		step = s
		if span/s <= 8 {
			break
		}
	}
	var out []Tick
	for o := time.Duration(0); o <= span; o += step {
		out = append(out, Tick{X: x(t0.Add(o)), Label: "+" + o.String()})
	}
	return out
}

// maxMarks bounds the failure marks of a row (a crash loop of a day logs
// thousands of back-offs).
const maxMarks = 50

// bars are the bars of stages that began (pending and skipped ones have
// none), then a mark at each line that shows a failure (a failed attempt,
// a back-off: Status "mark").
func bars(f *timeline.Flow, stages []timeline.Stage, top, h float64, who string, x func(time.Time) float64, ms func(time.Time) int64) []Bar {
	var out, marks []Bar
	for _, s := range stages {
		for _, ev := range s.Evidence {
			if len(marks) < maxMarks && !ev.Time.IsZero() && failure.Line(ev.Text) {
				marks = append(marks, Bar{X: x(ev.Time), Y: top - 2, W: 2, H: h + 4, A: ms(ev.Time), B: ms(ev.Time), Status: "mark",
					Title: sanitize.SanitizeLines(who + s.ID + ": " + check.Trunc(check.EvidenceLine(ev), 500))})
			}
		}
		if s.Start == nil || s.Status == timeline.StatusPending || s.Status == timeline.StatusSkipped {
			continue
		}
		end := f.End
		if s.End != nil {
			end = *s.End
		}
		x0, x1 := x(*s.Start), x(end)
		w := math.Max(x1-x0, 2)
		var t strings.Builder
		fmt.Fprintf(&t, "%s%s: %s, %s", who, s.ID, s.Status, check.FmtDur(time.Duration(s.Duration)))
		if s.Attempts > 0 {
			fmt.Fprintf(&t, ", %d failed attempts", s.Attempts)
		}
		if s.Reason != "" {
			t.WriteString("\n" + check.Trunc(s.Reason, 500))
		}
		for k, ev := range s.Evidence {
			if k == 6 {
				fmt.Fprintf(&t, "\n… %d more", len(s.Evidence)-6)
				break
			}
			t.WriteString("\n" + check.Trunc(check.EvidenceLine(ev), 300))
		}
		status := string(s.Status)
		if s.Status == timeline.StatusDone && s.Attempts > 0 {
			status = "retried" // done, after failures: yellow
		}
		out = append(out, Bar{X: x0, Y: top, W: math.Round(w*10) / 10, H: h, A: ms(*s.Start), B: ms(end), Status: status, Title: sanitize.SanitizeLines(t.String())})
	}
	return append(out, marks...)
}

// summarise says what the pods only counted were: how many, their
// verdicts, and their startups.
func summarise(rs []ranked, idx []int) string {
	if len(idx) == 0 {
		return ""
	}
	verdicts := map[timeline.Verdict]int{}
	var startups []time.Duration
	for _, i := range idx {
		verdicts[rs[i].f.Verdict]++
		if d, ok := check.PodStartup(rs[i].f); ok {
			startups = append(startups, d)
		}
	}
	var parts []string
	for _, v := range timeline.Verdicts {
		if verdicts[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", verdicts[v], v))
		}
	}
	s := fmt.Sprintf("%d more %s not drawn: %s", len(idx), plural(len(idx), "pod")[len(fmt.Sprint(len(idx)))+1:], strings.Join(parts, ", "))
	if len(startups) > 0 {
		sort.Slice(startups, func(a, b int) bool { return startups[a] < startups[b] })
		at := func(p float64) time.Duration { return startups[int(math.Ceil(p*float64(len(startups))))-1] }
		s += fmt.Sprintf("; startup p50 %s, p90 %s, max %s", check.FmtDur(at(0.5)), check.FmtDur(at(0.9)), check.FmtDur(startups[len(startups)-1]))
	}
	return s
}
