package timeline

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// Lifecycle after start (issue #19, gaps 3–5): a container's kill is not
// the pod's termination, eviction and admission end a pod as the kubelet
// says, and the node's trouble is a finding in every kubelet's words. The
// lines are the wild corpus's (testdata/wild, from public threads) or, where
// no thread shows a form, written from the kubelet's own templates
// (kuberuntime_container.go, prober.go, eviction_manager.go, predicate.go,
// kubelet_node_status.go at the versions named).

const wild = "../testdata/wild"

// buildLines builds lines as the CLI reads them: with Want and Borrow, so
// that the record's strings are the parser's, valid until the next record.
func buildLines(t *testing.T, lines ...string) *FlowList {
	t.Helper()
	b := NewBuilder(Options{})
	r := parser.NewReader(strings.NewReader(strings.Join(lines, "\n")+"\n"), parser.Options{Name: "test.log", Year: 2025, Want: b.Want, Rescue: b.Rescue(), Borrow: true, Quoted: b.QuotedFields()})
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		b.Add(rec)
	}
	st := r.Stats()
	b.InputSpan("", st.FirstTime, st.LastTime)
	return b.Finish()
}

// buildWild builds a wild excerpt as the CLI does.
func buildWild(t *testing.T, file string) *FlowList {
	t.Helper()
	return buildWildAs(t, filepath.Join(wild, file), false)
}

func findingKinds(fl *FlowList) []string {
	var kinds []string
	for _, f := range fl.Findings {
		kinds = append(kinds, f.Kind)
	}
	return kinds
}

func hasTermination(f Flow) bool {
	for _, s := range f.Stages {
		if slices.Contains(TerminationStages, s.ID) {
			return true
		}
	}
	return false
}

// A liveness probe's kill, then PLEG's ContainerDied and ContainerStarted
// under a new ID, is the container's restart: the pod keeps running, the
// restart is counted, and the probe's failure is the pod's reason.
func TestProbeKillIsARestart(t *testing.T) {
	t.Run("1.31 structured (vijayrod liveness demo)", func(t *testing.T) {
		f := onlyFlow(t, buildWild(t, "vijayrod-demo-liveness-aks.log"), "liveness-exec")
		c := containerOf(f, "liveness")
		if f.Verdict != VerdictRunning || f.StalledAt != "" || hasTermination(f) {
			t.Errorf("verdict %s at %q, termination %v; want Running, no termination", f.Verdict, f.StalledAt, hasTermination(f))
		}
		if f.Container != "liveness" || f.ContainerStage != CStStarted || !strings.Contains(f.Reason, "Liveness probe failed") {
			t.Errorf("container %q/%q reason %q", f.Container, f.ContainerStage, f.Reason)
		}
		if c.Restarts != 1 || len(c.IDs) != 2 || c.Probe == nil || *c.Probe != (Probe{Type: "Liveness", Message: "Liveness probe failed", Failures: 3, Restart: true}) || c.State != "running" {
			t.Errorf("container: restarts %d, ids %v, probe %+v, state %q", c.Restarts, c.IDs, c.Probe, c.State)
		}
	})
	t.Run("≤1.20 printf", func(t *testing.T) {
		// prober.go and kuberuntime_container.go (1.20) templates; at -v=2
		// no line gives the container's ID to its name, so the kill's
		// container is not known: it still begins no termination.
		const uid = "3f1c2b7a-9d0e-4f5a-8b6c-1d2e3f4a5b6c"
		fl := buildLines(t,
			`I0701 16:04:10.000000    4242 kubelet.go:1870] SyncLoop (ADD, "api"): "gadget-x4k2p_kube-system(`+uid+`)"`,
			`I0701 16:04:23.100000    4242 kubelet.go:1908] SyncLoop (PLEG): "gadget-x4k2p_kube-system(`+uid+`)", event: &pleg.PodLifecycleEvent{ID:"`+uid+`", Type:"ContainerStarted", Data:"aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111"}`,
			`I0701 16:09:33.000000    4242 prober.go:117] Liveness probe for "gadget-x4k2p_kube-system(`+uid+`):gadget" failed (failure): timeout: context deadline exceeded`,
			`I0701 16:09:59.000000    4242 kuberuntime_container.go:635] Killing container "docker://bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222" with a 30 second grace period`,
		)
		f := onlyFlow(t, fl, "gadget-x4k2p")
		if c := containerOf(f, "gadget"); hasTermination(f) || c.Probe == nil || *c.Probe != (Probe{Type: "Liveness", Message: "Liveness probe failed: timeout: context deadline exceeded", Failures: 1}) {
			t.Errorf("verdict %s, termination %v, probe %+v", f.Verdict, hasTermination(f), c.Probe)
		}
		// The same kill after the ≤1.20 SyncLoop DELETE is the pod's.
		fl = buildLines(t,
			`I0701 16:04:10.000000    4242 kubelet.go:1870] SyncLoop (ADD, "api"): "gadget-x4k2p_kube-system(`+uid+`)"`,
			`I0701 16:04:23.100000    4242 kubelet.go:1908] SyncLoop (PLEG): "gadget-x4k2p_kube-system(`+uid+`)", event: &pleg.PodLifecycleEvent{ID:"`+uid+`", Type:"ContainerStarted", Data:"aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111"}`,
			`I0701 16:09:58.000000    4242 kubelet.go:1886] SyncLoop (DELETE, "api"): "gadget-x4k2p_kube-system(`+uid+`)"`,
			`I0701 16:09:59.000000    4242 kuberuntime_container.go:635] Killing container "docker://bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222" with a 30 second grace period`,
		)
		if f := onlyFlow(t, fl, "gadget-x4k2p"); f.Verdict != VerdictTerminating {
			t.Errorf("after DELETE: verdict %s, want Terminating", f.Verdict)
		}
	})
	t.Run("a kill after SyncLoop DELETE is termination", func(t *testing.T) {
		f := onlyFlow(t, buildLines(t,
			`I0516 14:13:04.571204    3377 kubelet.go:2407] "SyncLoop ADD" source="api" pods=["default/web-0"]`,
			`I0516 14:20:00.000000    3377 kubelet.go:2423] "SyncLoop DELETE" source="api" pods=["default/web-0"]`,
			`I0516 14:20:00.100000    3377 kuberuntime_container.go:808] "Killing container with a grace period" pod="default/web-0" podUID="695b9a26-2c68-4845-8b46-1e85d7daf771" containerName="web" containerID="containerd://c7578523c3e6a54c694d68b85d75f5c208b92febbd953a6cf85f8e2946d67960" gracePeriod=30`,
		), "web-0")
		if f.Verdict != VerdictTerminating || stageOf(f, StTerminating).Status != StatusDone {
			t.Errorf("verdict %s, terminating %s", f.Verdict, stageOf(f, StTerminating).Status)
		}
	})
	t.Run("≤1.20 pod killer", func(t *testing.T) {
		f := onlyFlow(t, buildWild(t, "deckhouse-336-terminating.log"), "upmeter-control-plane-scheduler-5b09f3c1-qzt7n")
		if f.Verdict != VerdictTerminating {
			t.Errorf("verdict %s, want Terminating", f.Verdict)
		}
	})
}

// An evicted pod is Failed with reason Evicted and the resource, and the
// node has the pressure the eviction manager reclaimed.
func TestEviction(t *testing.T) {
	t.Run("1.26 ranked and killed (vijayrod memory demo)", func(t *testing.T) {
		// The kubelet's lines name no signal; the pod's status pasted from
		// kubectl describe above them (Status: Failed, Reason: Evicted,
		// Message: The node was low on resource: memory. …, the block
		// named by the command line before it) does. It is the same pod
		// on the same node: the paste has no host, the journal one.
		for _, rows := range []bool{false, true} {
			fl := buildWildAs(t, filepath.Join(wild, "vijayrod-demo-eviction-memory-aks.log"), rows)
			f := onlyFlow(t, fl, "nginx")
			if f.Verdict != VerdictFailed || !strings.HasPrefix(f.Reason, "Evicted: The node was low on resource: memory.") || f.Pod.Namespace != "default" {
				t.Errorf("rows %v: %s verdict %s reason %q", rows, f.Pod.Key(), f.Verdict, f.Reason)
			}
			const node = "aks-nodepool1-58310927-vmss000001"
			if len(fl.Nodes) != 1 || fl.Nodes[0].Name != node || f.Node != node {
				t.Errorf("rows %v: nodes %v, the pod's %q: want %s alone", rows, fl.Nodes, f.Node, node)
			}
			if len(fl.Findings) != 1 || fl.Findings[0].Kind != "MemoryPressure" || fl.Findings[0].Node != node || !slices.Contains(fl.Findings[0].Pods, f.Pod) {
				t.Errorf("rows %v: findings %+v: want MemoryPressure on %s, with nginx", rows, fl.Findings, node)
			}
		}
	})
	t.Run("1.26 the status manager's patch", func(t *testing.T) {
		// status_manager.go's "Patch status for pod" (V3) with the status
		// the eviction manager set: phase Failed, reason Evicted, the
		// Evicted event's message; the V0 lines of the demo around it.
		fl := buildLines(t,
			`I1012 16:46:44.983517    2611 eviction_manager.go:374] "Eviction manager: pods ranked for eviction" pods="[default/nginx kube-system/kube-proxy-w7n4k]"`,
			`I1012 16:46:44.984406    2611 kuberuntime_container.go:709] "Killing container with a grace period" pod="default/nginx" podUID=8de8c455-07d4-4a32-a1a5-7103edf557b7 containerName="nginx" containerID="containerd://d461dddb058be3f5fa9881d985b8aee2e3a11d75563b19e708480e470f8d921a" gracePeriod=30`,
			`I1012 16:46:45.300000    2611 status_manager.go:874] "Patch status for pod" pod="default/nginx" podUID=8de8c455-07d4-4a32-a1a5-7103edf557b7 patch="{\"metadata\":{\"uid\":\"8de8c455-07d4-4a32-a1a5-7103edf557b7\"},\"status\":{\"message\":\"The node was low on resource: memory. Threshold quantity: 750Mi, available: 231464Ki. Container nginx was using 4412088Ki, request is 0, has larger consumption of memory.\",\"phase\":\"Failed\",\"reason\":\"Evicted\"}}"`,
			`I1012 16:46:45.429424    2611 eviction_manager.go:595] "Eviction manager: pod is evicted successfully" pod="default/nginx"`,
		)
		f := onlyFlow(t, fl, "nginx")
		if f.Verdict != VerdictFailed || !strings.HasPrefix(f.Reason, "Evicted: The node was low on resource: memory.") {
			t.Errorf("verdict %s reason %q", f.Verdict, f.Reason)
		}
		if got := findingKinds(fl); !slices.Equal(got, []string{"MemoryPressure"}) {
			t.Errorf("findings %v, want MemoryPressure", got)
		}
		// Refused at admission for the node's condition: not an eviction.
		fl = buildLines(t,
			`I1012 16:46:45.200000    2611 kubelet.go:2157] "SyncLoop ADD" source="api" pods=["default/nginx"]`,
			`I1012 16:46:45.300000    2611 status_manager.go:874] "Patch status for pod" pod="default/nginx" podUID=8de8c455-07d4-4a32-a1a5-7103edf557b7 patch="{\"metadata\":{\"uid\":\"8de8c455-07d4-4a32-a1a5-7103edf557b7\"},\"status\":{\"message\":\"Pod was rejected: The node had condition: [MemoryPressure]. \",\"phase\":\"Failed\",\"reason\":\"Evicted\"}}"`,
		)
		if f := onlyFlow(t, fl, "nginx"); strings.HasPrefix(f.Reason, "Evicted") || len(fl.Findings) != 0 {
			t.Errorf("rejected: verdict %s reason %q findings %v: not an eviction", f.Verdict, f.Reason, findingKinds(fl))
		}
	})
	t.Run("1.30 pod is evicted successfully (k8s#132001)", func(t *testing.T) {
		f := onlyFlow(t, buildWild(t, "k8s-132001-eviction-ephemeral.log"), "logship-7c9f5b6d48-q2wzk")
		if f.Verdict != VerdictFailed || !strings.HasPrefix(f.Reason, "Evicted") || f.StalledAt != StRunning {
			t.Errorf("verdict %s at %s reason %q", f.Verdict, f.StalledAt, f.Reason)
		}
	})
	t.Run("with the resource and the message", func(t *testing.T) {
		// eviction_manager.go (1.26): attempting to reclaim, ranked, Evicting pod (V3).
		fl := buildLines(t,
			`I1012 16:46:44.900000    2611 eviction_manager.go:349] "Eviction manager: attempting to reclaim" resourceName="memory"`,
			`I1012 16:46:44.983517    2611 eviction_manager.go:374] "Eviction manager: pods ranked for eviction" pods="[default/nginx kube-system/kube-proxy-w7n4k]"`,
			`I1012 16:46:44.984000    2611 eviction_manager.go:602] "Evicting pod" pod="default/nginx" podUID=8de8c455-07d4-4a32-a1a5-7103edf557b7 message="The node was low on resource: memory. Threshold quantity: 750Mi, available: 231464Ki. "`,
			`I1012 16:46:44.984406    2611 kuberuntime_container.go:709] "Killing container with a grace period" pod="default/nginx" podUID=8de8c455-07d4-4a32-a1a5-7103edf557b7 containerName="nginx" containerID="containerd://d461dddb058be3f5fa9881d985b8aee2e3a11d75563b19e708480e470f8d921a" gracePeriod=30`,
			`I1012 16:46:45.429424    2611 eviction_manager.go:595] "Eviction manager: pod is evicted successfully" pod="default/nginx"`,
		)
		f := onlyFlow(t, fl, "nginx")
		if f.Verdict != VerdictFailed || !strings.Contains(f.Reason, "Evicted: The node was low on resource: memory") {
			t.Errorf("verdict %s reason %q", f.Verdict, f.Reason)
		}
		if !slices.Contains(findingKinds(fl), "MemoryPressure") {
			t.Errorf("findings %v, want MemoryPressure", findingKinds(fl))
		}
		// A ranked pod the manager did not evict is listed (the log names
		// it: issue #25), and nothing of the eviction is its.
		kp := onlyFlow(t, fl, "kube-proxy-w7n4k")
		if kp.Verdict == VerdictFailed || strings.Contains(kp.Reason, "Evicted") || kp.Deleted {
			t.Errorf("a ranked pod that was not evicted: verdict %s reason %q deleted %v", kp.Verdict, kp.Reason, kp.Deleted)
		}
	})
	t.Run("≤1.20 critical pods only (minikube#5355)", func(t *testing.T) {
		fl := buildWild(t, "minikube-5355-eviction-static.log")
		if !slices.Contains(findingKinds(fl), "DiskPressure") {
			t.Errorf("findings %v, want DiskPressure", findingKinds(fl))
		}
		for _, it := range fl.Items {
			if it.Verdict == VerdictFailed {
				t.Errorf("%s: a critical pod the kubelet could not evict is %s", it.Pod.Name, it.Verdict)
			}
		}
	})
}

// A pod refused at admission is Rejected with the admit reason, in the
// admission line's words, the event's or the ≤1.20 sentence's, and stays
// Rejected when deleted after.
func TestAdmissionRejected(t *testing.T) {
	const uid = "bc449538-bd25-4c8e-916a-59305e6d6fdc"
	for _, tc := range []struct {
		name, line, reason string
	}{
		{"1.29+ Pod admission denied", `I0410 10:39:02.913712    9529 kubelet.go:2357] "Pod admission denied" podUID="` + uid + `" pod="kube-system/sched-0" reason="UnexpectedAdmissionError" message="Allocate failed due to no healthy devices present; cannot allocate unhealthy devices example.com/isolcpus, which is unexpected"`,
			"UnexpectedAdmissionError: Allocate failed"},
		{"1.23–1.28 Predicate failed on Pod", `I0410 10:39:02.913712    9529 predicate.go:132] "Predicate failed on Pod" pod="kube-system/sched-0" err="Node didn't have enough resource: cpu, requested: 4000, used: 0, capacity: 2"`,
			"OutOfcpu: Node didn't have enough resource: cpu"},
		{"the Warning event", `I0410 10:39:02.913712    9529 event.go:307] "Event occurred" object="kube-system/sched-0" fieldPath="" kind="Pod" apiVersion="v1" type="Warning" reason="OutOfnvidia.com/gpu" message="Node didn't have enough resource: nvidia.com/gpu, requested: 1, used: 1, capacity: 1"`,
			"OutOfnvidia.com/gpu: Node didn't have enough resource"},
		{"≤1.20 printf", `I0410 10:39:02.913712    9529 predicate.go:143] Predicate failed on Pod: sched-0_kube-system(` + uid + `), for reason: Predicate NodeAffinity failed`,
			"NodeAffinity: Predicate NodeAffinity failed"},
		{"the topology manager's result", `I0410 10:39:02.913712    9529 topology_manager.go:215] "Pod Admit Result" Message="Resources cannot be allocated with Topology locality" pod="kube-system/sched-0"`,
			"TopologyAffinityError: Resources cannot be allocated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildLines(t,
				`I0410 10:39:02.900000    9529 kubelet.go:2320] "SyncLoop ADD" source="api" pods=["kube-system/sched-0"]`,
				tc.line,
				`I0410 10:40:00.000000    9529 kubelet.go:2336] "SyncLoop DELETE" source="api" pods=["kube-system/sched-0"]`,
			)
			f := onlyFlow(t, fl, "sched-0")
			if f.Verdict != VerdictRejected || f.StalledAt != StAdmitted || !strings.HasPrefix(f.Reason, tc.reason) {
				t.Errorf("verdict %s at %s reason %q, want Rejected %q", f.Verdict, f.StalledAt, f.Reason, tc.reason)
			}
		})
	}
}

// The node's trouble, in each kubelet's words, once per node.
func TestNodeFindings(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"k8s-45419-pleg-notready.log", []string{"NodeNotReady", "PLEGUnhealthy"}},             // ≤1.20 Recording NodeNotReady, Node became not ready: {…}
		{"kubernetes-the-hard-way-aws-12-pleg.log", []string{"NodeNotReady", "PLEGUnhealthy"}}, // setters.go
		{"k8s-71692-cni-reverse.log", []string{"NetworkNotReady"}},                             // ≤1.20 Container runtime network not ready: …, cni.go
		{"blog-eks-outposts-systemctl-restart.log", []string{"KubeletRestart"}},                // a new PID, no start line kept
		{"minikube-5355-eviction-static.log", []string{"DiskPressure"}},                        // eviction manager: attempting to reclaim ephemeral-storage
		{"loki-journald-secret-missing.log", nil},                                              // header numbers that are not one per process
	} {
		fl := buildWild(t, tc.file)
		got := findingKinds(fl)
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: findings %v, want %v", tc.file, got, tc.want)
		}
	}
	t.Run("a start line seen again, without PIDs", func(t *testing.T) {
		fl := buildLines(t,
			`{"ts":1757015700000.0,"caller":"app/server.go:545","msg":"Kubelet version","kubeletVersion":"v1.31.2"}`,
			`{"ts":1757015700100.0,"caller":"kubelet/kubelet.go:2447","msg":"Starting kubelet main sync loop"}`,
			`{"ts":1757015800000.0,"caller":"app/server.go:545","msg":"Kubelet version","kubeletVersion":"v1.31.2"}`,
			`{"ts":1757015800100.0,"caller":"kubelet/kubelet.go:2447","msg":"Starting kubelet main sync loop"}`,
		)
		if got := findingKinds(fl); !slices.Equal(got, []string{"KubeletRestart"}) || fl.Nodes[0].Restarts != 1 {
			t.Errorf("findings %v, restarts %d; want one KubeletRestart", got, fl.Nodes[0].Restarts)
		}
	})
	t.Run("one start, lines before it of the same process", func(t *testing.T) {
		fl := buildWild(t, "crio-5549-kubelet-restart.log")
		if fl.Nodes[0].Restarts != 0 {
			t.Errorf("restarts %d: one start is not a restart", fl.Nodes[0].Restarts)
		}
	})
}
