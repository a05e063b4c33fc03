package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Pods that only lines other than the sync loop's ADD name (issue #19,
// gaps 6 and 7): the wild excerpts' real lines, and where no thread shows
// a form, lines written from the kubelet's own templates at the versions
// named.

// wildLine is line n (from 1) of a wild excerpt.
func wildLine(t *testing.T, file string, n int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(wild, file))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		t.Fatalf("%s has no line %d", file, n)
	}
	return lines[n-1]
}

// TestVolumeManagerStartsPod: a ≤1.20 volume manager names the pod only
// in its text, pod "name" (UID: "uid") (operationexecutor
// GenerateMsgDetailed), with no namespace; nestedpendingoperations' error
// names it by that UID, its text quoted (%q). k8s-90725: the pod is stuck
// in its volumes on a configmap "not found".
func TestVolumeManagerStartsPod(t *testing.T) {
	const (
		file = "k8s-90725-configmap-notfound.log"
		uid  = "e4a7c0d9-1b35-4f82-a6e9-70d2c58b13f6"
		name = "kube-apiserver-7b5c9d8f46-x9w2p"
	)
	t.Run("excerpt", func(t *testing.T) {
		fl := buildWild(t, file)
		if len(fl.Items) != 1 {
			t.Fatalf("want one pod, got %d", len(fl.Items))
		}
		f := onlyFlow(t, fl, name)
		if f.Pod.UID != uid || f.Pod.Namespace != "" {
			t.Errorf("pod %s/%s (UID %q): the lines name it by name and UID, in no namespace", f.Pod.Namespace, f.Pod.Name, f.Pod.UID)
		}
		if f.Verdict != VerdictStalled || f.StalledAt != StVolumes {
			t.Errorf("verdict %s at %q, want Stalled at volumes", f.Verdict, f.StalledAt)
		}
		if !strings.Contains(f.Reason, `configmap "kube-apiserver" not found`) || strings.Contains(f.Reason, `\"`) {
			t.Errorf("reason %q: want the error unquoted, with its cause", f.Reason)
		}
		if ev := stageOf(f, StVolumes).Evidence; len(ev) == 0 || !strings.HasPrefix(ev[0].Text, "operationExecutor.MountVolume started") {
			t.Errorf("volumes evidence %+v: want the mount's start first", ev)
		}
	})
	t.Run("namespace from a later line", func(t *testing.T) {
		// kubelet.go ≤1.20: "Unable to attach or mount volumes for pod %q: %v; skipping pod", format.Pod(pod).
		unable := `kubelet.service: E0504 06:16:41.529917    6904 kubelet.go:1681] Unable to attach or mount volumes for pod "` + name + `_master-c1k9f3q70abd2m8xwz51(` + uid + `)": unmounted volumes=[config], unattached volumes=[config oauth]: timed out waiting for the condition; skipping pod`
		fl := buildLines(t, wildLine(t, file, 9), wildLine(t, file, 10), wildLine(t, file, 11), unable)
		f := onlyFlow(t, fl, name)
		if f.Pod.Namespace != "master-c1k9f3q70abd2m8xwz51" || f.Pod.UID != uid {
			t.Errorf("pod %s (UID %s): the name_ns(uid) line is the same pod", f.Pod.Key(), f.Pod.UID)
		}
		if s := stageOf(f, StVolumes); s.Attempts != 2 {
			t.Errorf("volumes: %d failed attempts, want 2", s.Attempts)
		}
	})
	t.Run("another UID is another pod", func(t *testing.T) {
		other := strings.ReplaceAll(wildLine(t, file, 11), uid, "0b6c2f3e-9d41-4a7b-8e25-3f1a6c9d7e02")
		fl := buildLines(t, wildLine(t, file, 9), other)
		if len(fl.Items) != 2 {
			t.Errorf("want two pods of the name, got %d", len(fl.Items))
		}
	})
	t.Run("a cut line starts no pod of a cut name or UID", func(t *testing.T) {
		line := wildLine(t, file, 9)
		cut := `pod "kube-api`
		if fl := buildLines(t, line[:strings.Index(line, cut)+len(cut)]); len(fl.Items) != 0 {
			t.Errorf("cut in the name: %d pods", len(fl.Items))
		}
		// The name is whole, the UID cut: the pod of the name, UID unknown.
		cut = `(UID: "e4a7c0d9-1b35-4f82-a6e9-70d2`
		if f := onlyFlow(t, buildLines(t, line[:strings.Index(line, cut)+len(cut)]), name); f.Pod.UID != "" {
			t.Errorf("cut in the UID: pod UID %q", f.Pod.UID)
		}
	})
}

// TestConfigSourceStartsStaticPod: the file source makes a static pod of
// its manifest (config/common.go applyDefaults, -v=5) and the sync loop
// never adds it (rke2-2080: node sync never completes). "Generated UID"
// names the manifest's name, no pod's.
func TestConfigSourceStartsStaticPod(t *testing.T) {
	fl := buildWild(t, "rke2-2080-etcd-static.log")
	if len(fl.Items) != 1 {
		t.Fatalf("want one pod, got %d", len(fl.Items))
	}
	f := onlyFlow(t, fl, "etcd-lab2-cp01a")
	if f.Pod.Namespace != "kube-system" || f.Pod.UID != "96a23f9e8f8b16b038f4d980a41a8939" || !f.Static || f.Source != "file" {
		t.Errorf("pod %s (UID %s, static %v, source %q): want the file source's static pod", f.Pod.Key(), f.Pod.UID, f.Static, f.Source)
	}
	if f.Verdict != VerdictIncomplete && f.Verdict != VerdictStalled {
		t.Errorf("verdict %s, want Incomplete or Stalled", f.Verdict)
	}
	if s := stageOf(f, StObserved); s.Status != StatusActive && s.Status != StatusStalled || s.Start == nil {
		t.Errorf("observed %s: the source has the pod, the sync loop has not added it", s.Status)
	}
	// The sync loop's ADD after it is the same pod.
	add := `I1103 14:48:16.000000    7214 kubelet.go:2103] "SyncLoop ADD" source="file" pods=[kube-system/etcd-lab2-cp01a]`
	data, _ := os.ReadFile(filepath.Join(wild, "rke2-2080-etcd-static.log"))
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "I1103") {
			lines = append(lines, l)
		}
	}
	f = onlyFlow(t, buildLines(t, append(lines, add)...), "etcd-lab2-cp01a")
	if s := stageOf(f, StObserved); s.Status != StatusDone || s.Start == nil || s.End == nil || !s.End.After(*s.Start) {
		t.Errorf("observed %s: from the source's read to the ADD", s.Status)
	}
}

// TestResizeCheckAttributed: computing a pod's actions, the runtime
// manager checks each running container for an in-place resize
// (computePodResizeAction, 1.33+) and logs "Missing actuated resource
// record" when it has no record of what it actuated (microk8s-5057,
// before the kubelet panics): a line of that running container.
func TestResizeCheckAttributed(t *testing.T) {
	fl := buildWild(t, "microk8s-5057-kubelite-panic.log")
	f := onlyFlow(t, fl, "coredns-5c7f8d9b4-q7wzk")
	if f.Pod.Namespace != "kube-system" || len(f.Containers) != 1 || f.Containers[0].Name != "coredns" || f.Containers[0].State != "running" {
		t.Errorf("pod %s, containers %+v: want coredns, running", f.Pod.Key(), f.Containers)
	}
	if f.Verdict == VerdictRunning || f.Verdict == VerdictStalled || f.Verdict == VerdictFailed {
		t.Errorf("verdict %s from one line that neither fails nor shows the pod ready", f.Verdict)
	}
}

// TestSyncLoopUpdateStartsPod: the config sources send UPDATE and
// RECONCILE only for pods they added (config.go), so a pod the log sees
// first in one was added before the log begins (blog-eks-outposts: the
// journal shown by systemctl status starts after the ADD, and cuts its
// other lines at the terminal's width). A list cut in its last name
// starts no pod of it.
func TestSyncLoopUpdateStartsPod(t *testing.T) {
	t.Run("excerpt", func(t *testing.T) {
		fl := buildWild(t, "blog-eks-outposts-systemctl-restart.log")
		f := onlyFlow(t, fl, "vfio-dpdk-3001-3002-node2-tx")
		if f.Pod.Namespace != "default" || f.Verdict != VerdictRunning || f.StalledAt != "" {
			t.Errorf("%s: %s at %q, want Running (its PLEG events and startup figures)", f.Pod.Key(), f.Verdict, f.StalledAt)
		}
		if f.Startup == nil || f.Startup.PodflowE2E != nil {
			t.Errorf("startup %+v: the pod was created before the log began, podflow cannot time its start", f.Startup)
		}
		if len(fl.Items) != 4 {
			t.Errorf("%d pods, want 4: the cut lines name none", len(fl.Items))
		}
	})
	// testdata/formats/klog-1.2x.log's RECONCILE (KObjSlice quoted), and
	// kubelet.go ≤1.20's printf UPDATE ("SyncLoop (UPDATE, %q): %q", format.Pods).
	reconcile := `I0315 10:20:30.200000    5120 kubelet.go:2095] "SyncLoop RECONCILE" source="api" pods="[shop/api-0 shop/web-1]"`
	for _, tc := range []struct {
		name, line string
		pods       []string
	}{
		{"RECONCILE", reconcile, []string{"shop/api-0", "shop/web-1"}},
		{"UPDATE", wildLine(t, "blog-eks-outposts-systemctl-restart.log", 16), []string{"default/vfio-dpdk-3001-3002-node2-tx"}},
		{"RECONCILE cut in its last name", reconcile[:len(reconcile)-4], []string{"shop/api-0"}},
		{"UPDATE cut in its list", `I0110 15:42:03.131667   21734 kubelet.go:2448] "SyncLoop UPDATE" source="api" pods=["default/vfio-dpdk-3001-3002-node2-tx","default/vfio-dpd>`, []string{"default/vfio-dpdk-3001-3002-node2-tx"}},
		{"printf UPDATE", `I0504 06:14:38.528913    6904 kubelet.go:1879] SyncLoop (UPDATE, "api"): "web-0_shop(482b3a81-7986-4a12-8465-5580d55927c7)"`, []string{"shop/web-0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildLines(t, tc.line)
			var got []string
			for _, f := range fl.Items {
				got = append(got, f.Pod.Key())
				if s := stageOf(f, StObserved); s.Status == StatusDone {
					t.Errorf("%s: observed done: the ADD is not in the log", f.Pod.Key())
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.pods, " ") {
				t.Errorf("pods %v, want %v", got, tc.pods)
			}
		})
	}
	t.Run("an UPDATE of a pod added is that pod", func(t *testing.T) {
		add := `Jan 10 15:41:50 ip-10-0-51-92.ec2.internal kubelet[21734]: I0110 15:41:50.000000   21734 kubelet.go:2432] "SyncLoop ADD" source="api" pods=["default/vfio-dpdk-3001-3002-node2-tx"]`
		fl := buildLines(t, add, wildLine(t, "blog-eks-outposts-systemctl-restart.log", 16))
		f := onlyFlow(t, fl, "vfio-dpdk-3001-3002-node2-tx")
		if s := stageOf(f, StObserved); s.Status != StatusDone {
			t.Errorf("observed %s: the ADD's pod", s.Status)
		}
	})
}

// TestRefusalEventStartsPod: the kubelet refuses a pod it has just added
// (HandlePodAdditions → rejectPod) with a Warning event whose reason is the
// admit reason; a log that begins after the ADD shows the pod by that
// event alone. k8s-124345's poster replaced the pod's name by
// <namespace>/<podname>: the placeholder is that pod's name, the PLEG
// line of it the same pod.
func TestRefusalEventStartsPod(t *testing.T) {
	fl := buildWild(t, "k8s-124345-gpu-unexpectedadmission.log")
	f := onlyFlow(t, fl, "<podname>")
	if f.Pod.Namespace != "<namespace>" || f.Verdict != VerdictRejected || f.StalledAt != StAdmitted || !strings.Contains(f.Reason, "UnexpectedAdmissionError") {
		t.Errorf("%s: %s at %q (%q), want Rejected at admitted by UnexpectedAdmissionError", f.Pod.Key(), f.Verdict, f.StalledAt, f.Reason)
	}
	if f.End == f.Start {
		t.Errorf("the PLEG line after the event is the pod's too: span %v–%v", f.Start, f.End)
	}
	// An event that is no refusal starts no pod: the kubelet's events
	// follow the pod's ADD.
	started := strings.NewReplacer(`type="Warning"`, `type="Normal"`, `reason="UnexpectedAdmissionError"`, `reason="Started"`).Replace(wildLine(t, "k8s-124345-gpu-unexpectedadmission.log", 2))
	if fl := buildLines(t, started); len(fl.Items) != 0 {
		t.Errorf("a Started event started %d pods", len(fl.Items))
	}
}
