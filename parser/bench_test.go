package parser

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// repeatReader yields chunk n times.
type repeatReader struct {
	chunk []byte
	n     int
	off   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.chunk[r.off:])
	r.off += k
	if r.off == len(r.chunk) {
		r.off = 0
		r.n--
	}
	return k, nil
}

// BenchmarkParse reads real corpus files: text (klog) and JSON, all
// records decoded, with a Want that declines every record, and with a
// Match that declines all but a few (lines pod's second pass).
func BenchmarkParse(b *testing.B) {
	cases := []struct {
		name, file string
		want       func([]byte) bool
		match      func([]byte) bool
	}{
		{"text", "corpus/v1.36.3/07-twenty-pods.log", nil, nil},
		{"json", "corpus/v1.36.3/08-happy-path-json-v4.log", nil, nil},
		{"journald", "", nil, nil},
		{"text-unwanted", "corpus/v1.36.3/07-twenty-pods.log", func([]byte) bool { return false }, nil},
		{"text-grep", "corpus/v1.36.3/07-twenty-pods.log", func(m []byte) bool { return bytes.HasPrefix(m, []byte("SyncLoop")) }, nil},
		{"text-match", "corpus/v1.36.3/07-twenty-pods.log", nil, func(t []byte) bool { return bytes.Contains(t, []byte("batch-worker-6c8d5f07-2e447")) }},
	}
	for _, c := range cases {
		var chunk []byte
		if c.file == "" {
			// The text corpus behind a journald short-precise prefix.
			raw, err := os.ReadFile(filepath.Join("..", "testdata", "corpus/v1.36.3/07-twenty-pods.log"))
			if err != nil {
				b.Fatal(err)
			}
			for _, l := range bytes.SplitAfter(raw, []byte("\n")) {
				if len(l) > 0 {
					chunk = append(chunk, "Nov 22 06:25:20.123456 kb-node-twenty kubelet[21321]: "...)
					chunk = append(chunk, l...)
				}
			}
		} else {
			var err error
			chunk, err = os.ReadFile(filepath.Join("..", "testdata", c.file))
			if err != nil {
				b.Fatal(err)
			}
		}
		lines := bytes.Count(chunk, []byte("\n"))
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(chunk)))
			b.ReportAllocs()
			rd := NewReader(&repeatReader{chunk: chunk, n: b.N}, Options{Year: 2026, Want: c.want, Match: c.match})
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for {
				if _, err := rd.Next(); err != nil {
					break
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			n := float64(b.N) * float64(lines)
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/line")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/line")
		})
	}
}
