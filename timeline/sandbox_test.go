package timeline

import (
	"os"
	"strings"
	"testing"
)

// TestCRIOSandboxLinesNameTheirPod (issue #19, gap 2): CRI-O's own lines
// of a RunPodSandbox (server/sandbox_run_linux.go) name the pod as
// <namespace>/<name>/POD, or only in the sandbox's name
// k8s_<name>_<namespace>_<uid>_<attempt> inside an error: a CRI-O log
// alone tells which pods' sandboxes failed and why.
func TestCRIOSandboxLinesNameTheirPod(t *testing.T) {
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	// crio-3571: an air-gapped 1.18 install whose CRI-O could not pull its
	// pause image; the kubelet's retries of kube-apiserver's sandbox found
	// the name still reserved by the first attempt, and etcd's failure
	// (a debug "Response error") names the pause image.
	airgap := read("../testdata/wild/crio-3571-pause-airgap.log")
	fl := buildBytes(t, "crio-3571", []byte(airgap))
	for _, tc := range []struct {
		pod, uid, reason string
		begun            bool
	}{
		{"kube-apiserver-cp-1", "de7264cce2438a078c5d9b9e74e25328", "name is reserved", true},
		{"etcd-cp-1", "6a10090f6133c6aef9bdbc3e7eed6c38", "docker://k8s.gcr.io/pause:3.1", false},
	} {
		f := onlyFlow(t, fl, tc.pod)
		s := stageOf(f, StSandbox)
		if f.Pod.Namespace != "kube-system" || f.Pod.UID != tc.uid || f.Verdict != VerdictStalled || f.StalledAt != StSandbox || s.Attempts != 1 {
			t.Errorf("%s: %s/%s %s at %q, %d attempts; want kube-system/%s Stalled at sandbox, 1 attempt", tc.pod, f.Pod.Namespace, f.Pod.UID, f.Verdict, f.StalledAt, s.Attempts, tc.uid)
		}
		if !strings.Contains(f.Reason, tc.reason) || strings.HasPrefix(f.Reason, "Response error") {
			t.Errorf("%s: reason %q, want the RPC's error with %q", tc.pod, f.Reason, tc.reason)
		}
		// "Attempting to run pod sandbox with infra container" begins it.
		if begun := len(s.Evidence) > 0 && strings.Contains(s.Evidence[0].Text, "infra container: kube-system/"+tc.pod+"/POD"); begun != tc.begun {
			t.Errorf("%s: sandbox evidence %+v", tc.pod, s.Evidence)
		}
	}

	// A later CRI-O's pair (formats/crio.log): "Running pod sandbox" and
	// "Ran pod sandbox <id>": the sandbox done, its ID the pod's.
	f := onlyFlow(t, buildFile(t, "../testdata/formats/crio.log"), "web-7d9f8c6b5-x2kqp")
	if s := stageOf(f, StSandbox); s.Status != StatusDone || s.Start == nil || s.End == nil || !s.End.After(*s.Start) {
		t.Errorf("sandbox %s %v–%v, want done from Running to Ran", s.Status, s.Start, s.End)
	}
	if len(f.Sandboxes) != 1 || !strings.HasPrefix(f.Sandboxes[0], "9e15054750847faa") {
		t.Errorf("sandboxes %v, want the one Ran pod sandbox names", f.Sandboxes)
	}

	// The etcd line again, as other RPCs' errors would read: CRI-O logs
	// every failed RPC's error, and only RunPodSandbox's is the sandbox's;
	// a container's name (k8s_<container>_<pod>_<ns>_<uid>_<attempt>)
	// names no sandbox.
	etcd := ""
	for _, l := range strings.Split(airgap, "\n") {
		if strings.Contains(l, "Response error") {
			etcd = l
		}
	}
	for _, line := range []string{
		etcd + " name=/runtime.v1alpha2.RuntimeService/StopPodSandbox",
		strings.Replace(etcd, "k8s_etcd-cp-1_", "k8s_etcd_etcd-cp-1_", 1),
	} {
		if fl := buildBytes(t, "variant", []byte(line+"\n")); len(fl.Items) != 0 {
			t.Errorf("%q gave pod %s", line, fl.Items[0].Pod.Key())
		}
	}
	if fl := buildBytes(t, "variant", []byte(etcd+" name=/runtime.v1alpha2.RuntimeService/RunPodSandbox\n")); len(fl.Items) != 1 {
		t.Errorf("RunPodSandbox's response error gave %d pods, want etcd-cp-1", len(fl.Items))
	}
}
