package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// kuberuntime creates a pod's sandbox (RunPodSandbox: the pause container
// and its network) before any container. The sandbox stage is marker data;
// what needs code is the sandbox's ID: PLEG events and the runtime's own
// lines name a sandbox only by it, and a PLEG ContainerStarted for the
// sandbox must not be taken for a container's.

// keepSandboxID keeps the sandbox ID a sandbox line names, of failed
// attempts too, so that PLEG and runtime lines that name only the ID find
// the pod.
func (b *Builder) keepSandboxID(n *nodeState, f *flowState, rec *parser.Record) {
	if id := rec.Str("podSandboxID"); id != "" {
		f.addSandbox(n, b.packID(id))
	} else if id := sandboxIDInError(rec.Err); id != "" {
		f.addSandbox(n, b.packID(id))
	}
}

// sandboxIDInError finds the ID in the runtime's `… for sandbox "<id>": …`.
func sandboxIDInError(err string) string {
	_, rest, ok := strings.Cut(err, `sandbox "`)
	if !ok {
		return ""
	}
	id, _, ok := strings.Cut(rest, `"`)
	if !ok || len(id) < 12 || strings.ContainsAny(id, " /") {
		return ""
	}
	return id
}

// addSandbox keeps the sandbox ID p (packID).
func (f *flowState) addSandbox(n *nodeState, p []byte) {
	if f.isSandbox(p) || len(f.sandboxes) >= maxSandboxes {
		return
	}
	id := rid(p)
	f.sandboxes = append(f.sandboxes, id)
	n.byID[id] = f
}

// isSandbox reports whether p (packID) is one of f's sandboxes.
func (f *flowState) isSandbox(p []byte) bool {
	for _, s := range f.sandboxes {
		if s == rid(p) {
			return true
		}
	}
	return false
}

// maxSandboxes bounds the IDs kept for a pod whose sandbox fails for days.
const maxSandboxes = 64

// sandboxCRI reads the CRI client's "RunPodSandbox from runtime service
// failed" (remote_runtime.go), which names no pod: only a runtime that
// names the sandbox in its error tells whose it is, dockershim and CRI-O
// as k8s_[POD_]<name>_<namespace>_<uid>_<attempt>, containerd as
// <name>_<namespace>_<uid>_<attempt> (its sandbox name, in "failed to
// reserve sandbox name %q": sandbox_run.go, makeSandboxName). Without it
// the kubelet's next lines ("Failed to create sandbox for pod") name the
// pod.
func (b *Builder) sandboxCRI(n *nodeState, rec *parser.Record) {
	text := rec.Err
	if text == "" {
		text = rec.Msg
	}
	for _, mark := range [...]string{"k8s_", `sandbox name "`} {
		for rest := text; ; {
			i := strings.Index(rest, mark)
			if i < 0 {
				break
			}
			rest = rest[i+len(mark):]
			parts := strings.SplitN(strings.TrimPrefix(rest, "POD_"), "_", 4)
			if len(parts) < 4 || !looksLikeUID(parts[2]) || parts[0] == "" || parts[1] == "" {
				continue
			}
			if f := b.resolve(n, PodRef{Name: parts[0], Namespace: parts[1]}, true, parts[2], true); f != nil {
				b.stageEffect(f, StSandbox, Fail, rec, "")
			}
			return
		}
	}
}
