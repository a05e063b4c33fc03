package cmd

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// DescribeNodeOptions holds what `podflow describe node` needs.
type DescribeNodeOptions struct {
	IO   *IO
	Load LoadOptions

	Name     string
	Paths    []string
	Color    string
	Evidence int // evidence lines to show at most
}

// NewCmdDescribeNode builds `podflow describe node`.
func NewCmdDescribeNode(ioS *IO, runF func(*DescribeNodeOptions) error) *cobra.Command {
	opts := &DescribeNodeOptions{IO: ioS, Color: "auto", Evidence: 20}
	cmd := &cobra.Command{
		Use:     "node NAME [FILE|DIR|-]...",
		Aliases: []string{"nodes", "no"},
		Short:   "Show one node: its kubelet, findings and pods by verdict",
		Long: `Show one node whose kubelet log was read, like kubectl describe node: its
kubelet version, the highest -v its log shows, the time its log covers,
kubelet restarts and PLEG health, its pods counted by verdict and listed
worst first, the node findings (kubelet restarts, PLEG unhealthy, runtime
down, network not ready, sync loop skipped) with the pods in flight at the
time, and the log lines that prove them.

NAME is a node name (as 'podflow get nodes' lists it); when nothing
matches exactly, nodes whose name starts with NAME are taken.

Exit status: 0 on success, 2 for bad flags, unreadable input, or a name
that matches no node or several.`,
		Example: `  podflow describe node kind-worker ./kind-logs/
  podflow describe node/kind-control-plane ./kind-logs/
  journalctl -u kubelet | podflow describe node ip-10-0-12-34 -
  podflow describe node kind-worker                  # the live node, through the API server`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("give the node NAME, then the inputs\nSee '%s --help'.", c.CommandPath())
			}
			opts.Name, opts.Paths = args[0], args[1:]
			if !contains(colorModes, opts.Color) {
				return usageErrorf("--color %q: allowed: %s", opts.Color, strings.Join(colorModes, ", "))
			}
			if opts.Evidence < 0 {
				return usageErrorf("--evidence %d: want a number of lines, 0 or more", opts.Evidence)
			}
			if runF != nil {
				return runF(opts)
			}
			return describeNodeRun(opts)
		},
	}
	f := cmd.Flags()
	f.IntVar(&opts.Evidence, "evidence", opts.Evidence, "show at most this many evidence lines (0: none)")
	addColorFlag(cmd, &opts.Color)
	addLoadFlags(cmd, &opts.Load)
	return cmd
}

// resolveNode finds the one node name names: exactly, or else by prefix.
func resolveNode(ioS *IO, fl *timeline.FlowList, name string) (*timeline.Node, error) {
	name = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(name, "nodes/"), "node/"), "no/")
	name = ioS.Redact.Text(name)
	var found []*timeline.Node
	for i := range fl.Nodes {
		if fl.Nodes[i].Name == name {
			return &fl.Nodes[i], nil
		}
	}
	for i := range fl.Nodes {
		if strings.HasPrefix(fl.Nodes[i].Name, name) {
			found = append(found, &fl.Nodes[i])
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		names := make([]string, len(fl.Nodes))
		for i, n := range fl.Nodes {
			names[i] = n.Name
		}
		return nil, inputError(fmt.Errorf("node %q not found in %s (%d nodes; see 'podflow get nodes')%s",
			name, inputsPhrase(fl.Summary.Inputs), len(fl.Nodes), didYouMean(name, names)))
	}
	names := make([]string, len(found))
	for i, n := range found {
		names[i] = sanitize.OneLine(n.Name)
	}
	return nil, usageErrorf("%q is ambiguous: %d nodes match (%s); give the full name", name, len(found), strings.Join(names, ", "))
}

func describeNodeRun(o *DescribeNodeOptions) error {
	ioS := o.IO
	o.Load.rows = true
	o.Load.keep = keepEvery() // (the node's evidence lines)
	if o.Load.live.Node == "" && !o.Load.live.Journal && len(o.Paths) == 0 {
		// describe node NAME with no input: the live node NAME.
		o.Load.live.Node = strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(o.Name, "nodes/"), "node/"), "no/")
	}
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	name := o.Name
	if a.Live && len(a.Flows.Nodes) == 1 {
		// One node was read, whatever its log calls it (a journald
		// hostname may differ from the node's name).
		name = a.Flows.Nodes[0].Name
	}
	n, err := resolveNode(ioS, a.Flows, name)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	d := &describer{w: &buf, a: a, color: ioS.ColorEnabled(o.Color), maxEvidence: o.Evidence, wrapAt: 100}
	if ioS.OutTTY && ioS.Width > 0 {
		d.width, d.wrapAt = ioS.Width, ioS.Width
	}
	d.describeNode(n)
	_, err = ioS.Out.Write(buf.Bytes())
	return err
}

// describeNode writes one node's description.
func (d *describer) describeNode(n *timeline.Node) {
	d.kv(0, "Name", sanitize.OneLine(n.Name))
	d.kv(0, "Kubelet", dash(sanitize.OneLine(n.KubeletVersion)))
	v := "- (no line shows it)"
	if n.Verbosity >= 0 {
		v = "-v=" + strconv.Itoa(n.Verbosity)
	}
	d.kv(0, "Verbosity", v)
	if n.Start.IsZero() {
		d.kv(0, "Log", "-")
	} else {
		d.kv(0, "Log", stamp(n.Start)+" – "+stamp(n.End)+"  ("+humanDuration(n.End.Sub(n.Start))+")")
	}
	d.kv(0, "Restarts", strconv.Itoa(n.Restarts))
	pleg := "healthy"
	if !n.PLEGHealthy {
		pleg = paint(d.color, ansiYellow, "unhealthy")
	}
	d.kv(0, "PLEG", pleg)
	d.kv(0, "Pods", podCounts(n.Pods, d.color))
	d.nodePods(n)
	findings := d.nodeFindings(n)
	d.nodeEvidence(findings)
}

// nodePods lists the node's pods, worst verdict first.
func (d *describer) nodePods(n *timeline.Node) {
	var pods []*timeline.Flow
	for i := range d.a.Flows.Items {
		if f := &d.a.Flows.Items[i]; f.Node == n.Name {
			pods = append(pods, f)
		}
	}
	if len(pods) == 0 {
		return
	}
	slices.SortStableFunc(pods, func(a, b *timeline.Flow) int { return verdictRank(a.Verdict) - verdictRank(b.Verdict) })
	t := &Table{Headers: []string{"VERDICT", "NAMESPACE", "NAME", "STAGE", "WAIT/DUR", "REASON"}, Indent: 2, Flex: 5, MaxWidth: d.width}
	for _, f := range pods {
		t.Rows = append(t.Rows, []string{string(f.Verdict), dash(sanitize.OneLine(f.Pod.Namespace)), sanitize.OneLine(f.Pod.Name), stageLabel(f), flowTime(f), dash(shorten(sanitize.OneLine(f.Reason), shortReason))})
	}
	t.Color = func(row, col int) string {
		if col == 0 {
			return verdictColor(pods[row].Verdict)
		}
		return ""
	}
	t.Print(d.w, d.color)
}

// nodeFindings lists the node's findings, with the pods in flight then,
// and returns them.
func (d *describer) nodeFindings(n *timeline.Node) []*timeline.Finding {
	d.section("Findings")
	var out []*timeline.Finding
	for i := range d.a.Flows.Findings {
		if fd := &d.a.Flows.Findings[i]; fd.Node == n.Name {
			out = append(out, fd)
		}
	}
	if len(out) == 0 {
		fmt.Fprintln(d.w, "  <none>")
		return nil
	}
	t := &Table{Headers: []string{"KIND", "TIME", "MESSAGE"}, Indent: 2, Flex: 2, MaxWidth: d.width}
	for _, fd := range out {
		when := clock(fd.Time)
		switch {
		case fd.Count > 1 && fd.End != nil && fd.End.After(fd.Time):
			when += fmt.Sprintf(" (x%d over %s)", fd.Count, humanDuration(fd.End.Sub(fd.Time)))
		case fd.Count > 1:
			when += fmt.Sprintf(" (x%d)", fd.Count)
		}
		msg := sanitize.OneLine(fd.Message)
		if len(fd.Pods) > 0 {
			msg += " [pods in flight: " + podRefs(fd.Pods, 5) + "]"
		}
		t.Rows = append(t.Rows, []string{sanitize.OneLine(fd.Kind), when, msg})
	}
	t.Color = func(row, col int) string {
		if col == 0 {
			return ansiYellow
		}
		return ""
	}
	t.Print(d.w, d.color)
	return out
}

// podRefs names at most max pods: "a, b, c and 4 more".
func podRefs(pods []timeline.PodRef, most int) string {
	var names []string
	for i, p := range pods {
		if i == most {
			names = append(names, fmt.Sprintf("%d more", len(pods)-most))
			break
		}
		names = append(names, sanitize.OneLine(p.Key()))
	}
	return strings.Join(names, ", ")
}

// nodeEvidence prints the lines that prove the findings, read back from
// the inputs.
func (d *describer) nodeEvidence(findings []*timeline.Finding) {
	d.section("Evidence")
	var evs []timeline.Evidence
	for _, fd := range findings {
		evs = append(evs, fd.Evidence...)
	}
	slices.SortStableFunc(evs, func(a, b timeline.Evidence) int { return a.Time.Compare(b.Time) })
	d.evidenceList(evs, "")
}
