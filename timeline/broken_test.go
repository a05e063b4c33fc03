package timeline

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/podflow/podflow/parser"
)

// Broken captures through the parser and the engine, the way the commands
// read them (Discover, MultiReader with the engine's Want filter, input
// spans): verdicts must be those of the clean log.

type brokenRun struct {
	fl      *FlowList
	stats   parser.Stats
	sources []parser.SourceStats
	errs    []error
	notices []error
}

func buildBroken(t *testing.T, paths ...string) brokenRun {
	t.Helper()
	srcs, errs := parser.Discover(paths, nil)
	if len(errs) > 0 {
		t.Fatalf("discover: %v", errs)
	}
	b := NewBuilder(Options{})
	m := parser.NewMultiReader(srcs, parser.Options{Year: 2026, Want: b.Want, Rescue: b.Rescue()})
	defer m.Close()
	for {
		rec, err := m.Next()
		if err != nil {
			break
		}
		b.Add(rec)
	}
	ss := m.SourceStats()
	for _, s := range ss {
		b.InputSpan(s.Source.Name, s.Stats.FirstTime, s.Stats.LastTime)
	}
	return brokenRun{fl: b.Finish(), stats: m.Stats(), sources: ss, errs: m.Errors(), notices: m.Notices()}
}

func brokenCorpus(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(corpus, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func putFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// outcome is what a flow came to, without positions (which name the
// input) and without evidence text: what must not change when the capture
// is broken but its content is whole.
func outcome(fl *FlowList) []string {
	var out []string
	for _, f := range fl.Items {
		var b strings.Builder
		fmt.Fprintf(&b, "%s/%s %s stalledAt=%s %s/%s reason=%q", f.Pod.Key(), f.Pod.UID, f.Verdict, f.StalledAt, f.Container, f.ContainerStage, f.Reason)
		for _, s := range f.Stages {
			fmt.Fprintf(&b, " %s:%s:%d:%s", s.ID, s.Status, s.Attempts, time.Duration(s.Duration))
		}
		for _, c := range f.Containers {
			fmt.Fprintf(&b, " [%s restarts=%d backoffs=%d pullbackoffs=%d ids=%d", c.Name, c.Restarts, c.BackOffs, c.PullBackOffs, len(c.IDs))
			for _, s := range c.Stages {
				fmt.Fprintf(&b, " %s:%s:%d:%s", s.ID, s.Status, s.Attempts, time.Duration(s.Duration))
			}
			b.WriteString("]")
		}
		out = append(out, b.String())
	}
	return out
}

func findings(fl *FlowList, kind string) int {
	n := 0
	for _, f := range fl.Findings {
		if f.Kind == kind {
			n++
		}
	}
	return n
}

func sameOutcome(t *testing.T, got, want *FlowList) {
	t.Helper()
	g, w := outcome(got), outcome(want)
	if len(g) != len(w) {
		t.Fatalf("%d flows, want %d:\n%s\nwant\n%s", len(g), len(w), strings.Join(g, "\n"), strings.Join(w, "\n"))
	}
	for i := range w {
		if g[i] != w[i] {
			t.Errorf("flow %d:\n got %s\nwant %s", i, g[i], w[i])
		}
	}
}

func noNegativeStages(t *testing.T, fl *FlowList) {
	t.Helper()
	for _, f := range fl.Items {
		all := append([]Stage(nil), f.Stages...)
		for _, c := range f.Containers {
			all = append(all, c.Stages...)
		}
		for _, s := range all {
			if s.Duration < 0 || s.Start != nil && s.End != nil && s.End.Before(*s.Start) {
				t.Errorf("%s stage %s: %v -> %v (%s)", f.Pod.Key(), s.ID, s.Start, s.End, time.Duration(s.Duration))
			}
		}
	}
}

// splitAtRecords returns data cut into [0, a) and [b, end) at the record
// starts a and b of the way through (0..1): an older and a newer file that
// share the records between.
func splitAtRecords(t *testing.T, data []byte, a, b float64) ([]byte, []byte) {
	t.Helper()
	r := parser.NewReader(bytes.NewReader(data), parser.Options{Year: 2026})
	var offs []int64
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		offs = append(offs, rec.Pos.Offset)
	}
	ia, ib := offs[int(float64(len(offs))*a)], offs[int(float64(len(offs))*b)]
	return data[:ib], data[ia:]
}

func gz(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(data)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestBrokenOverlappingInputs: rotated files sharing a span, a file given
// twice, plain and compressed copies. Duplicated lines would double
// retries, back-offs and restarts, and a repeated "Starting kubelet"
// would be a kubelet restart: the verdicts must be the whole log's.
func TestBrokenOverlappingInputs(t *testing.T) {
	for _, rel := range []string{"v1.36.3/05-crashloop-backoff.log", "v1.36.3/04-sandbox-failure.log", "v1.36.3/07-twenty-pods.log", "v1.36.3/08-happy-path-json-v4.log"} {
		data := brokenCorpus(t, rel)
		whole := buildBroken(t, putFile(t, t.TempDir(), "kubelet.log", data))
		older, newer := splitAtRecords(t, data, 0.3, 0.7)
		tests := []struct {
			name  string
			files map[string][]byte
			args  []string // nil: the directory
		}{
			{"rotated overlap", map[string][]byte{"kubelet.log.1": older, "kubelet.log": newer}, nil},
			{"rotated overlap, gzipped", map[string][]byte{"kubelet.log.1.gz": gz(t, older), "kubelet.log": newer}, nil},
			{"same file twice", map[string][]byte{"kubelet.log": data}, []string{"kubelet.log", "kubelet.log"}},
			{"plain and gzip copy", map[string][]byte{"kubelet.log": data, "kubelet.log.gz": gz(t, data)}, nil},
		}
		for _, tt := range tests {
			t.Run(filepath.Base(rel)+"/"+tt.name, func(t *testing.T) {
				dir := t.TempDir()
				for n, d := range tt.files {
					putFile(t, dir, n, d)
				}
				args := []string{dir}
				if tt.args != nil {
					args = nil
					for _, a := range tt.args {
						args = append(args, filepath.Join(dir, a))
					}
				}
				got := buildBroken(t, args...)
				sameOutcome(t, got.fl, whole.fl)
				if n := findings(got.fl, "KubeletRestart"); n != findings(whole.fl, "KubeletRestart") {
					t.Errorf("%d kubelet restarts, the whole log has %d", n, findings(whole.fl, "KubeletRestart"))
				}
				var dups int64
				for _, s := range got.sources {
					dups += s.Duplicates
				}
				if dups == 0 || len(got.notices) == 0 || len(got.errs) != 0 || !got.stats.Accounted() {
					t.Errorf("%d duplicates, notices %v, errors %v, stats %+v", dups, got.notices, got.errs, got.stats)
				}
			})
		}
	}
}

// TestBrokenConcatenatedRuns: two kubelet runs in one file. The engine
// counts one restart and judges each run's pod as the run's own log does.
func TestBrokenConcatenatedRuns(t *testing.T) {
	first := brokenCorpus(t, "v1.36.3/01-happy-path.log")
	second := brokenCorpus(t, "v1.36.3/02-image-pull-failure.log")
	dir := t.TempDir()
	alone1 := buildBroken(t, putFile(t, dir, "a/kubelet.log", first))
	alone2 := buildBroken(t, putFile(t, dir, "b/kubelet.log", second))
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"in order", append(bytes.Clone(first), second...)},
		{"first run cut mid-line", append(bytes.Clone(first[:len(first)-40]), append([]byte("\n"), second...)...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := buildBroken(t, putFile(t, t.TempDir(), "kubelet.log", tt.data))
			web := onlyFlow(t, got.fl, "web-7d9f8c6b5-x2kqp")
			api := onlyFlow(t, got.fl, "api-6f5b9d7c4-pl8wz")
			if want := onlyFlow(t, alone1.fl, "web-7d9f8c6b5-x2kqp"); web.Verdict != want.Verdict || web.Verdict != VerdictRunning {
				t.Errorf("web: %s, alone %s", web.Verdict, want.Verdict)
			}
			if want := onlyFlow(t, alone2.fl, "api-6f5b9d7c4-pl8wz"); api.Verdict != want.Verdict || api.StalledAt != want.StalledAt || api.ContainerStage != want.ContainerStage {
				t.Errorf("api: %s at %s/%s, alone %s at %s/%s", api.Verdict, api.StalledAt, api.ContainerStage, want.Verdict, want.StalledAt, want.ContainerStage)
			}
			if n := findings(got.fl, "KubeletRestart"); n != 1 || len(got.fl.Nodes) != 1 || got.fl.Nodes[0].Restarts != 1 {
				t.Errorf("%d restart findings, nodes %+v", n, got.fl.Nodes)
			}
			if len(got.errs) != 0 || len(got.notices) != 0 {
				t.Errorf("errors %v, notices %v", got.errs, got.notices)
			}
		})
	}
}

// shiftKlog moves the klog header times of lines [from, end) by d.
func shiftKlog(t *testing.T, data []byte, from int, d time.Duration) []byte {
	t.Helper()
	lines := bytes.SplitAfter(data, []byte("\n"))
	for i := from; i < len(lines); i++ {
		l := lines[i]
		if len(l) < 21 || !bytes.ContainsAny(l[:1], "IWEF") || l[5] != ' ' || l[14] != '.' {
			continue
		}
		tm, err := time.Parse("0102 15:04:05.000000", string(l[1:21]))
		if err != nil {
			continue
		}
		c := bytes.Clone(l)
		copy(c[1:21], tm.Add(d).Format("0102 15:04:05.000000"))
		lines[i] = c
	}
	return bytes.Join(lines, nil)
}

// TestBrokenClockStep: the node's clock steps back mid-log (NTP, a DST
// change in a local-time log). Nothing is lost, the step is reported, the
// verdict stays, and no stage ends before it starts. The merge watches the
// records it returns, those the engine wants: the step is placed before
// one of them.
func TestBrokenClockStep(t *testing.T) {
	for _, tt := range []struct {
		rel, pod string
		verdict  Verdict
	}{
		{"v1.36.3/01-happy-path.log", "web-7d9f8c6b5-x2kqp", VerdictRunning},
		{"v1.36.3/05-crashloop-backoff.log", "worker-5d8f7b9c4-m2v6n", VerdictFailed},
	} {
		data := brokenCorpus(t, tt.rel)
		b := NewBuilder(Options{})
		r := parser.NewReader(bytes.NewReader(data), parser.Options{Year: 2026, Want: b.Want, Rescue: b.Rescue()})
		var wanted []int
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			wanted = append(wanted, int(rec.Pos.Line))
		}
		at := wanted[len(wanted)*2/3] // 1-based line of a wanted record
		for _, step := range []time.Duration{-5 * time.Second, -time.Hour} {
			t.Run(filepath.Base(tt.rel)+"/"+step.String(), func(t *testing.T) {
				whole := buildBroken(t, putFile(t, t.TempDir(), "kubelet.log", data))
				stepped := shiftKlog(t, data, at-1, step)
				got := buildBroken(t, putFile(t, t.TempDir(), "kubelet.log", stepped))
				if got.stats.Records != whole.stats.Records || got.stats.Lines != whole.stats.Lines {
					t.Errorf("records %d lines %d, want %d %d", got.stats.Records, got.stats.Lines, whole.stats.Records, whole.stats.Lines)
				}
				var nt *parser.Notice
				if len(got.notices) != 1 || !errors.As(got.notices[0], &nt) || nt.Kind != parser.NoticeBackwards ||
					!strings.Contains(nt.Error(), "first at line "+strconv.Itoa(at)) {
					t.Errorf("notices %v", got.notices)
				}
				f := onlyFlow(t, got.fl, tt.pod)
				if f.Verdict != tt.verdict {
					t.Errorf("verdict %s, want %s (%s)", f.Verdict, tt.verdict, f.Diagnosis)
				}
				noNegativeStages(t, got.fl)
			})
		}
	}
}

// TestBrokenLineEndings: CRLF, no final newline and a cut gzip stream.
func TestBrokenLineEndings(t *testing.T) {
	for _, rel := range []string{"v1.36.3/05-crashloop-backoff.log", "v1.36.3/11-volume-mount-failure.log", "v1.28.15/08-happy-path-json-v4.log"} {
		data := brokenCorpus(t, rel)
		whole := buildBroken(t, putFile(t, t.TempDir(), "kubelet.log", data))
		for _, tt := range []struct {
			name string
			data []byte
		}{
			{"CRLF", bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))},
			{"no final newline", bytes.TrimSuffix(data, []byte("\n"))},
		} {
			t.Run(filepath.Base(rel)+"/"+tt.name, func(t *testing.T) {
				got := buildBroken(t, putFile(t, t.TempDir(), "kubelet.log", tt.data))
				sameOutcome(t, got.fl, whole.fl)
				if got.stats.Records != whole.stats.Records || len(got.errs)+len(got.notices) != 0 {
					t.Errorf("records %d, want %d; errors %v notices %v", got.stats.Records, whole.stats.Records, got.errs, got.notices)
				}
			})
		}
		// A gzip stream cut short: the engine sees what could be read, as
		// it would from a plain file holding just that, and the cut is an
		// error naming the file.
		t.Run(filepath.Base(rel)+"/gzip cut short", func(t *testing.T) {
			z := gz(t, data)
			cut := z[:len(z)*3/4]
			zr, err := gzip.NewReader(bytes.NewReader(cut))
			if err != nil {
				t.Fatal(err)
			}
			var readable bytes.Buffer
			readable.ReadFrom(struct{ *gzip.Reader }{zr})
			dir := t.TempDir()
			path := putFile(t, dir, "kubelet.log.gz", cut)
			got := buildBroken(t, path)
			prefix := buildBroken(t, putFile(t, dir, "plain/kubelet.log", readable.Bytes()))
			sameOutcome(t, got.fl, prefix.fl)
			if len(got.errs) != 1 || !strings.HasPrefix(got.errs[0].Error(), path+":") || !strings.Contains(got.errs[0].Error(), "truncated or corrupt gzip") {
				t.Errorf("errors %v", got.errs)
			}
		})
	}
}

// FuzzBrokenSequence feeds the engine record sequences as broken captures
// leave them: times stepping backwards and records repeated (what the merge
// lets through when copies differ). The invariants of FuzzRecordSequence
// must hold.
func FuzzBrokenSequence(f *testing.F) {
	f.Add([]byte{0, 0, 0, 1, 20, 0, 0, 3, 30, 0, 1, 5, 40, 1, 2, 7}, []byte{3, 200, 1, 0})
	f.Add(bytes.Repeat([]byte{7, 17, 33, 2, 50, 1, 0, 9}, 40), []byte{10, 255, 20, 3, 5, 128})
	f.Fuzz(func(t *testing.T, data, damage []byte) {
		recs := recordsFrom(data)
		// Each damage pair: at record i, step the clock back by d seconds
		// (d < 128) or repeat the record (d >= 128).
		for k := 0; k+1 < len(damage) && len(recs) > 0; k += 2 {
			i, d := int(damage[k])%len(recs), damage[k+1]
			if d >= 128 {
				c := *recs[i]
				recs = append(recs[:i+1], append([]*parser.Record{&c}, recs[i+1:]...)...)
				continue
			}
			for _, r := range recs[i:] {
				r.Time = r.Time.Add(-time.Duration(d) * time.Second)
			}
		}
		fl, _ := Build(&sliceSource{recs: recs}, Options{})
		checkInvariants(t, fl)
		noNegativeStages(t, fl)
	})
}
