package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A crash loop that is over (issue #19, gap 3): the kubelet forgets a
// container's restart back-off once the container has run CrashLoopReset
// since its restart (client-go's flowcontrol hasExpired, kubelet.go's
// crash-loop back-off). Corpus 05's worker exits 1 three seconds after
// every start; its log ends two seconds after the fifth start (06:11:06.928,
// ID 7b43bf2e…), which is a crash loop going on, not a recovery. The
// recovering logs below are 05 up to its shutdown with the same kubelet's
// own later lines appended: the worker's periodic sync (lines 3399-3408 of
// 05: Processing pod event, SyncPod enter … exit, phase Running, nothing
// to start) and the housekeeping after it (3422-3431), then 05's shutdown
// lines (3440-3441). Their forms
// are the real ones; their times are synthetic, moved past the last start
// by the offsets each case gives.

const crashLog = "v1.36.3/05-crashloop-backoff.log"

// klogAt gives a klog text line the time at: its header's MMDD hh:mm:ss.uuuuuu.
func klogAt(line string, at time.Time) string {
	return line[:1] + at.Format("0102 15:04:05.000000") + line[21:]
}

// extendedCrashLog is 05 with the worker's sync and housekeeping repeated
// at each offset after the last start, then 05's shutdown lines after the
// last, each block's lines a millisecond apart; extra lines (whole klog
// lines) go in before the shutdown, a second after the last block, and a
// second apart.
func extendedCrashLog(t *testing.T, offsets []time.Duration, extra ...string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(corpus, crashLog))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if !strings.Contains(lines[3396], `"Type":"ContainerStarted","Data":"7b43bf2e`) || !strings.Contains(lines[3439], "Stopping reflector") {
		t.Fatal("05's last start or shutdown is not where the test looks")
	}
	lastStart := time.Date(2026, 11, 22, 6, 11, 6, 928375000, time.UTC)
	var out strings.Builder
	for _, l := range lines[:3439] {
		out.WriteString(l)
	}
	block := append(append([]string{}, lines[3398:3408]...), lines[3421:3431]...)
	var at time.Time
	for _, off := range offsets {
		at = lastStart.Add(off)
		for _, l := range block {
			at = at.Add(time.Millisecond)
			out.WriteString(klogAt(l, at))
		}
	}
	for _, l := range extra {
		at = at.Add(time.Second)
		out.WriteString(klogAt(l, at))
	}
	for _, l := range lines[3439:] {
		if at = at.Add(time.Millisecond); len(l) > 21 {
			l = klogAt(l, at)
		}
		out.WriteString(l)
	}
	return []byte(out.String())
}

// judgeBoth builds data judged in full and for rows (get pods): both must
// say the same.
func judgeBoth(t *testing.T, data []byte) (full, row Flow) {
	t.Helper()
	full = onlyFlow(t, buildBytes(t, "05-extended.log", data), "worker-5d8f7b9c4-m2v6n")
	b := NewBuilder(Options{})
	feedSpan(b, "05-extended.log", data)
	row = onlyFlow(t, b.FinishRows(nil), "worker-5d8f7b9c4-m2v6n")
	return full, row
}

func TestCrashLoopOverAfterResetPeriod(t *testing.T) {
	// Synced every five minutes past the last start: the log runs on 10m30s
	// after it, with nothing of the worker failing.
	data := extendedCrashLog(t, []time.Duration{5 * time.Minute, 10*time.Minute + 30*time.Second})
	full, row := judgeBoth(t, data)
	for _, f := range []Flow{full, row} {
		if f.Verdict != VerdictRunning || f.StalledAt != "" {
			t.Fatalf("%s at %q (%s); want Running: the worker ran %v since its last start", f.Verdict, f.StalledAt, f.Reason, CrashLoopReset)
		}
		if f.Container != "worker" || f.ContainerStage != CStStarted {
			t.Errorf("names %s:%s, want worker:started", f.Container, f.ContainerStage)
		}
		if !strings.HasPrefix(f.Reason, "Running after 4 restarts of container worker: ") || !strings.Contains(f.Reason, "Back-off restarting failed container worker") || !strings.Contains(f.Reason, "(last exit code 1)") {
			t.Errorf("reason %q", f.Reason)
		}
		if !f.Recovered() {
			t.Error("not Recovered()")
		}
	}
	// Five IDs, one a start: four restarts (the kubelet's patch before the
	// fifth start says restartCount 3), three back-offs (10s, 20s, 40s).
	c := containerOf(full, "worker")
	if c.Restarts != 4 || len(c.IDs) != 5 || c.BackOffs != 3 {
		t.Errorf("worker: %d restarts, %d IDs, %d back-offs; want 4, 5, 3", c.Restarts, len(c.IDs), c.BackOffs)
	}
	if r := containerOf(row, "worker").Restarts; r != 4 {
		t.Errorf("row: %d restarts, want 4", r)
	}
	var tr *Trouble
	for i := range full.Trouble {
		if full.Trouble[i].Container == "worker" && full.Trouble[i].Stage == CStStarted {
			tr = &full.Trouble[i]
		}
	}
	if tr == nil || !tr.Recovered || tr.BackOffs != 3 {
		t.Errorf("trouble %+v; want the worker's start, recovered, 3 back-offs", full.Trouble)
	}
	if !strings.Contains(full.Diagnosis, "Running") || !strings.Contains(full.Diagnosis, "worker") {
		t.Errorf("diagnosis %q", full.Diagnosis)
	}
}

func TestCrashLoopNotOverBeforeResetPeriod(t *testing.T) {
	cases := []struct {
		name    string
		offsets []time.Duration
		extra   []string
	}{
		// 05 as it is: the log ends two seconds after the last start.
		{name: "05 itself"},
		// Nine minutes of the worker running: not yet the kubelet's ten.
		{name: "9m after the last start", offsets: []time.Duration{5 * time.Minute, 9 * time.Minute}},
		// Ten minutes and more, but its liveness probe failed meanwhile
		// (prober.go's "Probe failed", its form as in the wild's
		// vijayrod-demo-liveness-aks.log).
		{name: "a liveness failure since", offsets: []time.Duration{5 * time.Minute, 10*time.Minute + 30*time.Second},
			extra: []string{`I1122 00:00:00.000000   29281 prober.go:107] "Probe failed" probeType="Liveness" pod="default/worker-5d8f7b9c4-m2v6n" podUID="5c18c6f7-a0eb-41a1-8101-c7db6cf1e29f" containerName="worker" probeResult="failure" output="connection refused"` + "\n"}},
		// Ten minutes and more, then it exits: PLEG's ContainerDied for the
		// last ID, the form of 05's line 2255.
		{name: "an exit since", offsets: []time.Duration{5 * time.Minute, 10*time.Minute + 30*time.Second},
			extra: []string{`I1122 00:00:00.000000   29281 kubelet.go:2737] "SyncLoop (PLEG): event for pod" pod="default/worker-5d8f7b9c4-m2v6n" event={"ID":"5c18c6f7-a0eb-41a1-8101-c7db6cf1e29f","Type":"ContainerDied","Data":"7b43bf2e581a3bbab82525fa17d3f3440afa91410fb9e641cd1699bd17cbf31b"}` + "\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			if tc.offsets == nil {
				var err error
				if data, err = os.ReadFile(filepath.Join(corpus, crashLog)); err != nil {
					t.Fatal(err)
				}
			} else {
				data = extendedCrashLog(t, tc.offsets, tc.extra...)
			}
			full, row := judgeBoth(t, data)
			for _, f := range []Flow{full, row} {
				if f.Verdict != VerdictFailed || f.StalledAt != StRunning || f.Container != "worker" || f.ContainerStage != CStStarted {
					t.Errorf("%s at %s/%s:%s (%s); want Failed at running/worker:started", f.Verdict, f.StalledAt, f.Container, f.ContainerStage, f.Reason)
				}
			}
			// The loop goes on: its trouble is not one the pod got past,
			// though the worker's start completed before each exit.
			for _, tr := range full.Trouble {
				if tr.Container == "worker" && tr.Stage == CStStarted && tr.Recovered {
					t.Errorf("trouble %+v marked recovered in a crash loop that goes on", tr)
				}
			}
			if tc.name == "a liveness failure since" && !strings.Contains(full.Reason, "Liveness probe failed: connection refused") {
				t.Errorf("reason %q: want the probe's type and output", full.Reason)
			}
		})
	}
}
