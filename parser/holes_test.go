package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

const holeLine = `I1122 06:03:25.000000 1 a.go:1] "SyncLoop ADD" source="api" pods=["ns/a"]`

// TestHoleOfAnySize: a copytruncate hole longer than MaxLineBytes no longer
// swallows the line after it (it was gathered into that line and cut), in
// the sequential and the parallel reader alike; the record is placed after
// the hole, and the lines around it are counted as before.
func TestHoleOfAnySize(t *testing.T) {
	const capBytes = 1 << 20
	for _, hole := range []int64{1, 4095, 4096, capBytes - 1, capBytes, 3*capBytes + 17} {
		for _, workers := range []int{1, 2} {
			src := &lineSource{n: hole, fill: 0, tail: []byte(holeLine + "\n\n" + holeLine + "\n")}
			rd := NewReader(src, Options{Name: "hole", Year: 2026, MaxLineBytes: capBytes, Workers: workers, ChunkBytes: 64 << 10})
			var offs []int64
			for {
				rec, err := rd.Next()
				if err != nil {
					if !errors.Is(err, io.EOF) {
						t.Fatal(err)
					}
					break
				}
				offs = append(offs, rec.Pos.Offset)
			}
			st := rd.Stats()
			want := []int64{hole, hole + int64(len(holeLine)) + 2}
			if len(offs) != 2 || offs[0] != want[0] || offs[1] != want[1] {
				t.Errorf("hole %d, %d workers: records at %v, want %v", hole, workers, offs, want)
			}
			if st.Lines != 3 || st.Blank != 1 || st.Truncated != 0 || st.Bytes != hole+2*int64(len(holeLine))+3 || !st.Accounted() {
				t.Errorf("hole %d, %d workers: stats %+v", hole, workers, st)
			}
		}
	}
}

// TestHolesSameInParallel: NULs and blank runs anywhere (before records,
// inside `key=<` values, whose blank lines are theirs, between CRLF lines,
// at chunk boundaries) give the same records, positions and stats in the
// parallel reader as in the sequential one.
func TestHolesSameInParallel(t *testing.T) {
	var b strings.Builder
	for i := range 300 {
		switch i % 6 {
		case 0:
			b.WriteString(strings.Repeat("\x00", i*37))
		case 1:
			b.WriteString(strings.Repeat("\n", i))
		case 2:
			b.WriteString(strings.Repeat("\r\n", i%13) + strings.Repeat("\x00", i%5) + "\n")
		case 3:
			b.WriteString(`I1122 06:03:25.000000 1 a.go:1] "Status" pod="ns/a" patch=<` + "\n\t{\n\n\n\t}\n >\n")
		}
		b.WriteString(strings.Replace(holeLine, "ns/a", "ns/p"+strings.Repeat("x", i%7), 1) + "\n")
	}
	b.WriteString(strings.Repeat("\x00", 5000))
	in := b.String()
	compareParallel(t, "holes", func() io.Reader { return strings.NewReader(in) }, Options{Year: 2026})
	rd := NewReader(strings.NewReader(in), Options{Year: 2026, Workers: 1})
	recs, _, err := readAllText(t, rd)
	if err != nil || len(recs) != 350 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if st := rd.Stats(); st.Continuations != 50*5 || st.Bytes != int64(len(in)) {
		t.Errorf("stats %+v", st)
	}
}

// TestBlankRunsAtMemorySpeed: runs of blank lines and of NULs are passed
// in bulk, at a few times the cost of counting their bytes, not at some
// 80 ns a line (12 MB/s). Times are compared within the run, best of 3.
func TestBlankRunsAtMemorySpeed(t *testing.T) {
	const size = 32 << 20
	for _, fill := range []byte{'\n', 0} {
		data := bytes.Repeat([]byte{fill}, size)
		data = append(data, holeLine+"\n"...)
		best := func(f func()) time.Duration {
			d := time.Duration(1 << 62)
			for range 3 {
				t0 := time.Now()
				f()
				d = min(d, time.Since(t0))
			}
			return d
		}
		count := best(func() { bytes.Count(data, []byte{'\n'}) })
		read := best(func() {
			rd := NewReader(bytes.NewReader(data), Options{Year: 2026, Workers: 1})
			if n := drain(t, rd); n != 1 {
				t.Fatalf("%d records", n)
			}
		})
		t.Logf("fill %q: %d MiB read in %v (%.0f MB/s); counted in %v", fill, size>>20, read, float64(size)/read.Seconds()/1e6, count)
		if read > 25*count+50*time.Millisecond {
			t.Errorf("fill %q: %v to read %d MiB, %v to count its bytes: want within 25 times", fill, read, size>>20, count)
		}
	}
}

// endless yields fill forever.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

// TestEndlessInputAbandoned: standard input that yields NULs, or newlines,
// forever is abandoned after NoLineBytes with a *NoLineError, the records
// before kept: such input never makes a line, and would be read forever.
// (A line without end is not abandoned: TestLongLineOnPipeReadOn.)
func TestEndlessInputAbandoned(t *testing.T) {
	for _, fill := range []endless{0, '\n'} {
		in := io.MultiReader(strings.NewReader(holeLine+"\n"), fill)
		srcs, errs := Discover([]string{"-"}, in)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		done := make(chan struct{})
		var n int
		var st Stats
		var got []error
		go func() {
			defer close(done)
			m := NewMultiReader(srcs, Options{Year: 2026})
			defer m.Close()
			for {
				if _, err := m.Next(); err != nil {
					break
				}
				n++
			}
			got, st = m.Errors(), m.Stats()
		}()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Fatalf("fill %q: still reading after a minute", byte(fill))
		}
		if n != 1 || len(got) != 1 || !errors.Is(got[0], ErrNoLine) {
			t.Fatalf("fill %q: %d records, errors %v", byte(fill), n, got)
		}
		if st.Bytes < NoLineBytes || st.Bytes > NoLineBytes+2<<20 {
			t.Errorf("fill %q: read %d bytes, want just over %d", byte(fill), st.Bytes, NoLineBytes)
		}
		t.Logf("fill %q: %v", byte(fill), got[0])
	}
}

// TestLongLineOnPipeReadOn: a line far longer than the line cap plus the
// NoLineBytes of an endless stream, piped to standard input, is cut,
// counted and reported, and the lines after it are read, as in a file (a
// line over 128 MiB used to abandon the rest of the stream with a
// *NoLineError); and a line that never ends is read to the end of the
// input. The memory either takes does not grow with the line: twice as
// long a line allocates no more.
func TestLongLineOnPipeReadOn(t *testing.T) {
	const mib = 1 << 20
	tail := strings.Replace(holeLine, "ns/a", "ns/b", 1) + "\n"
	var allocs []uint64
	for _, tt := range []struct {
		name  string
		long  int64
		tail  string
		lines []int64 // of the records read
	}{
		{"ended", 130 * mib, "\n" + tail, []int64{1, 3}},
		{"endless", 130 * mib, "", []int64{1}},
		{"twice as long", 260 * mib, "\n" + tail, []int64{1, 3}},
	} {
		// Not an *os.File: a pipe, which may go on forever.
		in := &lineSource{head: []byte(holeLine + "\n"), n: tt.long, fill: 'x', tail: []byte(tt.tail)}
		srcs, errs := Discover([]string{"-"}, in)
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		m := NewMultiReader(srcs, Options{Year: 2026})
		var lines []int64
		for {
			rec, err := m.Next()
			if err != nil {
				break
			}
			lines = append(lines, rec.Pos.Line)
		}
		m.Close()
		runtime.ReadMemStats(&after)
		got, st := m.Errors(), m.Stats()
		if !slices.Equal(lines, tt.lines) {
			t.Errorf("%s: records on lines %v, want %v", tt.name, lines, tt.lines)
		}
		// The line is cut, and the record it continues is capped: the
		// reader counts both, as it does in a file.
		var tooLong *LineTooLongError
		if len(got) != 1 || !errors.As(got[0], &tooLong) || st.Truncated == 0 {
			t.Errorf("%s: errors %v, want the line cut (and no endless stream)", tt.name, got)
		}
		if want := int64(len(holeLine)+1+len(tt.tail)) + tt.long; st.Bytes != want || !st.Accounted() {
			t.Errorf("%s: read %d bytes, want %d (%+v)", tt.name, st.Bytes, want, st)
		}
		allocs = append(allocs, after.TotalAlloc-before.TotalAlloc)
	}
	if allocs[2] > allocs[0]+16*mib {
		t.Errorf("allocated %d MiB for a %d MiB line, %d MiB for twice as long a line", allocs[0]/mib, 130, allocs[2]/mib)
	}
}

// TestFileHoleNotAbandoned: a file on disk with a hole longer than
// NoLineBytes is read to its end (the hole ends where the file does), and
// the line after the hole is read; but a file that grows by such a hole
// after it was opened is abandoned.
func TestFileHoleNotAbandoned(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "kubelet.log")
	hole := int64(NoLineBytes + 5<<20)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: the hole costs no disk.
	if _, err := f.WriteAt([]byte(holeLine+"\n"), hole); err != nil {
		t.Fatal(err)
	}
	f.Close()
	srcs, errs := Discover([]string{path}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := NewMultiReader(srcs, Options{Year: 2026})
	defer m.Close()
	rec, err := m.Next()
	if err != nil || rec.Msg != "SyncLoop ADD" || rec.Pos.Offset != hole {
		t.Fatalf("%v, %v (errors %v)", rec, err, m.Errors())
	}
	if _, err := m.Next(); err != io.EOF || len(m.Errors()) > 0 {
		t.Fatalf("%v, %v", err, m.Errors())
	}

	// Growing by a hole once opened.
	grow := filepath.Join(dir, "growing.log")
	if err := os.WriteFile(grow, []byte(holeLine+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, _ = Discover([]string{grow}, nil)
	rc, err := srcs[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if err := os.Truncate(grow, 2*NoLineBytes); err != nil {
		t.Fatal(err)
	}
	rd := NewReader(rc, Options{Year: 2026})
	if rec, err := rd.Next(); err != nil || rec.Msg != "SyncLoop ADD" {
		t.Fatalf("%v, %v", rec, err)
	}
	if _, err := rd.Next(); !errors.Is(err, ErrNoLine) {
		t.Fatalf("a file grown by a hole of %d bytes: %v, want ErrNoLine", 2*NoLineBytes, err)
	}
	if st := rd.Stats(); st.Bytes > NoLineBytes+2<<20 {
		t.Errorf("read %d bytes", st.Bytes)
	}
}

// TestSniffPastHole: a file with a hole before its first line is a log
// file to a directory walk (its first 16 KiB were NULs and it was skipped).
func TestSniffPastHole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "node.log")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte(holeLine+"\n"), 1<<20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	srcs, skipped, errs := DiscoverReport([]string{dir}, nil)
	if len(srcs) != 1 || len(skipped) > 0 || len(errs) > 0 {
		t.Fatalf("sources %v, skipped %v, errors %v", srcs, skipped, errs)
	}
}

// FuzzHoles builds inputs of NUL runs, blank runs (LF and CRLF), klog
// lines, `key=<` values with blank lines in them, and text lines, from
// the fuzzer's bytes, and requires the parallel reader, whose small chunks
// cut them anywhere, to read them as the sequential one does.
func FuzzHoles(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{3, 0x40, 1, 3, 4, 0x21, 5, 3, 7, 0x80})
	f.Add([]byte{0xf0, 3, 6, 0x11, 3})
	f.Fuzz(fuzzHolesBody)
}

func fuzzHolesBody(t *testing.T, ops []byte) {
	{
		ops = ops[:min(len(ops), 256)] // (each input is read eight ways)
		var b strings.Builder
		records := 0
		for i, op := range ops {
			n := int(op>>3) + 1
			switch op & 7 {
			case 0:
				b.WriteString(strings.Repeat("\x00", n*n))
			case 1:
				b.WriteString(strings.Repeat("\n", n))
			case 2:
				b.WriteString(strings.Repeat("\r\n", n))
			case 3, 7:
				b.WriteString(strings.Replace(holeLine, "ns/a", fmt.Sprintf("ns/p%d", i), 1) + "\n")
				records++
			case 4:
				b.WriteString(`I1122 06:03:26.000000 1 a.go:1] "Status" pod="ns/v" patch=<` + "\n")
				records++
			case 5:
				b.WriteString("\t{\"a\": 1}\n")
			case 6:
				b.WriteString(" >\n")
			}
		}
		if records == 0 {
			return
		}
		in := b.String()
		want, wantStats, wantErr := readAllText(t, NewReader(strings.NewReader(in), Options{Year: 2026, Workers: 1, ModTime: fixedModTime}))
		got, gotStats, gotErr := readAllText(t, NewReader(strings.NewReader(in), Options{Year: 2026, Workers: 2, ChunkBytes: 700, ModTime: fixedModTime}))
		if fmt.Sprint(got) != fmt.Sprint(want) || gotStats != wantStats || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("parallel:\n%v %s %v\nsequential:\n%v %s %v", got, gotStats, gotErr, want, wantStats, wantErr)
		}
	}
}

// TestBulkBlanksAsConsumeReadsThem: blank lines passed in bulk are read as
// the line machine reads blank lines it is given one by one, in every
// state (an export, an events table, the systemctl status block, a `key=<`
// value, pasted shapes): every plain text fixture, with runs of empty
// lines put after some of its lines, reads the same both ways, sequentially
// and in parallel chunks.
func TestBulkBlanksAsConsumeReadsThem(t *testing.T) {
	var paths []string
	filepath.WalkDir(filepath.Join("..", "testdata", "formats"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".gz") && !strings.HasSuffix(p, ".zst") && !strings.HasSuffix(p, ".yaml") {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) < 30 {
		t.Fatalf("%d fixtures", len(paths))
	}
	read := func(in string, workers int, oneByOneToo bool) (string, string) {
		oneByOne = oneByOneToo
		defer func() { oneByOne = false }()
		// (A fixed modification time: a pasted table with no time stated
		// counts its ages back from it, else from now, which two reads
		// may see a second apart.)
		rd := NewReader(strings.NewReader(in), Options{Year: 2026, Workers: workers, ChunkBytes: 512, ModTime: fixedModTime})
		recs, stats, err := readAllText(t, rd)
		return fmt.Sprint(recs, err), stats
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, every := range []int{1, 3} {
			var b strings.Builder
			for i, line := range strings.SplitAfter(string(data), "\n") {
				b.WriteString(line)
				if i%every == 0 && strings.HasSuffix(line, "\n") {
					b.WriteString("\n\n\r\n\n")
				}
			}
			for _, workers := range []int{1, 2} {
				// (Each against its own kind: a pasted events table reads
				// the lines after it, which a chunk does not show.)
				wantRecs, wantStats := read(b.String(), workers, true)
				gotRecs, gotStats := read(b.String(), workers, false)
				if gotRecs != wantRecs || gotStats != wantStats {
					t.Errorf("%s, blank lines after every %d line, %d workers: read otherwise in bulk\n got %v\nwant %v", p, every, workers, gotStats, wantStats)
				}
			}
		}
	}
}

// fixedModTime stands for an input's modification time in tests that read
// one text twice and compare: a pasted events table that states no time
// counts back from it instead of from now.
var fixedModTime = time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
