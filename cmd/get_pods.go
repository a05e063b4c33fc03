package cmd

import (
	"bufio"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/podflow/podflow/internal/cause"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// GetPodsOptions holds what `podflow get pods` needs.
type GetPodsOptions struct {
	IO   *IO
	Load LoadOptions

	Paths     []string // inputs: files, directories, "-"
	Names     []string // pod name patterns (--pod and positional non-paths)
	posNames  []string // the positional ones: a name that matches no pod is an error
	Output    string   // "", wide, json, yaml, name, or a template (jsonpath=…, custom-columns=…)
	NoHeaders bool
	SortBy    string
	Namespace string
	AllNS     bool
	Node      string
	Verdicts  []string
	Since     string
	Until     string
	Color     string
	Watch     bool // -w: follow the files and print a row again when a pod changes (watch.go)

	template *templateOutput // from Output
}

var (
	getPodsOutputs = []string{"wide", "json", "yaml", "name"}
	getPodsSorts   = []string{"start", "duration", "waited", "name", "verdict"}
)

// NewCmdGetPods builds `podflow get pods`.
func NewCmdGetPods(ioS *IO, runF func(*GetPodsOptions) error) *cobra.Command {
	opts := &GetPodsOptions{IO: ioS, SortBy: "start", Color: "auto"}
	cmd := &cobra.Command{
		Use:     "pods [NAME|REGEX] [FILE|DIR|-]...",
		Aliases: []string{"pod", "po"},
		Short:   "List pods with their verdict and where they stopped",
		Long: `List every pod incarnation found in the logs, one row each: namespace,
name, node, verdict, the stage where it stopped (the stalled stage, as
containers/NAME:STAGE when inside a container, else the last stage
completed), how long it waited there (stalled pods) or how long its flow
lasted (others), and the reason in the log's own words.

Positional arguments that name an existing file or directory, or -, are
inputs, and so are arguments that look like paths (starting with / ./ ../
or ~, ending in /, or named *.log, *.gz, *.zst, *.txt, *.json, *.log.N)
so that a mistyped path is reported; any other positional argument is a
pod name filter, like --pod.
A name filter is an exact name, namespace/name or UID, or else a regular
expression matched against the name. With no input, standard input is
read when it is not a terminal (and --node NAME is not given).

All namespaces are listed unless -n is given (-A is accepted for kubectl
habits and is the default).

--since and --until keep pods whose flow overlaps the window; each takes
an RFC3339 time or a duration counted back from the end of the log.

With --node NAME and no input named, or --journal, --since and --until
also bound what is read (a duration then counts back from now).
` + liveHelp + `

--sort-by sorts ascending by start (default), duration, waited, name
(namespace/name) or verdict (worst first).

STATUS is what kubectl get pods showed at the end of the log, by
kubectl's own rules (ContainerCreating, Init:0/1, ImagePullBackOff,
CrashLoopBackOff, Running, Terminating, ...; Deleted when the log shows
the pod deleted and removed); VERDICT, STAGE and REASON say why.

On a terminal the table fits its width and no row wraps: REASON is
shortened first, then node names and stage labels are cut, and a
NAMESPACE every pod shares, then NODE, are left out (said on standard
error). NAME is never cut. Headers are the same on a terminal and in a
pipe. Piped, rows are whole; -o wide gives every column and the whole
reason. On a terminal, when more than one pod failed, the failed pods
grouped by cause follow the table (the five largest causes; all of them
with podflow stats --by cause).

Verdicts are coloured on a terminal (green Running, Completed,
Terminated; red Failed, Rejected; yellow Stalled, Terminating; grey
Incomplete); NO_COLOR or --color=never turn colour off.

-o json and -o yaml print the whole FlowList (apiVersion podflow/v1) with
only the selected pods in items; -o name prints pod/NAMESPACE/NAME.

` + templateOutputsHelp + `

-w (--watch) watches, as kubectl get pods -w does: the table, then, as
the files named grow (followed as tail -F follows them: rotated or
copy-truncated files are read on from their new start), a row again each
time a pod changes its status, verdict, stage, restarts or reason (a
stage under way goes on running on the clock while the log is quiet, and
may stall), until Ctrl-C (exit status 0). Standard input (-) is
followed too: the table once the pipe is first quiet, the watch ending
with the pipe. Every -o prints what changed as kubectl's watch does: -o
json and -o yaml a document per pod (a podflow/v1 Flow; YAML's
separated by ---), the pods there at first and then one per change; -o
name a name per change; jsonpath and custom-columns applied to the pods
that changed.

Exit status: 0 on success (also when nothing matches), 2 for bad flags or
when no input can be read, 5 when some inputs could not be read (warnings
on stderr) and the table shows the others.`,
		Example: `  podflow get pods kubelet.log
  podflow get pods ./kind-logs/ --verdict Stalled,Failed
  podflow get pods 'batch-worker-.*1' kubelet.log --sort-by duration
  podflow get pods -n default -o wide kubelet.log
  journalctl -u kubelet | podflow get pods --since 10m -
  podflow get pods kubelet.log -o yaml
  podflow get pods -w /var/log/kubelet.log         # a row again each time a pod changes; Ctrl-C ends
  podflow get pods ./kind-logs/ -o jsonpath='{range .items[*]}{.pod.name}{"\t"}{.verdict}{"\n"}{end}'
  podflow get pods ./kind-logs/ -o custom-columns=POD:.pod.name,NODE:.node,STARTUP:.startup.kubeletE2E
  podflow get pods --node kind-worker --since 30m    # a live node, through the API server
  kubectl podflow get pods --node kind-worker --context kind-kind
  sudo podflow get pods --journal --since 1h       # on the node itself`,
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveDefault
		},
		RunE: func(c *cobra.Command, args []string) error {
			inputs, names := splitInputsAndNames(args)
			opts.Paths = inputs
			opts.Names = append(opts.Names, names...)
			opts.Load.live.Node, opts.Load.live.Since, opts.Load.live.Until = opts.Node, opts.Since, opts.Until
			opts.posNames = names
			if len(inputs) == 0 {
				opts.Load.nameArgs = names
			}
			t, err := outputFormat(opts.Output, getPodsOutputs)
			if err != nil {
				return err
			}
			if err := t.checkKeys(reflect.TypeFor[timeline.FlowList]()); err != nil {
				return err
			}
			opts.template = t
			if err := checkSortBy(opts.SortBy); err != nil {
				return err
			}
			if !contains(colorModes, opts.Color) {
				return usageErrorf("--color %q: allowed: %s", opts.Color, strings.Join(colorModes, ", "))
			}
			if opts.AllNS && opts.Namespace != "" {
				return usageErrorf("-A/--all-namespaces and -n/--namespace cannot be used together")
			}
			if _, err := parseVerdicts(opts.Verdicts); err != nil {
				return err
			}
			if err := opts.contradictions(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return getPodsRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "output format: wide, json, yaml, name, jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC or custom-columns-file=FILE")
	f.BoolVar(&opts.NoHeaders, "no-headers", false, "do not print the header row")
	f.StringVar(&opts.SortBy, "sort-by", opts.SortBy, "sort by start, duration, waited, name or verdict, or by a JSONPath into -o json's items as kubectl takes one (.startup.kubeletE2E)")
	f.StringVarP(&opts.Namespace, "namespace", "n", "", "only pods in this namespace (default: all namespaces)")
	f.BoolVarP(&opts.AllNS, "all-namespaces", "A", false, "pods in all namespaces (the default)")
	f.StringVar(&opts.Node, "node", "", "only pods on this node")
	f.StringSliceVar(&opts.Verdicts, "verdict", nil, "only pods with these verdicts, e.g. Stalled,Failed")
	f.StringVar(&opts.Since, "since", "", "only pods active after this time (RFC3339, or a duration back from the log's end)")
	f.StringVar(&opts.Until, "until", "", "only pods active before this time (RFC3339, or a duration back from the log's end)")
	f.StringArrayVarP(&opts.Names, "pod", "p", nil, "only pods whose name matches (exact name, namespace/name, UID or regex; repeatable)")
	f.BoolVarP(&opts.Watch, "watch", "w", false, "after the table, follow the files and print a row again each time a pod changes (until Ctrl-C)")
	addColorFlag(cmd, &opts.Color)
	addLoadFlags(cmd, &opts.Load)
	_ = cmd.RegisterFlagCompletionFunc("output", outputCompletion(append(getPodsOutputs, templateOutputs...)...))
	_ = cmd.RegisterFlagCompletionFunc("sort-by", fixedCompletion(getPodsSorts...))
	_ = cmd.RegisterFlagCompletionFunc("verdict", fixedCompletion(verdictNames()...))
	return cmd
}

func getPodsRun(o *GetPodsOptions) error {
	ioS := o.IO
	if o.Watch {
		return getPodsWatch(o)
	}
	if o.Output != "json" && o.Output != "yaml" && (o.template == nil || o.template.rowsOnly()) {
		o.Load.rows = true
	}
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	if a.Live {
		// The node read is the node: its log may name its host otherwise
		// (a journald hostname).
		o.Node = ""
	}
	fl, err := o.selectFlows(a.Flows)
	if err != nil {
		return err
	}
	missing := o.missingNames(a.Flows)
	if missing != nil && len(fl.Items) == 0 {
		return missing
	}
	err = o.printPods(a, fl)
	if err == nil {
		err = missing
	}
	return err
}

// missingNames is the error for pod names given as arguments that match
// no pod of the inputs (kubectl get pods NAME: not found), with the pod
// names close to each, or nil.
func (o *GetPodsOptions) missingNames(fl *timeline.FlowList) error {
	var msgs []string
	var all []string
	for _, n := range o.posNames {
		pf, err := NewPodFilter(redactAll(o.IO.Redact, []string{n}))
		if err != nil {
			continue // reported by selectFlows
		}
		found := false
		for i := range fl.Items {
			if pf.Match(&fl.Items[i]) {
				found = true
				break
			}
		}
		if found {
			continue
		}
		if all == nil {
			for i := range fl.Items {
				all = append(all, fl.Items[i].Pod.Name)
			}
		}
		msgs = append(msgs, fmt.Sprintf("pod %q not found in the inputs (an argument that is no file or directory is a pod name)%s", sanitize.OneLine(n), didYouMean(n, all)))
	}
	if msgs == nil {
		return nil
	}
	return &ExitError{Code: ExitUsage, Err: errors.New(strings.Join(msgs, "\n"))}
}

// printPods prints the selected flows in the output asked for.
func (o *GetPodsOptions) printPods(a *Analysis, fl *timeline.FlowList) error {
	ioS := o.IO
	if o.template != nil {
		head := *fl
		head.Items = nil
		return o.template.print(ioS.Out, &head, each(fl.Items), o.NoHeaders)
	}
	switch o.Output {
	case "json":
		return printJSON(ioS.Out, fl)
	case "yaml":
		return printYAML(ioS.Out, fl)
	case "name":
		w := bufio.NewWriter(ioS.Out) // as Table.Print: not a write per pod
		for i := range fl.Items {
			fmt.Fprintf(w, "pod/%s\n", sanitize.OneLine(fl.Items[i].Pod.Key()))
		}
		return w.Flush()
	}
	if len(fl.Items) == 0 {
		fmt.Fprintln(ioS.ErrOut, "No pods found.")
		return nil
	}
	printPodTable(ioS, fl.Items, o.Output == "wide", o.NoHeaders, ioS.ColorEnabled(o.Color))
	if ioS.OutTTY && !o.NoHeaders {
		// On a terminal, more than one failure: what they have in common.
		// Not in a pipe, where a script reads rows.
		if gs := cause.Groups(fl.Items, nil); cause.Total(gs) > 1 {
			fmt.Fprintln(ioS.Out)
			printCauses(ioS.Out, gs, len(fl.Items), false, 5, ioS.Width)
		}
	}
	return nil
}

// rowOnly keeps of a flow what the table, the causes (internal/cause), -o name, the filters and the
// sort read: its stages, events and evidence go as soon as it is judged.
func rowOnly(f *timeline.Flow) {
	f.Stages, f.Events, f.Evidence, f.Startup, f.Trouble = nil, nil, nil, nil, nil
	f.Sandboxes, f.Findings, f.Hidden, f.Diagnosis, f.WaitingOn = nil, nil, nil, "", ""
	cs := make([]timeline.Container, len(f.Containers))
	for i, c := range f.Containers {
		cs[i] = timeline.Container{Name: c.Name, Type: c.Type, Restarts: c.Restarts}
	}
	f.Containers = cs
}

// timingOnly keeps what stats and trace read of a flow: who it is, its
// verdict, and when each stage began and ended, how and why; evidence,
// events and the rest go as the flow is judged.
func timingOnly(f *timeline.Flow) {
	f.Events, f.Evidence, f.Startup = nil, nil, nil
	f.Sandboxes, f.Findings, f.Hidden, f.Diagnosis, f.WaitingOn = nil, nil, nil, "", ""
	for i := range f.Stages {
		f.Stages[i].Evidence = nil
	}
	for i := range f.Containers {
		c := &f.Containers[i]
		c.IDs = nil
		for j := range c.Stages {
			c.Stages[j].Evidence = nil
		}
	}
}
