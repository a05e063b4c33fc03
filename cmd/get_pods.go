package cmd

import (
	"bufio"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

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
may stall), until Ctrl-C (exit status 0). It takes the default table,
-o wide or -o name.

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
			if opts.Watch && opts.Output != "" && opts.Output != "wide" && opts.Output != "name" {
				return usageErrorf("-w prints a row each time a pod changes: it takes the default table, -o wide or -o name, not -o %s", opts.Output)
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

func verdictNames() []string {
	var out []string
	for _, v := range timeline.Verdicts {
		out = append(out, string(v))
	}
	return out
}

// parseVerdicts checks --verdict values (case-insensitive).
func parseVerdicts(vs []string) (map[timeline.Verdict]bool, error) {
	if len(vs) == 0 {
		return nil, nil
	}
	out := map[timeline.Verdict]bool{}
	for _, v := range vs {
		v = strings.TrimSpace(v)
		found := false
		for _, known := range timeline.Verdicts {
			if strings.EqualFold(v, string(known)) {
				out[known] = true
				found = true
			}
		}
		if !found {
			return nil, usageErrorf("--verdict %q: allowed: %s", v, strings.Join(verdictNames(), ", "))
		}
	}
	return out, nil
}

// contradictions refuses filters that no pod can pass, before any log is
// read, where the flags alone say so: "No pods found" and exit 0 would
// pass for an answer. A window whose ends need the log's end (one a
// duration, the other a time) is checked by selectFlows.
func (o *GetPodsOptions) contradictions() error {
	if o.Since != "" && o.Until != "" {
		ds, errS := time.ParseDuration(o.Since)
		du, errU := time.ParseDuration(o.Until)
		ts, errTS := time.Parse(time.RFC3339Nano, o.Since)
		tu, errTU := time.Parse(time.RFC3339Nano, o.Until)
		switch {
		case errS == nil && errU == nil && ds >= 0 && du >= 0 && ds <= du:
			// Durations count back from the log's end: since 1h is later than until 2h.
			var end time.Time
			return emptyWindow(o.Since, o.Until, end.Add(-ds), end.Add(-du))
		case errTS == nil && errTU == nil && !ts.Before(tu):
			return emptyWindow(o.Since, o.Until, ts, tu)
		}
	}
	if o.Namespace != "" {
		for _, n := range o.Names {
			n = strings.TrimPrefix(strings.TrimPrefix(n, "pods/"), "pod/")
			ns, _, ok := strings.Cut(n, "/")
			if ok && regexp.QuoteMeta(ns) == ns && ns != o.Namespace {
				return usageErrorf("-n %s and pod %q: that pod is in namespace %s, so no pod can match both; drop one of them", o.Namespace, n, ns)
			}
		}
	}
	return nil
}

// emptyWindow is the error for --since at or after --until.
func emptyWindow(sinceArg, untilArg string, since, until time.Time) error {
	return usageErrorf("--since %s --until %s: an empty window (--since is %s, at or after --until; a duration counts back from the end of the log, so --since 1h --until 2h is empty): give --since the earlier time or the longer duration",
		sinceArg, untilArg, describeGap(since, until))
}

// describeGap says how far since is after until.
func describeGap(since, until time.Time) string {
	if d := since.Sub(until); d > 0 {
		return d.String() + " later"
	}
	return "the same time"
}

// selectFlows applies the get-pods filters to a FlowList in place of a
// copy: the returned list shares flows but has only the selected items,
// and nodes and findings narrowed to --node.
func (o *GetPodsOptions) selectFlows(fl *timeline.FlowList) (*timeline.FlowList, error) {
	verdicts, err := parseVerdicts(o.Verdicts)
	if err != nil {
		return nil, err
	}
	names, err := NewPodFilter(redactAll(o.IO.Redact, o.Names))
	if err != nil {
		return nil, err
	}
	since, err := timeArg("since", o.Since, fl.Summary.End)
	if err != nil {
		return nil, err
	}
	until, err := timeArg("until", o.Until, fl.Summary.End)
	if err != nil {
		return nil, err
	}
	if !since.IsZero() && !until.IsZero() && !since.Before(until) {
		return nil, emptyWindow(o.Since, o.Until, since, until)
	}
	ns, node := o.IO.Redact.Text(o.Namespace), o.IO.Redact.Text(o.Node)
	// The selected flows are sorted by pointer and copied into place once:
	// a flow is 464 bytes, and a stable sort moves each many times.
	keep := make([]*timeline.Flow, 0, len(fl.Items))
	for i := range fl.Items {
		f := &fl.Items[i]
		switch {
		case ns != "" && f.Pod.Namespace != ns,
			node != "" && f.Node != node,
			verdicts != nil && !verdicts[f.Verdict],
			!names.Match(f),
			!since.IsZero() && f.End.Before(since),
			!until.IsZero() && f.Start.After(until):
			continue
		}
		keep = append(keep, f)
	}
	sortFlows(keep, o.SortBy)
	out := *fl
	if !inPlace(keep, fl.Items) {
		out.Items = make([]timeline.Flow, len(keep))
		for i, f := range keep {
			out.Items[i] = *f
		}
	}
	if o.Node != "" {
		out.Nodes = nil
		for _, n := range fl.Nodes {
			if n.Name == node {
				out.Nodes = append(out.Nodes, n)
			}
		}
		out.Findings = []timeline.Finding{}
		for _, fd := range fl.Findings {
			if fd.Node == node {
				out.Findings = append(out.Findings, fd)
			}
		}
	}
	out.Summary.Pods = len(out.Items)
	return &out, nil
}

// inPlace reports whether keep points at every flow of items, in their
// order: the selection is items itself, and copying it (some 5 MB for
// 10,000 pods, at the end of the run where memory peaks) would gain
// nothing.
func inPlace(keep []*timeline.Flow, items []timeline.Flow) bool {
	if len(keep) != len(items) {
		return false
	}
	for i, f := range keep {
		if f != &items[i] {
			return false
		}
	}
	return true
}

func verdictRank(v timeline.Verdict) int {
	for i, k := range timeline.Verdicts {
		if k == v {
			return i
		}
	}
	return len(timeline.Verdicts)
}

// sortFlows sorts ascending by key; ties keep start order.
func sortFlows(items []*timeline.Flow, key string) {
	if !contains(getPodsSorts, key) && key != "" {
		sortFlowsByPath(items, key) // kubectl's JSONPath form (sortby.go)
		return
	}
	less := func(a, b *timeline.Flow) bool { return a.Start.Before(b.Start) }
	switch key {
	case "duration":
		less = func(a, b *timeline.Flow) bool { return a.Duration < b.Duration }
	case "waited":
		less = func(a, b *timeline.Flow) bool { return a.Waited < b.Waited }
	case "name":
		less = func(a, b *timeline.Flow) bool {
			if a.Pod.Namespace != b.Pod.Namespace {
				return a.Pod.Namespace < b.Pod.Namespace
			}
			if a.Pod.Name != b.Pod.Name {
				return a.Pod.Name < b.Pod.Name
			}
			return a.Incarnation < b.Incarnation
		}
	case "verdict":
		less = func(a, b *timeline.Flow) bool { return verdictRank(a.Verdict) < verdictRank(b.Verdict) }
	}
	if key == "" || key == "start" {
		// The engine lists flows by start already: nothing to move.
		if slices.IsSortedFunc(items, func(a, b *timeline.Flow) int { return a.Start.Compare(b.Start) }) {
			return
		}
	}
	slices.SortStableFunc(items, func(a, b *timeline.Flow) int {
		switch {
		case less(a, b):
			return -1
		case less(b, a):
			return 1
		}
		return 0
	})
}

// flowTime is the WAIT/DUR cell: waited for stalled flows,
// duration otherwise.
func flowTime(f *timeline.Flow) string {
	if f.Verdict == timeline.VerdictStalled && f.Waited > 0 {
		return humanDuration(time.Duration(f.Waited))
	}
	return humanDuration(time.Duration(f.Duration))
}

// waitedCell is how long a flow waited at the stage it stopped at, or
// "-" when it stopped at none or at one that never began (a pending
// stage waited no time that the log shows: "0s" would claim it did).
func waitedCell(f *timeline.Flow) string {
	if f.StalledAt == "" || f.Waited == 0 {
		return "-"
	}
	return humanDuration(time.Duration(f.Waited))
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
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
	f.Sandboxes, f.Findings, f.Hidden, f.Diagnosis = nil, nil, nil, ""
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
	f.Sandboxes, f.Findings, f.Hidden, f.Diagnosis = nil, nil, nil, ""
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

// shortReason is the REASON width of the default table.
const shortReason = 80

var (
	grpcBoilerplate = regexp.MustCompile(`rpc error: code = \w+ desc = `)
	inPodSuffix     = regexp.MustCompile(` in pod [^ ]+_[^ ]+\([0-9a-f-]+\)`)
)

// shorten fits an error chain ("what: why: …: root cause") into n columns:
// gRPC boilerplate and "in pod name_ns(uid)" go, then the first link (what
// failed) and as many of the last links (the root cause) as fit are kept.
func shorten(s string, n int) string {
	// The literal each pattern starts with, looked for first: most reasons
	// have neither, and a regexp costs more even to find nothing.
	if strings.Contains(s, "rpc error: code = ") {
		s = grpcBoilerplate.ReplaceAllString(s, "")
	}
	if strings.Contains(s, " in pod ") {
		s = inPodSuffix.ReplaceAllString(s, "")
	}
	if textWidth(s) <= n {
		return s
	}
	if n < 30 {
		// Too narrow for a head and a root cause: the beginning, to a word.
		return truncateWords(s, n)
	}
	links := strings.Split(s, ": ")
	head := links[0]
	tail := ""
	for i := len(links) - 1; i > 0; i-- {
		cand := links[i]
		if tail != "" {
			cand += ": " + tail
		}
		if textWidth(head)+textWidth(" … ")+textWidth(cand) > n {
			break
		}
		tail = cand
	}
	if tail == "" {
		// Even the root cause does not fit beside the head: cut the head.
		last := links[len(links)-1]
		room := n - textWidth(last) - textWidth(" … ")
		if len(links) == 1 || room < n/3 {
			return truncateWords(s, n)
		}
		return cutWords(head, room) + " … " + last
	}
	return truncate(head, n) + " … " + tail
}

// Columns of the get-pods table.
const (
	colNS = iota
	colName
	colNode
	colStatus
	colVerdict
	colStage
	colTime
)

// podTableSteps is how the get-pods table gives up width on a terminal
// narrower than its widest row, in order: gaps of two, a NAMESPACE every
// pod shares left out, REASON down to 30 columns, then node names and
// stages cut (a DNS node name keeps its first label, a stage its
// container), REASON down to 20, nodes and stages cut further, REASON
// down to 12, NODE left out, STATUS and REASON down to a floor, and at last STAGE
// left out. NAME
// is never cut, as kubectl never cuts it: a pod name is what the user
// copies into the next command. reason is the REASON column; oneNS says
// every pod is in one namespace. -o wide keeps every column it was asked
// for: they only narrow.
func podTableSteps(reason int, oneNS, wide bool) []fitStep {
	steps := []fitStep{{col: -1, to: 2}}
	if oneNS && !wide {
		steps = append(steps, fitStep{col: colNS, drop: true}) // said on standard error: nothing is lost
	}
	steps = append(steps, fitStep{col: reason, to: 30})
	if wide {
		steps = append(steps, fitStep{col: reason - 2, to: 13}) // UID
	}
	steps = append(steps, fitStep{col: colNode, to: 14}, fitStep{col: colStage, to: 24}, fitStep{col: reason, to: 20},
		fitStep{col: colNode, to: 12}, fitStep{col: colStage, to: 20}, fitStep{col: reason, to: 12}, fitStep{col: colStage, to: 14})
	if !wide {
		steps = append(steps, fitStep{col: colNode, drop: true})
	}
	steps = append(steps, fitStep{col: colStage, to: 10}, fitStep{col: colStatus, to: 18}, fitStep{col: reason, to: 8})
	if !wide {
		// Long pod names in 80 columns: STATUS, VERDICT and the time
		// stay, and REASON says where it stopped better than a cut stage.
		steps = append(steps, fitStep{col: colStage, drop: true})
	}
	return steps
}

// printPodTable prints the get-pods table. On a terminal it is fitted to
// the width (fitWidths with podTableSteps): no row wraps; the reason is
// shortened to the room left, a node name and a stage cut, never a pod
// name; columns left out are said on standard error. Piped, the
// rows are whole (the reason as shorten gives it in 80 columns, whole
// with -o wide).
func printPodTable(ioS *IO, items []timeline.Flow, wide, noHeaders, color bool) {
	t := &Table{
		Headers:  []string{"NAMESPACE", "NAME", "NODE", "STATUS", "VERDICT", "STAGE", "WAIT/DUR", "REASON"},
		NoHeader: noHeaders,
		Flex:     -1,
	}
	if wide {
		// Each figure once: WAITED and DURATION stand for WAIT/DUR.
		t.Headers = []string{"NAMESPACE", "NAME", "NODE", "STATUS", "VERDICT", "STAGE", "START", "WAITED", "DURATION", "RESTARTS", "UID", "SOURCE", "REASON"}
	}
	reasons := make([]string, len(items))
	for i := range items {
		f := &items[i]
		name := f.Pod.Name
		if f.Incarnation > 1 {
			name += " #" + strconv.Itoa(f.Incarnation)
		}
		row := []string{dash(sanitize.OneLine(f.Pod.Namespace)), sanitize.OneLine(name), dash(sanitize.OneLine(f.Node)), dash(f.Status), string(f.Verdict), stageLabel(f)}
		if wide {
			restarts := 0
			for _, c := range f.Containers {
				restarts += c.Restarts
			}
			row = append(row, stamp(f.Start), waitedCell(f), humanDuration(time.Duration(f.Duration)),
				strconv.Itoa(restarts), dash(sanitize.OneLine(f.Pod.UID)), dash(f.Source))
		} else {
			row = append(row, flowTime(f))
		}
		reasons[i] = sanitize.OneLine(f.Reason)
		if ioS.OutTTY && f.Recovered() {
			// On a terminal a pod that ran after trouble is marked, as
			// one that did not is by its verdict's colour.
			reasons[i] = "⚠ " + reasons[i]
		}
		reason := reasons[i]
		if !wide {
			// The short form, like kubectl's STATUS; -o wide, describe and
			// -o json give it whole.
			reason = shorten(reason, shortReason)
		}
		row = append(row, dash(reason))
		t.Rows = append(t.Rows, row)
	}
	keep := make([]bool, len(t.Headers))
	for i := range keep {
		keep[i] = true
	}
	if ioS.OutTTY && ioS.Width > 0 {
		keep = fitPodTable(ioS, t, reasons, wide)
	}
	t.Color = func(row, col int) string {
		if col == colVerdict {
			return flowColor(&items[row])
		}
		return ""
	}
	if !keep[colNS] || !keep[colNode] {
		// Columns left out go from the table, and the colour follows the
		// verdict to its place.
		verdictAt := 0
		for i := range colVerdict {
			if keep[i] {
				verdictAt++
			}
		}
		t.Headers = keepCols(t.Headers, keep)
		for i, r := range t.Rows {
			t.Rows[i] = keepCols(r, keep)
		}
		t.Color = func(row, col int) string {
			if col == verdictAt {
				return flowColor(&items[row])
			}
			return ""
		}
	}
	t.Print(ioS.Out, color)
}

// fitPodTable fits t, the get-pods table, to the terminal's width: cells
// are cut to the widths fitWidths gives, the reasons shortened from their
// whole text, the gap set and lines clipped as a last resort. It returns
// which columns stay, and says on standard error which do not.
func fitPodTable(ioS *IO, t *Table, reasons []string, wide bool) []bool {
	reasonCol := len(t.Headers) - 1
	nat := make([]int, len(t.Headers))
	if !t.NoHeader {
		for i, h := range t.Headers {
			nat[i] = textWidth(h)
		}
	}
	oneNS := true
	for _, r := range t.Rows {
		for i, c := range r {
			nat[i] = max(nat[i], textWidth(c))
		}
		oneNS = oneNS && r[colNS] == t.Rows[0][colNS]
	}
	w, gap := fitWidths(nat, 3, reasonCol, podTableSteps(reasonCol, oneNS, wide), ioS.Width)
	t.Gap, t.MaxWidth, t.Clip = gap, ioS.Width, true
	cut := func(i int, s string) string {
		switch i {
		case colName:
			return s // never cut (podTableSteps)
		case colNode:
			return cutHost(s, w[i])
		case colStage:
			return cutStage(s, w[i])
		case reasonCol:
			return s // shortened below, from the whole reason
		}
		return truncate(s, w[i])
	}
	for ri, r := range t.Rows {
		for i := range r {
			if w[i] > 0 {
				r[i] = cut(i, r[i])
			}
		}
		if reasons[ri] != "" && w[reasonCol] < nat[reasonCol] {
			r[reasonCol] = shorten(reasons[ri], w[reasonCol])
		}
	}
	keep := make([]bool, len(w))
	var left []string
	for i, x := range w {
		keep[i] = x > 0
		if !keep[i] {
			what := t.Headers[i]
			if i == colNS && len(t.Rows) > 0 {
				what += " (all " + t.Rows[0][colNS] + ")"
			}
			left = append(left, what)
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(ioS.ErrOut, "podflow: %s left out to fit %d columns\n", strings.Join(left, " and "), ioS.Width)
	}
	return keep
}

// keepCols is r without the columns keep leaves out.
func keepCols(r []string, keep []bool) []string {
	out := r[:0:0]
	for i, c := range r {
		if i >= len(keep) || keep[i] {
			out = append(out, c)
		}
	}
	return out
}
