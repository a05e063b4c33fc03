package cmd

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// DescribePodOptions holds what `podflow describe pod` needs.
type DescribePodOptions struct {
	IO   *IO
	Load LoadOptions

	Name      string
	Paths     []string
	Namespace string
	UID       string
	Node      string
	Color     string
	Evidence  int // evidence lines to show at most
}

// NewCmdDescribePod builds `podflow describe pod`.
func NewCmdDescribePod(ioS *IO, runF func(*DescribePodOptions) error) *cobra.Command {
	opts := &DescribePodOptions{IO: ioS, Color: "auto", Evidence: 20}
	cmd := &cobra.Command{
		Use:     "pod NAME [FILE|DIR|-]...",
		Aliases: []string{"pods", "po"},
		Short:   "Show one pod's flow: stages, containers, events, startup and evidence",
		Long: `Show one pod's flow in detail, like kubectl describe: identity, verdict
and diagnosis, the stages with their start (relative to the flow's start
and absolute), duration, status and a bar to scale, the waits between
stages, each container's own stages, restarts and exit codes, the events
the kubelet recorded, the kubelet's startup figures next to podflow's,
node findings that overlap the pod, and the log lines that prove the
verdict, read back from the inputs.

NAME is a pod name, namespace/name or UID, before or after the inputs; when nothing matches exactly,
pods whose name starts with NAME are taken (as kubectl describe does).
When several pods or incarnations match, they are listed and the command
exits 2: pick one with -n or --uid.

Exit status: 0 on success, 2 for bad flags, unreadable input, or a name
that matches no pod or several.`,
		Example: `  podflow describe pod payments-7b4d9c8f6-q9zrt kubelet.log
  podflow describe pod/payments-7b4d9c8f6-q9zrt kubelet.log
  podflow describe pod api kubelet.log                  # the one pod whose name starts with api
  podflow describe pod default/web-7d9f8c6b5-x2kqp ./kind-logs/
  podflow describe pod web --uid 5c18c6f7-a0eb-41a1-8101-c7db6cf1e29f ./kind-logs/
  podflow describe pod web-7d9f8c6b5-x2kqp --node kind-worker     # a live node, through the API server`,
		RunE: func(c *cobra.Command, args []string) error {
			// NAME and the inputs in either order, as get pods takes them.
			inputs, names := splitInputsAndNames(args)
			switch {
			case len(names) == 0 && len(args) > 0:
				return usageErrorf("the pod NAME is missing (every argument is an input: %s)\nUsage: %s NAME [FILE|DIR|-]...", strings.Join(args, " "), c.CommandPath())
			case len(names) == 0:
				return usageErrorf("give the pod NAME, then the inputs\nSee '%s --help'.", c.CommandPath())
			case len(names) > 1:
				return usageErrorf("one pod at a time: %s are not inputs (no such file or directory), so they are taken for pod names\nSee '%s --help'.", strings.Join(names, ", "), c.CommandPath())
			}
			opts.Name, opts.Paths = names[0], inputs
			if !contains(colorModes, opts.Color) {
				return usageErrorf("--color %q: allowed: %s", opts.Color, strings.Join(colorModes, ", "))
			}
			if opts.Evidence < 0 {
				return usageErrorf("--evidence %d: want a number of lines, 0 or more", opts.Evidence)
			}
			if runF != nil {
				return runF(opts)
			}
			return describePodRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Namespace, "namespace", "n", "", "the pod's namespace (default: any)")
	f.StringVar(&opts.UID, "uid", "", "the pod's UID, to pick one of several incarnations")
	f.StringVar(&opts.Node, "node", "", "the pod's node, to pick one of the same pod's flows on several nodes")
	f.IntVar(&opts.Evidence, "evidence", opts.Evidence, "show at most this many evidence lines (0: none)")
	addColorFlag(cmd, &opts.Color)
	addLoadFlags(cmd, &opts.Load)
	return cmd
}

// podQuery is what names a pod on the command line. nodeWay is how the
// command lets a user pick a node: describe has --node; lines pod reads
// the files given, which pick one.
type podQuery struct{ name, ns, uid, node, nodeWay string }

// resolvePod finds the one flow q names. The name may be pod/NAME,
// namespace/name or a UID; without an exact match, a name prefix is
// tried. Several matches print a list to ErrOut and return exit 2.
func resolvePod(ioS *IO, fl *timeline.FlowList, q podQuery) (*timeline.Flow, error) {
	name, ns, uid, node := q.name, q.ns, q.uid, q.node
	// With --redact the flows carry masked names; a real name given on the
	// command line masks to the same (and a mask stays a mask).
	name, ns, node = ioS.Redact.Text(name), ioS.Redact.Text(ns), ioS.Redact.Text(node)
	name = strings.TrimPrefix(strings.TrimPrefix(name, "pods/"), "pod/")
	if i := strings.IndexByte(name, '/'); i >= 0 {
		if ns != "" && ns != name[:i] {
			return nil, usageErrorf("pod %q: namespace %q in the name contradicts -n %q", name, name[:i], ns)
		}
		ns, name = name[:i], name[i+1:]
	}
	match := func(exact bool) []*timeline.Flow {
		var out []*timeline.Flow
		for i := range fl.Items {
			f := &fl.Items[i]
			if ns != "" && f.Pod.Namespace != ns || uid != "" && f.Pod.UID != uid || node != "" && f.Node != node {
				continue
			}
			ok := f.Pod.Name == name || f.Pod.UID != "" && f.Pod.UID == name
			if !exact {
				ok = strings.HasPrefix(f.Pod.Name, name)
			}
			if ok {
				out = append(out, f)
			}
		}
		return out
	}
	found := match(true)
	if len(found) == 0 {
		found = match(false)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		what := strconv.Quote(name)
		if ns != "" {
			what += " in namespace " + strconv.Quote(ns)
		}
		if uid != "" {
			what += " with UID " + uid
		}
		if node != "" {
			what += " on node " + strconv.Quote(node)
		}
		var names []string
		for i := range fl.Items {
			if f := &fl.Items[i]; (ns == "" || f.Pod.Namespace == ns) && (node == "" || f.Node == node) {
				names = append(names, f.Pod.Name)
			}
		}
		return nil, inputError(fmt.Errorf("pod %s not found in %s (%d pods; see 'podflow get pods')%s", what, inputsPhrase(fl.Summary.Inputs), len(fl.Items), didYouMean(name, names)))
	}
	fmt.Fprintf(ioS.ErrOut, "%d pods match %q:\n", len(found), name)
	t := &Table{Headers: []string{"NAMESPACE", "NAME", "UID", "NODE", "VERDICT", "START"}, Indent: 2, Flex: -1}
	for _, f := range found {
		t.Rows = append(t.Rows, []string{dash(sanitize.OneLine(f.Pod.Namespace)), sanitize.OneLine(f.Pod.Name), dash(sanitize.OneLine(f.Pod.UID)), dash(sanitize.OneLine(f.Node)), string(f.Verdict), stamp(f.Start)})
	}
	t.Print(ioS.ErrOut, false)
	return nil, usageErrorf("%q is ambiguous: %s", name, ambiguityHint(found, q.nodeWay))
}

// ambiguityHint names what tells the flows apart: only those flags help.
func ambiguityHint(found []*timeline.Flow, nodeWay string) string {
	differ := func(key func(*timeline.Flow) string) bool {
		for _, f := range found[1:] {
			if key(f) != key(found[0]) {
				return true
			}
		}
		return false
	}
	var ways []string
	if differ(func(f *timeline.Flow) string { return f.Pod.Name }) {
		ways = append(ways, "the full name")
	}
	if differ(func(f *timeline.Flow) string { return f.Pod.Namespace }) {
		ways = append(ways, "-n NAMESPACE")
	}
	if differ(func(f *timeline.Flow) string { return f.Pod.UID }) {
		ways = append(ways, "--uid UID")
	}
	if differ(func(f *timeline.Flow) string { return f.Node }) {
		ways = append(ways, nodeWay)
	}
	switch len(ways) {
	case 0:
		return "they are incarnations of one pod (same namespace, name, UID and node) that podflow cannot tell apart by flags; 'podflow get pods NAME -o wide' lists each"
	case 1:
		return "pick one with " + ways[0]
	}
	return "pick one with " + strings.Join(ways[:len(ways)-1], ", ") + " or " + ways[len(ways)-1]
}

// describeTrim keeps the detail of the flows the pod named may resolve to
// (any whose name starts with it, or whose UID it is) and only the row of
// the others, which the list of an ambiguous name shows. With --redact a
// name may be a mask, which flows carry only once judged: nothing is
// trimmed then.
func describeTrim(ioS *IO, name, uid string) func(*timeline.Flow) {
	if ioS.Redact != nil {
		return nil
	}
	name = strings.TrimPrefix(strings.TrimPrefix(name, "pods/"), "pod/")
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return func(f *timeline.Flow) {
		if strings.HasPrefix(f.Pod.Name, name) || f.Pod.UID != "" && (f.Pod.UID == name || f.Pod.UID == uid) {
			return
		}
		rowOnly(f)
	}
}

func describePodRun(o *DescribePodOptions) error {
	ioS := o.IO
	o.Load.trim = describeTrim(ioS, o.Name, o.UID)
	o.Load.keep = keepPod(ioS, o.Name, o.UID, true) // (its evidence lines)
	o.Load.live.Node = o.Node
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	node := o.Node
	if a.Live {
		node = "" // one node was read, whatever its log calls it
	}
	f, err := resolvePod(ioS, a.Flows, podQuery{o.Name, o.Namespace, o.UID, node, "--node NODE"})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	d := &describer{w: &buf, a: a, f: f, color: ioS.ColorEnabled(o.Color), maxEvidence: o.Evidence, wrapAt: 100}
	if ioS.OutTTY && ioS.Width > 0 {
		d.width, d.wrapAt = ioS.Width, ioS.Width
	}
	d.describe()
	_, err = ioS.Out.Write(buf.Bytes())
	return err
}

type describer struct {
	w           io.Writer
	a           *Analysis
	f           *timeline.Flow
	color       bool
	width       int // terminal width: tables and evidence are cut to it; 0: not a terminal
	wrapAt      int // where the diagnosis wraps
	maxEvidence int
}

func (d *describer) kv(indent int, key, val string) {
	fmt.Fprintf(d.w, "%s%-*s%s\n", strings.Repeat(" ", indent), 14-indent, key+":", val)
}

func (d *describer) section(title string) { fmt.Fprintf(d.w, "%s:\n", title) }

func (d *describer) describe() {
	f := d.f
	d.kv(0, "Name", sanitize.OneLine(f.Pod.Name))
	d.kv(0, "Namespace", dash(sanitize.OneLine(f.Pod.Namespace)))
	d.kv(0, "UID", dash(sanitize.OneLine(f.Pod.UID)))
	d.kv(0, "Node", dash(sanitize.OneLine(f.Node)))
	src := dash(f.Source)
	if f.Static {
		src += " (static pod"
		if f.Mirror != "" {
			src += ", mirror " + sanitize.OneLine(f.Mirror)
		}
		src += ")"
	}
	d.kv(0, "Source", src)
	if f.Incarnation > 1 {
		d.kv(0, "Incarnation", strconv.Itoa(f.Incarnation))
	}
	d.kv(0, "Start", stamp(f.Start))
	if underWay(f) {
		// Its End is the log's end, where its duration runs to.
		d.kv(0, "End", stamp(f.End)+"  ("+humanDuration(time.Duration(f.Duration))+", under way when the log ends)")
	} else {
		d.kv(0, "End", stamp(f.End)+"  ("+humanDuration(time.Duration(f.Duration))+")")
	}
	// What kubectl get pods showed (the symptom), then podflow's verdict
	// (the diagnosis).
	d.kv(0, "Status", dash(f.Status)+"  (kubectl get pods at the log's end)")
	d.kv(0, "Verdict", paint(d.color, verdictColor(f.Verdict), string(f.Verdict)))
	if f.StalledAt != "" {
		d.kv(0, "Stalled At", stageLabel(f))
		d.kv(0, "Waited", waitedCell(f))
	} else {
		d.kv(0, "Last Stage", dash(f.Stage))
	}
	if f.WaitingOn != "" {
		d.kv(0, "Waiting On", sanitize.OneLine(f.WaitingOn))
	}
	if f.Reason != "" {
		d.kv(0, "Reason", sanitize.OneLine(f.Reason))
	}
	if f.Diagnosis != "" {
		d.section("Diagnosis")
		for _, l := range wrap(sanitize.OneLine(f.Diagnosis), d.wrapAt-2) {
			fmt.Fprintf(d.w, "  %s\n", l)
		}
	}
	d.section("Stages")
	d.stages(f.Stages, 2, true)
	d.containers()
	d.events()
	d.startup()
	d.findings()
	if len(f.Hidden) > 0 {
		d.section("Hidden")
		for _, h := range f.Hidden {
			fmt.Fprintf(d.w, "  %s\n", sanitize.OneLine(h))
		}
	}
	d.evidence()
}
