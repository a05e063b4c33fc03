package timeline

import (
	"slices"
	"strings"

	"github.com/podflow/podflow/internal/textmemo"
	"github.com/podflow/podflow/parser"
)

// Pod workers (pod_workers.go) run SyncPod for one pod at a time; when a
// sync fails, the kubelet logs "Error syncing pod, skipping" with the
// error SyncPod returned, which names the step that failed (kuberuntime's
// CreatePodSandbox, StartContainer, … with the reason: ErrImagePull,
// CrashLoopBackOff, …). That one line carries the failure of whatever
// subsystem failed, so it is matched to stages by its error's text
// (Marker.ErrHas), not by its message. The stages a pod worker begins and
// completes itself (synced) are plain marker data.

// syncError reads "Error syncing pod": each part of the error moves the
// stage its marker names, on the container it names.
func (b *Builder) syncError(n *nodeState, rec *parser.Record, mk *Marker) {
	f := b.flowFor(n, rec, true)
	if f == nil {
		if refs := legacyRefs(rec.Msg); len(refs) > 0 {
			f = b.resolve(n, refs[0], true, refs[0].UID, false)
		}
	}
	errText, tail := rec.Err, false
	if errText == "" && !rec.Structured() {
		if i := strings.Index(rec.Msg, "skipping: "); i >= 0 {
			errText = rec.Msg[i+len("skipping: "):]
		} else if strings.HasPrefix(rec.Msg, ", failed to \"") {
			// A later part, alone on its journal line (see tailMarkers).
			// (The list's closing "]" on a line of its own joins it.)
			errText, tail = strings.TrimSuffix(rec.Msg[len(", "):], "\n]"), true
		}
	}
	if len(errText) > 1 && errText[0] == '"' && strings.HasPrefix(errText[1:], `failed to \"`) {
		// A quoted err the line lost the end of, left quoted by the
		// parser: its text is the unquoted one.
		errText = unescapeGo(errText[1:])
	}
	parts, markers := b.readSyncError(errText)
	if f == nil {
		f = b.syncTargetPod(n, parts)
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	if len(markers) == 0 {
		markers = b.cutSyncStep(parts)
	}
	if tail {
		markers = tailMarkers(markers)
	}
	if strings.HasPrefix(errText, networkNotReady) {
		b.networkNotReady(n, rec, errText) // nodes.go
	}
	matched := false
	for _, smk := range markers {
		if !matched && podStage(smk) {
			b.resumed(f, rec) // termination.go
		}
		matched = true
		reason := errText
		name := ""
		for _, p := range parts {
			if p.reason != "" && strings.Contains(smk.ErrHas, p.reason) {
				// Composed in the builder's buffer: it repeats across pods.
				t := append(append(append(b.text[:0], p.reason...), ": "...), p.message...)
				if cap(t) <= 4*maxEvidenceText {
					b.text = t
				}
				reason = b.texts.InternBytes(t)
				if p.action != "CreatePodSandbox" && p.action != "KillPodSandbox" {
					name = p.target
				}
				break
			}
		}
		if smk.Container {
			if name == "" {
				for _, p := range parts {
					if p.action == "StartContainer" {
						name = p.target
					}
				}
			}
			if name == "" {
				continue
			}
			if infraContainer(name) {
				b.stageEffect(f, StSandbox, smk.Effect, rec, reason)
				continue
			}
			c := b.container(f, name, "")
			if img := backOffImage(reason); img != "" && c.image == 0 {
				b.texts.Set(&c.image, img) // ImagePullBackOff: "Back-off pulling image \"x\""
				b.linkImage(f.node, f, c)
			}
			b.containerEffect(f, c, smk.Stage, smk.Effect, rec, reason)
			continue
		}
		b.stageEffect(f, smk.Stage, smk.Effect, rec, reason)
	}
	if !matched {
		// An error the pipeline has no stage for: keep it on the pod.
		b.stageEffect(f, StSynced, Observe, rec, "")
		f.stage(StSynced).mark().reason = b.texts.Intern(errText)
	}
}

// podStage reports a sync error marker of a creation stage, the pod's or
// a container's: the pod is being made, not torn down.
func podStage(mk *Marker) bool {
	return mk.Container || slices.Contains(PodStages, mk.Stage)
}

// backOffPod is the pod a CrashLoopBackOff's message names,
// format.Pod(pod) after "pod=" (kuberuntime_manager.go doBackOff: "back-off
// %s restarting failed container=%s pod=%s"), for a sync error whose pod
// field the line lost: the err value, read to the cut (parser), ends
// inside it. Whole, or cut short (resolvePartial).
func (b *Builder) backOffPod(n *nodeState, msg string) *flowState {
	i := strings.LastIndex(msg, " pod=")
	if i < 0 || !strings.Contains(msg[:i], "restarting failed container=") {
		return nil
	}
	t := msg[i+len(" pod="):]
	if ref, ok := legacyRef(t); ok {
		return b.resolve(n, ref, true, ref.UID, true)
	}
	if pr, ok := partialFromText(t, false); ok {
		return b.resolvePartial(n, pr, true)
	}
	return nil
}

// tailMarkers are the markers of a sync error's later part read without
// its head: all but KillPodSandboxError's. The head tells why the pod was
// killed, which the part does not: "error killing pod: " (kubelet.go
// syncPod) when it is terminated, else SyncPod's kill before it makes a
// new sandbox (kuberuntime_manager.go), the sandbox stage's failure. Its
// failure is kept on the pod, at no stage.
func tailMarkers(markers []*Marker) []*Marker {
	for i, mk := range markers {
		if mk.ErrHas == "KillPodSandboxError" {
			return append(markers[:i:i], markers[i+1:]...)
		}
	}
	return markers
}

// syncTargetPod is the pod a sync error names as its CreatePodSandbox
// step's target, format.Pod(pod) (kuberuntime_manager.go createSandbox's
// SyncResult), for a line whose pod field was cut away: whole, or cut
// short (resolvePartial: the one known pod it fits, or a whole name).
func (b *Builder) syncTargetPod(n *nodeState, parts []syncFailure) *flowState {
	for _, p := range parts {
		if p.action == "KillPodSandbox" && !p.cut && looksLikeUID(p.target) {
			// killPodWithSyncResult's SyncResult names the running pod by
			// its ID, the pod's UID.
			if f := n.byUID[p.target]; f != nil {
				return f
			}
			return b.newFlow(n, PodRef{UID: strings.Clone(p.target)})
		}
		if p.action == "StartContainer" {
			if f := b.backOffPod(n, p.message); f != nil {
				return f
			}
		}
		if p.action != "CreatePodSandbox" {
			continue
		}
		if !p.cut {
			if ref, ok := legacyRef(p.target); ok {
				return b.resolve(n, ref, true, ref.UID, true)
			}
		} else if pr, ok := partialFromText(p.target, false); ok {
			return b.resolvePartial(n, pr, true)
		}
	}
	return nil
}

// cutSyncStep is the marker of a sync error cut before or in its reason
// ("with CreatePodSandbox>"), when the step alone tells it: the kubelet
// fails CreatePodSandbox only with CreatePodSandboxError and
// KillPodSandbox only with KillPodSandboxError (kuberuntime_manager.go,
// kubecontainer.ErrCreatePodSandbox and ErrKillPodSandbox).
func (b *Builder) cutSyncStep(parts []syncFailure) []*Marker {
	for _, p := range parts {
		if p.action == "CreatePodSandbox" || p.action == "KillPodSandbox" {
			return b.m.syncError(p.action + "Error")
		}
	}
	return nil
}

// syncErrorRead is what syncError reads of an error text: its parts and
// the markers it matches.
type syncErrorRead struct {
	parts   []syncFailure
	markers []*Marker
}

// readSyncError splits errText and matches it to the pipeline's sync
// error markers. A pod's error repeats word for word at every retry, and
// one image's or one node's across pods: a memo keeps what was read of
// the last few, on their own copy of the text. The result is valid until
// the next call.
func (b *Builder) readSyncError(errText string) ([]syncFailure, []*Marker) {
	if b.reference || len(errText) > textmemo.MaxText {
		return parseSyncError(errText), b.m.syncError(errText)
	}
	slot, r, hit := b.errMemo.Get(errText)
	if !hit {
		own := strings.Clone(errText) // parts point into it
		r = syncErrorRead{parts: parseSyncError(own), markers: slices.Clone(b.m.syncError(own))}
		b.errMemo.Put(slot, errText, r)
	}
	return r.parts, r.markers
}
