package timeline

import (
	"slices"
	"strings"
	"time"

	"github.com/podflow/podflow/parser"
)

// The eviction manager (pkg/kubelet/eviction/eviction_manager.go) watches
// the node's memory, disk, inodes and PIDs against its thresholds. Under
// pressure it says what it reclaims ("attempting to reclaim" memory, ≤1.20
// "eviction manager: attempting to reclaim ephemeral-storage"), ranks the
// running pods ("pods ranked for eviction"), and kills the first it may
// (at most one a round; a critical pod it skips): "Evicting pod" (V3)
// with the message the pod's status and Evicted event carry ("The node was
// low on resource: memory. …"), the kill lines, then "pod is evicted
// successfully" and "pods successfully cleaned up". An evicted pod ends
// Failed with reason Evicted (evictionVerdict), whatever its termination
// stages say; the node gets a pressure finding for the resource.

// evictNote is what the log says of one pod's eviction.
type evictNote struct {
	message  string // the eviction message, when the log gives it
	resource string // the resource reclaimed then, when known
	finding  string // the key of the pressure finding its message made
	at       time.Time
	evidence []Evidence
}

// maxRanked bounds the ranked pods kept (the next victims, in order).
const maxRanked = 8

// evictionLine reads the eviction manager's lines (SpecialEviction).
func (b *Builder) evictionLine(n *nodeState, rec *parser.Record) {
	msg := rec.Msg
	if msg == "Evicting pod" || strings.HasPrefix(msg, "Pod is being evicted") {
		if f := b.flowFor(n, rec, true); f != nil {
			b.evict(n, f, rec, rec.Str("message"))
		}
		return
	}
	body := msg[min(len(msg), len("eviction manager: ")):]
	switch {
	case strings.HasPrefix(body, "unexpected error when attempting to reduce resource pressure"):
		// The node-level reclaim failed: the image GC's error
		// (image_gc_manager.go DeleteUnusedImages, freeSpace: "wanted to
		// free %d bytes, but freed %d bytes space with errors in image
		// deletion: …") is also an ImageGCFailed finding (images.go).
		if res := rec.Str("resourceName"); res != "" {
			b.pressure(n, rec, res, msg)
		}
		if err := rec.Err + rec.Str("err"); strings.Contains(err, "in image deletion") || strings.Contains(err, "garbage collect") {
			b.imageGCFailed(n, rec, "")
		}
	case strings.HasPrefix(body, "able to reduce resource pressure"):
		if res := rec.Str("resourceName"); res != "" {
			b.pressure(n, rec, res, msg) // under pressure still, reclaimed without evicting
		}
	case strings.HasPrefix(body, "attempting to reclaim"), strings.HasPrefix(body, "must evict pod(s) to reclaim"):
		res := rec.Str("resourceName")
		if res == "" {
			_, res, _ = strings.Cut(body, "reclaim ")
		}
		res = strings.TrimSpace(res)
		if res != "" {
			n.pressure = strings.Clone(res)
			b.pressure(n, rec, res, msg)
		}
	case strings.HasPrefix(body, "pods ranked for eviction"):
		n.ranked = n.ranked[:0]
		for _, r := range evictionRefs(rec, body) {
			// The manager ranks the node's active pods: each is there,
			// named by this line if by no other (issue #25, class 1).
			b.rankedPod(n, r, rec)
			if len(n.ranked) < maxRanked {
				n.ranked = append(n.ranked, PodRef{Namespace: strings.Clone(r.Namespace), Name: strings.Clone(r.Name)})
			}
		}
	case strings.HasPrefix(body, "cannot evict a critical"):
		// The next ranked pod is the victim.
		for _, r := range evictionRefs(rec, body) {
			b.rankedPod(n, r, rec)
			for i, x := range n.ranked {
				if x.Key() == r.Key() {
					n.ranked = append(n.ranked[:i], n.ranked[i+1:]...)
					break
				}
			}
		}
	case strings.HasPrefix(body, "unable to evict any pods"):
		n.ranked = n.ranked[:0]
	case strings.Contains(body, "evicted successfully"), strings.Contains(body, "evicted, waiting"), strings.Contains(body, "successfully cleaned up"):
		for _, r := range evictionRefs(rec, body) {
			if f := b.resolve(n, r, true, r.UID, true); f != nil {
				b.evict(n, f, rec, "")
			}
		}
	}
}

// rankedPod is a pod the eviction manager names without acting on it
// (ranked, or spared as critical): a line of the pod's, evidence that it
// is there, which moves no stage.
func (b *Builder) rankedPod(n *nodeState, r PodRef, rec *parser.Record) {
	if r.Name == "" {
		return
	}
	if f := b.resolve(n, r, true, r.UID, true); f != nil {
		b.evidenceOnly(f, rec)
	}
}

// evictedStatus reads the pod status the eviction manager gives the pod
// it evicts (phase Failed, reason Evicted, the message of its Evicted
// event: "The node was low on resource: memory. …"), in the status
// manager's patch or a pasted describe's status: the pod was evicted,
// and the message names the signal. A pod the manager's admit handler
// refused ("… The node had condition: [DiskPressure]") was not evicted.
func (b *Builder) evictedStatus(f *flowState, rec *parser.Record, message string) {
	if f.node == nil || strings.Contains(message, "The node had condition") {
		return
	}
	b.evict(f.node, f, rec, message)
}

// evictionRefs are the pods an eviction line names: pod= or pods=, or
// the ≤1.20 name_ns(uid) renderings in its sentence.
func evictionRefs(rec *parser.Record, body string) []PodRef {
	if v, ok := rec.Field("pods"); ok {
		return refsFromList(v)
	}
	if r, ok := recordRef(rec); ok {
		return []PodRef{r}
	}
	if !rec.Structured() {
		return legacyRefs(body)
	}
	return nil
}

// evictionKill reads a kill line of the pod the eviction manager ranked
// first: that is its eviction (TerminatePodAbnormallyAndWait).
func (b *Builder) evictionKill(n *nodeState, f *flowState, rec *parser.Record) {
	if len(n.ranked) == 0 {
		return
	}
	r := n.ranked[0]
	if r.Name != f.ref.Name || r.Namespace != "" && r.Namespace != f.ref.Namespace {
		return
	}
	b.evict(n, f, rec, "")
}

// evict notes f's eviction at rec: the kubelet tears the pod down.
func (b *Builder) evict(n *nodeState, f *flowState, rec *parser.Record, message string) {
	if n.evicted == nil {
		n.evicted = map[*flowState]*evictNote{}
	}
	e := n.evicted[f]
	if e == nil {
		e = &evictNote{resource: n.pressure, at: rec.Time}
		n.evicted[f] = e
		if len(n.ranked) > 0 && n.ranked[0].Name == f.ref.Name {
			n.ranked = n.ranked[1:]
		}
	} else if !rec.Time.IsZero() && rec.Time.Before(e.at) {
		// A pasted describe's status came first, at the time its block
		// counts back from: the eviction, and the pressure its message
		// named, were when the kubelet's lines say.
		e.at = rec.Time
		if fd := n.findings[e.finding]; fd != nil && rec.Time.Before(fd.Time) {
			fd.Time = rec.Time
		}
	}
	if message != "" && e.message == "" {
		e.message = strings.Clone(message)
		if res := lowResource(message); res != "" {
			e.resource = res
			at := rec
			if rec.Format == parser.FormatDescribe && e.at.Before(rec.Time) {
				cp := *rec // a pasted status, after the kubelet's lines: the pressure was when they evicted the pod
				cp.Time = e.at
				at = &cp
			}
			e.finding = b.pressure(n, at, res, message)
		}
	}
	if len(e.evidence) < 3 {
		e.evidence = append(e.evidence, b.evidenceOf(rec))
	}
	if rec.Format != parser.FormatDescribe {
		// (A pasted describe's status is the pod's after its eviction, at
		// no time the log states: it begins no stage.)
		b.stageEffect(f, StTerminating, Begin, rec, "")
	}
}

// lowResource is the resource of an eviction message: "The node was low
// on resource: memory. Threshold quantity: …".
func lowResource(msg string) string {
	_, res, ok := strings.Cut(msg, "low on resource: ")
	if !ok {
		return ""
	}
	res, _, _ = strings.Cut(res, ".")
	res, _, _ = strings.Cut(res, " ")
	return strings.TrimSpace(res)
}

// pressureKind is the node condition of a resource the eviction manager
// reclaims (eviction/helpers.go: signals to resources and conditions).
func pressureKind(res string) string {
	switch {
	case strings.Contains(res, "memory"):
		return "MemoryPressure"
	case strings.Contains(res, "pid"):
		return "PIDPressure"
	case strings.Contains(res, "storage"), strings.Contains(res, "inodes"), strings.Contains(res, "fs"):
		return "DiskPressure"
	}
	return ""
}

// pressure records the node's pressure on resource res; it returns the
// finding's key ("" for a resource of no node condition).
func (b *Builder) pressure(n *nodeState, rec *parser.Record, res, msg string) string {
	if kind := pressureKind(res); kind != "" {
		return b.finding(n, kind, rec, msg, false)
	}
	return ""
}

// evictionVerdict makes an evicted pod Failed, with reason Evicted and
// the signal: from the kubelet's eviction lines, or else its Evicted event.
func (b *Builder) evictionVerdict(f *flowState, fl *Flow, logEnd time.Time) {
	if fl.Verdict == VerdictRejected {
		return // refused at admission, by the eviction manager or not
	}
	var e *evictNote
	if f.node != nil {
		e = f.node.evicted[f]
	}
	if e == nil {
		if f.stages.get(StTerminating) == nil {
			return // an Evicted event begins termination (pipeline.go)
		}
		for i := range f.events {
			ev := &f.events[i]
			if b.texts.Text(ev.reason) == "Evicted" && !strings.HasPrefix(b.texts.Text(ev.Text), "The node had condition") {
				e = &evictNote{message: b.texts.Text(ev.Text), evidence: []Evidence{b.evidence(ev.Where, ev.at, true)}}
				e.at = e.evidence[0].Time
				break
			}
		}
		if e == nil {
			return
		}
	}
	fl.Verdict = VerdictFailed
	switch {
	case e.message != "":
		fl.Reason = "Evicted: " + e.message
	case e.resource != "":
		fl.Reason = "Evicted: the node was low on resource: " + e.resource
	default:
		fl.Reason = "Evicted"
	}
	// Where it was when evicted: running, or a creation stage under way.
	fl.StalledAt = StRunning
	for _, st := range fl.Stages {
		if st.Status == StatusFailed || st.Status == StatusStalled || st.Status == StatusActive {
			if slices.Contains(PodStages, st.ID) && st.ID != StReady {
				fl.StalledAt = st.ID
			}
			break
		}
	}
	fl.Container, fl.ContainerStage = "", ""
	fl.Evidence = e.evidence
	if !e.at.IsZero() && logEnd.After(e.at) {
		fl.Waited = Duration(logEnd.Sub(e.at))
	}
}
