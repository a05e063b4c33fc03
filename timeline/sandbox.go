package timeline

import (
	"strings"

	"github.com/podflow/podflow/internal/runtimeid"
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
		f.addSandbox(n, b.idPack.Pack(id))
	} else if id := sandboxIDInError(rec.Err); id != "" {
		f.addSandbox(n, b.idPack.Pack(id))
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

// addSandbox keeps the sandbox ID p (b.idPack.Pack).
func (f *flowState) addSandbox(n *nodeState, p []byte) {
	if f.isSandbox(p) || len(f.sandboxes) >= maxSandboxes {
		return
	}
	id := runtimeid.Packed(p)
	f.sandboxes = append(f.sandboxes, id)
	n.byID[id] = f
}

// isSandbox reports whether p (b.idPack.Pack) is one of f's sandboxes.
func (f *flowState) isSandbox(p []byte) bool {
	for _, s := range f.sandboxes {
		if s == runtimeid.Packed(p) {
			return true
		}
	}
	return false
}

// maxSandboxes bounds the IDs kept for a pod whose sandbox fails for days.
const maxSandboxes = 64

// sandboxCRI reads a sandbox failure that names its pod only in the
// sandbox's name: the CRI client's "RunPodSandbox from runtime service
// failed" (remote_runtime.go) when the runtime puts the name in its error,
// dockershim and CRI-O as k8s_[POD_]<name>_<namespace>_<uid>_<attempt>,
// containerd as <name>_<namespace>_<uid>_<attempt> (its sandbox name, in
// "failed to reserve sandbox name %q": sandbox_run.go, makeSandboxName);
// and CRI-O's own lines of that failure: "error reserving pod name <name>
// for id <id>" (a retry while the first attempt still holds the name) and,
// at log_level debug, the RPC's "response error: <err>". Without the name
// the kubelet's next lines ("Failed to create sandbox for pod") name the
// pod. It reports whether the line named its pod.
func (b *Builder) sandboxCRI(n *nodeState, rec *parser.Record) bool {
	text, reason := rec.Err, ""
	if text == "" {
		text = rec.Msg
	}
	if rest, ok := cutResponseError(rec.Msg); ok {
		// CRI-O logs every failed RPC's error so: only RunPodSandbox's
		// (its request name, when the line carries one) is the sandbox's.
		if rpc := rec.Str("name"); rpc != "" && !strings.HasSuffix(rpc, "/RunPodSandbox") {
			return false
		}
		text, reason = rest, rest
	}
	ref, uid, ok := sandboxNameIn(text)
	if !ok {
		return false
	}
	f := b.resolve(n, ref, true, uid, true)
	if f == nil {
		return false
	}
	b.stageEffect(f, StSandbox, Fail, rec, reason)
	return true
}

// cutResponseError cuts CRI-O's "response error: " (1.22+ "Response
// error: ") from msg.
func cutResponseError(msg string) (string, bool) {
	if len(msg) > len("response error: ") && msg[1:len("response error: ")] == "esponse error: " && (msg[0] == 'r' || msg[0] == 'R') {
		return msg[len("response error: "):], true
	}
	return "", false
}

// sandboxNameIn finds the pod a sandbox's name in text names:
// k8s_[POD_]<name>_<namespace>_<uid>_<attempt>, or containerd's
// sandbox name "<name>_<namespace>_<uid>_<attempt>" quoted. A container's
// name (k8s_<container>_<pod>_<namespace>_<uid>_<attempt>) has no UID
// third, and is passed over.
func sandboxNameIn(text string) (ref PodRef, uid string, ok bool) {
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
			return PodRef{Name: parts[0], Namespace: parts[1]}, parts[2], true
		}
	}
	return PodRef{}, "", false
}

// sandboxCRIO reads CRI-O's own lines of a RunPodSandbox, which name the
// pod as <namespace>/<name>/POD (translateLabelsToDescription, the infra
// container's name POD): "Running pod sandbox: …" begins the sandbox,
// "Ran pod sandbox [<id> ]with infra container: …" completes it and tells
// its ID. It reports whether the line named its pod.
func (b *Builder) sandboxCRIO(n *nodeState, rec *parser.Record, mk *Marker) bool {
	msg := rec.Msg
	head, desc, ok := strings.Cut(msg, ": ")
	if !ok {
		return false
	}
	ns, rest, _ := strings.Cut(desc, "/")
	name, ctr, _ := strings.Cut(rest, "/")
	if ns == "" || name == "" || ctr != "POD" || strings.ContainsAny(desc, " \"") {
		return false
	}
	f := b.resolve(n, PodRef{Name: name, Namespace: ns}, true, "", true)
	if f == nil {
		return false
	}
	if mk.Effect == Complete {
		// "Ran pod sandbox <id> with infra container" (1.17+).
		id, _, _ := strings.Cut(strings.TrimPrefix(head, mk.Prefix), " ")
		if id != "with" && len(id) >= 12 {
			f.addSandbox(n, b.idPack.Pack(id))
		}
	}
	b.stageEffect(f, StSandbox, mk.Effect, rec, "")
	return true
}
