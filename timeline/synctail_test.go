package timeline

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSyncErrorTail: k8s-25456's journal entry holding the KillPodSandbox
// part of a ≤1.20 sync error, its head on a line the poster left out,
// names the pod by its UID (killPodWithSyncResult's SyncResult target).
// Without the head, whether the pod was being terminated ("error killing
// pod: ") or SyncPod was killing it to make a new sandbox is not known:
// the failure is kept on the pod, at no stage, and its verdict is
// Incomplete, not a sandbox stall. The same part after its head is the
// sandbox's failure, as before.
func TestSyncErrorTail(t *testing.T) {
	const uid = "0e134e33-42dd-4aca-8aed-b08e244071cb"
	fl := buildFile(t, filepath.Join("..", "testdata", "wild", "k8s-25456-terminating.log"))
	if len(fl.Items) != 1 {
		t.Fatalf("%d flows", len(fl.Items))
	}
	f := fl.Items[0]
	// (Named by its UID alone: its reason says so first.)
	reason, named := strings.CutPrefix(f.Reason, neverNamed)
	if f.Pod.UID != uid || f.Verdict != VerdictIncomplete || !named || !strings.HasPrefix(reason, `failed to "KillPodSandbox" for "`+uid+`" with KillPodSandboxError: "rpc error`) || strings.HasSuffix(reason, "]") {
		t.Errorf("%s %s at %q: %q", f.Pod.UID, f.Verdict, f.StalledAt, f.Reason)
	}

	whole := "Feb 23 08:14:31 node-1 kubelet[7]: E0223 08:14:31.100000       7 pod_workers.go:182] Error syncing pod " + uid + " (\"web-0_default(" + uid + ")\"), skipping: failed to \"KillPodSandbox\" for \"" + uid + "\" with KillPodSandboxError: \"rpc error: code = 14 desc = grpc: the connection is unavailable\"\n"
	f = onlyFlow(t, buildBytes(t, "whole.log", []byte(whole)), "web-0")
	if f.Verdict != VerdictStalled || f.StalledAt != StSandbox {
		t.Errorf("whole line: %s at %q", f.Verdict, f.StalledAt)
	}
}
