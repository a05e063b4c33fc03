package timeline

import (
	"math"
	"strings"

	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/parser"
)

// kuberuntime's containers (kuberuntime_container.go: pull the image,
// create, start) and what the kubelet learns of them after: PLEG's started
// and died, the exit code, restarts and back-offs. Kubelet lines name a
// container by name; PLEG and the runtime name it only by its runtime ID,
// which a status patch later binds to the name (bindID) and which, until
// then, is guessed from the order of starts (claimID).

// containerState is a container as the builder keeps it, in 192 bytes: a
// pod has two or three.
type containerState struct {
	ids          []runtimeid.Packed
	stages       containerStages
	restartCount int
	exitCode     int // when hasExit
	attemptAt    stamps.Stamp
	died         stamps.Stamp
	plegAt       stamps.Stamp
	// startedAt is its latest start (Started, PLEG's ContainerStarted) and
	// troubleAt its latest trouble but an exit (died): a failed or
	// backed-off stage, a kill, a liveness or startup probe's failure.
	// Whether a crash loop is over reads them (crashRecovered).
	startedAt, troubleAt stamps.Stamp
	// pulls are the image pulls the events show (Pulling → Pulled), for the
	// SLO figure that leaves pulls out; pullOpen is a Pulling not yet done.
	pulls    []stampSpan
	pullOpen stamps.Stamp
	// present are the "already present" image checks after a pull (the
	// 1.35 tracker's pull span ends at the last of them: slo.go).
	present []stamps.Stamp
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
	// sidecar: an init container with restartPolicy Always (a restartable
	// init container, 1.28+): it starts and keeps running beside the
	// pod's containers, never completes, and holds none back once started.
	sidecar bool
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

// containerLine applies a container marker (Marker.Container) to the
// container the line names.
func (b *Builder) containerLine(f *flowState, rec *parser.Record, mk *Marker) {
	name, typ := "", ""
	if v, ok := rec.Field("container"); ok {
		name = containerName(v)
	}
	if name == "" {
		name = rec.Str("containerName")
	}
	typ = containerTypeFrom(rec.Str("containerType"))
	if name == "" && !rec.Structured() {
		name = legacyContainer(rec.Msg)
	}
	if name == "" {
		b.unattributedLine(rec)
		return
	}
	c := b.container(f, name, typ)
	if c.kind == kindInit && !c.sidecar {
		if v, ok := rec.Field("container"); ok && restartable(v.Str) {
			c.sidecar = true // "Creating container in pod" with its spec (≤1.35)
		}
	}
	b.containerEffect(f, c, mk.Stage, mk.Effect, rec, "")
}

// restartable reports whether a container's spec dump, &Container{…} as
// the kubelet prints a *v1.Container (%+v, its generated String), is of a
// restartable init container: RestartPolicy:*Always (k8s.io/api core/v1
// types.go ContainerRestartPolicyAlways; nil for any other container).
func restartable(spec string) bool {
	return strings.HasPrefix(spec, "&Container{") && strings.Contains(spec, ",RestartPolicy:*Always,")
}

// sidecarLine reads the runtime manager's lines of a restartable init
// container (SpecialSidecar): "Failed to start the restartable init
// container for the pod, skipping" names one (SyncPod goes on to the next
// container, kuberuntime_manager.go), and "Init container has been
// initialized" is logged of an init container that runs (a sidecar: the
// running branch of computeInitContainerActions, kuberuntime_container.go)
// or that exited 0 (any init container, which has completed).
func (b *Builder) sidecarLine(n *nodeState, rec *parser.Record, mk *Marker) {
	f := b.flowFor(n, rec, true)
	name := rec.Str("initContainerName")
	if name == "" {
		name = rec.Str("container")
	}
	if f == nil || name == "" {
		b.unattributedLine(rec)
		return
	}
	c := b.container(f, name, ContainerInit)
	if rec.Msg != "Init container has been initialized" || c.state == runRunning && !c.hasExit {
		c.sidecar = true
	}
	b.containerEffect(f, c, mk.Stage, mk.Effect, rec, "")
}

// resizeCheck reads the runtime manager's "Missing actuated resource
// record" (SpecialResize): computing a pod's actions, it checks each
// running container for an in-place resize (computePodResizeAction) and
// finds no record of the resources it actuated for this one. The kubelet
// goes on as if none were; the container runs.
func (b *Builder) resizeCheck(n *nodeState, rec *parser.Record, mk *Marker) {
	f := b.flowFor(n, rec, true)
	name := rec.Str("container")
	if f == nil || name == "" {
		b.unattributedLine(rec)
		return
	}
	c := b.container(f, name, "")
	if c.state == runUnknown || c.state == runWaiting {
		c.state = runRunning
	}
	b.containerEffect(f, c, mk.Stage, mk.Effect, rec, "")
}

func (b *Builder) container(f *flowState, name, typ string) *containerState {
	return b.containerNamed(f, name, typ, 0, false)
}

// containerNamed is container for a name whose interned index, when
// interned, is k: containers are told by index, not by reading their names
// all over the heap (an interned text has one index: words.Table.Is).
func (b *Builder) containerNamed(f *flowState, name, typ string, k uint32, interned bool) *containerState {
	var c *containerState
	for _, x := range f.containers {
		if b.texts.Is(x.name, name, k, interned) {
			c = x
			break
		}
	}
	if c == nil {
		c = &containerState{name: b.texts.NameID(name), kind: kindOf(typ)}
		f.containers = append(f.containers, c)
	} else if typ != "" && typ != ContainerRegular && c.kind == kindRegular {
		c.kind = kindOf(typ)
	}
	return c
}

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
		c.attemptAt = b.stamps.At(rec.Time)
		c.startedAt = b.stamps.Later(c.attemptAt, c.startedAt)
		c.state = runRunning
		if c.starts > 1 && c.restartCount < int(c.starts)-1 {
			c.restartCount = int(c.starts) - 1
		}
	}
	if id == CStCreated && eff == Begin && c.stages.get(CStStarted) != nil && !c.stages.get(CStStarted).complete.IsZero() {
		// A new attempt after a crash: the first attempt's timing stays.
		return
	}
	if c.kind == kindInit && !c.sidecar && id == CStStarted && (eff == Retry || eff == Fail) && s.complete.IsZero() == false {
		// An init container that ran and is backing off failed to complete.
		id = CStCompleted
		s = c.stages.get(id)
		if s == nil {
			s = &stageState{}
			c.stages.put(id, s)
		}
	}
	counted := b.applyEffect(s, eff, rec, reason)
	if eff == Fail || eff == Retry {
		c.troubleAt = b.stamps.Later(b.stamps.At(rec.Time), c.troubleAt)
	}
	if eff == Retry && (id == CStStarted || id == CStCompleted) {
		if counted {
			c.backOffs.inc()
		}
		b.texts.Set(&c.reason, "CrashLoopBackOff")
		c.state = runWaiting
	}
	if eff == Retry && id == CStImage {
		if counted {
			c.pullBackOffs.inc()
		}
		b.texts.Set(&c.reason, "ImagePullBackOff")
		c.state = runWaiting
	}
	if rec.Format == parser.FormatEventTable {
		b.tableCounts(c, id, s, eff, counted)
	}
}

// tableCounts counts the events an events table's row stands for: its
// "(x3 over 52m)", a COUNT column, is the kubelet's reports of that event
// up to the row's time, which the log's own lines of the same event (the
// same reason and message) are among. The row's event's new reports
// (addEvent's fresh) are the starts, failed attempts or back-offs it
// adds to container c's stage s, where applying it counted one, or none
// (counted).
func (b *Builder) tableCounts(c *containerState, id string, s *stageState, eff Effect, counted bool) {
	fresh := b.eventRec.fresh
	switch eff {
	case Complete:
		if id == CStStarted {
			c.starts.add(fresh - 1) // containerEffect counted the row as one
			c.restartCount = max(c.restartCount, int(c.starts)-1)
		}
		return
	case Fail, Retry:
	default:
		return
	}
	more := fresh
	if counted {
		more--
	}
	tr := s.trouble
	if more == 0 || tr == nil {
		return
	}
	if eff == Fail {
		tr.attempts.add(more)
		return
	}
	tr.retries.add(more)
	switch id {
	case CStStarted, CStCompleted:
		c.backOffs.add(more)
	case CStImage:
		c.pullBackOffs.add(more)
	}
}

// tableCount is the count an events table's row gives its event (its
// count field, parser/eventtable.go: "(x3 over 52m)", a COUNT column),
// ok false for a row without one and any other record.
func tableCount(rec *parser.Record) (n tally, ok bool) {
	if rec.Format != parser.FormatEventTable {
		return 1, false
	}
	if v, ok := rec.Field("count"); ok && v.Kind == parser.KindNumber && v.Num >= 1 {
		return tally(min(v.Num, math.MaxInt32)), true
	}
	return 1, false
}

// containerByID is the container whose ID is p (b.idPack.Pack).
func (f *flowState) containerByID(p []byte) *containerState {
	for _, c := range f.containers {
		for _, cid := range c.ids {
			if cid == runtimeid.Packed(p) {
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
		if c.needsID && (best == nil || b.stamps.Before(c.attemptAt, best.attemptAt)) {
			best = c
		}
	}
	if best != nil {
		if len(best.ids) < maxIDs {
			best.ids = append(best.ids, runtimeid.Packed(p))
		}
		best.needsID = false
		// One ID an attempt: a second is a restart (a probe's kill, a crash).
		best.restartCount = max(best.restartCount, len(best.ids)-1)
	}
	return best
}

// maxIDs bounds the container IDs kept for one container (one per restart).
const maxIDs = 64

// bindID gives c the container ID p (b.idPack.Pack).
func (f *flowState) bindID(c *containerState, p []byte) {
	if len(p) == 0 {
		return
	}
	for _, cid := range c.ids {
		if cid == runtimeid.Packed(p) {
			return
		}
	}
	// Free the ID if a guess gave it to another container.
	for _, o := range f.containers {
		for i, cid := range o.ids {
			if cid == runtimeid.Packed(p) {
				o.ids = append(o.ids[:i], o.ids[i+1:]...)
				o.needsID = true
				break
			}
		}
	}
	if len(c.ids) >= maxIDs {
		return
	}
	id := runtimeid.Packed(p)
	c.ids = append(c.ids, id)
	c.needsID = false
	f.node.byID[id] = f
}

func (b *Builder) finished(n *nodeState, rec *parser.Record) {
	uid := recordUID(rec)
	id := b.idPack.Pack(stripRuntime(rec.Str("containerID")))
	f := n.byUID[uid]
	if f == nil {
		f = n.byID[runtimeid.Packed(id)]
	}
	if f == nil {
		return
	}
	v, hasCode := rec.Field("exitCode")
	hasCode = hasCode && v.Kind == parser.KindNumber
	if hasCode {
		// Kept for the pod even when the line's container is not known
		// (a slice that begins at the pod's end): ranToCompletion.
		if v.Num == 0 {
			f.exits |= exitedZero
		} else {
			f.exits |= exitedNonZero
		}
	}
	c := f.containerByID(id)
	if c == nil {
		c = b.claimID(f, id)
	}
	if c == nil {
		return
	}
	if hasCode {
		c.exitCode, c.hasExit = int(v.Num), true
		if c.kind == kindInit && !c.sidecar && c.exitCode != 0 {
			// An init container that exited non-zero did not complete:
			// the line that says so is its completed stage's evidence,
			// whether the kubelet restarts it or (restartPolicy Never)
			// fails the pod.
			b.containerEffect(f, c, CStCompleted, Observe, rec, "")
		}
	}
}

// exitSeen is what a pod's "container finished" lines said of its exits.
type exitSeen uint8

const (
	exitedZero    exitSeen = 1 << iota // a container exited 0
	exitedNonZero                      // a container exited with another code
)

// startFailed reads the runtime manager's report of a container it could
// not start (kuberuntime_manager.go SyncPod, its start closure): at V3
// "Container start failed in pod" for ImagePullBackOff, else through
// utilruntime.HandleError, fmt.Errorf("%v %+v start failed in pod %v: %v:
// %s", typeName, container, format.Pod(pod), err, msg), as plain text
// before 1.31 and as "Unhandled Error" err=… after. The pod is named
// only inside that text; the Reason moves the stage the same Reason moves
// in "Error syncing pod", with the same words, so that the two lines of
// one sync count once.
func (b *Builder) startFailed(n *nodeState, rec *parser.Record) {
	var f *flowState
	var name, typ, image, reason, message string
	if rec.Msg == "Container start failed in pod" {
		if v, ok := rec.Field("container"); ok {
			name, image = containerName(v), specImage(v.Str)
		}
		typ, reason, message = containerTypeFrom(rec.Str("containerType")), rec.Err, rec.Str("containerMessage")
		f = b.flowFor(n, rec, true)
	} else {
		text := rec.Msg
		if text == "Unhandled Error" {
			// err is multi-line (klog's `err=<`, a TAB before each line)
			// when the spec dump holds a newline, as a Command's script
			// does: a paste may have made the TAB spaces.
			text = strings.TrimLeft(rec.Err, " \t")
		}
		head, tail, ok := strings.Cut(text, " start failed in pod ")
		if !ok {
			return // another unhandled error
		}
		for _, t := range [...]string{"init container ", "ephemeral container ", "container "} {
			if spec, ok := strings.CutPrefix(head, t); ok {
				typ, name, image = containerTypeFrom(t[:len(t)-1]), containerName(parser.Value{Kind: parser.KindString, Str: spec}), specImage(spec)
				break
			}
		}
		pod, rest, ok := strings.Cut(tail, "): ")
		if !ok {
			return
		}
		ref, ok := legacyRef(pod + ")")
		if !ok {
			return
		}
		f = b.resolve(n, ref, true, ref.UID, true)
		reason, message, _ = strings.Cut(rest, ": ")
		message = closeMultiline(message)
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	if name == "&Container{...}" {
		name = "" // cut by whoever pasted it: the pod's, but whose?
	}
	c := b.container(f, name, typ)
	if image != "" && c.image == 0 {
		b.texts.Set(&c.image, image)
		b.linkImage(f.node, f, c)
	}
	text := reason
	if message != "" {
		text = reason + ": " + message
	}
	matched := false
	for _, mk := range b.m.syncError(errWith + reason) {
		if mk.Container {
			matched = true
			b.containerEffect(f, c, mk.Stage, mk.Effect, rec, text)
		}
	}
	if !matched {
		b.containerEffect(f, c, CStStarted, Fail, rec, text)
	}
}

// closeMultiline cuts from a multi-line value's text the line that closed
// it, ` >` and the keys klog wrote after it (` > logger="UnhandledError"`),
// when the reader kept them in the value (a paste that changed the
// closing line's spaces).
func closeMultiline(s string) string {
	i := strings.LastIndexByte(s, '\n')
	if i < 0 {
		return s
	}
	if last := strings.TrimLeft(s[i+1:], " \t"); last == ">" || strings.HasPrefix(last, "> ") {
		return strings.TrimRight(s[:i], " \t\n")
	}
	return s
}

// specImage is the Image of a &Container{Name:…,Image:…,…} rendering.
func specImage(spec string) string {
	_, rest, ok := strings.Cut(spec, ",Image:")
	if !ok || !strings.HasPrefix(spec, "&Container{") {
		return ""
	}
	img, _, _ := strings.Cut(rest, ",")
	return img
}

// runtimeStartFailed reads the CRI client's own report of a failed
// StartContainer (remote_runtime.go: "StartContainer from runtime service
// failed" containerID=…, ≤1.20 `StartContainer %q from runtime service
// failed: %v`). Under the runtime manager's and the pod worker's lines of
// the same sync it names the container by its runtime ID alone, which an
// earlier line may have tied to its pod; a paste that kept only this line
// may still name the pod and the container in the error's log path (the
// symlink the runtime makes: /var/log/pods/<uid>/<container>_<n>.log
// before 1.14, /var/log/pods/<ns>_<name>_<uid>/<container>/<n>.log after).
func (b *Builder) runtimeStartFailed(n *nodeState, rec *parser.Record, mk *Marker) {
	id := rec.Str("containerID")
	if q, ok := strings.CutPrefix(rec.Msg, `StartContainer "`); ok && id == "" {
		id, _, _ = strings.Cut(q, `"`)
	}
	id = stripRuntime(id)
	var f *flowState
	var c *containerState
	if len(id) >= 12 {
		p := b.idPack.Pack(id)
		if f = n.byID[runtimeid.Packed(p)]; f != nil {
			c = f.containerByID(p)
		}
	}
	if f == nil || c == nil {
		ref, name := logPathPod(rec.Msg + " " + rec.Err)
		switch {
		case f != nil:
		case ref.Name != "":
			f = b.resolve(n, ref, true, ref.UID, true)
		case ref.UID != "":
			if f = n.byUID[ref.UID]; f == nil {
				f = b.newFlow(n, ref) // named by a later line with its UID, if any
			}
		}
		if f != nil && name != "" {
			c = b.container(f, name, "")
		}
	}
	switch {
	case f == nil:
		b.unattributedLine(rec)
	case c == nil:
		b.evidenceOnly(f, rec) // whose container, the line does not say
	default:
		if len(id) >= 12 {
			f.bindID(c, b.idPack.Pack(id))
		}
		b.containerEffect(f, c, mk.Stage, mk.Effect, rec, "")
	}
}

// logPathPod reads the pod and the container of the first container log
// path under /var/log/pods/ in s: <uid>/<container>_<n>.log (the layout
// before 1.14) or <ns>_<name>_<uid>/<container>/<n>.log.
func logPathPod(s string) (PodRef, string) {
	i := strings.Index(s, "/var/log/pods/")
	if i < 0 {
		return PodRef{}, ""
	}
	dir, rest, ok := strings.Cut(s[i+len("/var/log/pods/"):], "/")
	if !ok {
		return PodRef{}, ""
	}
	end := 0
	for end < len(rest) && (isRefByte(rest[end]) || rest[end] == '/' || rest[end] == '.') {
		end++
	}
	rest = rest[:end]
	var ref PodRef
	if looksLikeUID(dir) {
		ref.UID = dir
	} else if parts := strings.Split(dir, "_"); len(parts) == 3 && looksLikeUID(parts[2]) && validName(parts[0]) && validName(parts[1]) && parts[1] != "" {
		ref = PodRef{Namespace: parts[0], Name: parts[1], UID: parts[2]}
	} else {
		return PodRef{}, ""
	}
	name := ""
	if ctr, _, ok := strings.Cut(rest, "/"); ok {
		name = ctr
	} else if j := strings.LastIndexByte(rest, '_'); j > 0 && strings.HasSuffix(rest, ".log") {
		name = rest[:j]
	}
	if !validName(name) {
		name = ""
	}
	return ref, name
}
