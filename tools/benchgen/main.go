// Command benchgen writes the generated kubelet logs of `make bench-data`
// (see package gen for how they are made and how realistic they are).
//
// Usage:
//
//	benchgen -size 1GiB -seed 1 -o bench-data/kubelet-1g.log [-gzip]
//	benchgen -noise -size 1GiB -seed 1 -o bench-data/kubelet-1g-noise.log
//	benchgen -measure FILE...
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/klauspost/compress/gzip"
	"github.com/podflow/podflow/tools/benchgen/gen"
)

func main() {
	var (
		size    = flag.String("size", "100MiB", "size of the generated log (KiB, MiB, GiB suffixes)")
		seed    = flag.Uint64("seed", 1, "random seed (same seed and size: same bytes)")
		out     = flag.String("o", "", "output file (a .gz sibling is written too with -gzip)")
		gz      = flag.Bool("gzip", false, "also write OUT.gz")
		dir     = flag.String("corpus", "testdata/corpus/v1.36.3", "real kubelet logs to replay")
		measure = flag.Bool("measure", false, "print the message mix of the files given as arguments")
		noise   = flag.Bool("noise", false, "a log where most lines are the node's own: 4,771 pods per GiB instead of 10,000")
		density = flag.Int("pods-per-gib", 0, "pods per GiB of log (0: 10,000, or 4,771 with -noise)")
	)
	flag.Parse()
	if *measure {
		if err := gen.Measure(os.Stdout, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "benchgen:", err)
			os.Exit(1)
		}
		return
	}
	n, err := parseSize(*size)
	if err != nil || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: benchgen -size 1GiB -o FILE [-gzip] [-seed N] [-noise] [-pods-per-gib N]")
		os.Exit(2)
	}
	c, err := gen.LoadCorpus(*dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
	c.Log = func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "benchgen: %s: "+format+"\n", append([]any{*out}, args...)...)
	}
	opt := gen.Options{Noise: *noise, PodsPerGiB: *density}
	if err := writeLog(c, *out, *gz, n, *seed, opt); err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for _, u := range []struct {
		suf string
		m   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}} {
		if strings.HasSuffix(s, u.suf) {
			mult, s = u.m, strings.TrimSuffix(s, u.suf)
			break
		}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return v * mult, nil
}

// writeLog writes path (and path.gz) under temporary names renamed at the
// end, so that an interrupted run leaves no file that looks complete.
func writeLog(c *gen.Corpus, path string, gz bool, size int64, seed uint64, opt gen.Options) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path + ".tmp")
	if err != nil {
		return err
	}
	defer f.Close()
	var w io.Writer = f
	var zw *gzip.Writer
	var zf *os.File
	if gz {
		zf, err = os.Create(path + ".gz.tmp")
		if err != nil {
			return err
		}
		defer zf.Close()
		zw = gzip.NewWriter(zf)
		w = io.MultiWriter(f, zw)
	}
	st, err := gen.GenerateWith(c, w, size, seed, opt)
	if err != nil {
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	if zf != nil {
		if err := zf.Close(); err != nil {
			return err
		}
		if err := os.Rename(path+".gz.tmp", path+".gz"); err != nil {
			return err
		}
	}
	fmt.Fprintf(os.Stderr, "benchgen: wrote %d bytes (%d pods), %d lines, %.1f%% of them the node's own\n",
		st.Bytes, st.Pods, st.Lines, 100*float64(st.Lines-st.PodLines)/float64(max(st.Lines, 1)))
	return os.Rename(path+".tmp", path)
}
