package timeline

import (
	"strings"

	"github.com/podflow/podflow/internal/runtimeid"
	"github.com/podflow/podflow/parser"
)

// Correlation of container-runtime (containerd, CRI-O) lines with the pods
// the kubelet's lines describe: by sandbox metadata, sandbox and container
// IDs, and for pulls by the image being pulled.

// runtimeLine joins containerd/CRI-O lines to pods by sandbox metadata,
// sandbox ID and container ID.
func (b *Builder) runtimeLine(n *nodeState, rec *parser.Record) {
	msg := rec.Msg
	switch {
	case strings.HasPrefix(msg, "RunPodSandbox for &PodSandboxMetadata{"):
		meta := msg[len("RunPodSandbox for &PodSandboxMetadata{"):]
		get := func(k string) string {
			i := strings.Index(meta, k+":")
			if i < 0 {
				return ""
			}
			rest := meta[i+len(k)+1:]
			j := strings.IndexAny(rest, ",}")
			if j < 0 {
				return rest
			}
			return rest[:j]
		}
		ref := PodRef{Name: get("Name"), Namespace: get("Namespace")}
		uid := get("Uid")
		f := b.resolve(n, ref, ref.Name != "", uid, false)
		if f == nil {
			b.unattributedLine(rec)
			return
		}
		switch {
		case strings.Contains(msg, "returns sandbox id"):
			id := lastQuoted(msg)
			if id != "" {
				f.addSandbox(n, b.idPack.Pack(id))
			}
			b.stageEffect(f, StSandbox, Complete, rec, "")
		case strings.Contains(msg, "failed"):
			b.stageEffect(f, StSandbox, Fail, rec, rec.Err)
		default:
			b.stageEffect(f, StSandbox, Begin, rec, "")
		}
	case strings.HasPrefix(msg, "CreateContainer within sandbox \""):
		sid := firstQuoted(msg)
		f := n.byID[runtimeid.Packed(b.idPack.Pack(sid))]
		if f == nil {
			b.orphanLine(n, sid, rec)
			return
		}
		name := ""
		if i := strings.Index(msg, "ContainerMetadata{Name:"); i >= 0 {
			rest := msg[i+len("ContainerMetadata{Name:"):]
			if j := strings.IndexByte(rest, ','); j >= 0 {
				name = rest[:j]
			}
		}
		if name == "" {
			return
		}
		c := b.container(f, name, "")
		switch {
		case strings.Contains(msg, "returns container id"):
			f.bindID(c, b.idPack.Pack(lastQuoted(msg)))
			b.containerEffect(f, c, CStCreated, Complete, rec, "")
		case strings.Contains(msg, "failed"):
			b.containerEffect(f, c, CStCreated, Fail, rec, rec.Err)
		default:
			b.containerEffect(f, c, CStCreated, Begin, rec, "")
		}
	case strings.HasPrefix(msg, "StartContainer for \""):
		id := firstQuoted(msg)
		p := b.idPack.Pack(id)
		f := n.byID[runtimeid.Packed(p)]
		if f == nil {
			b.orphanLine(n, id, rec)
			return
		}
		c := f.containerByID(p)
		if c == nil {
			return
		}
		switch {
		case strings.Contains(msg, "returns successfully"):
			// The runtime started it (the CRI StartContainer returned):
			// what the kubelet's "Started" event would say.
			if s := c.stages.get(CStStarted); s == nil || s.complete.IsZero() {
				b.containerEffect(f, c, CStStarted, Complete, rec, "")
				c.needsID = false // its ID is the one this line names
			} else {
				b.touch(f, rec)
			}
		case strings.Contains(msg, "failed"):
			b.containerEffect(f, c, CStStarted, Fail, rec, rec.Err)
		}
	default:
		if b.componentMarker(n, rec) {
			return
		}
		if id := firstQuoted(msg); id != "" {
			if f := n.byID[runtimeid.Packed(b.idPack.Pack(id))]; f != nil {
				b.touch(f, rec)
				return
			}
		}
		switch {
		case strings.HasPrefix(msg, "PullImage "):
			b.runtimePull(n, rec)
		case strings.HasPrefix(msg, pullProgressContainerd), strings.HasPrefix(msg, pullProgressCRIO):
			b.runtimePullProgress(n, rec) // (images.go)
		}
	}
}

// componentMarker reads a line of a component other than the kubelet that
// a marker of the reference lists: CRI-O's sandbox lines (sandbox.go), the
// node lifecycle controller's NotReady taints (nodes.go). It reports
// whether the line was read.
func (b *Builder) componentMarker(n *nodeState, rec *parser.Record) bool {
	for _, mk := range b.m.lookup(rec.Msg) {
		switch mk.Special {
		case SpecialSandboxCRI:
			return b.sandboxCRI(n, rec)
		case SpecialSandboxCRIO:
			return b.sandboxCRIO(n, rec, mk)
		case SpecialNodeTaint:
			return b.nodeTaint(n, rec)
		}
	}
	return false
}

// runtimePull joins the runtime's PullImage lines, which name only the
// image, to the containers the kubelet is pulling that image for on that
// node (their Pulling event seen, no Pulled yet); a failed pull fails their
// image stage with the runtime's own error.
func (b *Builder) runtimePull(n *nodeState, rec *parser.Record) {
	img := firstQuoted(rec.Msg)
	hit := false
	for _, f := range n.pulling[img].flows {
		for _, c := range f.containers {
			if b.texts.Text(c.image) != img || c.pullOpen.IsZero() {
				continue
			}
			hit = true
			switch {
			case strings.Contains(rec.Msg, "\" failed"), rec.Severity >= parser.SeverityError && rec.Err != "":
				b.containerEffect(f, c, CStImage, Fail, rec, rec.Err)
			default:
				b.touch(f, rec)
				if s := c.stages.get(CStImage); s != nil && len(s.evidence) < maxEvidence {
					b.addEvidence(s, b.stageEvidence(rec))
				}
			}
		}
	}
	if !hit && strings.Contains(rec.Msg, "\" failed") {
		b.imagePullLine(n, rec) // held until a line names the image's container (images.go)
	} else if !hit {
		b.unattributedLine(rec)
	}
}

// orphanLine holds a runtime line that names an ID no kubelet line has tied
// to a pod yet: the runtime logs StartContainer before the kubelet learns
// the container's ID. Finish counts it unattributed only if the ID stays
// unknown.
func (b *Builder) orphanLine(n *nodeState, id string, rec *parser.Record) {
	if id == "" || len(n.orphans) >= maxOrphans {
		b.unattributedLine(rec)
		return
	}
	if n.orphans == nil {
		n.orphans = map[string]*orphan{}
	}
	o := n.orphans[id]
	if o == nil {
		o = &orphan{}
		id = strings.Clone(id)
		n.orphans[id] = o
		n.orphanOrder = append(n.orphanOrder, id)
	}
	o.count++
	if len(o.evidence) < maxEvidence {
		o.evidence = append(o.evidence, b.evidenceOf(rec))
	}
}

type orphan struct {
	count    int
	evidence []Evidence
}

// maxOrphans bounds the IDs held per node; past it lines count at once.
const maxOrphans = 4096

// pullers are the pods pulling an image (nodeState.pulling).
type pullers struct {
	// image is the entry's key, the builder's own copy: a map write with
	// an equal key stores that key, so writes use this one, not the
	// record's text (which would keep its line alive).
	image string
	flows []*flowState
}

// notePulling keeps n.pulling current: f is pulling img while open.
func (n *nodeState) notePulling(f *flowState, img string, open bool) {
	p, ok := n.pulling[img]
	at := -1
	for i, g := range p.flows {
		if g == f {
			at = i
		}
	}
	switch {
	case open && at < 0:
		if n.pulling == nil {
			n.pulling = map[string]pullers{}
		}
		if !ok {
			p.image = strings.Clone(img)
		}
		p.flows = append(p.flows, f)
		n.pulling[p.image] = p
	case !open && at >= 0:
		p.flows = append(p.flows[:at], p.flows[at+1:]...)
		if len(p.flows) == 0 {
			delete(n.pulling, p.image)
		} else {
			n.pulling[p.image] = p
		}
	}
}
