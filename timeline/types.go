package timeline

import (
	"encoding/json"
	"time"
)

// APIVersion and KindFlowList identify podflow's JSON output; KindFlow a
// document of one pod (get pods -w -o json prints one per change).
const (
	APIVersion   = "podflow/v1"
	KindFlowList = "FlowList"
	KindFlow     = "Flow"
)

// Verdict is one word for how a pod's flow ended.
type Verdict string

const (
	VerdictRunning     Verdict = "Running"
	VerdictCompleted   Verdict = "Completed"
	VerdictFailed      Verdict = "Failed"      // a stage failed with an error in the log
	VerdictStalled     Verdict = "Stalled"     // a stage began, did not finish, and waited longer than its budget
	VerdictRejected    Verdict = "Rejected"    // admission refused the pod
	VerdictTerminating Verdict = "Terminating" // deletion began and did not finish
	VerdictTerminated  Verdict = "Terminated"
	VerdictIncomplete  Verdict = "Incomplete" // the log starts mid-flow or ends too soon to judge
)

// Verdicts lists every verdict, worst first (the order views sort by).
var Verdicts = []Verdict{VerdictFailed, VerdictStalled, VerdictRejected, VerdictTerminating, VerdictIncomplete, VerdictRunning, VerdictCompleted, VerdictTerminated}

// Status is the state of one stage.
type Status string

const (
	StatusDone    Status = "done"
	StatusFailed  Status = "failed"  // the stage's last attempt failed and nothing completed it
	StatusStalled Status = "stalled" // begun, not finished, over budget
	StatusActive  Status = "active"  // begun, not finished, within budget (or the log ended)
	StatusPending Status = "pending" // not begun
	StatusUnknown Status = "unknown" // its markers cannot appear at the log's verbosity
	StatusSkipped Status = "skipped" // does not apply (e.g. no init containers)
)

// Duration marshals as a Go duration string ("4m12.5s").
type Duration time.Duration

func (d Duration) String() string { return time.Duration(d).String() }

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a duration string (or nanoseconds).
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n int64
		if err2 := json.Unmarshal(b, &n); err2 != nil {
			return err
		}
		*d = Duration(n)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as a string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// PodRef identifies a pod.
type PodRef struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	UID       string `json:"uid,omitempty"`
}

// Key is "namespace/name".
func (p PodRef) Key() string {
	if p.Namespace == "" {
		return p.Name
	}
	return p.Namespace + "/" + p.Name
}

// Evidence points at a log line that proves something, by position, so
// views can read the raw line back.
type Evidence struct {
	Input  string    `json:"input"`
	Line   int64     `json:"line"`
	Offset int64     `json:"offset"`
	Length int       `json:"length"`
	Time   time.Time `json:"time"`
	Text   string    `json:"text"` // the message, with the error when there is one
}

// Stage is one step of a flow. Start and End of a flow's stages may point
// at one shared time (a stage starts when the one before it ended): read
// them, do not write through them.
type Stage struct {
	ID       string     `json:"id"`
	Title    string     `json:"title,omitempty"`
	Start    *time.Time `json:"start,omitempty"`
	End      *time.Time `json:"end,omitempty"`
	Status   Status     `json:"status"`
	Duration Duration   `json:"duration"`
	Attempts int        `json:"attempts,omitempty"` // failed attempts seen (retries)
	Reason   string     `json:"reason,omitempty"`
	// Reveal says which kubelet -v shows this stage when its status is unknown.
	Reveal   string     `json:"reveal,omitempty"`
	Evidence []Evidence `json:"evidence,omitempty"`
}

// Container types.
const (
	ContainerInit      = "init"
	ContainerRegular   = "regular"
	ContainerEphemeral = "ephemeral"
)

// Container is one container's own flow inside a pod.
type Container struct {
	Name         string   `json:"name"`
	Type         string   `json:"type"`
	Sidecar      bool     `json:"sidecar,omitempty"` // an init container with restartPolicy Always: started, it runs on beside the containers
	Image        string   `json:"image,omitempty"`
	IDs          []string `json:"ids,omitempty"` // runtime container IDs, one per attempt seen
	Restarts     int      `json:"restarts"`
	BackOffs     int      `json:"backOffs,omitempty"`     // CrashLoopBackOff waits
	PullBackOffs int      `json:"pullBackOffs,omitempty"` // ImagePullBackOff waits
	ExitCode     *int     `json:"exitCode,omitempty"`     // last exit code seen
	State        string   `json:"state,omitempty"`        // waiting, running, terminated (as last seen)
	Reason       string   `json:"reason,omitempty"`       // last waiting/terminated reason (CrashLoopBackOff, …)
	Ready        bool     `json:"ready"`
	Probe        *Probe   `json:"probe,omitempty"` // failed probes, when the log shows some
	Stages       []Stage  `json:"stages"`
}

// Probe is what the log says of a container's failed probes.
type Probe struct {
	Type     string `json:"type"`               // Liveness, Readiness or Startup
	Message  string `json:"message"`            // the last failure's words: "Liveness probe failed: <output>"
	Failures int    `json:"failures,omitempty"` // failures the log shows
	Restart  bool   `json:"restart,omitempty"`  // the kubelet killed the container for it, to restart it
}

// Event is a Kubernetes event the kubelet recorded ("Event occurred").
type Event struct {
	Time      time.Time `json:"time"`
	Type      string    `json:"type"`
	Reason    string    `json:"reason"`
	Message   string    `json:"message"`
	FieldPath string    `json:"fieldPath,omitempty"`
	Count     int       `json:"count"`
	LastTime  time.Time `json:"lastTime,omitzero"` // the last repeat, when Count > 1
	Evidence  Evidence  `json:"evidence"`
}

// Startup compares the kubelet's own "Observed pod startup duration" with
// podflow's end-to-end figure.
type Startup struct {
	KubeletE2E      *Duration  `json:"kubeletE2E,omitempty"` // podStartE2EDuration
	KubeletSLO      *Duration  `json:"kubeletSLO,omitempty"` // podStartSLOduration (image pulls excluded)
	PodflowE2E      *Duration  `json:"podflowE2E,omitempty"` // podCreationTimestamp → watchObservedRunningTime, as podflow computes it
	PodflowSLO      *Duration  `json:"podflowSLO,omitempty"` // E2E minus the image-pull window, as the SLO counts it
	Created         *time.Time `json:"created,omitempty"`    // podCreationTimestamp
	ObservedRunning *time.Time `json:"observedRunning,omitempty"`
	Evidence        *Evidence  `json:"evidence,omitempty"`
}

// Flow is one pod incarnation's journey through the kubelet.
type Flow struct {
	Pod         PodRef  `json:"pod"`
	Node        string  `json:"node"`
	Source      string  `json:"source,omitempty"` // api, file, http
	Static      bool    `json:"static,omitempty"`
	Mirror      string  `json:"mirrorUID,omitempty"`
	Incarnation int     `json:"incarnation,omitempty"` // >1 when the same name was recreated
	Verdict     Verdict `json:"verdict"`
	// Status is what `kubectl get pods` showed in its STATUS column at the
	// end of the log (KubectlStatus): ContainerCreating, Init:1/2,
	// ImagePullBackOff, CrashLoopBackOff, Running, Terminating, …
	Status         string    `json:"status,omitempty"`
	Phase          string    `json:"phase,omitempty"`          // the pod phase the kubelet last reported, when the log shows it
	Deleted        bool      `json:"deleted,omitempty"`        // its deletion was seen (SyncLoop DELETE, its source removed it, or the kubelet cleans up after it as an orphaned pod)
	Stage          string    `json:"stage"`                    // last stage completed
	StalledAt      string    `json:"stalledAt"`                // the stage that did not complete; "" when none
	Container      string    `json:"container,omitempty"`      // when the stall is inside a container
	ContainerStage string    `json:"containerStage,omitempty"` // image, created, started, completed
	Reason         string    `json:"reason,omitempty"`         // in the log's own words
	Waited         Duration  `json:"waited"`                   // how long the stalled stage waited
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	Duration       Duration  `json:"duration"`
	Diagnosis      string    `json:"diagnosis,omitempty"` // one paragraph in plain words
	// WaitingOn is what the stage that holds the pod waits on when the log
	// ends (the image pull in flight, the volume and the object it needs,
	// the sandbox's network plugin, the restart back-off, the probe);
	// empty when the pod waits on nothing.
	WaitingOn  string      `json:"waitingOn,omitempty"`
	Stages     []Stage     `json:"stages"`
	Containers []Container `json:"containers"`
	Events     []Event     `json:"events,omitempty"`
	Startup    *Startup    `json:"startup,omitempty"`
	Sandboxes  []string    `json:"sandboxes,omitempty"` // sandbox IDs seen
	Findings   []string    `json:"findings,omitempty"`  // IDs of node findings that overlap this flow
	Evidence   []Evidence  `json:"evidence,omitempty"`  // the lines that prove the verdict
	Hidden     []string    `json:"hidden,omitempty"`    // what a higher -v would reveal
	Trouble    []Trouble   `json:"trouble,omitempty"`   // the stages that failed, backed off or ran over budget, recovered or not
}

// Trouble is one stage's trouble on the pod's way: failed attempts,
// back-offs, or a stage over its budget, whether it recovered or not.
type Trouble struct {
	Stage     string    `json:"stage"`
	Container string    `json:"container,omitempty"`
	Attempts  int       `json:"attempts,omitempty"` // failed attempts, each counted once however many lines report it
	BackOffs  int       `json:"backOffs,omitempty"` // the kubelet's back-offs (CrashLoopBackOff, ImagePullBackOff, …)
	Error     string    `json:"error,omitempty"`    // the first error, in the log's words; "" for a stage only slow
	First     time.Time `json:"first"`              // the first error (or the slow stage's start)
	Last      time.Time `json:"last"`               // the latest error (or the slow stage's end)
	Lasted    Duration  `json:"lasted"`             // from the first error to the stage's completion (or the log's end)
	Budget    Duration  `json:"budget,omitempty"`   // the stage's budget, when it ran over it
	Recovered bool      `json:"recovered"`          // the stage completed after it
}

// Finding is a node-level problem, reported once per node.
type Finding struct {
	ID       string     `json:"id"`
	Node     string     `json:"node"`
	Kind     string     `json:"kind"` // KubeletRestart, NodeNotReady, PLEGUnhealthy, RuntimeDown, NetworkNotReady, SyncLoopSkipped, MemoryPressure, DiskPressure, PIDPressure, NodeShutdown, ImageGCFailed, DevicePluginUnhealthy
	Time     time.Time  `json:"time"`
	End      *time.Time `json:"end,omitempty"`
	Count    int        `json:"count"`
	Message  string     `json:"message"`
	Evidence []Evidence `json:"evidence,omitempty"`
	Pods     []PodRef   `json:"pods,omitempty"` // pods in flight at that time
}

// Node summarises one node's log.
type Node struct {
	Name           string          `json:"name"`
	KubeletVersion string          `json:"kubeletVersion,omitempty"`
	Verbosity      int             `json:"verbosity"` // highest -v the log shows; -1 unknown
	Start          time.Time       `json:"start"`
	End            time.Time       `json:"end"`
	Restarts       int             `json:"restarts"` // kubelet (re)starts seen after the first
	PLEGHealthy    bool            `json:"plegHealthy"`
	Pods           map[Verdict]int `json:"pods"`
	// Events are the node's own events (Starting, NodeReady,
	// NodeHasDiskPressure, ImageGCFailed…), oldest first.
	Events []Event `json:"events,omitempty"`
}

// Summary describes the inputs.
type Summary struct {
	Inputs         []string  `json:"inputs"`
	Lines          int64     `json:"lines"`
	Records        int64     `json:"records"`
	Unrecognized   int64     `json:"unrecognized"`
	KubeletVersion string    `json:"kubeletVersion,omitempty"`
	Verbosity      int       `json:"verbosity"`
	Start          time.Time `json:"start"`
	End            time.Time `json:"end"`
	Pods           int       `json:"pods"`
	Unattributed   int       `json:"unattributed"` // lines that named only an image or an unknown ID
	// PodLimit is set when the inputs named more pods than the builder
	// keeps (Options.MaxFlows); Dropped counts the records about the pods
	// past it, which were not analysed.
	PodLimit int   `json:"podLimit,omitempty"`
	Dropped  int64 `json:"dropped,omitempty"`
}

// FlowList is the output contract shared by every view and by scripts.
type FlowList struct {
	APIVersion   string     `json:"apiVersion"`
	Kind         string     `json:"kind"`
	Items        []Flow     `json:"items"`
	Findings     []Finding  `json:"findings"`
	Nodes        []Node     `json:"nodes"`
	Unattributed []Evidence `json:"unattributed,omitempty"`
	Summary      Summary    `json:"summary"`
}

// SpanEnd is End: the flow's span as its Duration counts it (clock.go).
// Views read End; SpanEnd stays for code written when the two differed.
func (f *Flow) SpanEnd() time.Time { return f.End }

// Recovered reports whether the pod ran after trouble the log shows
// (failed attempts, back-offs, a probe's restarts, a stage over its
// budget): a Running or Completed pod with a reason, which says it.
func (f *Flow) Recovered() bool {
	return (f.Verdict == VerdictRunning || f.Verdict == VerdictCompleted) && f.Reason != ""
}

// StageLabel names where the flow stopped, as get pods' STAGE column
// does: the stalled stage, as containers/NAME:STAGE when inside a
// container, else the last stage; "-" when none. The container's name is
// the log's: views clean it.
func (f *Flow) StageLabel() string {
	st := f.StalledAt
	if st == "" {
		st = f.Stage
	}
	if f.StalledAt != "" && f.Container != "" {
		cs := f.ContainerStage
		if cs == "" {
			cs = "?"
		}
		return st + "/" + f.Container + ":" + cs
	}
	if st == "" {
		return "-"
	}
	return st
}
