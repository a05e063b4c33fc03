package timeline

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const corpus = "../testdata/corpus"

// buildFile runs a log through the parser and the engine the way the
// commands do (Want filter on).
func buildFile(t *testing.T, path string) *FlowList {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return buildBytes(t, filepath.Base(path), data)
}

func buildBytes(t *testing.T, name string, data []byte) *FlowList {
	t.Helper()
	b := NewBuilder(Options{})
	feedSpan(b, name, data)
	return b.Finish()
}

func onlyFlow(t *testing.T, fl *FlowList, name string) Flow {
	t.Helper()
	var found []Flow
	for _, it := range fl.Items {
		if it.Pod.Name == name {
			found = append(found, it)
		}
	}
	if len(found) != 1 {
		var names []string
		for _, it := range fl.Items {
			names = append(names, it.Pod.Key()+"/"+it.Pod.UID)
		}
		t.Fatalf("want exactly one flow for %s, got %d (flows: %v)", name, len(found), names)
	}
	return found[0]
}

func stageOf(f Flow, id string) Stage {
	for _, s := range f.Stages {
		if s.ID == id {
			return s
		}
	}
	return Stage{}
}

func containerOf(f Flow, name string) Container {
	for _, c := range f.Containers {
		if c.Name == name {
			return c
		}
	}
	return Container{}
}

func cstage(c Container, id string) Stage {
	for _, s := range c.Stages {
		if s.ID == id {
			return s
		}
	}
	return Stage{}
}

// scenario is what MANIFEST.md says happened, written from reading the
// logs, not from podflow's output.
type scenario struct {
	file, pod      string
	verdict        Verdict
	stalledAt      string
	container      string
	containerStage string
	reasonHas      []string
	check          func(t *testing.T, f Flow)
}

func sandboxRetried(min, max time.Duration) func(t *testing.T, f Flow) {
	return func(t *testing.T, f Flow) {
		s := stageOf(f, StSandbox)
		if s.Status != StatusDone || s.Attempts != 4 {
			t.Errorf("sandbox: status %s attempts %d, want done after 4 failed attempts", s.Status, s.Attempts)
		}
		if d := time.Duration(s.Duration); d < min || d > max {
			t.Errorf("sandbox took %s, want %s–%s", d, min, max)
		}
		if !strings.Contains(s.Reason, `plugin type="calico" failed (add)`) {
			t.Errorf("sandbox reason %q lacks the CNI error", s.Reason)
		}
	}
}

func crashLooped(restarts int) func(t *testing.T, f Flow) {
	return func(t *testing.T, f Flow) {
		c := containerOf(f, f.Container)
		if c.Restarts < restarts {
			t.Errorf("container %s restarts %d, want ≥ %d", c.Name, c.Restarts, restarts)
		}
		if c.ExitCode == nil || *c.ExitCode != 1 {
			t.Errorf("container %s exit code %v, want 1", c.Name, c.ExitCode)
		}
	}
}

func happy(t *testing.T, f Flow) {
	for _, id := range []string{StObserved, StVolumes, StSandbox, StInitContainers, StContainers, StRunning, StReady} {
		if s := stageOf(f, id); s.Status != StatusDone {
			t.Errorf("stage %s is %s, want done", id, s.Status)
		}
	}
	init := containerOf(f, "init-config")
	if init.Type != ContainerInit || cstage(init, CStCompleted).Status != StatusDone {
		t.Errorf("init-config: type %q completed %q", init.Type, cstage(init, CStCompleted).Status)
	}
	for _, name := range []string{"nginx", "log-shipper"} {
		c := containerOf(f, name)
		if cstage(c, CStStarted).Status != StatusDone || len(c.IDs) == 0 {
			t.Errorf("container %s: started %q, ids %v", name, cstage(c, CStStarted).Status, c.IDs)
		}
	}
}

var scenarios = []scenario{
	// v1.36.3
	{file: "v1.36.3/01-happy-path.log", pod: "web-7d9f8c6b5-x2kqp", verdict: VerdictRunning, check: happy},
	{file: "v1.36.3/02-image-pull-failure.log", pod: "api-6f5b9d7c4-pl8wz", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStImage, reasonHas: []string{"nginx:1.27.99", "not found"}},
	{file: "v1.36.3/03-slow-image-pull.log", pod: "web-slowpull-58c9d-7hxkq", verdict: VerdictRunning, check: func(t *testing.T, f Flow) {
		var slowest time.Duration
		for _, c := range f.Containers {
			if d := time.Duration(cstage(c, CStImage).Duration); d > slowest {
				slowest = d
			}
		}
		if slowest < 19*time.Second || slowest > 22*time.Second {
			t.Errorf("slowest image pull %s, want ~20s", slowest)
		}
	}},
	{file: "v1.36.3/04-sandbox-failure.log", pod: "payments-7b4d9c8f6-q9zrt", verdict: VerdictRunning, check: sandboxRetried(55*time.Second, 62*time.Second)},
	{file: "v1.36.3/05-crashloop-backoff.log", pod: "worker-5d8f7b9c4-m2v6n", verdict: VerdictFailed, stalledAt: StRunning, container: "worker", containerStage: CStStarted, reasonHas: []string{"exit code 1"}, check: crashLooped(4)},
	{file: "v1.36.3/06-pod-deletion-api.log", pod: "web-7d9f8c6b5-del42", verdict: VerdictTerminated, check: func(t *testing.T, f Flow) {
		for _, id := range TerminationStages {
			if s := stageOf(f, id); s.Status != StatusDone {
				t.Errorf("termination stage %s is %s", id, s.Status)
			}
		}
		if f.Startup == nil {
			t.Error("no startup figures")
		}
	}},
	{file: "v1.36.3/06b-static-pod-add-remove.log", pod: "static-web-kb-node-static", verdict: VerdictTerminated, check: func(t *testing.T, f Flow) {
		if !f.Static || f.Source != "file" || f.Mirror == "" {
			t.Errorf("static %v source %q mirror %q: want a static pod with its mirror merged", f.Static, f.Source, f.Mirror)
		}
	}},
	{file: "v1.36.3/08-happy-path-json-v4.log", pod: "web-json-6b7c9-k4t2p", verdict: VerdictRunning, check: happy},
	{file: "v1.36.3/09-happy-path-v2.log", pod: "web-v2-6b7c9-r8s5d", verdict: VerdictRunning, check: func(t *testing.T, f Flow) {
		for _, id := range []string{StVolumes, StSynced} {
			if s := stageOf(f, id); s.Status != StatusUnknown || s.Reveal == "" {
				t.Errorf("at -v=2 stage %s is %s (reveal %q), want unknown", id, s.Status, s.Reveal)
			}
		}
	}},
	{file: "v1.36.3/10-init-container-crashloop.log", pod: "web-initfail-6d5c7-b8x4w", verdict: VerdictStalled, stalledAt: StInitContainers, container: "init-config", containerStage: CStCompleted, reasonHas: []string{"exit code 1"}, check: func(t *testing.T, f Flow) {
		for _, name := range []string{"nginx", "log-shipper"} {
			if c := containerOf(f, name); c.Name != "" && cstage(c, CStStarted).Status == StatusDone {
				t.Errorf("%s started, but app containers never start", name)
			}
		}
		crashLooped(3)(t, f)
	}},
	{file: "v1.36.3/11-volume-mount-failure.log", pod: "web-volfail-7f6b8-d4n8q", verdict: VerdictRunning, check: func(t *testing.T, f Flow) {
		s := stageOf(f, StVolumes)
		if d := time.Duration(s.Duration); d < 4*time.Minute || d > 4*time.Minute+20*time.Second {
			t.Errorf("volumes took %s, want ~4m10s", d)
		}
		if s.Attempts == 0 || !strings.Contains(s.Reason, `configmap "web-config-v3" not found`) {
			t.Errorf("volumes attempts %d reason %q", s.Attempts, s.Reason)
		}
	}},
	{file: "v1.36.3/12-container-start-failure.log", pod: "shop-api-84d7f9c6d-t5n2j", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStStarted, reasonHas: []string{"RunContainerError", "/docker-entrypoint.sh"}},
	{file: "v1.36.3/13-container-create-error.log", pod: "cache-5b9c8d7f4-h7w3k", verdict: VerdictRunning, container: "cache", containerStage: CStCreated, check: func(t *testing.T, f Flow) {
		s := cstage(containerOf(f, "cache"), CStCreated)
		if s.Status != StatusDone || s.Attempts != 3 || !strings.Contains(s.Reason, "no space left on device") {
			t.Errorf("cache created: %s, %d attempts, %q; want done after 3 CreateContainerError", s.Status, s.Attempts, s.Reason)
		}
	}},
	// v1.33.13
	{file: "v1.33.13/01-happy-path.log", pod: "web-7d9f8c6b5-x2kqp", verdict: VerdictRunning, check: happy},
	{file: "v1.33.13/02-image-pull-failure.log", pod: "api-6f5b9d7c4-pl8wz", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStImage, reasonHas: []string{"nginx:1.27.99", "not found"}},
	{file: "v1.33.13/04-sandbox-failure.log", pod: "payments-7b4d9c8f6-q9zrt", verdict: VerdictRunning, check: sandboxRetried(48*time.Second, 56*time.Second)},
	{file: "v1.33.13/06-pod-deletion-api.log", pod: "web-7d9f8c6b5-del42", verdict: VerdictTerminated},
	// v1.28.15
	{file: "v1.28.15/01-happy-path.log", pod: "web-7d9f8c6b5-x2kqp", verdict: VerdictRunning, check: happy},
	{file: "v1.28.15/02-image-pull-failure.log", pod: "api-6f5b9d7c4-pl8wz", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStImage, reasonHas: []string{"nginx:1.27.99", "not found"}},
	{file: "v1.28.15/04-sandbox-failure.log", pod: "payments-7b4d9c8f6-q9zrt", verdict: VerdictRunning, check: sandboxRetried(50*time.Second, 58*time.Second)},
	{file: "v1.28.15/06-pod-deletion-api.log", pod: "web-7d9f8c6b5-del42", verdict: VerdictTerminated},
	{file: "v1.28.15/08-happy-path-json-v4.log", pod: "web-json-6b7c9-k4t2p", verdict: VerdictRunning, check: happy},
	{file: "v1.28.15/10-init-container-crashloop.log", pod: "web-initfail-6d5c7-b8x4w", verdict: VerdictStalled, stalledAt: StInitContainers, container: "init-config", containerStage: CStCompleted, reasonHas: []string{"exit code 1"}, check: crashLooped(3)},
	{file: "v1.28.15/12-container-start-failure.log", pod: "shop-api-84d7f9c6d-t5n2j", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStStarted, reasonHas: []string{"RunContainerError", "/docker-entrypoint.sh"}},
}

func TestCorpusScenarios(t *testing.T) {
	covered := map[string]bool{}
	for _, sc := range append(scenarios, harnessScenarioRows(t)...) {
		covered[sc.file] = true
		t.Run(sc.file, func(t *testing.T) {
			fl := buildFile(t, filepath.Join(corpus, sc.file))
			f := onlyFlow(t, fl, sc.pod)
			if f.Verdict != sc.verdict {
				t.Errorf("verdict %s, want %s (diagnosis: %s)", f.Verdict, sc.verdict, f.Diagnosis)
			}
			if f.StalledAt != sc.stalledAt {
				t.Errorf("stalledAt %q, want %q", f.StalledAt, sc.stalledAt)
			}
			if f.Container != sc.container || f.ContainerStage != sc.containerStage {
				t.Errorf("container %q/%q, want %q/%q", f.Container, f.ContainerStage, sc.container, sc.containerStage)
			}
			for _, want := range sc.reasonHas {
				if !strings.Contains(f.Reason, want) {
					t.Errorf("reason %q lacks %q", f.Reason, want)
				}
			}
			if (sc.verdict == VerdictStalled || sc.verdict == VerdictFailed) && len(f.Evidence) == 0 {
				t.Error("a stalled or failed flow must carry evidence lines")
			}
			for _, ev := range f.Evidence {
				if ev.Line <= 0 || ev.Input == "" {
					t.Errorf("evidence without a position: %+v", ev)
				}
			}
			if sc.check != nil {
				sc.check(t, f)
			}
		})
	}
	// Every real log in testdata has its scenario (twenty-pods and
	// many-pods have their own tests).
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	for _, f := range files {
		rel, _ := filepath.Rel(corpus, f)
		if !covered[rel] && !strings.Contains(rel, "07-twenty-pods") && !strings.Contains(rel, "07-many-pods") {
			t.Errorf("%s has no scenario in this table", rel)
		}
	}
}

func TestTwentyPods(t *testing.T) {
	fl := buildFile(t, filepath.Join(corpus, "v1.36.3/07-twenty-pods.log"))
	if len(fl.Items) != 20 {
		t.Fatalf("%d flows, want 20", len(fl.Items))
	}
	withStartup, retriedPulls := 0, 0
	for _, f := range fl.Items {
		if f.Verdict != VerdictRunning {
			t.Errorf("%s: %s (%s), want Running", f.Pod.Name, f.Verdict, f.Diagnosis)
		}
		if f.Startup != nil && f.Startup.KubeletE2E != nil {
			withStartup++
		}
		if f.Startup == nil || f.Startup.PodflowE2E == nil {
			t.Errorf("%s: running, but no podflow startup figure", f.Pod.Name)
		}
		for _, c := range f.Containers {
			if s := cstage(c, CStImage); s.Attempts > 0 && strings.Contains(s.Reason, "pull QPS exceeded") {
				retriedPulls++
			}
		}
	}
	// MANIFEST: 19 "Observed pod startup duration" lines; "pull QPS exceeded" hit 3 times.
	if withStartup != 19 {
		t.Errorf("%d pods with startup figures, want 19", withStartup)
	}
	if retriedPulls == 0 {
		t.Error("no image pull retried after pull QPS exceeded")
	}
}

// The kubelet's own podStartE2EDuration and podflow's figure agree within
// 1 ms, on every pod of every corpus log whose startup line gives the
// creation time (the JSON logger writes it as the line's own ts: 08).
func TestStartupCrossCheck(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	checked := 0
	for _, path := range files {
		file, _ := filepath.Rel(corpus, path)
		fl := buildFile(t, path)
		n, lines := 0, 0
		for _, f := range fl.Items {
			st := f.Startup
			if st == nil || st.Evidence == nil {
				continue // no kubelet line: podflow's own figure only
			}
			if st.Created == nil || (st.KubeletE2E == nil && st.KubeletSLO != nil) {
				// (1.28's line has no podStartE2EDuration, only the SLO.)
				continue
			}
			lines++
			if st.KubeletE2E == nil || st.PodflowE2E == nil {
				t.Errorf("%s %s: kubelet %v podflow %v", file, f.Pod.Name, st.KubeletE2E, st.PodflowE2E)
				continue
			}
			n++
			diff := time.Duration(*st.PodflowE2E - *st.KubeletE2E)
			if diff < -time.Millisecond || diff > time.Millisecond {
				t.Errorf("%s %s: podflow %s vs kubelet %s", file, f.Pod.Name, st.PodflowE2E, st.KubeletE2E)
			}
		}
		if lines > 0 && n == 0 && !strings.Contains(file, "json") {
			t.Errorf("%s: no startup figures", file)
		}
		checked += n
	}
	if checked < 80 {
		t.Errorf("%d pods cross-checked: the corpus should give far more", checked)
	}
}

// journaldWrap puts a `journalctl -o short-precise` prefix on every line.
func journaldWrap(data []byte, host string) []byte {
	var out bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		line := sc.Text()
		ts := "Nov 22 06:00:00.000000"
		if len(line) > 21 && (line[0] == 'I' || line[0] == 'W' || line[0] == 'E') {
			ts = "Nov " + line[3:5] + " " + line[6:21]
		}
		fmt.Fprintf(&out, "%s %s kubelet[4242]: %s\n", ts, host, line)
	}
	return out.Bytes()
}

// The same story in text, JSON and journald-wrapped form gives the same verdicts.
func TestFormatsAgree(t *testing.T) {
	type outcome struct {
		verdict          Verdict
		stalledAt, c, cs string
	}
	get := func(fl *FlowList) []outcome {
		var out []outcome
		for _, f := range fl.Items {
			out = append(out, outcome{f.Verdict, f.StalledAt, f.Container, f.ContainerStage})
		}
		return out
	}
	for _, file := range []string{"v1.36.3/01-happy-path.log", "v1.36.3/02-image-pull-failure.log", "v1.36.3/10-init-container-crashloop.log", "v1.28.15/04-sandbox-failure.log"} {
		data, err := os.ReadFile(filepath.Join(corpus, file))
		if err != nil {
			t.Fatal(err)
		}
		text := get(buildBytes(t, file, data))
		wrapped := get(buildBytes(t, file+".journal", journaldWrap(data, "kb-node")))
		if fmt.Sprint(text) != fmt.Sprint(wrapped) {
			t.Errorf("%s: text %v, journald-wrapped %v", file, text, wrapped)
		}
	}
	// The same 01 log exported with `journalctl -u kubelet -o json`.
	{
		text := buildFile(t, filepath.Join(corpus, "v1.36.3/01-happy-path.log"))
		entries := buildFile(t, "../testdata/formats/journald-json.log")
		a, b := text.Items[0], entries.Items[0]
		if fmt.Sprint(get(text)) != fmt.Sprint(get(entries)) || a.Duration != b.Duration || len(a.Stages) != len(b.Stages) || b.Node != "kb-node-happy" {
			t.Errorf("journalctl -o json: %v %s on %s, text %v %s", get(entries), b.Duration, b.Node, get(text), a.Duration)
		}
	}
	// 01 (text) and 08 (JSON) are two runs of the same happy-path story.
	for _, v := range []string{"v1.36.3", "v1.28.15"} {
		text := get(buildFile(t, filepath.Join(corpus, v, "01-happy-path.log")))
		json := get(buildFile(t, filepath.Join(corpus, v, "08-happy-path-json-v4.log")))
		if fmt.Sprint(text) != fmt.Sprint(json) {
			t.Errorf("%s: text %v, JSON %v", v, text, json)
		}
	}
}

// A -v=0 log (errors, warnings and the V0 lines only) must not yield a
// false Stalled: stages it cannot show are unknown.
func TestLowVerbosityNeverFalseStall(t *testing.T) {
	v0 := []string{`"Observed pod startup duration"`, `"Kubelet version"`, `"Starting kubelet main sync loop"`}
	for _, file := range []string{"v1.36.3/01-happy-path.log", "v1.36.3/04-sandbox-failure.log", "v1.36.3/13-container-create-error.log"} {
		data, err := os.ReadFile(filepath.Join(corpus, file))
		if err != nil {
			t.Fatal(err)
		}
		var kept bytes.Buffer
		for _, line := range bytes.Split(data, []byte("\n")) {
			keep := len(line) > 0 && (line[0] == 'E' || line[0] == 'W')
			for _, m := range v0 {
				keep = keep || bytes.Contains(line, []byte("] "+m))
			}
			if keep {
				kept.Write(line)
				kept.WriteByte('\n')
			}
		}
		fl := buildBytes(t, file+".v0", kept.Bytes())
		if fl.Summary.Verbosity > 0 {
			t.Errorf("%s at -v=0: verbosity detected as %d", file, fl.Summary.Verbosity)
		}
		for _, f := range fl.Items {
			if f.Verdict == VerdictStalled {
				t.Errorf("%s at -v=0: %s falsely Stalled: %s", file, f.Pod.Name, f.Diagnosis)
			}
			unknown := 0
			for _, s := range f.Stages {
				if s.Status == StatusStalled {
					t.Errorf("%s at -v=0: stage %s stalled", file, s.ID)
				}
				if s.Status == StatusUnknown {
					unknown++
				}
			}
			if unknown == 0 {
				t.Errorf("%s at -v=0: no stage is unknown (%+v)", file, f.Stages)
			}
		}
	}
}

// The creation stages never overlap, nor do the termination stages, and
// their durations plus the gaps between them add up to the flow's total.
// The two sequences may overlap: the pod worker begins a pod's teardown
// when its deletion comes, whatever stage its creation is in ("Cancelling
// current pod sync"; v1.37.2/20-delete-during-pull: SyncLoop DELETE at
// 12:33:01.9 while the image pull runs on to 12:33:33.0), and a pod that
// failed is torn down while its creation never completes (16).
func TestStagesAreSequential(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	for _, file := range files {
		fl := buildFile(t, file)
		for _, f := range fl.Items {
			var prev, first *time.Time
			for _, s := range f.Stages {
				if s.Start == nil {
					continue
				}
				if first == nil {
					first = s.Start
				}
				if s.ID == StTerminating {
					if s.Start.Before(*first) {
						t.Errorf("%s %s: terminating starts %s before the pod's first stage", file, f.Pod.Name, first.Sub(*s.Start))
					}
					prev = nil // the termination's own sequence
				}
				if s.End != nil && s.End.Before(*s.Start) {
					t.Errorf("%s %s: stage %s ends before it starts", file, f.Pod.Name, s.ID)
				}
				if prev != nil && s.Start.Before(*prev) {
					t.Errorf("%s %s: stage %s starts %s before the previous stage ended", file, f.Pod.Name, s.ID, prev.Sub(*s.Start))
				}
				if s.End != nil {
					prev = s.End
				}
			}
		}
	}
}
