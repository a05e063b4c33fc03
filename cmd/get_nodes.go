package cmd

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
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

var getNodesOutputs = []string{"wide", "json", "yaml", "name"}

// NodeList is what get nodes -o json and -o yaml print, a list object as
// get pods prints one (and kubectl get nodes).
type NodeList struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Items      []timeline.Node `json:"items"`
}

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

-o wide adds when each node's log starts and ends and its findings
(kubelet restarts, PLEG unhealthy, runtime down, network not ready, sync
loop skipped) by kind.

-o json and -o yaml print a NodeList (apiVersion podflow/v1) whose items
are the nodes as the FlowList encodes them; -o name prints node/NAME.

` + templateOutputsHelp + `
Here the document is the NodeList: -o jsonpath='{.items[*].name}'.`,
		Example: `  podflow get nodes kubelet.log
  podflow get nodes ./kind-logs/ -o wide
  podflow get nodes ./kind-logs/ -o json
  podflow get nodes ./kind-logs/ -o custom-columns=NODE:.name,VERSION:.kubeletVersion
  podflow get nodes --node kind-worker                  # a live node's kubelet`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			t, err := outputFormat(opts.Output, getNodesOutputs)
			if err != nil {
				return err
			}
			if err := t.checkKeys(reflect.TypeFor[NodeList]()); err != nil {
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
	f.StringVarP(&opts.Output, "output", "o", "", "output format: wide, json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC or custom-columns-file=FILE")
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
	o.Load.trim = func(f *timeline.Flow) { f.Containers = nil } // only the nodes (and their findings) are printed
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	nodes := a.Flows.Nodes
	if nodes == nil {
		nodes = []timeline.Node{}
	}
	list := &NodeList{APIVersion: "podflow/v1", Kind: "NodeList", Items: nodes}
	if o.template != nil {
		head := *list
		head.Items = nil
		return o.template.print(ioS.Out, &head, each(nodes), o.NoHeaders)
	}
	switch o.Output {
	case "json":
		return printJSON(ioS.Out, list)
	case "yaml":
		return printYAML(ioS.Out, list)
	case "name":
		for _, n := range nodes {
			fmt.Fprintf(ioS.Out, "node/%s\n", sanitize.OneLine(n.Name))
		}
		return nil
	}
	if len(nodes) == 0 {
		fmt.Fprintln(ioS.ErrOut, "No nodes found.")
		return nil
	}
	wide := o.Output == "wide"
	color := ioS.ColorEnabled(o.Color)
	t := &Table{Headers: []string{"NAME", "KUBELET", "VERBOSITY", "SPAN", "RESTARTS", "PLEG", "PODS"}, NoHeader: o.NoHeaders, Flex: -1}
	if wide {
		t.Headers = append(t.Headers, "START", "END", "FINDINGS")
	}
	for _, n := range nodes {
		v := "-"
		if n.Verbosity >= 0 {
			v = "-v=" + strconv.Itoa(n.Verbosity)
		}
		pleg := "healthy"
		if !n.PLEGHealthy {
			pleg = "unhealthy"
		}
		row := []string{dash(sanitize.OneLine(n.Name)), dash(sanitize.OneLine(n.KubeletVersion)), v, span(n.Start, n.End),
			strconv.Itoa(n.Restarts), pleg, podCounts(n.Pods, false)}
		if wide {
			row = append(row, stamp(n.Start), stamp(n.End), findingCounts(a.Flows.Findings, n.Name))
		}
		t.Rows = append(t.Rows, row)
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

// findingCounts counts a node's findings by kind, in the order first
// seen: "2 SyncLoopSkipped, 1 KubeletRestart", or "-".
func findingCounts(findings []timeline.Finding, node string) string {
	var kinds []string
	n := map[string]int{}
	for _, fd := range findings {
		if fd.Node != node {
			continue
		}
		if n[fd.Kind] == 0 {
			kinds = append(kinds, fd.Kind)
		}
		n[fd.Kind]++
	}
	if len(kinds) == 0 {
		return "-"
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		parts[i] = strconv.Itoa(n[k]) + " " + sanitize.OneLine(k)
	}
	return strings.Join(parts, ", ")
}
