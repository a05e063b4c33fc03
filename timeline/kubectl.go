package timeline

import (
	"strconv"
	"strings"
)

// The STATUS column of `kubectl get pods` is what a user starts from ("my
// pod is stuck in ContainerCreating"). KubectlStatus says what it showed
// at the end of the log: it rebuilds the few parts of the pod's API status
// that kubectl reads (the phase and reason, the Initialized condition,
// each container's waiting, running or terminated state, the deletion
// timestamp) from the flow, the way the kubelet fills them in, and prints
// them by kubectl's own rules.
//
// The rules are printPod's in k8s.io/kubernetes
// pkg/printers/internalversion/printers.go (read at v1.37.2): the reason
// starts as the pod's status reason, else its phase; the first init
// container not done gives Init:<terminated reason> (Init:ExitCode:N when
// it has none), Init:<waiting reason> unless that is PodInitializing, or
// Init:i/N; once initialized, the containers are read last to first, a
// waiting reason or terminated reason overwriting the reason (ExitCode:N
// when the terminated reason is empty); a "Completed" with a container
// still running and ready is Running again (NotReady without the Ready
// condition, the last non-zero exit's reason when there is one); a pod
// with a deletion timestamp whose phase is not terminal is Terminating.
//
// The kubelet's side is convertToAPIContainerStatuses in
// pkg/kubelet/kubelet_pods.go: a container with no status yet waits with
// reason ContainerCreating, or PodInitializing when the pod has init
// containers (init containers included); a sync error of the container's
// (ErrImagePull, ImagePullBackOff, CrashLoopBackOff, CreateContainerError,
// CreateContainerConfigError, RunContainerError, …) is its waiting reason;
// the runtime names a terminated container's reason Completed (exit 0),
// Error or OOMKilled.

// StatusDeleted is KubectlStatus for a pod whose deletion the log shows
// through to its removal: kubectl no longer lists it.
const StatusDeleted = "Deleted"

// apiContainer is the part of a v1.ContainerStatus printPod reads.
type apiContainer struct {
	name    string
	waiting string // State.Waiting.Reason; set with isWaiting
	// restartable is an init container with restartPolicy Always (a
	// sidecar); started is its Started field: once started it counts as
	// done for the Init:i/N count, as kubectl reads it.
	restartable, started bool
	isWaiting            bool
	running              bool
	ready                bool
	// State.Terminated
	terminated bool
	termReason string
	exitCode   int
}

// apiPod is the part of a v1.Pod printPod reads.
type apiPod struct {
	phase       string
	reason      string // Status.Reason
	initCount   int    // len(Spec.InitContainers)
	inits       []apiContainer
	containers  []apiContainer
	initialized bool // the Initialized condition is True
	ready       bool // the Ready condition is True
	deleting    bool // DeletionTimestamp set
}

// printReason is printPod's STATUS cell (printers.go printPod), for the
// fields apiPod keeps. The SchedulingGated and NodeLost cases are left
// out: the log does not tell them.
func printReason(p *apiPod) string {
	reason := p.phase
	if p.reason != "" {
		reason = p.reason
	}
	initializing := false
	for i, c := range p.inits {
		switch {
		case c.terminated && c.exitCode == 0:
			continue
		case c.restartable && c.started:
			// A sidecar that started runs on beside the containers:
			// printPod skips it (isRestartableInitContainer).
			continue
		case c.terminated:
			if c.termReason == "" {
				reason = "Init:ExitCode:" + strconv.Itoa(c.exitCode)
			} else {
				reason = "Init:" + c.termReason
			}
		case c.isWaiting && c.waiting != "" && c.waiting != "PodInitializing":
			reason = "Init:" + c.waiting
		default:
			reason = "Init:" + strconv.Itoa(i) + "/" + strconv.Itoa(p.initCount)
		}
		initializing = true
		break
	}
	if !initializing || p.initialized {
		hasRunning := false
		errorReason := ""
		for i := len(p.containers) - 1; i >= 0; i-- {
			c := p.containers[i]
			switch {
			case c.isWaiting && c.waiting != "":
				reason = c.waiting
			case c.terminated:
				if c.termReason != "" {
					reason = c.termReason
				} else {
					reason = "ExitCode:" + strconv.Itoa(c.exitCode)
				}
				if c.exitCode != 0 {
					errorReason = reason
				}
			case c.ready && c.running:
				hasRunning = true
			}
		}
		if reason == "Completed" {
			if hasRunning && p.ready {
				reason = "Running"
			} else if errorReason != "" {
				reason = errorReason
			} else if hasRunning {
				reason = "NotReady"
			}
		}
	}
	if p.deleting && p.phase != "Succeeded" && p.phase != "Failed" {
		reason = "Terminating"
	}
	return reason
}

// waitingReasons are the reasons the kubelet gives a waiting container
// (kuberuntime and images errors, kubelet_pods.go): the engine keeps a
// container's last reason, waiting or terminated, in one field.
var waitingReasons = map[string]bool{
	"ContainerCreating": true, "PodInitializing": true, "CrashLoopBackOff": true,
	"ErrImagePull": true, "ImagePullBackOff": true, "ErrImageNeverPull": true, "InvalidImageName": true,
	"ImageInspectError": true, "RegistryUnavailable": true, "SignatureValidationFailed": true,
	"CreateContainerConfigError": true, "CreateContainerError": true, "PreCreateHookError": true,
	"PreStartHookError": true, "PostStartHookError": true, "RunContainerError": true,
}

// KubectlStatus is the STATUS `kubectl get pods` showed for the flow's pod
// at the end of its log (see the comment above printReason), or
// StatusDeleted when the log shows the pod deleted and removed. It reads
// only the public Flow, so every view prints the same word.
func KubectlStatus(f *Flow) string {
	if f.Deleted && f.Verdict == VerdictTerminated {
		return StatusDeleted
	}
	// A termination under way that the log shows no deletion for (it
	// began before the log) was one: Verdict Terminating says so.
	p := apiPod{phase: f.Phase, deleting: f.Deleted || f.Verdict == VerdictTerminating}
	if p.phase == "" {
		p.phase = phaseOf(f)
	}
	switch {
	case f.Verdict == VerdictRejected:
		// rejectPod sets phase Failed and the admission's reason, with no
		// container statuses.
		return firstWord(f.Reason, "Failed")
	case strings.HasPrefix(f.Reason, "Evicted"):
		p.phase, p.reason = "Failed", "Evicted"
	}
	evicted := p.reason == "Evicted"
	initsDone := stageStatus(f, StInitContainers) == StatusDone || stageStatus(f, StInitContainers) == StatusSkipped
	hasInit := false
	for i := range f.Containers {
		if f.Containers[i].Type == ContainerInit {
			hasInit = true
		}
	}
	for i := range f.Containers {
		c := &f.Containers[i]
		if evicted && c.State == "" {
			// No status of it in the log: the eviction's own reason
			// stands, not a default waiting one it never had.
			continue
		}
		switch c.Type {
		case ContainerInit:
			p.initCount++
			p.inits = append(p.inits, apiState(c, true))
		case ContainerRegular:
			p.containers = append(p.containers, apiState(c, hasInit))
		}
	}
	p.initialized = !hasInit || initsDone
	p.ready = stageStatus(f, StReady) == StatusDone
	if len(f.Containers) == 0 && len(f.Stages) > 0 && !evicted {
		// The log names no container (-v=2, a filtered paste): one that
		// waits or runs as the pod's stages say stands for them all.
		c := apiContainer{isWaiting: true, waiting: "ContainerCreating"}
		switch {
		case f.Verdict == VerdictCompleted:
			c = apiContainer{terminated: true, termReason: "Completed"}
		case stageStatus(f, StRunning) == StatusDone:
			c = apiContainer{running: true, ready: p.ready}
		case f.StalledAt == StInitContainers:
			p.initCount = 1
			p.inits = []apiContainer{{isWaiting: true, waiting: "PodInitializing"}}
		}
		p.containers = []apiContainer{c}
	}
	return printReason(&p)
}

// apiState is the container's status as the kubelet last reported it, from
// what the engine kept: its state and reason as last seen, else its stages.
func apiState(c *Container, podHasInit bool) apiContainer {
	a := apiContainer{name: c.Name, ready: c.Ready, restartable: c.Sidecar}
	exit := 0
	if c.ExitCode != nil {
		exit = *c.ExitCode
	}
	switch c.State {
	case "waiting":
		a.isWaiting, a.waiting = true, c.Reason
		if a.waiting == "" {
			a.waiting = defaultWaiting(podHasInit)
		}
	case "running", "terminating":
		// A container being killed runs until it stops.
		a.running = true
		// The kubelet sets Started once it runs (and a startup probe,
		// when it has one, passed): running is what the log keeps.
		a.started = true
	case "terminated":
		a.terminated, a.exitCode = true, exit
		a.termReason = c.Reason
		if a.termReason == "" || waitingReasons[a.termReason] {
			// PLEG saw it die; no status said how: the runtime's words.
			a.termReason = "Error"
			if exit == 0 {
				a.termReason = "Completed"
			}
		}
	default:
		switch {
		case waitingReasons[c.Reason]:
			a.isWaiting, a.waiting = true, c.Reason
		case stageWaiting(c) != "":
			// No status line, but a sync error of its (the kubelet's
			// waiting reason for it).
			a.isWaiting, a.waiting = true, stageWaiting(c)
		case containerStage(c, CStStarted) == StatusDone:
			a.running, a.started = true, true
		default:
			a.isWaiting, a.waiting = true, defaultWaiting(podHasInit)
		}
	}
	return a
}

// stageWaiting is the waiting reason a failed or stalled stage of the
// container names first ("CreateContainerConfigError: …"), or "".
func stageWaiting(c *Container) string {
	for i := range c.Stages {
		st := &c.Stages[i]
		if st.Status != StatusFailed && st.Status != StatusStalled {
			continue
		}
		if w := firstWord(st.Reason, ""); waitingReasons[w] {
			return w
		}
		// The error's own words ("Failed to pull image …"): the reason
		// the kubelet gives that step's error (images.ErrImagePull,
		// kuberuntime ErrCreateContainer, ErrRunContainer).
		switch st.ID {
		case CStImage:
			if c.PullBackOffs > 0 {
				return "ImagePullBackOff"
			}
			return "ErrImagePull"
		case CStCreated:
			return "CreateContainerError"
		case CStStarted:
			return "RunContainerError"
		}
	}
	return ""
}

func defaultWaiting(podHasInit bool) string {
	if podHasInit {
		return "PodInitializing"
	}
	return "ContainerCreating"
}

// phaseOf is the pod's phase when no status patch said it: Running once
// its containers ran, Succeeded when it completed, Failed when it failed
// for good, else Pending.
func phaseOf(f *Flow) string {
	switch {
	case f.Verdict == VerdictCompleted:
		return "Succeeded"
	case f.Verdict == VerdictRejected:
		return "Failed"
	case stageStatus(f, StRunning) == StatusDone || f.Verdict == VerdictRunning:
		return "Running"
	}
	return "Pending"
}

func stageStatus(f *Flow, id string) Status {
	for i := range f.Stages {
		if f.Stages[i].ID == id {
			return f.Stages[i].Status
		}
	}
	return ""
}

func containerStage(c *Container, id string) Status {
	for i := range c.Stages {
		if c.Stages[i].ID == id {
			return c.Stages[i].Status
		}
	}
	return ""
}

// firstWord is the reason's leading CamelCase word ("OutOfcpu" of
// "OutOfcpu: Node didn't have enough resource: cpu, …"), the pod status
// reason the kubelet set; def when it has none.
func firstWord(reason, def string) string {
	w, _, _ := strings.Cut(reason, ":")
	if w == "" || strings.ContainsAny(w, " \t") || w[0] < 'A' || w[0] > 'Z' {
		return def
	}
	return w
}
