package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// Pod-level results of pasted event tables and events (issue #19, gaps 1,
// 3 and 9), on the wild corpus's excerpts: what a table prints without a
// field path still belongs to a container, a crash loop is a back-off
// after the last start, and a stage's reason is the failure under the
// volume manager's timeout.

// buildWildAs builds an input as the CLI does, judged in full or for rows
// (FinishRows, get pods): both must say the same of a pod.
func buildWildAs(t *testing.T, path string, rows bool) *FlowList {
	t.Helper()
	srcs, errs := parser.Discover([]string{path}, nil)
	if len(errs) > 0 || len(srcs) == 0 {
		t.Fatalf("%s: %v", path, errs)
	}
	b := NewBuilder(Options{})
	mr := parser.NewMultiReader(srcs, parser.Options{Want: b.Want, Rescue: b.Rescue(), Borrow: true, Quoted: b.QuotedFields()})
	defer mr.Close()
	for {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		b.Add(rec)
	}
	b.Inputs(mr.SourceStats())
	if rows {
		return b.FinishRows(nil)
	}
	return b.Finish()
}

// wildEdited writes a wild excerpt with edit applied to its text to a
// file of the test's and returns its path.
func wildEdited(t *testing.T, file string, edit func(string) string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(wild, file))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), file)
	if err := os.WriteFile(path, []byte(edit(string(data))), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// k8s#110977: kube-proxy's describe table, from a 1.24 kubelet whose
// BackOff event says "Back-off restarting failed container" and no name
// (kuberuntime_manager.go doBackOff records it against the container's
// reference, which the table does not print). The pod has one container:
// the back-off is kube-proxy's, 3m ago, after its last start 48m ago and
// its kills since: a crash loop, not a recovery.
func TestContainerlessBackOffIsTheSoleContainers(t *testing.T) {
	const file = "k8s-110977-kubeproxy-envvars.log"
	for _, rows := range []bool{false, true} {
		f := onlyFlow(t, buildWildAs(t, filepath.Join(wild, file), rows), "kube-proxy-7xk2d")
		if f.Verdict != VerdictFailed || f.StalledAt != StRunning || f.Container != "kube-proxy" || f.ContainerStage != CStStarted {
			t.Errorf("rows %v: %s at %s/%s:%s; want Failed at running/kube-proxy:started", rows, f.Verdict, f.StalledAt, f.Container, f.ContainerStage)
		}
		if !strings.Contains(f.Reason, "Back-off restarting failed container") {
			t.Errorf("rows %v: reason %q", rows, f.Reason)
		}
	}
	// The rows count their events: BackOff (x164 over 49m) is 164 back-offs,
	// Started (x3 over 52m) three starts, two of them restarts.
	if c := containerOf(onlyFlow(t, buildWild(t, file), "kube-proxy-7xk2d"), "kube-proxy"); c.BackOffs != 164 || c.Restarts != 2 {
		t.Errorf("kube-proxy: %d back-offs, %d restarts; want 164 and 2 (the rows' counts)", c.BackOffs, c.Restarts)
	}
	// With a second container in the table, the back-off could be either's:
	// it is no one's, and the pod is judged on what the rows name.
	two := wildEdited(t, file, func(s string) string {
		started := "  Normal   Started         48m (x3 over 52m)     kubelet            Started container kube-proxy\n"
		if !strings.Contains(s, started) {
			t.Fatal("the excerpt's Started row is not where the test looks")
		}
		return strings.Replace(s, started, started+strings.Replace(started, "kube-proxy", "sidecar", 1), 1)
	})
	f := onlyFlow(t, buildWildAs(t, two, false), "kube-proxy-7xk2d")
	for _, c := range f.Containers {
		if c.BackOffs != 0 {
			t.Errorf("two containers: %s has %d back-offs; a back-off that names none is neither's", c.Name, c.BackOffs)
		}
	}
	if f.Verdict == VerdictFailed {
		t.Errorf("two containers: %s (%s), from a back-off no row gives a container", f.Verdict, f.Reason)
	}
}

// gadget#187: `kubectl get events -o custom-columns` prints no field path:
// the Unhealthy rows name no container and the Killing row names it in
// its words ("Container gadget failed liveness probe, will be
// restarted"). The prober records both against the container's reference,
// and the pod has one container: the Running pod names gadget, at its
// start, with the probe's failures.
func TestProbeEventsWithoutFieldPath(t *testing.T) {
	const file = "gadget-187-liveness-events.log"
	for _, rows := range []bool{false, true} {
		f := onlyFlow(t, buildWildAs(t, filepath.Join(wild, file), rows), "gadget-x4k2p")
		if f.Verdict != VerdictRunning || f.StalledAt != "" || f.Container != "gadget" || f.ContainerStage != CStStarted {
			t.Errorf("rows %v: %s at %q, container %q/%q; want Running, gadget/started", rows, f.Verdict, f.StalledAt, f.Container, f.ContainerStage)
		}
		if !strings.HasPrefix(f.Reason, "Liveness probe failed (restarted 1 time)") {
			t.Errorf("rows %v: reason %q", rows, f.Reason)
		}
	}
	c := containerOf(onlyFlow(t, buildWild(t, file), "gadget-x4k2p"), "gadget")
	if c.Restarts != 1 || c.Probe == nil || *c.Probe != (Probe{Type: "Liveness", Message: "Liveness probe failed", Failures: 3, Restart: true}) {
		t.Errorf("gadget: restarts %d, probe %+v; want 1 restart, 3 liveness failures that restarted it", c.Restarts, c.Probe)
	}
	// A row (get pods) says the restarts the full judgement says, from
	// kubelet lines as from a table.
	for _, tc := range []struct{ file, pod string }{{file, "gadget-x4k2p"}, {"vijayrod-demo-liveness-aks.log", "liveness-exec"}} {
		full := onlyFlow(t, buildWildAs(t, filepath.Join(wild, tc.file), false), tc.pod)
		row := onlyFlow(t, buildWildAs(t, filepath.Join(wild, tc.file), true), tc.pod)
		if row.Reason != full.Reason || !strings.Contains(full.Reason, "(restarted 1 time)") {
			t.Errorf("%s: row's reason %q, full %q", tc.file, row.Reason, full.Reason)
		}
	}
}

// k8s#21029: a pull the events alone show (at -v=2, nothing else of the
// pod), two minutes against the pull's one-minute budget. The pod is not
// known to run, but what held it up is service1's pull: the pod names
// service1, at its image, in full and in its row.
func TestIncompletePodNamesItsTroublesContainer(t *testing.T) {
	for _, rows := range []bool{false, true} {
		f := onlyFlow(t, buildWildAs(t, filepath.Join(wild, "k8s-21029-slow-pull.log"), rows), "service1-q4m8z")
		if f.Verdict != VerdictIncomplete && f.Verdict != VerdictRunning || f.Container != "service1" || f.ContainerStage != CStImage {
			t.Errorf("rows %v: %s, container %q/%q; want Incomplete or Running, service1/image", rows, f.Verdict, f.Container, f.ContainerStage)
		}
	}
	f := onlyFlow(t, buildWild(t, "k8s-21029-slow-pull.log"), "service1-q4m8z")
	if len(f.Trouble) != 1 || f.Trouble[0].Container != "service1" || f.Trouble[0].Stage != CStImage || f.Trouble[0].Attempts != 0 {
		t.Errorf("trouble %+v; want service1's pull, over its budget, with no failure", f.Trouble)
	}
}

// k8s#108963: the events of a pod whose NFS mount the server refuses. The
// kubelet's "Unable to attach or mount volumes: unmounted volumes=[data]…:
// timed out waiting for the condition" (syncPod's WaitForAttachAndMount)
// only says the wait ran out; why is the operation executor's
// "MountVolume.SetUp failed … access denied by server". The rows by their
// times: a timeout 5m14s ago, the SetUp failure 58s ago, a timeout 33s
// ago. The stage's reason is the SetUp failure, which replaces the first
// timeout and is not replaced by the last. A wait with no failure under it
// stays the reason (ceph-csi#3476, whose attach failure is the
// controller's row, not the kubelet's).
func TestVolumeWaitKeepsTheMountFailure(t *testing.T) {
	for _, rows := range []bool{false, true} {
		f := onlyFlow(t, buildWildAs(t, filepath.Join(wild, "k8s-108963-nfs-access-denied.log"), rows), "notes-db-6b8f7c9d54-h7kxp")
		if f.Verdict != VerdictStalled || f.StalledAt != StVolumes || !strings.HasPrefix(f.Reason, `MountVolume.SetUp failed for volume "pv07"`) || !strings.Contains(f.Reason, "access denied by server") {
			t.Errorf("rows %v: %s at %s: %q", rows, f.Verdict, f.StalledAt, f.Reason)
		}
		if st := stageOf(f, StVolumes); !rows && st.Attempts != 3 {
			t.Errorf("volumes: %d attempts, want 3 (one a row)", st.Attempts)
		}
	}
	f := onlyFlow(t, buildWild(t, "ceph-csi-3476-attacher-timeout.log"), "cephfs-app-pod-2")
	if f.Verdict != VerdictStalled || f.StalledAt != StVolumes || !strings.Contains(f.Reason, "unmounted volumes=[shared-fs]") {
		t.Errorf("ceph-csi#3476: %s at %s: %q; want the wait's words", f.Verdict, f.StalledAt, f.Reason)
	}
}
