package parser_test

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
	"github.com/podflow/podflow/tools/benchgen/gen"
)

// BenchmarkParseGenerated parses a generated 32 MiB kubelet log (about
// 300 pods replayed from the corpus) with the engine's Want filter, the
// way podflow reads its inputs: sequentially and on all cores, and on all
// cores with borrowed records.
func BenchmarkParseGenerated(b *testing.B) {
	c, err := gen.LoadCorpus("../testdata/corpus/v1.36.3")
	if err != nil {
		b.Fatal(err)
	}
	var buf bytes.Buffer
	if _, _, err := gen.Generate(c, &buf, 32<<20, 1); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	lines := bytes.Count(data, []byte("\n"))
	want := timeline.NewBuilder(timeline.Options{}).Want
	for _, c := range []struct {
		workers int
		borrow  bool
	}{{1, false}, {runtime.GOMAXPROCS(0), false}, {runtime.GOMAXPROCS(0), true}} {
		name := fmt.Sprintf("workers=%d", c.workers)
		if c.borrow {
			name += "/borrow"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				rd := parser.NewReader(bytes.NewReader(data), parser.Options{Year: 2026, Want: want, Workers: c.workers, Borrow: c.borrow})
				for {
					if _, err := rd.Next(); err != nil {
						break
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(lines), "ns/line")
		})
	}
}
