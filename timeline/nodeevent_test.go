package timeline

import (
	"path/filepath"
	"testing"
)

// TestNodeStartingEvent: the kubelet's Starting event about its node
// ("Starting kubelet.", kubelet.go) is a start line. flyte-3958's export
// of a GKE node's events keeps two of them, 2m28s apart, and nothing else
// of the kubelet: one restart. A log that has the event besides the
// kubelet's other start lines (01-happy-path: one process) has none.
func TestNodeStartingEvent(t *testing.T) {
	fl := buildFile(t, filepath.Join("..", "testdata", "wild", "flyte-3958-gke-nodeaffinity-json.log"))
	if n := findings(fl, "KubeletRestart"); n != 1 || len(fl.Nodes) != 1 || fl.Nodes[0].Restarts != 1 || len(fl.Items) != 0 {
		t.Errorf("%d restarts, %d nodes (%+v), %d pods", n, len(fl.Nodes), fl.Nodes, len(fl.Items))
	}
	fl = buildFile(t, filepath.Join("..", "testdata", "corpus", "v1.36.3", "01-happy-path.log"))
	if n := findings(fl, "KubeletRestart"); n != 0 {
		t.Errorf("01-happy-path: %d restarts", n)
	}
}
