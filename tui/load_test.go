package tui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// TestSnapshotLeavesBuilderIntact checks what the progressive load relies
// on: judging the flows mid-stream does not change the final result.
func TestSnapshotLeavesBuilderIntact(t *testing.T) {
	files, _ := filepath.Glob(corpus + "*.log")
	for _, f := range files {
		build := func(every int) []byte {
			srcs, _ := parser.Discover([]string{f}, os.Stdin)
			b := timeline.NewBuilder(timeline.Options{})
			mr := parser.NewMultiReader(srcs, parser.Options{Want: b.Want})
			defer mr.Close()
			for n := 1; ; n++ {
				rec, err := mr.Next()
				if err != nil {
					break
				}
				b.Add(rec)
				if every > 0 && n%every == 0 {
					b.Snapshot()
				}
			}
			out, _ := json.Marshal(b.Finish())
			return out
		}
		if clean, snapped := build(0), build(7); string(clean) != string(snapped) {
			t.Errorf("%s: snapshots changed the result", filepath.Base(f))
		}
	}
}
