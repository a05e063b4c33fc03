package cmd

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// GetNodesOptions holds what `podflow get nodes` needs.
type GetNodesOptions struct {
	IO   *IO
	Load LoadOptions

	Paths     []string
	Output    string // "", json, yaml, name, or a template (jsonpath=…, custom-columns=…)
	NoHeaders bool
	Color     string

	template *templateOutput // from Output
}

var getNodesOutputs = []string{"json", "yaml", "name"}

// NewCmdGetNodes builds `podflow get nodes`.
func NewCmdGetNodes(ioS *IO, runF func(*GetNodesOptions) error) *cobra.Command {
	opts := &GetNodesOptions{IO: ioS, Color: "auto"}
	cmd := &cobra.Command{
		Use:     "nodes [FILE|DIR|-]...",
		Aliases: []string{"node", "no"},
		Short:   "List the nodes whose kubelet logs were read",
		Long: `List one row per node found in the logs: its name, kubelet version, the
highest -v the log shows, the time span it covers, kubelet restarts seen,
whether PLEG was healthy, and how many pods ended in each verdict.

-o json and -o yaml print the nodes as the FlowList encodes them.

` + templateOutputsHelp + `
Here the document is the list of nodes: -o jsonpath='{[*].name}'.`,
		Example: `  podflow get nodes testdata/corpus/v1.36.3/04-sandbox-failure.log
  podflow get nodes testdata/corpus/
  podflow get nodes -o json testdata/corpus/v1.28.15/
  podflow get nodes -o custom-columns=NODE:.name,VERSION:.kubeletVersion testdata/corpus/`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			t, err := outputFormat(opts.Output, getNodesOutputs)
			if err != nil {
				return err
			}
			opts.template = t
			if !contains(colorModes, opts.Color) {
				return usageErrorf("--color %q: allowed: %s", opts.Color, strings.Join(colorModes, ", "))
			}
			if runF != nil {
				return runF(opts)
			}
			return getNodesRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "output format: json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC or custom-columns-file=FILE")
	f.BoolVar(&opts.NoHeaders, "no-headers", false, "do not print the header row")
	addColorFlag(cmd, &opts.Color)
	addLoadFlags(cmd, &opts.Load)
	_ = cmd.RegisterFlagCompletionFunc("output", outputCompletion(append(getNodesOutputs, templateOutputs...)...))
	return cmd
}

// podCounts prints verdict counts worst first: "1 Running, 1 Stalled".
func podCounts(m map[timeline.Verdict]int, color bool) string {
	var parts []string
	for _, v := range timeline.Verdicts {
		if n := m[v]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+paint(color, verdictColor(v), string(v)))
		}
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, ", ")
}

// span prints a node's time span: 06:08:00.395–06:09:23.129 (1m23s).
func span(start, end time.Time) string {
	if start.IsZero() {
		return "-"
	}
	return fmt.Sprintf("%s–%s (%s)", clock(start), clock(end), humanDuration(end.Sub(start)))
}

func getNodesRun(o *GetNodesOptions) error {
	ioS := o.IO
	o.Load.rows = true
	o.Load.trim = func(f *timeline.Flow) { f.Containers = nil } // only the nodes are printed
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	nodes := a.Flows.Nodes
	if nodes == nil {
		nodes = []timeline.Node{}
	}
	if o.template != nil {
		return o.template.print(ioS.Out, nil, each(nodes), o.NoHeaders)
	}
	switch o.Output {
	case "json":
		return printJSON(ioS.Out, nodes)
	case "yaml":
		return printYAML(ioS.Out, nodes)
	case "name":
		for _, n := range nodes {
			fmt.Fprintf(ioS.Out, "node/%s\n", oneLine(n.Name))
		}
		return nil
	}
	if len(nodes) == 0 {
		fmt.Fprintln(ioS.ErrOut, "No nodes found.")
		return nil
	}
	color := ioS.ColorEnabled(o.Color)
	t := &Table{Headers: []string{"NAME", "KUBELET", "VERBOSITY", "SPAN", "RESTARTS", "PLEG", "PODS"}, NoHeader: o.NoHeaders, Flex: -1}
	for _, n := range nodes {
		v := "-"
		if n.Verbosity >= 0 {
			v = "-v=" + strconv.Itoa(n.Verbosity)
		}
		pleg := "healthy"
		if !n.PLEGHealthy {
			pleg = "unhealthy"
		}
		t.Rows = append(t.Rows, []string{dash(oneLine(n.Name)), dash(oneLine(n.KubeletVersion)), v, span(n.Start, n.End),
			strconv.Itoa(n.Restarts), pleg, podCounts(n.Pods, false)})
	}
	t.Color = func(row, col int) string {
		if col == 5 && !nodes[row].PLEGHealthy {
			return ansiYellow
		}
		return ""
	}
	t.Print(ioS.Out, color)
	return nil
}
