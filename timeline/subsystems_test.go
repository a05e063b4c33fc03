package timeline

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The newer kubelet subsystems (issue #25, class 3) and errors that name
// their container only in their text (class 5). Real lines come from
// testdata/corpus (a real 1.28, 1.33 and 1.36 kubelet) and testdata/wild;
// a subsystem a fake runtime cannot drive (DRA drivers, device plugins,
// the CPU manager's static policy, logind's shutdown, a full image
// filesystem, in-place resize, sidecars) is written from the kubelet's own
// template at the version named: the message, keys and severity of the
// source's log call, realistic values. Such lines are marked "template"
// below: made from the source, not captured.

// sidecarPod is a pod with a restartable init container, log-shipper, and
// a container, app, in the 1.36 kubelet's words (template:
// kuberuntime_manager.go "Creating container in pod", event.go's events,
// kubelet.go's PLEG line, kuberuntime_container.go:1171 "Init container
// has been initialized" from the running branch of
// computeInitContainerActions).
var sidecarPod = struct {
	add, sandbox, createInit, initCreated, initStarted, initPLEG, initialized, createApp, appCreated, appStarted, appPLEG, later string
}{
	add:         `I1122 07:00:00.000000    2100 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/mesh-7c9d8f6b5-q2w4e"]`,
	sandbox:     `I1122 07:00:00.400000    2100 kuberuntime_manager.go:1622] "Created PodSandbox for pod" podSandboxID="9a1f0c3e5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a" pod="default/mesh-7c9d8f6b5-q2w4e"`,
	createInit:  `I1122 07:00:00.500000    2100 kuberuntime_manager.go:1702] "Creating container in pod" containerType="init container" container="log-shipper" pod="default/mesh-7c9d8f6b5-q2w4e"`,
	initCreated: `I1122 07:00:00.600000    2100 event.go:389] "Event occurred" object="default/mesh-7c9d8f6b5-q2w4e" fieldPath="spec.initContainers{log-shipper}" kind="Pod" apiVersion="v1" type="Normal" reason="Created" message="Container created"`,
	initStarted: `I1122 07:00:00.700000    2100 event.go:389] "Event occurred" object="default/mesh-7c9d8f6b5-q2w4e" fieldPath="spec.initContainers{log-shipper}" kind="Pod" apiVersion="v1" type="Normal" reason="Started" message="Container started"`,
	initPLEG:    `I1122 07:00:01.000000    2100 kubelet.go:2737] "SyncLoop (PLEG): event for pod" pod="default/mesh-7c9d8f6b5-q2w4e" event={"ID":"5b0f6f0e-8d1e-4c47-9a57-3f0c2d1e7a10","Type":"ContainerStarted","Data":"1c3e5a7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5a7b9d1f3a"}`,
	initialized: `I1122 07:00:01.100000    2100 kuberuntime_container.go:1171] "Init container has been initialized" pod="default/mesh-7c9d8f6b5-q2w4e" container="log-shipper"`,
	createApp:   `I1122 07:00:01.200000    2100 kuberuntime_manager.go:1702] "Creating container in pod" containerType="container" container="app" pod="default/mesh-7c9d8f6b5-q2w4e"`,
	appCreated:  `I1122 07:00:01.300000    2100 event.go:389] "Event occurred" object="default/mesh-7c9d8f6b5-q2w4e" fieldPath="spec.containers{app}" kind="Pod" apiVersion="v1" type="Normal" reason="Created" message="Container created"`,
	appStarted:  `I1122 07:00:01.400000    2100 event.go:389] "Event occurred" object="default/mesh-7c9d8f6b5-q2w4e" fieldPath="spec.containers{app}" kind="Pod" apiVersion="v1" type="Normal" reason="Started" message="Container started"`,
	appPLEG:     `I1122 07:00:02.000000    2100 kubelet.go:2737] "SyncLoop (PLEG): event for pod" pod="default/mesh-7c9d8f6b5-q2w4e" event={"ID":"5b0f6f0e-8d1e-4c47-9a57-3f0c2d1e7a10","Type":"ContainerStarted","Data":"2d4f6b8c0e2a4c6e8b0d2f4a6c8e0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e"}`,
	later:       `I1122 07:03:00.000000    2100 kubelet.go:2722] "SyncLoop RECONCILE" source="api" pods=["default/mesh-7c9d8f6b5-q2w4e"]`,
}

func ctrNamed(f Flow, name string) (Container, bool) {
	for _, c := range f.Containers {
		if c.Name == name {
			return c, true
		}
	}
	return Container{}, false
}

func stageIn(stages []Stage, id string) (Stage, bool) {
	for _, s := range stages {
		if s.ID == id {
			return s, true
		}
	}
	return Stage{}, false
}

// A sidecar (an init container with restartPolicy Always) starts and
// runs on: its start is its part of the init containers, it never
// completes, and the pod's containers do not wait for it.
func TestSidecarInitContainer(t *testing.T) {
	p := sidecarPod
	// 1.33's "Creating container in pod" prints the container's spec
	// (template: container=spec.container, a *v1.Container's String()).
	spec133 := `I1122 07:00:00.500000    2100 kuberuntime_manager.go:1229] "Creating container in pod" containerType="init container" container="&Container{Name:log-shipper,Image:docker.io/fluent/fluent-bit:3.1.9,Command:[],Args:[],WorkingDir:,Ports:[]ContainerPort{},Env:[]EnvVar{},Resources:ResourceRequirements{Limits:ResourceList{},Requests:ResourceList{},Claims:[]ResourceClaim{},},VolumeMounts:[]VolumeMount{},LivenessProbe:nil,ReadinessProbe:nil,Lifecycle:nil,TerminationMessagePath:/dev/termination-log,ImagePullPolicy:IfNotPresent,SecurityContext:nil,Stdin:false,StdinOnce:false,TTY:false,EnvFrom:[]EnvFromSource{},TerminationMessagePolicy:File,VolumeDevices:[]VolumeDevice{},StartupProbe:nil,ResizePolicy:[]ContainerResizePolicy{},RestartPolicy:*Always,}" pod="default/mesh-7c9d8f6b5-q2w4e"`
	// The status manager's patch of a sidecar that runs: ready while it
	// runs, as prober_manager.go UpdatePodStatus sets a restartable init
	// container (template: the 1.36 corpus's patch of init-config, with
	// ready true).
	readyPatch := `I1122 07:00:01.050000    2100 status_manager.go:1184] "Patch status for pod" pod="default/mesh-7c9d8f6b5-q2w4e" podUID="5b0f6f0e-8d1e-4c47-9a57-3f0c2d1e7a10" patch="{\"metadata\":{\"uid\":\"5b0f6f0e-8d1e-4c47-9a57-3f0c2d1e7a10\"},\"status\":{\"initContainerStatuses\":[{\"containerID\":\"containerd://1c3e5a7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5a7b9d1f3a\",\"image\":\"docker.io/fluent/fluent-bit:3.1.9\",\"imageID\":\"docker.io/fluent/fluent-bit@sha256:1f0c\",\"lastState\":{},\"name\":\"log-shipper\",\"ready\":true,\"restartCount\":0,\"started\":true,\"state\":{\"running\":{\"startedAt\":\"2026-11-22T07:00:00Z\"}}}]}}"`
	for _, tc := range []struct {
		name  string
		lines []string
		// want: the init-containers stage done, log-shipper a sidecar
		// without a completed stage, and the pod's verdict and stage.
		verdict Verdict
		stage   string
	}{
		{"1.36: initialized while it runs, then the app runs", []string{p.add, p.sandbox, p.createInit, p.initCreated, p.initStarted, p.initPLEG, p.initialized, p.createApp, p.appCreated, p.appStarted, p.appPLEG}, VerdictRunning, ""},
		{"1.36: initialized while it runs, nothing after", []string{p.add, p.sandbox, p.createInit, p.initCreated, p.initStarted, p.initPLEG, p.initialized, p.later}, VerdictIncomplete, StContainers},
		{"-v=3: the app began while it runs on", []string{p.add, p.sandbox, p.initCreated, p.initStarted, p.initPLEG, p.appCreated, p.appStarted, p.appPLEG}, VerdictRunning, ""},
		{"1.33: its spec says RestartPolicy:*Always", []string{p.add, p.sandbox, spec133, p.initCreated, p.initStarted, p.initPLEG, p.later}, VerdictIncomplete, StContainers},
		{"its status: running and ready", []string{p.add, p.sandbox, p.initCreated, p.initStarted, p.initPLEG, readyPatch, p.later}, VerdictIncomplete, StContainers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := onlyFlow(t, buildLines(t, tc.lines...), "mesh-7c9d8f6b5-q2w4e")
			if f.Verdict != tc.verdict || tc.stage != "" && f.StalledAt != tc.stage {
				t.Errorf("verdict %s at %q (%s), want %s at %q", f.Verdict, f.StalledAt, f.Reason, tc.verdict, tc.stage)
			}
			if s, _ := stageIn(f.Stages, StInitContainers); s.Status != StatusDone {
				t.Errorf("init-containers %s, want done at the sidecar's start", s.Status)
			}
			c, ok := ctrNamed(f, "log-shipper")
			if !ok || c.Type != ContainerInit || !c.Sidecar {
				t.Fatalf("log-shipper: %+v, want an init container that is a sidecar", c)
			}
			if _, ok := stageIn(c.Stages, CStCompleted); ok {
				t.Errorf("the sidecar has a completed stage: %+v", c.Stages)
			}
		})
	}
	t.Run("an init container that runs, and nothing says it is a sidecar", func(t *testing.T) {
		f := onlyFlow(t, buildLines(t, p.add, p.sandbox, p.createInit, p.initCreated, p.initStarted, p.initPLEG, p.later), "mesh-7c9d8f6b5-q2w4e")
		if c, _ := ctrNamed(f, "log-shipper"); c.Sidecar {
			t.Errorf("log-shipper judged a sidecar with nothing to say so")
		}
		if f.StalledAt != StInitContainers {
			t.Errorf("stalled at %q, want init-containers (it has not completed)", f.StalledAt)
		}
	})
	// The real kubelets' init containers are regular ones: 1.36 logs
	// "Init container has been initialized" of init-config once it exited
	// 0 (kuberuntime_container.go:1240, the exited branch). The harness's
	// sidecar scenarios (14, 15) are the ones whose pods have sidecars.
	for _, dir := range []string{"v1.33.13", "v1.36.3"} {
		paths, _ := filepath.Glob(filepath.Join(corpus, dir, "*.log"))
		for _, path := range paths {
			if strings.Contains(filepath.Base(path), "-sidecar-") {
				continue
			}
			for _, f := range buildFile(t, path).Items {
				for _, c := range f.Containers {
					if c.Sidecar {
						t.Errorf("%s: %s/%s judged a sidecar", path, f.Pod.Name, c.Name)
					}
				}
			}
		}
	}
}

// Errors whose text names the container: the image manager's
// ImageInspectError is the container's image stage, and the runtime
// manager's start failure of an init container (klog's multi-line err,
// 1.31–1.33, when its spec dump holds a newline) names that init
// container, with a reason that ends where the error does.
func TestErrorsNamingTheirContainer(t *testing.T) {
	add := `I0908 18:46:01.000000    7468 kubelet.go:2409] "SyncLoop ADD" source="api" pods=["kube-system/canal-x1k2p"]`
	inspect := "failed to \\\"StartContainer\\\" for \\\"app\\\" with ImageInspectError: \\\"Failed to inspect image \\\\\\\"localhost/app:1.0\\\\\\\": rpc error: code = Unknown desc = short-name \\\\\\\"app:1.0\\\\\\\" did not resolve to an alias\\\""
	for _, tc := range []struct {
		name, container, typ, stage, reason string
		lines                               []string
	}{
		{"1.36 sync error: ImageInspectError (template, image_manager.go)", "app", ContainerRegular, CStImage, "ImageInspectError: Failed to inspect image",
			[]string{add, `E0908 18:46:02.000000    7468 pod_workers.go:1301] "Error syncing pod, skipping" err="` + inspect + `" pod="kube-system/canal-x1k2p" podUID="9f3c6a21-7e08-4b5d-a1c4-2d8e60f9b73a"`}},
		{"≤1.30 start failure: ImageInspectError (template, kuberuntime_manager.go)", "app", ContainerRegular, CStImage, "ImageInspectError: Failed to inspect image",
			[]string{add, `E0908 18:46:02.000000    7468 kuberuntime_manager.go:1256] container &Container{Name:app,Image:localhost/app:1.0,Command:[],Args:[],} start failed in pod canal-x1k2p_kube-system(9f3c6a21-7e08-4b5d-a1c4-2d8e60f9b73a): ImageInspectError: Failed to inspect image "localhost/app:1.0": rpc error: code = Unknown desc = short-name "app:1.0" did not resolve to an alias`}},
		{"1.31–1.33 multi-line err of an init container (template, klog err=<)", "install-cni", ContainerInit, CStCreated, "CreateContainerConfigError: services have not yet been read at least once, cannot construct envvars",
			[]string{add, `E0908 18:46:02.582015    7468 kuberuntime_manager.go:1358] "Unhandled Error" err=<`,
				"\tinit container &Container{Name:install-cni,Image:rancher/hardened-calico:v3.26.1,Command:[/bin/sh -c set -e",
				"\techo installing],Args:[],} start failed in pod canal-x1k2p_kube-system(9f3c6a21-7e08-4b5d-a1c4-2d8e60f9b73a): CreateContainerConfigError: services have not yet been read at least once, cannot construct envvars",
				` > logger="UnhandledError"`}},
		{"the same in a journal that made the TABs spaces", "install-cni", ContainerInit, CStCreated, "CreateContainerConfigError: services have not yet been read at least once, cannot construct envvars",
			[]string{`Sep 08 18:46:01 node-a kubelet[7468]: ` + add, `Sep 08 18:46:02 node-a kubelet[7468]: E0908 18:46:02.582015    7468 kuberuntime_manager.go:1358] "Unhandled Error" err=<`,
				"Sep 08 18:46:02 node-a kubelet[7468]:         init container &Container{Name:install-cni,Image:rancher/hardened-calico:v3.26.1,Command:[/bin/sh -c set -e",
				"Sep 08 18:46:02 node-a kubelet[7468]:         echo installing],Args:[],} start failed in pod canal-x1k2p_kube-system(9f3c6a21-7e08-4b5d-a1c4-2d8e60f9b73a): CreateContainerConfigError: services have not yet been read at least once, cannot construct envvars",
				`Sep 08 18:46:02 node-a kubelet[7468]:  > logger="UnhandledError"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := onlyFlow(t, buildLines(t, tc.lines...), "canal-x1k2p")
			if len(f.Containers) != 1 {
				t.Fatalf("containers %+v, want %s alone", f.Containers, tc.container)
			}
			c := f.Containers[0]
			if c.Name != tc.container || c.Type != tc.typ {
				t.Errorf("container %q (%s), want %q (%s)", c.Name, c.Type, tc.container, tc.typ)
			}
			s, _ := stageIn(c.Stages, tc.stage)
			if s.Status != StatusFailed && s.Status != StatusStalled {
				t.Errorf("%s stage %s, want failed: %+v", tc.stage, s.Status, c.Stages)
			}
			if f.Container != tc.container || f.ContainerStage != tc.stage {
				t.Errorf("stalled in %q:%q, want %q:%q", f.Container, f.ContainerStage, tc.container, tc.stage)
			}
			if !strings.HasPrefix(f.Reason, tc.reason) || strings.Contains(f.Reason, "logger=") {
				t.Errorf("reason %q, want it to begin %q and end with the error", f.Reason, tc.reason)
			}
		})
	}
}

// The resource managers' lines at admission: evidence of a pod's
// admission, their errors its refusal, a plugin's unhealthy devices a
// finding on the node.
func TestResourceManagers(t *testing.T) {
	t.Run("1.28 Topology Admit Handler names the pod by podNamespace and podName (corpus)", func(t *testing.T) {
		fl := buildFile(t, filepath.Join(corpus, "v1.28.15", "01-happy-path.log"))
		f := onlyFlow(t, fl, "web-7d9f8c6b5-x2kqp")
		if f.Pod.Namespace != "shop" {
			t.Errorf("namespace %q, want shop", f.Pod.Namespace)
		}
		s, _ := stageIn(f.Stages, StAdmitted)
		if !slices.ContainsFunc(s.Evidence, func(e Evidence) bool { return strings.Contains(e.Text, "Topology Admit Handler") }) {
			t.Errorf("admitted's evidence %+v lacks the topology manager's line", s.Evidence)
		}
	})
	pod := `pod="default/trainer-5c8d7b9f4-h2k9m"`
	denied := func(reason, message string) string {
		return `E1122 07:10:00.001000    2100 kubelet.go:2548] "Pod admission denied" podUID="7e2d4c1a-9b3f-4e5d-8a6c-1f2e3d4c5b6a" ` + pod + ` reason="` + reason + `" message="` + message + `"`
	}
	add := `I1122 07:10:00.000000    2100 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/trainer-5c8d7b9f4-h2k9m"]`
	for _, tc := range []struct {
		name, reason, finding string
		lines                 []string
	}{
		{"CPU manager: not enough cpus (template, policy_static.go, cpu_assignment.go)", "UnexpectedAdmissionError: Allocate failed due to not enough cpus available to satisfy request: requested=4, available=2, which is unexpected", "",
			[]string{add, `I1122 07:10:00.000500    2100 policy_static.go:562] "Allocate start" ` + pod + ` podUID="7e2d4c1a-9b3f-4e5d-8a6c-1f2e3d4c5b6a" containerName="trainer"`,
				`E1122 07:10:00.000800    2100 policy_static.go:611] "Unable to allocate CPUs" err="not enough cpus available to satisfy request: requested=4, available=2" ` + pod + ` podUID="7e2d4c1a-9b3f-4e5d-8a6c-1f2e3d4c5b6a" containerName="trainer" numCPUs=4`,
				denied("UnexpectedAdmissionError", "Allocate failed due to not enough cpus available to satisfy request: requested=4, available=2, which is unexpected")}},
		{"CPU manager: SMT alignment (template, policy_static.go SMTAlignmentError)", "SMTAlignmentError: SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2", "",
			[]string{add, `I1122 07:10:00.000500    2100 policy_static.go:296] "Static policy: Allocate" ` + pod + ` containerName="trainer"`,
				denied("SMTAlignmentError", "SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2")}},
		{"topology manager: no NUMA affinity (template, scope_container.go, topology_manager.go)", "TopologyAffinityError: Resources cannot be allocated with Topology locality", "",
			[]string{add, `I1122 07:10:00.000500    2100 scope_container.go:57] "Best TopologyHint" bestHint={"NUMANodeAffinity":null,"Preferred":false} ` + pod + ` containerName="trainer"`,
				denied("TopologyAffinityError", "Resources cannot be allocated with Topology locality")}},
		{"device plugin: unhealthy devices (template, devicemanager manager.go)", "UnexpectedAdmissionError: Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected", findingDevicePlugin,
			[]string{`I1122 07:09:00.000000    2100 manager.go:420] "Mark all resources Unhealthy for resource" resourceName="nvidia.com/gpu"`, add,
				`I1122 07:10:00.000500    2100 manager.go:852] "Looking for needed resources" resourceName="nvidia.com/gpu" ` + pod + ` containerName="trainer" needed=1`,
				denied("UnexpectedAdmissionError", "Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildLines(t, tc.lines...)
			f := onlyFlow(t, fl, "trainer-5c8d7b9f4-h2k9m")
			if f.Verdict != VerdictRejected || f.Reason != tc.reason {
				t.Errorf("%s %q, want Rejected %q", f.Verdict, f.Reason, tc.reason)
			}
			s, _ := stageIn(f.Stages, StAdmitted)
			if len(s.Evidence) < 2 {
				t.Errorf("admitted's evidence %+v: want the manager's line and the refusal", s.Evidence)
			}
			if kinds := findingKinds(fl); tc.finding != "" && !slices.Contains(kinds, tc.finding) {
				t.Errorf("findings %v, want %s", kinds, tc.finding)
			}
		})
	}
	t.Run("a pod named only by the topology manager is listed (template)", func(t *testing.T) {
		fl := buildLines(t, `I1122 07:10:00.000500    2100 scope_pod.go:118] "Best TopologyHint" bestHint={"NUMANodeAffinity":"01","Preferred":true} `+pod)
		f := onlyFlow(t, fl, "trainer-5c8d7b9f4-h2k9m")
		if f.Pod.Namespace != "default" {
			t.Errorf("pod %+v", f.Pod)
		}
	})
}

// DRA, user namespaces and in-place resize in the kubelet's 1.36 words
// (template: kuberuntime_manager.go, cm/dra/manager.go, kuberuntime_sandbox.go,
// userns_manager.go, allocation_manager.go).
func TestPodResourceSubsystems(t *testing.T) {
	add := `I1122 07:20:00.000000    2100 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/infer-0"]`
	sandboxFail := func(msg, err string) string {
		return `E1122 07:20:01.000000    2100 kuberuntime_manager.go:1594] "` + msg + `" err="` + err + `" pod="default/infer-0"`
	}
	for _, tc := range []struct {
		name, reason string
		lines        []string
	}{
		{"DRA: the driver is not registered", "prepare dynamic resources: NodePrepareResources failed for ResourceClaim gpu-claim",
			[]string{add, sandboxFail("Failed to prepare dynamic resources", "prepare dynamic resources: NodePrepareResources failed for ResourceClaim gpu-claim: DRA driver gpu.example.com is not registered"),
				`I1122 07:20:01.000100    2100 event.go:389] "Event occurred" object="default/infer-0" fieldPath="" kind="Pod" apiVersion="v1" type="Warning" reason="FailedPrepareDynamicResources" message="Failed to prepare dynamic resources: prepare dynamic resources: NodePrepareResources failed for ResourceClaim gpu-claim: DRA driver gpu.example.com is not registered"`}},
		{"user namespaces: no slot left", "create user namespace: could not find an empty slot to allocate a user namespace",
			[]string{add, sandboxFail("Failed to generate sandbox config for pod", "create user namespace: could not find an empty slot to allocate a user namespace")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := onlyFlow(t, buildLines(t, tc.lines...), "infer-0")
			s, _ := stageIn(f.Stages, StSandbox)
			if s.Status != StatusFailed && s.Status != StatusStalled || f.StalledAt != StSandbox || !strings.Contains(f.Reason, tc.reason) {
				t.Errorf("sandbox %s, stalled at %q with %q; want the sandbox failed with …%q…", s.Status, f.StalledAt, f.Reason, tc.reason)
			}
		})
	}
	t.Run("DRA: unprepare fails after the containers stopped", func(t *testing.T) {
		f := onlyFlow(t, buildLines(t, add,
			`I1122 07:30:00.000000    2100 kubelet.go:2725] "SyncLoop DELETE" source="api" pods=["default/infer-0"]`,
			`I1122 07:30:00.100000    2100 kuberuntime_container.go:864] "Killing container with a grace period" pod="default/infer-0" podUID="3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f" containerName="server" containerID="containerd://4e6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a" gracePeriod=30`,
			`E1122 07:30:02.000000    2100 pod_workers.go:1301] "Error syncing pod, skipping" err="unprepare dynamic resources: NodeUnprepareResources failed for ResourceClaim gpu-claim: rpc error: code = Unavailable desc = connection refused" pod="default/infer-0" podUID="3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f"`,
			`I1122 07:33:00.000000    2100 kubelet.go:2722] "SyncLoop RECONCILE" source="api" pods=["default/infer-0"]`), "infer-0")
		if f.Verdict != VerdictTerminating || f.StalledAt != StStopped || !strings.Contains(f.Reason, "NodeUnprepareResources failed") {
			t.Errorf("%s at %q: %q; want Terminating at stopped with the unprepare error", f.Verdict, f.StalledAt, f.Reason)
		}
	})
	t.Run("in-place resize: the pod runs on", func(t *testing.T) {
		running := []string{add,
			`I1122 07:20:01.000000    2100 event.go:389] "Event occurred" object="default/infer-0" fieldPath="spec.containers{server}" kind="Pod" apiVersion="v1" type="Normal" reason="Started" message="Container started"`,
			`I1122 07:20:02.000000    2100 kubelet.go:2737] "SyncLoop (PLEG): event for pod" pod="default/infer-0" event={"ID":"3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f","Type":"ContainerStarted","Data":"4e6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a"}`}
		before := onlyFlow(t, buildLines(t, running...), "infer-0")
		after := onlyFlow(t, buildLines(t, append(running,
			`I1122 07:25:00.000000    2100 allocation_manager.go:262] "Pod resize is infeasible" pod="default/infer-0"`,
			`I1122 07:25:00.000100    2100 event.go:389] "Event occurred" object="default/infer-0" fieldPath="" kind="Pod" apiVersion="v1" type="Warning" reason="ResizeInfeasible" message="Pod resize Infeasible: Node didn't have enough capacity: cpu, requested: 16000, capacity: 8000"`)...), "infer-0")
		if after.Verdict != before.Verdict || after.Reason != before.Reason || after.Verdict != VerdictRunning {
			t.Errorf("after an infeasible resize %s %q, before %s %q: want Running as before", after.Verdict, after.Reason, before.Verdict, before.Reason)
		}
		// 1.29–1.31 name the pod alone (kubelet.go canResizePod: pod=podCopy.Name):
		// the line is the pod's, and no second pod (template).
		legacy := buildLines(t, append(running, `I1122 07:25:00.000000    2100 kubelet.go:2806] "Resize cannot be accommodated" pod="infer-0" reason="Infeasible" message="Node didn't have enough capacity: cpu, requested: 16000, capacity: 8000"`)...)
		if len(legacy.Items) != 1 || legacy.Unattributed != nil {
			t.Errorf("a resize line naming the pod alone: %d pods, unattributed %+v; want the one pod", len(legacy.Items), legacy.Unattributed)
		}
		only := onlyFlow(t, buildLines(t, `I1122 07:25:00.000000    2100 allocation_manager.go:259] "Pod resize is deferred; will reevaluate later" pod="default/infer-0"`), "infer-0")
		if only.Pod.Namespace != "default" {
			t.Errorf("a pod named only by a resize line: %+v", only.Pod)
		}
	})
}

// The node's own trouble: a graceful shutdown and the pods it killed, and
// an image garbage collection that fails.
func TestNodeShutdownAndImageGC(t *testing.T) {
	t.Run("1.36 graceful shutdown (template, nodeshutdown_manager_linux.go)", func(t *testing.T) {
		fl := buildLines(t,
			`I1122 08:00:00.000000    2100 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/web-0"]`,
			`I1122 08:10:00.000000    2100 nodeshutdown_manager_linux.go:257] "Shutdown manager detected new shutdown event, isNodeShuttingDownNow" event=true`,
			`I1122 08:10:00.000100    2100 nodeshutdown_manager_linux.go:265] "Shutdown manager detected new shutdown event" event="shutdown"`,
			`I1122 08:10:00.000200    2100 nodeshutdown_manager_linux.go:314] "Shutdown manager processing shutdown event"`,
			`I1122 08:10:00.100000    2100 nodeshutdown_manager.go:151] "Shutdown manager killing pod with gracePeriod" pod="default/web-0" gracePeriod=20`,
			`I1122 08:10:03.000000    2100 nodeshutdown_manager.go:170] "Shutdown manager finished killing pod" pod="default/web-0"`,
			`I1122 08:10:03.100000    2100 nodeshutdown_manager_linux.go:319] "Shutdown manager completed processing shutdown event, node will shutdown shortly"`)
		if kinds := findingKinds(fl); !slices.Contains(kinds, findingShutdown) {
			t.Errorf("findings %v, want %s", kinds, findingShutdown)
		}
		f := onlyFlow(t, fl, "web-0")
		if f.Verdict != VerdictTerminating || f.Reason != shutdownReason {
			t.Errorf("%s %q, want Terminating with %q", f.Verdict, f.Reason, shutdownReason)
		}
		if s, _ := stageIn(f.Stages, StStopped); s.Status != StatusDone {
			t.Errorf("stopped %s, want done (the manager finished killing it)", s.Status)
		}
	})
	t.Run("the status the shutdown manager gives a pod it killed (template, status_manager.go's patch)", func(t *testing.T) {
		fl := buildLines(t,
			`I1122 08:00:00.000000    2100 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/web-0"]`,
			`I1122 08:00:01.000000    2100 event.go:389] "Event occurred" object="default/web-0" fieldPath="spec.containers{web}" kind="Pod" apiVersion="v1" type="Normal" reason="Started" message="Container started"`,
			`I1122 08:00:02.000000    2100 kubelet.go:2737] "SyncLoop (PLEG): event for pod" pod="default/web-0" event={"ID":"6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d","Type":"ContainerStarted","Data":"5f7b9d1f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5a7b9d1f3a5c7e"}`,
			`I1122 08:10:03.000000    2100 status_manager.go:1184] "Patch status for pod" pod="default/web-0" podUID="6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d" patch="{\"metadata\":{\"uid\":\"6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d\"},\"status\":{\"message\":\"Pod was terminated in response to imminent node shutdown.\",\"phase\":\"Failed\",\"reason\":\"Terminated\"}}"`)
		f := onlyFlow(t, fl, "web-0")
		if f.Verdict != VerdictFailed || f.Reason != shutdownReason {
			t.Errorf("%s %q, want Failed with %q", f.Verdict, f.Reason, shutdownReason)
		}
		if kinds := findingKinds(fl); !slices.Contains(kinds, findingShutdown) {
			t.Errorf("findings %v, want %s", kinds, findingShutdown)
		}
	})
	t.Run("a shutdown called off is no finding (template)", func(t *testing.T) {
		fl := buildLines(t,
			`I1122 08:10:00.000000    2100 nodeshutdown_manager_linux.go:257] "Shutdown manager detected new shutdown event, isNodeShuttingDownNow" event=false`,
			`I1122 08:10:00.000100    2100 nodeshutdown_manager_linux.go:265] "Shutdown manager detected new shutdown event" event="cancelled"`)
		if kinds := findingKinds(fl); slices.Contains(kinds, findingShutdown) {
			t.Errorf("findings %v: a cancelled shutdown is none", kinds)
		}
	})
	t.Run("the node's Shutdown event in an export of its events (wild)", func(t *testing.T) {
		fl := buildWild(t, "flyte-3958-gke-nodeaffinity-json.log")
		i := slices.IndexFunc(fl.Findings, func(f Finding) bool { return f.Kind == findingShutdown })
		if i < 0 || !strings.Contains(fl.Findings[i].Message, "Shutdown manager detected shutdown event") {
			t.Errorf("findings %+v, want NodeShutdown in the event's words", fl.Findings)
		}
	})
	for _, tc := range []struct{ name, line, words string }{
		{"1.36 structured (template, kubelet.go, image_gc_manager.go)", `E1122 09:00:00.000000    2100 kubelet.go:1721] "Image garbage collection failed multiple times in a row" err="Failed to garbage collect required amount of images. Attempted to free 4523819827 bytes, but only found 0 bytes eligible to free."`, "Attempted to free 4523819827 bytes"},
		{"≤1.20 printf (template)", `E0521 10:00:00.000000    1234 kubelet.go:1347] Image garbage collection failed once. Stats initialization may not have completed yet: failed to get imageFs info: unable to find data in memory cache`, "Stats initialization may not have completed yet"},
		{"the eviction manager's node-level reclaim (template, eviction_manager.go reclaimNodeLevelResources, image_gc_manager.go freeSpace)", `I1122 09:00:00.000000    2100 eviction_manager.go:479] "Eviction manager: unexpected error when attempting to reduce resource pressure" resourceName="ephemeral-storage" err="wanted to free 9223372036854775807 bytes, but freed 0 bytes space with errors in image deletion: rpc error: code = Unknown desc = failed to remove image \"sha256:3f57d9401f8d42f986df300f0c69192fc41da28ccc8d797829467780db3dd741\": image is in use by a container"`, "errors in image deletion"},
		{"the node's event (template, kubelet.go)", `I1122 09:00:00.000100    2100 event.go:389] "Event occurred" object="node-a" fieldPath="" kind="Node" apiVersion="" type="Warning" reason="ImageGCFailed" message="Failed to garbage collect required amount of images. Attempted to free 4523819827 bytes, but only found 0 bytes eligible to free."`, "ImageGCFailed: Failed to garbage collect"},
	} {
		t.Run("image GC: "+tc.name, func(t *testing.T) {
			fl := buildLines(t, tc.line)
			i := slices.IndexFunc(fl.Findings, func(f Finding) bool { return f.Kind == findingImageGC })
			if i < 0 || !strings.Contains(fl.Findings[i].Message, tc.words) {
				t.Errorf("findings %+v, want %s saying %q", fl.Findings, findingImageGC, tc.words)
			}
			if strings.Contains(tc.line, "ephemeral-storage") && !slices.Contains(findingKinds(fl), "DiskPressure") {
				t.Errorf("findings %v, want DiskPressure beside it", findingKinds(fl))
			}
		})
	}
}
