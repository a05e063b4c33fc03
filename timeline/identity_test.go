package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// A kubelet restart replays every pod as SyncLoop ADD: the same pod (same
// UID) logged by two kubelet runs is one flow, with a KubeletRestart finding.
func TestKubeletRestartReplayIsNotANewPod(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/01-happy-path.log"))
	if err != nil {
		t.Fatal(err)
	}
	fl := buildBytes(t, "restart.log", append(append([]byte{}, data...), data...))
	f := onlyFlow(t, fl, "web-7d9f8c6b5-x2kqp")
	if f.Verdict != VerdictRunning {
		t.Errorf("verdict %s", f.Verdict)
	}
	restarts := 0
	for _, fd := range fl.Findings {
		if fd.Kind == "KubeletRestart" {
			restarts++
		}
	}
	if restarts != 1 || len(fl.Nodes) != 1 || fl.Nodes[0].Restarts != 1 {
		t.Errorf("restart findings %d, nodes %+v", restarts, fl.Nodes)
	}
}

// A pod deleted and recreated under the same name is two flows.
func TestRecreatedPodIsTwoFlows(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/06-pod-deletion-api.log"))
	if err != nil {
		t.Fatal(err)
	}
	// The second incarnation: the same story under a new UID.
	old := []byte("b6c3b3f9")
	i := bytes.Index(data, []byte(`podUID="`))
	if i < 0 {
		t.Fatal("no podUID in the log")
	}
	old = data[i+8 : i+8+36]
	second := bytes.ReplaceAll(data, old, []byte("99999999-9999-4999-8999-999999999999"))
	fl := buildBytes(t, "recreate.log", append(append([]byte{}, data...), second...))
	var uids []string
	for _, f := range fl.Items {
		if f.Pod.Name == "web-7d9f8c6b5-del42" {
			uids = append(uids, f.Pod.UID)
			if f.Verdict != VerdictTerminated {
				t.Errorf("incarnation %s: %s", f.Pod.UID, f.Verdict)
			}
		}
	}
	if len(uids) != 2 || uids[0] == uids[1] {
		t.Fatalf("want two incarnations with distinct UIDs, got %v", uids)
	}
}

func TestStartupPLEGIsNotAFinding(t *testing.T) {
	fl := buildFile(t, filepath.Join(corpus, "v1.28.15/01-happy-path.log"))
	for _, n := range fl.Nodes {
		if !n.PLEGHealthy {
			t.Errorf("node %s: the start-up 'pleg has yet to be successful' marked PLEG unhealthy", n.Name)
		}
	}
}
