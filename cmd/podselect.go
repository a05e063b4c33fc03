package cmd

import (
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// podSelection is the flags that choose pods, meaning on every command
// that reads pods what they mean on get pods: --node, --since, --until
// and --verdict, and -p/--pod and -n/--namespace where the command has no
// selection of its own (check and report keep theirs, which their config
// shares). With no input named, --node, --since and --until also say
// which live node to read and when (addLiveFlags).
type podSelection struct {
	Names     []string
	Namespace string
	Node      string
	Verdicts  []string
	Since     string
	Until     string
}

// addPodSelectionFlags registers the selection flags on c, before its
// load flags (addLoadFlags), so that the live flags share --node, --since
// and --until. names adds -p/--pod and -n/--namespace.
func addPodSelectionFlags(c *cobra.Command, s *podSelection, names bool) {
	f := c.Flags()
	if names {
		f.StringArrayVarP(&s.Names, "pod", "p", nil, "only pods whose name matches (exact name, namespace/name, UID or regex; repeatable)")
		f.StringVarP(&s.Namespace, "namespace", "n", "", "only pods in this namespace (default: all namespaces)")
	}
	f.StringVar(&s.Node, "node", "", "only pods on this node (with no input named: read this node's kubelet log through the API server)")
	f.StringSliceVar(&s.Verdicts, "verdict", nil, "only pods with these verdicts, e.g. Stalled,Failed")
	f.StringVar(&s.Since, "since", "", "only pods active after this time (RFC3339, or a duration back from the log's end)")
	f.StringVar(&s.Until, "until", "", "only pods active before this time (RFC3339, or a duration back from the log's end)")
	_ = c.RegisterFlagCompletionFunc("verdict", fixedCompletion(verdictNames()...))
}

// getPods is the selection as get pods holds it, whose selectFlows and
// checks it shares.
func (s *podSelection) getPods(ioS *IO) *GetPodsOptions {
	return &GetPodsOptions{IO: ioS, Names: s.Names, Namespace: s.Namespace, Node: s.Node, Verdicts: s.Verdicts,
		Since: s.Since, Until: s.Until, SortBy: "start"}
}

// check reports a selection no pod can match, or a bad flag value, as
// get pods does; it also points the live read at --node, --since and
// --until.
func (s *podSelection) check(ioS *IO, live *liveOptions) error {
	live.Node, live.Since, live.Until = s.Node, s.Since, s.Until
	if _, err := parseVerdicts(s.Verdicts); err != nil {
		return err
	}
	if _, err := NewPodFilter(s.Names); err != nil {
		return err
	}
	return s.getPods(ioS).contradictions()
}

// apply is the flows of a the selection keeps (all when it chooses
// nothing). The node a live read is reading is the node: --node then
// chooses nothing more (its log may name its host otherwise).
func (s *podSelection) apply(ioS *IO, a *Analysis) (*timeline.FlowList, error) {
	g := s.getPods(ioS)
	if a.Live {
		g.Node = ""
	}
	if len(g.Names) == 0 && g.Namespace == "" && g.Node == "" && len(g.Verdicts) == 0 && g.Since == "" && g.Until == "" {
		return a.Flows, nil
	}
	return g.selectFlows(a.Flows)
}
