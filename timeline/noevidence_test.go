package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// No evidence is not success (issue #19, gap 1). In an errors-only, -v=0
// or grep-filtered log the pod-level markers are invisible: what the log
// shows of a pod is its failures. The kubelet reports a still-failing
// stage at every sync (pod_workers.go "Error syncing pod"), so failures
// that go on to the log's end are a stall; a CrashLoopBackOff is the
// kubelet backing off restarting a container that exited
// (kuberuntime_manager.go doBackOff), so it proves the container ran; and
// a pod is Running only on a line that shows it running.

// errorsOnly keeps a klog log's error lines, as `grep '^E'` does.
func errorsOnly(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept bytes.Buffer
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) > 0 && line[0] == 'E' {
			kept.Write(line)
			kept.WriteByte('\n')
		}
	}
	return kept.Bytes()
}

func TestNoEvidenceIsNotSuccess(t *testing.T) {
	wild := func(name string) (string, []byte) {
		data, err := os.ReadFile(filepath.Join("../testdata/wild", name))
		if err != nil {
			t.Fatal(err)
		}
		return name, data
	}
	grepE := func(file string) (string, []byte) {
		return file + ".E", errorsOnly(t, filepath.Join(corpus, file))
	}
	for _, tc := range []struct {
		input                func() (string, []byte)
		pod                  string
		verdict              Verdict
		stalledAt, c, cstage string
		reasonHas            string
	}{
		// Four "Error syncing pod … ImagePullBackOff" lines, 12 s apart, to
		// the log's end: the thread's pod never pulled its image.
		{func() (string, []byte) { return wild("kubeflow-2698-quote-minikube.log") }, "modeldb-backend-6c8f5b7d94-r2mvx", VerdictStalled, StContainers, "modeldb-backend", CStImage, "ImagePullBackOff"},
		// Volumes failed at 11:32:52 and 11:37:22 (the volume manager's
		// 2m wait each time); the log ends 2m after the last: still failing.
		{func() (string, []byte) { return wild("external-storage-732-volume-timeout.log") }, "task-pv-pod", VerdictStalled, StVolumes, "", "", "unmounted volumes=[task-pv-storage]"},
		// Only CrashLoopBackOff: the container ran and keeps exiting.
		{func() (string, []byte) { return wild("k8s-54760-crashloop.log") }, "alpine-415527903-x8tqk", VerdictFailed, StRunning, "alpine", CStStarted, "CrashLoopBackOff"},
		// The sync errors are cut before their reason: nothing shows the
		// pod ran, nor which stage failed; the pod worker's error stays
		// on the pod's synced stage.
		{func() (string, []byte) { return wild("k3s-996-promtail.log") }, "loki-promtail-8fz2k", VerdictIncomplete, StSynced, "", "", `failed to "StartContainer"`},
		// The corpus's stories with their error lines only.
		{func() (string, []byte) { return grepE("v1.36.3/02-image-pull-failure.log") }, "api-6f5b9d7c4-pl8wz", VerdictStalled, StContainers, "api", CStImage, "not found"},
		{func() (string, []byte) { return grepE("v1.28.15/02-image-pull-failure.log") }, "api-6f5b9d7c4-pl8wz", VerdictStalled, StContainers, "api", CStImage, "not found"},
		{func() (string, []byte) { return grepE("v1.36.3/05-crashloop-backoff.log") }, "worker-5d8f7b9c4-m2v6n", VerdictFailed, StRunning, "worker", CStStarted, "CrashLoopBackOff"},
		{func() (string, []byte) { return grepE("v1.36.3/12-container-start-failure.log") }, "shop-api-84d7f9c6d-t5n2j", VerdictStalled, StContainers, "api", CStStarted, "RunContainerError"},
		// Three CreateContainerErrors, then 50 s of other errors: it may have
		// recovered (it did), but nothing shows it running.
		{func() (string, []byte) { return grepE("v1.36.3/13-container-create-error.log") }, "cache-5b9c8d7f4-h7w3k", VerdictIncomplete, StContainers, "cache", CStCreated, "no space left on device"},
		{func() (string, []byte) { return grepE("v1.36.3/11-volume-mount-failure.log") }, "web-volfail-7f6b8-d4n8q", VerdictIncomplete, StVolumes, "", "", `configmap "web-config-v3" not found`},
	} {
		name, data := tc.input()
		t.Run(name, func(t *testing.T) {
			for _, rows := range []bool{false, true} {
				b := NewBuilder(Options{})
				feedSpan(b, name, data)
				var fl *FlowList
				if rows {
					fl = b.FinishRows(nil)
				} else {
					fl = b.Finish()
				}
				f := onlyFlow(t, fl, tc.pod)
				if f.Verdict != tc.verdict || f.StalledAt != tc.stalledAt || f.Container != tc.c || f.ContainerStage != tc.cstage {
					t.Errorf("rows=%v: %s at %q %q/%q, want %s at %q %q/%q (%s)", rows, f.Verdict, f.StalledAt, f.Container, f.ContainerStage, tc.verdict, tc.stalledAt, tc.c, tc.cstage, f.Diagnosis)
				}
				if !strings.Contains(f.Reason, tc.reasonHas) {
					t.Errorf("rows=%v: reason %q lacks %q", rows, f.Reason, tc.reasonHas)
				}
			}
		})
	}
	// A happy pod's log has no error line about it: no pod at all, not a
	// Running one.
	if fl := buildBytes(t, "01.E", errorsOnly(t, filepath.Join(corpus, "v1.36.3/01-happy-path.log"))); len(fl.Items) != 0 {
		t.Errorf("errors-only happy path: %d flows, want none", len(fl.Items))
	}
}

// One back-off is one count, however many lines report it: in one sync
// the kubelet logs "Container start failed in pod" (V3, for
// ImagePullBackOff), "Error syncing pod" and the BackOff event.
func TestBackOffsCountOnce(t *testing.T) {
	for _, tc := range []struct {
		file, pod, c         string
		pullBackOffs, crashs int
	}{
		// Four BackOff "Back-off pulling image" events.
		{"v1.36.3/02-image-pull-failure.log", "api-6f5b9d7c4-pl8wz", "api", 4, 0},
		// Three BackOff "Back-off restarting failed container" events.
		{"v1.36.3/10-init-container-crashloop.log", "web-initfail-6d5c7-b8x4w", "init-config", 0, 3},
	} {
		f := onlyFlow(t, buildFile(t, filepath.Join(corpus, tc.file)), tc.pod)
		c := containerOf(f, tc.c)
		if c.PullBackOffs != tc.pullBackOffs || c.BackOffs != tc.crashs {
			t.Errorf("%s %s: %d pull back-offs, %d back-offs; want %d, %d", tc.file, tc.c, c.PullBackOffs, c.BackOffs, tc.pullBackOffs, tc.crashs)
		}
	}
}

// Time placed where it happened (issue #19, gap 8): at -v=0 the kubelet's
// "Observed pod startup duration" is the only proof the pod ran; it is
// written once the API watch saw the pod running
// (pod_startup_latency_tracker.go: watchObservedRunningTime), and carries
// the time the kubelet itself saw it running (observedRunningTime). The
// running stage is placed there, and podflow's end-to-end figure is the
// line's own podCreationTimestamp → watchObservedRunningTime.
func TestRunningAtObservedRunningTime(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/04-sandbox-failure.log"))
	if err != nil {
		t.Fatal(err)
	}
	var kept bytes.Buffer
	for _, line := range bytes.Split(data, []byte("\n")) {
		if len(line) > 0 && (line[0] == 'E' || bytes.Contains(line, []byte(`] "Observed pod startup duration"`))) {
			kept.Write(line)
			kept.WriteByte('\n')
		}
	}
	f := onlyFlow(t, buildBytes(t, "04.v0", kept.Bytes()), "payments-7b4d9c8f6-q9zrt")
	run := stageOf(f, StRunning)
	// observedRunningTime="2026-11-22 06:09:07.930868994 +0000 UTC"; the
	// line is written at 06:09:07.931125.
	want := time.Date(2026, 11, 22, 6, 9, 7, 930868994, time.UTC)
	if f.Verdict != VerdictRunning || run.Status != StatusDone || run.End == nil || !run.End.Equal(want) {
		t.Fatalf("%s, running %s ending %v; want Running, running done at %s", f.Verdict, run.Status, run.End, want)
	}
	if st := f.Startup; st == nil || st.PodflowE2E == nil || st.KubeletE2E == nil || *st.PodflowE2E != *st.KubeletE2E {
		t.Errorf("startup %+v: podflow's E2E should be the line's own 1m1.931118796s", st)
	}
}
