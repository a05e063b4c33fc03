package timeline

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A pasted kubectl describe pod's containers (parser.FormatDescribe, read
// as status patches) are judged as the kubelet's own lines would be: a
// waiting reason moves the stage its "Error syncing pod" would, a running
// container was started and seen running, the runtime ID it shows ties
// the kubelet's ID-only lines to its name, and its last state is its last
// exit.

// keptn#588: no Events table, no kubelet line; the Job's container waits
// in CreateContainerConfigError (the Secret lacked the key it reads).
func TestDescribeWaitingReason(t *testing.T) {
	for _, rows := range []bool{false, true} {
		fl := buildWildAs(t, filepath.Join(wild, "keptn-588-couldnt-find-key.log"), rows)
		f := onlyFlow(t, fl, "klc-post-deployment-greeter-481-57302-x8m2q")
		if f.Verdict != VerdictStalled || f.StalledAt != StContainers || f.Container != "keptn-function-runner" || f.ContainerStage != CStCreated ||
			!strings.Contains(f.Reason, "CreateContainerConfigError") || f.Pod.Namespace != "default" {
			t.Errorf("rows %v: %s %s at %s/%s:%s (%s): want Stalled at containers/keptn-function-runner:created, CreateContainerConfigError",
				rows, f.Pod.Key(), f.Verdict, f.StalledAt, f.Container, f.ContainerStage, f.Reason)
		}
	}
}

// k8s#98157: the kubelet lines name the container by its docker ID alone;
// the describe above them gives the ID, the name, 21 restarts and the
// OOMKilled exit before it ran again. The pod runs; its container keeps
// being killed.
func TestDescribeRuntimeIDAndLastState(t *testing.T) {
	for _, rows := range []bool{false, true} {
		fl := buildWildAs(t, filepath.Join(wild, "k8s-98157-oomkilled-loop.log"), rows)
		f := onlyFlow(t, fl, "bastion-relay-6c7d84b9f5-q8k2w")
		if f.Verdict != VerdictRunning || f.Container != "bastion-relay" || f.ContainerStage != CStStarted ||
			!strings.Contains(f.Reason, "OOMKilled") || !strings.Contains(f.Reason, "137") || !strings.Contains(f.Reason, "21 restarts") {
			t.Errorf("rows %v: %s at %s/%s:%s (%s): want Running, container bastion-relay named with its OOMKilled exit 137 and 21 restarts",
				rows, f.Verdict, f.StalledAt, f.Container, f.ContainerStage, f.Reason)
		}
		if len(f.Containers) != 1 || f.Containers[0].Restarts != 21 {
			t.Errorf("rows %v: containers %+v: want bastion-relay alone, 21 restarts", rows, f.Containers)
		}
		if rows {
			continue
		}
		c := containerOf(f, "bastion-relay")
		if c.ExitCode == nil || *c.ExitCode != 137 || c.Reason != "OOMKilled" || !c.Ready ||
			!slices.ContainsFunc(c.IDs, func(id string) bool { return strings.HasPrefix(id, "5e2c91a7f04b") }) {
			t.Errorf("container %+v: want exit code 137, reason OOMKilled, ready, its docker ID", c)
		}
		// The kill names only "docker://5e2c…": the describe's ID makes it
		// bastion-relay's (the ContainerDied is the sandbox's, a83f…).
		if c.State != "terminating" || len(c.IDs) != 1 {
			t.Errorf("container state %q, IDs %v: want terminating (the kill line's), one ID", c.State, c.IDs)
		}
		if f.Start.Year() != 2021 {
			t.Errorf("start %v: the kubelet lines are in the describe's year", f.Start)
		}
	}
}

// The describe fixture: an init container that completed, a container
// in CrashLoopBackOff after exiting 1 (7 restarts), and a sidecar that
// runs; the Events table after them names the back-off and the sidecar's
// start, which counts as the start the describe shows, not a restart.
func TestDescribeContainersWithEvents(t *testing.T) {
	for _, rows := range []bool{false, true} {
		fl := buildWildAs(t, filepath.Join("..", "testdata", "formats", "events", "describe-containers.txt"), rows)
		f := onlyFlow(t, fl, "cart-6f9d7c8b4-r2mzq")
		if f.Verdict != VerdictFailed || f.StalledAt != StRunning || f.Container != "cart" || f.ContainerStage != CStStarted ||
			!strings.Contains(f.Reason, "(last exit code 1)") {
			t.Errorf("rows %v: %s at %s/%s:%s (%s): want Failed at running/cart:started, last exit code 1", rows, f.Verdict, f.StalledAt, f.Container, f.ContainerStage, f.Reason)
		}
		for _, c := range f.Containers {
			want := map[string]int{"migrate": 0, "cart": 7, "envoy": 0}[c.Name]
			if c.Restarts != want {
				t.Errorf("rows %v: %s restarted %d times, want %d", rows, c.Name, c.Restarts, want)
			}
		}
		if rows {
			continue
		}
		if s := cstage(containerOf(f, "migrate"), CStCompleted); s.Status != StatusDone {
			t.Errorf("init container migrate completed: %s", s.Status)
		}
		if s := cstage(containerOf(f, "envoy"), CStStarted); s.Status != StatusDone {
			t.Errorf("envoy started: %s", s.Status)
		}
		if len(f.Events) != 2 {
			t.Errorf("%d events, want the table's 2 kubelet rows", len(f.Events))
		}
	}
}

// A describe whose Events table tells an image pull's failures without a
// field path: the container its Containers section names is the pod's
// only one, whose back-off the table's BackOff row is (soleBackOff), and
// which still waits in ImagePullBackOff.
func TestDescribeNamesTheTablesContainer(t *testing.T) {
	fl := buildWildAs(t, filepath.Join("..", "testdata", "formats", "events", "describe-pod.txt"), false)
	f := onlyFlow(t, fl, "web-7d9f8c6b5-x2kqp")
	if f.Verdict != VerdictStalled || f.Container != "web" || f.ContainerStage != CStImage || !strings.Contains(f.Reason, "ImagePullBackOff") || len(f.Events) != 5 {
		t.Errorf("%s at %s/%s:%s (%s), %d events: want Stalled at containers/web:image, ImagePullBackOff, the table's 5 events",
			f.Verdict, f.StalledAt, f.Container, f.ContainerStage, f.Reason, len(f.Events))
	}
	// The back-off row (36s before the table's base) is read after the
	// container's state (at the base), and begins the stage all the same.
	if s := cstage(containerOf(f, "web"), CStImage); s.Start == nil || !s.Start.Before(f.End) {
		t.Errorf("image stage from %v, flow to %v: the stage began with the table's row, before the state describe shows", s.Start, f.End)
	}
}
