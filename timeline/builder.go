// Package timeline rebuilds each pod's journey through the kubelet from
// parser records, against the reference pipeline (pipeline.go), and judges
// how it ended. It knows nothing of terminals or files.
package timeline

import (
	"errors"
	"hash/maphash"
	"io"
	"math/bits"
	"strings"
	"time"

	"github.com/podflow/podflow/parser"
)

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

const maxEvents = 64

// containerState is a container as the builder keeps it, in 176 bytes: a
// pod has two or three.
type containerState struct {
	ids          []rid
	stages       containerStages
	restartCount int
	exitCode     int // when hasExit
	attemptAt    stamp
	died         stamp
	plegAt       stamp
	// pulls are the image pulls the events show (Pulling → Pulled), for the
	// SLO figure that leaves pulls out; pullOpen is a Pulling not yet done.
	pulls    []stampSpan
	pullOpen stamp
	// ran is the runtime's own start and finish of an init container, from
	// "Computing init container action"; it beats PLEG's relist delay.
	ran                 stampSpan
	name, image, reason uint32 // indexes in b.texts
	starts              tally
	backOffs            tally
	pullBackOffs        tally
	kind                containerKind
	state               containerRun
	hasExit             bool
	ready               bool
	needsID             bool
	plegStarted         bool
}

// containerKind is a container's type (ContainerInit, …) in a byte.
type containerKind uint8

const (
	kindRegular containerKind = iota
	kindInit
	kindEphemeral
)

var kindNames = [...]string{kindRegular: ContainerRegular, kindInit: ContainerInit, kindEphemeral: ContainerEphemeral}

// kindOf is the kind of a container type; "" is regular.
func kindOf(typ string) containerKind {
	switch typ {
	case ContainerInit:
		return kindInit
	case ContainerEphemeral:
		return kindEphemeral
	}
	return kindRegular
}

// typ is the container's type.
func (c *containerState) typ() string { return kindNames[c.kind] }

// containerRun is a container's state as last seen (Container.State) in a
// byte.
type containerRun uint8

const (
	runUnknown containerRun = iota
	runWaiting
	runRunning
	runTerminated
	runTerminating
)

var runNames = [...]string{runUnknown: "", runWaiting: "waiting", runRunning: "running", runTerminated: "terminated", runTerminating: "terminating"}

func (r containerRun) String() string { return runNames[r] }

// exit is the container's last exit code, nil when none was seen.
func (c *containerState) exit() *int {
	if !c.hasExit {
		return nil
	}
	code := c.exitCode
	return &code
}

type span struct{ from, to instant }

// Builder consumes records one at a time (streaming) and keeps state
// proportional to pods, not lines.
type Builder struct {
	opts          Options
	p             *Pipeline
	m             *matcher
	nodes         map[string]*nodeState
	nodeOrder     []string
	flows         []*flowState
	unattributed  []Evidence
	unattrCount   int
	inputs        map[string]bool
	inputOrder    []string
	inputNodes    map[string]map[*nodeState]bool
	records       int64
	budgets       map[string]time.Duration
	capped        bool
	dropped       int64
	snapshot      bool              // judging for Snapshot: copy what the builder still changes
	words         map[string]uint32 // interned strings, by index in texts
	texts         []string          // interned strings, and texts of evidence and events
	stampBase     instant           // stamps' (compact.go)
	wideTimes     []instant
	widePos       []widePos
	freeTexts     []int // entries of texts and widePos to reuse
	freePos       []int
	wideSweep     int               // the size of wideTimes that calls for a sweep
	wideFloor     int               // and the least (a sweep walks every flow)
	fileKeys      map[string]string // input → node key of a host-less input
	zones         []*time.Location  // instants' zones (instant.go)
	lastZone      int32
	lastKey       recordKey // the last record's, and its node
	lastNode      *nodeState
	text          []byte   // evidenceText's buffer
	evInputs      []string // inputs named by stage evidence and events
	evInputIdx    map[string]int32
	lastInput     int32
	patch         patchDecoder // reused: its slices outlive one patch
	flowCache     flowCache
	ranMemo       textMemo[ranStatus]                    // initAction's
	errMemo       textMemo[syncErrorRead]                // syncError's
	stageFacts    *[podSlots + containerSlots]stageFacts // stageDef's, made on first use
	judging       judgeScratch                           // judge's working memory when judging on this goroutine
	lastStampTime time.Time                              // stampAt's last time, while lastStamp is not 0
	lastStamp     stamp
	eventRec      eventRecord // the event being read (event)
	eventMemo     *[eventMemoSize]eventWords
	eventMRU      [eventMemoSize / 2]uint8 // the way of each set of eventMemo used last
	eventSeed     maphash.Seed
	evKey         []byte                // eventKey's buffer
	eventScratch  eventWords            // the reference's, read anew for each event
	wordCache     [wordCacheSize]uint32 // wordOf's: indexes of interned texts by wordHash
	reference     bool                  // tests: no caches, the reference path for every record
	idBuf         []byte                // packID's
	keyBuf        []byte                // nameKey's
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
	// Text 0 is "": the zero index is the empty text.
	return &Builder{opts: opts, p: p, m: newMatcher(p), nodes: map[string]*nodeState{}, inputs: map[string]bool{}, inputNodes: map[string]map[*nodeState]bool{}, budgets: budgets, wideFloor: 1024,
		words: map[string]uint32{"": 0}, texts: []string{""}}
}

// InputSpan tells the builder the time span of all lines of an input,
// declined ones included (parser Stats.FirstTime/LastTime), so the log's
// end, and with it every wait, is measured to the last line. An empty input
// name applies to every node.
func (b *Builder) InputSpan(input string, first, last time.Time) {
	for _, n := range b.nodes {
		if input != "" && !b.inputNodes[input][n] {
			continue
		}
		if !first.IsZero() && (n.start.IsZero() || first.Before(n.start)) {
			n.start = first
		}
		if last.After(n.end) {
			n.end = last
		}
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
	case first == 'M' && strings.HasPrefix(msg, "MountVolume.SetUp failed"), first == 'O' && strings.HasPrefix(msg, "Operation for ") && strings.Contains(msg, "MountVolume.SetUp failed"):
		b.volumeFailureText(n, rec)
		return
	}
	markers := b.m.lookup(msg)
	if len(markers) == 0 {
		return
	}
	for _, mk := range markers {
		if mk.V > n.maxV && rec.Format != parser.FormatJSON {
			n.maxV = mk.V
		}
		b.apply(n, rec, mk)
	}
}

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
		if f := b.flowFor(n, rec, false); f != nil {
			b.statusPatch(f, rec)
		}
		return
	case SpecialStartup:
		if f := b.flowFor(n, rec, false); f != nil {
			b.startup(f, rec)
		}
		return
	case SpecialFinished:
		b.finished(n, rec)
		return
	case SpecialSyncError:
		b.syncError(n, rec, mk)
		return
	case SpecialInitAction:
		if f := b.flowFor(n, rec, false); f != nil {
			b.initAction(f, rec)
		}
		return
	}
	f := b.flowFor(n, rec, true)
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	if mk.Stage == StReady && rec.Msg == "SyncLoop (probe)" {
		if rec.Str("probe") != "readiness" || rec.Str("status") != "ready" {
			return
		}
	}
	if mk.Container {
		name, typ := "", ""
		if v, ok := rec.Field("container"); ok {
			name = containerName(v)
		}
		if name == "" {
			name = rec.Str("containerName")
		}
		typ = containerTypeFrom(rec.Str("containerType"))
		if name == "" {
			b.unattributedLine(rec)
			return
		}
		c := b.container(f, name, typ)
		b.containerEffect(f, c, mk.Stage, mk.Effect, rec, "")
		return
	}
	if mk.Stage == StTerminating && mk.Effect == Complete && strings.HasPrefix(rec.Msg, "Killing container") {
		b.killingContainer(f, rec)
	}
	if mk.Stage == StSandbox {
		// Sandbox IDs, of failed attempts too, let PLEG and runtime lines
		// that name only the ID find the pod.
		if id := rec.Str("podSandboxID"); id != "" {
			f.addSandbox(n, b.packID(id))
		} else if id := sandboxIDInError(rec.Err); id != "" {
			f.addSandbox(n, b.packID(id))
		}
	}
	b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
}

// sandboxIDInError finds the ID in the runtime's `… for sandbox "<id>": …`.
func sandboxIDInError(err string) string {
	_, rest, ok := strings.Cut(err, `sandbox "`)
	if !ok {
		return ""
	}
	id, _, ok := strings.Cut(rest, `"`)
	if !ok || len(id) < 12 || strings.ContainsAny(id, " /") {
		return ""
	}
	return id
}

// addSandbox keeps the sandbox ID p (packID).
func (f *flowState) addSandbox(n *nodeState, p []byte) {
	if f.isSandbox(p) || len(f.sandboxes) >= maxSandboxes {
		return
	}
	id := rid(p)
	f.sandboxes = append(f.sandboxes, id)
	n.byID[id] = f
}

// maxSandboxes bounds the IDs kept for a pod whose sandbox fails for days;
// maxIDs the container IDs of one container (one per restart).
const (
	maxSandboxes = 64
	maxIDs       = 64
)

// --- identity ---------------------------------------------------------------

func (b *Builder) container(f *flowState, name, typ string) *containerState {
	return b.containerNamed(f, name, typ, 0, false)
}

// containerNamed is container for a name whose interned index, when
// interned, is k: containers are told by index, not by reading their names
// all over the heap (an interned text has one index: isText).
func (b *Builder) containerNamed(f *flowState, name, typ string, k uint32, interned bool) *containerState {
	var c *containerState
	for _, x := range f.containers {
		if b.isText(x.name, name, k, interned) {
			c = x
			break
		}
	}
	if c == nil {
		c = &containerState{name: b.nameID(name), kind: kindOf(typ)}
		f.containers = append(f.containers, c)
	} else if typ != "" && typ != ContainerRegular && c.kind == kindRegular {
		c.kind = kindOf(typ)
	}
	return c
}

// --- stage effects ------------------------------------------------------------

func (b *Builder) containerEffect(f *flowState, c *containerState, id string, eff Effect, rec *parser.Record, reason string) {
	b.touch(f, rec)
	s := c.stages.get(id)
	if s == nil {
		s = &stageState{}
		c.stages.put(id, s)
	}
	if id == CStStarted && eff == Complete {
		c.starts.inc()
		c.needsID = true
		c.attemptAt = b.stampAt(rec.Time)
		c.state = runRunning
		if c.starts > 1 && c.restartCount < int(c.starts)-1 {
			c.restartCount = int(c.starts) - 1
		}
	}
	if id == CStCreated && eff == Begin && c.stages.get(CStStarted) != nil && !c.stages.get(CStStarted).complete.IsZero() {
		// A new attempt after a crash: the first attempt's timing stays.
		return
	}
	if c.kind == kindInit && id == CStStarted && (eff == Retry || eff == Fail) && s.complete.IsZero() == false {
		// An init container that ran and is backing off failed to complete.
		id = CStCompleted
		s = c.stages.get(id)
		if s == nil {
			s = &stageState{}
			c.stages.put(id, s)
		}
	}
	if eff == Retry && (id == CStStarted || id == CStCompleted) {
		c.backOffs.inc()
		b.setText(&c.reason, "CrashLoopBackOff")
		c.state = runWaiting
	}
	if eff == Retry && id == CStImage {
		c.pullBackOffs.inc()
		b.setText(&c.reason, "ImagePullBackOff")
		c.state = runWaiting
	}
	b.applyEffect(s, eff, rec, reason)
}

// --- special lines ------------------------------------------------------------

// plegEvent reads event={ID,Type,Data} in its JSON, %+v and %#v renderings.
func plegEvent(rec *parser.Record) (uid, typ, data string) {
	v, ok := rec.Field("event")
	if ok && v.Kind == parser.KindObject {
		if v.Obj == nil {
			if uid, typ, data, ok := plegPlain(v.Str); ok {
				return uid, typ, data
			}
		}
		id, _ := v.Get("ID")
		t, _ := v.Get("Type")
		d, _ := v.Get("Data")
		return id.String(), t.String(), d.String()
	}
	s := v.Str
	if !ok {
		s = rec.Msg
	}
	get := func(key string) string {
		i := strings.Index(s, key+":")
		if i < 0 {
			return ""
		}
		rest := strings.TrimLeft(s[i+len(key)+1:], "\"")
		j := strings.IndexAny(rest, "\" ,}")
		if j < 0 {
			return rest
		}
		return rest[:j]
	}
	return get("ID"), get("Type"), get("Data")
}

// plegPlain reads an event object kept as its text (Value.Obj nil) in the
// one form the kubelet writes, {"ID":"…","Type":"…","Data":"…"} with plain
// ASCII strings, in one pass: what Get would return for each key, three
// walks of the text. ok is false for any other text.
func plegPlain(s string) (uid, typ, data string, ok bool) {
	var v [3]string
	if rest, ok := plainMembers(s, plegKeys[:], v[:]); !ok || rest != "}" {
		return "", "", "", false
	}
	return v[0], v[1], v[2], true
}

var plegKeys = [...]string{`{"ID":"`, `,"Type":"`, `,"Data":"`}

// plainMembers reads the first members of an object's text when they are
// the keys given, in order, written as keys holds them (the first with
// the '{', each up to its value's opening quote), with plain string
// values (cutPlainString), into vals; rest is the text after them.
func plainMembers(s string, keys, vals []string) (rest string, ok bool) {
	rest = s
	for i, k := range keys {
		if rest, ok = strings.CutPrefix(rest, k); !ok {
			return "", false
		}
		if vals[i], rest, ok = cutPlainString(rest); !ok {
			return "", false
		}
	}
	return rest, true
}

// cutPlainString cuts s at the quote that ends a JSON string body of
// printable ASCII without escapes: the body is then the string itself.
func cutPlainString(s string) (body, rest string, ok bool) {
	i := 0
	// Eight bytes at a time to the first byte strPlain rejects (special8).
	for i+8 <= len(s) {
		if m := special8(load8(s, i)); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			break
		}
		i += 8
	}
	for i < len(s) && strPlain[s[i]] {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return s[:i], s[i+1:], true
	}
	return "", "", false
}

func (b *Builder) pleg(n *nodeState, rec *parser.Record) {
	uid, typ, data := plegEvent(rec)
	if !looksLikeUID(uid) {
		uid = ""
	}
	f := b.plegFlow(n, rec, uid)
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	b.touch(f, rec)
	id := b.packID(stripRuntime(data))
	switch typ {
	case "ContainerStarted":
		if f.isSandbox(id) {
			b.stageEffect(f, StSandbox, Complete, rec, "")
			return
		}
		sb := f.stages.get(StSandbox)
		anyContainer := false
		for _, c := range f.containers {
			if c.starts > 0 || c.stages.get(CStCreated) != nil && !c.stages.get(CStCreated).complete.IsZero() {
				anyContainer = true
			}
		}
		if !anyContainer && (sb == nil || sb.complete.IsZero() || len(f.sandboxes) == 0) {
			f.addSandbox(n, id)
			b.stageEffect(f, StSandbox, Complete, rec, "")
			return
		}
		c := f.containerByID(id)
		if c == nil {
			c = b.claimID(f, id)
		}
		if c == nil {
			return
		}
		// The ID as the container keeps it (nearly always: it was found
		// or claimed by it): one copy for both, and none made here.
		var key rid
		kept := false
		for _, cid := range c.ids {
			if cid == rid(id) {
				key, kept = cid, true
			}
		}
		if !kept {
			key = rid(id)
		}
		if n.byID[key] != f {
			// Set only when new: a container is seen started again and again.
			n.byID[key] = f
		}
		c.plegStarted = true
		if c.plegAt.IsZero() {
			c.plegAt = b.stampAt(rec.Time)
		}
		if c.state != runTerminated {
			c.state = runRunning
		}
		b.containerEffect(f, c, CStStarted, Observe, rec, "")
	case "ContainerDied":
		if f.isSandbox(id) {
			return
		}
		c := f.containerByID(id)
		if c == nil {
			c = b.claimID(f, id)
		}
		if c == nil {
			return
		}
		c.state = runTerminated
		c.died = b.stampAt(rec.Time)
		if c.kind == kindInit && c.hasExit && c.exitCode == 0 {
			b.containerEffect(f, c, CStCompleted, Complete, rec, "")
		} else if c.kind == kindInit && !c.hasExit {
			b.containerEffect(f, c, CStCompleted, Observe, rec, "")
		}
	}
}

// plegFlow is the flow of a PLEG event for pod UID uid (resolve's).
func (b *Builder) plegFlow(n *nodeState, rec *parser.Record, uid string) *flowState {
	pod, _, _ := podFields(rec)
	// A structured record's reference is its pod field's: with the UID, the key.
	uidVal := parser.Value{Kind: parser.KindString, Str: uid}
	vals := [flowKeyFields]*parser.Value{pod, &uidVal}
	cached := !b.reference && rec.Structured() && cacheable(pod)
	var slot *flowCacheEntry
	if cached {
		var f *flowState
		if slot, f = b.flowCache.get(n, keyPLEG, &vals); f != nil {
			return f
		}
	}
	ref, hasRef := refOf(rec, pod)
	f := b.resolve(n, ref, hasRef, uid, false)
	if cached {
		b.remember(slot, n, keyPLEG, &vals, f, ref, hasRef, uid)
	}
	return f
}

// isSandbox reports whether p (packID) is one of f's sandboxes.
func (f *flowState) isSandbox(p []byte) bool {
	for _, s := range f.sandboxes {
		if s == rid(p) {
			return true
		}
	}
	return false
}

// containerByID is the container whose ID is p (packID).
func (f *flowState) containerByID(p []byte) *containerState {
	for _, c := range f.containers {
		for _, cid := range c.ids {
			if cid == rid(p) {
				return c
			}
		}
	}
	return nil
}

// claimID gives a runtime container ID the kubelet only named in a PLEG
// event to the container that started earliest without one.
func (b *Builder) claimID(f *flowState, p []byte) *containerState {
	var best *containerState
	for _, c := range f.containers {
		if c.needsID && (best == nil || b.before(c.attemptAt, best.attemptAt)) {
			best = c
		}
	}
	if best != nil {
		if len(best.ids) < maxIDs {
			best.ids = append(best.ids, rid(p))
		}
		best.needsID = false
	}
	return best
}

// bindID gives c the container ID p (packID).
func (f *flowState) bindID(c *containerState, p []byte) {
	if len(p) == 0 {
		return
	}
	for _, cid := range c.ids {
		if cid == rid(p) {
			return
		}
	}
	// Free the ID if a guess gave it to another container.
	for _, o := range f.containers {
		for i, cid := range o.ids {
			if cid == rid(p) {
				o.ids = append(o.ids[:i], o.ids[i+1:]...)
				o.needsID = true
				break
			}
		}
	}
	if len(c.ids) >= maxIDs {
		return
	}
	id := rid(p)
	c.ids = append(c.ids, id)
	c.needsID = false
	f.node.byID[id] = f
}

func (b *Builder) finished(n *nodeState, rec *parser.Record) {
	uid := recordUID(rec)
	id := b.packID(stripRuntime(rec.Str("containerID")))
	f := n.byUID[uid]
	if f == nil {
		f = n.byID[rid(id)]
	}
	if f == nil {
		return
	}
	c := f.containerByID(id)
	if c == nil {
		c = b.claimID(f, id)
	}
	if c == nil {
		return
	}
	if v, ok := rec.Field("exitCode"); ok && v.Kind == parser.KindNumber {
		c.exitCode, c.hasExit = int(v.Num), true
	}
}

// eventRecord is the event record being read, with its reason and message
// and what its words give.
type eventRecord struct {
	rec             *parser.Record
	reason, message string
	words           *eventWords
}

// eventFields are the fields of an "Event occurred" record, the first of
// each as Record.Str finds it, read in one pass.
type eventFields struct {
	object                                *parser.Value
	kind, reason, message, typ, fieldPath string
}

func readEvent(rec *parser.Record) eventFields {
	var e eventFields
	var seen [5]bool
	for i := range rec.Fields {
		f := &rec.Fields[i]
		k := -1
		var dst *string
		switch f.Key {
		case "object":
			if e.object == nil {
				e.object = &f.Value
			}
			continue
		case "kind":
			k, dst = 0, &e.kind
		case "reason":
			k, dst = 1, &e.reason
		case "message":
			k, dst = 2, &e.message
		case "type":
			k, dst = 3, &e.typ
		case "fieldPath":
			k, dst = 4, &e.fieldPath
		default:
			continue
		}
		if !seen[k] {
			seen[k] = true
			*dst = valueText(&f.Value)
		}
	}
	return e
}

func (b *Builder) event(n *nodeState, rec *parser.Record) {
	e := readEvent(rec)
	// The event's evidence text is made of its reason and message: read
	// here already (the first field of each name, as Record.Str reads).
	b.eventRec = eventRecord{rec: rec, reason: e.reason, message: e.message}
	defer func() { b.eventRec = eventRecord{} }()
	if e.kind != "" && e.kind != "Pod" || e.object == nil {
		return
	}
	f, ok := b.eventFlow(n, e.object)
	if !ok {
		return
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	w := b.eventWordsOf(&e)
	b.eventRec.words = w
	reason, message := e.reason, e.message
	b.addEvent(f, rec, w, e.typ, reason, message, e.fieldPath)
	cname, ctyp, isC := w.cname.of(w.key), w.ctyp, w.isC
	var kc uint32
	var cok bool
	if isC {
		kc, cok = b.wordIn(&w.kc, cname)
	}
	if isC && (reason == "Pulling" || reason == "Pulled") {
		c := b.containerNamed(f, cname, ctyp, kc, cok)
		c.notePull(reason, w.alreadyPresent, b.stampAt(rec.Time))
		if img := w.image.of(w.key); img != "" {
			n.notePulling(f, img, !c.pullOpen.IsZero())
		}
	}
	for _, mk := range w.markers {
		if mk.Container {
			if !isC {
				continue
			}
			c := b.containerNamed(f, cname, ctyp, kc, cok)
			if mk.Stage == CStImage && c.image == 0 {
				b.setText(&c.image, w.image.of(w.key)) // Pulling image "x"
			}
			b.containerEffect(f, c, mk.Stage, mk.Effect, rec, message)
			if reason == "Created" && c.stages.get(CStCreated) != nil {
				b.applyEffect(c.stages.get(CStCreated), Complete, rec, "")
			}
			continue
		}
		b.stageEffect(f, mk.Stage, mk.Effect, rec, message)
	}
}

// eventWords is what an event's words (type, reason, message, field path)
// give, whatever its pod: the kubelet logs the same few dozen events, word
// for word, for every pod. A memo (eventMemo) keeps what was read of the
// last few hundred distinct ones, each entry compact and its words in one
// string: the memo is read at every event.
type eventWords struct {
	// key is the words one after another (eventKey): the type, reason
	// and message of lengths lt, lr and lm, then the field path.
	key        string
	lt, lr, lm uint32
	// The indexes of the words in b.texts, once interned; 0 until then.
	// An interned text keeps its index for good (isText).
	kt, kr, km, kfp, kc uint32 // kc: the container's name
	// evText is the interned index of the event's evidence text (Event
	// <reason>: <message>, cut: composeEvidenceText for a record without an
	// error); 0 until interned.
	evText  uint32
	markers []*Marker // the matcher's, a copy; never nil in a full entry
	// The container the field path names (when isC) and the message's
	// first quoted text, as spans of key.
	cname, image   span32
	ctyp           string
	isC            bool
	alreadyPresent bool // a Pulled event that pulled nothing
}

// span32 is s[from:to] of a string s kept beside it.
type span32 struct{ from, to uint32 }

func (p span32) of(s string) string { return s[p.from:p.to] }

func (w *eventWords) message() string {
	return w.key[w.lt+w.lr : w.lt+w.lr+w.lm]
}

const (
	eventMemoSize = 1024
	maxEventKey   = 4 << 10 // longer words are read each time, not kept
)

// eventKey writes e's words one after another into b.evKey.
func (b *Builder) eventKey(e *eventFields) []byte {
	k := append(append(append(append(b.evKey[:0], e.typ...), e.reason...), e.message...), e.fieldPath...)
	if cap(k) <= maxEventKey {
		b.evKey = k
	}
	return k
}

// eventWordsOf returns what e's words give: from the memo when they were
// read before, else read now (and kept, unless b is the reference).
func (b *Builder) eventWordsOf(e *eventFields) *eventWords {
	k := b.eventKey(e)
	w := &b.eventScratch
	if !b.reference && len(k) <= maxEventKey {
		if b.eventMemo == nil {
			b.eventMemo = new([eventMemoSize]eventWords)
			b.eventSeed = maphash.MakeSeed()
		}
		// Two ways a set: the one not used last gives way to a new text.
		set := maphash.Bytes(b.eventSeed, k) & (eventMemoSize/2 - 1)
		mru := &b.eventMRU[set]
		for way := range uint8(2) {
			w = &b.eventMemo[2*set+uint64(way)]
			if w.key == string(k) && w.lt == uint32(len(e.typ)) && w.lr == uint32(len(e.reason)) && w.lm == uint32(len(e.message)) && w.markers != nil {
				*mru = way
				return w
			}
		}
		*mru ^= 1
		w = &b.eventMemo[2*set+uint64(*mru)]
	}
	*w = eventWords{key: string(k), lt: uint32(len(e.typ)), lr: uint32(len(e.reason)), lm: uint32(len(e.message))}
	w.markers = append(make([]*Marker, 0, 1), b.m.event(e.reason, e.message)...)
	at := w.lt + w.lr + w.lm // the field path's start
	if name, typ, ok := containerFromFieldPath(w.key[at:]); ok {
		// The name ends before the closing brace, the key's last byte.
		end := uint32(len(w.key) - 1)
		w.cname, w.ctyp, w.isC = span32{end - uint32(len(name)), end}, typ, true
	}
	msg := w.message()
	if from, to, ok := firstQuotedAt(msg); ok {
		at := w.lt + w.lr // the message's start
		w.image = span32{at + uint32(from), at + uint32(to)}
	}
	w.alreadyPresent = strings.Contains(msg, "already present")
	return w
}

// eventFlow is the flow of an event's involved object (resolve's), ok
// false when the object names no pod.
func (b *Builder) eventFlow(n *nodeState, object *parser.Value) (*flowState, bool) {
	vals := [flowKeyFields]*parser.Value{object}
	cached := !b.reference && cacheable(object)
	var slot *flowCacheEntry
	if cached {
		var f *flowState
		if slot, f = b.flowCache.get(n, keyEvent, &vals); f != nil {
			return f, true
		}
	}
	ref, ok := refFromValue(*object)
	if !ok {
		return nil, false
	}
	f := b.resolve(n, ref, true, "", false)
	if cached {
		b.remember(slot, n, keyEvent, &vals, f, ref, true, "")
	}
	return f, true
}

// event is an Event as the builder keeps it, in 48 bytes of Event's 200
// (compact.go): its evidence is the line's position, at the event's own
// time; the text where keeps is the message.
type event struct {
	where
	typ, reason, fieldPath uint32 // indexes in b.texts
	count                  tally
	at, last               stamp
}

func (b *Builder) addEvent(f *flowState, rec *parser.Record, w *eventWords, typ, reason, message, fieldPath string) {
	// Reasons, types and most messages are interned: their indexes, known
	// from the event's words, tell an event from the pod's others without
	// reading texts all over the heap.
	kr, rok := b.wordIn(&w.kr, reason)
	kt, tok := b.wordIn(&w.kt, typ)
	km, mok := b.wordIn(&w.km, message)
	for i := range f.events {
		e := &f.events[i]
		if b.isText(e.reason, reason, kr, rok) && b.isText(e.typ, typ, kt, tok) && b.isText(e.text, message, km, mok) {
			e.count.inc()
			e.last = b.stampAt(rec.Time)
			return
		}
	}
	if len(f.events) >= maxEvents {
		return
	}
	if len(f.events) == cap(f.events) {
		// A pod has some five to ten events: grown by half, not doubled,
		// they waste half as much.
		f.events = append(make([]event, 0, min(max(4, cap(f.events)*3/2), maxEvents)), f.events...)
	}
	if !rok {
		kr = b.internID(reason)
	}
	if !tok {
		kt = b.internID(typ)
	}
	if !mok {
		km = b.internID(message)
	}
	kfp, ok := b.wordIn(&w.kfp, fieldPath)
	if !ok {
		kfp = b.internID(fieldPath)
	}
	f.events = append(f.events, event{where: b.where(rec, km), typ: kt, reason: kr, fieldPath: kfp,
		at: b.stampAt(rec.Time), count: 1})
}

// events returns a flow's events in their public form.
func (b *Builder) events(f *flowState) []Event {
	if len(f.events) == 0 {
		return nil
	}
	out := make([]Event, len(f.events))
	for i, e := range f.events {
		ev := b.evidence(e.where, e.at, false)
		out[i] = Event{Time: ev.Time, Type: b.texts[e.typ], Reason: b.texts[e.reason], Message: b.texts[e.text], FieldPath: b.texts[e.fieldPath], Count: int(e.count), LastTime: b.time(b.instantOf(e.last)),
			Evidence: ev}
	}
	return out
}

// statusPatch reads "Patch status for pod": container statuses map runtime
// IDs to names and give exit codes and restart counts; the Ready condition
// completes the ready stage.
func (b *Builder) statusPatch(f *flowState, rec *parser.Record) {
	b.touch(f, rec)
	d := &b.patch
	if !d.decodeField(rec, "patch") {
		return
	}
	p := &d.doc
	if u := p.uid; u != "" && u != f.ref.UID && f.static && looksLikeUID(u) {
		// A static pod's status goes to its mirror pod, under the API's UID.
		u = strings.Clone(u)
		f.mirror = u
		b.indexUID(f.node, u, f)
	}
	if p.phase != "" {
		b.setText(&f.phase, p.phase)
	}
	for i := range p.init {
		b.applyCStatus(f, &p.init[i], ContainerInit, rec)
	}
	for i := range p.ctrs {
		b.applyCStatus(f, &p.ctrs[i], ContainerRegular, rec)
	}
	for _, c := range p.conds {
		if c.typ == "Ready" && c.status == "True" {
			b.stageEffect(f, StReady, Complete, rec, "")
		}
	}
}

func (b *Builder) applyCStatus(f *flowState, cs *cstatus, typ string, rec *parser.Record) {
	if cs.name == "" {
		return
	}
	c := b.container(f, cs.name, typ)
	if cs.image != "" && c.image == 0 {
		b.setText(&c.image, cs.image)
	}
	if cs.containerID != "" {
		f.bindID(c, b.packID(stripRuntime(cs.containerID)))
	}
	if cs.hasRestartCount && cs.restartCount > c.restartCount {
		c.restartCount = cs.restartCount
	}
	if cs.hasReady {
		c.ready = cs.ready
	}
	switch {
	case cs.waiting:
		c.state = runWaiting
		if cs.waitingReason != "" {
			b.setText(&c.reason, cs.waitingReason)
		}
	case cs.running:
		c.state = runRunning
		b.setText(&c.reason, "") // the waiting reason (PodInitializing, …) is over
	case cs.terminated:
		c.state = runTerminated
		code := cs.exitCode
		c.exitCode, c.hasExit = code, true
		b.setText(&c.reason, cs.terminatedReason)
		if typ == ContainerInit && code == 0 {
			b.containerEffect(f, c, CStCompleted, Complete, rec, "")
			// PLEG saw it exit before this patch said how: it completed then.
			if s := c.stages.get(CStCompleted); !c.died.IsZero() && b.before(c.died, s.complete) && !b.before(c.died, s.begin) {
				s.complete = c.died
			} else if !c.died.IsZero() && b.before(c.died, s.complete) && b.before(c.died, s.begin) {
				s.begin, s.complete = c.died, c.died
			}
		}
	}
}

func parseKubeTime(s string) (time.Time, bool) {
	if i := strings.Index(s, " m="); i >= 0 {
		s = s[:i]
	}
	for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700 MST", "2006-01-02 15:04:05 -0700 MST", time.RFC3339Nano} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// startupState is a Startup as the builder keeps it, in 80 bytes of the
// some 220 of a Startup and what it points to: what the kubelet's startup
// line says, the rule it follows, podflow's end-to-end figure then.
type startupState struct {
	kubeletE2E, kubeletSLO, podflowE2E Duration // when has says
	created, observed                  stamp
	ev                                 evidence
	has                                startupHas
	rule                               sloRule
}

type startupHas uint8

const (
	hasKubeletE2E startupHas = 1 << iota
	hasKubeletSLO
	hasPodflowE2E
)

func (b *Builder) startup(f *flowState, rec *parser.Record) {
	b.touch(f, rec)
	st := f.startup
	if st == nil {
		st = &startupState{}
		f.startup = st
	} else {
		b.release(st.ev)
		*st = startupState{}
	}
	st.ev = b.stageEvidence(rec)
	if v, ok := rec.Field("podStartE2EDuration"); ok {
		if d, err := time.ParseDuration(v.String()); err == nil {
			st.kubeletE2E, st.has = Duration(d), st.has|hasKubeletE2E
		}
	}
	if v, ok := rec.Field("podStartSLOduration"); ok && v.Kind == parser.KindNumber {
		st.kubeletSLO, st.has = Duration(time.Duration(v.Num*float64(time.Second))), st.has|hasKubeletSLO
	}
	// podflow's own figure: from the pod's creation to the moment this line
	// shows the kubelet observed it running.
	start := b.timeOf(f.first)
	if v, ok := rec.Field("podCreationTimestamp"); ok && v.Kind == parser.KindString {
		if t, ok := parseKubeTime(v.Str); ok && t.Before(rec.Time) {
			st.created = b.stampAt(t)
			start = t
		}
	}
	obs := rec.Time
	st.observed = b.stampAt(obs)
	if !start.IsZero() {
		st.podflowE2E, st.has = Duration(obs.Sub(start)), st.has|hasPodflowE2E
	}
	st.rule = sloRuleOf(rec)
	// The pod was observed running: at V0 this is the only proof.
	b.stageEffect(f, StRunning, Observe, rec, "")
}

// publicStartup returns the flow's startup figures in their public form,
// with podflow's SLO figure, in one allocation.
func (b *Builder) publicStartup(f *flowState, v int) *Startup {
	st := f.startup
	blk := &struct {
		Startup
		ke2e, kslo, pe2e, pslo Duration
		created, obs           time.Time
		ev                     Evidence
	}{ke2e: st.kubeletE2E, kslo: st.kubeletSLO, pe2e: st.podflowE2E, obs: b.timeOf(st.observed), ev: b.evidence(st.ev.where, st.ev.at, true)}
	out := &blk.Startup
	out.ObservedRunning, out.Evidence = &blk.obs, &blk.ev
	if st.has&hasKubeletE2E != 0 {
		out.KubeletE2E = &blk.ke2e
	}
	if st.has&hasKubeletSLO != 0 {
		out.KubeletSLO = &blk.kslo
	}
	if st.has&hasPodflowE2E != 0 {
		out.PodflowE2E = &blk.pe2e
	}
	if !st.created.IsZero() {
		blk.created = b.timeOf(st.created)
		out.Created = &blk.created
	}
	if d, ok := b.podflowSLO(f, out, st.rule, v); ok {
		blk.pslo = d
		out.PodflowSLO = &blk.pslo
	}
	return out
}
