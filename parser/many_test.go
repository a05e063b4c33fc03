package parser

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// manyFiles writes n small kubelet logs into dir, of three records each:
// all within the same seconds (overlap), or each a second after the one
// before (a long run of rotations, or nodes of different spans).
func manyFiles(t testing.TB, dir string, n int, overlap bool) {
	t.Helper()
	for i := range n {
		sec := i
		if overlap {
			sec = 0
		}
		var b []byte
		for j := range 3 {
			at := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC).Add(time.Duration(sec)*time.Second + time.Duration(j*1000+i%1000)*time.Microsecond)
			b = fmt.Appendf(b, "I1122 %s 1 kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/p-%d-%d\"]\n", at.Format("15:04:05.000000"), i, j)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("kubelet-%06d.log", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// readMany reads dir through Discover and MultiReader, requires every
// record of its n files, in time order, with no error, and returns the
// reader.
func readMany(t *testing.T, dir string, n int) *MultiReader {
	t.Helper()
	srcs, errs := Discover([]string{dir}, nil)
	if len(errs) > 0 || len(srcs) != n {
		t.Fatalf("%d sources, errors %v", len(srcs), errs)
	}
	m := NewMultiReader(srcs, Options{Year: 2026})
	defer m.Close()
	got := 0
	var last time.Time
	for {
		rec, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if rec.Time.Before(last) {
			t.Fatalf("record %d at %v after one at %v", got, rec.Time, last)
		}
		last = rec.Time
		got++
	}
	if errs := m.Errors(); got != 3*n || len(errs) > 0 {
		t.Fatalf("%d records of %d, errors (%d) %v", got, 3*n, len(errs), errs[:min(len(errs), 3)])
	}
	return m
}

// lowFileLimit sets the process's soft limit of open files to n for the
// test, and the descriptor pool's bound with it.
func lowFileLimit(t *testing.T, n uint64) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = min(n, old.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	files.mu.Lock()
	files.limit, files.peak = 0, 0
	files.mu.Unlock()
	t.Cleanup(func() {
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &old)
		files.mu.Lock()
		files.limit = 0
		files.mu.Unlock()
	})
}

// TestManyFilesLowLimit: 2,000 files whose times all overlap, under a limit
// of 1,024 open files, are all read, merged in time order, and read back
// (ReadRaws): the reader of each is held to the end of the merge, but not
// its descriptor. Every file after the 1,000th or so failed with 'too many
// open files' (a warning each, their records lost).
func TestManyFilesLowLimit(t *testing.T) {
	lowFileLimit(t, 1024)
	dir := t.TempDir()
	const n = 2000
	manyFiles(t, dir, n, true)
	m := readMany(t, dir, n)
	if files.peak > files.max() || files.max() > 512 {
		t.Errorf("%d descriptors held at once; the bound is %d", files.peak, files.max())
	}
	var pos []Position
	for _, s := range m.Sources() {
		pos = append(pos, Position{Input: s.Name, Offset: 0, Length: 10})
	}
	_, errs := ReadRaws(m.Sources(), pos)
	for _, err := range errs {
		if err != nil {
			t.Fatalf("read back: %v", err)
		}
	}
	t.Logf("%d files, at most %d descriptors and %d sources open at once", n, files.peak, m.peakLive)
}

// TestManyFilesDisjoint: 100,000 files whose spans follow one another are
// read without holding them all open: a few readers at a time, besides
// the LiveSources read from the start; time grows with the number of
// files (10,000 against 100,000, per file).
func TestManyFilesDisjoint(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 files")
	}
	lowFileLimit(t, 1024)
	perFile := map[int]time.Duration{}
	for _, n := range []int{10000, 100000} {
		dir := t.TempDir()
		manyFiles(t, dir, n, false)
		t0 := time.Now()
		m := readMany(t, dir, n)
		perFile[n] = time.Since(t0) / time.Duration(n)
		if m.peakLive > LiveSources+2 || files.peak > files.max() {
			t.Errorf("%d files: %d sources and %d descriptors open at once", n, m.peakLive, files.peak)
		}
		t.Logf("%d files: %v a file, at most %d sources and %d descriptors open at once", n, perFile[n], m.peakLive, files.peak)
	}
	if perFile[100000] > 4*perFile[10000] {
		t.Errorf("%v a file for 100,000 files, %v for 10,000: not linear", perFile[100000], perFile[10000])
	}
}

// TestManyFilesAndStdin: standard input given after more than LiveSources
// files is read from the start like the first ones (it can be opened only
// once: a peek would lose it).
func TestManyFilesAndStdin(t *testing.T) {
	dir := t.TempDir()
	manyFiles(t, dir, LiveSources+10, false)
	in := "I1122 06:00:30.000000 1 kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/stdin\"]\n"
	srcs, errs := Discover([]string{dir, "-"}, strings.NewReader(in))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := NewMultiReader(srcs, Options{Year: 2026})
	defer m.Close()
	n, stdin := 0, 0
	for {
		rec, err := m.Next()
		if err != nil {
			break
		}
		n++
		if rec.Pos.Input == "-" {
			stdin++
		}
	}
	if n != 3*(LiveSources+10)+1 || stdin != 1 || len(m.Errors()) > 0 {
		t.Fatalf("%d records, %d of stdin, errors %v", n, stdin, m.Errors())
	}
}

// heapPerSource is the live heap per source, in bytes, since base (after a
// collection).
func heapPerSource(base runtime.MemStats, n int) float64 {
	runtime.GC()
	var now runtime.MemStats
	runtime.ReadMemStats(&now)
	return (float64(now.HeapAlloc) - float64(base.HeapAlloc)) / float64(n)
}

// TestManyFilesOverlapMemory: n small files whose times all overlap hold
// a reader each while the merge waits on their next record, all n at
// once; each costs a few KiB, at n as at 4n, not 28 KiB (a line buffer
// and a copy of it 4 KiB larger than the file, a 6 KiB table of interned
// strings and another of Want's answers, an 8 KiB block for the records'
// strings: 2.6 GB for 100,000 files). Once read to its end, a source
// keeps its accounting, not its reader.
func TestManyFilesOverlapMemory(t *testing.T) {
	sizes := [2]int{1000, 4000}
	if testing.Short() {
		sizes = [2]int{250, 1000}
	}
	for _, n := range sizes {
		dir := t.TempDir()
		manyFiles(t, dir, n, true)
		srcs, errs := Discover([]string{dir}, nil)
		if len(errs) > 0 || len(srcs) != n {
			t.Fatalf("%d sources, errors %v", len(srcs), errs)
		}
		runtime.GC()
		var base runtime.MemStats
		runtime.ReadMemStats(&base)
		// As the engine reads: Borrow, and a Want that keeps every record.
		m := NewMultiReader(srcs, Options{Year: 2026, Borrow: true, Want: func([]byte) bool { return true }})
		got := 0
		for ; got < n+n/2; got++ { // every file's first record, and half their second
			if _, err := m.Next(); err != nil {
				t.Fatal(err)
			}
		}
		open := heapPerSource(base, n)
		live := m.live
		for {
			if _, err := m.Next(); err != nil {
				break
			}
			got++
		}
		done := heapPerSource(base, n)
		t.Logf("%d files: %.0f bytes a source while %d are open, %.0f once read", n, open, live, done)
		if live != n || got != 3*n || len(m.Errors()) > 0 {
			t.Fatalf("%d sources open, %d records of %d, errors %v", live, got, 3*n, m.Errors())
		}
		if read, st := m.BytesRead(), m.Stats(); read != st.Bytes || st.Records != int64(3*n) {
			t.Fatalf("%d bytes read, Stats %d bytes and %d records", read, st.Bytes, st.Records)
		}
		if open > 8<<10 || done > 1<<10 {
			t.Errorf("%d files: %.0f bytes a source while open, %.0f once read", n, open, done)
		}
		runtime.KeepAlive(m)
	}
}
