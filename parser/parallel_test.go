package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/klauspost/compress/gzip"
)

// readAll runs a Reader to the end and renders every record, the final
// error and the Stats as text, so that two runs can be compared exactly.
func readAllText(t *testing.T, rd *Reader) (recs []string, stats string, err error) {
	t.Helper()
	defer rd.Close()
	for {
		rec, e := rd.Next()
		if e != nil {
			if !errors.Is(e, io.EOF) {
				err = e
				// The reader must stay at EOF after an error.
				if _, e2 := rd.Next(); !errors.Is(e2, io.EOF) {
					t.Fatalf("Next after error %v: %v, want io.EOF", e, e2)
				}
			}
			break
		}
		recs = append(recs, fmt.Sprintf("%+v", *rec))
	}
	st := rd.Stats()
	if !st.Accounted() {
		t.Errorf("stats do not account for every line: %+v", st)
	}
	return recs, fmt.Sprintf("%+v", st), err
}

// wantSome declines most records, as the engine does, so that the
// filtered path is compared too.
func wantSome(msg []byte) bool {
	return bytes.HasPrefix(msg, []byte("SyncLoop")) || bytes.HasPrefix(msg, []byte("Event occurred")) ||
		bytes.Contains(msg, []byte("pod")) || bytes.HasPrefix(msg, []byte("line "))
}

// comparePaths parses input sequentially and in parallel (several worker
// counts and chunk sizes, small chunks putting many boundaries inside
// multi-line records and state changes) and requires equal results.
func compareParallel(t *testing.T, name string, open func() io.Reader, opts Options) {
	t.Helper()
	opts.Name = name
	seqOpts := opts
	seqOpts.Workers = 1
	want, wantStats, wantErr := readAllText(t, NewReader(open(), seqOpts))
	if len(want) == 0 && wantErr == nil {
		t.Fatalf("%s: no records: the comparison would prove nothing", name)
	}
	// Borrowed records, compared as they are returned, are the same as
	// well: sequentially, and with chunks, and so their text, reused.
	for _, c := range []struct {
		workers, chunk int
		borrow         bool
	}{{2, 0, false}, {2, 4 << 10, false}, {3, 700, false}, {4, 64 << 10, false}, {1, 0, true}, {2, 4 << 10, true}, {3, 700, true}} {
		po := opts
		po.Workers, po.ChunkBytes, po.Borrow = c.workers, c.chunk, c.borrow
		got, gotStats, gotErr := readAllText(t, NewReader(open(), po))
		label := fmt.Sprintf("%s workers=%d chunk=%d borrow=%v", name, c.workers, c.chunk, c.borrow)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: error %v, sequential %v", label, gotErr, wantErr)
		}
		if gotStats != wantStats {
			t.Errorf("%s: stats\n got %s\nwant %s", label, gotStats, wantStats)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d records, sequential %d", label, len(got), len(want))
		}
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Errorf("%s: record %d\n got %s\nwant %s", label, i, got[i], want[i])
				break
			}
		}
	}
}

func fileOpener(t *testing.T, path string) func() io.Reader {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return func() io.Reader { return bytes.NewReader(data) }
}

func TestParallelMatchesSequentialOnCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*", "*.log"))
	if err != nil || len(files) < 10 {
		t.Fatalf("corpus files: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			compareParallel(t, f, fileOpener(t, f), Options{Year: 2026, Want: wantSome})
			if strings.HasPrefix(filepath.Base(f), "01-") {
				// The year from the modification time, the first month
				// after it: the clock moves a year back at the first line.
				compareParallel(t, f, fileOpener(t, f), Options{ModTime: time.Date(2027, 1, 5, 0, 0, 0, 0, time.UTC)})
			}
		})
	}
}

// The format fixtures: journald, paste and grep prefixes have no split
// points and exercise the fall-back; the others mix formats, CRLF,
// hard-wrapped and multi-line records.
func TestParallelMatchesSequentialOnFormats(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "formats", "*.log"))
	if err != nil || len(files) < 10 {
		t.Fatalf("format fixtures: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			compareParallel(t, f, fileOpener(t, f), Options{})
		})
	}
}

func TestParallelMatchesSequentialSynthetic(t *testing.T) {
	klog := func(b *strings.Builder, month, day, i int, msg string) {
		fmt.Fprintf(b, "I%02d%02d 23:59:%02d.%06d   12345 kubelet.go:%d] %s\n", month, day, i%60, i, 100+i%50, msg)
	}
	var rollover strings.Builder // December to January: the year moves on in a later chunk
	for i := range 3000 {
		if i < 1500 {
			klog(&rollover, 12, 31, i, fmt.Sprintf(`"line %d" pod="ns/p%d"`, i, i%7))
		} else {
			klog(&rollover, 1, 1, i, fmt.Sprintf(`"line %d" pod="ns/p%d"`, i, i%7))
		}
	}
	var multi strings.Builder // klog key=< values, continuation and blank lines
	for i := range 800 {
		switch i % 4 {
		case 0:
			klog(&multi, 11, 22, i, `"line with a multi-line value" pod="ns/a" data=<`)
			multi.WriteString("\tfirst\n\n\tsecond line of it\n >\n")
		case 1:
			klog(&multi, 11, 22, i, `"SyncLoop UPDATE" pods=["ns/a"]`)
			multi.WriteString("a continuation line that belongs to the record above\n")
		case 2:
			multi.WriteString("\n   \n")
			klog(&multi, 11, 22, i, `"Unwanted line" x=1`)
		default:
			fmt.Fprintf(&multi, `{"ts":1795328059915.%d,"caller":"x.go:1","msg":"line %d","v":2}`+"\n", i, i)
		}
	}
	// A line far longer than a chunk and than parallelMaxLine: the reader
	// goes on sequentially from there.
	var long strings.Builder
	for i := range 200 {
		klog(&long, 11, 22, i, `"line before" pod="ns/a"`)
	}
	klog(&long, 11, 22, 200, `"line long" pod="ns/a" x="`+strings.Repeat("y", 2*parallelMaxLine)+`"`)
	for i := range 200 {
		klog(&long, 11, 22, 201+i, `"line after" pod="ns/a"`)
	}
	// Pasted "> " lines between bare ones: the paste mode is state that a
	// worker may not know.
	var paste strings.Builder
	for i := range 1000 {
		if i == 600 {
			paste.WriteString("> ")
		}
		klog(&paste, 11, 22, i, fmt.Sprintf(`"line %d"`, i))
	}
	cases := []struct {
		name string
		data string
		wrap func(io.Reader) io.Reader
	}{
		{"rollover", rollover.String(), nil},
		{"multiline", multi.String(), nil},
		{"multiline-no-final-newline", strings.TrimSuffix(multi.String(), "\n"), nil},
		{"long-line", long.String(), nil},
		{"paste", paste.String(), nil},
		{"half-reads", multi.String(), iotest.HalfReader},
		{"read-error", multi.String(), func(r io.Reader) io.Reader {
			return io.MultiReader(io.LimitReader(r, 20000), iotest.ErrReader(errors.New("disk on fire")))
		}},
		{"empty", "", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			open := func() io.Reader {
				var r io.Reader = strings.NewReader(c.data)
				if c.wrap != nil {
					r = c.wrap(r)
				}
				return r
			}
			if c.data == "" {
				for _, w := range []int{1, 2} {
					recs, _, err := readAllText(t, NewReader(open(), Options{Workers: w}))
					if len(recs) != 0 || err != nil {
						t.Errorf("workers=%d: %d records, %v from empty input", w, len(recs), err)
					}
				}
				return
			}
			compareParallel(t, c.name, open, Options{Want: wantSome})
		})
	}
}

// A truncated gzip stream read through Source.Open: the records before the
// damage, then the same *ParseError (line and offset) as sequentially.
func TestParallelTruncatedGzip(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "07-twenty-pods.log"))
	if err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := gzip.NewWriter(&zb)
	zw.Write(raw)
	zw.Close()
	path := filepath.Join(t.TempDir(), "kubelet.log.gz")
	if err := os.WriteFile(path, zb.Bytes()[:zb.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	src := Source{Name: path, Path: path}
	open := func() io.Reader {
		rc, err := src.Open()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rc.Close() })
		return rc
	}
	compareParallel(t, path, open, Options{Year: 2026, Want: wantSome})
	_, _, perr := readAllText(t, NewReader(open(), Options{Workers: 2, Year: 2026}))
	var pe *ParseError
	if !errors.As(perr, &pe) || pe.Line < 1000 {
		t.Errorf("truncated gzip: error %v, want a *ParseError deep in the file", perr)
	}
}

// MultiReader parses big files on several goroutines by itself and gives
// the records of the sequential path; an early Close stops the workers.
func TestMultiReaderParallel(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "07-twenty-pods.log"))
	if err != nil {
		t.Fatal(err)
	}
	big := bytes.Repeat(raw, ParallelMinBytes/len(raw)+1)
	path := filepath.Join(dir, "kubelet.log")
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, errs := Discover([]string{path}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if workersFor(Options{}, srcs[0]) < 2 && workersFor(Options{Workers: 2}, srcs[0]) != 2 {
		t.Fatalf("a %d-byte file is not parsed in parallel", srcs[0].Size)
	}
	count := func(o Options) (int, Stats) {
		m := NewMultiReader(srcs, o)
		defer m.Close()
		n := 0
		for {
			if _, err := m.Next(); err != nil {
				break
			}
			n++
		}
		return n, m.Stats()
	}
	n1, s1 := count(Options{Year: 2026, Workers: 1})
	n2, s2 := count(Options{Year: 2026, Workers: 2})
	if n1 != n2 || fmt.Sprint(s1) != fmt.Sprint(s2) || s2.Lines != int64(bytes.Count(big, []byte("\n"))) {
		t.Errorf("sequential %d records %+v, parallel %d records %+v", n1, s1, n2, s2)
	}
	// Stop after a few records: Close must return (workers stopped).
	m := NewMultiReader(srcs, Options{Year: 2026, Workers: 2, ChunkBytes: 4096})
	for range 10 {
		if _, err := m.Next(); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() { m.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Close after an early stop hangs")
	}
}

// A Reader that reads on where another stopped (a followed file) gives the
// positions of the whole stream.
func TestStartOffsetAndLine(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "01-happy-path.log"))
	if err != nil {
		t.Fatal(err)
	}
	cut := bytes.IndexByte(raw[len(raw)/2:], '\n') + len(raw)/2 + 1
	lines := int64(bytes.Count(raw[:cut], []byte("\n")))
	positions := func(rd *Reader) map[string]Position {
		out := map[string]Position{}
		for {
			rec, err := rd.Next()
			if err != nil {
				return out
			}
			out[fmt.Sprint(rec.Time, rec.Msg)] = rec.Pos
		}
	}
	whole := positions(NewReader(bytes.NewReader(raw), Options{Year: 2026, Name: "k"}))
	for _, w := range []int{1, 2} {
		rest := positions(NewReader(bytes.NewReader(raw[cut:]), Options{Year: 2026, Name: "k", Workers: w, ChunkBytes: 4096, StartOffset: int64(cut), StartLine: lines}))
		if len(rest) < 100 {
			t.Fatalf("workers=%d: %d records in the second half", w, len(rest))
		}
		for k, p := range rest {
			if whole[k] != p {
				t.Fatalf("workers=%d: %s at %+v, reading the whole file %+v", w, k, p, whole[k])
			}
		}
	}
}

// FuzzBorrow holds borrowed records, each compared as it is returned, to
// those of a reader that copies them: sequentially, and on two workers
// with small chunks, whose text is reused.
func FuzzBorrow(f *testing.F) {
	seedFile(f, "formats/klog-multiline.log", "formats/hard-wrapped-80.log", "formats/json.log", "formats/klog-legacy.log")
	seedLines(f, 30, "corpus/v1.36.3/01-happy-path.log")
	f.Fuzz(func(t *testing.T, data []byte) {
		read := func(o Options) ([]string, string, error) {
			o.Year, o.Want = 2026, wantSome
			return readAllText(t, NewReader(bytes.NewReader(data), o))
		}
		want, wantStats, wantErr := read(Options{Workers: 1})
		for _, o := range []Options{{Workers: 1, Borrow: true}, {Workers: 2, ChunkBytes: 512, Borrow: true}} {
			got, gotStats, gotErr := read(o)
			if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || gotStats != wantStats || len(got) != len(want) {
				t.Fatalf("workers=%d: %d records, %s, %v; copied: %d, %s, %v", o.Workers, len(got), gotStats, gotErr, len(want), wantStats, wantErr)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("workers=%d: record %d\n got %s\nwant %s", o.Workers, i, got[i], want[i])
				}
			}
		}
	})
}
