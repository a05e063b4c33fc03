package parser

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Captures people hand over are broken in the ways this file tests: cut,
// corrupt, re-encoded, rotated with overlaps, concatenated, stepped in
// time. Each case is built from a real kubelet log of the corpus.

const happyLog = "corpus/v1.36.3/01-happy-path.log"

func testdataBytes(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeTemp(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// merged reads paths (or stdin) through Discover and a MultiReader, as the
// commands do, and copies the records.
func merged(t *testing.T, paths []string, stdin io.Reader, opts Options) ([]Record, *MultiReader) {
	t.Helper()
	srcs, errs := Discover(paths, stdin)
	for _, err := range errs {
		t.Fatalf("discover: %v", err)
	}
	m := NewMultiReader(srcs, opts)
	t.Cleanup(func() { m.Close() })
	var out []Record
	for {
		rec, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		c := *rec
		c.Fields = append([]Field(nil), rec.Fields...)
		out = append(out, c)
	}
	return out, m
}

func utf16Bytes(s string, bigEndian, bom bool) []byte {
	u := utf16.Encode([]rune(s))
	var out []byte
	if bom {
		u = append([]uint16{0xfeff}, u...)
	}
	for _, c := range u {
		if bigEndian {
			out = append(out, byte(c>>8), byte(c))
		} else {
			out = append(out, byte(c), byte(c>>8))
		}
	}
	return out
}

func gzipBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func zstdBytes(t *testing.T, data []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw, err := zstd.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestNotTextRefused: inputs that are not UTF-8 text logs are refused with
// an error naming the file, what it is and the command that converts it,
// instead of being parsed into garbage records.
func TestNotTextRefused(t *testing.T) {
	text := string(testdataBytes(t, happyLog))
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 8192)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	tarHead := make([]byte, 1024)
	copy(tarHead, "kubelet.log")
	copy(tarHead[257:], "ustar\x0000")
	tests := []struct {
		name, file string
		data       []byte
		what, hint string
	}{
		{"UTF-16LE with BOM", "kubelet.log", utf16Bytes(text, false, true), "UTF-16LE text", "iconv -f UTF-16LE -t UTF-8 "},
		{"UTF-16BE with BOM", "kubelet.log", utf16Bytes(text, true, true), "UTF-16BE text", "iconv -f UTF-16BE -t UTF-8 "},
		{"UTF-16LE without BOM", "kubelet.log", utf16Bytes(text, false, false), "UTF-16LE text", "iconv -f UTF-16LE -t UTF-8 "},
		{"UTF-16BE without BOM", "kubelet.log", utf16Bytes(text, true, false), "UTF-16BE text", "iconv -f UTF-16BE -t UTF-8 "},
		{"UTF-16LE gzipped", "kubelet.log.gz", gzipBytes(t, utf16Bytes(text, false, true)), "UTF-16LE text", "iconv -f UTF-16LE -t UTF-8 "},
		{"UTF-32LE", "kubelet.log", append([]byte{0xff, 0xfe, 0, 0}, utf16Bytes(text[:100], false, false)...), "UTF-32LE text", "iconv -f UTF-32LE -t UTF-8 "},
		{"systemd journal", "system.journal", append([]byte("LPKSHHRH"), random...), "binary systemd journal", "journalctl --file "},
		{"xz", "kubelet.log.xz", append([]byte{0xfd, '7', 'z', 'X', 'Z', 0}, random...), "xz-compressed", "xz -dk "},
		{"bzip2", "kubelet.log.bz2", append([]byte("BZh9"), random...), "bzip2-compressed", "bunzip2 -k "},
		{"zip", "logs.zip", append([]byte("PK\x03\x04"), random...), "zip archive", "extract it"},
		{"tar", "must-gather.tar", tarHead, "tar archive", "tar xf"},
		{"random bytes", "kubelet.log", random, "binary data", "text log"},
		{"CR line ends", "kubelet.log", bytes.ReplaceAll([]byte(text), []byte("\n"), []byte("\r")), "text with CR line ends", `tr '\r' '\n' < `},
		{"ELF", "kubelet", append([]byte("\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00>\x00\x01\x00\x00\x00"), random[:512]...), "binary data", "text log"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), tt.file, tt.data)
			recs, m := merged(t, []string{path}, nil, Options{})
			errs := m.Errors()
			var nt *NotTextError
			if len(recs) != 0 || len(errs) != 1 || !errors.As(errs[0], &nt) || !errors.Is(errs[0], ErrNotText) {
				t.Fatalf("%d records, errors %v", len(recs), errs)
			}
			msg := errs[0].Error()
			if nt.Input != path || !strings.HasPrefix(msg, path+": ") || !strings.Contains(msg, tt.what) || !strings.Contains(msg, tt.hint) {
				t.Errorf("message %q: want %s, %q and %q", msg, path, tt.what, tt.hint)
			}
			if strings.Contains(tt.hint, "iconv") && !strings.Contains(msg, tt.hint+path) {
				t.Errorf("message %q does not say how to convert %s", msg, path)
			}
			if st := m.Stats(); st.Lines != 0 || st.Records != 0 {
				t.Errorf("parsed anyway: %+v", st)
			}
		})
	}

	t.Run("stdin", func(t *testing.T) {
		recs, m := merged(t, []string{"-"}, bytes.NewReader(utf16Bytes(text, false, true)), Options{})
		errs := m.Errors()
		if len(recs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "-: UTF-16LE text") ||
			!strings.Contains(errs[0].Error(), "iconv -f UTF-16LE -t UTF-8") {
			t.Errorf("%d records, errors %v", len(recs), errs)
		}
	})
}

// TestTextAccepted: what looks odd but is text is read, not refused.
func TestTextAccepted(t *testing.T) {
	text := testdataBytes(t, happyLog)
	want, _ := readRecords(t, bytes.NewReader(text), Options{Year: 2026})
	coloured := bytes.ReplaceAll(text, []byte(`"SyncLoop`), []byte("\x1b[32m\"SyncLoop"))
	latin1 := append([]byte("I1122 06:03:19.000000 1 a.go:1] \"caf\xe9 na\xefve\"\n"), text...)
	tests := []struct {
		name    string
		data    []byte
		records int
	}{
		{"plain", text, len(want)},
		{"ANSI colours", coloured, len(want)},
		{"Latin-1 bytes", latin1, len(want) + 1},
		{"NUL bytes in a line", append([]byte("I1122 06:03:19.000000 1 a.go:1] \"nul\" k=\"\x00\x00\"\n"), text...), len(want) + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "kubelet.log", tt.data)
			recs, m := merged(t, []string{path}, nil, Options{Year: 2026})
			if errs := m.Errors(); len(errs) != 0 || len(recs) != tt.records || !m.Stats().Accounted() {
				t.Errorf("%d records (want %d), errors %v, stats %+v", len(recs), tt.records, errs, m.Stats())
			}
		})
	}
}

// TestWalkSkipsNotText: a directory walk names what it skipped and why; a
// file named like a kubelet log is taken and refused with the reason.
func TestWalkSkipsNotText(t *testing.T) {
	dir := t.TempDir()
	text := string(testdataBytes(t, happyLog))
	writeTemp(t, dir, "notes.log", utf16Bytes(text, false, true))
	writeTemp(t, dir, "system.journal", append([]byte("LPKSHHRH"), make([]byte, 4096)...))
	kubelet := writeTemp(t, dir, "kubelet.log", utf16Bytes(text, true, false))
	srcs, skipped, errs := DiscoverReport([]string{dir}, nil)
	if len(errs) != 0 || len(srcs) != 1 || srcs[0].Path != kubelet {
		t.Fatalf("sources %v, errors %v", srcs, errs)
	}
	reasons := map[string]string{}
	for _, s := range skipped {
		reasons[filepath.Base(s.Path)] = s.Reason
	}
	if !strings.Contains(reasons["notes.log"], "UTF-16LE text") || !strings.Contains(reasons["system.journal"], "systemd journal") || len(reasons) != 2 {
		t.Errorf("skipped: %v", reasons)
	}
	m := NewMultiReader(srcs, Options{})
	if _, err := m.Next(); !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	if errs := m.Errors(); len(errs) != 1 || !strings.Contains(errs[0].Error(), kubelet+": UTF-16BE text") {
		t.Errorf("errors %v", errs)
	}
}

// decodeUntilError returns what a decoder yields of a damaged stream
// before it fails, and whether it failed.
func decodeUntilError(t *testing.T, kind string, data []byte) ([]byte, bool) {
	t.Helper()
	var r io.Reader
	switch kind {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			return nil, true
		}
		r = zr
	case "zstd":
		zr, err := zstd.NewReader(bytes.NewReader(data), zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, true
		}
		defer zr.Close()
		r = zr
	}
	// Through Read, as the parser reads: a decoder's WriteTo may hand out
	// a last block whose checksum Read would not let through.
	var out bytes.Buffer
	_, err := io.Copy(&out, struct{ io.Reader }{r})
	return out.Bytes(), err != nil
}

// TestCorruptCompressed: a cut or corrupt gzip or zstd stream gives every
// record the decompressor could deliver and one error naming the file, the
// line and byte where reading stopped, and what went wrong. Nothing hangs.
func TestCorruptCompressed(t *testing.T) {
	text := testdataBytes(t, happyLog)
	full, _ := readRecords(t, bytes.NewReader(text), Options{Year: 2026})
	gz, zs := gzipBytes(t, text), zstdBytes(t, text)
	flip := func(b []byte, at int) []byte {
		c := bytes.Clone(b)
		c[at] ^= 0x55
		return c
	}
	tests := []struct {
		name, kind string
		data       []byte
		errHas     string
	}{
		{"gzip cut in half", "gzip", gz[:len(gz)/2], "truncated or corrupt gzip stream"},
		{"gzip cut at 90%", "gzip", gz[:len(gz)*9/10], "truncated or corrupt gzip stream"},
		{"gzip header only", "gzip", gz[:10], "gzip"},
		{"gzip without its trailer", "gzip", gz[:len(gz)-4], "truncated or corrupt gzip stream"},
		{"gzip byte flipped mid-stream", "gzip", flip(gz, len(gz)/2), "truncated or corrupt gzip stream"},
		{"gzip checksum flipped", "gzip", flip(gz, len(gz)-6), "truncated or corrupt gzip stream"},
		{"gzip trailing garbage", "gzip", append(bytes.Clone(gz), "garbage after the stream"...), "truncated or corrupt gzip stream"},
		{"zstd cut in half", "zstd", zs[:len(zs)/2], "truncated or corrupt zstd stream"},
		{"zstd byte flipped mid-stream", "zstd", flip(zs, len(zs)/2), "truncated or corrupt zstd stream"},
		{"zstd checksum flipped", "zstd", flip(zs, len(zs)-2), "truncated or corrupt zstd stream"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			readable, failed := decodeUntilError(t, tt.kind, tt.data)
			if !failed {
				t.Fatal("the damaged stream decodes cleanly: not a test of damage")
			}
			ext := map[string]string{"gzip": ".gz", "zstd": ".zst"}[tt.kind]
			path := writeTemp(t, t.TempDir(), "kubelet.log"+ext, tt.data)
			recs, m := merged(t, []string{path}, nil, Options{Year: 2026})
			st := m.Stats()
			// Every byte the decompressor delivered was parsed, as it would be
			// from a plain file holding just those bytes.
			want, wantSt := readRecords(t, bytes.NewReader(readable), Options{Year: 2026})
			if st.Bytes != int64(len(readable)) || st.Lines != wantSt.Lines || len(recs) != len(want) || !st.Accounted() {
				t.Errorf("read %d bytes, %d lines, %d records; want %d, %d, %d (stats %+v)",
					st.Bytes, st.Lines, len(recs), len(readable), wantSt.Lines, len(want), st)
			}
			// gzip hands out all it decoded before it checks; zstd keeps the
			// block whose checksum fails (decodeUntilError reads the same).
			if tt.kind == "gzip" && (strings.Contains(tt.name, "trailing garbage") || strings.Contains(tt.name, "checksum") || strings.Contains(tt.name, "trailer")) {
				if len(recs) != len(full) {
					t.Errorf("%d records, want all %d", len(recs), len(full))
				}
			}
			errs := m.Errors()
			if len(errs) != 1 {
				t.Fatalf("errors %v", errs)
			}
			msg := errs[0].Error()
			if !strings.HasPrefix(msg, path+":") || !strings.Contains(msg, tt.errHas) {
				t.Errorf("error %q: want the file and %q", msg, tt.errHas)
			}
			var pe *ParseError
			if errors.As(errs[0], &pe) {
				if pe.Input != path || pe.Offset != int64(len(readable)) || pe.Line != int64(bytes.Count(readable, []byte("\n"))+1) {
					t.Errorf("error at line %d byte %d; want line %d byte %d", pe.Line, pe.Offset, bytes.Count(readable, []byte("\n"))+1, len(readable))
				}
			} else if len(readable) > 0 {
				t.Errorf("%T: want a *ParseError with the position", errs[0])
			}
		})
	}
}

// TestLineEndings: CRLF files, mixed endings and a missing final newline
// give the records of the clean file.
func TestLineEndings(t *testing.T) {
	for _, rel := range []string{happyLog, "formats/klog-multiline.log", "formats/json.log"} {
		lf := testdataBytes(t, rel)
		want, wantSt := readRecords(t, bytes.NewReader(lf), Options{Year: 2026})
		lines := bytes.Split(bytes.TrimSuffix(lf, []byte("\n")), []byte("\n"))
		var mixed bytes.Buffer
		for i, l := range lines {
			mixed.Write(l)
			if i%2 == 0 {
				mixed.WriteByte('\r')
			}
			mixed.WriteByte('\n')
		}
		tests := []struct {
			name  string
			data  []byte
			bytes int64
		}{
			{"CRLF", bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n")), wantSt.Bytes + wantSt.Lines},
			{"mixed CRLF and LF", mixed.Bytes(), wantSt.Bytes + (wantSt.Lines+1)/2},
			{"no final newline", bytes.TrimSuffix(lf, []byte("\n")), wantSt.Bytes - 1},
			{"CRLF, no final newline", bytes.TrimSuffix(bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n")), []byte("\r\n")), wantSt.Bytes + wantSt.Lines - 2},
		}
		for _, tt := range tests {
			t.Run(filepath.Base(rel)+"/"+tt.name, func(t *testing.T) {
				got, st := readRecords(t, bytes.NewReader(tt.data), Options{Year: 2026})
				if st.Lines != wantSt.Lines || st.Bytes != tt.bytes || st.Records != wantSt.Records || st.Unrecognized != wantSt.Unrecognized || !st.Accounted() {
					t.Fatalf("stats %+v\nwant lines %d bytes %d records %d", st, wantSt.Lines, tt.bytes, wantSt.Records)
				}
				for i := range want {
					g, w := got[i], want[i]
					if !g.Time.Equal(w.Time) || g.Msg != w.Msg || g.Err != w.Err || g.Pos.Line != w.Pos.Line || g.Pos.Lines != w.Pos.Lines || len(g.Fields) != len(w.Fields) {
						t.Fatalf("record %d: %+v\nwant %+v", i, g, w)
					}
					for k := range w.Fields {
						if g.Fields[k].Key != w.Fields[k].Key || g.Fields[k].Value.String() != w.Fields[k].Value.String() {
							t.Fatalf("record %d field %d: %+v, want %+v", i, k, g.Fields[k], w.Fields[k])
						}
					}
				}
			})
		}
	}
}

// recordStarts returns the line numbers where the records of data start.
func recordStarts(t *testing.T, data []byte) []int64 {
	recs, _ := readRecords(t, bytes.NewReader(data), Options{Year: 2026})
	var out []int64
	for _, r := range recs {
		out = append(out, r.Pos.Line)
	}
	return out
}

// linesOf returns lines [from, to) (1-based) of data, newline-terminated.
func linesOf(data []byte, from, to int64) []byte {
	lines := bytes.SplitAfter(data, []byte("\n"))
	return bytes.Join(lines[from-1:to-1], nil)
}

// TestOverlappingInputs: rotated files that share a span, the same file
// given twice, plain and compressed copies: every record comes back once,
// the copies are counted per source, and every line stays accounted for.
func TestOverlappingInputs(t *testing.T) {
	text := testdataBytes(t, happyLog)
	full, fullSt := readRecords(t, bytes.NewReader(text), Options{Year: 2026})
	starts := recordStarts(t, text)
	// kubelet.log.1 holds records [0, 60%), kubelet.log [40%, end): a
	// copytruncate rotation that copied what the live file still holds.
	a, b := starts[len(starts)*4/10], starts[len(starts)*6/10]
	older := linesOf(text, 1, b)
	newer := linesOf(text, a, fullSt.Lines+1)
	overlap := int64(len(starts)*6/10 - len(starts)*4/10)

	tests := []struct {
		name  string
		files map[string][]byte
		order []string // as given on the command line; nil: the directory
		lines int64    // over all inputs
		dups  []int64  // per source, in the order given
	}{
		{name: "rotated overlap", files: map[string][]byte{"kubelet.log.1": older, "kubelet.log": newer},
			lines: int64(bytes.Count(older, []byte("\n")) + bytes.Count(newer, []byte("\n"))), dups: []int64{0, overlap}},
		{name: "rotated overlap given newest first", files: map[string][]byte{"kubelet.log.1": older, "kubelet.log": newer},
			order: []string{"kubelet.log", "kubelet.log.1"}, lines: int64(bytes.Count(older, []byte("\n")) + bytes.Count(newer, []byte("\n"))), dups: []int64{0, overlap}},
		{name: "same file twice", files: map[string][]byte{"kubelet.log": text}, order: []string{"kubelet.log", "kubelet.log"},
			lines: 2 * fullSt.Lines, dups: []int64{0, int64(len(full))}},
		{name: "plain and gzip copy", files: map[string][]byte{"kubelet.log": text, "kubelet.log.gz": gzipBytes(t, text)},
			order: []string{"kubelet.log", "kubelet.log.gz"}, lines: 2 * fullSt.Lines, dups: []int64{0, int64(len(full))}},
		{name: "three copies", files: map[string][]byte{"a/kubelet.log": text, "b/kubelet.log.zst": zstdBytes(t, text)},
			order: []string{"a/kubelet.log", "b/kubelet.log.zst", "a/kubelet.log"}, lines: 3 * fullSt.Lines, dups: []int64{0, int64(len(full)), int64(len(full))}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range tt.files {
				writeTemp(t, dir, name, data)
			}
			paths := []string{dir}
			if tt.order != nil {
				paths = nil
				for _, n := range tt.order {
					paths = append(paths, filepath.Join(dir, n))
				}
			}
			lines := tt.lines
			recs, m := merged(t, paths, nil, Options{Year: 2026})
			if len(recs) != len(full) {
				t.Errorf("%d records, want the %d of the whole log", len(recs), len(full))
			}
			// The same records; the merge may order lines logged a few
			// milliseconds out of order differently from the file.
			count := map[string]int{}
			for _, r := range full {
				count[r.Time.String()+r.Msg]++
			}
			for _, r := range recs {
				if count[r.Time.String()+r.Msg]--; count[r.Time.String()+r.Msg] < 0 {
					t.Fatalf("record %s %q returned more often than the log has it", r.Time, r.Msg)
				}
			}
			var total int64
			for i, ss := range m.SourceStats() {
				if i < len(tt.dups) && ss.Duplicates != tt.dups[i] {
					t.Errorf("%s: %d duplicates, want %d", ss.Source.Name, ss.Duplicates, tt.dups[i])
				}
				if !ss.Stats.Accounted() {
					t.Errorf("%s: not accounted: %+v", ss.Source.Name, ss.Stats)
				}
				total += ss.Duplicates
			}
			st := m.Stats()
			if st.Lines != lines || st.Records != int64(len(full)) || st.Filtered != total || m.Duplicates() != total || !st.Accounted() {
				t.Errorf("stats %+v: want %d lines, %d records, %d duplicates as filtered", st, lines, len(full), total)
			}
			var notices int64
			for _, n := range m.Notices() {
				var nt *Notice
				if !errors.As(n, &nt) || nt.Kind != NoticeDuplicates || !strings.Contains(n.Error(), "repeat those of another input") {
					t.Errorf("notice %v", n)
					continue
				}
				notices += nt.Count
			}
			if notices != total || len(m.Errors()) != 0 {
				t.Errorf("notices count %d duplicates, want %d; errors %v", notices, total, m.Errors())
			}
		})
	}

	t.Run("with the engine's filter", func(t *testing.T) {
		want := func(msg []byte) bool { return bytes.Contains(msg, []byte("SyncLoop")) }
		wanted, _ := readRecords(t, bytes.NewReader(text), Options{Year: 2026, Want: want})
		dir := t.TempDir()
		writeTemp(t, dir, "kubelet.log.1", older)
		writeTemp(t, dir, "kubelet.log", newer)
		recs, m := merged(t, []string{dir}, nil, Options{Year: 2026, Want: want})
		if len(recs) != len(wanted) || m.Duplicates() == 0 || !m.Stats().Accounted() {
			t.Errorf("%d records, want %d; %d duplicates", len(recs), len(wanted), m.Duplicates())
		}
	})

	// The same lines on two nodes are two nodes' lines, not copies.
	t.Run("two nodes", func(t *testing.T) {
		dir := t.TempDir()
		writeTemp(t, dir, "nodes/node-a/kubelet.log", text)
		writeTemp(t, dir, "nodes/node-b/kubelet.log", text)
		recs, m := merged(t, []string{filepath.Join(dir, "nodes")}, nil, Options{Year: 2026})
		if len(recs) != 2*len(full) || m.Duplicates() != 0 || len(m.Notices()) != 0 {
			t.Errorf("%d records, want %d; %d duplicates", len(recs), 2*len(full), m.Duplicates())
		}
	})

	// A line the kubelet wrote twice in one file is kept twice.
	t.Run("repeats within a file", func(t *testing.T) {
		data := []byte(klogLine + "\n" + klogLine + "\n")
		dir := t.TempDir()
		p1 := writeTemp(t, dir, "kubelet.log", data)
		p2 := writeTemp(t, dir, "kubelet.log.gz", gzipBytes(t, data))
		recs, m := merged(t, []string{p1, p2}, nil, Options{Year: 2026})
		if len(recs) != 2 || m.Duplicates() != 2 {
			t.Errorf("%d records, %d duplicates; want 2 and 2", len(recs), m.Duplicates())
		}
	})
}

// TestTimeBackwards: a clock step or a DST change makes an input's times go
// backwards. Nothing is lost, each input keeps its own order, the merge
// places records by their times, and the step is reported.
func TestTimeBackwards(t *testing.T) {
	line := func(hms string, msg string) string {
		return "I1122 " + hms + ".000000 100 a.go:1] \"" + msg + "\"\n"
	}
	stepped := line("10:00:00", "a1") + line("10:00:01", "a2") + line("10:00:02", "a3") +
		line("09:00:00", "a4") + line("09:00:01", "a5") + line("10:00:03", "a6") +
		line("10:00:02", "a7") // 1s behind: concurrent goroutines, not a step
	other := line("09:30:00", "b1") + `I1122 10:00:02.500000 200 b.go:1] "b2"` + "\n"
	dir := t.TempDir()
	pa := writeTemp(t, dir, "node-a/kubelet.log", []byte(stepped))
	pb := writeTemp(t, dir, "node-b/kubelet.log", []byte(other))
	recs, m := merged(t, []string{pa, pb}, nil, Options{Year: 2026})
	var order []string
	for _, r := range recs {
		order = append(order, r.Msg)
	}
	if got, want := strings.Join(order, " "), "b1 a1 a2 a3 a4 a5 b2 a6 a7"; got != want {
		t.Errorf("order %s, want %s", got, want)
	}
	ss := m.SourceStats()
	if ss[0].Backwards != 2 || ss[1].Backwards != 0 {
		t.Errorf("backwards: %d and %d, want 2 and 0", ss[0].Backwards, ss[1].Backwards)
	}
	notices := m.Notices()
	var nt *Notice
	if len(notices) != 1 || !errors.As(notices[0], &nt) || nt.Kind != NoticeBackwards || nt.Count != 2 || nt.Input != pa {
		t.Fatalf("notices %v", notices)
	}
	for _, want := range []string{pa + ": time goes backwards 1 time, first at line 4", "2026-11-22T10:00:02Z -> 2026-11-22T09:00:00Z, 1h0m2s back", "2 records"} {
		if !strings.Contains(nt.Error(), want) {
			t.Errorf("notice %q lacks %q", nt.Error(), want)
		}
	}

	// Absolute times in other zones merge by the instant, with no notice.
	t.Run("zones", func(t *testing.T) {
		dir := t.TempDir()
		klog := writeTemp(t, dir, "kubelet.log", []byte(line("06:00:00", "k1")+line("06:00:02", "k2")))
		rt := writeTemp(t, dir, "containerd.log", []byte(
			`time="2026-11-22T07:00:01.000000000+01:00" level=info msg="c1"`+"\n"+
				`time="2026-11-22T01:00:03.000000000-05:00" level=info msg="c2"`+"\n"))
		recs, m := merged(t, []string{klog, rt}, nil, Options{Year: 2026})
		var order []string
		for _, r := range recs {
			order = append(order, r.Msg)
		}
		if got := strings.Join(order, " "); got != "k1 c1 k2 c2" || len(m.Notices()) != 0 {
			t.Errorf("order %s, notices %v", got, m.Notices())
		}
	})
}

// TestLineTooLongReported: a line cut at MaxLineBytes is an error naming
// the input, not a silent count.
func TestLineTooLongReported(t *testing.T) {
	long := `I1122 06:03:25.000000 1 a.go:1] "Status for pod updated successfully" status="` + strings.Repeat("x", 3<<20) + `"`
	path := writeTemp(t, t.TempDir(), "kubelet.log", []byte(long+"\n"+klogLine+"\n"+long+"\n"))
	recs, m := merged(t, []string{path}, nil, Options{Year: 2026, MaxLineBytes: 1 << 20})
	st := m.Stats()
	errs := m.Errors()
	if len(recs) != 3 || st.Truncated != 2 || !st.Accounted() || len(errs) != 1 || !errors.Is(errs[0], ErrLineTooLong) {
		t.Fatalf("%d records, stats %+v, errors %v", len(recs), st, errs)
	}
	if want := path + ": 2 lines longer than 1 MiB cut to their first 1 MiB"; !strings.HasPrefix(errs[0].Error(), want) {
		t.Errorf("error %q, want %q…", errs[0], want)
	}
	if recs[0].Msg != "Status for pod updated successfully" || recs[1].Msg != "SyncLoop ADD" {
		t.Errorf("messages %q, %q", recs[0].Msg, recs[1].Msg)
	}
}

// TestConcatenatedRuns: two kubelet runs in one file (a log collected
// across a restart) parse as the lines of both; the second run's start-up
// lines are records like any other (the engine counts the restart).
func TestConcatenatedRuns(t *testing.T) {
	first := testdataBytes(t, happyLog)
	second := testdataBytes(t, "corpus/v1.36.3/02-image-pull-failure.log")
	_, s1 := readRecords(t, bytes.NewReader(first), Options{Year: 2026})
	_, s2 := readRecords(t, bytes.NewReader(second), Options{Year: 2026})
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"in order", append(bytes.Clone(first), second...)},
		{"first without its final newline", append(bytes.TrimSuffix(bytes.Clone(first), []byte("\n")), append([]byte("\n"), second...)...)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTemp(t, t.TempDir(), "kubelet.log", tt.data)
			recs, m := merged(t, []string{path}, nil, Options{Year: 2026})
			st := m.Stats()
			if st.Lines != s1.Lines+s2.Lines || st.Records != s1.Records+s2.Records || int64(len(recs)) != st.Records || !st.Accounted() {
				t.Errorf("stats %+v, want %d lines %d records", st, s1.Lines+s2.Lines, s1.Records+s2.Records)
			}
			starts := 0
			for _, r := range recs {
				if r.Msg == "Kubelet version" {
					starts++
				}
			}
			if starts != 2 {
				t.Errorf("%d start-up records, want one per run", starts)
			}
			if len(m.Notices()) != 0 {
				t.Errorf("notices %v", m.Notices())
			}
		})
	}
	// The later run first: time goes backwards once, and it says so.
	t.Run("later run first", func(t *testing.T) {
		path := writeTemp(t, t.TempDir(), "kubelet.log", append(bytes.Clone(second), first...))
		recs, m := merged(t, []string{path}, nil, Options{Year: 2026})
		if int64(len(recs)) != s1.Records+s2.Records {
			t.Errorf("%d records, want %d", len(recs), s1.Records+s2.Records)
		}
		ss := m.SourceStats()[0]
		if ss.Backwards != s1.Records {
			t.Errorf("%d records behind, want the first run's %d", ss.Backwards, s1.Records)
		}
	})
}

// TestBrokenFixtures checks what testdata/broken/README.md promises.
func TestBrokenFixtures(t *testing.T) {
	root := filepath.Join("..", "testdata", "broken")
	srcs, skipped, errs := DiscoverReport([]string{root}, nil)
	if len(errs) != 0 || len(srcs) != 5 || len(skipped) != 1 {
		t.Fatalf("sources %v, skipped %v, errors %v", srcs, skipped, errs)
	}
	m := NewMultiReader(srcs, Options{Year: 2026})
	defer m.Close()
	n := 0
	for {
		if _, err := m.Next(); err != nil {
			break
		}
		n++
	}
	type want struct {
		lines, records, dups, backwards int64
		err                             string
	}
	wants := map[string]want{
		"clock-step/kubelet.log":        {lines: 317, records: 317, backwards: 106},
		"cut/kubelet.log.gz":            {lines: 201, records: 201, err: "cut/kubelet.log.gz:201 (byte 20990): truncated or corrupt gzip stream: unexpected EOF"},
		"rotated-overlap/kubelet.log.1": {lines: 206, records: 206},
		"rotated-overlap/kubelet.log":   {lines: 207, records: 111, dups: 96},
		"utf16/kubelet.log":             {err: "utf16/kubelet.log: UTF-16LE text, not a UTF-8 text log; convert it first: iconv -f UTF-16LE -t UTF-8 "},
	}
	for _, ss := range m.SourceStats() {
		rel, _ := filepath.Rel(root, ss.Source.Path)
		w, ok := wants[filepath.ToSlash(rel)]
		if !ok {
			t.Errorf("unexpected source %s", rel)
			continue
		}
		st := ss.Stats
		if st.Lines != w.lines || st.Records != w.records || ss.Duplicates != w.dups || ss.Backwards != w.backwards || !st.Accounted() {
			t.Errorf("%s: %d lines %d records %d duplicates %d backwards; want %+v", rel, st.Lines, st.Records, ss.Duplicates, ss.Backwards, w)
		}
		if (ss.Err == nil) != (w.err == "") || ss.Err != nil && !strings.Contains(ss.Err.Error(), w.err) {
			t.Errorf("%s: error %v, want %q", rel, ss.Err, w.err)
		}
	}
	if int64(n) != m.Stats().Records || len(m.Notices()) != 2 || len(m.Errors()) != 2 {
		t.Errorf("%d records; notices %v; errors %v", n, m.Notices(), m.Errors())
	}
}
