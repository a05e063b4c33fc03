package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// The volume manager's waits and failures are marker data (pipeline.go),
// apart from the one line that names its pod only by UID, in its text.

// volumeFailureText reads the volume manager's unstructured
// "MountVolume.SetUp failed" lines (nestedpendingoperations' "Operation for
// … failed" among them): Add sends them here before any marker lookup.
func (b *Builder) volumeFailureText(n *nodeState, rec *parser.Record) {
	// Unstructured nestedpendingoperations lines name the pod by UID only:
	// … pod "name" (UID: "uid") …
	text := rec.Msg
	i := strings.Index(text, `(UID: "`)
	if i < 0 {
		return
	}
	rest := text[i+len(`(UID: "`):]
	j := strings.IndexByte(rest, '"')
	if j < 0 {
		return
	}
	f := n.byUID[rest[:j]]
	if f == nil {
		return
	}
	reason := text
	if k := strings.Index(text, "MountVolume.SetUp failed"); k >= 0 {
		reason = text[k:]
	}
	b.stageEffect(f, StVolumes, Fail, rec, reason)
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
