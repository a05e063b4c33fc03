package timeline

import (
	"path/filepath"
	"testing"
)

// TestPrintReason checks the transcription of kubectl's printPod STATUS
// rules (k8s.io/kubernetes pkg/printers/internalversion/printers.go) case
// by case, on the API status alone.
func TestPrintReason(t *testing.T) {
	waiting := func(r string) apiContainer { return apiContainer{isWaiting: true, waiting: r} }
	term := func(r string, code int) apiContainer {
		return apiContainer{terminated: true, termReason: r, exitCode: code}
	}
	running := apiContainer{running: true, ready: true}
	for _, tc := range []struct {
		name string
		pod  apiPod
		want string
	}{
		{"phase when no container says more", apiPod{phase: "Pending"}, "Pending"},
		{"status reason over phase", apiPod{phase: "Failed", reason: "Evicted"}, "Evicted"},
		{"a container's terminated reason over the pod's", apiPod{phase: "Failed", reason: "Evicted", containers: []apiContainer{term("ContainerStatusUnknown", 137)}}, "ContainerStatusUnknown"},
		{"no status yet, no init", apiPod{phase: "Pending", containers: []apiContainer{waiting("ContainerCreating")}}, "ContainerCreating"},
		{"init containers not started: Init:0/N, not PodInitializing", apiPod{phase: "Pending", initCount: 2, inits: []apiContainer{waiting("PodInitializing"), waiting("PodInitializing")}, containers: []apiContainer{waiting("PodInitializing")}}, "Init:0/2"},
		{"second init running", apiPod{phase: "Pending", initCount: 2, inits: []apiContainer{term("Completed", 0), running}, containers: []apiContainer{waiting("PodInitializing")}}, "Init:1/2"},
		{"init back-off", apiPod{phase: "Pending", initCount: 1, inits: []apiContainer{waiting("CrashLoopBackOff")}}, "Init:CrashLoopBackOff"},
		{"init exited non-zero", apiPod{phase: "Pending", initCount: 1, inits: []apiContainer{term("Error", 1)}}, "Init:Error"},
		{"init exited without a reason", apiPod{phase: "Pending", initCount: 1, inits: []apiContainer{term("", 2)}}, "Init:ExitCode:2"},
		{"initialized, containers waiting", apiPod{phase: "Pending", initCount: 1, initialized: true, inits: []apiContainer{term("Completed", 0)}, containers: []apiContainer{waiting("PodInitializing")}}, "PodInitializing"},
		{"image pull", apiPod{phase: "Pending", containers: []apiContainer{waiting("ErrImagePull")}}, "ErrImagePull"},
		{"first container wins (read last to first)", apiPod{phase: "Running", containers: []apiContainer{waiting("CrashLoopBackOff"), running}}, "CrashLoopBackOff"},
		{"running and ready", apiPod{phase: "Running", ready: true, containers: []apiContainer{running}}, "Running"},
		{"running, not ready: the phase", apiPod{phase: "Running", containers: []apiContainer{{running: true}}}, "Running"},
		{"completed", apiPod{phase: "Succeeded", containers: []apiContainer{term("Completed", 0)}}, "Completed"},
		{"completed beside a running ready one, pod Ready", apiPod{phase: "Running", ready: true, containers: []apiContainer{running, term("Completed", 0)}}, "Running"},
		{"completed beside a running one, pod not Ready", apiPod{phase: "Running", containers: []apiContainer{running, term("Completed", 0)}}, "NotReady"},
		{"completed read last, an error before it: the error", apiPod{phase: "Failed", containers: []apiContainer{term("Completed", 0), term("Error", 1)}}, "Error"},
		{"error beside completed", apiPod{phase: "Failed", containers: []apiContainer{term("Error", 1), term("Completed", 0)}}, "Error"},
		{"OOMKilled", apiPod{phase: "Running", containers: []apiContainer{term("OOMKilled", 137)}}, "OOMKilled"},
		{"terminated without a reason", apiPod{phase: "Failed", containers: []apiContainer{term("", 3)}}, "ExitCode:3"},
		{"started sidecar skipped: Running", apiPod{phase: "Running", ready: true, initialized: true, initCount: 1, inits: []apiContainer{{running: true, ready: true, restartable: true, started: true}}, containers: []apiContainer{running}}, "Running"},
		{"sidecar backing off beside a running container", apiPod{phase: "Running", initialized: true, initCount: 1, inits: []apiContainer{{isWaiting: true, waiting: "CrashLoopBackOff", restartable: true}}, containers: []apiContainer{running}}, "Init:CrashLoopBackOff"},
		{"deleting", apiPod{phase: "Running", deleting: true, ready: true, containers: []apiContainer{running}}, "Terminating"},
		{"deleting a terminal pod", apiPod{phase: "Succeeded", deleting: true, containers: []apiContainer{term("Completed", 0)}}, "Completed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := printReason(&tc.pod); got != tc.want {
				t.Errorf("printReason = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestKubectlStatusFromFlow checks how a flow's containers and stages
// become the API status the kubelet would have reported.
func TestKubectlStatusFromFlow(t *testing.T) {
	one := 1
	zero := 0
	stage := func(id string, s Status, reason string) Stage { return Stage{ID: id, Status: s, Reason: reason} }
	for _, tc := range []struct {
		name string
		fl   Flow
		want string
	}{
		{"sandbox stalled, nothing known of the containers", Flow{Verdict: VerdictStalled, StalledAt: StSandbox,
			Stages:     []Stage{stage(StSandbox, StatusStalled, ""), stage(StInitContainers, StatusSkipped, "")},
			Containers: []Container{{Name: "web", Type: ContainerRegular}}}, "ContainerCreating"},
		{"with an init container not begun", Flow{Verdict: VerdictStalled, StalledAt: StVolumes,
			Stages:     []Stage{stage(StVolumes, StatusStalled, ""), stage(StInitContainers, StatusPending, "")},
			Containers: []Container{{Name: "init", Type: ContainerInit}, {Name: "web", Type: ContainerRegular}}}, "Init:0/1"},
		{"init done, containers not yet", Flow{Verdict: VerdictStalled, StalledAt: StContainers,
			Stages:     []Stage{stage(StInitContainers, StatusDone, "")},
			Containers: []Container{{Name: "init", Type: ContainerInit, State: "terminated", Reason: "Completed", ExitCode: &zero}, {Name: "web", Type: ContainerRegular}}}, "PodInitializing"},
		{"a pull error with no status line", Flow{Verdict: VerdictStalled, StalledAt: StContainers,
			Containers: []Container{{Name: "web", Type: ContainerRegular, Stages: []Stage{stage(CStImage, StatusStalled, `Failed to pull image "x": not found`)}}}}, "ErrImagePull"},
		{"a config error on an init container", Flow{Verdict: VerdictStalled, StalledAt: StInitContainers,
			Containers: []Container{{Name: "init", Type: ContainerInit, Stages: []Stage{stage(CStCreated, StatusStalled, "CreateContainerConfigError: secret \"s\" not found")}}}}, "Init:CreateContainerConfigError"},
		{"PLEG saw it die, the waiting reason before is not its end", Flow{Verdict: VerdictFailed, Phase: "Running",
			Containers: []Container{{Name: "web", Type: ContainerRegular, State: "terminated", Reason: "CrashLoopBackOff", ExitCode: &one}}}, "Error"},
		{"OOMKilled", Flow{Verdict: VerdictFailed, Phase: "Running",
			Containers: []Container{{Name: "web", Type: ContainerRegular, State: "terminated", Reason: "OOMKilled", ExitCode: &one}}}, "OOMKilled"},
		{"evicted, containers unknown", Flow{Verdict: VerdictFailed, Reason: "Evicted: the node was low on resource: memory",
			Containers: []Container{{Name: "web", Type: ContainerRegular}}}, "Evicted"},
		{"rejected by admission", Flow{Verdict: VerdictRejected, Reason: "OutOfcpu: Node didn't have enough resource: cpu"}, "OutOfcpu"},
		{"rejected, no reason word", Flow{Verdict: VerdictRejected, Reason: "Predicate failed on Pod"}, "Failed"},
		{"deleting", Flow{Verdict: VerdictTerminating, Deleted: true, Phase: "Running",
			Containers: []Container{{Name: "web", Type: ContainerRegular, State: "terminating", Ready: true}}}, "Terminating"},
		{"deleted and removed", Flow{Verdict: VerdictTerminated, Deleted: true, Phase: "Running"}, StatusDeleted},
		{"-v=2: no container named, the pod ran", Flow{Verdict: VerdictRunning, Stages: []Stage{stage(StRunning, StatusDone, ""), stage(StReady, StatusDone, "")}}, "Running"},
		{"-v=2: no container named, completed", Flow{Verdict: VerdictCompleted, Stages: []Stage{stage(StRunning, StatusDone, "")}}, "Completed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := KubectlStatus(&tc.fl); got != tc.want {
				t.Errorf("KubectlStatus = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestKubectlStatusCorpus: what `kubectl get pods` showed at the end of
// each real log, written from the scenario (testdata/corpus/MANIFEST.md)
// and the kubelet's last status patch of the pod, read by kubectl's rules.
func TestKubectlStatusCorpus(t *testing.T) {
	for _, tc := range []struct {
		file, pod, want string
	}{
		// Running, no stall.
		{"v1.36.3/01-happy-path.log", "web-7d9f8c6b5-x2kqp", "Running"},
		{"v1.33.13/01-happy-path.log", "web-7d9f8c6b5-x2kqp", "Running"},
		{"v1.28.15/01-happy-path.log", "web-7d9f8c6b5-x2kqp", "Running"},
		// ErrImagePull, then ImagePullBackOff: the log ends backing off.
		{"v1.36.3/02-image-pull-failure.log", "api-6f5b9d7c4-pl8wz", "ImagePullBackOff"},
		{"v1.33.13/02-image-pull-failure.log", "api-6f5b9d7c4-pl8wz", "ImagePullBackOff"},
		{"v1.28.15/02-image-pull-failure.log", "api-6f5b9d7c4-pl8wz", "ImagePullBackOff"},
		{"v1.36.3/03-slow-image-pull.log", "web-slowpull-58c9d-7hxkq", "Running"},
		// Sandbox failures (ContainerCreating meanwhile), then Running.
		{"v1.36.3/04-sandbox-failure.log", "payments-7b4d9c8f6-q9zrt", "Running"},
		{"v1.28.15/04-sandbox-failure.log", "payments-7b4d9c8f6-q9zrt", "Running"},
		// Crash-looping: the kubelet's last patch (06:11:06.9) has the
		// container restarted, running and ready, 2.4 s before the log
		// ends; kubectl shows Running (RESTARTS 4) until it exits again.
		{"v1.36.3/05-crashloop-backoff.log", "worker-5d8f7b9c4-m2v6n", "Running"},
		// Deleted through the API and removed: kubectl lists it no more.
		{"v1.36.3/06-pod-deletion-api.log", "web-7d9f8c6b5-del42", StatusDeleted},
		{"v1.33.13/06-pod-deletion-api.log", "web-7d9f8c6b5-del42", StatusDeleted},
		{"v1.28.15/06-pod-deletion-api.log", "web-7d9f8c6b5-del42", StatusDeleted},
		{"v1.36.3/06b-static-pod-add-remove.log", "static-web-kb-node-static", StatusDeleted},
		{"v1.36.3/09-happy-path-v2.log", "web-v2-6b7c9-r8s5d", "Running"},
		// The init container crash-loops. v1.28's last patch has it
		// waiting in CrashLoopBackOff; v1.36's has it just exited 1
		// (Error), its next back-off not yet reported when the log ends.
		{"v1.28.15/10-init-container-crashloop.log", "web-initfail-6d5c7-b8x4w", "Init:CrashLoopBackOff"},
		{"v1.36.3/10-init-container-crashloop.log", "web-initfail-6d5c7-b8x4w", "Init:Error"},
		// The missing ConfigMap shows ContainerCreating for minutes; it
		// recovers, so the end shows Running.
		{"v1.36.3/11-volume-mount-failure.log", "web-volfail-7f6b8-d4n8q", "Running"},
		// The start fails (RunContainerError), then backs off
		// (CrashLoopBackOff): v1.28's last patch is the back-off, v1.36's
		// the start error of the latest attempt.
		{"v1.28.15/12-container-start-failure.log", "shop-api-84d7f9c6d-t5n2j", "CrashLoopBackOff"},
		{"v1.36.3/12-container-start-failure.log", "shop-api-84d7f9c6d-t5n2j", "RunContainerError"},
		{"v1.36.3/13-container-create-error.log", "cache-5b9c8d7f4-h7w3k", "Running"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			fl := buildFile(t, filepath.Join(corpus, tc.file))
			got := onlyFlow(t, fl, tc.pod)
			if got.Status != tc.want {
				t.Errorf("%s: status %q, want %q (verdict %s, phase %q)", tc.pod, got.Status, tc.want, got.Verdict, got.Phase)
			}
			// The table's rows (FinishRows) drop the containers' states:
			// their status is computed before, and must be the same.
			rows := finishInputs(t, []string{filepath.Join(corpus, tc.file)}, func(b *Builder) *FlowList { return b.FinishRows(nil) })
			for _, it := range rows.Items {
				if it.Pod.Name == tc.pod && it.Status != got.Status {
					t.Errorf("%s: row status %q, full flow %q", tc.pod, it.Status, got.Status)
				}
			}
		})
	}
}
