package parser

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
	"github.com/podflow/podflow/tools/benchgen/gen"
)

// compressTo writes the compressed form of r to w: gzip at its best
// ratio, or zstd at its best.
func compressTo(t *testing.T, w io.Writer, what string, r io.Reader) {
	t.Helper()
	var zw io.WriteCloser
	var err error
	if what == "gzip" {
		zw, err = gzip.NewWriterLevel(w, gzip.BestCompression)
	} else {
		zw, err = zstd.NewWriter(w, zstd.WithEncoderLevel(zstd.SpeedBestCompression))
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(zw, r); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDecompressionBomb: a compressed log whose second member (gzip) or
// frame (zstd) is a bomb, made here (a run of one byte: gzip's best is
// 1,031 times, zstd's tens of thousands), keeps the records of the good
// member, then stops the bomb within MaxRatio times its compressed size
// (and ratioSlack), with a *RatioError naming the file: a counted warning,
// not a read of gigabytes (a 0.9 MB zstd file took 151 s).
func TestDecompressionBomb(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "01-happy-path.log"))
	if err != nil {
		t.Fatal(err)
	}
	want := drainAll(t, bytes.NewReader(good))
	for _, tt := range []struct {
		what string
		bomb int64 // bytes of text the bomb holds
	}{
		{"gzip", 256 << 20}, // (stopped some 130 MiB in: gzip's best is just over MaxRatio)
		{"zstd", 1 << 30},
	} {
		t.Run(tt.what, func(t *testing.T) {
			var file bytes.Buffer
			compressTo(t, &file, tt.what, bytes.NewReader(good))
			first := int64(file.Len())
			compressTo(t, &file, tt.what, &lineSource{n: tt.bomb, fill: 'x', tail: []byte("\n")})
			path := filepath.Join(t.TempDir(), "kubelet.log."+map[string]string{"gzip": "gz", "zstd": "zst"}[tt.what])
			if err := os.WriteFile(path, file.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			srcs, errs := Discover([]string{path}, nil)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			start := time.Now()
			m := NewMultiReader(srcs, Options{})
			n := 0
			for {
				if _, err := m.Next(); err != nil {
					break
				}
				n++
			}
			m.Close()
			errs, st := m.Errors(), m.Stats()
			t.Logf("%d bytes (%d of the bomb): %v, read %d MiB in %v", file.Len(), int64(file.Len())-first, errs, st.Bytes>>20, time.Since(start))
			// (The bomb's run is one line: cut, and said, before the stop.)
			var pe *ParseError
			if len(errs) == 0 || !errors.Is(errs[0], ErrRatio) || !errors.As(errs[0], &pe) || pe.Input != path ||
				len(errs) > 2 || len(errs) == 2 && !errors.Is(errs[1], ErrLineTooLong) {
				t.Fatalf("errors %v, want one naming %s as a bomb", errs, path)
			}
			if !strings.Contains(errs[0].Error(), tt.what+" stream expands more than 1000 times") {
				t.Errorf("error text: %v", errs[0])
			}
			if n != want {
				t.Errorf("%d records, want the good member's %d", n, want)
			}
			if limit := int64(len(good)) + MaxRatio*int64(file.Len()) + ratioSlack; st.Bytes > limit || st.Bytes >= int64(len(good))+tt.bomb {
				t.Errorf("read %d bytes of text, want at most %d", st.Bytes, limit)
			}
		})
	}
}

// drainAll is the number of records NewReader reads from r.
func drainAll(t *testing.T, r io.Reader) int {
	t.Helper()
	rd := NewReader(r, Options{Year: 2026})
	n := 0
	for {
		if _, err := rd.Next(); err != nil {
			return n
		}
		n++
	}
}

// TestRatioSparesRealLogs: no real compressed log of testdata trips the
// ratio, nor the bench logs' shape (gen.Generate) at gzip's and zstd's
// best, nor a log rotated with copytruncate whose 1 GiB hole of NULs
// compresses past any ratio.
func TestRatioSparesRealLogs(t *testing.T) {
	var paths []string
	filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".zst")) {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) < 4 {
		t.Fatalf("found %d compressed logs in testdata", len(paths))
	}
	c, err := gen.LoadCorpus(filepath.Join("..", "testdata", "corpus", "v1.36.3"))
	if err != nil {
		t.Fatal(err)
	}
	var bench bytes.Buffer
	if _, _, err := gen.Generate(c, &bench, 16<<20, 1); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	hole := &lineSource{n: 1 << 30, tail: []byte(klogLine + "\n")}
	for _, made := range []struct {
		name string
		what string
		text io.Reader
	}{
		{"bench.log.gz", "gzip", bytes.NewReader(bench.Bytes())},
		{"bench.log.zst", "zstd", bytes.NewReader(bench.Bytes())},
		{"hole.log.zst", "zstd", hole},
	} {
		f, err := os.Create(filepath.Join(dir, made.name))
		if err != nil {
			t.Fatal(err)
		}
		compressTo(t, f, made.what, made.text)
		f.Close()
		paths = append(paths, f.Name())
	}
	for _, p := range paths {
		srcs, errs := Discover([]string{p}, nil)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		rc, err := srcs[0].Open()
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		n, err := io.Copy(io.Discard, rc)
		rc.Close()
		if errors.Is(err, ErrRatio) {
			t.Errorf("%s: %v after %d bytes", p, err, n)
		}
	}
}
