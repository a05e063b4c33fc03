package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// What the fallback reads of a line beyond the pod it names: the row of
// classes.tsv its message is (lineClass), and the housekeeping of an
// orphaned pod (termination.go). Lines are reconstructions of the
// kubelet's (its formats and keys from internal/catalog, values
// replaced), as a paste gives them alone.
func TestLineClass(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		stage      string // "" for no evidence row
	}{
		{name: "structured message, exact",
			line:  `I1122 06:03:31.118201   21321 volume_linux.go:145] "Perform recursive ownership change for directory" path="/var/lib/kubelet/pods/5b1e7c2a-9d4f-4e3b-8a6c-2f0d1e9b7a44/volumes/kubernetes.io~csi/pvc-9/mount"`,
			stage: StVolumes},
		{name: "printf format, verbs matched as anything",
			line:  `W0608 11:47:05.792168    2891 volume_linux.go:49] Setting volume ownership for /var/lib/kubelet/pods/9a4d2e71-c8b3-4f05-a6e2-17d0b5c93f48/volumes/kubernetes.io~configmap/config and fsGroup set. If the volume has a lot of files then setting volume ownership could be slow, see https://github.com/kubernetes/kubernetes/issues/69699`,
			stage: StVolumes},
		{name: "printf format cut short: no row claims a part",
			line: `W0608 11:47:05.792168    2891 volume_linux.go:49] Setting volume ownership for /var/lib/kubelet/pods/9a4d2e71-c8b3-4f05-a6e2-17d0b5c93f48/volumes/kubernetes.io~configmap/config and fsGroup set. If the vol`},
		{name: "a message of no version",
			line: `I1122 06:03:31.118201   21321 volume_linux.go:145] "Perform recursive ownership changes for directory" path="/x"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := parseOne(t, tc.line)
			if got := lineClass(rec); got != tc.stage {
				t.Errorf("stage %q, want %q", got, tc.stage)
			}
		})
	}
}

// The lookup's own reading of classes.tsv has every kubelet evidence row
// Classes has, at its stage.
func TestLineClassesHoldEveryRow(t *testing.T) {
	rows, err := Classes()
	if err != nil {
		t.Fatal(err)
	}
	lc := loadLineClasses()
	printf := 0
	for _, pcs := range lc.printf {
		printf += len(pcs)
	}
	wantPrintf := 0
	for _, c := range rows {
		if c.Class != ClassEvidence || c.Component != "kubelet" {
			continue
		}
		switch c.Kind {
		case "msg":
			if got := lc.exact[c.Text]; got != c.Stage {
				t.Errorf("%q: stage %q, want %q", c.Text, got, c.Stage)
			}
		case "printf":
			wantPrintf++
		}
	}
	if printf != wantPrintf || wantPrintf == 0 {
		t.Errorf("%d printf rows, want %d", printf, wantPrintf)
	}
}

// parseOne is the record of one kubelet line, decoded whatever Want says.
func parseOne(t *testing.T, line string) *parser.Record {
	t.Helper()
	r := parser.NewReader(strings.NewReader(line+"\n"), parser.Options{Name: "one.log", Year: 2025})
	rec, err := r.Next()
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return rec
}

// An orphaned pod (kubelet_volumes.go cleanupOrphanedPodDirs: its pod
// manager no longer has it, its containers are stopped) is a pod on its
// way out, named by its UID: listed, going away, deleted.
func TestOrphanedPod(t *testing.T) {
	const uid = "3c5e19d7-34d2-11e6-b7a0-42010af00004"
	const named = "8f3c6a1e-4d92-4b7e-a0c5-e71d29b6f304"
	for _, tc := range []struct {
		name    string
		lines   []string
		pod     string // the name it is listed under
		verdict Verdict
		reason  string // words its reason holds
	}{
		{name: "1.3 printf, info: found, removing",
			lines: []string{
				`I0618 03:42:51.062975    9433 kubelet.go:2004] Orphaned pod "` + uid + `" found, removing`,
				`I0618 03:42:51.064022    9433 kubelet.go:2006] Failed to remove orphaned pod "` + uid + `" dir; err: remove /var/lib/kubelet/pods/` + uid + `/volumes/kubernetes.io~secret/default-token-q8x2z: device or resource busy`,
			},
			pod: uid, verdict: VerdictTerminating, reason: "never names"},
		{name: "1.11-1.20 printf error: volume paths still present",
			lines: []string{
				`E0508 06:48:32.697341     512 kubelet_volumes.go:114] Orphaned pod "` + uid + `" found, but volume paths are still present on disk.`,
			},
			pod: uid, verdict: VerdictTerminating, reason: "volume paths are still present"},
		{name: "1.21+ structured error, then its directory cleaned up",
			lines: []string{
				`E1007 15:02:19.359145    7486 kubelet_volumes.go:245] "There were many similar errors. Turn up verbosity to see them." err="orphaned pod \"` + uid + `\" found, but error not a directory occurred when trying to remove the volumes dir" numErrs=1`,
				`I1007 15:02:27.359957    7486 kubelet_volumes.go:160] "Cleaned up orphaned pod volumes dir" podUID=` + uid + ` path="/var/lib/kubelet/pods/` + uid + `/volumes"`,
			},
			pod: uid, verdict: VerdictTerminated},
		{name: "a pod the log named before: its earlier trouble gives way to its end",
			lines: []string{
				`E0730 14:21:37.733756     231 pod_workers.go:191] Error syncing pod ` + named + ` ("dns-test-4b1f_dns-4182(` + named + `)"), skipping: failed to "StartContainer" for "webserver" with RunContainerError: "failed to create containerd task: OCI runtime create failed"`,
				`E0730 14:21:39.966301     231 kubelet_volumes.go:154] orphaned pod "` + named + `" found, but volume paths are still present on disk : There were a total of 1 errors similar to this. Turn up verbosity to see them.`,
			},
			pod: "dns-test-4b1f", verdict: VerdictTerminating, reason: "volume paths are still present"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildLines(t, tc.lines...)
			f := onlyFlow(t, fl, tc.pod)
			if f.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s", f.Verdict, tc.verdict)
			}
			if !f.Deleted {
				t.Error("not deleted: an orphaned pod is one its source no longer has")
			}
			if !strings.Contains(f.Reason, tc.reason) {
				t.Errorf("reason %q, want it to hold %q", f.Reason, tc.reason)
			}
			if len(fl.Items) != 1 {
				t.Errorf("%d pods, want the one", len(fl.Items))
			}
		})
	}
}

// A line of a stage's subsystem that names a pod by the UID in a volume
// path lists the pod; the rows of termination stages that a live pod's
// subsystems also write (a mirror pod replaced) begin no termination.
func TestFallbackEvidenceRows(t *testing.T) {
	const uid = "9a4d2e71-c8b3-4f05-a6e2-17d0b5c93f48"
	fl := buildLines(t,
		`W0608 11:47:05.792168    2891 volume_linux.go:49] Setting volume ownership for /var/lib/kubelet/pods/`+uid+`/volumes/kubernetes.io~configmap/config and fsGroup set. If the volume has a lot of files then setting volume ownership could be slow, see https://github.com/kubernetes/kubernetes/issues/69699`)
	f := onlyFlow(t, fl, uid)
	if f.Verdict != VerdictIncomplete || !strings.Contains(f.Reason, "never names") {
		t.Errorf("verdict %s reason %q, want Incomplete, known by its UID", f.Verdict, f.Reason)
	}
	var vol *Stage
	for i := range f.Stages {
		if f.Stages[i].ID == StVolumes {
			vol = &f.Stages[i]
		}
	}
	if vol == nil || len(vol.Evidence) == 0 || vol.Status == StatusStalled || vol.Status == StatusDone {
		t.Errorf("volumes stage %+v: the line is its evidence, and times nothing", vol)
	}

	fl = buildLines(t,
		`I0416 07:57:30.100000    1902 kubelet.go:1889] SyncLoop (ADD, "file"): "etcd-k8s-lab_kube-system(0a4c5e7d91b3f2a8c6e0d4b7f1a9c3e5)"`,
		`W0416 07:57:34.210714    1902 kubelet.go:1602] Deleting mirror pod "etcd-k8s-lab_kube-system(3f08d1b6-4170-11e8-9d2b-0050569c41e7)" because it is outdated`)
	if f := onlyFlow(t, fl, "etcd-k8s-lab"); hasTermination(f) || f.Deleted {
		t.Errorf("verdict %s: replacing an outdated mirror pod is no termination of the static pod", f.Verdict)
	}
}

// The startup latency tracker's line alone proves its pod ran.
func TestStartupLineAlone(t *testing.T) {
	fl := buildLines(t, `I0225 23:52:25.414713    2967 pod_startup_latency_tracker.go:104] "Observed pod startup duration" pod="default/resource-consume-6d8b4c97f5-p7x2k" podStartSLOduration=3.2 podStartE2EDuration="15.414697194s" podCreationTimestamp="2025-02-25 23:52:10 +0000 UTC" firstStartedPulling="0001-01-01 00:00:00 +0000 UTC" lastFinishedPulling="0001-01-01 00:00:00 +0000 UTC" observedRunningTime="2025-02-25 23:52:25.414602395 +0000 UTC m=+457.027452188" watchObservedRunningTime="2025-02-25 23:52:25.414697194 +0000 UTC m=+457.027546987"`)
	f := onlyFlow(t, fl, "resource-consume-6d8b4c97f5-p7x2k")
	if f.Verdict != VerdictRunning {
		t.Errorf("verdict %s, want Running", f.Verdict)
	}
	if f.Startup == nil || f.Startup.KubeletE2E == nil || *f.Startup.KubeletE2E != Duration(15414697194) {
		t.Errorf("startup %+v, want the kubelet's E2E of 15.414697194s", f.Startup)
	}
}

// The CRI client's failed StartContainer names its container by ID, or
// by the log path of the error; the volume manager's failed operation
// names its pod in the text; either may be a paste's first line.
func TestFailureLinesStartTheirPod(t *testing.T) {
	const uid = "5b2e90c7-9cc1-11e7-a3d4-f8bc12a60e93"
	const id = "5e8a1d3f7c0b92e46a1d8f3c5b7e09a2d4f6c8b1e3a5d7f9c0b2e4a6d8f1c3b57"
	for _, tc := range []struct {
		name                     string
		lines                    []string
		pod, stalledAt           string
		container, containerStat string
		reason                   string
	}{
		{name: "≤1.13 symlink path /var/log/pods/<uid>/<container>_<n>.log",
			lines: []string{`E0718 13:03:08.752901     791 remote_runtime.go:203] StartContainer "` + id + `" from runtime service failed: rpc error: code = 2 desc = failed to create symbolic link "/var/log/pods/7b2e0c94d1f85a36e9c0b4d27a1f5e83/kube-proxy_0.log" to the container log file "/var/lib/docker/containers/` + id + `/` + id + `-json.log" for container "` + id + `": symlink /var/lib/docker/containers/x-json.log /var/log/pods/7b2e0c94d1f85a36e9c0b4d27a1f5e83/kube-proxy_0.log: file exists`},
			pod:   "7b2e0c94d1f85a36e9c0b4d27a1f5e83", stalledAt: StContainers, container: "kube-proxy", containerStat: CStStarted, reason: "symbolic link"},
		{name: "≤1.20 nestedpendingoperations WaitForAttach",
			lines: []string{
				`E0918 18:36:21.010764   47970 nestedpendingoperations.go:264] Operation for "\"kubernetes.io/fc/[wwn]\"" failed. No retries permitted until 2017-09-18 18:36:21.510731259 -0400 EDT (durationBeforeRetry 500ms). Error: MountVolume.WaitForAttach failed for volume "pv0007" (UniqueName: "kubernetes.io/fc/[wwn]") pod "nginx-fc1" (UID: "` + uid + `") : Heuristic determination of mount point failed`,
				`I0918 18:36:21.576630   47970 reconciler.go:257] operationExecutor.MountVolume started for volume "pv0007" (UniqueName: "kubernetes.io/fc/[wwn]") pod "nginx-fc1" (UID: "` + uid + `")`,
			},
			pod: "nginx-fc1", stalledAt: StVolumes, reason: "WaitForAttach failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildLines(t, tc.lines...)
			f := onlyFlow(t, fl, tc.pod)
			if f.Verdict != VerdictStalled || f.StalledAt != tc.stalledAt || f.Container != tc.container || f.ContainerStage != tc.containerStat {
				t.Errorf("%s at %s %s:%s, want Stalled at %s %s:%s", f.Verdict, f.StalledAt, f.Container, f.ContainerStage, tc.stalledAt, tc.container, tc.containerStat)
			}
			if !strings.Contains(f.Reason, tc.reason) {
				t.Errorf("reason %q, want it to hold %q", f.Reason, tc.reason)
			}
		})
	}
	// 1.21+ names the container by its ID alone: with no line tying it to
	// a pod, the failure is shown unattributed, and starts no pod.
	fl := buildLines(t, `E1122 06:03:30.200000   21321 log.go:32] "StartContainer from runtime service failed" err="rpc error: code = Unknown desc = failed to create containerd task: OCI runtime create failed: exec: \"/app\": permission denied" containerID="`+id+`"`)
	if len(fl.Items) != 0 || len(fl.Unattributed) != 1 {
		t.Errorf("pods %+v unattributed %+v, want none and the line", fl.Items, fl.Unattributed)
	}
	// An unmount's failure is the teardown's, not the volumes stage's.
	fl = buildLines(t, `E0918 18:36:21.010764   47970 nestedpendingoperations.go:264] Operation for "\"kubernetes.io/secret/`+uid+`-tok\" (\"`+uid+`\")" failed. No retries permitted until 2017-09-18 18:36:21.510731259 -0400 EDT (durationBeforeRetry 500ms). Error: UnmountVolume.TearDown failed for volume "tok" (UniqueName: "kubernetes.io/secret/`+uid+`-tok") pod "`+uid+`" (UID: "`+uid+`") : device or resource busy`)
	for _, it := range fl.Items {
		if it.StalledAt == StVolumes {
			t.Errorf("%s stalled at volumes on an unmount's failure", it.Pod.Name)
		}
	}
}

// A slice that holds only a pod's end: the pod worker's terminated sync
// and its container's exit 0, with no deletion, is a pod that completed
// (the kubelet's phase Succeeded), not a deletion under way; with an exit
// other than 0, or a deletion, it is not.
func TestEndOfARunToCompletion(t *testing.T) {
	const uid = "9b2e6f04-3c7a-4d18-b5e9-2f0a8c6d1e73"
	const id = "6d1f9b3e0a7c25e8f4b2d9c0e6a3f7b1d5c8e2a9f0b4d7c3e6a1f8b5d2c9e0a47"
	end := func(code string) []string {
		return []string{
			`I0523 14:04:24.991895     271 kubelet.go:2146] "SyncTerminatedPod enter" pod="default/indexed-job-0-x8w4d" podUID="` + uid + `"`,
			`I0523 14:04:24.991904     271 generic.go:334] "Generic (PLEG): container finished" podID="` + uid + `" containerID="` + id + `" exitCode=` + code,
			`I0523 14:04:24.991954     271 kubelet.go:2447] "SyncLoop (PLEG): event for pod" pod="default/indexed-job-0-x8w4d" event={"ID":"` + uid + `","Type":"ContainerDied","Data":"` + id + `"}`,
		}
	}
	for _, tc := range []struct {
		name  string
		lines []string
		want  Verdict
	}{
		{name: "exit 0", lines: end("0"), want: VerdictCompleted},
		{name: "exit 1", lines: end("1"), want: VerdictTerminating},
		{name: "deleted, then exit 0", lines: append([]string{`I0523 14:04:20.000000     271 kubelet.go:2456] "SyncLoop DELETE" source="api" pods=["default/indexed-job-0-x8w4d"]`}, end("0")...), want: VerdictTerminating},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := onlyFlow(t, buildLines(t, tc.lines...), "indexed-job-0-x8w4d")
			if f.Verdict != tc.want {
				t.Errorf("verdict %s, want %s", f.Verdict, tc.want)
			}
		})
	}
}

// A pod's sync error that the runtime's network is not ready is its
// sandbox's wait and the node's NetworkNotReady finding; after a kubelet
// restart, such a creation error ends a termination the earlier process
// began (k8s-110755: the node went down while its shutdown manager killed
// the pod), and a new process that only goes on tearing it down does not.
func TestNetworkNotReadyAfterRestart(t *testing.T) {
	const uid = "5b1e0c92-7a4d-4f3e-8c21-e06d93a4b7f5"
	kill := `I0623 17:17:41.744070    1748 nodeshutdown_manager_linux.go:316] "Shutdown manager killing pod with gracePeriod" pod="shop/client-7d9f4b8c6-q2m8x" gracePeriod=15`
	syncErr := func(pid string) string {
		return `E0623 17:19:58.989839    ` + pid + ` pod_workers.go:951] "Error syncing pod, skipping" err="network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized" pod="shop/client-7d9f4b8c6-q2m8x" podUID=` + uid
	}
	for _, tc := range []struct {
		name    string
		lines   []string
		verdict Verdict
	}{
		{name: "alone", lines: []string{syncErr("1746")}, verdict: VerdictStalled},
		{name: "a new process after the kill", lines: []string{kill, syncErr("1746")}, verdict: VerdictStalled},
		{name: "the same process after the kill", lines: []string{kill, syncErr("1748")}, verdict: VerdictTerminating},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildLines(t, tc.lines...)
			f := onlyFlow(t, fl, "client-7d9f4b8c6-q2m8x")
			if f.Verdict != tc.verdict {
				t.Errorf("verdict %s, want %s", f.Verdict, tc.verdict)
			}
			if tc.verdict == VerdictStalled && (f.StalledAt != StSandbox || !strings.Contains(f.Reason, "network is not ready")) {
				t.Errorf("stalled at %s reason %q, want the sandbox's wait for the network", f.StalledAt, f.Reason)
			}
			if !slices.Contains(findingKinds(fl), "NetworkNotReady") {
				t.Errorf("findings %v, want NetworkNotReady", findingKinds(fl))
			}
		})
	}
}

// The lines the fallback reads beyond errors (a UID's first line, a pod's
// first line) give the same flows however the parser cut the input: the
// excerpts whose pods only such lines name, on one worker and on two with
// small chunks.
func TestFallbackClassesSameWhateverTheChunks(t *testing.T) {
	for _, name := range []string{
		"k8s-45464-orphaned-volume-paths.log", "k8s-27651-orphaned-dir-busy.log", "k8s-105536-orphaned-not-a-directory.log",
		"k8s-90293-volume-ownership-uid-only.log", "k8s-49105-log-symlink-uid-path.log", "minikube-4084-critical-static-evict.log",
	} {
		data, err := os.ReadFile(filepath.Join(wild, name))
		if err != nil {
			t.Fatal(err)
		}
		run := func(workers, chunk int) []byte {
			b := NewBuilder(Options{})
			r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: "x.log", Year: 2026, Want: b.Want, Rescue: b.Rescue(), Workers: workers, ChunkBytes: chunk})
			for {
				rec, err := r.Next()
				if err != nil {
					break
				}
				b.Add(rec)
			}
			st := r.Stats()
			b.InputSpan("", st.FirstTime, st.LastTime)
			return jsonOf(t, b.Finish())
		}
		one := run(1, 0)
		for _, chunk := range []int{512, 2 << 10} {
			if got := run(2, chunk); !bytes.Equal(got, one) {
				t.Errorf("%s: chunks of %d bytes on 2 workers: the list differs from one worker's", name, chunk)
			}
		}
	}
}
