package cmd

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"math"
	"os"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

//go:embed report.html.tmpl
var reportTemplateText string

var reportTemplate = template.Must(template.New("report").Parse(reportTemplateText))

// ReportOptions holds what `podflow report` needs.
type ReportOptions struct {
	IO *IO

	Paths      []string
	Load       LoadOptions
	Output     string // path; "" or "-" for standard output
	Pods       []string
	Namespaces []string
	Ignore     []string

	rules checkRules
}

// NewCmdReport builds `podflow report`. runF, when set, replaces reportRun.
func NewCmdReport(ioS *IO, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{IO: ioS}
	cmd := &cobra.Command{
		Use:   "report FILE|DIR... -o report.html",
		Short: "Write a self-contained HTML report with a Gantt chart of every pod",
		Long: `Write one self-contained HTML file (inline CSS, JavaScript and SVG; no
network access, no external assets): the summary, a Gantt chart of every
pod's stages and containers' stages (hover a bar for its evidence lines,
click a pod for its details), each stall's diagnosis and the raw evidence
lines. Attach it to CI runs as an artifact.`,
		Example: `  podflow report ./logs -o report.html
  podflow report kubelet.log --ignore '^kube-system/' -o - > report.html`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			r := checkRules{namespaces: map[string]bool{}}
			co := &CheckOptions{Pods: opts.Pods, Namespaces: opts.Namespaces, Ignore: opts.Ignore, Load: opts.Load}
			if err := co.resolve(nil); err != nil {
				return err
			}
			r.pods, r.namespaces, r.ignore = co.rules.pods, co.rules.namespaces, co.rules.ignore
			opts.rules = r
			if opts.Output == "" && opts.IO.OutTTY {
				return usageErrorf("refusing to write HTML to a terminal: give -o report.html (or -o - to force)")
			}
			if runF != nil {
				return runF(opts)
			}
			return reportRun(opts)
		},
	}
	addLoadFlags(cmd, &opts.Load)
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "write the HTML to PATH (- for standard output)")
	f.StringArrayVar(&opts.Pods, "pod", nil, "only pods whose name matches REGEX (repeatable)")
	f.StringArrayVarP(&opts.Namespaces, "namespace", "n", nil, "only pods in NAMESPACE (repeatable)")
	f.StringArrayVar(&opts.Ignore, "ignore", nil, "leave out pods whose namespace/name matches REGEX (repeatable)")
	return cmd
}

func reportRun(opts *ReportOptions) error {
	a, err := Analyze(opts.IO, opts.Paths, opts.Load)
	if err != nil {
		return err
	}
	a.warn(opts.IO)
	items, _ := opts.rules.selectFlows(a.Flows.Items)
	data := buildReport(a, items)
	var buf bytes.Buffer
	if err := reportTemplate.Execute(&buf, data); err != nil {
		return fmt.Errorf("render report: %w", err)
	}
	if opts.Output == "" || opts.Output == "-" {
		_, err := opts.IO.Out.Write(buf.Bytes())
		return err
	}
	// As on standard output, a workflow command from the log is inert in
	// the file (a CI step may print it).
	if err := os.WriteFile(opts.Output, []byte(sanitize.Defuse(buf.String())), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

type reportData struct {
	Title    string
	Span     string
	Version  string
	Summary  timeline.Summary
	Counts   []reportCount
	Worst    string
	Findings []string
	Pods     []reportPod
	Ticks    []reportTick
	Width    int
	Height   int
}

type reportCount struct {
	Verdict timeline.Verdict
	N       int
}

type reportTick struct {
	X     float64
	Label string
}

type reportBar struct {
	X, Y, W, H float64
	Status     string
	Title      string
}

type reportRow struct {
	Label string
	TextY float64
	Bars  []reportBar
}

type reportEvidence struct {
	Loc, Text, Raw string
}

type reportStage struct {
	Name, Status, Duration, Reason string
}

type reportPod struct {
	ID, Key, Label string
	Verdict        timeline.Verdict
	StalledAt      string
	Diagnosis      string
	Startup        string
	Open           bool
	Y, H, TextY    float64
	Bars           []reportBar
	Rows           []reportRow
	Evidence       []reportEvidence
	Stages         []reportStage
}

const (
	rptLabelW = 300.0
	rptChartW = 900.0
	rptRowH   = 22.0
	rptCRowH  = 14.0
	rptTop    = 22.0
)

// rptText makes log text one safe line for the template (html/template
// escapes it; this removes terminal controls and bounds its length).
func rptText(s string, n int) string { return chkTrunc(sanitize.Sanitize(s), n) }

func buildReport(a *Analysis, items []timeline.Flow) reportData {
	fl := a.Flows
	d := reportData{Title: rptText(strings.Join(fl.Summary.Inputs, ", "), 300), Version: Version, Summary: fl.Summary, Width: int(rptLabelW + rptChartW + 20)}
	d.Summary.KubeletVersion = rptText(d.Summary.KubeletVersion, 40)
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
			d.Counts = append(d.Counts, reportCount{v, counts[v]})
		}
	}
	if !t0.IsZero() {
		d.Span = fmt.Sprintf("%s – %s (%s)", t0.UTC().Format("2006-01-02 15:04:05"), t1.UTC().Format("15:04:05"), chkFmtDur(t1.Sub(t0)))
	}
	for _, fd := range fl.Findings {
		d.Findings = append(d.Findings, rptText(fmt.Sprintf("%s on %s at %s: %s", fd.Kind, fd.Node, fd.Time.UTC().Format("15:04:05"), fd.Message), 400))
	}
	span := t1.Sub(t0)
	if span <= 0 {
		span = time.Second
	}
	x := func(t time.Time) float64 {
		return math.Round((rptLabelW+float64(t.Sub(t0))/float64(span)*rptChartW)*10) / 10
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
		d.Ticks = append(d.Ticks, reportTick{X: x(t0.Add(o)), Label: "+" + o.String()})
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
		d.Worst = rptText(ranked[0].Pod.Key()+": "+ranked[0].Diagnosis, 600)
	}

	// Every pod's evidence lines, read back at once, in the inputs' order.
	var evs []timeline.Evidence
	for i := range ranked {
		evs = append(evs, ranked[i].Evidence...)
	}
	raws, errs := a.ReadRaws(evs)
	y := rptTop
	for i := range ranked {
		f := &ranked[i]
		p := reportPod{ID: fmt.Sprintf("pod-%d", i), Key: rptText(f.Pod.Key(), 253), Verdict: f.Verdict, StalledAt: rptText(f.StalledAt, 64),
			Diagnosis: rptText(f.Diagnosis, 2000), Startup: "-", Y: y}
		p.Label = chkTrunc(p.Key, 40)
		p.Open = rank(f.Verdict) < rank(timeline.VerdictRunning) && i < 5
		if s, ok := checkPodStartup(f); ok {
			p.Startup = chkFmtDur(s)
		}
		p.TextY = y + 15
		barsFor := func(stages []timeline.Stage, top, h float64, who string) []reportBar {
			var out []reportBar
			for _, s := range stages {
				if s.Start == nil || s.Status == timeline.StatusPending || s.Status == timeline.StatusSkipped {
					continue
				}
				end := stageEnd(f, &s)
				x0, x1 := x(*s.Start), x(end)
				w := math.Max(x1-x0, 2)
				var t strings.Builder
				fmt.Fprintf(&t, "%s%s: %s, %s", who, s.ID, s.Status, chkFmtDur(time.Duration(s.Duration)))
				if s.Attempts > 0 {
					fmt.Fprintf(&t, ", %d failed attempts", s.Attempts)
				}
				if s.Reason != "" {
					t.WriteString("\n" + chkTrunc(s.Reason, 500))
				}
				for k, ev := range s.Evidence {
					if k == 6 {
						fmt.Fprintf(&t, "\n… %d more", len(s.Evidence)-6)
						break
					}
					t.WriteString("\n" + chkTrunc(chkEvidenceLine(ev), 300))
				}
				out = append(out, reportBar{X: x0, Y: top, W: math.Round(w*10) / 10, H: h, Status: string(s.Status), Title: sanitize.SanitizeLines(t.String())})
			}
			return out
		}
		p.Bars = barsFor(f.Stages, y+3, rptRowH-6, "")
		y += rptRowH
		for _, c := range f.Containers {
			row := reportRow{Label: rptText(chkTrunc(c.Name, 30), 40), TextY: y + 11}
			row.Bars = barsFor(c.Stages, y+2, rptCRowH-4, "container "+c.Name+" ")
			p.Rows = append(p.Rows, row)
			y += rptCRowH
		}
		p.H = y - p.Y
		y += 4
		for _, ev := range f.Evidence {
			re := reportEvidence{Loc: rptText(fmt.Sprintf("%s:%d", ev.Input, ev.Line), 400), Text: rptText(ev.Text, 2000)}
			if errs[0] == nil {
				re.Raw = rptText(string(raws[0]), 4000)
			}
			raws, errs = raws[1:], errs[1:]
			p.Evidence = append(p.Evidence, re)
		}
		for _, s := range f.Stages {
			rs := reportStage{Name: s.ID, Status: string(s.Status), Duration: chkFmtDur(time.Duration(s.Duration)), Reason: rptText(s.Reason, 500)}
			if s.Status == timeline.StatusUnknown && s.Reveal != "" {
				rs.Reason = "needs " + s.Reveal
			}
			p.Stages = append(p.Stages, rs)
		}
		for _, c := range f.Containers {
			for _, s := range c.Stages {
				p.Stages = append(p.Stages, reportStage{Name: rptText(c.Name, 63) + " / " + s.ID, Status: string(s.Status), Duration: chkFmtDur(time.Duration(s.Duration)), Reason: rptText(s.Reason, 500)})
			}
		}
		d.Pods = append(d.Pods, p)
	}
	d.Height = int(y + 4)
	return d
}
