package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// The volume manager's waits and failures are marker data (pipeline.go),
// apart from the lines that name their pod only in their text: the
// operation executor's detailed messages (GenerateMsgDetailed: `<what> for
// volume "v" (UniqueName: "u") pod "name" (UID: "uid")`), printf before
// 1.21 and the message of a structured line since, and the failures
// nestedpendingoperations reports, by UID only.

// volumeLine reads a detailed message of the operation executor
// (SpecialVolumeMount): the reconciler's "operationExecutor.MountVolume
// started", the mounter's "MountVolume.SetUp succeeded". Before 1.21 the
// text is all that names the pod, by its name (Pod.Name, no namespace)
// and UID: a pod the log has not seen yet starts from it, by both, and
// learns its namespace from the first line that tells (resolve).
func (b *Builder) volumeLine(n *nodeState, rec *parser.Record, mk *Marker) {
	if rec.Structured() {
		// Since 1.21 the line's pod key names the pod, as any other line's
		// does; its text is read only for a UID the pod lacks (a line for
		// every volume of every pod: the text is not scanned for each).
		if ref, ok := recordRef(rec); ok {
			if f := b.resolve(n, ref, true, "", true); f != nil {
				if f.ref.UID == "" {
					b.learnUID(n, f, rec.Msg)
				}
				b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
				return
			}
		}
	}
	name, uid := detailedPod(rec.Msg)
	var f *flowState
	if uid != "" {
		f = n.byUID[uid]
	}
	if f == nil && rec.Structured() {
		if ref, ok := recordRef(rec); ok {
			f = b.resolve(n, ref, true, uid, true)
		}
	}
	if f == nil && uid != "" && !rec.Structured() {
		// The one pod of the name, whatever its namespace, unless it is
		// another UID's (an earlier pod of the name).
		f = b.resolvePartial(n, partialRef{PodRef: PodRef{Name: name}}, false)
		if f != nil && f.ref.UID != "" && f.ref.UID != uid && f.mirror != uid {
			f = nil
		}
		if f == nil {
			f = b.newFlow(n, PodRef{Name: name, UID: uid})
		}
	}
	if f == nil {
		f = b.flowFor(n, rec, true)
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	if uid != "" && f.ref.UID == "" {
		b.setUID(n, f, uid)
	}
	b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
}

// learnUID gives f the UID a detailed message's text names.
func (b *Builder) learnUID(n *nodeState, f *flowState, msg string) {
	if _, uid := detailedPod(msg); uid != "" {
		b.setUID(n, f, uid)
	}
}

func (b *Builder) setUID(n *nodeState, f *flowState, uid string) {
	f.ref.UID = strings.Clone(uid)
	b.indexUID(n, f.ref.UID, f)
	if isStaticUID(uid) {
		f.static = true
	}
}

// detailedPod reads the pod of a detailed message: `pod "name" (UID:
// "uid")`, both whole (a line cut in them names no pod), or "", "".
func detailedPod(msg string) (name, uid string) {
	_, rest, ok := strings.Cut(msg, `") pod "`)
	if !ok {
		return "", ""
	}
	name, rest, ok = strings.Cut(rest, `" (UID: "`)
	if !ok || name == "" || !validName(name) {
		return "", ""
	}
	uid, _, ok = strings.Cut(rest, `"`)
	if !ok || !looksLikeUID(uid) {
		return "", ""
	}
	return name, uid
}

// volumeFailureText reads the volume manager's unstructured failures of
// a pod's mount: "MountVolume.SetUp failed" lines, and nestedpendingoperations'
// "Operation for … failed. No retries permitted until … Error: <op> failed
// for volume … pod "name" (UID: "uid") …" of an operation that sets the
// volume up (mountOperation): Add sends them here before any marker lookup.
// A paste may begin with one: it starts its pod as volumeLine does.
func (b *Builder) volumeFailureText(n *nodeState, rec *parser.Record) {
	// Unstructured nestedpendingoperations lines name the pod by UID only:
	// … pod "name" (UID: "uid") …, the error quoted (%q) before 1.20.
	text := rec.Msg
	uid := textUID(text)
	if uid == "" {
		return
	}
	f := n.byUID[uid]
	if f == nil {
		name, _ := detailedPod(text)
		if name == "" {
			return
		}
		if f = b.resolvePartial(n, partialRef{PodRef: PodRef{Name: name}}, false); f != nil && f.ref.UID != "" && f.ref.UID != uid && f.mirror != uid {
			f = nil // an earlier pod of the name
		}
		if f == nil {
			f = b.newFlow(n, PodRef{Name: name, UID: uid})
		} else if f.ref.UID == "" {
			b.setUID(n, f, uid)
		}
		if f == nil {
			return
		}
	}
	reason := text
	if k := mountOperation(text); k >= 0 {
		reason = text[k:]
		if k > 0 && text[k-1] == '"' {
			// Error: "MountVolume.SetUp failed for volume \"config\" … : …"
			reason = unescapeGo(strings.TrimSuffix(reason, `"`))
		}
	}
	b.stageEffect(f, StVolumes, Fail, rec, reason)
}

// mountOperation is where a text names the operation executor's failed
// operation that sets a pod's volume up (operation_generator.go:
// MountVolume.WaitForAttach, .MountDevice, .SetUp, MapVolume.…,
// VerifyControllerAttachedVolume), -1 for none: an unmount's or a
// detach's failure is the pod's teardown, not its volumes stage.
func mountOperation(text string) int {
	for _, op := range [...]string{"MountVolume.", "MapVolume.", "VerifyControllerAttachedVolume "} {
		if k := strings.Index(text, op); k >= 0 && strings.Contains(text[k:], " failed") {
			return k
		}
	}
	return -1
}

// volumeWait reports whether a volume failure's words are the volume
// manager's wait for the pod's volumes timing out (kubelet.go syncPod's
// WaitForAttachAndMount: "Unable to attach or mount volumes: unmounted
// volumes=[…], unattached volumes=[…]: timed out waiting for the
// condition", ≤1.12 "… list of unmounted volumes=[…]", and the pod worker's
// sync error that carries it). The wait only says which volumes are not
// ready; why is in the operation executor's own failures (MountVolume.SetUp
// failed, MountVolume.MountDevice failed, AttachVolume.Attach failed), so a
// wait does not replace one of those as the stage's reason.
func volumeWait(reason string) bool {
	return strings.Contains(reason, "unmounted volumes=")
}

// textUID reads the UID of `(UID: "uid")` in a text, its quotes escaped
// or not, or "".
func textUID(text string) string {
	i := strings.Index(text, "(UID: ")
	if i < 0 {
		return ""
	}
	rest := strings.TrimPrefix(text[i+len("(UID: "):], `\`)
	rest, ok := strings.CutPrefix(rest, `"`)
	if !ok {
		return ""
	}
	j := strings.IndexAny(rest, `"\`)
	if j < 0 || !looksLikeUID(rest[:j]) {
		return ""
	}
	return rest[:j]
}
