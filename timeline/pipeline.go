package timeline

import "time"

// Scope says what a stage belongs to.
type Scope string

const (
	ScopePod         Scope = "pod"
	ScopeContainer   Scope = "container"
	ScopeTermination Scope = "termination"
)

// Effect is what a marker line does to its stage.
type Effect string

const (
	Begin    Effect = "begin"    // the stage started
	Complete Effect = "complete" // the stage finished
	Fail     Effect = "fail"     // an attempt failed; the error is the reason
	Retry    Effect = "retry"    // the kubelet is backing off before the next attempt
	Observe  Effect = "observe"  // evidence only
)

// Special names the extra handling a marker needs beyond its stage effect
// (identity, container-ID mapping, status decoding). The effect itself is
// still data.
type Special string

const (
	SpecialNone         Special = ""
	SpecialSyncLoop     Special = "syncloop"     // pods=[…] lists with a source
	SpecialPLEG         Special = "pleg"         // event={ID,Type,Data}
	SpecialEvent        Special = "event"        // "Event occurred": matched by reason
	SpecialSyncError    Special = "sync-error"   // "Error syncing pod": matched by the error's text
	SpecialStatusPatch  Special = "status-patch" // container statuses, conditions
	SpecialStartup      Special = "startup"      // "Observed pod startup duration"
	SpecialKubeletStart Special = "kubelet-start"
	SpecialVersion      Special = "version"
	SpecialFinished     Special = "container-finished" // exit codes
	SpecialNodeProblem  Special = "node-problem"
	SpecialFlag         Special = "flag"          // FLAG: --v=N
	SpecialInitAction   Special = "init-action"   // the runtime's own start and finish times of an init container
	SpecialStartFailed  Special = "start-failed"  // the runtime manager's "<type> <container> start failed in pod <pod>: <Reason>: <message>": stage by Reason
	SpecialSandboxCRI   Special = "sandbox-cri"   // a sandbox failure that names the pod only in the sandbox's name k8s_<name>_<ns>_<uid>_<attempt> (the CRI client's, CRI-O's)
	SpecialSandboxCRIO  Special = "sandbox-crio"  // CRI-O's own RunPodSandbox lines, the pod as <ns>/<name>/POD (sandbox.go)
	SpecialKill         Special = "kill"          // a kill line: the pod's termination only after a pod-level signal (termination.go)
	SpecialProbe        Special = "probe"         // a failed probe, kept on its container (probes.go)
	SpecialEviction     Special = "eviction"      // the eviction manager (eviction.go)
	SpecialAdmission    Special = "admission"     // an admit result: reason and message (admission.go)
	SpecialImagePull    Special = "image-pull"    // a pull failure naming only the image: held until a line names its container (images.go)
	SpecialVolumeMount  Special = "volume-mount"  // the volume manager's detailed message: the pod as pod "name" (UID: "uid") in its text (volumes.go)
	SpecialConfigPod    Special = "config-pod"    // a static pod as the file or http config source makes it, before the sync loop's ADD (syncloop.go)
	SpecialResize       Special = "resize"        // the in-place resize check of a running container (containers.go)
	SpecialNodeTaint    Special = "node-taint"    // kube-controller-manager's NotReady taint of a node: a finding on that node when the log has its kubelet (nodes.go)
	SpecialPodName      Special = "pod-name"      // a line that may name its pod by its name alone: podName (and podNamespace), or pod= a bare name (podmanager.go)
	SpecialDevicePlugin Special = "device-plugin" // a device plugin's health: a node finding (devicemanager.go)
	SpecialSidecar      Special = "sidecar"       // a restartable init container's line (containers.go)
	SpecialShutdown     Special = "shutdown"      // graceful node shutdown (nodeshutdown.go)
	SpecialImageGC      Special = "image-gc"      // an image garbage collection failure: a node finding (images.go)
	SpecialRuntimeStart Special = "runtime-start" // the CRI client's failed StartContainer, naming the container by its ID or log path (containers.go)
)

// StageDef describes one stage of the reference pipeline.
type StageDef struct {
	ID        string        `json:"id"`
	Scope     Scope         `json:"scope"`
	Title     string        `json:"title"`
	Completes string        `json:"completes"`
	Fails     string        `json:"fails"`
	Budget    time.Duration `json:"-"`
	BudgetStr string        `json:"budget"`
	// MinV is the lowest kubelet -v at which this stage's completion can be seen.
	MinV int `json:"minV"`
}

// Marker is one log message that moves a stage.
type Marker struct {
	Stage     string  `json:"stage"`
	Effect    Effect  `json:"effect"`
	Msg       string  `json:"msg,omitempty"`      // exact structured message (text and JSON formats)
	Prefix    string  `json:"prefix,omitempty"`   // message prefix (printf forms)
	Event     string  `json:"event,omitempty"`    // "Event occurred" reason
	EventMsg  string  `json:"eventMsg,omitempty"` // and message prefix, where a reason is shared
	ErrHas    string  `json:"errHas,omitempty"`   // substring of the "Error syncing pod" error
	V         int     `json:"v"`                  // the kubelet logs it at -v ≥ V (0: always)
	Versions  string  `json:"versions"`           // kubelet versions that write this form
	Keys      string  `json:"keys,omitempty"`     // keys that identify the pod/container
	Special   Special `json:"special,omitempty"`
	Container bool    `json:"container,omitempty"` // a container stage: the line names the container
}

// Pipeline is the reference pipeline: stages in order and their markers.
type Pipeline struct {
	Stages  []StageDef `json:"stages"`
	Markers []Marker   `json:"markers"`
}

// Stage ids (part of the public output).
const (
	StObserved       = "observed"
	StAdmitted       = "admitted"
	StSynced         = "synced"
	StVolumes        = "volumes"
	StSandbox        = "sandbox"
	StInitContainers = "init-containers"
	StContainers     = "containers"
	StRunning        = "running"
	StReady          = "ready"

	CStImage     = "image"
	CStCreated   = "created"
	CStStarted   = "started"
	CStCompleted = "completed"

	StTerminating = "terminating"
	StStopped     = "stopped"
	StTerminated  = "terminated"
)

// CrashLoopReset is how long a container the kubelet restarted must run
// for its crash loop to be over, beside the stages' budgets: the kubelet
// forgets a container's restart back-off when the container, at its next
// exit, had run longer than this since the back-off last moved (its
// restart). Before 1.32, client-go's util/flowcontrol/backoff.go
// hasExpired, past twice the maximum, pkg/kubelet/kubelet.go's
// MaxContainerBackOff of 300 s; since, kubelet.go's crash-loop back-off
// sets its HasExpiredFunc to 600 s whatever its configured maximum. The
// docs: after 10 minutes without any problems the kubelet resets the
// restart back-off timer. A container whose last start the log shows,
// then this long with nothing failing, has recovered (crashRecovered).
const CrashLoopReset = 10 * time.Minute

// Reference is the built-in reference pipeline, reviewed against the
// kubelet source of 1.19, 1.20, 1.23, 1.26, 1.28 and 1.33–1.36 (see
// shared/reference/kubelet-log-catalog.md) and the real logs in testdata/.
// Every form is matched whatever version the log is from, so a log of an
// unlisted version still reads; Versions documents where each form occurs.
var Reference = Pipeline{
	Stages: []StageDef{
		{ID: StObserved, Scope: ScopePod, Title: "Pod seen by the sync loop", Completes: "SyncLoop ADD (source api, file or http)", Budget: 0, MinV: 2},
		{ID: StAdmitted, Scope: ScopePod, Title: "Admitted", Completes: "admission passed (implied by the pod worker starting)", Fails: "Pod admission denied / Failed to admit pod / Predicate failed on Pod", Budget: 10 * time.Second, MinV: 4},
		{ID: StSynced, Scope: ScopePod, Title: "Pod worker dispatched, SyncPod entered", Completes: "SyncPod enter (syncPod enter before 1.27)", Budget: 10 * time.Second, MinV: 4},
		{ID: StVolumes, Scope: ScopePod, Title: "Volumes attached and mounted", Completes: "All volumes are attached and mounted for pod", Fails: "Unable to attach or mount volumes / unmounted volumes=[…] / FailedMount", Budget: 2*time.Minute + 3*time.Second, MinV: 3},
		{ID: StSandbox, Scope: ScopePod, Title: "Sandbox created and networked", Completes: "Created PodSandbox for pod (or the sandbox's PLEG ContainerStarted)", Fails: "CreatePodSandbox for pod failed / FailedCreatePodSandBox / CreatePodSandboxError", Budget: 30 * time.Second, MinV: 2},
		{ID: StInitContainers, Scope: ScopePod, Title: "Init containers ran to completion", Completes: "every init container exited 0", Fails: "an init container failed (Init:CrashLoopBackOff, image or start errors)", Budget: 5 * time.Minute, MinV: 2},
		{ID: StContainers, Scope: ScopePod, Title: "Containers created and started", Completes: "every container Started", Fails: "image pull, create or start errors", Budget: 2 * time.Minute, MinV: 2},
		{ID: StRunning, Scope: ScopePod, Title: "All containers running, seen by PLEG", Completes: "PLEG ContainerStarted for every container", Fails: "a container exited (CrashLoopBackOff)", Budget: 30 * time.Second, MinV: 2},
		{ID: StReady, Scope: ScopePod, Title: "Ready and status reported", Completes: "Ready condition True in a status patch, or readiness probe ready", Fails: "readiness probe failing", Budget: 5 * time.Minute, MinV: 1},

		{ID: CStImage, Scope: ScopeContainer, Title: "Image present or pulled", Completes: "event Pulled", Fails: "event Failed (Failed to pull image) / ErrImagePull / ImagePullBackOff", Budget: 60 * time.Second, MinV: 3},
		{ID: CStCreated, Scope: ScopeContainer, Title: "Container created", Completes: "event Created", Fails: "CreateContainerError / CreateContainerConfigError", Budget: 30 * time.Second, MinV: 3},
		{ID: CStStarted, Scope: ScopeContainer, Title: "Container started", Completes: "event Started / PLEG ContainerStarted", Fails: "RunContainerError / CrashLoopBackOff", Budget: 30 * time.Second, MinV: 2},
		{ID: CStCompleted, Scope: ScopeContainer, Title: "Init container completed", Completes: "PLEG ContainerDied with exit code 0", Fails: "non-zero exit, Init:CrashLoopBackOff", Budget: 5 * time.Minute, MinV: 2},

		{ID: StTerminating, Scope: ScopeTermination, Title: "Deletion seen, kill begun", Completes: "Killing container with a grace period / SyncTerminatingPod enter", Budget: 10 * time.Second, MinV: 2},
		{ID: StStopped, Scope: ScopeTermination, Title: "All containers stopped", Completes: "Pod termination stopped all running containers / SyncTerminatingPod exit", Fails: "KillPod failed / Container termination failed", Budget: 2 * time.Minute, MinV: 4},
		{ID: StTerminated, Scope: ScopeTermination, Title: "Pod cleaned up and removed", Completes: "SyncTerminatedPod exit / SyncLoop REMOVE", Budget: 2 * time.Minute, MinV: 2},
	},
	Markers: []Marker{
		// Sync loop (kubelet.go syncLoopIteration).
		{Stage: StObserved, Effect: Complete, Msg: "SyncLoop ADD", V: 2, Versions: "1.21+", Keys: "source, pods", Special: SpecialSyncLoop},
		{Stage: StObserved, Effect: Complete, Prefix: "SyncLoop (ADD, ", V: 2, Versions: "≤1.20", Keys: "name_ns(uid)", Special: SpecialSyncLoop},
		{Stage: StTerminating, Effect: Begin, Msg: "SyncLoop DELETE", V: 2, Versions: "1.21+", Keys: "source, pods", Special: SpecialSyncLoop},
		{Stage: StTerminating, Effect: Begin, Prefix: "SyncLoop (DELETE, ", V: 2, Versions: "≤1.20", Special: SpecialSyncLoop},
		{Stage: StTerminated, Effect: Complete, Msg: "SyncLoop REMOVE", V: 2, Versions: "1.21+", Keys: "source, pods", Special: SpecialSyncLoop},
		{Stage: StTerminated, Effect: Complete, Prefix: "SyncLoop (REMOVE, ", V: 2, Versions: "≤1.20", Special: SpecialSyncLoop},
		// A change to a pod the sync loop has (its spec: UPDATE; its status
		// alone: RECONCILE): a pod the log never saw added was added before
		// the log begins.
		{Stage: StObserved, Effect: Observe, Msg: "SyncLoop UPDATE", V: 2, Versions: "1.21+", Keys: "source, pods", Special: SpecialSyncLoop},
		{Stage: StObserved, Effect: Observe, Prefix: "SyncLoop (UPDATE, ", V: 2, Versions: "≤1.20", Keys: "name_ns(uid)", Special: SpecialSyncLoop},
		{Stage: StObserved, Effect: Observe, Msg: "SyncLoop RECONCILE", V: 4, Versions: "1.21+", Keys: "source, pods", Special: SpecialSyncLoop},
		{Stage: StObserved, Effect: Observe, Prefix: "SyncLoop (RECONCILE, ", V: 4, Versions: "≤1.20", Keys: "name_ns(uid)", Special: SpecialSyncLoop},
		// The file and http config sources make a static pod of a manifest
		// (config/common.go applyDefaults) before the sync loop adds it.
		{Stage: StObserved, Effect: Begin, Msg: "Generated pod name", V: 5, Versions: "1.21+", Keys: "pod, podUID, source (the manifest's path or URL)", Special: SpecialConfigPod},
		{Stage: StObserved, Effect: Begin, Msg: "Set namespace for pod", V: 5, Versions: "1.21+", Keys: "pod, source (the manifest's path or URL)", Special: SpecialConfigPod},
		{Stage: StRunning, Effect: Observe, Msg: "SyncLoop (PLEG): event for pod", V: 2, Versions: "1.21+", Keys: "pod, event.ID", Special: SpecialPLEG},
		{Stage: StRunning, Effect: Observe, Prefix: "SyncLoop (PLEG): ", V: 2, Versions: "≤1.20", Special: SpecialPLEG},
		{Stage: StReady, Effect: Complete, Msg: "SyncLoop (probe)", V: 1, Versions: "1.23+", Keys: "probe=readiness status=ready, pod"},

		// Admission.
		{Stage: StAdmitted, Effect: Complete, Msg: "Pod Admit Result", V: 4, Versions: "1.33+", Keys: "pod, Message (the topology manager's; set when it refuses)", Special: SpecialAdmission},
		{Stage: StAdmitted, Effect: Fail, Msg: "Pod admission denied", V: 0, Versions: "1.29+", Keys: "podUID, pod, reason, message", Special: SpecialAdmission},
		{Stage: StAdmitted, Effect: Fail, Msg: "Failed to admit pod", V: 0, Versions: "1.23–1.28", Keys: "pod, message", Special: SpecialAdmission},
		{Stage: StAdmitted, Effect: Fail, Msg: "Failed to admit pod, unexpected error while attempting to recover from admission failure", V: 0, Versions: "1.23+", Keys: "pod, err", Special: SpecialAdmission},
		{Stage: StAdmitted, Effect: Fail, Msg: "Predicate failed on Pod", V: 2, Versions: "1.23–1.28", Keys: "pod, err", Special: SpecialAdmission},
		{Stage: StAdmitted, Effect: Fail, Prefix: "Predicate failed on Pod: ", V: 2, Versions: "≤1.20", Keys: "name_ns(uid), for reason: <message>", Special: SpecialAdmission},
		{Stage: StAdmitted, Effect: Fail, Msg: "Failed to admit pod to node", V: 0, Versions: "1.23–1.28", Keys: "pod, nodeCondition", Special: SpecialAdmission},
		{Stage: StAdmitted, Effect: Fail, Prefix: "Failed to admit pod ", V: 0, Versions: "≤1.20", Keys: "name_ns(uid) - <message>", Special: SpecialAdmission},
		// The event of a refused pod: its reason is the admit reason (kubelet.go rejectPod).
		{Stage: StAdmitted, Effect: Fail, Event: "OutOf*", V: 3, Versions: "all", Keys: "OutOfcpu, OutOfmemory, OutOfpods, OutOf<extended resource>"},
		{Stage: StAdmitted, Effect: Fail, Event: "NodeAffinity", V: 3, Versions: "all"},
		{Stage: StAdmitted, Effect: Fail, Event: "NodeName", V: 3, Versions: "all"},
		{Stage: StAdmitted, Effect: Fail, Event: "NodePorts", V: 3, Versions: "all"},
		{Stage: StAdmitted, Effect: Fail, Event: "TaintToleration", V: 3, Versions: "all"},
		{Stage: StAdmitted, Effect: Fail, Event: "TopologyAffinityError", V: 3, Versions: "1.18+"},
		{Stage: StAdmitted, Effect: Fail, Event: "UnexpectedAdmissionError", V: 3, Versions: "all"},
		{Stage: StAdmitted, Effect: Fail, Event: "UnexpectedPredicateFailureType", V: 3, Versions: "all"},
		{Stage: StAdmitted, Effect: Fail, Event: "SysctlForbidden", V: 3, Versions: "all"},
		{Stage: StAdmitted, Effect: Fail, Event: "NodeShutdown", V: 3, Versions: "1.21+"},
		{Stage: StAdmitted, Effect: Fail, Event: "InvalidNodeInfo", V: 3, Versions: "1.23+"},
		{Stage: StAdmitted, Effect: Fail, Event: "PodOSNotSupported", V: 3, Versions: "1.23+"},
		{Stage: StAdmitted, Effect: Fail, Event: "PodOSSelectorNodeLabelDoesNotMatch", V: 3, Versions: "1.23+"},
		{Stage: StAdmitted, Effect: Fail, Event: "Evicted", EventMsg: "The node had condition", V: 3, Versions: "all"}, // the eviction manager's admit handler
		// The resource managers' admit handlers (cm/topologymanager, cpumanager,
		// memorymanager, devicemanager: the topology manager asks the others
		// for NUMA hints, and each allocates; devicemanager.go):
		// the hints and allocations they log for a pod being admitted are
		// evidence of its admission; their errors fail it (the refusal itself
		// is "Pod admission denied" with the handler's reason: TopologyAffinityError,
		// SMTAlignmentError, UnexpectedAdmissionError "Allocate failed due to …").
		{Stage: StAdmitted, Effect: Observe, Msg: "Topology Admit Handler", V: 0, Versions: "1.21–1.30 (topology_manager.go Admit)", Keys: "podUID, podNamespace, podName", Special: SpecialPodName},
		{Stage: StAdmitted, Effect: Observe, Msg: "Topology manager admission check", V: 4, Versions: "1.33+", Keys: "pod"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Best TopologyHint", V: 0, Versions: "1.21+ (scope_container.go, scope_pod.go)", Keys: "bestHint, pod[, containerName]"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Topology Affinity", V: 0, Versions: "1.21+ (scope_*.go; cpumanager policy_static.go)", Keys: "bestHint|affinity, pod, containerName"},
		{Stage: StAdmitted, Effect: Observe, Msg: "TopologyHints", V: 0, Versions: "1.21+", Keys: "hints, pod[, containerName]"},
		{Stage: StAdmitted, Effect: Observe, Msg: "ContainerTopologyHint", V: 0, Versions: "1.21+", Keys: "bestHint, pod, containerName"},
		{Stage: StAdmitted, Effect: Observe, Msg: "PodTopologyHint", V: 0, Versions: "1.21+", Keys: "bestHint, pod"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Calling AllocatePod on hint providers", V: 4, Versions: "1.36+", Keys: "pod"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Static policy: Allocate", V: 0, Versions: "1.21–1.35 (cpumanager policy_static.go)", Keys: "pod, containerName"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Allocate start", V: 0, Versions: "1.35+ (cpumanager policy_static.go)", Keys: "pod, podUID, containerName (the logger's)"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Static policy: container already present in state, skipping", V: 0, Versions: "1.21+ (cpumanager)", Keys: "pod, containerName"},
		{Stage: StAdmitted, Effect: Observe, Msg: "CPUs already allocated to container with different number than request", V: 0, Versions: "1.21+ (cpumanager)", Keys: "pod, containerName, requestedSize, allocatedSize"},
		{Stage: StAdmitted, Effect: Fail, Msg: "Unable to allocate CPUs", V: 0, Versions: "1.21+ (cpumanager policy_static.go)", Keys: "err (not enough cpus available to satisfy request: …), pod, containerName, numCPUs"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Allocate", V: 0, Versions: "1.21+ (memorymanager policy_static.go)", Keys: "pod, containerName"},
		{Stage: StAdmitted, Effect: Fail, Msg: "Allocate error", V: 0, Versions: "1.21+ (cpu_manager.go: err only; memory_manager.go: err, pod, containerName)", Keys: "err[, pod, containerName]"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Pod admission will fail", V: 2, Versions: "1.36+ (memorymanager)", Keys: "error, pod (the logger's)"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Looking for needed resources", V: 3, Versions: "1.21+ (devicemanager manager.go)", Keys: "resourceName, pod, containerName, needed"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Need devices to allocate for pod", V: 3, Versions: "1.21+ (devicemanager)", Keys: "deviceNumber, resourceName, podUID, containerName"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Found pre-allocated devices for resource on pod", V: 3, Versions: "1.21+ (devicemanager)", Keys: "resourceName, containerName, podUID, devices"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Issuing a GetPreferredAllocation call for container", V: 4, Versions: "1.21+ (devicemanager)", Keys: "resourceName, containerName, podUID"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Making allocation request for device plugin", V: 4, Versions: "1.21+ (devicemanager)", Keys: "devices, resourceName, pod, containerName"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Needs to re-allocate device plugin resources for pod", V: 2, Versions: "1.21+ (devicemanager, after a kubelet restart)", Keys: "pod, containerName"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Resource does not have a topology preference", V: 0, Versions: "1.21+ (devicemanager topology_hints.go)", Keys: "resourceName, pod[, containerName], request"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Resource already allocated to pod with different number than request", V: 0, Versions: "1.21+ (devicemanager topology_hints.go)", Keys: "resourceName, pod[, containerName], request, allocated"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Regenerating TopologyHints for resource already allocated to pod", V: 0, Versions: "1.21+ (devicemanager topology_hints.go)", Keys: "resourceName, pod[, containerName]"},
		{Stage: StAdmitted, Effect: Observe, Msg: "Unable to generate topology hints: requested number of devices unavailable", V: 0, Versions: "1.21+ (devicemanager topology_hints.go; an error before 1.3x)", Keys: "resourceName, pod[, containerName], request, available"},
		{Stage: CStCreated, Container: true, Effect: Observe, Msg: "Issuing a PreStartContainer call for container", V: 4, Versions: "1.21+ (devicemanager)", Keys: "containerName, podUID"},
		// The device plugins' health (devicemanager manager.go, plugin/v1beta1/client.go):
		// a node finding, DevicePluginUnhealthy (devicemanager.go).
		{Stage: "", Effect: Observe, Msg: "Endpoint became unhealthy", V: 2, Versions: "1.21+", Keys: "resourceName", Special: SpecialDevicePlugin},
		{Stage: "", Effect: Observe, Msg: "Mark all resources Unhealthy for resource", V: 2, Versions: "1.21+", Keys: "resourceName", Special: SpecialDevicePlugin},
		{Stage: "", Effect: Observe, Msg: "Device plugin disconnected", V: 2, Versions: "1.33+", Keys: "resource", Special: SpecialDevicePlugin},

		// Pod workers and SyncPod.
		{Stage: StSynced, Effect: Begin, Msg: "Pod is being synced for the first time", V: 4, Versions: "1.22+", Keys: "pod, podUID"},
		{Stage: StSynced, Effect: Begin, Msg: "Notifying pod of pending update", V: 4, Versions: "1.27+", Keys: "pod, podUID, workType"},
		{Stage: StSynced, Effect: Complete, Msg: "SyncPod enter", V: 4, Versions: "1.27+", Keys: "pod, podUID"},
		{Stage: StSynced, Effect: Complete, Msg: "syncPod enter", V: 4, Versions: "1.22–1.26", Keys: "pod, podUID"},
		{Stage: StSynced, Effect: Fail, Msg: "Error syncing pod, skipping", V: 0, Versions: "1.21+", Keys: "err, pod, podUID", Special: SpecialSyncError},
		{Stage: StSynced, Effect: Fail, Prefix: "Error syncing pod ", V: 0, Versions: "≤1.20", Keys: "uid, name_ns(uid)", Special: SpecialSyncError},
		// A later part of a ≤1.20 sync error on a journal line of its own (the
		// part before it ended in a newline): its head, and the pod it named,
		// are on the line before.
		{Stage: StSynced, Effect: Fail, Prefix: ", failed to \"", V: 0, Versions: "≤1.20", Keys: "a KillPodSandbox part's target: the pod's UID", Special: SpecialSyncError},

		// Volumes.
		{Stage: StVolumes, Effect: Begin, Msg: "Waiting for volumes to attach and mount for pod", V: 3, Versions: "1.21+", Keys: "pod"},
		{Stage: StVolumes, Effect: Begin, Prefix: "Waiting for volumes to attach and mount for pod ", V: 3, Versions: "≤1.20"},
		{Stage: StVolumes, Effect: Complete, Msg: "All volumes are attached and mounted for pod", V: 3, Versions: "1.21+", Keys: "pod"},
		{Stage: StVolumes, Effect: Complete, Prefix: "All volumes are attached and mounted for pod ", V: 3, Versions: "≤1.20"},
		{Stage: StVolumes, Effect: Observe, Prefix: "operationExecutor.MountVolume started for volume ", V: 1, Versions: "all", Keys: "pod \"name\" (UID: \"uid\") in the text; pod (1.21+)", Special: SpecialVolumeMount},
		{Stage: StVolumes, Effect: Observe, Prefix: "MountVolume.SetUp succeeded for volume ", V: 1, Versions: "all", Keys: "pod \"name\" (UID: \"uid\") in the text; pod (1.21+)", Special: SpecialVolumeMount},
		{Stage: StVolumes, Effect: Fail, Msg: "Unable to attach or mount volumes for pod; skipping pod", V: 0, Versions: "1.21+", Keys: "err, pod"},
		{Stage: StVolumes, Effect: Fail, Prefix: "Unable to attach or mount volumes for pod ", V: 0, Versions: "≤1.20"},
		{Stage: StVolumes, Effect: Fail, Prefix: "Unable to mount volumes for pod ", V: 0, Versions: "≤1.12", Keys: "name_ns(uid)"},
		{Stage: StVolumes, Effect: Fail, Event: "FailedMount", V: 3, Versions: "all"},
		{Stage: StVolumes, Effect: Fail, Event: "FailedAttachVolume", V: 3, Versions: "all"},
		{Stage: StVolumes, Effect: Fail, ErrHas: "unmounted volumes=", V: 0, Versions: "all", Special: SpecialSyncError},

		// Sandbox.
		{Stage: StSandbox, Effect: Begin, Msg: "No sandbox for pod can be found. Need to start a new one", V: 2, Versions: "1.21+", Keys: "pod"},
		{Stage: StSandbox, Effect: Begin, Prefix: "No sandbox for pod ", V: 2, Versions: "≤1.20"},
		{Stage: StSandbox, Effect: Begin, Msg: "Creating PodSandbox for pod", V: 4, Versions: "1.21+", Keys: "pod"},
		{Stage: StSandbox, Effect: Begin, Prefix: "Creating PodSandbox for pod ", V: 4, Versions: "≤1.20"},
		{Stage: StSandbox, Effect: Begin, Prefix: "Need to restart pod infra container for ", V: 2, Versions: "1.2–1.5 (dockertools: the pod infra container is the sandbox)", Keys: "name_ns(uid)"},
		{Stage: StSandbox, Effect: Begin, Prefix: "Creating pod infra container for ", V: 4, Versions: "1.2–1.5 (dockertools)", Keys: "name_ns(uid)"},
		{Stage: StSandbox, Effect: Complete, Msg: "Created PodSandbox for pod", V: 4, Versions: "1.21+", Keys: "podSandboxID, pod"},
		{Stage: StSandbox, Effect: Complete, Prefix: "Created PodSandbox ", V: 4, Versions: "≤1.20"},
		{Stage: StSandbox, Effect: Fail, Msg: "CreatePodSandbox for pod failed", V: 0, Versions: "1.21+", Keys: "err, pod"},
		{Stage: StSandbox, Effect: Fail, Prefix: "createPodSandbox for pod ", V: 0, Versions: "≤1.20"},
		{Stage: StSandbox, Effect: Fail, Prefix: "Failed to create pod infra container: ", V: 0, Versions: "≤1.5 (dockertools)", Keys: "err; Skipping pod name_ns(uid) (≤1.1 name_ns)"},
		{Stage: StSandbox, Effect: Fail, Msg: "Failed to create sandbox for pod", V: 0, Versions: "1.21+", Keys: "err, pod"},
		// The sandbox's config, the pod's user namespace mappings among it
		// (kuberuntime_sandbox.go createPodSandbox; userns/userns_manager.go
		// GetOrCreateUserNamespaceMappings: "user namespace: …", "create user
		// namespace: …", "could not find an empty slot to allocate a user
		// namespace", the runtime's lack of support).
		{Stage: StSandbox, Effect: Fail, Msg: "Failed to generate sandbox config for pod", V: 0, Versions: "1.21+", Keys: "err, pod"},
		{Stage: StSandbox, Effect: Observe, Msg: "new pod user namespace allocation", V: 5, Versions: "1.26+ (userns_manager.go)", Keys: "podUID"},
		{Stage: StTerminated, Effect: Observe, Msg: "releasing pod user namespace allocation", V: 5, Versions: "1.26+ (userns_manager.go)", Keys: "podUID"},
		// Dynamic resource allocation: SyncPod prepares the pod's resource
		// claims before it makes the sandbox (kuberuntime_manager.go, the DRA
		// manager cm/dra/manager.go PrepareResources), and a failure returns
		// with no sandbox; SyncTerminatingPod unprepares them once its
		// containers stopped (kubelet.go), a failure its sync error.
		{Stage: StSandbox, Effect: Fail, Msg: "Failed to prepare dynamic resources", V: 0, Versions: "1.28+ (kuberuntime_manager.go SyncPod)", Keys: "err (prepare dynamic resources: …, NodePrepareResources failed …), pod"},
		{Stage: StSandbox, Effect: Fail, Event: "FailedPrepareDynamicResources", V: 3, Versions: "1.28+", Keys: "Failed to prepare dynamic resources: <err>"},
		{Stage: StSandbox, Effect: Observe, Msg: "Processing resource", V: 3, Versions: "1.26+ (cm/dra manager.go; pod a name alone before 1.31)", Keys: "pod, podClaim (claim before 1.27)", Special: SpecialPodName},
		{Stage: StSandbox, Effect: Observe, Msg: "No need to prepare resources, no claim generated", V: 5, Versions: "1.31+", Keys: "pod, podClaim"},
		{Stage: StSandbox, Effect: Observe, Msg: "Resources already prepared", V: 5, Versions: "1.31+", Keys: "pod, podClaim, claim"},
		{Stage: StStopped, Effect: Fail, ErrHas: "NodeUnprepareResources", V: 0, Versions: "1.26+ (cm/dra manager.go)", Special: SpecialSyncError},
		{Stage: StStopped, Effect: Fail, ErrHas: "unprepare resource claim: ", V: 0, Versions: "1.26–1.33", Special: SpecialSyncError},
		{Stage: StTerminated, Effect: Observe, Msg: "Unpreparing pod resources in reconcile loop failed, will retry", V: 0, Versions: "1.32+", Keys: "podUID, err"},
		{Stage: StSandbox, Effect: Fail, Event: "FailedCreatePodSandBox", V: 3, Versions: "all"},
		{Stage: StSandbox, Effect: Fail, Msg: "RunPodSandbox from runtime service failed", V: 0, Versions: "1.21+", Keys: "err (k8s_<name>_<ns>_<uid>_<attempt>)", Special: SpecialSandboxCRI},
		{Stage: StSandbox, Effect: Fail, Prefix: "RunPodSandbox from runtime service failed: ", V: 0, Versions: "≤1.20", Keys: "k8s_<name>_<ns>_<uid>_<attempt>", Special: SpecialSandboxCRI},
		{Stage: StSandbox, Effect: Fail, ErrHas: "CreatePodSandboxError", V: 0, Versions: "all", Special: SpecialSyncError},
		// kubelet.go syncPod refuses to make a sandbox while the runtime's
		// network is not ready (NetworkNotReadyErrorMsg): the pod waits at
		// its sandbox, and the node has a NetworkNotReady finding.
		{Stage: StSandbox, Effect: Fail, ErrHas: "network is not ready: ", V: 0, Versions: "all", Special: SpecialSyncError},
		// CRI-O's own lines of a RunPodSandbox (server/sandbox_run_linux.go):
		// the pod as <ns>/<name>/POD, or only in the sandbox's name inside
		// an error. Versions are CRI-O's (capitalised forms are also seen
		// from the versions that write them in lower case).
		{Stage: StSandbox, Effect: Begin, Prefix: "Attempting to run pod sandbox with infra container: ", V: 0, Versions: "CRI-O ≤1.15", Keys: "<ns>/<name>/POD", Special: SpecialSandboxCRIO},
		{Stage: StSandbox, Effect: Begin, Prefix: "attempting to run pod sandbox with infra container: ", V: 0, Versions: "CRI-O 1.16–1.18.2", Keys: "<ns>/<name>/POD", Special: SpecialSandboxCRIO},
		{Stage: StSandbox, Effect: Begin, Prefix: "Running pod sandbox: ", V: 0, Versions: "CRI-O 1.18.3+", Keys: "<ns>/<name>/POD", Special: SpecialSandboxCRIO},
		{Stage: StSandbox, Effect: Complete, Prefix: "Ran pod sandbox ", V: 0, Versions: "CRI-O ≤1.15, 1.18.3+", Keys: "[<id> ]with infra container: <ns>/<name>/POD", Special: SpecialSandboxCRIO},
		{Stage: StSandbox, Effect: Complete, Prefix: "ran pod sandbox ", V: 0, Versions: "CRI-O 1.16–1.18.2", Keys: "[<id> ]with infra container: <ns>/<name>/POD", Special: SpecialSandboxCRIO},
		{Stage: StSandbox, Effect: Fail, Prefix: "error reserving pod name ", V: 0, Versions: "CRI-O all", Keys: "k8s_<name>_<ns>_<uid>_<attempt> for id <id>: name is reserved", Special: SpecialSandboxCRI},
		{Stage: StSandbox, Effect: Fail, Prefix: "Error reserving pod name ", V: 0, Versions: "CRI-O (capitalised)", Keys: "k8s_<name>_<ns>_<uid>_<attempt> for id <id>: name is reserved", Special: SpecialSandboxCRI},
		{Stage: StSandbox, Effect: Fail, Prefix: "response error: ", V: 0, Versions: "CRI-O 1.16–1.21 (log_level debug)", Keys: "a RunPodSandbox's error naming k8s_<name>_<ns>_<uid>_<attempt> (name=…/RunPodSandbox when set)", Special: SpecialSandboxCRI},
		{Stage: StSandbox, Effect: Fail, Prefix: "Response error: ", V: 0, Versions: "CRI-O 1.22+ (log_level debug)", Keys: "a RunPodSandbox's error naming k8s_<name>_<ns>_<uid>_<attempt> (name=…/RunPodSandbox when set)", Special: SpecialSandboxCRI},
		{Stage: StSandbox, Effect: Fail, ErrHas: "KillPodSandboxError", V: 0, Versions: "all", Special: SpecialSyncError},

		// Containers: image.
		{Stage: CStImage, Container: true, Effect: Begin, Event: "Pulling", V: 3, Versions: "all", Keys: "object, fieldPath"},
		{Stage: CStImage, Container: true, Effect: Complete, Event: "Pulled", V: 3, Versions: "all", Keys: "object, fieldPath"},
		{Stage: CStImage, Container: true, Effect: Fail, Event: "Failed", EventMsg: "Failed to pull image", V: 3, Versions: "all"},
		{Stage: CStImage, Container: true, Effect: Fail, Event: "ErrImageNeverPull", V: 3, Versions: "all"},
		{Stage: CStImage, Container: true, Effect: Fail, Event: "InspectFailed", V: 3, Versions: "all"},
		{Stage: CStImage, Container: true, Effect: Retry, Event: "BackOff", EventMsg: "Back-off pulling image", V: 3, Versions: "all"},
		{Stage: CStImage, Container: true, Effect: Fail, ErrHas: "with ErrImagePull", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStImage, Container: true, Effect: Retry, ErrHas: "with ImagePullBackOff", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStImage, Container: true, Effect: Fail, ErrHas: "with ErrImageNeverPull", V: 0, Versions: "all", Special: SpecialSyncError},
		// The image manager's other refusals (images/types.go ErrImageInspect,
		// ErrInvalidImageName; image_manager.go): the container's image stage,
		// in "Error syncing pod" and the runtime manager's start failure alike.
		{Stage: CStImage, Container: true, Effect: Fail, ErrHas: "with ImageInspectError", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStImage, Container: true, Effect: Fail, ErrHas: "with InvalidImageName", V: 0, Versions: "all", Special: SpecialSyncError},
		// Pulls named only by the image (images.go): the image service client's and dockershim's.
		{Stage: CStImage, Container: true, Effect: Fail, Msg: "PullImage from image service failed", V: 0, Versions: "1.21+", Keys: "image, err", Special: SpecialImagePull},
		{Stage: CStImage, Container: true, Effect: Fail, Prefix: "PullImage \"", V: 0, Versions: "≤1.20", Keys: "\"<image>\" from image service failed: <err>", Special: SpecialImagePull},
		{Stage: CStImage, Container: true, Effect: Fail, Msg: "Failed to pull image", V: 0, Versions: "1.21+", Keys: "image, err", Special: SpecialImagePull},
		{Stage: CStImage, Container: true, Effect: Fail, Prefix: "Pull image \"", V: 0, Versions: "≤1.20", Keys: "\"<image>\" failed: <err>", Special: SpecialImagePull},
		{Stage: CStImage, Container: true, Effect: Observe, Prefix: "Pulling image \"", V: 2, Versions: "≤1.23 (dockershim)", Keys: "\"<image>\": \"<progress>\"", Special: SpecialImagePull},
		{Stage: CStImage, Container: true, Effect: Observe, Prefix: "Stop pulling image \"", V: 2, Versions: "≤1.23 (dockershim)", Keys: "\"<image>\": \"<progress>\"", Special: SpecialImagePull},
		{Stage: CStImage, Container: true, Effect: Fail, Prefix: "Cancel pulling image \"", V: 0, Versions: "≤1.23 (dockershim)", Keys: "\"<image>\" because of no progress for <d>", Special: SpecialImagePull},

		// Containers: create.
		{Stage: CStCreated, Container: true, Effect: Begin, Msg: "Creating container in pod", V: 4, Versions: "1.21+", Keys: "containerType, container, pod"},
		{Stage: CStCreated, Container: true, Effect: Complete, Event: "Created", V: 3, Versions: "all"},
		{Stage: CStCreated, Container: true, Effect: Fail, ErrHas: "with CreateContainerError", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStCreated, Container: true, Effect: Fail, ErrHas: "with CreateContainerConfigError", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStCreated, Container: true, Effect: Fail, ErrHas: "with PreCreateHookError", V: 0, Versions: "all", Special: SpecialSyncError},

		// Containers: start and run.
		{Stage: CStStarted, Container: true, Effect: Complete, Event: "Started", V: 3, Versions: "all"},
		{Stage: CStStarted, Container: true, Effect: Fail, ErrHas: "with RunContainerError", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStStarted, Container: true, Effect: Fail, ErrHas: "with PostStartHookError", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStStarted, Container: true, Effect: Fail, Prefix: "Error running pod ", V: 0, Versions: "≤1.1 (dockertools)", Keys: "name_ns, container"},
		{Stage: CStStarted, Container: true, Effect: Retry, ErrHas: "with CrashLoopBackOff", V: 0, Versions: "all", Special: SpecialSyncError},
		{Stage: CStStarted, Container: true, Effect: Retry, Event: "BackOff", EventMsg: "Back-off restarting failed container", V: 3, Versions: "all"},
		{Stage: CStStarted, Container: true, Effect: Observe, Event: "Failed", EventMsg: "Error: ", V: 3, Versions: "all"}, // create or start: the sync error says which
		{Stage: CStStarted, Container: true, Effect: Fail, Event: "FailedPostStartHook", V: 3, Versions: "all"},
		// The runtime manager's own report of a container it could not start
		// (kuberuntime_manager.go SyncPod, start): the stage is its Reason's,
		// as in "Error syncing pod".
		{Stage: CStImage, Container: true, Effect: Retry, Msg: "Container start failed in pod", V: 3, Versions: "1.21+", Keys: "containerType, container, pod, containerMessage, err=ImagePullBackOff", Special: SpecialStartFailed},
		{Stage: CStStarted, Container: true, Effect: Fail, Msg: "Unhandled Error", V: 0, Versions: "1.31+", Keys: "err=<type> <container> start failed in pod <name_ns(uid)>: <Reason>: <message>", Special: SpecialStartFailed},
		{Stage: CStStarted, Container: true, Effect: Fail, Prefix: "container &Container{", V: 0, Versions: "≤1.30", Keys: "<type> &Container{Name:…} start failed in pod <name_ns(uid)>: <Reason>: <message>", Special: SpecialStartFailed},
		{Stage: CStStarted, Container: true, Effect: Fail, Prefix: "init container &Container{", V: 0, Versions: "≤1.30", Special: SpecialStartFailed},
		{Stage: CStStarted, Container: true, Effect: Fail, Prefix: "ephemeral container &Container{", V: 0, Versions: "≤1.30", Special: SpecialStartFailed},
		{Stage: CStStarted, Container: true, Effect: Fail, Msg: "StartContainer from runtime service failed", V: 0, Versions: "1.21+", Keys: "containerID, err", Special: SpecialRuntimeStart},
		{Stage: CStStarted, Container: true, Effect: Fail, Prefix: "StartContainer \"", V: 0, Versions: "≤1.20", Keys: "\"<id>\": <err> (a log path in it may name the pod)", Special: SpecialRuntimeStart},
		// The runtime manager checks a running container's resources for an
		// in-place resize (computePodResizeAction) and finds no record of
		// what it actuated: the container runs, the kubelet goes on.
		{Stage: CStStarted, Container: true, Effect: Observe, Msg: "Missing actuated resource record", V: 0, Versions: "1.33+", Keys: "pod, container", Special: SpecialResize},
		{Stage: CStCompleted, Container: true, Effect: Observe, Msg: "Generic (PLEG): container finished", V: 4, Versions: "1.26+", Keys: "podID, containerID, exitCode", Special: SpecialFinished},
		{Stage: CStCompleted, Container: true, Effect: Observe, Msg: "Computing init container action", V: 4, Versions: "1.33+ (seen in 1.33 and 1.36)", Keys: "pod, container, status{State, StartedAt, FinishedAt, ExitCode}", Special: SpecialInitAction},
		{Stage: CStCompleted, Container: true, Effect: Observe, Msg: "Post-termination container state", V: 4, Versions: "1.23+", Keys: "pod, containers"},
		// Restartable init containers, sidecars (kuberuntime_container.go
		// computeInitContainerActions, kuberuntime_manager.go SyncPod): one
		// that runs is "initialized" and the next starts; it never completes
		// and does not hold the pod's containers back (containers.go sidecar).
		{Stage: CStCompleted, Container: true, Effect: Observe, Msg: "Init container has been initialized", V: 4, Versions: "1.28+", Keys: "pod, container", Special: SpecialSidecar},
		{Stage: CStStarted, Container: true, Effect: Observe, Msg: "Failed to start the restartable init container for the pod, skipping", V: 4, Versions: "1.28+", Keys: "initContainerName, pod", Special: SpecialSidecar},

		// In-place resize (allocation/allocation_manager.go since 1.34,
		// kubelet.go canResizePod before; kuberuntime_manager.go): the pod
		// runs on with what it had while a resize waits or is refused: the
		// lines are its own, evidence on its running stage, never a failure.
		{Stage: StRunning, Effect: Observe, Msg: "Pod resize is deferred; will reevaluate later", V: 4, Versions: "1.34+", Keys: "pod"},
		{Stage: StRunning, Effect: Observe, Msg: "Pod resize is infeasible", V: 4, Versions: "1.34+", Keys: "pod"},
		{Stage: StRunning, Effect: Observe, Msg: "Pod resize successfully allocated", V: 4, Versions: "1.34+", Keys: "pod"},
		{Stage: StRunning, Effect: Observe, Msg: "Successfully retried resize after timeout", V: 0, Versions: "1.34+", Keys: "pod"},
		{Stage: StRunning, Effect: Observe, Msg: "Failed to handle pod resources resize", V: 0, Versions: "1.34+", Keys: "err, pod"},
		{Stage: StRunning, Effect: Observe, Msg: "Allocated pod resize is not currently feasible", V: 0, Versions: "1.34+ (kuberuntime_manager.go)", Keys: "err, pod"},
		{Stage: StRunning, Effect: Observe, Msg: "Resize cannot be accommodated", V: 3, Versions: "1.27–1.33 (kubelet.go; pod a name alone before 1.32)", Keys: "pod, reason, message", Special: SpecialPodName},
		{Stage: StRunning, Effect: Observe, Msg: "Resize is not feasible as request exceeds allocatable node resources", V: 3, Versions: "1.27–1.31 (kubelet.go; pod a name alone)", Keys: "pod", Special: SpecialPodName},
		{Stage: StRunning, Effect: Observe, Event: "ResizeStarted", V: 3, Versions: "1.35+"},
		{Stage: StRunning, Effect: Observe, Event: "ResizeDeferred", V: 3, Versions: "1.32, 1.34+"},
		{Stage: StRunning, Effect: Observe, Event: "ResizeInfeasible", V: 3, Versions: "1.32, 1.34+"},
		{Stage: StRunning, Effect: Observe, Event: "ResizeCompleted", V: 3, Versions: "1.34+"},
		{Stage: StRunning, Effect: Observe, Event: "ResizeError", V: 3, Versions: "1.35+"},

		// Status.
		{Stage: StReady, Effect: Observe, Msg: "Patch status for pod", V: 3, Versions: "1.21+", Keys: "pod, podUID, patch", Special: SpecialStatusPatch},
		{Stage: StReady, Effect: Observe, Msg: "Observed pod startup duration", V: 0, Versions: "1.26+", Keys: "pod, podStartE2EDuration", Special: SpecialStartup},

		// Probes (prober.go) and the kill they cause (kuberuntime_manager.go computePodActions).
		{Stage: CStStarted, Container: true, Effect: Observe, Msg: "Probe failed", V: 1, Versions: "1.21+", Keys: "probeType, pod, podUID, containerName, probeResult, output", Special: SpecialProbe},
		{Stage: CStStarted, Container: true, Effect: Observe, Msg: "Probe errored", V: 1, Versions: "1.21+", Keys: "err, probeType, pod, podUID, containerName", Special: SpecialProbe},
		{Stage: CStStarted, Container: true, Effect: Observe, Prefix: "Liveness probe for ", V: 1, Versions: "≤1.20", Keys: "\"name_ns(uid):container\" failed (failure): output", Special: SpecialProbe},
		{Stage: CStStarted, Container: true, Effect: Observe, Prefix: "Readiness probe for ", V: 1, Versions: "≤1.20", Keys: "\"name_ns(uid):container\" failed (failure): output", Special: SpecialProbe},
		{Stage: CStStarted, Container: true, Effect: Observe, Prefix: "Startup probe for ", V: 1, Versions: "1.16–1.20", Keys: "\"name_ns(uid):container\" failed (failure): output", Special: SpecialProbe},
		{Stage: CStStarted, Container: true, Effect: Observe, Msg: "Message for Container of pod", V: 2, Versions: "1.21+", Keys: "containerName, containerStatusID, pod, containerMessage", Special: SpecialProbe},

		// Eviction (eviction_manager.go): node pressure, the ranking, the evicted pod.
		{Stage: "", Effect: Observe, Msg: "Eviction manager: attempting to reclaim", V: 0, Versions: "1.21+", Keys: "resourceName", Special: SpecialEviction},
		{Stage: "", Effect: Observe, Msg: "Eviction manager: must evict pod(s) to reclaim", V: 0, Versions: "1.21+", Keys: "resourceName", Special: SpecialEviction},
		{Stage: "", Effect: Observe, Msg: "Eviction manager: pods ranked for eviction", V: 0, Versions: "1.21+", Keys: "pods", Special: SpecialEviction},
		{Stage: "", Effect: Observe, Msg: "Eviction manager: cannot evict a critical pod", V: 0, Versions: "1.21+", Keys: "pod", Special: SpecialEviction},
		{Stage: "", Effect: Observe, Msg: "Eviction manager: unable to evict any pods from the node", V: 0, Versions: "1.21+", Special: SpecialEviction},
		// Before it evicts, the manager reclaims disk at the node's level
		// (reclaimNodeLevelResources: unused containers, then images: the
		// image GC's "Failed to garbage collect required amount of images").
		{Stage: "", Effect: Observe, Msg: "Eviction manager: unexpected error when attempting to reduce resource pressure", V: 0, Versions: "1.21+ (seen in 1.24–1.36)", Keys: "resourceName, err", Special: SpecialEviction},
		{Stage: "", Effect: Observe, Msg: "Eviction manager: able to reduce resource pressure without evicting pods.", V: 0, Versions: "1.21+ (seen in 1.24–1.36)", Keys: "resourceName", Special: SpecialEviction},
		{Stage: StTerminating, Effect: Begin, Msg: "Evicting pod", V: 3, Versions: "1.23+", Keys: "pod, podUID, message", Special: SpecialEviction},
		{Stage: StTerminating, Effect: Begin, Msg: "Eviction manager: pod is evicted successfully", V: 0, Versions: "1.21+", Keys: "pod", Special: SpecialEviction},
		{Stage: StTerminating, Effect: Begin, Msg: "Eviction manager: pods evicted, waiting for pod to be cleaned up", V: 0, Versions: "1.21+", Keys: "pods", Special: SpecialEviction},
		{Stage: StTerminating, Effect: Begin, Msg: "Eviction manager: pods successfully cleaned up", V: 0, Versions: "1.21+", Keys: "pods", Special: SpecialEviction},
		{Stage: StTerminating, Effect: Begin, Prefix: "eviction manager: ", V: 0, Versions: "≤1.20", Keys: "the same sentences with name_ns(uid)", Special: SpecialEviction},
		{Stage: StTerminating, Effect: Begin, Event: "Evicted", EventMsg: "The node was low on resource", V: 3, Versions: "all"},
		{Stage: StTerminating, Effect: Begin, Event: "Evicted", EventMsg: "Pod ephemeral local storage usage exceeds", V: 3, Versions: "1.21+"},
		{Stage: StTerminating, Effect: Begin, Event: "Evicted", EventMsg: "Usage of EmptyDir volume", V: 3, Versions: "1.21+"},
		{Stage: StTerminating, Effect: Begin, Event: "Evicted", EventMsg: "Container ", V: 3, Versions: "1.21+"}, // exceeded its local ephemeral storage limit

		// Termination.
		{Stage: StTerminating, Effect: Begin, Msg: "Pod has been deleted and must be killed", V: 3, Versions: "1.23+", Keys: "pod, podUID"},
		{Stage: StTerminating, Effect: Begin, Msg: "Pod is marked for graceful deletion, begin teardown", V: 4, Versions: "1.22+", Keys: "pod, podUID"},
		{Stage: StTerminating, Effect: Begin, Msg: "Pod is being removed by the kubelet, begin teardown", V: 4, Versions: "1.22+", Keys: "pod, podUID"},
		{Stage: StTerminating, Effect: Begin, Msg: "Pod is being evicted by the kubelet, begin teardown", V: 4, Versions: "1.22+", Keys: "pod, podUID", Special: SpecialEviction},
		{Stage: StTerminating, Effect: Complete, Msg: "Killing container with a grace period", V: 2, Versions: "1.23+", Keys: "pod, podUID, containerName, containerID", Special: SpecialKill},
		{Stage: StTerminating, Effect: Complete, Msg: "Killing container with a grace period override", V: 3, Versions: "1.23+", Keys: "pod, podUID, containerName, containerID", Special: SpecialKill},
		{Stage: StTerminating, Effect: Complete, Prefix: "Killing container ", V: 2, Versions: "≤1.20", Keys: "\"<runtime>://<id>\"", Special: SpecialKill},
		{Stage: StTerminating, Effect: Begin, Prefix: "Killing unwanted pod ", V: 2, Versions: "≤1.20 (podKiller)", Keys: "\"<name>\"", Special: SpecialKill},
		{Stage: StTerminating, Effect: Begin, Msg: "Delaying pod deletion as the phase is non-terminal", V: 3, Versions: "1.28+", Keys: "phase, localPhase, pod, podUID"},
		{Stage: StTerminating, Effect: Begin, Msg: "Preempting pod to free up resources", V: 0, Versions: "1.21+", Keys: "pod, podUID, insufficientResources"},
		{Stage: StTerminating, Effect: Complete, Msg: "SyncTerminatingPod enter", V: 4, Versions: "1.27+", Keys: "pod, podUID"},
		{Stage: StTerminating, Effect: Complete, Msg: "syncTerminatingPod enter", V: 4, Versions: "1.22–1.26", Keys: "pod, podUID"},
		{Stage: StStopped, Effect: Complete, Msg: "Pod termination stopped all running containers", V: 4, Versions: "1.23+", Keys: "pod, podUID"},
		{Stage: StStopped, Effect: Complete, Msg: "SyncTerminatingPod exit", V: 4, Versions: "1.27+", Keys: "pod, podUID"},
		{Stage: StStopped, Effect: Complete, Msg: "syncTerminatingPod exit", V: 4, Versions: "1.22–1.26", Keys: "pod, podUID"},
		{Stage: StStopped, Effect: Fail, Msg: "KillPod failed", V: 0, Versions: "1.23+", Keys: "err, pod"},
		{Stage: StStopped, Effect: Fail, Msg: "Container termination failed with gracePeriod", V: 0, Versions: "1.23+", Keys: "err, pod"},
		{Stage: StStopped, Effect: Fail, ErrHas: "KillContainerError", V: 0, Versions: "all", Special: SpecialSyncError},
		// The pod worker enters its terminated sync only once every
		// container has stopped (pod_workers.go: after SyncTerminatingPod).
		{Stage: StStopped, Effect: Complete, Msg: "SyncTerminatedPod enter", V: 4, Versions: "1.27+", Keys: "pod, podUID"},
		{Stage: StStopped, Effect: Complete, Msg: "syncTerminatedPod enter", V: 4, Versions: "1.22–1.26", Keys: "pod, podUID"},
		{Stage: StTerminated, Effect: Complete, Msg: "SyncTerminatedPod exit", V: 4, Versions: "1.27+", Keys: "pod, podUID"},
		{Stage: StTerminated, Effect: Complete, Msg: "syncTerminatedPod exit", V: 4, Versions: "1.22–1.26", Keys: "pod, podUID"},
		{Stage: StTerminated, Effect: Complete, Msg: "Pod is complete and the worker can now stop", V: 4, Versions: "1.22+", Keys: "podUID"},
		{Stage: StTerminated, Effect: Complete, Msg: "Pod has been terminated and is no longer known to the kubelet, remove all history", V: 4, Versions: "1.22+", Keys: "podUID"},
		// The housekeeping of an orphaned pod (kubelet_volumes.go
		// cleanupOrphanedPodDirs) removed its last directory: the pod is
		// gone from the node. (Its other lines are the fallback's:
		// termination.go orphanedText.)
		{Stage: StTerminated, Effect: Complete, Msg: "Cleaned up orphaned pod volumes dir", V: 0, Versions: "1.21+", Keys: "podUID, path"},
		{Stage: StTerminated, Effect: Complete, Prefix: "Cleaned up orphaned pod volumes dir from pod ", V: 0, Versions: "1.19–1.20", Keys: "\"<uid>\" at <path>"},
		// Graceful node shutdown (nodeshutdown/nodeshutdown_manager_linux.go):
		// the node is going down (a NodeShutdown finding) and the manager
		// kills its pods group by group (nodeshutdown.go).
		{Stage: "", Effect: Observe, Msg: "Shutdown manager detected new shutdown event, isNodeShuttingDownNow", V: 1, Versions: "1.24+ (seen in 1.24–1.36)", Keys: "event (true|false)", Special: SpecialShutdown},
		{Stage: "", Effect: Observe, Msg: "Shutdown manager detected new shutdown event", V: 1, Versions: "1.24+", Keys: "event (shutdown|cancelled)", Special: SpecialShutdown},
		{Stage: "", Effect: Observe, Msg: "Shutdown manager processing shutdown event", V: 1, Versions: "1.24+", Special: SpecialShutdown},
		{Stage: "", Effect: Observe, Msg: "Shutdown manager completed processing shutdown event, node will shutdown shortly", V: 1, Versions: "1.24+", Special: SpecialShutdown},
		{Stage: "", Effect: Observe, Msg: "Shutdown manager pod killing time out", V: 1, Versions: "1.24+", Keys: "gracePeriod, priority", Special: SpecialShutdown},
		{Stage: StTerminating, Effect: Begin, Msg: "Shutdown manager killing pod with gracePeriod", V: 1, Versions: "1.24+", Keys: "pod, gracePeriod", Special: SpecialShutdown},
		{Stage: StStopped, Effect: Complete, Msg: "Shutdown manager finished killing pod", V: 1, Versions: "1.24+", Keys: "pod", Special: SpecialShutdown},
		{Stage: StStopped, Effect: Fail, Msg: "Shutdown manager failed killing pod", V: 1, Versions: "1.24+", Keys: "pod, err", Special: SpecialShutdown},

		// Node-level lines.
		{Stage: "", Effect: Observe, Msg: "Kubelet version", V: 0, Versions: "1.21+", Keys: "kubeletVersion", Special: SpecialVersion},
		{Stage: "", Effect: Observe, Prefix: "Version: v", V: 0, Versions: "≤1.20", Special: SpecialVersion},
		{Stage: "", Effect: Observe, Msg: "Starting kubelet main sync loop", V: 0, Versions: "1.21+", Special: SpecialKubeletStart},
		{Stage: "", Effect: Observe, Prefix: "Starting kubelet main sync loop", V: 0, Versions: "≤1.20", Special: SpecialKubeletStart},
		{Stage: "", Effect: Observe, Prefix: "FLAG: --v=", V: 1, Versions: "all", Special: SpecialFlag},
		{Stage: "", Effect: Observe, Prefix: "FLAG: --hostname-override=", V: 1, Versions: "all", Special: SpecialFlag},
		{Stage: "", Effect: Observe, Msg: "Skipping pod synchronization", V: 0, Versions: "1.21+", Keys: "err", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Prefix: "skipping pod synchronization", V: 0, Versions: "≤1.20", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Msg: "Container runtime not ready", V: 0, Versions: "1.21+", Keys: "runtimeReady", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Msg: "Container runtime network not ready", V: 0, Versions: "1.21+", Keys: "networkReady", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Msg: "Node became not ready", V: 0, Versions: "1.21+", Keys: "node, condition", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Prefix: "Node became not ready: ", V: 0, Versions: "≤1.20", Keys: "{Type:Ready … Message:<cause>}", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Msg: "Recording event message for node", V: 2, Versions: "1.21+", Keys: "node, event", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Prefix: "Recording Node", V: 2, Versions: "≤1.20", Keys: "Recording <event> event message for node <name>", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Prefix: "Container runtime network not ready: ", V: 0, Versions: "≤1.20", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Prefix: "Container runtime not ready: ", V: 0, Versions: "≤1.20", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Prefix: "Unable to update cni config", V: 0, Versions: "≤1.23 (dockershim cni.go)", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Msg: "ListContainers with filter from runtime service failed", V: 0, Versions: "1.21+", Keys: "filter, err", Special: SpecialNodeProblem},
		{Stage: "", Effect: Observe, Prefix: "ListContainers with filter ", V: 0, Versions: "≤1.20", Special: SpecialNodeProblem},
		// Image garbage collection (kubelet.go StartGarbageCollection, the
		// error images/image_gc_manager.go's: "Failed to garbage collect
		// required amount of images. Attempted to free …"): an ImageGCFailed
		// finding (images.go imageGCFailed).
		{Stage: "", Effect: Observe, Msg: "Image garbage collection failed once. Stats initialization may not have completed yet", V: 0, Versions: "1.21+", Keys: "err", Special: SpecialImageGC},
		{Stage: "", Effect: Observe, Msg: "Image garbage collection failed multiple times in a row", V: 0, Versions: "1.21+", Keys: "err", Special: SpecialImageGC},
		{Stage: "", Effect: Observe, Prefix: "Image garbage collection failed ", V: 0, Versions: "≤1.20", Keys: "once. Stats initialization may not have completed yet: <err> | multiple times in a row: <err>", Special: SpecialImageGC},
		{Stage: "", Effect: Observe, Msg: "Started kubelet", V: 0, Versions: "all", Special: SpecialKubeletStart},
		// kube-controller-manager's node lifecycle controller taints a node
		// whose Ready condition is False or Unknown (node_lifecycle_controller.go,
		// V2): in a journal of several daemons, the control plane's word
		// that the node is NotReady.
		{Stage: "", Effect: Observe, Msg: "Node is NotReady. Adding it to the Taint queue", V: 2, Versions: "kube-controller-manager, structured", Keys: "node, timeStamp", Special: SpecialNodeTaint},
		{Stage: "", Effect: Observe, Msg: "Node is unresponsive. Adding it to the Taint queue", V: 2, Versions: "kube-controller-manager, structured", Keys: "node, timeStamp", Special: SpecialNodeTaint},
		{Stage: "", Effect: Observe, Prefix: "Node ", V: 2, Versions: "kube-controller-manager, printf (seen in 1.23)", Keys: "<node> is NotReady|unresponsive as of <time>. Adding it to the Taint queue.", Special: SpecialNodeTaint},
	},
}

func init() {
	for i := range Reference.Stages {
		s := &Reference.Stages[i]
		if s.Budget > 0 {
			s.BudgetStr = s.Budget.String()
		}
	}
}

// StageDefByID returns the definition of a stage.
func (p *Pipeline) StageDefByID(id string) (StageDef, bool) {
	for _, s := range p.Stages {
		if s.ID == id {
			return s, true
		}
	}
	return StageDef{}, false
}

// PodStages are the creation stages in order.
var PodStages = []string{StObserved, StAdmitted, StSynced, StVolumes, StSandbox, StInitContainers, StContainers, StRunning, StReady}

// ContainerStages are the per-container stages in order ("completed" only
// for init containers).
var ContainerStages = []string{CStImage, CStCreated, CStStarted, CStCompleted}

// TerminationStages are the termination stages in order.
var TerminationStages = []string{StTerminating, StStopped, StTerminated}
