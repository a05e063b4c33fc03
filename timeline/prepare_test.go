package timeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/podflow/podflow/parser"
)

// The status patches Prepare decodes on the parser's goroutines give the
// flows the engine gives decoding them itself, on every corpus log read
// as the commands read it (records borrowed, patches kept as written):
// the same list read sequentially, and the same flows read on three
// goroutines in small chunks (where the rescue, remembering the pods it
// met per goroutine, may decode a record more, which changes no flow).
func TestPrepareGivesTheSameFlows(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	if err != nil || len(paths) < 20 {
		t.Fatalf("corpus: %d files, %v", len(paths), err)
	}
	prepared := 0
	build := func(name string, data []byte, prepare bool, workers int) []byte {
		b := NewBuilder(Options{})
		o := parser.Options{Name: name, Year: 2026, Want: b.Want, Rescue: b.Rescue(), Quoted: b.QuotedFields(), Borrow: true, Workers: workers, ChunkBytes: 16 << 10}
		if prepare {
			o.Prepare = b.Prepare
		}
		r := parser.NewReader(bytes.NewReader(data), o)
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			if rec.Prepared != nil {
				prepared++
			}
			b.Add(rec)
		}
		st := r.Stats()
		b.InputSpan("", st.FirstTime, st.LastTime)
		fl := b.Finish()
		v := any(fl)
		if workers > 1 {
			v = fl.Items
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		if got, want := build(name, data, true, 1), build(name, data, false, 1); !bytes.Equal(got, want) {
			t.Errorf("%s: the flows differ with Prepare", path)
		}
		var all FlowList
		if err := json.Unmarshal(build(name, data, false, 1), &all); err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(all.Items)
		if err != nil {
			t.Fatal(err)
		}
		if got := build(name, data, true, 3); !bytes.Equal(got, want) {
			t.Errorf("%s: the flows differ with Prepare on three goroutines", path)
		}
	}
	if prepared < 100 {
		t.Fatalf("%d records prepared in the corpus: the test proves nothing", prepared)
	}
}
