package parser

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
)

// TestRawReader reads every record of plain, gzip and zstd inputs and of
// standard input (what it kept) back with one RawReader each, forward and
// then backward, and compares with the bytes of the decompressed text and
// with ReadRaw.
func TestRawReader(t *testing.T) {
	dir := filepath.Join("..", "testdata", "formats")
	text, err := os.ReadFile(filepath.Join(dir, "klog-multiline.log"))
	if err != nil {
		t.Fatal(err)
	}
	gzText, err := os.ReadFile(filepath.Join(dir, "kubelet-gz.log.gz"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		path  string
		stdin []byte
	}{
		{name: "plain", path: filepath.Join(dir, "klog-multiline.log")},
		{name: "journald", path: filepath.Join(dir, "journald-short-precise.log")},
		{name: "gzip", path: filepath.Join(dir, "kubelet-gz.log.gz")},
		{name: "zstd", path: filepath.Join(dir, "kubelet-zst.log.zst")},
		{name: "stdin", path: "-", stdin: text},
		{name: "stdin gzip", path: "-", stdin: gzText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srcs, errs := Discover([]string{tt.path}, bytes.NewReader(tt.stdin))
			if len(errs) > 0 || len(srcs) != 1 {
				t.Fatal(srcs, errs)
			}
			// The text the positions count in, decompressed on its own.
			var plain []byte
			switch {
			case tt.stdin != nil && bytes.HasPrefix(tt.stdin, []byte{0x1f, 0x8b}):
				zr, err := gzip.NewReader(bytes.NewReader(tt.stdin))
				if err != nil {
					t.Fatal(err)
				}
				plain, err = io.ReadAll(zr)
				if err != nil {
					t.Fatal(err)
				}
			case tt.stdin != nil:
				plain = tt.stdin
			default:
				rc, err := srcs[0].Open()
				if err != nil {
					t.Fatal(err)
				}
				plain, err = io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatal(err)
				}
			}
			// Standard input is read once: what is read back is what was
			// kept as it went by, here every record.
			KeepEvery(srcs)
			var positions []Position
			m := NewMultiReader(srcs, Options{Year: 2026})
			for {
				rec, err := m.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				positions = append(positions, rec.Pos)
			}
			if len(positions) < 3 {
				t.Fatalf("%d records", len(positions))
			}
			rr := NewRawReader(srcs[0])
			defer rr.Close()
			check := func(p Position) {
				t.Helper()
				got, err := rr.Read(p)
				if err != nil {
					t.Fatalf("line %d: %v", p.Line, err)
				}
				want, err := ReadRaw(srcs[0], p)
				if err != nil {
					t.Fatal(err)
				}
				text := plain[p.Offset : p.Offset+int64(p.Length)]
				if !bytes.Equal(got, text) || !bytes.Equal(want, text) || bytes.HasSuffix(got, []byte("\n")) {
					t.Fatalf("line %d: %q, ReadRaw %q, text %q", p.Line, got, want, text)
				}
			}
			// Every other record forward, then all of them backward.
			for i := 0; i < len(positions); i += 2 {
				check(positions[i])
			}
			for i := len(positions) - 1; i >= 0; i-- {
				check(positions[i])
			}
		})
	}
}

func TestRawReaderErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "k.log")
	if err := os.WriteFile(path, []byte("I1122 06:03:25.671184   21321 config.go:326] \"x\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, errs := Discover([]string{path}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rr := NewRawReader(srcs[0])
	defer rr.Close()
	if _, err := rr.Read(Position{Offset: -1, Length: 3}); err == nil || !strings.Contains(err.Error(), "bad position") {
		t.Errorf("negative offset: %v", err)
	}
	if _, err := rr.Read(Position{Offset: 40, Length: 100}); err == nil || !strings.Contains(err.Error(), "k.log: read back byte 40") {
		t.Errorf("past the end: %v", err)
	}
	if got, err := rr.Read(Position{Offset: 0, Length: 5}); err != nil || string(got) != "I1122" {
		t.Errorf("after an error: %q, %v", got, err)
	}
	os.Remove(path)
	gone := NewRawReader(srcs[0])
	if _, err := gone.Read(Position{Length: 1}); err == nil || !strings.Contains(err.Error(), "k.log") {
		t.Errorf("missing file: %v", err)
	}
	gone.Close()
}

// TestMatchKeepsRecordsThatHoldIt: with Match, a reader returns exactly
// the records of a full parse whose lines hold the string, the same
// records, and accounts for the others as filtered, with the same times
// seen; in parallel as sequentially.
func TestMatchKeepsRecordsThatHoldIt(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*", "*.log"))
	if err != nil || len(files) < 10 {
		t.Fatalf("corpus files: %v %v", files, err)
	}
	files = append(files, filepath.Join("..", "testdata", "formats", "journald-short-precise.log"),
		filepath.Join("..", "testdata", "formats", "klog-multiline.log"), filepath.Join("..", "testdata", "formats", "json.log"))
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			all, _, err := readAllText(t, NewReader(bytes.NewReader(data), Options{Year: 2026}))
			if err != nil {
				t.Fatal(err)
			}
			var positions []Position
			rd := NewReader(bytes.NewReader(data), Options{Year: 2026})
			for rec, err := rd.Next(); err == nil; rec, err = rd.Next() {
				positions = append(positions, rec.Pos)
			}
			for _, needle := range []string{`pod="`, "containerID", `"default/`, "no line holds this"} {
				match := func(text []byte) bool { return bytes.Contains(text, []byte(needle)) }
				var want []string
				for i, p := range positions {
					if bytes.Contains(data[p.Offset:p.Offset+int64(p.Length)], []byte(needle)) {
						want = append(want, all[i])
					}
				}
				opts := Options{Year: 2026, Match: match}
				got, _, err := readAllText(t, NewReader(bytes.NewReader(data), opts))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("%q: %d records, want %d of %d", needle, len(got), len(want), len(all))
				}
				// The same lines and, for klog, times; the records not
				// kept filtered.
				st, full := statsOf(data, opts), statsOf(data, Options{Year: 2026})
				if st.Lines != full.Lines || st.Records != int64(len(want)) || st.Records+st.Filtered != full.Records+full.Filtered {
					t.Errorf("%q: stats %+v, full parse %+v", needle, st, full)
				}
				if full.ByFormat["json"] == 0 && (!st.FirstTime.Equal(full.FirstTime) || !st.LastTime.Equal(full.LastTime)) {
					t.Errorf("%q: times %v-%v, full parse %v-%v", needle, st.FirstTime, st.LastTime, full.FirstTime, full.LastTime)
				}
				if len(want) > 0 {
					compareParallel(t, f, func() io.Reader { return bytes.NewReader(data) }, opts)
				}
			}
		})
	}
}

func statsOf(data []byte, opts Options) Stats {
	rd := NewReader(bytes.NewReader(data), opts)
	for _, err := rd.Next(); err == nil; _, err = rd.Next() {
	}
	return rd.Stats()
}

// TestReadRaws reads records of two sources, one compressed, asked for
// out of order and with an input that is not among them, and gets what
// ReadRaw gives for each, in the order asked.
func TestReadRaws(t *testing.T) {
	dir := filepath.Join("..", "testdata", "formats")
	srcs, errs := Discover([]string{filepath.Join(dir, "kubelet-gz.log.gz"), filepath.Join(dir, "klog-multiline.log")}, nil)
	if len(errs) > 0 || len(srcs) != 2 {
		t.Fatal(srcs, errs)
	}
	var positions []Position
	m := NewMultiReader(srcs, Options{Year: 2026})
	for rec, err := m.Next(); err == nil; rec, err = m.Next() {
		positions = append(positions, rec.Pos)
	}
	m.Close()
	if len(positions) < 6 {
		t.Fatalf("%d records", len(positions))
	}
	slices.Reverse(positions)
	positions = append(positions, Position{Input: "elsewhere.log", Length: 1})
	raws, rerrs := ReadRaws(srcs, positions)
	for i, p := range positions[:len(positions)-1] {
		k := slices.IndexFunc(srcs, func(s Source) bool { return s.Name == p.Input })
		want, err := ReadRaw(srcs[k], p)
		if err != nil || rerrs[i] != nil || !bytes.Equal(raws[i], want) {
			t.Fatalf("%s:%d: %q (%v), ReadRaw %q (%v)", p.Input, p.Line, raws[i], rerrs[i], want, err)
		}
	}
	if last := len(positions) - 1; rerrs[last] == nil || !strings.Contains(rerrs[last].Error(), "elsewhere.log: not among the inputs") {
		t.Errorf("unknown input: %q, %v", raws[last], rerrs[last])
	}
}
