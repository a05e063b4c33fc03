package timeline

import (
	"errors"
	"hash/maphash"
	"io"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/linepos"
	"github.com/podflow/podflow/internal/refcache"
	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/internal/statuspatch"
	"github.com/podflow/podflow/internal/textmemo"
	"github.com/podflow/podflow/internal/words"
	"github.com/podflow/podflow/parser"
)

// The builder's entry points, and the dispatch of a record to the
// subsystem whose line it is (doc.go tells the whole path). What a line means lives in that
// subsystem's file; here is only where it goes, and the work every record
// pays for, kept in one place to be kept small.

// Options tune the engine.
type Options struct {
	// Budgets override stage budgets by stage id (e.g. "sandbox": 5s).
	Budgets map[string]time.Duration
	// Pipeline replaces the reference pipeline (tests); nil uses Reference.
	Pipeline *Pipeline
	// MaxFlows caps the flows kept, the memory bound on hostile input (a
	// flow costs a few KiB); records about further pods are counted in
	// Summary.Dropped. 0 means DefaultMaxFlows.
	MaxFlows int
}

// DefaultMaxFlows is the default pod limit: far above what a node's log
// holds (a node runs ~110 pods at a time), low enough that a log naming a
// million bogus pods stays within a few hundred MiB.
const DefaultMaxFlows = 100_000

// RecordSource is what Build reads: parser.Reader and parser.MultiReader.
type RecordSource interface {
	Next() (*parser.Record, error)
}

// Build reads src to the end and returns the flows. A read error ends the
// build and is returned with the flows built so far.
func Build(src RecordSource, opts Options) (*FlowList, error) {
	b := NewBuilder(opts)
	for {
		rec, err := src.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return b.Finish(), err
		}
		b.Add(rec)
	}
	switch s := src.(type) {
	case interface{ SourceStats() []parser.SourceStats }:
		b.Inputs(s.SourceStats())
	case interface{ Stats() parser.Stats }:
		st := s.Stats()
		b.InputSpan("", st.FirstTime, st.LastTime)
	}
	return b.Finish(), nil
}

// Builder consumes records one at a time (streaming) and keeps state
// proportional to pods, not lines.
type Builder struct {
	opts         Options
	p            *Pipeline
	m            *matcher
	nodes        map[string]*nodeState
	nodeOrder    []string
	flows        []*flowState
	unattributed []Evidence
	unattrCount  int
	inputs       map[string]bool
	inputOrder   []string
	inputNodes   map[string]map[*nodeState]bool
	records      int64
	budgets      map[string]time.Duration
	capped       bool
	dropped      int64
	snapshot     bool              // judging for Snapshot: copy what the builder still changes
	texts        words.Table       // interned strings, and texts of evidence and events
	lines        linepos.Table     // evidence lines' positions (package internal/linepos)
	fileKeys     map[string]string // input → node key of a host-less input
	stamps       stamps.Table      // times, compactly (package internal/stamps)
	lastKey      recordKey         // the last record's, and its node
	lastNode     *nodeState
	now          time.Time                              // a followed log's present (Now); zero: the input's end
	text         []byte                                 // evidenceText's buffer
	patch        statuspatch.Decoder                    // reused: its slices outlive one patch
	flowCache    refcache.Cache[nodeState, flowState]   // what pod references resolved to (package internal/refcache)
	ranMemo      textmemo.Memo[ranStatus]               // initAction's
	errMemo      textmemo.Memo[syncErrorRead]           // syncError's
	stageFacts   *[podSlots + containerSlots]stageFacts // stageDef's, made on first use
	judging      judgeScratch                           // judge's working memory when judging on this goroutine
	eventRec     eventRecord                            // the event being read (event)
	eventMemo    *[eventMemoSize]eventWords
	eventMRU     [eventMemoSize / 2]uint8 // the way of each set of eventMemo used last
	eventSeed    maphash.Seed
	evKey        []byte                     // eventKey's buffer
	eventScratch eventWords                 // the reference's, read anew for each event
	reference    bool                       // tests: no caches, the reference path for every record
	idPack       runtimeid.Packer           // runtime IDs, packed (package internal/runtimeid)
	images       map[*nodeState]*nodeImages // pull failures naming only an image, and containers by image (images.go)
	keyBuf       []byte                     // nameKey's
	sightings    []*uidSighting             // pods known by a UID alone, in the order met (fallback.go)
	loose        []Evidence                 // failure lines that name no pod, until the flows are judged (fallback.go)
	// walked counts the nodes and flows the end of the build visits
	// (Inputs, judgeAll) for each input and node: tests check that it
	// grows with them, not with their product.
	walked int64
}

// NewBuilder returns an empty builder.
func NewBuilder(opts Options) *Builder {
	p := opts.Pipeline
	if p == nil {
		p = &Reference
	}
	if opts.MaxFlows <= 0 {
		opts.MaxFlows = DefaultMaxFlows
	}
	budgets := map[string]time.Duration{}
	for _, s := range p.Stages {
		budgets[s.ID] = s.Budget
	}
	for k, v := range opts.Budgets {
		budgets[k] = v
	}
	return &Builder{opts: opts, p: p, m: newMatcher(p), nodes: map[string]*nodeState{}, inputs: map[string]bool{}, inputNodes: map[string]map[*nodeState]bool{}, budgets: budgets,
		stamps: stamps.New(),
		texts:  words.New(maxInternLen)}
}

// InputSpan tells the builder the time span of all lines of an input,
// declined ones included (parser Stats.FirstTime/LastTime), so the log's
// end, and with it every wait, is measured to the last line. An empty input
// name applies to every node.
func (b *Builder) InputSpan(input string, first, last time.Time) {
	if input == "" {
		for _, n := range b.nodes {
			n.span(first, last)
		}
		return
	}
	// The input's own nodes, not every node: Inputs calls this for each
	// of thousands of inputs, each its own node.
	for n := range b.inputNodes[input] {
		n.span(first, last)
		b.walked++
	}
}

// span widens the node's span to first and last.
func (n *nodeState) span(first, last time.Time) {
	if !first.IsZero() && (n.start.IsZero() || first.Before(n.start)) {
		n.start = first
	}
	if last.After(n.end) {
		n.end = last
	}
}

// Inputs tells the builder what the parser learnt of each input once all
// records are in: its time span (see InputSpan) and the kubelet version a
// log dump records beside it, used for nodes whose lines never said.
func (b *Builder) Inputs(stats []parser.SourceStats) {
	for _, ss := range stats {
		b.InputSpan(ss.Source.Name, ss.Stats.FirstTime, ss.Stats.LastTime)
		v := ss.Source.DumpVersion()
		if v == "" {
			continue
		}
		for n := range b.inputNodes[ss.Source.Name] {
			if n.version == "" {
				n.version = v
			}
		}
	}
}

// Want is the parser's cheap filter (parser.Options.Want): it declines
// records no stage, identity or node rule reads.
func (b *Builder) Want(msg []byte) bool { return b.m.want(msg) }

// Add consumes one record.
func (b *Builder) Add(rec *parser.Record) {
	b.records++
	b.sweepTimes()
	// A record's node and input are nearly always the last record's: the
	// lookups are made again only when what decides them changes.
	n := b.lastNode
	if n == nil || !b.lastKey.is(rec, len(b.nodes)) {
		n = b.recordNode(rec)
	}
	if !rec.Time.IsZero() {
		if n.start.IsZero() || rec.Time.Before(n.start) {
			n.start = rec.Time
		}
		if rec.Time.After(n.end) {
			n.end = rec.Time
		}
	}
	if rec.Verbosity > n.maxV {
		n.maxV = rec.Verbosity
	}
	if rec.Component != "" && rec.Component != "kubelet" {
		b.runtimeLine(n, rec)
		return
	}
	n.kubeletLines++
	if rec.PID != n.pid && rec.PID != 0 {
		b.kubeletPID(n, rec) // a new kubelet process, or a stray line (nodes.go)
	}
	n.pidLines++
	msg := rec.Msg
	if msg == "Event occurred" {
		b.event(n, rec)
		return
	}
	// The node and volume lines below are rare: their first bytes pass
	// over nearly every record without comparing whole prefixes.
	var first byte
	if msg != "" {
		first = msg[0]
	}
	switch {
	case first == 'A' && strings.HasPrefix(msg, "Attempting to register node"), first == 'S' && len(msg) > 1 && msg[1] == 'u' && strings.HasPrefix(msg, "Successfully registered node"):
		registerNode(n, rec)
		return
	case first == 'E' && strings.HasPrefix(msg, "Event(") && !rec.Structured():
		b.legacyEventLine(n, rec)
		return
	case first == 'M' && strings.HasPrefix(msg, "MountVolume.SetUp failed"), first == 'O' && strings.HasPrefix(msg, "Operation for ") && mountOperation(msg) >= 0:
		b.volumeFailureText(n, rec)
		return
	}
	markers := b.m.lookup(msg)
	if len(markers) == 0 {
		b.fallback(n, rec) // a line no marker reads (fallback.go)
		return
	}
	for _, mk := range markers {
		if mk.V > n.maxV && rec.Format != parser.FormatJSON && rec.Format != parser.FormatDescribe {
			n.maxV = mk.V
		}
		b.apply(n, rec, mk)
	}
}

// apply hands a line that matched marker mk to the subsystem it comes
// from: a Special marker to its handler, any other to the stage it moves,
// on the pod (or the container) the line names.
func (b *Builder) apply(n *nodeState, rec *parser.Record, mk *Marker) {
	switch mk.Special {
	case SpecialVersion, SpecialKubeletStart, SpecialFlag:
		b.nodeSpecial(n, rec, mk)
		return
	case SpecialNodeProblem:
		b.nodeProblem(n, rec)
		return
	case SpecialSyncLoop:
		b.syncLoop(n, rec, mk)
		return
	case SpecialPLEG:
		b.pleg(n, rec)
		return
	case SpecialStatusPatch:
		// A pasted describe's container status (status.go) starts its pod,
		// as a pasted events table's row does.
		if f := b.flowFor(n, rec, rec.Format == parser.FormatDescribe); f != nil {
			b.statusPatch(f, rec)
		}
		return
	case SpecialStartup:
		// The tracker's line proves the pod ran: a slice holding it alone
		// still names the pod (issue #25, class 1).
		if f := b.flowFor(n, rec, true); f != nil {
			b.startup(f, rec)
		}
		return
	case SpecialFinished:
		b.finished(n, rec)
		return
	case SpecialSyncError:
		b.syncError(n, rec, mk)
		return
	case SpecialStartFailed:
		b.startFailed(n, rec)
		return
	case SpecialSandboxCRI:
		b.sandboxCRI(n, rec)
		return
	case SpecialSandboxCRIO:
		b.sandboxCRIO(n, rec, mk)
		return
	case SpecialNodeTaint:
		b.nodeTaint(n, rec)
		return
	case SpecialKill:
		b.killing(n, rec)
		return
	case SpecialProbe:
		b.probeLine(n, rec)
		return
	case SpecialEviction:
		b.evictionLine(n, rec)
		return
	case SpecialAdmission:
		b.admissionLine(n, rec)
		return
	case SpecialImagePull:
		b.imagePullLine(n, rec)
		return
	case SpecialInitAction:
		if f := b.flowFor(n, rec, false); f != nil {
			b.initAction(f, rec)
		}
		return
	case SpecialVolumeMount:
		b.volumeLine(n, rec, mk)
		return
	case SpecialConfigPod:
		b.configPod(n, rec, mk)
		return
	case SpecialResize:
		b.resizeCheck(n, rec, mk)
		return
	case SpecialPodName:
		b.podNameLine(n, rec, mk)
		return
	case SpecialDevicePlugin:
		b.devicePluginLine(n, rec)
		return
	case SpecialSidecar:
		b.sidecarLine(n, rec, mk)
		return
	case SpecialShutdown:
		b.shutdownLine(n, rec, mk)
		return
	case SpecialImageGC:
		b.imageGCFailed(n, rec, "")
		return
	case SpecialRuntimeStart:
		b.runtimeStartFailed(n, rec, mk)
		return
	}
	f := b.flowFor(n, rec, true)
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	if mk.Stage == StReady && !probeSaysReady(rec) {
		b.touch(f, rec) // a line of the pod's all the same: it spans it
		return
	}
	if mk.Container {
		b.containerLine(f, rec, mk)
		return
	}
	if mk.Stage == StSandbox {
		b.keepSandboxID(n, f, rec)
	}
	b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
}
