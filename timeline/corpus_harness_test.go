package timeline

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The logs tools/kubeharness made (make corpus): one directory per kubelet
// version, the scenarios each version supports. Each row below is written
// from its scenario file's story (tools/kubeharness/scenarios/NN-*.yaml),
// not from podflow's output; the same row holds for every version.

// harnessVersions lists the harness-made directories and the scenarios in
// each: the versions with a kubeharness block in MANIFEST.md (make corpus
// writes it), and the logs in their directories. A file there without a row
// in harnessRows fails TestCorpusScenarios' coverage check.
func harnessVersions(t *testing.T) map[string][]string {
	t.Helper()
	manifest, err := os.ReadFile(filepath.Join(corpus, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, m := range regexp.MustCompile(`<!-- kubeharness (v[0-9.]+) begin -->`).FindAllStringSubmatch(string(manifest), -1) {
		files, _ := filepath.Glob(filepath.Join(corpus, m[1], "*.log"))
		for _, f := range files {
			out[m[1]] = append(out[m[1]], strings.TrimSuffix(filepath.Base(f), ".log"))
		}
	}
	return out
}

func started(c Container) bool { return cstage(c, CStStarted).Status == StatusDone }

func restartsAtMost(name string, n int) func(t *testing.T, f Flow) {
	return func(t *testing.T, f Flow) {
		c := containerOf(f, name)
		if c.Name == "" || !started(c) {
			t.Errorf("%s never started", name)
		}
		if c.Restarts > n {
			t.Errorf("%s restarted %d times, want ≤ %d", name, c.Restarts, n)
		}
	}
}

func all(checks ...func(t *testing.T, f Flow)) func(t *testing.T, f Flow) {
	return func(t *testing.T, f Flow) {
		for _, c := range checks {
			c(t, f)
		}
	}
}

func terminated(t *testing.T, f Flow) {
	for _, id := range TerminationStages {
		if s := stageOf(f, id); s.Status != StatusDone {
			t.Errorf("termination stage %s is %s", id, s.Status)
		}
	}
}

// harnessRows is the story of each scenario, as a table row.
var harnessRows = map[string]scenario{
	"01-happy-path": {pod: "web-7d9f8c6b5-x2kqp", verdict: VerdictRunning, check: all(happy, restartsAtMost("nginx", 0), restartsAtMost("log-shipper", 0))},
	"02-image-pull-failure": {pod: "api-6f5b9d7c4-pl8wz", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStImage,
		reasonHas: []string{"nginx:1.27.99", "not found"}, check: func(t *testing.T, f Flow) {
			if c := containerOf(f, "api"); started(c) || c.PullBackOffs == 0 {
				t.Errorf("api: started %v, pull back-offs %d; want never started, backing off", started(c), c.PullBackOffs)
			}
		}},
	"03-slow-image-pull": {pod: "web-slowpull-58c9d-7hxkq", verdict: VerdictRunning, check: func(t *testing.T, f Flow) {
		if d := time.Duration(cstage(containerOf(f, "nginx"), CStImage).Duration); d < 19*time.Second || d > 23*time.Second {
			t.Errorf("nginx image pull took %s, want ~20s", d)
		}
	}},
	"04-sandbox-failure":   {pod: "payments-7b4d9c8f6-q9zrt", verdict: VerdictRunning, check: sandboxRetried(35*time.Second, 80*time.Second)},
	"05-crashloop-backoff": {pod: "worker-5d8f7b9c4-m2v6n", verdict: VerdictFailed, stalledAt: StRunning, container: "worker", containerStage: CStStarted, reasonHas: []string{"exit code 1"}, check: crashLooped(3)},
	"06-pod-deletion-api":  {pod: "web-7d9f8c6b5-del42", verdict: VerdictTerminated, check: terminated},
	"06b-static-pod-add-remove": {pod: "static-web-%node", verdict: VerdictTerminated, check: all(terminated, func(t *testing.T, f Flow) {
		if !f.Static || f.Source != "file" || f.Mirror == "" {
			t.Errorf("static %v source %q mirror %q: want a static pod with its mirror merged", f.Static, f.Source, f.Mirror)
		}
	})},
	"08-happy-path-json-v4": {pod: "web-json-6b7c9-k4t2p", verdict: VerdictRunning, check: happy},
	"09-happy-path-v2": {pod: "web-v2-6b7c9-r8s5d", verdict: VerdictRunning, check: func(t *testing.T, f Flow) {
		for _, id := range []string{StVolumes, StSynced} {
			if s := stageOf(f, id); s.Status != StatusUnknown {
				t.Errorf("at -v=2 stage %s is %s, want unknown", id, s.Status)
			}
		}
	}},
	"10-init-container-crashloop": {pod: "web-initfail-6d5c7-b8x4w", verdict: VerdictStalled, stalledAt: StInitContainers, container: "init-config", containerStage: CStCompleted,
		reasonHas: []string{"exit code 1"}, check: all(crashLooped(3), neverStarted("nginx", "log-shipper"))},
	// The ConfigMap comes 100 s after the pod; the volume manager retries
	// the failed mount on its exponential back-off (0.5 s doubling:
	// nestedpendingoperations durationBeforeRetry), failing at ~64 s with
	// 1m4s to wait, so the mount succeeds at the retry after the ConfigMap,
	// ~128 s: no sooner than 1m40s, and before the next step (~4m).
	"11-volume-mount-failure": {pod: "web-volfail-7f6b8-d4n8q", verdict: VerdictRunning, check: func(t *testing.T, f Flow) {
		s := stageOf(f, StVolumes)
		if d := time.Duration(s.Duration); d < 100*time.Second || d > 2*time.Minute+30*time.Second {
			t.Errorf("volumes took %s, want from 1m40s (the ConfigMap came 100 s after the pod) to ~2m10s (the next mount retry)", d)
		}
		if s.Attempts == 0 || !strings.Contains(s.Reason, `configmap "web-config-v3" not found`) {
			t.Errorf("volumes attempts %d reason %q", s.Attempts, s.Reason)
		}
	}},
	"12-container-start-failure": {pod: "shop-api-84d7f9c6d-t5n2j", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStStarted, reasonHas: []string{"RunContainerError", "/docker-entrypoint.sh"}},
	"13-container-create-error": {pod: "cache-5b9c8d7f4-h7w3k", verdict: VerdictRunning, container: "cache", containerStage: CStCreated, check: func(t *testing.T, f Flow) {
		s := cstage(containerOf(f, "cache"), CStCreated)
		if s.Status != StatusDone || s.Attempts != 3 || !strings.Contains(s.Reason, "no space left on device") {
			t.Errorf("cache created: %s, %d attempts, %q; want done after 3 CreateContainerError", s.Status, s.Attempts, s.Reason)
		}
	}},
	// Native sidecar: log-agent starts first and keeps running, then app.
	"14-sidecar-running": {pod: "orders-6f8d7c9b5-s1dcr", verdict: VerdictRunning, check: all(restartsAtMost("log-agent", 0), restartsAtMost("app", 0), func(t *testing.T, f Flow) {
		side, app := containerOf(f, "log-agent"), containerOf(f, "app")
		if side.State != "running" {
			t.Errorf("sidecar log-agent state %q, want running (it keeps running)", side.State)
		}
		ss, as := cstage(side, CStStarted), cstage(app, CStStarted)
		if ss.End == nil || as.End == nil || as.End.Before(*ss.End) {
			t.Errorf("app started %v, before its sidecar (%v)", as.End, ss.End)
		}
		if s := stageOf(f, StReady); s.Status != StatusDone {
			t.Errorf("ready is %s", s.Status)
		}
	})},
	// The sidecar proxy crash-loops; app runs on, unharmed. The pod fails
	// by the rule of 05 (a container backing off after it ran), at running,
	// naming the sidecar.
	"15-sidecar-crashloop": {pod: "checkout-7c9d8b6f4-sc4rl", verdict: VerdictFailed, stalledAt: StRunning, container: "proxy", containerStage: CStStarted, reasonHas: []string{"exit code 1"}, check: all(restartsAtMost("app", 0), func(t *testing.T, f Flow) {
		p := containerOf(f, "proxy")
		if p.Restarts < 2 || p.ExitCode == nil || *p.ExitCode != 1 {
			t.Errorf("proxy: %d restarts, exit code %v; want crash-looping with exit code 1", p.Restarts, p.ExitCode)
		}
	})},
	// restartPolicy Never: the init container fails once and the pod fails
	// (phase Failed); the kubelet then tears the pod down, which does not
	// make it Terminated: nothing deleted it. It failed where migrate did
	// not complete.
	"16-init-container-fails": {pod: "db-migrate-28f6k", verdict: VerdictFailed, stalledAt: StInitContainers, container: "migrate", containerStage: CStCompleted, reasonHas: []string{"exit code 2"}, check: all(neverStarted("api"), func(t *testing.T, f Flow) {
		m := containerOf(f, "migrate")
		if m.Restarts != 0 || m.ExitCode == nil || *m.ExitCode != 2 {
			t.Errorf("migrate: %d restarts, exit code %v; want one run, exit code 2", m.Restarts, m.ExitCode)
		}
	})},
	// The liveness probe (connection refused) makes the kubelet restart web,
	// with back-off: Failed by the rule of 05, at running, web's start.
	"17-liveness-probe-restart": {pod: "frontend-5c7b9d8f6-lv3pq", verdict: VerdictFailed, stalledAt: StRunning, container: "web", containerStage: CStStarted, reasonHas: []string{"Liveness"}, check: func(t *testing.T, f Flow) {
		c := containerOf(f, "web")
		if c.Restarts < 2 {
			t.Errorf("web restarted %d times, want ≥ 2", c.Restarts)
		}
		if c.Probe == nil || c.Probe.Type != "Liveness" || !c.Probe.Restart || c.Probe.Failures < 3 || !strings.Contains(c.Probe.Message, "connection refused") {
			t.Errorf("web probe %+v; want failed liveness, connection refused, restarted", c.Probe)
		}
	}},
	// The readiness probe never passes: running, never ready, no restart.
	"18-readiness-probe-failure": {pod: "catalog-6b8c7d9f5-rd2xk", verdict: VerdictStalled, stalledAt: StReady, container: "web", reasonHas: []string{"Readiness probe failed", "connection refused"}, check: all(restartsAtMost("web", 0), func(t *testing.T, f Flow) {
		c := containerOf(f, "web")
		if c.Ready || c.Probe == nil || c.Probe.Type != "Readiness" || c.Probe.Restart {
			t.Errorf("web ready %v probe %+v; want unready by its readiness probe, never restarted", c.Ready, c.Probe)
		}
	})},
	// A missing ConfigMap key: CreateContainerConfigError, never created.
	"19-configmap-key-missing": {pod: "billing-7d6c8b9f5-ck8mz", verdict: VerdictStalled, stalledAt: StContainers, container: "api", containerStage: CStCreated,
		reasonHas: []string{"CreateContainerConfigError", "LOG_LEVEL"}, check: neverStarted("api")},
	// Deleted while its image was still being pulled. The kubelet does not
	// cancel the pull ("Cancelling current pod sync" stops no PullImage):
	// once the 40 s pull is done SyncPod creates and starts elasticsearch,
	// and only then does the pod worker terminate it (killed, exit 0),
	// and the pod is removed.
	"20-delete-during-pull": {pod: "search-5f9d8c7b6-dp7wn", verdict: VerdictTerminated, check: all(terminated, restartsAtMost("elasticsearch", 0), func(t *testing.T, f Flow) {
		c := containerOf(f, "elasticsearch")
		if d := time.Duration(cstage(c, CStImage).Duration); d < 39*time.Second || d > 45*time.Second {
			t.Errorf("elasticsearch image pull took %s, want ~40s (not cut short by the deletion)", d)
		}
		term, started := stageOf(f, StTerminating), cstage(c, CStStarted)
		if term.Start == nil || started.End == nil || !term.Start.Before(*started.End) {
			t.Errorf("terminating began %v, elasticsearch started %v: want the deletion during the pull, before the start", term.Start, started.End)
		}
		if c.ExitCode == nil || *c.ExitCode != 0 {
			t.Errorf("elasticsearch exit code %v, want 0 (stopped by the termination)", c.ExitCode)
		}
	})},
	// SIGTERM ignored: the kill waits out the 45 s grace period, exit 137.
	"21-long-grace-period": {pod: "queue-worker-8d7f6c5b9-gr45s", verdict: VerdictTerminated, check: all(terminated, func(t *testing.T, f Flow) {
		s := stageOf(f, StTerminating)
		if s.Start == nil || s.End == nil {
			t.Fatalf("terminating stage %+v", s)
		}
		stopped := stageOf(f, StStopped)
		end := s.End
		if stopped.End != nil {
			end = stopped.End
		}
		if d := end.Sub(*s.Start); d < 44*time.Second || d > 55*time.Second {
			t.Errorf("killing took %s, want ~45s (the grace period)", d)
		}
		if c := containerOf(f, "worker"); c.ExitCode == nil || *c.ExitCode != 137 {
			t.Errorf("worker exit code %v, want 137 (SIGKILL after the grace period)", c.ExitCode)
		}
	})},
	// The mirror pod is deleted and recreated; the static pod runs on.
	"22-mirror-pod-deleted": {pod: "node-agent-%node", verdict: VerdictTerminated, check: all(terminated, restartsAtMost("agent", 0), func(t *testing.T, f Flow) {
		if !f.Static || f.Source != "file" {
			t.Errorf("static %v source %q; want the static pod", f.Static, f.Source)
		}
	})},
	// The kubelet restarts; the running pod is found again, nothing restarts.
	"23-kubelet-restart": {pod: "inventory-6c9b8d7f5-rs9tb", verdict: VerdictRunning, check: restartsAtMost("web", 0)},
	// In-place resize: no restart, still Running.
	"24-inplace-resize":      {pod: "reports-5d7c9b8f6-rz6vh", verdict: VerdictRunning, check: restartsAtMost("app", 0)},
	"25-pod-level-resources": {pod: "analytics-6f9c8d7b5-pl2rs", verdict: VerdictRunning, check: all(restartsAtMost("app", 0), restartsAtMost("metrics", 0))},
	"26-user-namespaces":     {pod: "sandboxed-7b8d9c6f5-un4jq", verdict: VerdictRunning, check: restartsAtMost("app", 0)},
}

func neverStarted(names ...string) func(t *testing.T, f Flow) {
	return func(t *testing.T, f Flow) {
		for _, name := range names {
			if c := containerOf(f, name); c.Name != "" && started(c) {
				t.Errorf("%s started, but the story says it never does", name)
			}
		}
	}
}

// harnessNode is the node a version's scenario ran on (kb<minor>-<node>).
func harnessNode(version, node string) string {
	var major, minor int
	fmt.Sscanf(version, "v%d.%d", &major, &minor)
	return fmt.Sprintf("kb%d-%s", minor, node)
}

// harnessScenarioRows instantiates the rows for every harness-made file.
func harnessScenarioRows(t *testing.T) []scenario {
	var out []scenario
	for v, names := range harnessVersions(t) {
		for _, name := range names {
			row, ok := harnessRows[name]
			if !ok {
				continue
			}
			row.file = filepath.Join(v, name+".log")
			if strings.Contains(row.pod, "%node") {
				row.pod = strings.ReplaceAll(row.pod, "%node", harnessNode(v, harnessNodes[name]))
			}
			out = append(out, row)
		}
	}
	return out
}

// harnessNodes are the scenario files' node fields for static pods.
var harnessNodes = map[string]string{"06b-static-pod-add-remove": "static", "22-mirror-pod-deleted": "mirror"}

// The stories told by a whole file rather than one pod: twelve pods at
// once, all Running; a kubelet restarted while its pod runs.
func TestHarnessNodeStories(t *testing.T) {
	ran := 0
	versions := harnessVersions(t)
	for v, names := range versions {
		for _, name := range names {
			file := filepath.Join(corpus, v, name+".log")
			switch name {
			case "07-many-pods":
				ran++
				fl := buildFile(t, file)
				if len(fl.Items) != 12 {
					t.Errorf("%s: %d flows, want 12", file, len(fl.Items))
				}
				for _, f := range fl.Items {
					if f.Verdict != VerdictRunning {
						t.Errorf("%s %s: %s (%s), want Running", file, f.Pod.Name, f.Verdict, f.Diagnosis)
					}
				}
			case "23-kubelet-restart":
				ran++
				fl := buildFile(t, file)
				restarts := 0
				for _, fd := range fl.Findings {
					if fd.Kind == "KubeletRestart" && fd.Node == harnessNode(v, "restart") {
						restarts++
					}
				}
				if restarts != 1 {
					t.Errorf("%s: %d KubeletRestart findings on %s, want 1", file, restarts, harnessNode(v, "restart"))
				}
			}
		}
	}
	if ran == 0 && len(versions) > 0 {
		t.Error("no harness version has 07-many-pods or 23-kubelet-restart")
	}
}
