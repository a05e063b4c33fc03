package timeline

import (
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

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
			if n.byID[rid(b.packID(id))] != nil {
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
	}
	hasPods := map[*nodeState]bool{}
	for _, n := range b.nodes {
		hasPods[n] = len(n.byName) > 0
		if !b.snapshot {
			// The end of the build: the indexes go, and each flow's state
			// once judged, so the list and the builder do not peak together.
			n.byUID, n.byName, n.byID, n.pulling, n.orphans = nil, nil, nil, nil, nil
		}
	}
	if !b.snapshot {
		b.flowCache.reset()
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
			for i := range out.Items {
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
		nd := Node{Name: nodeNames[n], KubeletVersion: n.version, Verbosity: n.verbosity(), Start: n.start, End: n.end, PLEGHealthy: !n.plegBad, Pods: map[Verdict]int{}}
		if n.starts > 1 {
			nd.Restarts = n.starts - 1
		}
		for i := range out.Items {
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
	sum.Unattributed = unattrCount
	if b.capped {
		sum.PodLimit, sum.Dropped = b.opts.MaxFlows, b.dropped
	}
	out.Unattributed = unattr
	return out
}

func (n *nodeState) verbosity() int {
	if n.flagV >= 0 {
		return n.flagV
	}
	return n.maxV
}

// stageView is a stage being judged. Its times are stamps: judging
// compares them and makes the aggregate stages of them without converting
// and stamping anew, which would write to the builder (stampAt).
type stageView struct {
	id         string
	st         *stageState
	start      stamp
	end        stamp
	status     Status
	implied    bool
	attempts   int
	reason     string
	evidence   []evidence
	timed      bool // shownStart, shownEnd and shownFor are made (times)
	shownStart time.Time
	shownEnd   time.Time
	shownFor   Duration // from shownStart to shownEnd when it is later
}

func (b *Builder) budget(id string) time.Duration {
	if d := b.stageDef(id); d != nil {
		return d.budget
	}
	return b.budgets[id]
}

// stageFacts is what judging reads of a stage's definition, made once
// per builder for the stages with a slot: judging asks for every stage of
// every pod.
type stageFacts struct {
	title  string
	minV   int
	budget time.Duration
}

// stageDef returns the facts of a stage with a slot (podSlot,
// containerSlot), nil for any other.
func (b *Builder) stageDef(id string) *stageFacts {
	if b.stageFacts == nil {
		b.stageFacts = &[podSlots + containerSlots]stageFacts{}
		for _, ids := range [][]string{PodStages, TerminationStages, ContainerStages} {
			for _, sid := range ids {
				k := stageIndex(sid)
				def, _ := b.p.StageDefByID(sid)
				b.stageFacts[k] = stageFacts{title: def.Title, minV: def.MinV, budget: b.budgets[sid]}
			}
		}
	}
	if k := stageIndex(id); k >= 0 {
		return &b.stageFacts[k]
	}
	return nil
}

// stageIndex is a stage's index in the facts: its pod slot, or after them
// its container slot; -1 when it has neither.
func stageIndex(id string) int {
	if k := podSlot(id); k >= 0 {
		return k
	}
	if k := containerSlot(id); k >= 0 {
		return podSlots + k
	}
	return -1
}

// quietAfterError is how long errors must have stopped before a stage whose
// completion the log's verbosity hides counts as possibly recovered: the
// kubelet re-reports a still-failing stage at every sync (10–20 s apart).
const quietAfterError = 30 * time.Second

func (b *Builder) minV(id string) int {
	if d := b.stageDef(id); d != nil {
		return d.minV
	}
	if d, ok := b.p.StageDefByID(id); ok {
		return d.MinV
	}
	return 0
}

func (b *Builder) title(id string) string {
	if d := b.stageDef(id); d != nil {
		return d.title
	}
	if d, ok := b.p.StageDefByID(id); ok {
		return d.Title
	}
	return ""
}

func reasonOf(s *stageState) string {
	if s == nil {
		return ""
	}
	tr := s.report()
	if tr.rootReason != "" {
		return tr.rootReason
	}
	return tr.reason
}

// judgeSeq turns raw stage states into sequential stages: each starts no
// earlier than the previous one ended, so stages never overlap and the gaps
// between them are waiting time.
func (b *Builder) judgeSeq(js *judgeScratch, ids []string, states func(string) *stageState, logEnd time.Time, v int, prevEnd stamp) []stageView {
	// From js.views, which judge empties for each flow: a slice handed out
	// keeps its array when a later one grows it.
	k := len(js.views)
	js.views = append(js.views, make([]stageView, len(ids))...)
	views := js.views[k:len(js.views):len(js.views)]
	// Index of the last stage with any progress: earlier stages without an
	// end are implied done.
	lastProgress := -1
	for i, id := range ids {
		views[i].id = id
		views[i].st = states(id)
		// A begin line alone proves nothing about earlier stages: the
		// kubelet logs "Creating container" before it pulls the image.
		if s := views[i].st; s != nil && (!s.complete.IsZero() || !s.report().lastFail.IsZero() || s.report().retries > 0) {
			lastProgress = i
		}
	}
	blocked := false // an earlier stage has not finished
	for i := range views {
		sv := &views[i]
		s := sv.st
		var tr trouble
		if s != nil {
			tr = s.report()
		}
		if blocked && s != nil && s.complete.IsZero() && tr.lastFail.IsZero() && tr.retries == 0 {
			sv.status = StatusPending
			if b.minV(sv.id) > v {
				sv.status = StatusUnknown
			}
			continue
		}
		if s != nil {
			sv.attempts = int(tr.attempts)
			sv.reason = reasonOf(s)
			sv.evidence = s.evidence
		}
		switch {
		case s != nil && !s.complete.IsZero():
			sv.status = StatusDone
			sv.start, sv.end = s.begin, s.complete
		case s != nil && s.began() && i < lastProgress && tr.lastFail.IsZero():
			sv.status, sv.implied = StatusDone, true
			sv.start = s.begin
		case s != nil && s.began():
			sv.start = s.begin
			switch {
			case !tr.lastFail.IsZero() && i < lastProgress:
				sv.status, sv.implied = StatusDone, true
			case (!tr.lastFail.IsZero() || tr.retries > 0) && b.minV(sv.id) > v && v >= 0 && logEnd.Sub(b.timeOf(b.later(tr.lastFail, tr.lastRetry))) > quietAfterError:
				// The log cannot show this stage completing, and its errors
				// stopped: it may have recovered. Not a stall.
				sv.status = StatusUnknown
			case !tr.lastFail.IsZero() || tr.retries > 0:
				sv.status = StatusStalled
			case b.budget(sv.id) > 0 && logEnd.Sub(b.timeOf(b.later(sv.start, prevEnd))) > b.budget(sv.id):
				sv.status = StatusStalled
			default:
				sv.status = StatusActive
			}
		case i < lastProgress:
			if b.minV(sv.id) > v && v >= 0 {
				sv.status = StatusUnknown
			} else {
				sv.status, sv.implied = StatusDone, true
			}
		default:
			if b.minV(sv.id) > v {
				sv.status = StatusUnknown
			} else {
				sv.status = StatusPending
			}
		}
		if sv.status == StatusDone || sv.status == StatusStalled || sv.status == StatusActive {
			if sv.start.IsZero() || b.before(sv.start, prevEnd) {
				sv.start = prevEnd
			}
		}
		if sv.status == StatusDone && !sv.end.IsZero() && b.before(sv.end, sv.start) {
			sv.end = sv.start
		}
		if sv.status == StatusDone && !sv.end.IsZero() {
			prevEnd = sv.end
		}
		if sv.status == StatusStalled || sv.status == StatusActive || sv.status == StatusPending {
			blocked = true
		}
	}
	// Implied stages end where the next stage starts.
	for i := range views {
		sv := &views[i]
		if sv.status != StatusDone || !sv.end.IsZero() {
			continue
		}
		next := stamp(0)
		for j := i + 1; j < len(views); j++ {
			if !views[j].start.IsZero() {
				next = views[j].start
				break
			}
		}
		if next.IsZero() {
			next = sv.start
		}
		if sv.start.IsZero() {
			sv.start = next
		}
		if b.before(next, sv.start) {
			next = sv.start
		}
		sv.end = next
	}
	return views
}

// times is where a judged stage starts and ends: a stage not done runs to
// the log's end. Asked only once the view is judged, and made the first
// time (they are read twice: to count a flow's times, then to hand them
// out).
func (sv *stageView) times(b *Builder, logEnd time.Time) (start, end time.Time) {
	if sv.status != StatusDone && sv.status != StatusStalled && sv.status != StatusActive {
		return time.Time{}, time.Time{}
	}
	if !sv.timed {
		sv.timed, sv.shownStart, sv.shownEnd = true, b.timeOf(sv.start), logEnd
		if sv.status == StatusDone {
			sv.shownEnd = b.timeOf(sv.end)
			if !sv.start.IsZero() && !sv.end.IsZero() && b.after(sv.end, sv.start) {
				// As the times' Sub, on the stamps they are made from.
				sv.shownFor = Duration(b.sub(sv.end, sv.start))
			}
		} else if !sv.shownStart.IsZero() && !logEnd.IsZero() && logEnd.After(sv.shownStart) {
			sv.shownFor = Duration(logEnd.Sub(sv.shownStart))
		}
	}
	return sv.shownStart, sv.shownEnd
}

// timeSlab hands out a flow's stage times from one allocation: a flow has
// some thirty of them, half of them the time just handed out (a stage ends
// when it starts, or starts when the one before ended), which it shares.
// Sized by a timeCount fed the same times in the same order.
type timeSlab []time.Time

func (ts *timeSlab) ptr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	if n := len(*ts); n > 0 && (*ts)[n-1] == t {
		return &(*ts)[n-1]
	}
	if len(*ts) == cap(*ts) {
		// Not reached when sized by timeCount; appending would move the
		// times already handed out.
		*ts = make([]time.Time, 0, 4)
	}
	*ts = append(*ts, t)
	return &(*ts)[len(*ts)-1]
}

// timeCount counts the times a timeSlab will hold for the views toStage
// is given, in that order.
type timeCount struct {
	n    int
	last time.Time
}

func (tc *timeCount) add(b *Builder, views []stageView, logEnd time.Time) {
	for i := range views {
		start, end := views[i].times(b, logEnd)
		if start.IsZero() && end.IsZero() {
			continue // toStage takes no time for it
		}
		for _, t := range [2]time.Time{start, end} {
			if !t.IsZero() && (tc.n == 0 || t != tc.last) {
				tc.n++
				tc.last = t
			}
		}
	}
}

// toStage makes a judged stage public; for a row (rows), without its
// title, evidence and reveal, which the verdict does not read.
func toStage(b *Builder, sv *stageView, logEnd time.Time, ts *timeSlab, rows bool) Stage {
	st := Stage{ID: sv.id, Status: sv.status, Attempts: sv.attempts, Reason: sv.reason}
	if !rows {
		st.Title, st.Evidence = b.title(sv.id), b.publicEvidence(sv.evidence)
	}
	if start, end := sv.times(b, logEnd); !start.IsZero() || !end.IsZero() {
		st.Start, st.End, st.Duration = ts.ptr(start), ts.ptr(end), sv.shownFor
	}
	if sv.status == StatusUnknown && !rows {
		st.Reveal = reveal(b.minV(sv.id))
	}
	if sv.status == StatusDone && sv.attempts == 0 && (sv.st == nil || sv.st.report().retries == 0) {
		st.Reason = ""
	}
	return st
}

var reveals = [...]string{"-v=0", "-v=1", "-v=2", "-v=3", "-v=4", "-v=5", "-v=6", "-v=7", "-v=8", "-v=9", "-v=10"}

// reveal names the kubelet -v that shows a stage.
func reveal(v int) string {
	if v >= 0 && v < len(reveals) {
		return reveals[v]
	}
	return fmt.Sprintf("-v=%d", v)
}

// typeRank orders containers by type: init, regular, ephemeral.
func typeRank(typ string) int {
	switch typ {
	case ContainerRegular:
		return 1
	case ContainerEphemeral:
		return 2
	}
	return 0
}

// containerViews judges one container's stages.
func (b *Builder) containerViews(js *judgeScratch, c *containerState, logEnd time.Time, v int, after stamp) []stageView {
	ids := ContainerStages
	if c.kind != kindInit {
		ids = ContainerStages[:3]
	}
	return b.judgeSeq(js, ids, func(id string) *stageState { return c.stages.get(id) }, logEnd, v, after)
}

// preStages are the pod's stages before its containers.
var preStages = []string{StObserved, StAdmitted, StSynced, StVolumes, StSandbox}

// aggStages are a flow's aggregate stages while it is judged.
type aggStages struct{ init, ctrs *stageState }

func (a *aggStages) set(id string, s *stageState) {
	if id == StInitContainers {
		a.init = s
	} else {
		a.ctrs = s
	}
}

// judgeScratch is judge's working memory, kept from flow to flow: what
// judge returns holds none of it. Each goroutine judging has its own.
type judgeScratch struct {
	views  []stageView
	cs     []*containerState
	cviews [][]stageView
	group  []int
	agg    [3]stageState // the aggregate stages of the flow being judged: init-containers, containers, running
	row    rowScratch    // FinishRows' working memory for what a row does not keep
}

// rowScratch holds what judging a flow for a row (FinishRows) needs only
// until the verdict is reached: its stages, their times and the
// containers' detail, kept from flow to flow.
type rowScratch struct {
	stages []Stage
	times  []time.Time
	ctrs   []Container
	exits  []int
}

// judge judges one flow; for a row (rows), only as far as FinishRows
// says, the stages and containers it reads on the way held in scratch.
func (b *Builder) judge(js *judgeScratch, f *flowState, node string, rows bool) Flow {
	n := f.node
	v := n.verbosity()
	logEnd := n.end
	fl := Flow{Pod: f.ref, Node: node, Source: b.texts[f.source], Static: f.static, Mirror: f.mirror, Incarnation: f.incarnation}
	if !rows {
		fl.Sandboxes, fl.Events = ridStrings(f.sandboxes), b.events(f)
	}
	if fl.Pod.Name == "" {
		fl.Pod.Name = f.ref.UID
	}

	// Containers: init first, then regular, then ephemeral, each in the
	// order the log named them.
	// cs, the views and the lists below are in js.
	cs := append(js.cs[:0], f.containers...)
	js.cs = cs
	slices.SortStableFunc(cs, func(x, y *containerState) int { return typeRank(x.typ()) - typeRank(y.typ()) })
	js.views = js.views[:0]

	// Pod creation stages before the containers.
	pre := b.judgeSeq(js, preStages, func(id string) *stageState { return f.stages.get(id) }, logEnd, v, 0)
	// The aggregate stages come from the containers; running and ready after.
	sandboxEnd := stamp(0)
	for _, sv := range pre {
		if sv.status == StatusDone {
			sandboxEnd = sv.end
		}
	}
	// agg holds the aggregate stages (init-containers, containers);
	// cviews[i] the stages of container cs[i].
	var agg aggStages
	cviews := js.cviews[:0]
	for range cs {
		cviews = append(cviews, nil)
	}
	js.cviews = cviews
	prevEnd := sandboxEnd
	for _, typ := range []string{ContainerInit, ContainerRegular} {
		id := StInitContainers
		if typ == ContainerRegular {
			id = StContainers
		}
		group := js.group[:0]
		for i, c := range cs {
			if c.typ() == typ {
				group = append(group, i)
			}
		}
		js.group = group
		if len(group) == 0 {
			continue
		}
		s := &js.agg[typeRank(typ)]
		*s = stageState{}
		allDone := true
		var begin, groupEnd stamp
		after := prevEnd
		for _, ci := range group {
			views := b.containerViews(js, cs[ci], logEnd, v, after)
			cviews[ci] = views
			for _, sv := range views {
				if !sv.start.IsZero() && (begin.IsZero() || b.before(sv.start, begin)) {
					begin = sv.start
				}
				if sv.status != StatusDone && sv.status != StatusUnknown {
					allDone = false
				}
				if sv.status == StatusDone && b.after(sv.end, groupEnd) {
					groupEnd = sv.end
				}
				if sv.st != nil && sv.st.trouble != nil {
					st, agg := sv.st.trouble, s.mark()
					agg.attempts.add(st.attempts)
					if !st.lastFail.IsZero() && b.after(st.lastFail, agg.lastFail) {
						agg.lastFail = st.lastFail
						agg.rootReason = reasonOf(sv.st)
					}
					if st.retries > 0 {
						agg.retries.add(st.retries)
						if agg.reason == "" || st.lastFail.IsZero() {
							agg.reason = st.reason
						}
					}
				}
			}
			if typ == ContainerInit && len(views) > 0 && views[len(views)-1].status == StatusDone {
				// Init containers run one after another.
				after = views[len(views)-1].end
			}
		}
		if allDone && groupEnd.IsZero() {
			// Only unknown stages: the log's verbosity hides this group.
			continue
		}
		if allDone {
			s.complete = groupEnd
			if begin.IsZero() {
				begin = groupEnd
			}
			prevEnd = groupEnd
		}
		s.begin = begin
		agg.set(id, s)
	}
	// running: every regular container seen started by PLEG (or the
	// kubelet's own startup line).
	run := &js.agg[2]
	*run = stageState{}
	regular, plegged := 0, 0
	var plegAt stamp
	for _, c := range cs {
		if c.kind != kindRegular {
			continue
		}
		regular++
		if c.plegStarted || c.starts > 0 && v < 2 {
			plegged++
			if b.after(c.plegAt, plegAt) {
				plegAt = c.plegAt
			}
			if st := c.stages.get(CStStarted); c.plegAt.IsZero() && st != nil && b.after(st.complete, plegAt) {
				plegAt = st.complete
			}
		}
	}
	if regular > 0 && plegged == regular && !plegAt.IsZero() {
		run.begin, run.complete = plegAt, plegAt
		if a := agg.ctrs; a != nil && !a.complete.IsZero() {
			run.begin = a.complete
		}
	}
	if rs := f.stages.get(StRunning); rs != nil && run.complete.IsZero() && len(rs.evidence) > 0 {
		// "Observed pod startup duration": the kubelet saw it running.
		t := rs.evidence[0].at
		run.begin, run.complete = t, t
		run.evidence = rs.evidence
	}
	if rs := f.stages.get(StRunning); rs != nil && run.evidence == nil {
		run.evidence = rs.evidence
	}
	for _, c := range cs {
		if c.kind == kindRegular {
			if st := c.stages.get(CStStarted); st != nil && st.report().retries > 0 {
				tr := run.mark()
				tr.retries.add(st.trouble.retries)
				tr.reason = st.trouble.reason
			}
		}
	}
	if run.complete.IsZero() && run.begin.IsZero() {
		if a := agg.ctrs; a != nil && !a.complete.IsZero() && regular > 0 {
			run.begin = a.complete
		}
	}
	podStates := func(id string) *stageState {
		switch id {
		case StInitContainers:
			return agg.init
		case StContainers:
			return agg.ctrs
		case StRunning:
			if run.began() {
				return run
			}
			return nil
		}
		return f.stages.get(id)
	}
	all := b.judgeSeq(js, PodStages, podStates, logEnd, v, 0)
	// Stages that do not apply.
	hasInit := false
	for _, c := range cs {
		if c.kind == kindInit {
			hasInit = true
		}
	}
	// No init container seen is "skipped" only when the log could have
	// named one: container events are V3; below that, with no container
	// named at all, whether the pod has init containers is unknown.
	initHidden := false
	for i := range all {
		if all[i].id == StInitContainers && !hasInit && all[i].st == nil {
			switch {
			case v >= 3 || len(cs) > 0 || v < 0 && all[i].status != StatusUnknown:
				all[i].status = StatusSkipped
			default:
				all[i].status, initHidden = StatusUnknown, true
			}
			all[i].start, all[i].end = 0, 0
		}
	}
	var term []stageView
	if f.stages.get(StTerminating) != nil || f.stages.get(StStopped) != nil || f.stages.get(StTerminated) != nil {
		term = b.judgeSeq(js, TerminationStages, func(id string) *stageState { return f.stages.get(id) }, logEnd, v, 0)
	}
	// The stages, the containers and their times, each in one allocation
	// of the size it needs: the list holds them for every pod at once.
	var tc timeCount
	tc.add(b, all, logEnd)
	for _, views := range cviews {
		tc.add(b, views, logEnd)
	}
	tc.add(b, term, logEnd)
	if rows {
		return b.judgeRow(js, f, fl, all, cviews, term, tc.n, logEnd)
	}
	ts := make(timeSlab, 0, tc.n)
	fl.Stages = make([]Stage, 0, len(all)+len(term))
	for i := range all {
		st := toStage(b, &all[i], logEnd, &ts, false)
		if st.Status == StatusUnknown {
			if st.ID == StInitContainers && initHidden {
				st.Reveal = "-v=3"
			}
			fl.Hidden = append(fl.Hidden, st.ID+" ("+st.Reveal+")")
		}
		fl.Stages = append(fl.Stages, st)
	}
	fl.Containers = make([]Container, 0, len(cs))
	for ci, c := range cs {
		ct := Container{Name: b.texts[c.name], Type: c.typ(), Image: b.texts[c.image], IDs: ridStrings(c.ids), Restarts: c.restartCount, BackOffs: int(c.backOffs), PullBackOffs: int(c.pullBackOffs), ExitCode: c.exit(), State: c.state.String(), Reason: b.texts[c.reason], Ready: c.ready}
		views := cviews[ci]
		ct.Stages = make([]Stage, 0, len(views))
		for i := range views {
			ct.Stages = append(ct.Stages, toStage(b, &views[i], logEnd, &ts, false))
		}
		fl.Containers = append(fl.Containers, ct)
	}
	for i := range term {
		fl.Stages = append(fl.Stages, toStage(b, &term[i], logEnd, &ts, false))
	}
	if f.startup != nil {
		fl.Startup = b.publicStartup(f, v)
	} else if st := ownStartup(fl.Stages); st != nil {
		// No kubelet figure: podflow's own, by the SLO's documented rule
		// (pulls and init containers left out).
		if d, ok := b.podflowSLO(f, st, sloTotals, v); ok {
			st.PodflowSLO = &d
		}
		fl.Startup = st
	}
	b.verdict(f, &fl, logEnd)
	fl.Diagnosis = diagnose(&fl)
	return fl
}

// judgeRow ends judge for a row: the verdict reads the stages and the
// containers' stages, exit codes and back-offs, made here in scratch
// without their titles and evidence; the flow keeps none of them, only
// its containers' names, types and restarts. Hidden, the startup figures
// and the diagnosis are not made: the verdict does not read them.
func (b *Builder) judgeRow(js *judgeScratch, f *flowState, fl Flow, all []stageView, cviews [][]stageView, term []stageView, times int, logEnd time.Time) Flow {
	sc := &js.row
	cs := js.cs
	if cap(sc.times) < times {
		sc.times = make([]time.Time, 0, times)
	}
	ts := timeSlab(sc.times[:0])
	need := len(all) + len(term)
	for _, views := range cviews {
		need += len(views)
	}
	if cap(sc.stages) < need {
		sc.stages = make([]Stage, need)
	}
	stages := sc.stages[:need]
	fl.Stages = stages[: 0 : len(all)+len(term)]
	stages = stages[len(all)+len(term):]
	for i := range all {
		fl.Stages = append(fl.Stages, toStage(b, &all[i], logEnd, &ts, true))
	}
	if cap(sc.ctrs) < len(cs) {
		sc.ctrs = make([]Container, len(cs))
		sc.exits = make([]int, len(cs))
	}
	fl.Containers = sc.ctrs[:0]
	for ci, c := range cs {
		ct := Container{Name: b.texts[c.name], Type: c.typ(), BackOffs: int(c.backOffs)}
		if c.hasExit {
			sc.exits[ci] = c.exitCode
			ct.ExitCode = &sc.exits[ci]
		}
		views := cviews[ci]
		ct.Stages = stages[:0:len(views)]
		stages = stages[len(views):]
		for i := range views {
			ct.Stages = append(ct.Stages, toStage(b, &views[i], logEnd, &ts, true))
		}
		fl.Containers = append(fl.Containers, ct)
	}
	for i := range term {
		fl.Stages = append(fl.Stages, toStage(b, &term[i], logEnd, &ts, true))
	}
	b.verdict(f, &fl, logEnd)
	ctrs := make([]Container, len(cs))
	for i, c := range cs {
		ctrs[i] = Container{Name: fl.Containers[i].Name, Type: fl.Containers[i].Type, Restarts: c.restartCount}
	}
	fl.Stages, fl.Containers, fl.Evidence = nil, ctrs, nil
	return fl
}

func (b *Builder) verdict(f *flowState, fl *Flow, logEnd time.Time) {
	// Start and end.
	for _, st := range fl.Stages {
		if st.Start != nil && (fl.Start.IsZero() || st.Start.Before(fl.Start)) {
			fl.Start = *st.Start
		}
		if st.End != nil && st.End.After(fl.End) {
			fl.End = *st.End
		}
	}
	first, last := b.timeOf(f.first), b.timeOf(f.last)
	if fl.Start.IsZero() {
		fl.Start = first
	}
	if fl.End.IsZero() || last.After(fl.End) && fl.End.Before(first) {
		fl.End = last
	}
	// judge gives the stages in PodStages' order, then TerminationStages':
	// a stage is looked for first where that puts it (at).
	stageByID := func(id string, at int) *Stage {
		if at < len(fl.Stages) && fl.Stages[at].ID == id {
			return &fl.Stages[at]
		}
		for i := range fl.Stages {
			if fl.Stages[i].ID == id {
				return &fl.Stages[i]
			}
		}
		return nil
	}
	// Last completed creation stage, and the first that is not done.
	var current *Stage
	for k, id := range PodStages {
		st := stageByID(id, k)
		if st == nil {
			continue
		}
		switch st.Status {
		case StatusDone:
			fl.Stage = id
		case StatusSkipped, StatusUnknown:
		default:
			if current == nil {
				current = st
			}
		}
	}
	setStall := func(st *Stage) {
		fl.StalledAt = st.ID
		fl.Reason = st.Reason
		if st.Start != nil {
			fl.Waited = Duration(logEnd.Sub(*st.Start))
		}
		fl.Evidence = failEvidence(st.Evidence)
		if st.ID == StInitContainers || st.ID == StContainers {
			b.containerStall(fl, st.ID == StInitContainers)
		}
	}
	if adm := stageByID(StAdmitted, admittedAt); adm != nil && adm.Attempts > 0 && adm.Status != StatusDone {
		fl.Verdict = VerdictRejected
		fl.StalledAt = StAdmitted
		fl.Reason = adm.Reason
		fl.Evidence = failEvidence(adm.Evidence)
	} else if term := stageByID(StTerminating, len(PodStages)); term != nil {
		done := stageByID(StTerminated, len(PodStages)+len(TerminationStages)-1)
		if done != nil && done.Status == StatusDone {
			fl.Verdict = VerdictTerminated
			fl.Stage = StTerminated
		} else {
			fl.Verdict = VerdictTerminating
			for k, id := range TerminationStages {
				st := stageByID(id, len(PodStages)+k)
				if st.Status == StatusDone {
					fl.Stage = id
					continue
				}
				if st.Status == StatusUnknown {
					continue
				}
				fl.StalledAt = id
				fl.Reason = st.Reason
				if st.Start != nil {
					fl.Waited = Duration(logEnd.Sub(*st.Start))
				}
				fl.Evidence = failEvidence(st.Evidence)
				break
			}
		}
	} else if current != nil {
		switch current.Status {
		case StatusStalled:
			fl.Verdict = VerdictStalled
			setStall(current)
		case StatusFailed:
			fl.Verdict = VerdictFailed
			setStall(current)
		default:
			if current.ID == StReady && fl.Stage == StRunning {
				fl.Verdict = VerdictRunning
			} else {
				fl.Verdict = VerdictIncomplete
				fl.StalledAt = current.ID
				if current.Start != nil {
					fl.Waited = Duration(logEnd.Sub(*current.Start))
				}
			}
		}
	} else {
		fl.Verdict = VerdictRunning
	}
	if fl.Verdict == VerdictRunning || fl.Verdict == VerdictIncomplete {
		switch b.texts[f.phase] {
		case "Succeeded":
			fl.Verdict = VerdictCompleted
		case "Failed":
			fl.Verdict = VerdictFailed
		}
	}
	if fl.Verdict == VerdictRunning {
		// A container that crashes after it ran: the pod is failing.
		for i := range fl.Containers {
			c := &fl.Containers[i]
			if c.Type == ContainerRegular && c.BackOffs > 0 {
				fl.Verdict = VerdictFailed
				// The pod got to running and does not stay there: that is
				// where it fails, since its container's first start.
				fl.StalledAt = StRunning
				fl.Container = c.Name
				fl.ContainerStage = CStStarted
				fl.Reason = crashReason(c)
				for _, st := range c.Stages {
					if st.ID == CStStarted {
						fl.Evidence = failEvidence(st.Evidence)
						if st.End != nil && logEnd.After(*st.End) {
							fl.Waited = Duration(logEnd.Sub(*st.End))
						}
					}
				}
				break
			}
		}
	}
	if fl.Verdict == VerdictIncomplete && fl.Stage == "" && len(fl.Stages) > 0 {
		fl.StalledAt = ""
	}
	if !fl.End.IsZero() && fl.End.After(fl.Start) {
		fl.Duration = Duration(fl.End.Sub(fl.Start))
	}
	if fl.Verdict == VerdictStalled || fl.Verdict == VerdictIncomplete || fl.Verdict == VerdictTerminating || fl.Verdict == VerdictFailed && fl.StalledAt == StRunning {
		if logEnd.After(fl.Start) {
			fl.Duration = Duration(logEnd.Sub(fl.Start))
		}
	}
}

// admittedAt is StAdmitted's place in PodStages.
var admittedAt = slices.Index(PodStages, StAdmitted)

func crashReason(c *Container) string {
	var parts []string
	for _, st := range c.Stages {
		if st.ID == CStStarted && st.Reason != "" {
			parts = append(parts, st.Reason)
		}
		if st.ID == CStCompleted && st.Reason != "" {
			parts = append(parts, st.Reason)
		}
	}
	r := strings.Join(parts, "; ")
	if r == "" {
		r = "CrashLoopBackOff"
	}
	if c.ExitCode != nil {
		r += fmt.Sprintf(" (last exit code %d)", *c.ExitCode)
	}
	return r
}

// containerStall finds the container and container stage inside an
// aggregate stage that did not complete.
func (b *Builder) containerStall(fl *Flow, init bool) {
	want := ContainerRegular
	if init {
		want = ContainerInit
	}
	for i := range fl.Containers {
		c := &fl.Containers[i]
		if c.Type != want {
			continue
		}
		for _, st := range c.Stages {
			if st.Status == StatusDone || st.Status == StatusUnknown || st.Status == StatusSkipped {
				continue
			}
			fl.Container = c.Name
			fl.ContainerStage = st.ID
			if st.Reason != "" {
				fl.Reason = st.Reason
			}
			if c.ExitCode != nil && *c.ExitCode != 0 && (st.ID == CStCompleted || st.ID == CStStarted) {
				fl.Reason = crashReason(c)
			}
			if len(st.Evidence) > 0 {
				fl.Evidence = failEvidence(st.Evidence)
			}
			if st.Start != nil {
				fl.Waited = Duration(fl.End.Sub(*st.Start))
			}
			return
		}
	}
}

// failEvidence prefers the lines that carry an error.
func failEvidence(ev []Evidence) []Evidence {
	if len(ev) <= 3 {
		return ev
	}
	return append([]Evidence{ev[0]}, ev[len(ev)-2:]...)
}

func round(d Duration) string {
	t := time.Duration(d)
	switch {
	case t >= time.Minute:
		return t.Round(time.Second).String()
	case t >= time.Second:
		return t.Round(100 * time.Millisecond).String()
	default:
		return t.Round(time.Millisecond).String()
	}
}

// diagnose writes the one-paragraph diagnosis in plain words.
func diagnose(fl *Flow) string {
	var b strings.Builder
	where := fl.StalledAt
	if fl.Container != "" {
		where += fmt.Sprintf(" (container %s, %s)", fl.Container, fl.ContainerStage)
	}
	attempts := 0
	for _, st := range fl.Stages {
		if st.ID == fl.StalledAt {
			attempts = st.Attempts
		}
	}
	for _, c := range fl.Containers {
		if c.Name == fl.Container {
			for _, st := range c.Stages {
				if st.ID == fl.ContainerStage {
					attempts = st.Attempts
				}
			}
		}
	}
	switch fl.Verdict {
	case VerdictStalled, VerdictTerminating:
		fmt.Fprintf(&b, "%s at %s for %s", fl.Verdict, where, round(fl.Waited))
		if fl.Reason != "" {
			fmt.Fprintf(&b, ": %s", oneLine(fl.Reason))
		}
		if attempts > 1 {
			fmt.Fprintf(&b, " — %d failed attempts", attempts)
		}
		b.WriteString(".")
	case VerdictFailed:
		if fl.Container != "" && fl.StalledAt == StRunning {
			fmt.Fprintf(&b, "Failed: container %s keeps failing after it started", fl.Container)
			for _, c := range fl.Containers {
				if c.Name == fl.Container {
					fmt.Fprintf(&b, " (restarted %d times)", c.Restarts)
				}
			}
			if fl.Reason != "" {
				fmt.Fprintf(&b, ": %s", oneLine(fl.Reason))
			}
			b.WriteString(".")
		} else {
			fmt.Fprintf(&b, "Failed at %s", where)
			if fl.Reason != "" {
				fmt.Fprintf(&b, ": %s", oneLine(fl.Reason))
			}
			b.WriteString(".")
		}
	case VerdictRejected:
		fmt.Fprintf(&b, "Rejected at admission: %s.", oneLine(fl.Reason))
	case VerdictIncomplete:
		if fl.StalledAt != "" {
			fmt.Fprintf(&b, "Incomplete: the log ends %s into %s, within its budget.", round(fl.Waited), fl.StalledAt)
		} else {
			b.WriteString("Incomplete: the log does not show enough of this pod to judge.")
		}
	default:
		fmt.Fprintf(&b, "%s after %s", fl.Verdict, round(fl.Duration))
		// The slowest stage, and any stage that needed retries.
		var slow *Stage
		for i := range fl.Stages {
			st := &fl.Stages[i]
			if st.Status == StatusDone && (slow == nil || st.Duration > slow.Duration) {
				slow = st
			}
		}
		if slow != nil && slow.Duration > 0 {
			fmt.Fprintf(&b, "; slowest stage %s (%s)", slow.ID, round(slow.Duration))
		}
		b.WriteString(".")
		for _, st := range fl.Stages {
			if st.Attempts > 0 && st.Status == StatusDone {
				fmt.Fprintf(&b, " %s needed %d failed attempts first: %s.", st.ID, st.Attempts, oneLine(st.Reason))
			}
		}
		for _, c := range fl.Containers {
			for _, st := range c.Stages {
				if st.Attempts > 0 && st.Status == StatusDone {
					fmt.Fprintf(&b, " Container %s %s needed %d failed attempts first: %s.", c.Name, st.ID, st.Attempts, oneLine(st.Reason))
				}
			}
		}
	}
	if len(fl.Hidden) > 0 {
		fmt.Fprintf(&b, " Not visible at this log's verbosity: %s.", strings.Join(fl.Hidden, ", "))
	}
	return b.String()
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
