package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/check"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

//go:embed report.html.tmpl
var templateText string

var tmpl = template.Must(template.New("report").Parse(templateText))

// Input is what a report is built from.
type Input struct {
	Flows *timeline.FlowList // the whole analysis: summary, findings, nodes
	Items []timeline.Flow    // the pods to show (Flows.Items, or those selected)
	// ReadRaws reads evidence lines back from the inputs, in the order
	// given (cmd's Analysis.ReadRaws); nil shows no raw lines.
	ReadRaws func([]timeline.Evidence) ([][]byte, []error)
	Version  string // podflow's, for the footer
}

func (in Input) readRaws(evs []timeline.Evidence) ([][]byte, []error) {
	if in.ReadRaws == nil {
		return make([][]byte, len(evs)), make([]error, len(evs))
	}
	return in.ReadRaws(evs)
}

// Write renders d as one self-contained HTML page.
func Write(w io.Writer, d Data) error {
	if err := tmpl.Execute(w, d); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	return nil
}

// Data is the report's model: everything the template shows, computed.
type Data struct {
	Title    string
	Span     string
	Version  string
	Summary  timeline.Summary
	Counts   []Count
	Worst    string
	Findings []string
	Pods     []Pod
	Ticks    []Tick
	Width    int
	Height   int
}

type Count struct {
	Verdict timeline.Verdict
	N       int
}

type Tick struct {
	X     float64
	Label string
}

type Bar struct {
	X, Y, W, H float64
	Status     string
	Title      string
}

type Row struct {
	Label string
	TextY float64
	Bars  []Bar
}

type Evidence struct {
	Loc, Text, Raw string
}

type Stage struct {
	Name, Status, Duration, Reason string
}

type Pod struct {
	ID, Key, Label string
	Verdict        timeline.Verdict
	StalledAt      string
	Diagnosis      string
	Startup        string
	Open           bool
	Y, H, TextY    float64
	Bars           []Bar
	Rows           []Row
	Evidence       []Evidence
	Stages         []Stage
}

const (
	labelW = 300.0
	chartW = 900.0
	rowH   = 22.0
	cRowH  = 14.0
	top    = 22.0
)

// text makes log text one safe line for the template (html/template
// escapes it; this removes terminal controls and bounds its length).
func text(s string, n int) string { return check.Trunc(sanitize.Sanitize(s), n) }

func Build(in Input) Data {
	fl, items := in.Flows, in.Items
	d := Data{Title: text(strings.Join(fl.Summary.Inputs, ", "), 300), Version: in.Version, Summary: fl.Summary, Width: int(labelW + chartW + 20)}
	d.Summary.KubeletVersion = text(d.Summary.KubeletVersion, 40)
	counts := map[timeline.Verdict]int{}
	var t0, t1 time.Time
	for _, f := range items {
		counts[f.Verdict]++
		if t0.IsZero() || (!f.Start.IsZero() && f.Start.Before(t0)) {
			t0 = f.Start
		}
		if e := flowEnd(&f); e.After(t1) {
			t1 = e
		}
	}
	for _, v := range timeline.Verdicts {
		if counts[v] > 0 {
			d.Counts = append(d.Counts, Count{v, counts[v]})
		}
	}
	if !t0.IsZero() {
		d.Span = fmt.Sprintf("%s – %s (%s)", t0.UTC().Format("2006-01-02 15:04:05"), t1.UTC().Format("15:04:05"), check.FmtDur(t1.Sub(t0)))
	}
	for _, fd := range fl.Findings {
		d.Findings = append(d.Findings, text(fmt.Sprintf("%s on %s at %s: %s", fd.Kind, fd.Node, fd.Time.UTC().Format("15:04:05"), fd.Message), 400))
	}
	span := t1.Sub(t0)
	if span <= 0 {
		span = time.Second
	}
	x := func(t time.Time) float64 {
		return math.Round((labelW+float64(t.Sub(t0))/float64(span)*chartW)*10) / 10
	}
	// Axis ticks: about eight, at a round step.
	step := time.Second
	for _, s := range []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second, time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour} {
		step = s
		if span/s <= 8 {
			break
		}
	}
	for o := time.Duration(0); o <= span; o += step {
		d.Ticks = append(d.Ticks, Tick{X: x(t0.Add(o)), Label: "+" + o.String()})
	}

	ranked := append([]timeline.Flow(nil), items...)
	rank := func(v timeline.Verdict) int {
		for i, w := range timeline.Verdicts {
			if w == v {
				return i
			}
		}
		return len(timeline.Verdicts)
	}
	// Worst first, then by start.
	for i := 1; i < len(ranked); i++ {
		for j := i; j > 0; j-- {
			a, b := &ranked[j-1], &ranked[j]
			if rank(a.Verdict) > rank(b.Verdict) || (rank(a.Verdict) == rank(b.Verdict) && a.Start.After(b.Start)) {
				*a, *b = *b, *a
				continue
			}
			break
		}
	}
	if len(ranked) > 0 && ranked[0].Diagnosis != "" && rank(ranked[0].Verdict) < rank(timeline.VerdictRunning) {
		d.Worst = text(ranked[0].Pod.Key()+": "+ranked[0].Diagnosis, 600)
	}

	// Every pod's evidence lines, read back at once, in the inputs' order.
	var evs []timeline.Evidence
	for i := range ranked {
		evs = append(evs, ranked[i].Evidence...)
	}
	raws, errs := in.readRaws(evs)
	y := top
	for i := range ranked {
		f := &ranked[i]
		p := Pod{ID: fmt.Sprintf("pod-%d", i), Key: text(f.Pod.Key(), 253), Verdict: f.Verdict, StalledAt: text(f.StalledAt, 64),
			Diagnosis: text(f.Diagnosis, 2000), Startup: "-", Y: y}
		p.Label = check.Trunc(p.Key, 40)
		p.Open = rank(f.Verdict) < rank(timeline.VerdictRunning) && i < 5
		if s, ok := check.PodStartup(f); ok {
			p.Startup = check.FmtDur(s)
		}
		p.TextY = y + 15
		barsFor := func(stages []timeline.Stage, top, h float64, who string) []Bar {
			var out []Bar
			for _, s := range stages {
				if s.Start == nil || s.Status == timeline.StatusPending || s.Status == timeline.StatusSkipped {
					continue
				}
				end := flowEnd(f)
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
				out = append(out, Bar{X: x0, Y: top, W: math.Round(w*10) / 10, H: h, Status: string(s.Status), Title: sanitize.SanitizeLines(t.String())})
			}
			return out
		}
		p.Bars = barsFor(f.Stages, y+3, rowH-6, "")
		y += rowH
		for _, c := range f.Containers {
			row := Row{Label: text(check.Trunc(c.Name, 30), 40), TextY: y + 11}
			row.Bars = barsFor(c.Stages, y+2, cRowH-4, "container "+c.Name+" ")
			p.Rows = append(p.Rows, row)
			y += cRowH
		}
		p.H = y - p.Y
		y += 4
		for _, ev := range f.Evidence {
			re := Evidence{Loc: text(fmt.Sprintf("%s:%d", ev.Input, ev.Line), 400), Text: text(ev.Text, 2000)}
			if errs[0] == nil {
				re.Raw = text(string(raws[0]), 4000)
			}
			raws, errs = raws[1:], errs[1:]
			p.Evidence = append(p.Evidence, re)
		}
		for _, s := range f.Stages {
			rs := Stage{Name: s.ID, Status: string(s.Status), Duration: check.FmtDur(time.Duration(s.Duration)), Reason: text(s.Reason, 500)}
			if s.Status == timeline.StatusUnknown && s.Reveal != "" {
				rs.Reason = "needs " + s.Reveal
			}
			p.Stages = append(p.Stages, rs)
		}
		for _, c := range f.Containers {
			for _, s := range c.Stages {
				p.Stages = append(p.Stages, Stage{Name: text(c.Name, 63) + " / " + s.ID, Status: string(s.Status), Duration: check.FmtDur(time.Duration(s.Duration)), Reason: text(s.Reason, 500)})
			}
		}
		d.Pods = append(d.Pods, p)
	}
	d.Height = int(y + 4)
	return d
}

// flowEnd is when a flow ended as its duration counts it (a flow still
// under way when the log ends runs to the log's end), as every view draws it.
func flowEnd(f *timeline.Flow) time.Time {
	return f.Start.Add(time.Duration(f.Duration))
}
