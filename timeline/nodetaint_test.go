package timeline

import (
	"slices"
	"strings"
	"testing"
)

// TestControllerNotReadyTaint: in a journal of several daemons,
// kube-controller-manager's node lifecycle controller says which nodes are
// NotReady (node_lifecycle_controller.go taints a node whose Ready
// condition is False, or Unknown: "unresponsive"). A line about the node
// whose kubelet the log holds is a NodeNotReady finding on it; the other
// nodes of the cluster it names are not this log's.
func TestControllerNotReadyTaint(t *testing.T) {
	// notes-zh: a binary 1.23 install whose CNI never came up.
	fl := buildWild(t, "notes-zh-binary-calico-install-cni.log")
	kinds := findingKinds(fl)
	slices.Sort(kinds)
	if !slices.Equal(kinds, []string{"NetworkNotReady", "NodeNotReady"}) || len(fl.Nodes) != 1 {
		t.Fatalf("findings %v on %d nodes, want NetworkNotReady and NodeNotReady on kube-ctl1 alone", kinds, len(fl.Nodes))
	}
	for _, fd := range fl.Findings {
		if fd.Kind != "NodeNotReady" {
			continue
		}
		// Lines 54 and 57 name kube-ctl1; the nine others name kube-ctl2,
		// kube-ctl3 and kube-wk1.
		if fd.Node != "kube-ctl1" || fd.Count != 2 || len(fd.Evidence) != 2 || fd.Evidence[0].Line != 54 || fd.Evidence[1].Line != 57 {
			t.Errorf("NodeNotReady %+v, want kube-ctl1's two lines (54, 57)", fd)
		}
	}

	// The same lines in the structured form (klog InfoS: node=, timeStamp=).
	kubelet := `May 14 10:46:12 kube-ctl1 kubelet[6142]: E0514 10:46:12.363283    6142 kubelet.go:2347] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:docker: network plugin is not ready: cni config uninitialized"`
	structured := func(msg, node string) string {
		return `May 14 10:46:13 kube-ctl1 kube-controller-manager[4387]: I0514 10:46:13.707328    4387 node_lifecycle_controller.go:868] "` + msg + `" node="` + node + `" timeStamp="2024-05-14 10:46:13.707328342 +0800 CST m=+9966.472868773"`
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  bool
	}{
		{"NotReady", []string{kubelet, structured("Node is NotReady. Adding it to the Taint queue", "kube-ctl1")}, true},
		{"unresponsive", []string{kubelet, structured("Node is unresponsive. Adding it to the Taint queue", "kube-ctl1")}, true},
		{"another node", []string{kubelet, structured("Node is NotReady. Adding it to the Taint queue", "kube-ctl2")}, false},
		{"no kubelet line", []string{structured("Node is NotReady. Adding it to the Taint queue", "kube-ctl1")}, false},
	} {
		got := slices.Contains(findingKinds(buildLines(t, tc.lines...)), "NodeNotReady")
		if got != tc.want {
			t.Errorf("%s: NodeNotReady %v, want %v (%s)", tc.name, got, tc.want, strings.Join(tc.lines, " | "))
		}
	}
}
