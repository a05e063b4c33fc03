package timeline

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/parser"
)

// The node a line is from, and the lines about the node itself: its name
// (kubelet_node_status.go registers it), kubelet version, -v and restarts,
// and the node-wide problems (runtime or network not ready, PLEG unhealthy,
// the sync loop skipping) that stall every pod at once. Those become
// findings, kept per node and attached at Finish to the pods in flight at
// the time, so that a pod's stall is read beside its node's trouble.
// Several nodes' logs can be read together, so every index of pods is per
// node.

// nodeState is a node as the builder keeps it: its facts, the indexes that
// find its pods, and its findings.
type nodeState struct {
	name       string
	hostname   string
	version    string
	maxV       int
	flagV      int
	start, end time.Time
	starts     int
	// kubeletLines counts the kubelet's records: none means the node is
	// known from its runtime's log alone, which shows few stages.
	kubeletLines int
	lastStart    time.Time
	pidSince     time.Time // when the kubelet's PID last changed (kubeletPID), a start or a stray line
	byUID        map[string]*flowState
	byName       map[string]*flowState
	byID         map[runtimeid.Packed]*flowState
	uidSeen      map[string]*uidSighting // pods the fallback met by UID alone (fallback.go)
	byShort      map[string]*flowState   // byName's pods by their name alone; ambiguousName when several namespaces have it
	findings     map[string]*Finding
	events       []Event // the node's own events (kind Node), a repeat counted (nodeEvent)
	// pulling lists, per image, the pods with a pull of it under way, so
	// the runtime's PullImage lines (which name only the image) find them.
	pulling map[string]pullers
	// orphans are runtime lines by an ID not yet tied to a pod.
	orphans     map[string]*orphan
	orphanOrder []string
	findOrder   []string
	findSeq     int // findings made, for their IDs (findOrder loses withdrawn ones)
	plegBad     bool
	cutAdds     []cutAdd // SyncLoop ADDs of names cut short, not yet a pod's (syncloop.go)
	// The kubelet process: its PID (klog's header) and how many lines of
	// it were read, the PIDs seen before it, and which start lines of it
	// were read (startSign), to tell a new process from the same one.
	pid         int
	pidLines    int
	pastPIDs    []int
	pidRestarts []string // restart findings a PID change made (findings' keys)
	pidFlaky    bool     // PIDs interleave: not one per process
	runSigns    uint8
	// ranked are the pods the eviction manager ranked last, its next
	// victims in order (eviction.go).
	ranked []PodRef
	// pressure is the resource the eviction manager last said it reclaims.
	pressure string
	// What the prober said of containers (probes.go) and the pods the
	// eviction manager evicted (eviction.go): few, kept apart.
	probes  map[*containerState]*probeNote
	evicted map[*flowState]*evictNote
	// shutdownKilled are the pods the node shutdown manager killed
	// (nodeshutdown.go).
	shutdownKilled map[*flowState]bool
}

// recordKey is what decides a record's node (see nodeKey).
type recordKey struct {
	input, host, component string
	nodes                  int
}

// is reports whether rec's key is k, with nodes nodes known. A record's
// input is the reader's string, the one k holds: compared at once.
func (k *recordKey) is(rec *parser.Record, nodes int) bool {
	return k.nodes == nodes && same(k.input, rec.Pos.Input) && same(k.host, rec.Host) && same(k.component, rec.Component)
}

// same is a == b, without a call when both are empty.
func same(a, b string) bool { return len(a) == len(b) && (len(a) == 0 || a == b) }

// nodeKey says which node a record belongs to: its host (journald prefix
// or dump layout), else its input — rotated siblings (kubelet.log.1.gz)
// share one — so unrelated single-node logs are not merged. A runtime log
// without a host joins the only kubelet node when there is just one.
func (b *Builder) nodeKey(rec *parser.Record) string {
	if rec.Host != "" {
		return rec.Host
	}
	if rec.Component != "" && rec.Component != "kubelet" && len(b.nodes) == 1 {
		for k := range b.nodes {
			return k
		}
	}
	// One key per input, made once: this runs for every record.
	k, ok := b.fileKeys[rec.Pos.Input]
	if !ok {
		k = fileNodePrefix + rotationStem(rec.Pos.Input)
		if b.fileKeys == nil {
			b.fileKeys = map[string]string{}
		}
		b.fileKeys[rec.Pos.Input] = k
	}
	return k
}

const fileNodePrefix = "file:"

// rotationStem drops compression and rotation suffixes: kubelet.log.2.gz → kubelet.log.
func rotationStem(name string) string {
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		name = strings.TrimSuffix(name, ext)
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	return name
}

// recordNode finds the node of a record whose key is not the last
// record's, and keeps its key: apart from Add, whose every line runs for
// every record.
func (b *Builder) recordNode(rec *parser.Record) *nodeState {
	if rec.Pos.Input != "" && !b.inputs[rec.Pos.Input] {
		b.inputs[rec.Pos.Input] = true
		b.inputOrder = append(b.inputOrder, rec.Pos.Input)
	}
	n := b.node(b.nodeKey(rec))
	if in := b.inputNodes[rec.Pos.Input]; in == nil {
		b.inputNodes[rec.Pos.Input] = map[*nodeState]bool{n: true}
	} else if !in[n] {
		in[n] = true
	}
	// The key's own copy of what is read from the line: a record's
	// strings may be the parser's, valid only until the next record
	// (parser.Options.Borrow). The input's name is the reader's, the
	// same string record after record: kept as is, it compares at once.
	b.lastNode, b.lastKey = n, recordKey{rec.Pos.Input, b.keyText(rec.Host), b.keyText(rec.Component), len(b.nodes)}
	return n
}

// keyText is s, as the builder's own copy (a record key's text repeats:
// hosts, components).
func (b *Builder) keyText(s string) string {
	if s == "" {
		return ""
	}
	return b.texts.Intern(s)
}

func (b *Builder) node(name string) *nodeState {
	n := b.nodes[name]
	if n == nil {
		name = strings.Clone(name) // rec.Host's (nodeKey): the record's text
		n = &nodeState{name: name, maxV: -1, flagV: -1, byUID: map[string]*flowState{}, byName: map[string]*flowState{}, byID: map[runtimeid.Packed]*flowState{}, findings: map[string]*Finding{}}
		b.nodes[name] = n
		b.nodeOrder = append(b.nodeOrder, name)
	}
	return n
}

// registerNode reads the node's name from its registration lines.
func registerNode(n *nodeState, rec *parser.Record) {
	if v, ok := rec.Field("node"); ok && n.hostname == "" {
		// KObj: a string in text, {"name":…} in the JSON format.
		if nv, ok := v.Get("name"); ok {
			v = nv
		}
		if v.Kind != parser.KindObject { // an object's Str is its JSON text, not a name
			n.hostname = strings.Clone(v.Str)
		}
	}
}

// nodeSpecial reads the lines about the node itself (version, start,
// flags): rare, apart from apply.
func (b *Builder) nodeSpecial(n *nodeState, rec *parser.Record, mk *Marker) {
	switch mk.Special {
	case SpecialVersion:
		v := rec.Str("kubeletVersion")
		if v == "" && strings.HasPrefix(rec.Msg, "Version: ") {
			v = strings.TrimSpace(strings.TrimPrefix(rec.Msg, "Version: "))
		}
		if v != "" {
			n.version = strings.Clone(v)
		}
		// server.go logs the version once per kubelet start.
		b.kubeletStartLine(n, rec, signVersion)
		return
	case SpecialKubeletStart:
		b.kubeletStartLine(n, rec, startSign(rec.Msg))
		return
	case SpecialFlag:
		// The JSON format keeps klog's trailing newline in the message.
		msg := strings.TrimSpace(rec.Msg)
		if h, ok := strings.CutPrefix(msg, "FLAG: --hostname-override="); ok {
			if h = strings.Trim(h, "\""); h != "" {
				n.hostname = strings.Clone(h)
			}
			return
		}
		s := strings.TrimPrefix(msg, "FLAG: --v=")
		s = strings.Trim(s, "\"")
		if v, err := strconv.Atoi(s); err == nil {
			n.flagV = v
		}
		return
	}
}

// Kubelet restarts. A capture shows a new kubelet process by its start
// lines (server.go's "Kubelet version" and "Started kubelet", kubelet.go's
// "Starting kubelet main sync loop") or, when it kept none of them, by the
// new PID klog writes in every header: a node's PID that changes for good
// is a new process. Each start after the first is a KubeletRestart finding
// (the pods the new kubelet replays as SyncLoop ADD are not new pods).

// Start lines, one bit each: a line of a kind already seen in the current
// process begins a new one (a kubelet with the same PID, or a log without
// PIDs, the JSON format's).
const (
	signVersion uint8 = 1 << iota
	signStarted
	signSyncLoop
	signEvent // the node's Starting event
)

func startSign(msg string) uint8 {
	if strings.HasPrefix(msg, "Started kubelet") {
		return signStarted
	}
	return signSyncLoop
}

// kubeletStartLine reads a line the kubelet writes once as it starts.
func (b *Builder) kubeletStartLine(n *nodeState, rec *parser.Record, sign uint8) {
	if n.starts == 0 || n.runSigns&sign != 0 {
		b.kubeletRun(n, rec, false)
	}
	n.runSigns |= sign
	n.lastStart = rec.Time
}

// nodeEvent reads an event the kubelet records about its node. Its
// Starting event ("Starting kubelet.", kubelet.go) is a start line: the
// one word of a start an export of the node's events keeps.
func (b *Builder) nodeEvent(n *nodeState, rec *parser.Record, typ, reason, message string) {
	b.keepNodeEvent(n, rec, typ, reason, message)
	switch {
	case reason == "Starting" && message == "Starting kubelet.":
		b.kubeletStartLine(n, rec, signEvent)
	case reason == "Shutdown" && message == "Shutdown manager detected shutdown event":
		b.shutdownFinding(n, rec, reason+": "+message) // nodeshutdown.go
	case reason == "ImageGCFailed", reason == "FreeDiskSpaceFailed":
		b.imageGCFailed(n, rec, reason+": "+message) // images.go
	}
}

// kubeletPID reads a kubelet line whose PID is not the node's last: a new
// process, unless the PIDs seen do not run one after another (a capture
// whose header numbers are threads', or interleaves several processes), or
// the last PID was seen in one line only (a stray line of another
// program, as a scheduler's in a pasted kubelet log).
func (b *Builder) kubeletPID(n *nodeState, rec *parser.Record) {
	if n.pidFlaky {
		return
	}
	if slices.Contains(n.pastPIDs, rec.PID) {
		// PIDs come back: they do not tell processes apart.
		n.pidFlaky = true
		for _, k := range n.pidRestarts {
			delete(n.findings, k)
			n.findOrder = slices.DeleteFunc(n.findOrder, func(x string) bool { return x == k })
			n.starts--
		}
		n.pidRestarts = nil
		return
	}
	if n.pid != 0 {
		n.pastPIDs = append(n.pastPIDs, n.pid)
	}
	real := n.pid == 0 || n.pidLines > 1
	n.pid, n.pidLines, n.pidSince = rec.PID, 0, rec.Time
	if real {
		b.kubeletRun(n, rec, true)
	}
}

// kubeletRun counts a kubelet process begun at rec.
func (b *Builder) kubeletRun(n *nodeState, rec *parser.Record, byPID bool) {
	n.starts++
	n.runSigns = 0
	n.lastStart = rec.Time
	if n.starts > 1 {
		msg := "kubelet restarted; the pods it replays as SyncLoop ADD are not counted as new pods"
		if byPID {
			msg = "kubelet restarted (a new process, pid " + strconv.Itoa(rec.PID) + "); the pods it replays as SyncLoop ADD are not counted as new pods"
		}
		k := b.finding(n, "KubeletRestart", rec, msg, true)
		if byPID {
			n.pidRestarts = append(n.pidRestarts, k)
		}
	}
}

// Node problems: lines that say the node cannot run pods (NotReady, PLEG
// unhealthy, the runtime or its network not ready, the sync loop
// skipping, a resource under pressure), in every kubelet's words. One
// line may name several (a NotReady condition's message is the cause,
// "PLEG is not healthy: …"): each becomes its finding, once per node.

// problemKeys are the fields that carry a node problem's detail.
var problemKeys = [...]string{"condition", "networkReady", "runtimeReady", "nodeCondition", "event"}

// nodeEvents are the node events (kubelet_node_status.go's "Recording
// event message for node") that are problems, by the finding they make.
var nodeEvents = map[string]string{
	"NodeNotReady":              "NodeNotReady",
	"NodeHasInsufficientMemory": "MemoryPressure",
	"NodeHasDiskPressure":       "DiskPressure",
	"NodeHasInsufficientPID":    "PIDPressure",
}

// startupReasons are why every kubelet skips pod synchronization as it
// starts (kubelet.go syncLoop: runtime errors before PLEG's first relist).
var startupReasons = [...]string{"pleg has yet to be successful", "container runtime status check may not have completed yet"}

// startupGrace is how long after a kubelet's start its start-up reasons
// are routine.
const startupGrace = 2 * time.Minute

// startupSkip reports whether a sync-loop skip's error ("[a, b]") gives
// only start-up reasons.
func startupSkip(err string) bool {
	err = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(err), "["), "]")
	if err == "" {
		return false
	}
	for _, p := range strings.Split(err, ", ") {
		p = strings.ToLower(p)
		ok := false
		for _, r := range startupReasons {
			ok = ok || strings.Contains(p, r)
		}
		if !ok {
			return false
		}
	}
	return true
}

func (b *Builder) nodeProblem(n *nodeState, rec *parser.Record) {
	// What the line says: its message, error and detail fields, read in
	// place (these lines repeat every few seconds while the node is sick).
	var parts [2 + len(problemKeys)]string
	parts[0], parts[1] = rec.Msg, rec.Err
	for i, k := range problemKeys {
		parts[2+i] = rec.Str(k)
	}
	has := func(subs ...string) bool {
		for _, p := range parts {
			for _, sub := range subs {
				if p != "" && strings.Contains(p, sub) {
					return true
				}
			}
		}
		return false
	}
	var kinds [8]string
	found := kinds[:0]
	if strings.HasPrefix(rec.Msg, "Recording ") {
		// Recording event message for node (event=NodeNotReady), ≤1.20
		// Recording NodeNotReady event message for node x.
		ev := parts[len(parts)-1]
		if ev == "" {
			ev, _, _ = strings.Cut(strings.TrimPrefix(rec.Msg, "Recording "), " ")
		}
		if kind := nodeEvents[ev]; kind != "" {
			found = append(found, kind)
		}
	} else {
		if strings.HasPrefix(rec.Msg, "Node became not ready") {
			found = append(found, "NodeNotReady")
		}
		if has("PLEG is not healthy") && !has("pleg has yet to be successful") {
			// "has yet to be successful" is every kubelet's start-up, not a fault.
			n.plegBad = true
			found = append(found, "PLEGUnhealthy")
		}
		if has("network not ready", "NetworkReady=false", "cni config", "cni plugin not initialized", "network plugin is not ready") {
			found = append(found, "NetworkNotReady")
		}
		if has("runtime not ready", "RuntimeReady=false", "container runtime is down", "from runtime service failed") {
			found = append(found, "RuntimeDown")
		}
		for _, kind := range pressureKinds {
			if has(kind) {
				found = append(found, kind)
			}
		}
		skipping := strings.HasPrefix(rec.Msg, "Skipping pod synchronization") || strings.HasPrefix(rec.Msg, "skipping pod synchronization")
		switch {
		case len(found) > 0:
		case skipping && startupSkip(rec.Err) && (n.lastStart.IsZero() || rec.Time.Sub(n.lastStart) < startupGrace):
			// Every kubelet skips its first syncs while PLEG has yet to
			// relist and the runtime's status is checked: not a finding
			// on every node. Still so minutes after the start, it is.
			return
		case skipping:
			found = append(found, "SyncLoopSkipped")
		default:
			found = append(found, "RuntimeDown")
		}
	}
	for _, kind := range found {
		msg := ""
		if n.findings[kind] == nil {
			// The message is made once, for the finding's first line.
			msg = rec.Msg
			if rec.Err != "" {
				msg += ": " + rec.Err
			}
			for i, k := range problemKeys {
				if v := parts[2+i]; v != "" {
					msg += " " + k + "=" + v
				}
			}
		}
		b.finding(n, kind, rec, msg, false)
	}
}

// nodeTaint reads kube-controller-manager's taint of a NotReady or
// unresponsive node (its Ready condition False or Unknown): a NodeNotReady
// finding on that node when the log has its kubelet's lines (a control
// plane's journal names every node of the cluster). It reports whether the
// line was read.
func (b *Builder) nodeTaint(n *nodeState, rec *parser.Record) bool {
	name := rec.Str("node")
	if name == "" && strings.HasPrefix(rec.Msg, "Node ") && strings.HasSuffix(rec.Msg, ". Adding it to the Taint queue.") {
		rest := rec.Msg[len("Node "):]
		if i := strings.Index(rest, " is NotReady as of "); i > 0 {
			name = rest[:i]
		} else if i := strings.Index(rest, " is unresponsive as of "); i > 0 {
			name = rest[:i]
		}
	}
	if name == "" {
		return false
	}
	target := n
	if n.name != name {
		target = nil
		for _, m := range b.nodes {
			if m.name == name {
				target = m
				break
			}
		}
	}
	if target == nil || target.kubeletLines == 0 {
		return false
	}
	msg := ""
	if target.findings["NodeNotReady"] == nil {
		msg = rec.Msg
		if rec.Structured() {
			msg += " node=" + name
		}
	}
	b.finding(target, "NodeNotReady", rec, msg, false)
	return true
}

// pressureKinds are the node conditions of a resource under pressure.
var pressureKinds = [...]string{"MemoryPressure", "DiskPressure", "PIDPressure"}

// findingSaid adds rec to the node's one finding of kind; the finding's
// words, set by its first line, are message when given (a node event's),
// else rec's own message and error.
func (b *Builder) findingSaid(n *nodeState, kind string, rec *parser.Record, message string) {
	msg := ""
	if n.findings[kind] == nil {
		msg = message
		if msg == "" {
			msg = rec.Msg
			if rec.Err != "" {
				msg += ": " + rec.Err
			}
		}
	}
	b.finding(n, kind, rec, msg, false)
}

// finding records a node problem of kind at rec: once per node, or, when
// newEach, each time (a restart). It returns the finding's key.
func (b *Builder) finding(n *nodeState, kind string, rec *parser.Record, msg string, newEach bool) string {
	key := kind
	if newEach {
		key = kind + "#" + strconv.Itoa(n.findSeq)
	}
	fd := n.findings[key]
	if fd == nil {
		n.findSeq++
		fd = &Finding{ID: n.name + "/" + kind + "-" + strconv.Itoa(n.findSeq), Node: n.name, Kind: kind, Time: rec.Time, Message: strings.Clone(msg)}
		n.findings[key] = fd
		n.findOrder = append(n.findOrder, key)
	}
	fd.Count++
	end := rec.Time
	fd.End = &end
	if len(fd.Evidence) < 3 {
		fd.Evidence = append(fd.Evidence, b.evidenceOf(rec))
	}
	return key
}

// networkNotReady is kubelet.go's NetworkNotReadyErrorMsg: syncPod's error
// for a pod it cannot give a sandbox while the runtime's network is not
// ready ("network is not ready: container runtime network not ready:
// NetworkReady=false …").
const networkNotReady = "network is not ready: "

// networkNotReady notes the node's NetworkNotReady finding from a pod's
// sync error: a paste that kept only the pod's lines still shows the
// node's trouble.
func (b *Builder) networkNotReady(n *nodeState, rec *parser.Record, errText string) {
	msg := ""
	if n.findings["NetworkNotReady"] == nil {
		msg = "Error syncing pod: " + errText
	}
	b.finding(n, "NetworkNotReady", rec, msg, false)
}

// keepNodeEvent keeps one of the node's events as get events lists it:
// a repeat of the same type, reason and message counts, as the event
// recorder's own aggregation does; at most maxEvents distinct ones.
func (b *Builder) keepNodeEvent(n *nodeState, rec *parser.Record, typ, reason, message string) {
	for i := range n.events {
		if e := &n.events[i]; e.Type == typ && e.Reason == reason && e.Message == message {
			e.Count++
			if rec.Time.After(e.LastTime) {
				e.LastTime = rec.Time
			}
			return
		}
	}
	if len(n.events) >= maxEvents {
		return
	}
	n.events = append(n.events, Event{Time: rec.Time, Type: strings.Clone(typ), Reason: strings.Clone(reason),
		Message: strings.Clone(message), Count: 1, Evidence: b.evidenceOf(rec)})
}
