package timeline

import (
	"strconv"
	"strings"
	"time"

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
	lastStart  time.Time
	byUID      map[string]*flowState
	byName     map[string]*flowState
	byID       map[rid]*flowState
	findings   map[string]*Finding
	// pulling lists, per image, the pods with a pull of it under way, so
	// the runtime's PullImage lines (which name only the image) find them.
	pulling map[string]pullers
	// orphans are runtime lines by an ID not yet tied to a pod.
	orphans     map[string]*orphan
	orphanOrder []string
	findOrder   []string
	plegBad     bool
	cutAdds     []cutAdd // SyncLoop ADDs of names cut short, not yet a pod's (syncloop.go)
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
	return b.intern(s)
}

func (b *Builder) node(name string) *nodeState {
	n := b.nodes[name]
	if n == nil {
		name = strings.Clone(name) // rec.Host's (nodeKey): the record's text
		n = &nodeState{name: name, maxV: -1, flagV: -1, byUID: map[string]*flowState{}, byName: map[string]*flowState{}, byID: map[rid]*flowState{}, findings: map[string]*Finding{}}
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
		return
	case SpecialKubeletStart:
		n.starts++
		if n.starts > 1 {
			b.finding(n, "KubeletRestart", rec, "kubelet restarted; the pods it replays as SyncLoop ADD are not counted as new pods", true)
		}
		n.lastStart = rec.Time
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

func (b *Builder) nodeProblem(n *nodeState, rec *parser.Record) {
	text := rec.Err
	if text == "" {
		text = rec.Msg
	}
	kind := "RuntimeDown"
	switch {
	case strings.Contains(text, "PLEG is not healthy") && !strings.Contains(text, "pleg has yet to be successful"):
		// "has yet to be successful" is every kubelet's start-up, not a fault.
		kind = "PLEGUnhealthy"
		n.plegBad = true
	case strings.HasPrefix(rec.Msg, "Skipping pod synchronization"), strings.HasPrefix(rec.Msg, "skipping pod synchronization"):
		kind = "SyncLoopSkipped"
	case strings.Contains(rec.Msg, "network not ready"):
		kind = "NetworkNotReady"
	case strings.Contains(rec.Msg, "Node became not ready"):
		kind = "NodeNotReady"
	}
	b.finding(n, kind, rec, rec.Msg+": "+text, false)
}

func (b *Builder) finding(n *nodeState, kind string, rec *parser.Record, msg string, newEach bool) {
	key := kind
	if newEach {
		key = kind + "#" + strconv.Itoa(len(n.findOrder))
	}
	fd := n.findings[key]
	if fd == nil {
		fd = &Finding{ID: n.name + "/" + kind + "-" + strconv.Itoa(len(n.findOrder)+1), Node: n.name, Kind: kind, Time: rec.Time, Message: strings.Clone(msg)}
		n.findings[key] = fd
		n.findOrder = append(n.findOrder, key)
	}
	fd.Count++
	end := rec.Time
	fd.End = &end
	if len(fd.Evidence) < 3 {
		fd.Evidence = append(fd.Evidence, b.evidenceOf(rec))
	}
}
