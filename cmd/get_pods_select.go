package cmd

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/podflow/podflow/timeline"
)

// Which pods get pods shows, and in which order: --verdict, --since and
// --until, names, and --sort-by.

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
