package timeline

import (
	"bytes"
	"os"
	"testing"
	"time"
)

// HumanDuration is the one way people read a duration in every view:
// each unit's boundaries, and a figure that rounds up to the next unit
// printed in it, never as "60s" or "60m0s".
func TestHumanDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{350 * time.Microsecond, "350µs"},
		{999*time.Microsecond + 900*time.Nanosecond, "999µs"},
		{409682 * time.Microsecond, "409ms"},
		{1215 * time.Millisecond, "1.22s"},
		{9994 * time.Millisecond, "9.99s"},
		{19479576 * time.Microsecond, "19.5s"},
		{59940 * time.Millisecond, "59.9s"},
		{59970 * time.Millisecond, "1m0s"},
		{time.Minute + 33645598*time.Microsecond, "1m34s"},
		{time.Minute + 35821893*time.Microsecond, "1m36s"},
		{59*time.Minute + 59600*time.Millisecond, "1h0m"},
		{2*time.Hour + 3*time.Minute + 10*time.Second, "2h3m"},
		{47*time.Hour + 59*time.Minute + 40*time.Second, "2d0h"},
		{76 * time.Hour, "3d4h"},
		{-1500 * time.Millisecond, "-1.5s"},
	} {
		if got := HumanDuration(tc.d); got != tc.want {
			t.Errorf("HumanDuration(%s) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// The crash loop of the issue (#29), at the engine: the pod got to
// running and ready, then its container crash-loops to the log's end. Its
// stall is on running and the container's started, which are failed and
// run to the log's end, ready after them is pending, the last stage done
// is containers, its end is the log's, and its wait is running's time;
// FinishRows (get pods' rows) says the same as Finish.
func TestClockCrashLoop(t *testing.T) {
	fl := buildFile(t, corpus+"/v1.36.3/05-crashloop-backoff.log")
	if len(fl.Items) != 1 {
		t.Fatalf("%d pods, want 1", len(fl.Items))
	}
	f := &fl.Items[0]
	end := fl.Nodes[0].End
	if f.Verdict != VerdictFailed || f.StalledAt != StRunning || f.Container != "worker" || f.ContainerStage != CStStarted || f.Stage != StContainers {
		t.Errorf("%s at %s (stage %s), want Failed at running/worker:started after containers", f.Verdict, f.StageLabel(), f.Stage)
	}
	if !f.End.Equal(end) || f.Duration != Duration(f.End.Sub(f.Start)) || !f.UnderWay() {
		t.Errorf("start %s end %s duration %s under way %v, want the log's end %s", f.Start, f.End, f.Duration, f.UnderWay(), end)
	}
	var running, ready, started *Stage
	for i := range f.Stages {
		switch f.Stages[i].ID {
		case StRunning:
			running = &f.Stages[i]
		case StReady:
			ready = &f.Stages[i]
		}
	}
	for i := range f.Containers[0].Stages {
		if f.Containers[0].Stages[i].ID == CStStarted {
			started = &f.Containers[0].Stages[i]
		}
	}
	for _, st := range []*Stage{running, started} {
		if st == nil || st.Status != StatusFailed || st.End == nil || !st.End.Equal(end) || st.Duration != Duration(end.Sub(*st.Start)) {
			t.Errorf("stage %+v, want failed to the log's end", st)
		}
	}
	if ready == nil || ready.Status != StatusPending || ready.Start != nil {
		t.Errorf("ready %+v, want pending", ready)
	}
	if f.Waited != running.Duration || f.Waited != started.Duration {
		t.Errorf("waited %s, running ran %s, started %s", f.Waited, running.Duration, started.Duration)
	}

	data, err := os.ReadFile(corpus + "/v1.36.3/05-crashloop-backoff.log")
	if err != nil {
		t.Fatal(err)
	}
	b := NewBuilder(Options{})
	feedSpan(b, "05-crashloop-backoff.log", data)
	row := b.FinishRows(nil).Items[0]
	if row.Stage != f.Stage || !row.End.Equal(f.End) || row.Duration != f.Duration || row.Waited != f.Waited {
		t.Errorf("FinishRows: stage %s end %s duration %s waited %s; Finish: %s %s %s %s", row.Stage, row.End, row.Duration, row.Waited, f.Stage, f.End, f.Duration, f.Waited)
	}
}

// Following a log (Now): a stage under way runs to the present, not to
// the last line, so a stalled pull's timer moves while the log is quiet;
// a flow that ended keeps its end; a present before the last line changes
// nothing; Finish and FinishRows agree.
func TestClockNowWhileFollowing(t *testing.T) {
	raw, err := os.ReadFile(corpus + "/v1.36.3/03-slow-image-pull.log")
	if err != nil {
		t.Fatal(err)
	}
	// The first 1500 lines: the pull is under way when they end.
	cut := 0
	for i := 0; i < 1500; i++ {
		cut += bytes.IndexByte(raw[cut:], '\n') + 1
	}
	for _, tc := range []struct {
		name  string
		ahead time.Duration // the present after the last line
		rows  bool
	}{
		{"the last line's time", 0, false},
		{"before the last line", -time.Minute, false},
		{"quiet for 30s", 30 * time.Second, false},
		{"quiet for 30s, rows", 30 * time.Second, true},
		{"quiet for an hour", time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder(Options{})
			feedSpan(b, "cut.log", raw[:cut])
			before := b.Snapshot()
			last := before.Nodes[0].End
			b.Now(last.Add(tc.ahead))
			var after *FlowList
			if tc.rows {
				after = b.FinishRows(nil)
			} else {
				after = b.Finish()
			}
			moved := max(tc.ahead, 0)
			stalled := 0
			for i, f := range after.Items {
				was := before.Items[i]
				if f.UnderWay() {
					stalled++
					if !f.End.Equal(last.Add(moved)) || f.Duration != Duration(f.End.Sub(f.Start)) {
						t.Errorf("%s under way: end %s duration %s, want the present %s", f.Pod.Name, f.End, f.Duration, last.Add(moved))
					}
					if f.Waited != was.Waited+Duration(moved) && f.StalledAt == was.StalledAt {
						t.Errorf("%s: waited %s, was %s at the last line: want %s more", f.Pod.Name, f.Waited, was.Waited, moved)
					}
					continue
				}
				if !f.End.Equal(was.End) {
					t.Errorf("%s (%s, ended): end %s, was %s", f.Pod.Name, f.Verdict, f.End, was.End)
				}
			}
			if stalled == 0 {
				t.Fatalf("no flow under way in the first 1500 lines: %d flows", len(after.Items))
			}
		})
	}
}
