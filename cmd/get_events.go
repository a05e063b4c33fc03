package cmd

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/util/duration"
)

// GetEventsOptions holds what `podflow get events` needs. The pods whose
// events are listed are chosen as get pods chooses them (Select).
type GetEventsOptions struct {
	Select    GetPodsOptions
	Types     []string // Normal, Warning
	Output    string
	NoHeaders bool

	template *templateOutput
}

var getEventsOutputs = []string{"wide", "json", "yaml"}

// PodEvent is one event the kubelet recorded about a pod or its node, as
// get events prints it: the event and the object it is about.
type PodEvent struct {
	timeline.Event
	Object EventObject `json:"involvedObject"`
	Node   string      `json:"node,omitempty"` // the kubelet that recorded it: the event's source host
}

// EventObject is the pod or node an event is about (the API's
// involvedObject).
type EventObject struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	UID       string `json:"uid,omitempty"`
}

// EventList is what get events -o json and -o yaml print.
type EventList struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Items      []PodEvent `json:"items"`
}

// NewCmdGetEvents builds `podflow get events`.
func NewCmdGetEvents(ioS *IO, runF func(*GetEventsOptions) error) *cobra.Command {
	opts := &GetEventsOptions{Select: GetPodsOptions{IO: ioS, SortBy: "start", Color: "auto"}}
	sel := &opts.Select
	cmd := &cobra.Command{
		Use:     "events [NAME|REGEX] [FILE|DIR|-]...",
		Aliases: []string{"event", "ev"},
		Short:   "List the events the kubelet recorded about pods, as kubectl get events does",
		Long: `List the events the kubelet recorded in its log ("Event occurred" lines:
Scheduled is the scheduler's and never appears; Pulling, Pulled, Created,
Started, Killing, BackOff, Failed, FailedMount, Unhealthy... are the
kubelet's), one row per distinct event, oldest first, as kubectl get
events prints them: LAST SEEN (how long before the end of the log it was
last recorded), TYPE, REASON, OBJECT and MESSAGE. -o wide adds the
container (SUBOBJECT), the node, FIRST SEEN and COUNT.

The pods are chosen as get pods chooses them (names, -p, -n, --node,
--verdict); --since and --until keep the events recorded in that window;
--type keeps Normal or Warning events.

-o json and -o yaml print an EventList (apiVersion podflow/v1) whose items
carry involvedObject (the pod) besides the event.

` + templateOutputsHelp + `
Here the document is the EventList: -o jsonpath='{.items[*].reason}'.`,
		Example: `  podflow get events kubelet.log
  podflow get events kubelet.log --type Warning
  podflow get events web-7d9f8c6b5-x2kqp kubelet.log -o wide
  podflow get events ./kind-logs/ --since 10m -o json`,
		RunE: func(c *cobra.Command, args []string) error {
			inputs, names := splitInputsAndNames(args)
			sel.Paths = inputs
			sel.Names = append(sel.Names, names...)
			sel.Load.live.Node, sel.Load.live.Since, sel.Load.live.Until = sel.Node, sel.Since, sel.Until
			sel.posNames = names
			if len(inputs) == 0 {
				sel.Load.nameArgs = names
			}
			t, err := outputFormat(opts.Output, getEventsOutputs)
			if err != nil {
				return err
			}
			if err := t.checkKeys(reflect.TypeFor[EventList]()); err != nil {
				return err
			}
			opts.template = t
			for _, ty := range opts.Types {
				if ty != "Normal" && ty != "Warning" {
					return usageErrorf("--type %q: allowed: Normal, Warning", ty)
				}
			}
			if !contains(colorModes, sel.Color) {
				return usageErrorf("--color %q: allowed: %s", sel.Color, strings.Join(colorModes, ", "))
			}
			if sel.AllNS && sel.Namespace != "" {
				return usageErrorf("-A/--all-namespaces and -n/--namespace cannot be used together")
			}
			if _, err := parseVerdicts(sel.Verdicts); err != nil {
				return err
			}
			if err := sel.contradictions(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return getEventsRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "output format: wide, json, yaml, jsonpath=TEMPLATE, jsonpath-file=FILE, custom-columns=SPEC or custom-columns-file=FILE")
	f.BoolVar(&opts.NoHeaders, "no-headers", false, "do not print the header row")
	f.StringSliceVar(&opts.Types, "type", nil, "only events of these types: Normal, Warning")
	f.StringVarP(&sel.Namespace, "namespace", "n", "", "only pods in this namespace (default: all namespaces)")
	f.BoolVarP(&sel.AllNS, "all-namespaces", "A", false, "pods in all namespaces (the default)")
	f.StringVar(&sel.Node, "node", "", "only pods on this node")
	f.StringSliceVar(&sel.Verdicts, "verdict", nil, "only pods with these verdicts, e.g. Stalled,Failed")
	f.StringVar(&sel.Since, "since", "", "only events recorded after this time (RFC3339, or a duration back from the log's end)")
	f.StringVar(&sel.Until, "until", "", "only events recorded before this time (RFC3339, or a duration back from the log's end)")
	f.StringArrayVarP(&sel.Names, "pod", "p", nil, "only pods whose name matches (exact name, namespace/name, UID or regex; repeatable)")
	addColorFlag(cmd, &sel.Color)
	addLoadFlags(cmd, &sel.Load)
	_ = cmd.RegisterFlagCompletionFunc("output", outputCompletion(append(getEventsOutputs, templateOutputs...)...))
	_ = cmd.RegisterFlagCompletionFunc("type", cobra.FixedCompletions([]string{"Normal", "Warning"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func getEventsRun(o *GetEventsOptions) error {
	sel := &o.Select
	ioS := sel.IO
	a, err := analyze(ioS, sel.Paths, sel.Load)
	if err != nil {
		return err
	}
	if a.Live {
		sel.Node = ""
	}
	fl, err := sel.selectFlows(a.Flows)
	if err != nil {
		return err
	}
	missing := sel.missingNames(a.Flows)
	if missing != nil && len(fl.Items) == 0 {
		return missing
	}
	since, _ := timeArg("since", sel.Since, a.Flows.Summary.End) // (checked by selectFlows)
	until, _ := timeArg("until", sel.Until, a.Flows.Summary.End)
	evs := podEvents(fl.Items, o.Types, since, until)
	if len(sel.Names) == 0 && sel.Namespace == "" && len(sel.Verdicts) == 0 {
		// No pod chosen: the nodes' own events too, as kubectl lists them.
		evs = append(evs, nodeEvents(fl.Nodes, o.Types, since, until)...)
		sortEvents(evs)
	}
	if err := o.print(fl.Summary.End, evs); err != nil {
		return err
	}
	return missing
}

// podEvents lists the events of the flows, of the types asked for (all
// when none), last recorded in [since, until] (either zero: unbounded),
// oldest first.
func podEvents(items []timeline.Flow, types []string, since, until time.Time) []PodEvent {
	out := []PodEvent{}
	for i := range items {
		f := &items[i]
		for _, ev := range f.Events {
			if eventIn(ev, types, since, until) {
				out = append(out, PodEvent{Event: ev, Node: f.Node,
					Object: EventObject{Kind: "Pod", Namespace: f.Pod.Namespace, Name: f.Pod.Name, UID: f.Pod.UID}})
			}
		}
	}
	sortEvents(out)
	return out
}

// nodeEvents lists the nodes' own events as podEvents lists the pods'.
func nodeEvents(nodes []timeline.Node, types []string, since, until time.Time) []PodEvent {
	var out []PodEvent
	for _, n := range nodes {
		for _, ev := range n.Events {
			if eventIn(ev, types, since, until) {
				out = append(out, PodEvent{Event: ev, Node: n.Name, Object: EventObject{Kind: "Node", Name: n.Name}})
			}
		}
	}
	return out
}

// eventIn reports whether ev is of one of types (any when none) and was
// recorded in [since, until] (either zero: unbounded).
func eventIn(ev timeline.Event, types []string, since, until time.Time) bool {
	return (len(types) == 0 || slices.Contains(types, ev.Type)) &&
		(since.IsZero() || !lastSeen(ev).Before(since)) && (until.IsZero() || !ev.Time.After(until))
}

// sortEvents puts events in the order they were last recorded.
func sortEvents(evs []PodEvent) {
	slices.SortStableFunc(evs, func(a, b PodEvent) int { return lastSeen(a.Event).Compare(lastSeen(b.Event)) })
}

// lastSeen is when an event was last recorded.
func lastSeen(ev timeline.Event) time.Time {
	if ev.Count > 1 && !ev.LastTime.IsZero() {
		return ev.LastTime
	}
	return ev.Time
}

// eventAge is kubectl's LAST SEEN and FIRST SEEN: how long before now (the
// end of the log) t was, in kubectl's own words (2m10s, 5h, 3d).
func eventAge(now, t time.Time) string {
	if t.IsZero() || now.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(t))
}

func (o *GetEventsOptions) print(now time.Time, evs []PodEvent) error {
	ioS := o.Select.IO
	list := &EventList{APIVersion: "podflow/v1", Kind: "EventList", Items: evs}
	if o.template != nil {
		head := *list
		head.Items = nil
		return o.template.print(ioS.Out, &head, each(evs), o.NoHeaders)
	}
	switch o.Output {
	case "json":
		return printJSON(ioS.Out, list)
	case "yaml":
		return printYAML(ioS.Out, list)
	}
	if len(evs) == 0 {
		fmt.Fprintln(ioS.ErrOut, "No events found.")
		return nil
	}
	wide := o.Output == "wide"
	headers := []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"}
	if wide {
		headers = []string{"LAST SEEN", "TYPE", "REASON", "OBJECT", "SUBOBJECT", "NODE", "MESSAGE", "FIRST SEEN", "COUNT"}
	}
	flex := slices.Index(headers, "MESSAGE")
	t := &Table{Headers: headers, NoHeader: o.NoHeaders, Flex: flex, MaxWidth: ioS.Width}
	for _, e := range evs {
		obj := strings.ToLower(e.Object.Kind) + "/" + sanitize.OneLine(e.Object.Name)
		msg := sanitize.OneLine(e.Message)
		row := []string{eventAge(now, lastSeen(e.Event)), dash(sanitize.OneLine(e.Type)), dash(sanitize.OneLine(e.Reason)), obj}
		if wide {
			count := max(e.Count, 1)
			row = append(row, dash(sanitize.OneLine(e.FieldPath)), dash(sanitize.OneLine(e.Node)), msg, eventAge(now, e.Time), strconv.Itoa(count))
		} else {
			row = append(row, msg)
		}
		t.Rows = append(t.Rows, row)
	}
	color := ioS.ColorEnabled(o.Select.Color)
	t.Color = func(row, col int) string {
		if col == 1 && evs[row].Type == "Warning" {
			return ansiYellow
		}
		return ""
	}
	t.Print(ioS.Out, color)
	return nil
}
