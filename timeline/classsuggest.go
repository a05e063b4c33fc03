package timeline

import (
	"slices"
	"strings"

	"github.com/podflow/podflow/internal/catalog"
)

// SuggestClass proposes a classification row for a catalog message no
// marker or row covers: the subsystem its file belongs to says which
// stage its lines are evidence of, words of its text refine that
// (a mount is the volumes stage, an unmount the pod's cleanup), and a
// few subsystems are routine (stats, the HTTP server, garbage
// collection) or the node's (graceful shutdown, OOM). It is what
// `podflow pipeline --coverage --unclassified` prints for a new
// version's messages, to be reviewed before it is pasted into
// classes.tsv: a proposal, never applied by itself.
func SuggestClass(e *catalog.Entry) Classification {
	c := Classification{Component: e.Component, Kind: string(e.Kind), Reason: e.Reason, Text: e.Text}
	set := func(class Class, stage, why string) Classification {
		c.Class, c.Stage, c.Why = class, stage, why
		return c
	}
	if e.Kind == catalog.KindEvent {
		if st, why, ok := eventStage(e.Reason); ok {
			if st == "" {
				return set(ClassRoutine, "", why)
			}
			return set(ClassEvidence, st, why)
		}
	}
	file := ""
	if len(e.Files) > 0 {
		file = e.Files[0]
	}
	text := strings.ToLower(e.Reason + " " + e.Text)
	has := func(ws ...string) bool {
		for _, w := range ws {
			if strings.Contains(text, w) {
				return true
			}
		}
		return false
	}
	for _, r := range fileRules {
		if !r.match(e.Component, file) {
			continue
		}
		switch r.class {
		case ClassRoutine, ClassFinding:
			return set(r.class, "", r.why)
		}
		st := r.stage
		switch {
		case r.stage == StVolumes:
			// a volume plugin's words: only its teardown is another stage
			if has("unmount", "unmap", "teardown", "tear down", "detach", "orphan", "clean up", "cleanup", "remov") && !has("withoutunmount") {
				st = StTerminated
			}
		case r.byText:
			st = stageByWords(has, st)
		}
		return set(ClassEvidence, st, r.why)
	}
	return set(ClassEvidence, stageByWords(has, StSynced), "a pod's sync: the stage its words name")
}

// stageByWords picks the stage a message's words name, else def.
func stageByWords(has func(...string) bool, def string) string {
	switch {
	case has("withoutunmount", "resizefilesystem", "expandvolume", "nodeexpand"):
		return StVolumes // a resize of a mounted volume
	case has("deletion requested", "deletion timestamp", "marked for deletion"):
		return StTerminating
	case has("unmount", "unmap", "teardown", "tear down", "detach", "orphan", "cleanup", "clean up", "cleaning up"):
		return StTerminated
	case has("kill", "stopping", "stop container", "stoppodsandbox", "stop sandbox", "terminat", "graceful", "evict", "preempt"):
		return StTerminating
	case has("remov", "delet"):
		return StTerminated
	case has("sandbox", "network", "cni", "dns", "infra container", "hostport", "ip address", "pod ip"):
		return StSandbox
	case has("volume", "mount", "attach"):
		return StVolumes
	case has("image", "pull"):
		return CStImage
	case has("admit", "admission", "topology", "cpuset", "cpu manager", "memory manager", "device", "allocat", "resource", "hint", "numa"):
		return StAdmitted
	case has("init container"):
		return StInitContainers
	case has("probe", "readiness", "liveness", "startup", "status", "ready"):
		return StReady
	case has("pleg", "relist", "container died", "containerdied", "exited", "exit code"):
		return StRunning
	case has("creat"):
		return CStCreated
	case has("start"):
		return CStStarted
	case has("container"):
		return StContainers
	}
	return def
}

// eventStage is the stage of the kubelet's event reasons (events/event.go).
func eventStage(reason string) (string, string, bool) {
	switch reason {
	case "Pulling", "Pulled", "Failed", "ErrImageNeverPull", "InspectFailed", "BackOff":
		return CStImage, "event of the image pull (Failed and BackOff also of a start; their markers say which)", true
	case "Created", "FailedCreate":
		return CStCreated, "the container's create", true
	case "Started", "FailedStart", "FailedPostStartHook":
		return CStStarted, "the container's start", true
	case "Killing", "ExceededGracePeriod", "FailedPreStopHook", "FailedKillPod":
		return StTerminating, "the kill of a pod's containers", true
	case "Unhealthy", "ProbeWarning", "ContainerUnhealthy":
		return StReady, "a probe's result", true
	case "FailedMount", "FailedAttachVolume", "FailedMapVolume", "AlreadyMountedVolume", "SuccessfulAttachVolume", "SuccessfulMountVolume", "FileSystemResizeFailed", "FileSystemResizeSuccessful", "VolumeResizeFailed":
		return StVolumes, "the volume manager's event", true
	case "SandboxChanged", "FailedCreatePodSandBox", "FailedPodSandBoxStatus", "DNSConfigForming", "HostPortConflict", "NetworkNotReady":
		return StSandbox, "the pod's sandbox", true
	case "FailedSync", "FailedValidation", "NetworkNotReadyUnknown":
		return StSynced, "the pod's sync", true
	case "Preempting":
		return StTerminating, "the kubelet preempts the pod", true
	}
	if strings.HasPrefix(reason, "OutOf") || strings.HasSuffix(reason, "Forbidden") || strings.HasSuffix(reason, "Error") {
		return StAdmitted, "a refusal at admission", true
	}
	return "", "", false
}

// fileRule maps a source file (its base name) to a class or stage.
type fileRule struct {
	files  []string // base names, or prefixes ending in '*'
	comps  []string // the components it is for; none: all
	class  Class    // ClassEvidence with stage, or routine/finding
	stage  string
	byText bool // the text's words may name another stage (stageByWords)
	why    string
}

func (r fileRule) match(comp, file string) bool {
	if len(r.comps) > 0 && !slices.Contains(r.comps, comp) {
		return false
	}
	for _, f := range r.files {
		if p, ok := strings.CutSuffix(f, "*"); ok {
			if strings.HasPrefix(file, p) {
				return true
			}
		} else if f == file {
			return true
		}
	}
	return false
}

var fileRules = []fileRule{
	{files: []string{"*"}, comps: []string{catalog.Containerd, catalog.CRIO}, class: ClassEvidence, stage: StContainers, byText: true,
		why: "the runtime's CRI call: sandbox or container, the stage its words name"},
	{files: []string{"server.go", "auth.go", "cri_stats_provider.go", "cadvisor_stats_provider.go", "volume_stat_calculator.go", "summary*", "stats*", "log_metrics.go", "metrics.go", "podcertificatemanager.go", "swap_util.go", "kubelet_getters.go", "volume_host.go", "container_log_manager.go", "logs.go", "streaming*", "exec.go", "attach.go", "port_forward.go", "portforward.go", "remote_image.go", "cpu_following_store_windows.go", "checkpoint*", "container_checkpoint.go", "container_restore.go", "restore.go"},
		class: ClassRoutine, why: "stats, the kubelet's server, logs, streaming or checkpoints: read by no stage"},
	{files: []string{"kuberuntime_gc.go", "image_gc_manager.go", "container_gc.go", "gc.go", "resourcecleaner.go", "wipe.go"},
		class: ClassRoutine, why: "garbage collection of what a pod left: after its flow ended"},
	{files: []string{"state_mem.go", "state_checkpoint.go", "state_file.go", "state.go"},
		class: ClassRoutine, why: "a resource manager's state bookkeeping"},
	{files: []string{"nodeshutdown*", "oom_watcher*", "node_container_manager*"},
		class: ClassFinding, why: "the node's: a shutdown or an OOM kill, with the pods it touched"},
	{files: []string{"eviction_manager.go", "helpers.go", "memory_threshold_notifier.go"}, class: ClassEvidence, stage: StTerminating, byText: false,
		why: "the eviction manager: a pod it evicts is terminating"},
	{files: []string{"preemption.go"}, class: ClassEvidence, stage: StTerminating, why: "the kubelet preempts a pod to admit another"},
	{files: []string{"config.go", "common.go", "file.go", "file_linux.go", "http.go", "apiserver.go", "sources.go", "mux.go", "mirror_client.go", "pod_manager.go", "runonce.go"}, class: ClassEvidence, stage: StObserved, byText: true,
		why: "the config sources and the pod manager: the kubelet has seen the pod"},
	{files: []string{"cpu_manager.go", "policy_static.go", "policy*", "memory_manager.go", "topology_manager.go", "scope*", "topology_hints.go", "fake_*", "pod_devices.go", "manager.go", "allocation_manager.go", "predicate.go", "handlers.go", "userns_manager.go", "resize*", "dra*", "claiminfo.go", "plugins.go", "endpoint.go", "pod_container_manager*", "qos_container_manager*", "container_manager*", "sysctl*", "admission*"}, class: ClassEvidence, stage: StAdmitted, byText: true,
		why: "resource managers and admit handlers: what the pod was allotted at admission"},
	{files: []string{"pod_workers.go", "kubelet.go", "kubelet_pods.go", "kubelet_resources.go", "active_deadline.go"}, class: ClassEvidence, stage: StSynced, byText: true,
		why: "the pod worker's sync: the stage its words name"},
	{files: []string{"operation_generator.go", "operation_executor.go", "reconciler*", "reconstruct*", "desired_state_of_world*", "actual_state_of_world*", "volume_manager.go", "node_expander.go", "projected.go", "secret.go", "configmap.go", "downwardapi.go", "empty_dir*", "csi_*", "volume_*", "util.go", "subpath*", "quota*", "rbd*", "storageos*", "glusterfs*", "portworx*", "vsphere*", "recycler_client.go", "kubelet_volumes.go", "nestedpendingoperations.go", "atomic_writer.go", "mount*", "host_path.go", "local.go", "nfs.go", "iscsi*", "fc*", "flexvolume*", "driver-call.go", "cinder*", "aws*", "gce*", "azure*"}, class: ClassEvidence, stage: StVolumes, byText: true,
		why: "the volume manager and plugins: a mount is the volumes stage, an unmount the pod's cleanup"},
	{files: []string{"kuberuntime_sandbox*", "docker_sandbox.go", "sandbox*", "cni*", "kubenet*", "hostport*", "dns.go", "network*", "remote_runtime.go"}, class: ClassEvidence, stage: StSandbox, byText: true,
		why: "the pod's sandbox and its network"},
	{files: []string{"image_manager.go", "puller.go", "image*"}, class: ClassEvidence, stage: CStImage, byText: true,
		why: "the image of a pod's container"},
	{files: []string{"prober*", "worker.go", "results_manager.go", "status_manager.go", "pod_startup_latency_tracker.go", "status*"}, class: ClassEvidence, stage: StReady, byText: true,
		why: "probes and the status manager: the pod's readiness and reported status"},
	{files: []string{"generic.go", "evented.go", "pleg.go"}, class: ClassEvidence, stage: StRunning, byText: true,
		why: "PLEG: the runtime's view of the pod's containers"},
	{files: []string{"kuberuntime_container*", "kuberuntime_manager.go", "docker_container*", "labels.go", "security_context*", "container*", "runtime*"}, class: ClassEvidence, stage: StContainers, byText: true,
		why: "the runtime manager: the stage its words name"},
}
