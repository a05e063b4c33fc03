package timeline

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/multimatch"
	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/parser"
)

// The fallback for what no marker reads (issue #25, part 3): a kubelet
// message the reference pipeline does not know (a newer kubelet's, a
// distribution's patch, a subsystem no stage follows) may still name a
// pod, in one of the renderings the kubelet has used: the structured keys
// pod, pods, podUID, podID, podName (with podNamespace), the JSON format's
// {"name","namespace"} objects, format.Pod's name_ns(uid), the volume
// manager's pod "name" (UID: "uid"), the runtime's sandbox and container
// names k8s_<ctr>_<name>_<ns>_<uid>_<attempt>, and paths holding the pod's
// UID (/var/lib/kubelet/pods/<uid>/…, /var/log/pods/<ns>_<name>_<uid>/).
// Such a line is evidence of its pod: a pod the log names is never missing
// from the flows. An error-severity line so attached is the pod's trouble
// when nothing better explains it; one that names no pod is kept
// unattributed, so that no failure the log reports goes unshown.
//
// The parser decodes such lines although Want declines their message
// (parser.Rescue, asked from Rescue here): every error line, and the first
// line of each pod identity it meets. Which later lines of a known pod
// pass depends on how the input was cut for parallel parsing, so a line
// that is not an error adds nothing to a pod already known: the output
// is the same however the input was read.

// notAPod are messages whose pod key names something else: the file
// source's "Generated UID" names a manifest (config/common.go).
var notAPod = map[string]bool{"Generated UID": true}

// podKeys are the structured keys that name a pod, in the order looked
// for: a line with several is one pod's (pod="ns/name" podUID="…").
var podKeys = []string{"pod", "pods", "podUID", "podID", "podName"}

// podKeyNeeds: a name alone (container_manager's podName= on every sync)
// starts no pod unless its line reports a failure, which the rescue
// decodes anyway (fallback), so a podName= is an identity to the rescue
// only with its podNamespace=. On make bench's log that spares the
// parser 19,000 of the 69,000 records it rescued and the engine their
// reading.
var podKeyNeeds = map[string]string{"podName": "podNamespace"}

// Rescue is the parser's rescue rule for the fallback (parser.Options.Rescue).
func (b *Builder) Rescue() *parser.Rescue {
	return &parser.Rescue{Keys: podKeys, Text: podText, Severity: parser.SeverityError, Needs: podKeyNeeds}
}

// podText returns the pod identity a text names, nil when none: the first
// pod UID in it (every printf rendering of a pod but a lone name carries
// one: format.Pod, (UID: …), k8s_ names, /pods/ paths), or a podName=
// value beside a podNamespace=. It runs on every printf line the engine declines, so it looks
// for the UID's dashes by IndexByte and declines a line without one at
// once.
func podText(b []byte) []byte {
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '-')
		if j < 0 {
			break
		}
		i += j
		// A dashed UID's first dash is its ninth byte: 8-4-4-4-12.
		if s := i - 8; s >= 0 && s+36 <= len(b) && b[s+13] == '-' && b[s+18] == '-' && b[s+23] == '-' && uidBytes(b[s:s+36]) && (s == 0 || !isHex(b[s-1])) && (s+36 == len(b) || !isHex(b[s+36])) {
			return b[s : s+36]
		}
		i++
	}
	// podName=…: looked for at the '=' signs, which a printf text has few of.
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '=')
		if j < 0 {
			return nil
		}
		i += j
		if i >= 7 && string(b[i-7:i]) == "podName" {
			if !bytes.Contains(b, []byte("podNamespace=")) {
				return nil // (see podKeyNeeds)
			}
			return valueAt(b[i+1:])
		}
		i++
	}
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

// uidBytes is looksLikeUID for 36 bytes. It runs at every dash of every
// printf line the engine declines: one table load a byte.
func uidBytes(b []byte) bool {
	for _, c := range b {
		if !uidByte[c] {
			return false
		}
	}
	return true
}

// uidByte holds the bytes of a dashed UID: lower-case hex digits and '-'.
var uidByte = func() (t [256]bool) {
	for _, c := range []byte("0123456789abcdef-") {
		t[c] = true
	}
	return t
}()

// valueAt is the value b begins with: quoted, up to its closing quote;
// else up to a space or comma.
func valueAt(b []byte) []byte {
	if len(b) > 0 && b[0] == '"' {
		if end := bytes.IndexByte(b[1:], '"'); end >= 0 {
			return b[1 : 1+end]
		}
		return b[1:]
	}
	if end := bytes.IndexAny(b, " ,"); end >= 0 {
		return b[:end]
	}
	return b
}

// fallbackState is what the fallback keeps of a flow: the error lines it
// attached, the first of them its reason when nothing better explains it.
type fallbackState struct {
	reason   uint32 // index in b.texts
	evidence []evidence
	// sighted are the lines of a UID sighting it was joined with, and
	// sightReason its first error's text: the reason only when the pod's
	// own lines give none.
	sighted     []Evidence
	sightReason uint32
}

// maxFallbackEvidence is the lines the fallback keeps per pod.
const maxFallbackEvidence = 3

// uidSighting is a pod the fallback met by its UID alone (a podUID= key, a
// volume path): the pod it is may be named by a later line, so it becomes
// a flow of its own only at the end of the build, when no flow has its
// UID (settleUIDs).
type uidSighting struct {
	n           *nodeState
	uid         string
	first, last time.Time // (not stamps: the sweeps of wide times visit flows only)
	reason      uint32    // index in b.texts: the first error line's
	evidence    []Evidence
	at          int // index in b.sightings
}

// fallback reads a kubelet line no marker took: it attaches to the pod it
// names, starting it when new, or, reporting a failure, is kept
// unattributed.
func (b *Builder) fallback(n *nodeState, rec *parser.Record) {
	if notAPod[rec.Msg] {
		b.uncount(rec)
		return
	}
	failure := rec.Severity >= parser.SeverityError
	ref, hasRef, uid := namedPod(rec)
	var f *flowState
	created := false
	switch {
	case hasRef:
		if f = b.knownPod(n, ref, hasRef, uid); f == nil {
			if ref.Namespace == "" && uid == "" && !failure {
				// A name alone is the weakest identity (container_manager's
				// podName= of a pod named better elsewhere): it starts a
				// pod only when it reports a failure.
				b.uncount(rec)
				return
			}
			created = true
			if ref.Namespace == "" {
				f = b.resolvePartial(n, partialRef{PodRef: PodRef{Name: ref.Name}}, true)
				if f != nil && uid != "" && f.ref.UID == "" && n.byUID[uid] == nil {
					f.ref.UID = strings.Clone(uid)
					b.indexUID(n, f.ref.UID, f)
				}
			} else {
				f = b.resolve(n, ref, true, uid, true)
			}
		}
	case uid != "":
		if f = n.byUID[uid]; f == nil {
			if n.uidSeen[uid] != nil && !failure || b.lineStage(rec, true) == "" {
				// (Of the lines that report no failure, only the UID's
				// first may start its pod: which of its later ones the
				// parser rescues depends on how the input was cut.)
				if !b.sightUID(n, uid, rec, failure) {
					b.uncount(rec)
				}
				return
			}
			// A line that shows a stage of the pod (a volume set up, an
			// orphaned pod's cleanup) is a pod this log follows, named
			// by its UID until a line tells its name (resolve).
			if f = b.newFlow(n, PodRef{UID: uid}); f == nil {
				return
			}
			created = true
		}
	case failure:
		f = b.flowOfContainerID(n, rec)
	}
	if f == nil {
		if failure {
			b.looseFailure(rec)
		} else {
			b.uncount(rec)
		}
		return
	}
	if !created && !failure {
		b.uncount(rec)
		return // (see the comment at the top)
	}
	b.touch(f, rec)
	if f.fallback == nil {
		f.fallback = &fallbackState{}
	}
	b.fallbackLine(f.fallback, rec, failure)
	if stage := b.lineStage(rec, created); stage != "" {
		b.fallbackStage(f, stage, rec, failure)
	}
}

// lineStage is the stage a line the fallback reads is evidence of: the
// words of the kubelet's housekeeping of an orphaned pod, which only a
// pod on its way out has (termination.go), or, when rows is set, its
// message's row of classes.tsv; "" when neither tells one. The rows are
// asked of a line that starts its pod (what the pod is seen doing first),
// not of every error of a pod known already: a stage's evidence adds
// nothing to a pod its markers follow, and a busy log has many.
func (b *Builder) lineStage(rec *parser.Record, rows bool) string {
	if orphanedText(rec) {
		return StTerminated
	}
	if !rows {
		return ""
	}
	return lineClass(rec)
}

// fallbackStage moves the stage a fallback line is evidence of. An
// orphaned pod's housekeeping says the pod is going away
// (termination.go); a creation stage's row makes the line evidence that
// the pod reached it, which times nothing and fails nothing (one line of
// a subsystem no marker follows shows neither how long the stage took
// nor that it stalled; its error is the pod's reason when nothing better
// explains it). The rows of termination stages begin no termination:
// their subsystems also write them of a live pod (a container restarted,
// a sandbox made anew, a mirror pod replaced, old containers collected).
func (b *Builder) fallbackStage(f *flowState, stage string, rec *parser.Record, failure bool) {
	switch {
	case orphanedText(rec):
		b.terminationEvidence(f, stage, rec, failure)
	case slices.Contains(TerminationStages, stage):
	case slices.Contains(PodStages, stage):
		b.stageEffect(f, stage, Observe, rec, "")
	default: // a container stage's line that names no container
		b.stageEffect(f, StContainers, Observe, rec, "")
	}
}

// evidenceOnly attaches rec to f as the fallback's evidence: a line a
// subsystem reads (a marker's) that names the pod but moves no stage of it
// still spans it and, when the pod has no other line, proves it is there.
func (b *Builder) evidenceOnly(f *flowState, rec *parser.Record) {
	b.touch(f, rec)
	if f.fallback == nil {
		f.fallback = &fallbackState{}
	}
	b.fallbackLine(f.fallback, rec, false)
}

// fallbackLine keeps rec in fs: an error's text as its reason if it has
// none.
func (b *Builder) fallbackLine(fs *fallbackState, rec *parser.Record, failure bool) {
	if len(fs.evidence) >= maxFallbackEvidence {
		return
	}
	ev := b.stageEvidence(rec)
	fs.evidence = append(fs.evidence, ev)
	if failure && fs.reason == 0 {
		fs.reason = ev.Text
	}
}

// sightUID notes a line naming a pod by a UID no flow has (yet), and
// reports whether the line changed anything.
func (b *Builder) sightUID(n *nodeState, uid string, rec *parser.Record, failure bool) bool {
	s := n.uidSeen[uid]
	if s == nil {
		if n.uidSeen == nil {
			n.uidSeen = map[string]*uidSighting{}
		}
		s = &uidSighting{n: n, uid: strings.Clone(uid), at: len(b.sightings)}
		n.uidSeen[s.uid] = s
		b.sightings = append(b.sightings, s)
	} else if !failure {
		return false
	}
	if t := rec.Time; !t.IsZero() {
		if s.first.IsZero() || t.Before(s.first) {
			s.first = t
		}
		if t.After(s.last) {
			s.last = t
		}
	}
	if len(s.evidence) < maxFallbackEvidence {
		ev := b.evidenceOf(rec)
		s.evidence = append(s.evidence, ev)
		if failure && s.reason == 0 {
			s.reason = b.evidenceTextID(rec)
		}
	}
	return true
}

// uncount takes back the count of a record the fallback read for nothing:
// one Want declines (the parser's Rescue passed it), so that the records
// counted do not depend on how the input was cut for parallel parsing.
func (b *Builder) uncount(rec *parser.Record) {
	if !b.m.want([]byte(rec.Msg)) {
		b.records--
	}
}

// settleUIDs ends the sightings of pods known by a UID: one a flow has
// now (a later line named the pod with it) joins that flow; the others
// become flows named by their UID, which say that the log never names
// them (fallbackJudge).
func (b *Builder) settleUIDs() {
	for _, s := range b.sightings {
		if s == nil { // joined when its flow learnt the UID
			continue
		}
		if f := s.n.byUID[s.uid]; f != nil {
			b.joinSighting(s, f)
			continue
		}
		if s.reason == 0 {
			// Named by UID in routine lines alone (a manager's state
			// restored from a checkpoint, a log directory collected): a
			// pod of an earlier run, not one this log follows.
			continue
		}
		f := b.newFlow(s.n, PodRef{UID: s.uid})
		if f == nil {
			continue
		}
		if !s.first.IsZero() {
			f.first, f.last = b.stamps.At(s.first), b.stamps.At(s.last)
		}
		f.fallback = &fallbackState{reason: s.reason, sighted: s.evidence}
	}
	b.sightings = b.sightings[:0]
	for _, n := range b.nodes {
		n.uidSeen = nil
	}
}

// joinSighting gives f, the pod of s's UID, what s saw: its span, and
// its lines and first error when there was one.
func (b *Builder) joinSighting(s *uidSighting, f *flowState) {
	if !s.first.IsZero() {
		if t := b.stamps.At(s.first); f.first.IsZero() || b.stamps.Before(t, f.first) {
			f.first = t
		}
		if t := b.stamps.At(s.last); b.stamps.After(t, f.last) {
			f.last = t
		}
	}
	if s.reason != 0 {
		if f.fallback == nil {
			f.fallback = &fallbackState{}
		}
		f.fallback.sightReason = s.reason
		f.fallback.sighted = s.evidence
	}
}

// uidBound joins the sighting of a UID a flow has just learnt, if any, at
// once: most pods' first lines with a UID (a resource manager's podUID=)
// come before the pod worker's tell which pod it is, and keeping every
// such sighting to the end of the build would cost memory per pod.
func (b *Builder) uidBound(n *nodeState, uid string, f *flowState) {
	s := n.uidSeen[uid]
	if s == nil {
		return
	}
	delete(n.uidSeen, uid)
	b.sightings[s.at] = nil
	b.joinSighting(s, f)
}

// knownPod is the flow a reference or a UID names, if any, without
// starting one.
func (b *Builder) knownPod(n *nodeState, ref PodRef, hasRef bool, uid string) *flowState {
	if uid != "" {
		if f := n.byUID[uid]; f != nil {
			return f
		}
	}
	if !hasRef {
		return nil
	}
	if f := n.byName[string(b.nameKey(ref))]; f != nil {
		return f
	}
	if ref.Namespace == "" {
		// A name alone (podName=): the one known pod of that name.
		if n.byShort == nil {
			// Made on first use: most logs name every pod with its
			// namespace.
			n.byShort = make(map[string]*flowState, len(n.byName))
			for key, f := range n.byName {
				n.indexShort(key, f)
			}
		}
		if f := n.byShort[ref.Name]; f != ambiguousName {
			return f
		}
		return nil
	}
	// A pod known by its name alone is this one.
	if f := n.byName[ref.Name]; f != nil && f.ref.Namespace == "" {
		return f
	}
	return nil
}

// ambiguousName stands in byShort for a name several namespaces have.
var ambiguousName = &flowState{}

// indexShort sets byShort for byName's key.
func (n *nodeState) indexShort(key string, f *flowState) {
	i := strings.IndexByte(key, '/')
	if i < 0 {
		return
	}
	short := key[i+1:]
	if g, ok := n.byShort[short]; ok && g != f && g.ref.Namespace != f.ref.Namespace {
		f = ambiguousName
	}
	n.byShort[short] = f
}

// flowOfContainerID is the pod of the container a line names by its
// runtime ID (containerID=…), when an earlier line tied the ID to it.
func (b *Builder) flowOfContainerID(n *nodeState, rec *parser.Record) *flowState {
	v, ok := rec.Field("containerID")
	if !ok {
		return nil
	}
	id := stripRuntime(valueText(&v))
	if len(id) < 12 {
		return nil
	}
	return n.byID[runtimeid.Packed(b.idPack.Pack(id))]
}

// namedPod reads the pod a line names in any of the renderings above:
// its reference (when it tells a name) and its UID (when it tells one).
func namedPod(rec *parser.Record) (ref PodRef, hasRef bool, uid string) {
	pod, podUID, podID := podFields(rec)
	uid = uidOf(podUID, podID)
	if pod != nil {
		if ref, hasRef = refFromValue(*pod); hasRef {
			if uid == "" {
				uid = ref.UID
			}
			return ref, true, uid
		}
	}
	if v, ok := rec.Field("pods"); ok {
		if refs := refsFromList(v); len(refs) > 0 && allSame(refs) {
			return refs[0], true, uid
		}
	}
	if v, ok := rec.Field("podName"); ok {
		ref = PodRef{Name: valueText(&v)}
		if ns, ok := rec.Field("podNamespace"); ok {
			ref.Namespace = valueText(&ns)
		}
		if validName(ref.Name) && ref.Name != "" && validName(ref.Namespace) {
			return ref, true, uid
		}
	}
	if uid != "" {
		return PodRef{}, false, uid
	}
	// The renderings inside the text: the message of a printf line, the
	// values of a structured one.
	if !rec.Structured() {
		return refInText(rec.Msg)
	}
	if rec.Err != "" {
		if ref, hasRef, uid = refInText(rec.Err); hasRef || uid != "" {
			return ref, hasRef, uid
		}
	}
	for i := range rec.Fields {
		if v := &rec.Fields[i].Value; v.Kind == parser.KindString || v.Kind == parser.KindBare || v.Kind == parser.KindQuoted {
			if ref, hasRef, uid = refInText(valueText(v)); hasRef || uid != "" {
				return ref, hasRef, uid
			}
		}
	}
	return PodRef{}, false, ""
}

// refInText reads the pod a text names: format.Pod's name_ns(uid), the
// volume manager's pod "name" (UID: "uid"), a k8s_ sandbox or container
// name, a /var/log/pods/<ns>_<name>_<uid> directory, podName=… podNamespace=…,
// else the UID of a /var/lib/kubelet/pods/<uid> path.
func refInText(s string) (PodRef, bool, string) {
	if refs := legacyRefs(s); len(refs) > 0 && allSame(refs) {
		return refs[0], true, refs[0].UID
	}
	if i := strings.Index(s, `(UID: "`); i > 0 {
		rest := s[i+len(`(UID: "`):]
		if len(rest) >= 36 && looksLikeUID(rest[:36]) {
			uid := rest[:36]
			if p, ok := quotedPodRef(s[:i]); ok && !p.nameCut {
				return PodRef{Name: p.Name, Namespace: p.Namespace}, true, uid
			}
			return PodRef{}, false, uid
		}
	}
	if i := strings.Index(s, "k8s_"); i >= 0 && (i == 0 || !isRefByte(s[i-1])) {
		if r, ok := runtimeName(s[i+len("k8s_"):]); ok {
			return r, true, r.UID
		}
	}
	if i := strings.Index(s, "/var/log/pods/"); i >= 0 {
		rest := s[i+len("/var/log/pods/"):]
		if end := strings.IndexByte(rest, '/'); end > 0 {
			rest = rest[:end]
		}
		// <ns>_<name>_<uid>: DNS-1123 names have no '_'.
		if parts := strings.Split(rest, "_"); len(parts) == 3 && looksLikeUID(parts[2]) && validName(parts[0]) && validName(parts[1]) {
			return PodRef{Namespace: parts[0], Name: parts[1], UID: parts[2]}, true, parts[2]
		}
	}
	if i := strings.Index(s, "podName="); i >= 0 {
		name := string(valueAt([]byte(s[i+len("podName="):])))
		ref := PodRef{Name: name}
		if j := strings.Index(s, "podNamespace="); j >= 0 {
			ref.Namespace = string(valueAt([]byte(s[j+len("podNamespace="):])))
		}
		if name != "" && validName(name) && validName(ref.Namespace) {
			return ref, true, ""
		}
	}
	// A pod named by its UID alone, quoted (kubelet_volumes.go's
	// `Orphaned pod "<uid>" found, …`).
	for rest := s; ; {
		i := strings.Index(rest, `pod "`)
		if i < 0 {
			break
		}
		rest = rest[i+len(`pod "`):]
		for _, n := range [2]int{36, 32} {
			if len(rest) > n && rest[n] == '"' && looksLikeUID(rest[:n]) {
				return PodRef{}, false, rest[:n]
			}
		}
	}
	// A volume's or a container log's directory under the kubelet's root
	// (/var/lib/kubelet/pods/<uid>/…); a UID elsewhere may be anything's.
	for rest := s; ; {
		i := strings.Index(rest, "/pods/")
		if i < 0 {
			break
		}
		rest = rest[i+len("/pods/"):]
		for _, n := range [2]int{36, 32} {
			if len(rest) >= n && looksLikeUID(rest[:n]) && (len(rest) == n || rest[n] == '/') {
				return PodRef{}, false, rest[:n]
			}
		}
	}
	return PodRef{}, false, ""
}

// runtimeName reads what follows "k8s_" in a sandbox or container name
// the kubelet gives the runtime (dockershim's naming, kept by the CRI
// runtimes' metadata): <container>_<name>_<namespace>_<uid>_<attempt>.
func runtimeName(s string) (PodRef, bool) {
	end := 0
	for end < len(s) && (isRefByte(s[end]) || s[end] >= 'A' && s[end] <= 'Z') {
		end++
	}
	parts := strings.Split(s[:end], "_")
	if len(parts) < 5 || !looksLikeUID(parts[3]) || !validName(parts[1]) || !validName(parts[2]) || parts[1] == "" || parts[2] == "" {
		return PodRef{}, false
	}
	return PodRef{Name: parts[1], Namespace: parts[2], UID: parts[3]}, true
}

// fallbackJudge gives a judged flow what the fallback knows of it: a
// reason when nothing better explains it, the lines that prove it, and
// for a pod the log names by its UID alone, words saying so.
func (b *Builder) fallbackJudge(f *flowState, fl *Flow, full bool) {
	fs := f.fallback
	own := false // the fallback's lines are what proves the verdict
	if fs != nil && fs.reason == 0 {
		fs.reason = fs.sightReason
	}
	if fs != nil && fl.Reason == "" && fs.reason != 0 && !settled(fl.Verdict) {
		fl.Reason = b.texts.Text(fs.reason)
		own = true
	}
	if f.ref.Name == "" {
		// A pod the log names by its UID alone, whatever made its flow (a
		// sighting, a printf line's UID, a log path): its reason says so
		// (not before an eviction's, whose first word kubectl's STATUS is).
		switch {
		case fl.Reason == "":
			fl.Reason = "known by its UID alone: the log never names this pod"
		case !strings.HasPrefix(fl.Reason, neverNamed) && !strings.HasPrefix(fl.Reason, "Evicted"):
			fl.Reason = neverNamed + fl.Reason
		}
	}
	if fs != nil && !own {
		// Or the pod's only lines are the fallback's.
		own = true
		for i := range fl.Stages {
			if fl.Stages[i].Start != nil {
				own = false
				break
			}
		}
	}
	if full && own && len(fl.Evidence) == 0 {
		fl.Evidence = append(b.publicEvidence(fs.evidence), fs.sighted...)
	}
}

// neverNamed begins the reason of a pod known by its UID alone.
const neverNamed = "never named, UID only: "

// settled reports a verdict that needs no explaining: an error line the
// fallback kept is not what a running or finished pod is about.
func settled(v Verdict) bool {
	return v == VerdictRunning || v == VerdictCompleted || v == VerdictTerminated
}

// maxLooseFailures bounds the failure lines that name no pod kept until
// the end of the build; past it they are unattributed at once.
const maxLooseFailures = 1024

// looseFailure keeps a failure line that names no pod until the flows are
// judged: the kubelet reports one failure at each layer it passes
// (remote_image.go, kuberuntime_manager.go, then pod_workers.go naming
// the pod), and a layer's line that names no pod is unattributed only
// when no pod's reason holds its error (settleLoose).
func (b *Builder) looseFailure(rec *parser.Record) {
	if len(b.loose) >= maxLooseFailures {
		b.unattributedLine(rec)
		return
	}
	b.loose = append(b.loose, b.evidenceOf(rec))
}

// settleLoose adds to unattr the loose failures no judged flow's reason
// explains, and returns how many there were.
func settleLoose(loose []Evidence, items []Flow, unattr *[]Evidence) int {
	if len(loose) == 0 {
		return 0
	}
	// The same failure repeats (a manager's every sync): each error is
	// looked for once. Pods share reasons (a cause hits many): each
	// distinct one is searched, so the work grows with causes, not with
	// pods, and with the reasons' bytes, not with errors × reasons.
	var reasons []string
	have := map[string]bool{}
	for i := range items {
		if r := items[i].Reason; r != "" && !have[r] {
			have[r] = true
			reasons = append(reasons, r)
		}
	}
	tails := make([]string, len(loose))
	at := map[string]int{}
	var distinct []string
	for i := range loose {
		tail := errorTail(loose[i].Text)
		tails[i] = tail
		if _, ok := at[tail]; !ok && tail != "" {
			at[tail] = len(distinct)
			distinct = append(distinct, tail)
		}
	}
	explained := multimatch.Found(distinct, reasons)
	n := 0
	for i, ev := range loose {
		if tails[i] != "" && explained[at[tails[i]]] {
			continue
		}
		n++
		if len(*unattr) < maxUnattributed {
			*unattr = append(*unattr, ev)
		}
	}
	return n
}

// errorTail is the innermost error of a failure's text, after its last
// ": " (the runtime's or the registry's own words), when long enough to
// tell one failure from another.
func errorTail(text string) string {
	text = strings.TrimSuffix(text, "…")
	i := strings.LastIndex(text, ": ")
	if i < 0 || len(text)-i-2 < 12 {
		return ""
	}
	return text[i+2:]
}
