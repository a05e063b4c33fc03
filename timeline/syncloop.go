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
	} else if !rec.Structured() {
		refs = legacyRefs(rec.Msg)
		if i := strings.Index(rec.Msg, `, "`); i >= 0 {
			if j := strings.Index(rec.Msg[i+3:], `"`); j >= 0 {
				source = rec.Msg[i+3 : i+3+j]
			}
		}
	}
	for _, r := range refs {
		switch mk.Stage {
		case StObserved:
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
				b.setText(&f.source, source)
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
		case StTerminating:
			b.syncLoopDelete(n, rec, r)
		case StTerminated:
			b.syncLoopRemove(n, rec, r, source)
		}
	}
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
