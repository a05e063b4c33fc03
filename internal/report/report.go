package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/cause"
	"github.com/podflow/podflow/internal/check"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

//go:embed report.html.tmpl
var templateText string

var tmpl = template.Must(template.New("report").Parse(templateText))

// DefaultMaxDrawn is how many pods a report draws in full (bars, stages,
// evidence) when Input.MaxDrawn is 0: the worst first. The others are
// counted per node. A page of a few hundred pods opens in a browser in a
// second; one of every pod of a 1 GiB log (70 MB) took minutes.
const DefaultMaxDrawn = 300

// Input is what a report is built from.
type Input struct {
	Flows *timeline.FlowList // the whole analysis: summary, findings, nodes
	Items []timeline.Flow    // the pods to show (Flows.Items, or those selected)
	// ReadRaws reads evidence lines back from the inputs, in the order
	// given (cmd's Analysis.ReadRaws); nil shows no raw lines.
	ReadRaws func([]timeline.Evidence) ([][]byte, []error)
	Version  string // podflow's, for the footer
	MaxDrawn int    // pods drawn in full; 0: DefaultMaxDrawn
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
	Title   string // short: what the page says in a tab
	Heading string // the first line of the page
	Inputs  string // the inputs, shortened
	Span    string
	Version string
	Summary timeline.Summary
	Counts  []Count // pods per verdict
	Health  []Count // pods per Health (Verdict holds the Health)
	Pods    int     // pods in the report

	Causes    []Cause   // the failed pods by cause: the page's first table
	Attention []*Pod    // the worst pods, for the top of the page
	Findings  []Finding // node findings worth a look
	Routine   []Finding // the kubelet's ordinary start-up notes, kept quiet
	Nodes     []*Node   // a chart each
	Drawn     []*Pod    // every pod drawn in full, worst first
	NotDrawn  int       // pods counted, not drawn
	MaxDrawn  int
}

// Cause is one cause of failed pods (internal/cause): the report's first
// table, so that a thousand failed pods read as the few causes they are.
type Cause struct {
	Pods                  int
	Stage, Cause, Example string
	ExampleID             string // the example's anchor when it is drawn
}

// Count is how many pods have a verdict (or a Health).
type Count struct {
	Verdict string // the verdict, or the Health (the page's class names)
	N       int
	Label   string // what the page says: the verdict as get pods prints it, or the Health's words
}

// healthLabel is a Health as the page names it. HealthFailed is not
// "failed": it holds Stalled and Rejected pods too, and "failed" is the
// Failed verdict's word in get pods.
func healthLabel(h Health) string {
	if h == HealthFailed {
		return "in trouble"
	}
	return string(h)
}

// Finding is one node finding.
type Finding struct {
	Kind, Node, Time, Message string
	Count                     int
}

// Tick is one mark of a time axis.
type Tick struct {
	X     float64
	Label string
}

// Bar is one stage's bar: X and W in the chart's first (whole) view; A
// and B its start and end in ms from the node's start, which the page's
// zoom draws from.
type Bar struct {
	X, Y, W, H float64
	A, B       int64
	Status     string
	Title      string
}

// Row is a container's row under its pod.
type Row struct {
	Label []string // the container's name, wrapped whole (wrapName)
	TextY float64
	Bars  []Bar
}

// Evidence is one evidence line of a pod, and the raw line it came from.
type Evidence struct {
	Loc, Text, Raw string
	Cause          bool // the line that shows why
}

// Stage is one stage of a pod's table.
type Stage struct {
	Name, Status, Duration, Reason string
	Attempts                       int
}

// Pod is one pod: its row in its node's chart and its details.
type Pod struct {
	ID, Key     string
	Label       []string // Key wrapped whole in the chart's label column (wrapName)
	Node        string
	Verdict     timeline.Verdict
	Status      string // kubectl get pods' STATUS at the log's end (Flow.Status)
	Health      Health
	Where       string // where it stopped, or the stage it recovered in
	Waited      string
	Diagnosis   string
	WaitingOn   string // what the stage that holds it waits on at the log's end (Flow.WaitingOn)
	Why         string // for a pod that recovered: what failed on the way
	Startup     string
	Open        bool
	Y, H, TextY float64
	Bars        []Bar
	Rows        []Row
	Evidence    []Evidence
	Stages      []Stage
}

// Node is one node's chart: its own time axis, its pods drawn in full,
// and a line for the pods only counted.
type Node struct {
	ID, Name      string
	Span          string
	SpanMS        int64
	Width, Height int
	Ticks         []Tick
	Pods          []*Pod
	Health        []Count
	More          string // the pods not drawn, summarised
}

// Chart geometry, in px.
const (
	labelW = 300.0
	chartW = 900.0
	rowH   = 22.0
	cRowH  = 14.0
	top    = 22.0
	// labelChars is how many characters of a name a line of the label
	// column (labelW) holds; lineH is a label line's height.
	labelChars = 40
	lineH      = 14.0
)

// wrapName cuts a name (namespace/name, a container's name) into lines
// of n characters at most, after a '/', '-', '.' or '_' where it can:
// never cut short, every character shown (kubectl never cuts a name), a
// run longer than a line without any of them split where the line ends.
func wrapName(s string, n int) []string {
	var lines []string
	r := []rune(s)
	for len(r) > n {
		cut := n
		for i := n; i > n/3; i-- {
			if c := r[i-1]; c == '/' || c == '-' || c == '.' || c == '_' {
				cut = i
				break
			}
		}
		lines = append(lines, string(r[:cut]))
		r = r[cut:]
	}
	return append(lines, string(r))
}

// text makes log text one safe line for the template (html/template
// escapes it; this removes terminal controls and bounds its length).
func text(s string, n int) string { return check.Trunc(sanitize.Sanitize(s), n) }

// verdictRank orders verdicts as timeline.Verdicts does (worst first).
func verdictRank(v timeline.Verdict) int {
	for i, w := range timeline.Verdicts {
		if w == v {
			return i
		}
	}
	return len(timeline.Verdicts)
}

// ranked is a flow with what the report sorts it by.
type ranked struct {
	f      *timeline.Flow
	health Health
}

// worse orders pods worst first: by Health, verdict, then the longer wait
// or run, then by start.
func worse(a, b ranked) bool {
	if ha, hb := healthRank(a.health), healthRank(b.health); ha != hb {
		return ha < hb
	}
	if va, vb := verdictRank(a.f.Verdict), verdictRank(b.f.Verdict); va != vb {
		return va < vb
	}
	if a.f.Duration != b.f.Duration && a.health != HealthOK {
		return a.f.Duration > b.f.Duration
	}
	return a.f.Start.Before(b.f.Start)
}

// Build computes the report of in.
func Build(in Input) Data {
	fl, items := in.Flows, in.Items
	max := in.MaxDrawn
	if max <= 0 {
		max = DefaultMaxDrawn
	}
	d := Data{Version: in.Version, Summary: fl.Summary, Pods: len(items), MaxDrawn: max}
	d.Summary.KubeletVersion = text(d.Summary.KubeletVersion, 40)
	d.Inputs = shortInputs(fl.Summary.Inputs)

	// Rank every pod, worst first; the first max are drawn in full.
	rs := make([]ranked, len(items))
	verdicts, healths := map[timeline.Verdict]int{}, map[Health]int{}
	troubled := map[timeline.Verdict]int{} // the verdicts of the pods in trouble (HealthFailed)
	var t0, t1 time.Time
	for i := range items {
		f := &items[i]
		rs[i] = ranked{f: f, health: healthOf(f)}
		verdicts[f.Verdict]++
		healths[rs[i].health]++
		if rs[i].health == HealthFailed {
			troubled[f.Verdict]++
		}
		if t0.IsZero() || (!f.Start.IsZero() && f.Start.Before(t0)) {
			t0 = f.Start
		}
		if e := f.End; e.After(t1) {
			t1 = e
		}
	}
	sort.SliceStable(rs, func(i, j int) bool { return worse(rs[i], rs[j]) })
	for _, v := range timeline.Verdicts {
		if verdicts[v] > 0 {
			d.Counts = append(d.Counts, Count{Verdict: string(v), N: verdicts[v], Label: string(v)})
		}
	}
	d.Health = healthCounts(healths)
	if !t0.IsZero() {
		d.Span = fmt.Sprintf("%s – %s (%s)", t0.UTC().Format("2006-01-02 15:04:05"), t1.UTC().Format("15:04:05"), check.FmtDur(t1.Sub(t0)))
	}
	bad := healths[HealthFailed] + healths[HealthRecovered]
	switch {
	case len(items) == 0:
		d.Heading = "No pods"
	case healths[HealthFailed] > 0:
		// In get pods' words: a Stalled pod is Stalled, not failed.
		var parts []string
		for _, v := range timeline.Verdicts {
			if n := troubled[v]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, v))
			}
		}
		d.Heading = fmt.Sprintf("%d of %s in trouble (%s)", healths[HealthFailed], plural(len(items), "pod"), strings.Join(parts, ", "))
		if healths[HealthRecovered] > 0 {
			d.Heading += fmt.Sprintf(", %d recovered", healths[HealthRecovered])
		}
	case bad > 0:
		d.Heading = fmt.Sprintf("%s ran; %d recovered from failures", plural(len(items), "pod"), healths[HealthRecovered])
	default:
		d.Heading = fmt.Sprintf("%s, none failed", plural(len(items), "pod"))
	}
	d.Title = "podflow: " + d.Heading

	for i := range fl.Findings {
		fd := &fl.Findings[i]
		f := Finding{Kind: text(fd.Kind, 40), Node: text(fd.Node, 253), Time: fd.Time.UTC().Format("15:04:05"), Message: text(fd.Message, 400), Count: fd.Count}
		if routine(fd) {
			d.Routine = append(d.Routine, f)
		} else {
			d.Findings = append(d.Findings, f)
		}
	}

	// The pods drawn in full, and their evidence lines read back at once,
	// in the inputs' order.
	drawn := rs
	if len(drawn) > max {
		drawn = drawn[:max]
	}
	var evs []timeline.Evidence
	for _, r := range drawn {
		evs = append(evs, r.f.Evidence...)
	}
	raws, errs := in.readRaws(evs)
	for i, r := range drawn {
		p := podOf(i, r)
		for _, ev := range r.f.Evidence {
			re := Evidence{Loc: text(fmt.Sprintf("%s:%d", ev.Input, ev.Line), 400), Text: text(ev.Text, 2000)}
			if errs[0] == nil {
				re.Raw = text(string(raws[0]), 4000)
			}
			raws, errs = raws[1:], errs[1:]
			p.Evidence = append(p.Evidence, re)
		}
		d.Drawn = append(d.Drawn, p)
	}
	d.Attention = attention(d.Drawn)
	// The failed pods of the heading (Health failed), grouped.
	drawnID := map[*timeline.Flow]string{}
	for i, r := range drawn {
		drawnID[r.f] = d.Drawn[i].ID
	}
	for _, g := range cause.Groups(items, func(f *timeline.Flow) bool { return healthOf(f) == HealthFailed }) {
		c := Cause{Pods: g.Pods, Stage: text(g.Stage, 200), Cause: text(g.Cause, 600), Example: text(g.Example, 253)}
		for i := range items {
			if items[i].Pod.Key() == g.Example && healthOf(&items[i]) == HealthFailed {
				c.ExampleID = drawnID[&items[i]]
				break
			}
		}
		d.Causes = append(d.Causes, c)
	}
	d.NotDrawn = len(rs) - len(drawn)
	d.Nodes = charts(rs, d.Drawn)
	return d
}

// attention are the pods the page leads with: the worst failed ones, and
// the worst that recovered (at most 10, up to 3 of them recovered when
// there are as many failed ones).
func attention(drawn []*Pod) []*Pod {
	var failed, recovered []*Pod
	for _, p := range drawn {
		switch {
		case p.Health == HealthFailed && len(failed) < 10:
			failed = append(failed, p)
		case p.Health == HealthRecovered && len(recovered) < 10:
			recovered = append(recovered, p)
		}
	}
	n := min(len(failed), 10-min(len(recovered), 3))
	out := append(failed[:n:n], recovered...)
	return out[:min(len(out), 10)]
}

// podOf is the model of the i-th pod drawn (its chart rows are laid out
// by charts).
func podOf(i int, r ranked) *Pod {
	f := r.f
	p := &Pod{ID: fmt.Sprintf("pod-%d", i), Key: text(f.Pod.Key(), 63+1+253), Node: text(f.Node, 253), Verdict: f.Verdict, Health: r.health,
		Status: text(f.Status, 80), Diagnosis: text(f.Diagnosis, 2000), WaitingOn: text(f.WaitingOn, 400), Startup: "-"}
	p.Label = wrapName(p.Key, labelChars)
	p.Open = r.health == HealthFailed && i < 5
	if s, ok := check.PodStartup(f); ok {
		p.Startup = check.FmtDur(s)
	}
	if f.StalledAt != "" {
		p.Where = text(stageLabel(f), 200)
		p.Waited = check.FmtDur(time.Duration(f.Waited))
	}
	if r.health == HealthRecovered {
		if ev, why := check.TroubleCause(f); ev != nil {
			p.Why = text("recovered: "+why, 600)
		}
	}
	for _, s := range f.Stages {
		rs := Stage{Name: s.ID, Status: string(s.Status), Duration: check.FmtDur(time.Duration(s.Duration)), Reason: text(s.Reason, 500), Attempts: s.Attempts}
		if s.Status == timeline.StatusUnknown && s.Reveal != "" {
			rs.Reason = "needs " + s.Reveal
		}
		p.Stages = append(p.Stages, rs)
	}
	for _, c := range f.Containers {
		for _, s := range c.Stages {
			p.Stages = append(p.Stages, Stage{Name: text(c.Name, 63) + " / " + s.ID, Status: string(s.Status), Duration: check.FmtDur(time.Duration(s.Duration)), Reason: text(s.Reason, 500), Attempts: s.Attempts})
		}
	}
	return p
}

// stageLabel names where a flow stopped, as get pods' STAGE column.
func stageLabel(f *timeline.Flow) string {
	if f.Container != "" {
		cs := f.ContainerStage
		if cs == "" {
			cs = "?"
		}
		return f.StalledAt + "/" + f.Container + ":" + cs
	}
	return f.StalledAt
}

func healthCounts(m map[Health]int) []Count {
	var out []Count
	for _, h := range []Health{HealthFailed, HealthRecovered, HealthOther, HealthOK} {
		if m[h] > 0 {
			out = append(out, Count{Verdict: string(h), N: m[h], Label: healthLabel(h)})
		}
	}
	return out
}

// shortInputs names the inputs in a line: the first two, and how many more.
func shortInputs(ins []string) string {
	if len(ins) <= 2 {
		return text(strings.Join(ins, ", "), 300)
	}
	return text(fmt.Sprintf("%s, %s and %d more", ins[0], ins[1], len(ins)-2), 300)
}

// plural is "1 pod", "2 pods".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
