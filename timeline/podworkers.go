package timeline

import (
	"slices"
	"strings"

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
	f := b.flowFor(n, rec, false)
	if f == nil {
		if refs := legacyRefs(rec.Msg); len(refs) > 0 {
			f = b.resolve(n, refs[0], true, refs[0].UID, false)
		}
	}
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	errText := rec.Err
	if errText == "" && !rec.Structured() {
		if i := strings.Index(rec.Msg, "skipping: "); i >= 0 {
			errText = rec.Msg[i+len("skipping: "):]
		}
	}
	parts, markers := b.readSyncError(errText)
	matched := false
	for _, smk := range markers {
		matched = true
		reason := errText
		name := ""
		for _, p := range parts {
			if strings.Contains(smk.ErrHas, p.reason) || strings.Contains(errText, smk.ErrHas) && strings.Contains(smk.ErrHas, p.reason) {
				// Composed in the builder's buffer: it repeats across pods.
				t := append(append(append(b.text[:0], p.reason...), ": "...), p.message...)
				if cap(t) <= 4*maxEvidenceText {
					b.text = t
				}
				reason = b.internBytes(t)
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
			b.containerEffect(f, c, smk.Stage, smk.Effect, rec, reason)
			continue
		}
		b.stageEffect(f, smk.Stage, smk.Effect, rec, reason)
	}
	if !matched {
		// An error the pipeline has no stage for: keep it on the pod.
		b.stageEffect(f, StSynced, Observe, rec, "")
		f.stage(StSynced).mark().reason = b.intern(errText)
	}
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
	if b.reference || len(errText) > maxMemoText {
		return parseSyncError(errText), b.m.syncError(errText)
	}
	slot, r, hit := b.errMemo.get(errText)
	if !hit {
		own := strings.Clone(errText) // parts point into it
		r = syncErrorRead{parts: parseSyncError(own), markers: slices.Clone(b.m.syncError(own))}
		b.errMemo.put(slot, errText, r)
	}
	return r.parts, r.markers
}
