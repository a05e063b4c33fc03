package timeline

import (
	"strings"
	"testing"
)

// TestBackOffPod: a structured "Error syncing pod" cut before its pod
// field (a pager or terminal) still names the pod in its err: a
// CrashLoopBackOff's message ends "restarting failed container=%s pod=%s"
// with format.Pod. The pod is taken from there whole, or cut inside its
// UID (name and namespace whole), or cut in its name when it is a static
// pod's (the node's name ends it); a part of the error naming no pod
// there, or a name cut short of a static pod's, gives no pod.
func TestBackOffPod(t *testing.T) {
	const uid = "8d2a47e1-6c3b-4f90-b5d8-1e7c0a9f3b62"
	line := func(cut string) string {
		return `Apr 05 09:12:43 kube-main1 kubelet[51736]: E0405 09:12:43.879031   51736 pod_workers.go:965] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"etcd\" with CrashLoopBackOff: \"back-off 5m0s restarting failed container=etcd pod=` + cut + "\n"
	}
	tests := []struct {
		name, in, pod, ns string
	}{
		// (The line whole names the pod in its pod field too.)
		{"whole", line(`etcd-kube-main1_kube-system(` + uid + `)\"" pod="kube-system/etcd-kube-main1"`), "etcd-kube-main1", "kube-system"},
		{"pod field cut", line(`etcd-kube-main1_kube-system(` + uid + `)\"" pod="kube-sys`), "etcd-kube-main1", "kube-system"},
		{"cut in the UID", line(`etcd-kube-main1_kube-system(8d2a4`), "etcd-kube-main1", "kube-system"},
		{"cut in the namespace", line(`etcd-kube-main1_kube-sy`), "etcd-kube-main1", ""},
		{"static pod's name whole", line(`etcd-kube-main1`), "etcd-kube-main1", ""},
		{"a pager's mark", line(`etcd-kube-main1_kube-system(8d2a4>`), "etcd-kube-main1", "kube-system"},
		{"cut in the name", line(`etcd-kube-ma`), "", ""},
		{"no pod= in the message", line(``)[:strings.Index(line(``), " pod=")] + "\n", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fl := buildBytes(t, "kubeadm.log", []byte(tt.in))
			if tt.pod == "" {
				if len(fl.Items) != 0 {
					t.Fatalf("%d flows: %s", len(fl.Items), fl.Items[0].Pod.Key())
				}
				return
			}
			f := onlyFlow(t, fl, tt.pod)
			if f.Pod.Namespace != tt.ns || f.Verdict != VerdictFailed || !strings.HasPrefix(f.Reason, "CrashLoopBackOff: back-off 5m0s restarting failed container=etcd") {
				t.Errorf("%s: %s at %q: %q", f.Pod.Key(), f.Verdict, f.StalledAt, f.Reason)
			}
		})
	}
}
