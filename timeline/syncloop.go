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
			case f == nil, f.terminal():
				f = b.newFlow(n, r)
			case f.static && source == "api":
				// The mirror pod of a static pod.
			case f.source != 0 && f.stages.get(StTerminating) != nil:
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
		case StTerminating:
			b.syncLoopDelete(n, rec, r)
		case StTerminated:
			b.syncLoopRemove(n, rec, r, source)
		}
	}
}
