package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// The kubelet's sync loop (kubelet.go syncLoopIteration) hears of pods from
// its config sources: the API server ("api"), static manifests ("file")
// and a manifest URL ("http"). Its SyncLoop ADD is where a flow begins; a
// pod it adds again is the same pod, unless the one of that name had ended
// or was going away (a new incarnation). DELETE and REMOVE are
// termination's (termination.go).

// syncLoop reads SyncLoop ADD, DELETE and REMOVE, which name several pods
// at a time, with the source that told.
func (b *Builder) syncLoop(n *nodeState, rec *parser.Record, mk *Marker) {
	source := rec.Str("source")
	var refs []PodRef
	if v, ok := rec.Field("pods"); ok {
		refs = refsFromList(v)
		// The list as written, KObjSlice's quoted "[a b]" too.
		raw := strings.TrimSuffix(strings.TrimPrefix(fieldRaw(rec, "pods"), `"`), `"`)
		if len(refs) > 0 && strings.HasPrefix(raw, "[") && !strings.HasSuffix(raw, "]") {
			// The line was cut in its last pod's name: no pod of its own.
			if mk.Stage == StObserved && mk.Effect == Complete {
				b.keepCutAdd(n, rec, refs[len(refs)-1])
			}
			refs = refs[:len(refs)-1]
		}
	} else if !rec.Structured() {
		refs = legacyRefs(rec.Msg)
		if i := strings.Index(rec.Msg, `, "`); i >= 0 {
			if j := strings.Index(rec.Msg[i+3:], `"`); j >= 0 {
				source = rec.Msg[i+3 : i+3+j]
			}
		}
	}
	for _, r := range refs {
		switch {
		case mk.Effect == Observe:
			b.syncLoopUpdate(n, rec, r, source)
		case mk.Stage == StObserved:
			f := n.byName[string(b.nameKey(r))]
			switch {
			case f == nil:
				// New, or known by its UID or its name alone (resolve).
				f = b.resolve(n, r, true, r.UID, true)
			case f.terminal():
				f = b.newFlow(n, r)
			case f.static && source == "api":
				// The mirror pod of a static pod.
			case f.source != 0 && f.stages.get(StTerminating) != nil:
				f = b.newFlow(n, r)
			case b.addedAgain(n, f, r):
				f = b.newFlow(n, r)
			}
			if f == nil {
				continue
			}
			if f.source == 0 {
				b.texts.Set(&f.source, source)
			}
			if source == "file" || source == "http" {
				f.static = true
			}
			if !n.lastStart.IsZero() && n.starts > 1 && f.stages.get(StObserved) != nil {
				// A replay after a kubelet restart: not a new pod (the
				// restart finding overlaps the flow, so Finish attaches it).
				continue
			}
			b.stageEffect(f, StObserved, Complete, rec, "")
			f.run = uint16(min(n.starts, 1<<16-1))
		case mk.Stage == StTerminating:
			b.syncLoopDelete(n, rec, r)
		case mk.Stage == StTerminated:
			b.syncLoopRemove(n, rec, r, source)
		}
	}
}

// syncLoopUpdate reads a SyncLoop UPDATE or RECONCILE of pod r: the config
// sources send one only for a pod they added (config.go merge), so a pod
// the log has not seen was added before the log begins. It is started
// with none of its stages known; the line only spans it.
func (b *Builder) syncLoopUpdate(n *nodeState, rec *parser.Record, r PodRef, source string) {
	known := len(b.flows)
	f := b.resolve(n, r, true, r.UID, true)
	if f == nil {
		return
	}
	if len(b.flows) > known {
		f.addedBefore = true
	}
	if f.source == 0 {
		b.texts.Set(&f.source, source)
	}
	if source == "file" || source == "http" {
		f.static = true
	}
	b.touch(f, rec)
}

// addedAgain reports whether an ADD of a pod the sync loop added before is
// another pod of the name: the config sources send ADD once per pod (a
// change is UPDATE, pkg/kubelet/config/config.go), so a second ADD
// without a REMOVE or DELETE between is a new pod (a new UID, when the
// line tells one), unless it is the same UID or the replay of every pod
// after a kubelet restart.
func (b *Builder) addedAgain(n *nodeState, f *flowState, r PodRef) bool {
	obs := f.stages.get(StObserved)
	if obs == nil || obs.complete.IsZero() {
		return false
	}
	if r.UID != "" && (r.UID == f.ref.UID || r.UID == f.mirror) {
		return false
	}
	return int(f.run) == n.starts // else the replay after a kubelet restart
}

// cutAdd is a SyncLoop ADD whose pod's name the line lost the end of: no
// pod is started from it, but the pod a later line names in whole (its
// admission, whose own line may be cut in the namespace) is the one it
// added (takeCutAdd).
type cutAdd struct {
	ref PodRef // the namespace whole, the name a prefix
	ev  evidence
}

// maxCutAdds bounds the cut ADDs kept waiting for their pod.
const maxCutAdds = 64

func (b *Builder) keepCutAdd(n *nodeState, rec *parser.Record, r PodRef) {
	if len(n.cutAdds) >= maxCutAdds {
		b.release(n.cutAdds[0].ev)
		n.cutAdds = append(n.cutAdds[:0], n.cutAdds[1:]...)
	}
	r.Namespace, r.Name = b.texts.Name(r.Namespace), strings.Clone(r.Name)
	n.cutAdds = append(n.cutAdds, cutAdd{ref: r, ev: b.stageEvidence(rec)})
}

// takeCutAdd gives the new pod f, named in whole by p, the latest cut ADD
// it fits, each ADD one pod's: the kubelet admits a pod as it adds it
// (HandlePodAdditions), so the latest is the one. f learns its namespace.
func (b *Builder) takeCutAdd(n *nodeState, f *flowState, p partialRef) {
	for i := len(n.cutAdds) - 1; i >= 0; i-- {
		a := n.cutAdds[i]
		if !strings.HasPrefix(p.Name, a.ref.Name) || p.Namespace != "" && !(p.nsCut && strings.HasPrefix(a.ref.Namespace, p.Namespace)) && p.Namespace != a.ref.Namespace {
			continue
		}
		n.cutAdds = append(n.cutAdds[:i], n.cutAdds[i+1:]...)
		if f.ref.Namespace == "" {
			f.ref.Namespace = a.ref.Namespace
			b.indexName(n, f.ref.Key(), f)
		}
		s := f.stage(StObserved)
		s.begin, s.complete = a.ev.at, a.ev.at
		b.addEvidence(s, a.ev)
		if f.first.IsZero() || b.stamps.Before(a.ev.at, f.first) {
			f.first = a.ev.at
		}
		return
	}
}

// fieldRaw is the text of rec's first field named key as written.
func fieldRaw(rec *parser.Record, key string) string {
	for i := range rec.Fields {
		if rec.Fields[i].Key == key {
			return rec.Fields[i].Raw
		}
	}
	return ""
}

// configPod reads the file and http config sources' making of a static pod
// of its manifest (config/common.go applyDefaults, SpecialConfigPod):
// "Generated pod name" names it "<manifest name>-<node>" with the UID the
// manifest's hash gives, "Set namespace for pod" in its namespace. The
// source has the pod, which the sync loop's ADD has yet to show; a name
// not yet in a namespace names no pod ("Generated UID" names the
// manifest's, which is no pod's: no marker reads it).
func (b *Builder) configPod(n *nodeState, rec *parser.Record, mk *Marker) {
	f := b.flowFor(n, rec, true)
	if f == nil {
		return
	}
	f.static = true
	if f.source == 0 {
		source := "file"
		if s := rec.Str("source"); strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") {
			source = "http"
		}
		b.texts.Set(&f.source, source)
	}
	b.stageEffect(f, mk.Stage, mk.Effect, rec, "")
}
