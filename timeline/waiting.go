package timeline

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"
)

// What a pod that has not got where it was going waits on when the log
// ends, in the words of the subsystem that holds it: the image pull in
// flight or backing off, the volume and the object it needs, the sandbox
// call (the network plugin's), the container's config, its restart
// back-off, the probe. It is read from the judged flow, so that it says
// what every view shows (one clock: the open stage's own duration).

// waitingOn is fl's WaitingOn: "" when the pod waits on nothing (it got
// there, or it is gone).
// note, when set, is the runtime's latest word on a pull of the pod's.
func waitingOn(fl *Flow, note *pullNote) string {
	switch {
	case fl.Verdict != VerdictStalled && fl.Verdict != VerdictIncomplete && fl.Verdict != VerdictFailed,
		fl.Phase == "Failed" || fl.Phase == "Succeeded":
		return "" // (a pod in a terminal phase waits on nothing: it is done)
	}
	open := fl.StalledAt
	if open == "" {
		for _, s := range fl.Stages {
			if s.Status == StatusActive || s.Status == StatusStalled || s.Status == StatusFailed {
				open = s.ID
				break
			}
		}
	}
	st := stageByID(fl.Stages, open)
	switch open {
	case "":
		return ""
	case StVolumes:
		return waitingOnVolumes(st)
	case StSandbox:
		return waitingOnSandbox(st)
	case StInitContainers, StContainers, StRunning, StReady:
		if c, cs := openContainer(fl); c != nil {
			w := waitingOnContainer(c, cs)
			if cs.ID == CStImage && c.PullBackOffs == 0 && cs.Attempts == 0 && note != nil && note.image == c.Image {
				// The pull in flight, with how far it got as the runtime
				// last said (and how long before the log's end).
				w += fmt.Sprintf("; %s, %s before the end: %s", note.runtime, HumanDuration(max(0, fl.End.Sub(note.at))), note.text)
			}
			return w
		}
		if open == StReady {
			for i := range fl.Containers {
				if p := fl.Containers[i].Probe; p != nil {
					return fmt.Sprintf("the %s probe of container %s: %s", strings.ToLower(p.Type), fl.Containers[i].Name, p.Message)
				}
			}
		}
	}
	if st.ID == "" {
		return ""
	}
	return withReason(fmt.Sprintf("%s, under way for %s", stageWords(open), HumanDuration(time.Duration(st.Duration))), st.Reason)
}

// stageByID is the stage of stages with that ID, or the zero Stage.
func stageByID(stages []Stage, id string) Stage {
	for _, s := range stages {
		if s.ID == id {
			return s
		}
	}
	return Stage{}
}

// stageWords names a pod stage as a sentence says it.
func stageWords(id string) string {
	switch id {
	case StObserved:
		return "the sync loop"
	case StAdmitted:
		return "admission"
	case StSynced:
		return "the pod worker"
	}
	return "stage " + id
}

// missingObject finds the object a volume or a container's config needs
// in the error the kubelet logged: configmap "x" not found.
var missingObject = regexp.MustCompile(`(configmap|secret|persistentvolumeclaim|serviceaccount)s? "([^"\\]+)\\?" not found`)

var objectKind = map[string]string{"configmap": "ConfigMap", "secret": "Secret", "persistentvolumeclaim": "PersistentVolumeClaim", "serviceaccount": "ServiceAccount"}

// volumeName finds the volume an error of the volume manager names.
var volumeName = regexp.MustCompile(`for volume \\?"([^"\\]+)\\?"`)

// unmountedVolumes finds the volume manager's list of what it waits for.
var unmountedVolumes = regexp.MustCompile(`unmounted volumes=\[([^\]]+)\]`)

func waitingOnVolumes(st Stage) string {
	vol := ""
	if m := volumeName.FindStringSubmatch(st.Reason); m != nil {
		vol = fmt.Sprintf(" %q", m[1])
	} else if m := unmountedVolumes.FindStringSubmatch(st.Reason); m != nil {
		if vs := strings.Fields(m[1]); len(vs) == 1 {
			vol = fmt.Sprintf(" %q", vs[0])
		} else {
			vol = "s " + strings.Join(vs, ", ")
		}
	}
	if m := missingObject.FindStringSubmatch(st.Reason); m != nil {
		return fmt.Sprintf("volume%s: %s %s, which does not exist (%s, %s)", vol, objectKind[m[1]], m[2], attempts(st.Attempts, "failed mount"), HumanDuration(time.Duration(st.Duration)))
	}
	if st.Reason != "" {
		return withReason(fmt.Sprintf("volume%s mount (%s, %s)", vol, attempts(st.Attempts, "failed mount"), HumanDuration(time.Duration(st.Duration))), st.Reason)
	}
	return fmt.Sprintf("the volume mounts, under way for %s", HumanDuration(time.Duration(st.Duration)))
}

func waitingOnSandbox(st Stage) string {
	what := "RunPodSandbox"
	if r := strings.ToLower(st.Reason); strings.Contains(r, "network") || strings.Contains(r, "cni") {
		what = "RunPodSandbox, in the network (CNI) plugin"
	}
	if st.Attempts > 0 {
		return withReason(fmt.Sprintf("%s (%s, %s)", what, attempts(st.Attempts, "failed attempt"), HumanDuration(time.Duration(st.Duration))), st.Reason)
	}
	return fmt.Sprintf("%s, under way for %s", what, HumanDuration(time.Duration(st.Duration)))
}

// openContainer is the container whose stage holds the pod: the stalled
// one, else the first with a stage failed, stalled or under way (its
// image pull before another's start).
func openContainer(fl *Flow) (*Container, Stage) {
	for i := range fl.Containers {
		c := &fl.Containers[i]
		if fl.Container != "" && c.Name == fl.Container {
			return c, stageByID(c.Stages, fl.ContainerStage)
		}
	}
	for _, want := range []Status{StatusFailed, StatusStalled, StatusActive} {
		for i := range fl.Containers {
			c := &fl.Containers[i]
			for _, s := range c.Stages {
				if s.Status == want {
					return c, s
				}
			}
		}
	}
	return nil, Stage{}
}

func waitingOnContainer(c *Container, st Stage) string {
	kind := "container"
	if c.Type == ContainerInit {
		kind = "init container"
	}
	d := HumanDuration(time.Duration(st.Duration))
	switch st.ID {
	case CStImage:
		if c.PullBackOffs > 0 || st.Attempts > 0 {
			return withReason(fmt.Sprintf("the pull of image %s for %s %s, backing off (%s, %s)", c.Image, kind, c.Name, attempts(st.Attempts, "failed pull"), d), st.Reason)
		}
		return fmt.Sprintf("the pull of image %s for %s %s, under way for %s", c.Image, kind, c.Name, d)
	case CStCreated:
		if m := missingObject.FindStringSubmatch(st.Reason); m != nil || strings.Contains(st.Reason, "CreateContainerConfigError") || strings.Contains(st.Reason, "couldn't find key") {
			return withReason(fmt.Sprintf("the config of %s %s (%s)", kind, c.Name, d), st.Reason)
		}
		return withReason(fmt.Sprintf("the creation of %s %s (%s, %s)", kind, c.Name, attempts(st.Attempts, "failed attempt"), d), st.Reason)
	case CStStarted, CStCompleted:
		if st.Reason != "" && st.Attempts > 0 && !strings.Contains(st.Reason, "Back-off restarting") {
			// The runtime refuses the start (RunContainerError): the
			// kubelet backs off between attempts, and the error says why.
			return withReason(fmt.Sprintf("the start of %s %s (%s, %s)", kind, c.Name, attempts(st.Attempts, "failed attempt"), d), st.Reason)
		}
		if c.BackOffs > 0 {
			exit := ""
			if c.ExitCode != nil {
				exit = fmt.Sprintf(", last exit code %d", *c.ExitCode)
			}
			restarts := ""
			if c.Restarts > 0 {
				restarts = fmt.Sprintf(": %d restarts", c.Restarts)
			}
			return fmt.Sprintf("the restart back-off of %s %s (CrashLoopBackOff%s%s)", kind, c.Name, restarts, exit)
		}
		if st.ID == CStCompleted {
			return fmt.Sprintf("%s %s to complete, running for %s", kind, c.Name, d)
		}
		return withReason(fmt.Sprintf("the start of %s %s (%s, %s)", kind, c.Name, attempts(st.Attempts, "failed attempt"), d), st.Reason)
	}
	if p := c.Probe; p != nil {
		return fmt.Sprintf("the %s probe of %s %s: %s", strings.ToLower(p.Type), kind, c.Name, p.Message)
	}
	return ""
}

// attempts says n attempts of a kind: "3 failed pulls", "no failed pull yet".
func attempts(n int, what string) string {
	switch n {
	case 0:
		return "no " + what + " yet"
	case 1:
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// withReason ends s with the error that holds the stage, when there is
// one, on one line and, when long, its end only: the innermost error, the
// runtime's or the plugin's own words, comes last (the flow's reason has
// it whole).
func withReason(s, reason string) string {
	if reason == "" {
		return s
	}
	r := strings.Join(strings.Fields(reason), " ")
	if len(r) > maxWaitingReason {
		i := len(r) - maxWaitingReason
		if sp := strings.IndexByte(r[i:], ' '); sp >= 0 {
			i += sp + 1 // from a word's start
		}
		for i < len(r) && !utf8.RuneStart(r[i]) {
			i++
		}
		r = "…" + r[i:]
	}
	return s + ": " + r
}

// maxWaitingReason is how much of the error WaitingOn repeats.
const maxWaitingReason = 200
