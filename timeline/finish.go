package timeline

import (
	"iter"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/podflow/podflow/internal/runtimeid"
)

// Finishing a build: Finish, FinishEach, FinishRows and Snapshot judge
// every flow (judgeAll; judgeRows on every core) and gather the list's
// findings, nodes and summary. Judging one flow is judge.go's (its stages
// in sequence: sequence.go), its verdict verdict.go's, its diagnosis
// diagnose.go's.

// Finish judges every flow and returns the list. The list shares slices
// with the builder (no copy: memory at the end of a big log), so the
// builder must not be used afterwards; a live view takes Snapshots.
func (b *Builder) Finish() *FlowList { return b.FinishEach(nil) }

// FinishEach is Finish for a view that keeps only part of each flow: trim,
// when not nil, is called on each flow as soon as it is judged, in its
// place in Items, before the next is judged, and may drop its detail
// (Stages, Events, Evidence,
// Containers' Stages, …). Each flow's state in the builder is freed as it
// is judged, so the detailed list never exists whole: memory peaks at the
// builder's plus the trimmed list's. What Finish computes after that (the
// order, findings' pods, node verdict counts, the summary) reads only a
// flow's pod, node, verdict, start and end, which trim must leave.
func (b *Builder) FinishEach(trim func(*Flow)) *FlowList { return b.judgeAll(trim, false) }

// FinishRows is FinishEach for a view that prints one row per flow (get
// pods, get nodes): each flow is judged only as far as its row needs, so
// judging skips the detail such a view would drop at once. A flow in Items
// holds its identity (Pod, Node, Source, Static, Mirror, Incarnation),
// its judgement (Verdict, Stage, StalledAt, Container, ContainerStage,
// Reason, Waited, Start, End, Duration), its Findings, and its Containers
// with Name, Type and Restarts alone; Stages, Events, Evidence, Startup,
// Sandboxes, Hidden and Diagnosis stay empty, as do the containers' other
// fields. Those fields and everything outside Items (Findings, Nodes,
// Unattributed, Summary) equal what FinishEach gives with a trim that
// keeps just that. The flows are judged on every core (the end of a big
// log is otherwise one core's work while the others idle), so trim, when
// not nil, is called on each flow as in FinishEach but possibly from
// several goroutines at once, each time on a different flow.
func (b *Builder) FinishRows(trim func(*Flow)) *FlowList { return b.judgeAll(trim, true) }

// Snapshot judges the flows built so far without ending the build: the list
// shares nothing with the builder, so it may be read while records go on
// being added, and Snapshot or Finish called again later.
func (b *Builder) Snapshot() *FlowList {
	b.snapshot = true
	defer func() { b.snapshot = false }()
	return b.judgeAll(nil, false)
}

// judgeBatch is the most flows a goroutine of judgeRows takes at a time:
// enough that taking them costs nothing, few enough that the goroutines
// end together.
const judgeBatch = 32

// judgeRows judges the flows of a finished build for rows into items, in
// their order, on GOMAXPROCS goroutines. Judging for a row writes nothing
// the goroutines share: each has its own judgeScratch, and what judge
// reads of the builder (the texts, the stage facts, the stamps' tables,
// the nodes) no longer changes. Each flow's state is freed as it is
// judged, as in the serial loop, which finds none left.
func (b *Builder) judgeRows(items []Flow, nodeNames map[*nodeState]string, trim func(*Flow)) {
	b.stageDef("") // made now: judging makes it on first use
	order := make([]int32, 0, len(items))
	for i, f := range b.flows {
		if f != nil {
			order = append(order, int32(i))
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(order))
	// Smaller batches for fewer flows, so that every goroutine gets some.
	batch := max(1, min(judgeBatch, len(order)/(4*workers)))
	var next atomic.Int64
	work := func(js *judgeScratch) {
		for {
			from := int(next.Add(int64(batch))) - batch
			if from >= len(order) {
				return
			}
			for k := from; k < min(from+batch, len(order)); k++ {
				i := order[k]
				f := b.flows[i]
				items[k] = b.judge(js, f, nodeNames[f.node], true)
				if trim != nil {
					trim(&items[k])
				}
				b.flows[i] = nil
			}
		}
	}
	var wg sync.WaitGroup
	for range workers - 1 {
		wg.Go(func() { work(&judgeScratch{}) })
	}
	work(&b.judging)
	wg.Wait()
}

// own copies a slice the builder goes on appending to when the list being
// judged is a snapshot.
func own[T any](b *Builder, s []T) []T {
	if !b.snapshot {
		return s
	}
	return slices.Clone(s)
}

func (b *Builder) judgeAll(trim func(*Flow), rows bool) *FlowList {
	b.settleUIDs()
	out := &FlowList{APIVersion: APIVersion, Kind: KindFlowList, Items: []Flow{}, Findings: []Finding{}, Nodes: []Node{}}
	nodeNames := map[*nodeState]string{}
	for _, name := range b.nodeOrder {
		n := b.nodes[name]
		display := n.name
		if n.hostname != "" && (display == "" || strings.HasPrefix(display, fileNodePrefix)) {
			display = n.hostname
		}
		display = strings.TrimPrefix(display, fileNodePrefix)
		nodeNames[n] = display
	}
	unattr, unattrCount := own(b, b.unattributed), b.unattrCount
	for _, name := range b.nodeOrder {
		n := b.nodes[name]
		for _, id := range n.orphanOrder {
			if n.byID[runtimeid.Packed(b.idPack.Pack(id))] != nil {
				continue
			}
			o := n.orphans[id]
			unattrCount += o.count
			for _, ev := range o.evidence {
				if len(unattr) < maxUnattributed {
					unattr = append(unattr, ev)
				}
			}
		}
		unattrCount += b.pendingUnattributed(n, &unattr)
	}
	hasPods := map[*nodeState]bool{}
	for _, n := range b.nodes {
		hasPods[n] = len(n.byName) > 0
		if !b.snapshot {
			// The end of the build: the indexes go, and each flow's state
			// once judged, so the list and the builder do not peak together.
			n.byUID, n.byName, n.byID, n.pulling, n.orphans, n.byShort = nil, nil, nil, nil, nil, nil
		}
	}
	if !b.snapshot {
		b.images = nil
		b.flowCache.Reset()
		defer func() { b.judging = judgeScratch{} }()
	}
	n := 0
	for _, f := range b.flows {
		if f != nil {
			n++
		}
	}
	out.Items = make([]Flow, 0, n)
	if rows && !b.snapshot && n > 1 && runtime.GOMAXPROCS(0) > 1 {
		out.Items = out.Items[:n]
		b.judgeRows(out.Items, nodeNames, trim)
	}
	for i, f := range b.flows {
		if f == nil {
			continue // a second Finish: see its comment
		}
		// Judged into its place in Items, then trimmed there: a flow
		// trimmed on the way in would be one more allocation per flow.
		out.Items = append(out.Items, b.judge(&b.judging, f, nodeNames[f.node], rows))
		if trim != nil {
			trim(&out.Items[len(out.Items)-1])
		}
		if !b.snapshot {
			b.flows[i] = nil
		}
	}
	sortFlows(out.Items)
	onNode := itemsByNode(out.Items, len(b.nodeOrder))
	// Findings, attached to the pods in flight at the time.
	for _, name := range b.nodeOrder {
		n := b.nodes[name]
		for _, k := range n.findOrder {
			fd := *n.findings[k]
			fd.Evidence = own(b, fd.Evidence)
			fd.Node = nodeNames[n]
			// IDs were made with the node's key, which for a host-less log
			// is its file; the public ID names the node as shown.
			fd.ID = fd.Node + strings.TrimPrefix(fd.ID, n.name)
			end := fd.Time
			if fd.End != nil {
				end = *fd.End
			}
			for i := range onNode.of(fd.Node) {
				b.walked++
				it := &out.Items[i]
				if it.Node != fd.Node || it.Start.After(end) || it.End.Before(fd.Time) {
					continue
				}
				it.Findings = append(it.Findings, fd.ID)
				fd.Pods = append(fd.Pods, it.Pod)
			}
			out.Findings = append(out.Findings, fd)
		}
	}
	// Nodes and the summary.
	sum := &out.Summary
	sum.Inputs = append([]string{}, b.inputOrder...)
	if sum.Inputs == nil {
		sum.Inputs = []string{}
	}
	sum.Records = b.records
	sum.Verbosity = -1
	for _, name := range b.nodeOrder {
		n := b.nodes[name]
		if len(b.nodeOrder) > 1 && n.hostname == "" && !hasPods[n] && len(n.findOrder) == 0 {
			continue
		}
		nd := Node{Name: nodeNames[n], KubeletVersion: n.version, Verbosity: n.verbosity(), Start: n.start, End: n.end, PLEGHealthy: !n.plegBad, Pods: map[Verdict]int{}, Events: n.events}
		if n.starts > 1 {
			nd.Restarts = n.starts - 1
		}
		for i := range onNode.of(nd.Name) {
			b.walked++
			if it := &out.Items[i]; it.Node == nd.Name {
				nd.Pods[it.Verdict]++
			}
		}
		out.Nodes = append(out.Nodes, nd)
		if sum.KubeletVersion == "" {
			sum.KubeletVersion = n.version
		} else if n.version != "" && !strings.Contains(sum.KubeletVersion, n.version) {
			sum.KubeletVersion += "," + n.version
		}
		if nd.Verbosity > sum.Verbosity {
			sum.Verbosity = nd.Verbosity
		}
		if !n.start.IsZero() && (sum.Start.IsZero() || n.start.Before(sum.Start)) {
			sum.Start = n.start
		}
		if n.end.After(sum.End) {
			sum.End = n.end
		}
	}
	sum.Pods = len(out.Items)
	unattrCount += settleLoose(b.loose, out.Items, &unattr)
	sum.Unattributed = unattrCount
	if b.capped {
		sum.PodLimit, sum.Dropped = b.opts.MaxFlows, b.dropped
	}
	out.Unattributed = unattr
	return out
}

// nodeItems are the indexes in a list's Items of each node's flows, in
// order, so that what is gathered per node (its findings' pods, its
// verdict counts) walks its own flows, not every flow once per node: a
// directory of 20,000 host-less logs is 20,000 nodes. With one node (a
// single log) there is no index: every flow is the node's.
type nodeItems struct {
	n  int
	by map[string][]int32
}

func itemsByNode(items []Flow, nodes int) nodeItems {
	x := nodeItems{n: len(items)}
	if nodes > 1 {
		x.by = make(map[string][]int32, nodes)
		for i := range items {
			x.by[items[i].Node] = append(x.by[items[i].Node], int32(i))
		}
	}
	return x
}

// of yields the indexes of the flows that may be node's (the caller
// still checks each flow's node).
func (x nodeItems) of(node string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if x.by == nil {
			for i := range x.n {
				if !yield(i) {
					return
				}
			}
			return
		}
		for _, i := range x.by[node] {
			if !yield(int(i)) {
				return
			}
		}
	}
}

func (n *nodeState) verbosity() int {
	if n.flagV >= 0 {
		return n.flagV
	}
	return n.maxV
}
