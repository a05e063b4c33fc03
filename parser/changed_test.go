package parser

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeLog writes n klog lines to path and returns their bytes.
func writeLog(t *testing.T, path string, n int) int64 {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "I1122 06:%02d:%02d.%06d 1 a.go:1] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/p-%d\"]\n", i/60000%60, i/1000%60, i%1000*1000, i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return int64(b.Len())
}

// TestChangedWhileRead: a file truncated while it is read (the test reads
// it slowly: a record, then the truncation, then the rest), or replaced by
// another file under its path, ends its read with a *ChangedError, which
// MultiReader reports with the records read before it; it ended quietly,
// as if the file had held only what was read (and the commands exited 0).
// A file that grows while it is read, as a live log does, is no change.
func TestChangedWhileRead(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		change func(path string) error
		want   string // "" for no error
	}{
		{"truncated", func(path string) error { return os.Truncate(path, 100<<10) }, "truncated"},
		{"emptied", func(path string) error { return os.Truncate(path, 0) }, "truncated"},
		{"replaced", func(path string) error {
			other := path + ".new"
			writeLog(t, other, 10)
			return os.Rename(other, path)
		}, "replaced"},
		{"grown", func(path string) error {
			f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			_, err = f.WriteString(`I1122 07:00:00.000000 1 a.go:1] "SyncLoop ADD" source="api" pods=["ns/late"]` + "\n")
			return err
		}, ""},
	} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", tc.name, workers), func(t *testing.T) {
				path := filepath.Join(dir, fmt.Sprintf("%s-%d.log", tc.name, workers))
				writeLog(t, path, 40000) // 3.6 MiB: read sequentially, a buffer at a time
				srcs, errs := Discover([]string{path}, nil)
				if len(errs) > 0 {
					t.Fatal(errs)
				}
				m := NewMultiReader(srcs, Options{Year: 2026, Workers: workers})
				defer m.Close()
				if _, err := m.Next(); err != nil {
					t.Fatal(err)
				}
				if err := tc.change(path); err != nil {
					t.Fatal(err)
				}
				n := 1
				for {
					if _, err := m.Next(); err != nil {
						if !errors.Is(err, io.EOF) {
							t.Fatal(err)
						}
						break
					}
					n++
				}
				got := m.Errors()
				if tc.want == "" {
					if len(got) > 0 || n != 40001 {
						t.Fatalf("%d records, errors %v", n, got)
					}
					return
				}
				if len(got) != 1 || !errors.Is(got[0], ErrChanged) || !strings.Contains(got[0].Error(), tc.want) {
					t.Fatalf("%d records, errors %v; want one saying %s", n, got, tc.want)
				}
				// (A file replaced is read to its end: its own records are
				// all there.)
				if tc.name == "replaced" && n != 40000 || tc.name != "replaced" && n >= 40000 {
					t.Errorf("%d records read", n)
				}
				t.Logf("%d records, then %v", n, got[0])
			})
		}
	}
}
