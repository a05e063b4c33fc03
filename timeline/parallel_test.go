package timeline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/tools/benchgen/gen"
)

// pipelineRun is what one pass of the commands' pipeline produces.
type pipelineRun struct {
	flows   string // the FlowList as JSON
	records int
	stats   string
}

// runPipeline reads paths the way cmd.Analyze does, with the given
// parser.Options.Workers and ChunkBytes.
func runPipeline(t testing.TB, paths []string, workers, chunk int) pipelineRun {
	t.Helper()
	srcs, errs := parser.Discover(paths, nil)
	if len(errs) > 0 || len(srcs) == 0 {
		t.Fatalf("discover %v: %v", paths, errs)
	}
	b := NewBuilder(Options{})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: 2026, Want: b.Want, Workers: workers, ChunkBytes: chunk})
	defer mr.Close()
	n := 0
	for {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		n++
		b.Add(rec)
	}
	for _, ss := range mr.SourceStats() {
		b.InputSpan(ss.Source.Name, ss.Stats.FirstTime, ss.Stats.LastTime)
	}
	fl := b.Finish()
	data, err := json.Marshal(fl)
	if err != nil {
		t.Fatal(err)
	}
	return pipelineRun{flows: string(data), records: n, stats: fmt.Sprintf("%+v %v", mr.Stats(), mr.Errors())}
}

// generatedLog writes a log of the bench generator (size 4 MiB: some 40
// pods replayed from the corpus).
func generatedLog(t testing.TB, size int64) string {
	t.Helper()
	c, err := gen.LoadCorpus(filepath.Join(corpus, "v1.36.3"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kubelet.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, err := gen.Generate(c, f, size, 1); err != nil {
		t.Fatal(err)
	}
	return path
}

// The parallel parser must not change what the engine concludes: the same
// FlowList, record count, stats and errors as the sequential path, on the
// real corpus (per version folder: many files merged) and on a generated
// log with many pods.
func TestParallelPipelineMatchesSequential(t *testing.T) {
	generated := generatedLog(t, 4<<20)
	inputs := [][]string{
		{filepath.Join(corpus, "v1.36.3")},
		{filepath.Join(corpus, "v1.33.13")},
		{filepath.Join(corpus, "v1.28.15")},
		{filepath.Join(corpus, "v1.36.3", "07-twenty-pods.log")},
		{generated},
	}
	for _, paths := range inputs {
		t.Run(filepath.Base(paths[0]), func(t *testing.T) {
			seq := runPipeline(t, paths, 1, 0)
			var fl FlowList
			if err := json.Unmarshal([]byte(seq.flows), &fl); err != nil || len(fl.Items) == 0 {
				t.Fatalf("sequential run found no flows (%v): the comparison would prove nothing", err)
			}
			for _, c := range []struct{ workers, chunk int }{{2, 16 << 10}, {3, 0}} {
				par := runPipeline(t, paths, c.workers, c.chunk)
				if par.records != seq.records {
					t.Errorf("workers=%d chunk=%d: %d records, sequential %d", c.workers, c.chunk, par.records, seq.records)
				}
				if par.stats != seq.stats {
					t.Errorf("workers=%d chunk=%d: stats\n got %s\nwant %s", c.workers, c.chunk, par.stats, seq.stats)
				}
				if par.flows != seq.flows {
					t.Errorf("workers=%d chunk=%d: FlowList differs from the sequential one (%d vs %d bytes of JSON)", c.workers, c.chunk, len(par.flows), len(seq.flows))
				}
			}
		})
	}
	// The generated log is analysable: its pods have real verdicts, some
	// of them not Running.
	var fl FlowList
	if err := json.Unmarshal([]byte(runPipeline(t, []string{generated}, 2, 0).flows), &fl); err != nil {
		t.Fatal(err)
	}
	verdicts := map[Verdict]int{}
	for _, it := range fl.Items {
		verdicts[it.Verdict]++
	}
	if len(fl.Items) < 30 || verdicts[VerdictRunning] == 0 || len(verdicts) < 3 {
		t.Errorf("generated log: %d flows, verdicts %v; want dozens of pods with several verdicts", len(fl.Items), verdicts)
	}
}

// BenchmarkEngine feeds parsed records of a generated log to the engine:
// records/s of Builder.Add plus Finish.
func BenchmarkEngine(b *testing.B) {
	path := generatedLog(b, 4<<20)
	recs := wantedRecords(path)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		bl := NewBuilder(Options{})
		for i := range recs {
			bl.Add(&recs[i])
		}
		bl.Finish()
	}
	b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// wantedRecords reads the records of path the engine wants, each a copy
// that outlives the reader, for benchmarks that time the engine alone.
func wantedRecords(path string) []parser.Record {
	srcs, _ := parser.Discover([]string{path}, nil)
	var recs []parser.Record
	wb := NewBuilder(Options{})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: 2026, Want: wb.Want})
	defer mr.Close()
	for {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		r := *rec
		r.Fields = append([]parser.Field(nil), rec.Fields...)
		recs = append(recs, r)
	}
	return recs
}
