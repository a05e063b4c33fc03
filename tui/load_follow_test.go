package tui

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
	"github.com/podflow/podflow/tools/benchgen/gen"
)

// waitSnapshot drains the loader until ok accepts a snapshot; it fails
// the test after a generous deadline (a liveness check, not a timing one).
func waitSnapshot(t *testing.T, l *loader, what string, ok func(snapshotMsg) bool) snapshotMsg {
	t.Helper()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case m := <-l.ch:
			s, isSnap := m.(snapshotMsg)
			if !isSnap {
				continue
			}
			if s.err != nil {
				t.Fatalf("%s: load error %v", what, s.err)
			}
			if ok(s) {
				return s
			}
		case <-deadline:
			t.Fatalf("%s: no such snapshot", what)
		}
	}
}

// oneShot builds the flows of data in one pass, as a load without follow.
func oneShot(t *testing.T, name string, data []byte) (string, int64) {
	t.Helper()
	b := timeline.NewBuilder(timeline.Options{})
	rd := parser.NewReader(bytes.NewReader(data), parser.Options{Name: name, Year: 2026, Want: b.Want, Rescue: b.Rescue()})
	var n int64
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		n++
		b.Add(rec)
	}
	out, err := json.Marshal(b.Finish())
	if err != nil {
		t.Fatal(err)
	}
	return string(out), n
}

// Following a growing file reads on from where the load stopped: after
// the file grew, the records and flows are those of one pass over the
// whole file, so nothing was read twice or skipped, and positions are
// those of the whole file.
func TestFollowReadsOnWhereItStopped(t *testing.T) {
	raw, err := os.ReadFile(corpus + "06-pod-deletion-api.log")
	if err != nil {
		t.Fatal(err)
	}
	// The first part ends before the pod is deleted; a line the engine
	// does not want ends the growth, so that the last record is complete.
	cut := bytes.Index(raw, []byte(`"SyncLoop DELETE"`))
	cut = bytes.LastIndexByte(raw[:cut], '\n') + 1
	grown := append(append([]byte(nil), raw...), []byte("I1122 06:12:07.000000   21321 kubelet.go:1] \"line after the growth\"\n")...)
	path := filepath.Join(t.TempDir(), "kubelet.log")
	if err := os.WriteFile(path, grown[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	_, firstRecords := oneShot(t, path, grown[:cut])
	wantFlows, wantRecords := oneShot(t, path, grown)

	l := newLoader(LoadOptions{Paths: []string{path}, Year: 2026, Follow: true, Every: 20 * time.Millisecond})
	go l.run()
	defer l.Close()
	first := waitSnapshot(t, l, "first pass", func(s snapshotMsg) bool { return s.done })
	if first.records != firstRecords {
		t.Fatalf("first pass: %d records, want %d", first.records, firstRecords)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Written in two pieces, the first ending inside a line.
	rest := grown[cut:]
	f.Write(rest[:len(rest)/2+7])
	time.Sleep(50 * time.Millisecond)
	f.Write(rest[len(rest)/2+7:])
	f.Close()
	last := waitSnapshot(t, l, "after growth", func(s snapshotMsg) bool { return s.records >= wantRecords })
	// The reader that reads on is a new one: the fallback's rescue rule
	// (parser.Rescue) decodes the first line of each pod identity it
	// meets, so a pod's name and UID may each be decoded once more than in
	// one pass, changing no flow (compared below); nothing more may differ.
	if again := last.records - wantRecords; again < 0 || again > int64(2*len(last.flows.Items)) {
		t.Errorf("after growth: %d records, one pass over the grown file has %d", last.records, wantRecords)
	}
	got, err := json.Marshal(last.flows)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != wantFlows {
		t.Errorf("flows after following differ from one pass over the grown file")
	}
	var deleted bool
	for _, it := range last.flows.Items {
		deleted = deleted || it.Verdict == timeline.VerdictTerminated
	}
	if !deleted {
		t.Errorf("the deletion written after the first pass is not in the flows")
	}
}

// `journalctl -fu kubelet | podflow tui -f -`: records of standard input
// reach the view while the pipe is still open.
func TestFollowStdinIsLive(t *testing.T) {
	raw, err := os.ReadFile(corpus + "01-happy-path.log")
	if err != nil {
		t.Fatal(err)
	}
	pr, pw := io.Pipe()
	defer pw.Close()
	l := newLoader(LoadOptions{Paths: []string{"-"}, Stdin: pr, Year: 2026, Follow: true, Every: 20 * time.Millisecond})
	go l.run()
	defer l.Close()
	go pw.Write(raw) // and keep the pipe open
	s := waitSnapshot(t, l, "stdin", func(s snapshotMsg) bool { return s.flows != nil && len(s.flows.Items) > 0 })
	if s.flows.Items[0].Pod.Name == "" {
		t.Errorf("a pod without a name: %+v", s.flows.Items[0].Pod)
	}
}

// `… | podflow tui -f -` written to slowly: every record shows while the
// pipe is quiet, the last one not held back until the next line begins
// (parser.Options.StreamIdle), and the clock of the stalled pull runs on
// while nothing comes, as for a followed file. Records are counted against
// one pass over the same lines: the first 1500 lines' count is reached
// only when their last record is out.
func TestFollowStdinShowsEachLineAtOnce(t *testing.T) {
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	cut := lineCut(raw, 1500)
	_, n := oneShot(t, "-", raw[:cut])
	pr, pw := io.Pipe()
	defer pw.Close()
	l := newLoader(LoadOptions{Paths: []string{"-"}, Stdin: pr, Year: 2026, Follow: true, Every: 50 * time.Millisecond})
	go l.run()
	defer l.Close()
	go pw.Write(raw[:cut])
	waited := func(s snapshotMsg) timeline.Duration {
		for _, f := range s.flows.Items {
			if f.Pod.Name == "web-slowpull-58c9d-7hxkq" {
				return f.Waited
			}
		}
		return -1
	}
	first := waitSnapshot(t, l, "the first 1500 lines", func(s snapshotMsg) bool { return s.records == n })
	if w := waited(first); w <= 0 {
		t.Fatalf("the pod did not stall in the first 1500 lines: waited %s", w)
	} else {
		waitSnapshot(t, l, "a quiet second", func(s snapshotMsg) bool { return waited(s) >= w+timeline.Duration(time.Second) })
	}
	pulled := raw[lineCut(raw, 1648):lineCut(raw, 1649)]
	if !bytes.Contains(pulled, []byte(`reason="Pulled"`)) {
		t.Fatalf("line 1649 is not the pull's end: %s", pulled)
	}
	go pw.Write(pulled) // one line, and the pipe stays open
	s := waitSnapshot(t, l, "the line written", func(s snapshotMsg) bool { return s.records > n })
	if s.records != n+1 {
		t.Errorf("%d records after one line, want %d", s.records, n+1)
	}
	var ev bool
	for _, f := range s.flows.Items {
		for _, e := range f.Events {
			ev = ev || e.Reason == "Pulled" && strings.Contains(e.Message, "nginx")
		}
	}
	if !ev {
		t.Errorf("the Pulled event of the line written is not in the flows")
	}
}

// BenchmarkTUIFirstPods measures how long the TUI's loader takes to send
// the first snapshot with pods in it, on $PODFLOW_BENCH_LOG (make bench
// passes the 1 GiB file) or on a generated 64 MiB log.
func BenchmarkTUIFirstPods(b *testing.B) {
	path := os.Getenv("PODFLOW_BENCH_LOG")
	if path == "" {
		c, err := gen.LoadCorpus("../testdata/corpus/v1.36.3")
		if err != nil {
			b.Fatal(err)
		}
		path = filepath.Join(b.TempDir(), "kubelet.log")
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := gen.Generate(c, f, 64<<20, 1); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		l := newLoader(LoadOptions{Paths: []string{path}, Year: 2026})
		go l.run()
		for {
			m := (<-l.ch).(snapshotMsg)
			if m.err != nil {
				b.Fatal(m.err)
			}
			if m.flows != nil && len(m.flows.Items) > 0 {
				break
			}
		}
		total += time.Since(start)
		l.Close()
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/first-pods")
}

// lineCut returns the offset after the first n lines of raw.
func lineCut(raw []byte, n int) int {
	off := 0
	for i := 0; i < n; i++ {
		k := bytes.IndexByte(raw[off:], '\n')
		if k < 0 {
			return len(raw)
		}
		off += k + 1
	}
	return off
}

// appendFile appends b to the file at path.
func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// slowPull is the slow image pull of the corpus: its first 1500 lines end
// while the nginx image is being pulled (the pod stalled there), line
// 1649 says the pull completed.
const slowPull = corpus + "03-slow-image-pull.log"

// One line appended to a quiet log shows at once: the parser does not
// wait for the next line (which would end the record) nor for 64 KiB (the
// year pre-scan), and a snapshot goes as soon as the file has given it.
func TestFollowShowsOneLineAppended(t *testing.T) {
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	cut := lineCut(raw, 1500)
	path := filepath.Join(t.TempDir(), "kubelet.log")
	if err := os.WriteFile(path, raw[:cut], 0o644); err != nil {
		t.Fatal(err)
	}
	l := newLoader(LoadOptions{Paths: []string{path}, Year: 2026, Follow: true})
	go l.run()
	defer l.Close()
	first := waitSnapshot(t, l, "first pass", func(s snapshotMsg) bool { return s.done })
	pulled := raw[lineCut(raw, 1648):lineCut(raw, 1649)]
	if !bytes.Contains(pulled, []byte(`reason="Pulled"`)) {
		t.Fatalf("line 1649 is not the pull's end: %s", pulled)
	}
	// One line, 400 bytes, and nothing after it.
	start := time.Now()
	appendFile(t, path, pulled)
	s := waitSnapshot(t, l, "the line appended", func(s snapshotMsg) bool { return s.records > first.records })
	t.Logf("one line appended showed after %s", time.Since(start))
	if s.records != first.records+1 {
		t.Errorf("%d records after one line, want %d", s.records, first.records+1)
	}
	var ev bool
	for _, f := range s.flows.Items {
		for _, e := range f.Events {
			ev = ev || e.Reason == "Pulled" && strings.Contains(e.Message, "nginx")
		}
	}
	if !ev {
		t.Errorf("the Pulled event of the line appended is not in the flows")
	}
}

// While the log is quiet, the clock of a stage under way runs on: the
// stalled pull's wait grows with no line written.
func TestFollowStalledClockMoves(t *testing.T) {
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubelet.log")
	if err := os.WriteFile(path, raw[:lineCut(raw, 1500)], 0o644); err != nil {
		t.Fatal(err)
	}
	l := newLoader(LoadOptions{Paths: []string{path}, Year: 2026, Follow: true, Every: 50 * time.Millisecond})
	go l.run()
	defer l.Close()
	waited := func(s snapshotMsg) timeline.Duration {
		for _, f := range s.flows.Items {
			if f.Pod.Name == "web-slowpull-58c9d-7hxkq" {
				return f.Waited
			}
		}
		return -1
	}
	first := waitSnapshot(t, l, "first pass", func(s snapshotMsg) bool { return s.done })
	w0 := waited(first)
	if w0 <= 0 {
		t.Fatalf("the pod did not stall in the first 1500 lines: waited %s", w0)
	}
	later := waitSnapshot(t, l, "a second later", func(s snapshotMsg) bool { return waited(s) >= w0+timeline.Duration(time.Second) })
	for _, f := range later.flows.Items {
		if f.Pod.Name == "web-slowpull-58c9d-7hxkq" && (!f.UnderWay() || !f.End.After(first.flows.Summary.End)) {
			t.Errorf("%s %s, end %s: want it under way, its end past the last line (%s)", f.Pod.Name, f.Verdict, f.End, first.flows.Summary.End)
		}
	}
}

// -f follows as tail -F: a log renamed and created again (rotated) or
// cut to nothing and written on (copy-truncated) is read from its new
// start, the status says so, and what it says continues the same flows,
// as the files read together do: the pod is one pod, not a copy #2, with
// the verdict of one pass over the whole log.
func TestFollowRotatedAndTruncated(t *testing.T) {
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	c1, c2 := lineCut(raw, 1500), lineCut(raw, 1700)
	dir := t.TempDir()
	path := filepath.Join(dir, "kubelet.log")
	if err := os.WriteFile(path, raw[:c1], 0o644); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "whole.log")
	if err := os.WriteFile(whole, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	oneLd := newLoader(LoadOptions{Paths: []string{whole}, Year: 2026})
	go oneLd.run()
	one := waitSnapshot(t, oneLd, "one pass", func(s snapshotMsg) bool { return s.done })
	oneLd.Close()
	want := map[string]timeline.Verdict{}
	for _, f := range one.flows.Items {
		want[f.Pod.Key()] = f.Verdict
	}

	m := New(Options{Load: LoadOptions{Paths: []string{path}, Year: 2026, Follow: true, Every: 20 * time.Millisecond}})
	go m.ld.run()
	defer m.ld.Close()
	var tm tea.Model = m
	tm, _ = tm.Update(tea.WindowSizeMsg{Width: 160, Height: 40})
	until := func(what string, ok func(Model) bool) Model {
		t.Helper()
		deadline := time.After(20 * time.Second)
		for {
			select {
			case msg := <-m.ld.ch:
				tm, _ = tm.Update(msg)
				if ok(tm.(Model)) {
					return tm.(Model)
				}
			case <-deadline:
				t.Fatalf("%s: never came:\n%s", what, screen(tm.(Model)))
			}
		}
	}
	has := func(ss ...string) func(Model) bool {
		return func(m Model) bool {
			s := screen(m)
			for _, x := range ss {
				if !strings.Contains(s, x) {
					return false
				}
			}
			return true
		}
	}
	until("the first pass", has("web-slowpull-58c9d-7hxkq", "following…"))

	// Rotated: renamed, and a new file at the path with what follows.
	if err := os.Rename(path, path+".1"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw[c1:c2], 0o644); err != nil {
		t.Fatal(err)
	}
	until("the rotated file read", has("kubelet.log was rotated: reading it from its new start"))

	// Copy-truncated: cut to nothing, then written on.
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	// As logrotate's copytruncate: the writer goes on after the cut. The
	// follower polls; a cut written past the old size before a poll sees
	// it is growth to any follower (tail -F too), so the test lets the
	// cut be seen first, however slow the machine.
	until("the truncation seen", has("kubelet.log was truncated: reading it from its new start"))
	appendFile(t, path, raw[c2:])
	last := until("the truncated file read on", func(m Model) bool {
		return has("kubelet.log was truncated: reading it from its new start")(m) && verdictsAre(m.all, want)
	})
	if s := screen(last); strings.Contains(s, "#2") {
		t.Errorf("a pod shown twice after the rotation:\n%s", s)
	}
	if len(last.all.Items) != len(one.flows.Items) {
		t.Errorf("%d flows followed, one pass over the whole log has %d", len(last.all.Items), len(one.flows.Items))
	}
}

// verdictsAre reports whether fl has exactly the pods of want, one flow
// each, with those verdicts.
func verdictsAre(fl *timeline.FlowList, want map[string]timeline.Verdict) bool {
	if len(fl.Items) != len(want) {
		return false
	}
	for _, f := range fl.Items {
		if v, ok := want[f.Pod.Key()]; !ok || v != f.Verdict || f.Incarnation > 1 {
			return false
		}
	}
	return true
}

// A log written again from its start (a dump made anew: journalctl -u
// kubelet > kubelet.log run again) holds what was read already: it is not
// read twice (no copy #2, no record counted twice), a note says how much
// was skipped, and what the new dump adds after it is read.
func TestFollowRewrittenLogIsNotReadTwice(t *testing.T) {
	raw, err := os.ReadFile(slowPull)
	if err != nil {
		t.Fatal(err)
	}
	c1 := lineCut(raw, 1500)
	path := filepath.Join(t.TempDir(), "kubelet.log")
	if err := os.WriteFile(path, raw[:c1], 0o644); err != nil {
		t.Fatal(err)
	}
	_, wantRecords := oneShot(t, path, raw)
	l := newLoader(LoadOptions{Paths: []string{path}, Year: 2026, Follow: true, Every: 20 * time.Millisecond})
	go l.run()
	defer l.Close()
	waitSnapshot(t, l, "first pass", func(s snapshotMsg) bool { return s.done })
	// The new dump, from the start: shorter than what was read at first,
	// as a file being written is (a file cut and written past where it was
	// read between two looks cannot be told from one that grew, by tail -F
	// either).
	if err := os.Truncate(path, 0); err != nil {
		t.Fatal(err)
	}
	c0 := lineCut(raw, 700)
	appendFile(t, path, raw[:c0])
	waitSnapshot(t, l, "the cut noticed", func(s snapshotMsg) bool {
		for _, n := range s.notes {
			if strings.Contains(n.Error(), "was truncated") {
				return true
			}
		}
		return false
	})
	appendFile(t, path, raw[c0:])
	s := waitSnapshot(t, l, "the new dump read", func(s snapshotMsg) bool {
		for _, n := range s.notes {
			if strings.Contains(n.Error(), "were skipped (the log written again)") {
				return s.records >= wantRecords-1
			}
		}
		return false
	})
	if len(s.flows.Items) != 1 || s.flows.Items[0].Incarnation > 1 {
		t.Errorf("%d flows (incarnation %d), want the one pod once", len(s.flows.Items), s.flows.Items[0].Incarnation)
	}
	// The rescue rule may decode a pod's first identity line once more in
	// a new reader (see TestFollowReadsOnWhereItStopped); nothing more.
	if extra := s.records - wantRecords; extra < -1 || extra > 2 {
		t.Errorf("%d records, one pass over the whole log has %d", s.records, wantRecords)
	}
}
