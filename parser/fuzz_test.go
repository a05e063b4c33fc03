package parser

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// fuzzCheck reads data to the end and checks the invariants every input
// must keep: no panic, no error from an in-memory reader, positions inside
// the input, raw text at each position, and every line and byte accounted.
func fuzzCheck(t *testing.T, data []byte) {
	for _, want := range []func([]byte) bool{nil, func(m []byte) bool { return len(m)%2 == 0 }} {
		rd := NewReader(bytes.NewReader(data), Options{Year: 2026, Want: want, MaxLineBytes: 4096})
		for {
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			p := rec.Pos
			if p.Lines < 1 || p.Line < 1 || p.Offset < 0 || p.Length < 0 || p.Offset+int64(p.Length) > int64(len(data)) {
				t.Fatalf("bad position %+v for %d bytes", p, len(data))
			}
			if rec.Format == FormatUnknown {
				t.Fatalf("record of unknown format: %+v", rec)
			}
		}
		st := rd.Stats()
		if !st.Accounted() {
			t.Fatalf("not accounted: %+v", st)
		}
		if st.Bytes != int64(len(data)) {
			t.Fatalf("bytes = %d, want %d", st.Bytes, len(data))
		}
		lines := int64(bytes.Count(data, []byte("\n")))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			lines++
		}
		if st.Lines != lines {
			t.Fatalf("lines = %d, want %d", st.Lines, lines)
		}
	}
	// With Match, the records kept are records of the full parse,
	// unchanged, and the lines of the others are filtered or
	// continuations (as with Want, a record declined before it is decoded
	// counts so even when it would not have decoded: its lines would then
	// be unrecognized).
	//
	// The records of one export value salvaged line by line share its
	// position (the seed 321fff42508cc975: a Cloud Logging array with NULs
	// in it), so a position stands for the records the full parse gave it.
	full := map[Position][]string{}
	all, _, _ := readAllText(t, NewReader(bytes.NewReader(data), Options{Year: 2026, MaxLineBytes: 4096}))
	rd := NewReader(bytes.NewReader(data), Options{Year: 2026, MaxLineBytes: 4096})
	for i := 0; ; i++ {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		full[rec.Pos] = append(full[rec.Pos], all[i])
	}
	match := func(text []byte) bool { return bytes.Contains(text, []byte("o")) }
	rd = NewReader(bytes.NewReader(data), Options{Year: 2026, MaxLineBytes: 4096, Match: match})
	for {
		rec, err := rd.Next()
		if err != nil {
			break
		}
		if got := fmt.Sprintf("%+v", *rec); !slices.Contains(full[rec.Pos], got) {
			t.Fatalf("record kept by Match\n got %s\nwant one of %q", got, full[rec.Pos])
		}
	}
	st, whole := rd.Stats(), statsOf(data, Options{Year: 2026, MaxLineBytes: 4096})
	if !st.Accounted() || st.Lines != whole.Lines || st.Blank != whole.Blank || st.Annotations != whole.Annotations || st.Records > whole.Records {
		t.Fatalf("with Match: %+v\nwithout: %+v", st, whole)
	}
}

// seedLines adds up to n lines of each file (and pairs of neighbours).
func seedLines(f *testing.F, n int, files ...string) {
	for _, file := range files {
		fh, err := os.Open(filepath.Join("..", "testdata", file))
		if err != nil {
			f.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 1<<20)
		var prev string
		for i := 0; i < n && sc.Scan(); i++ {
			f.Add([]byte(sc.Text() + "\n"))
			if prev != "" {
				f.Add([]byte(prev + "\n" + sc.Text()))
			}
			prev = sc.Text()
		}
		fh.Close()
	}
}

func seedFile(f *testing.F, files ...string) {
	for _, file := range files {
		b, err := os.ReadFile(filepath.Join("..", "testdata", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
}

func FuzzKlog(f *testing.F) {
	seedLines(f, 40, "formats/klog-1.2x.log", "formats/klog-multiline.log")
	for _, s := range []string{"I1122 06:03:25.000000 1 a.go:1] \"m\" k=", "E0101 00:00:00.000000 9999999999 x] \"\\", "I1122 06:03:25.000000 1 a.go:1] \"m\" a=[{\"x\":[1,2]} b=&{A:1 B:{C:2}} c=map[a:1] d=<nil>"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}

func FuzzKlogLegacy(f *testing.F) {
	seedLines(f, 20, "formats/klog-legacy.log")
	seedFile(f, "formats/klog-legacy.log")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}

func FuzzJSON(f *testing.F) {
	seedLines(f, 20, "formats/json.log")
	f.Add([]byte(`{"ts":1e400,"msg":"x","pods":[{"name":"a"}],"err":null}`))
	f.Add([]byte(`{"ts":-1.5,"caller":"a","msg":"\u00e9\ud800","v":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}

func FuzzLogrus(f *testing.F) {
	seedLines(f, 20, "formats/containerd.log", "formats/crio.log", "formats/pasted/k0s-journal.log", "formats/pasted/k0s-markdown.log")
	f.Add([]byte(`time="2026-11-22T06:03:26+25:99" level=x msg= a="b\"c" =d e`))
	f.Add([]byte(`time="2024-07-08 08:46:26" level=info msg="E0708 08:46:26.112550    1814 a\_b.go:1\] \\"m\\" err=\\"x \\\\\\"y`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}

func FuzzJournald(f *testing.F) {
	seedLines(f, 10, "formats/journald-short.log", "formats/journald-short-iso.log", "formats/journald-short-iso-precise.log",
		"formats/journald-short-precise.log", "formats/journald-idents.log", "formats/journald-de-rollover.log",
		"formats/journald-json.log")
	for _, m := range []string{"janv.", "déc.", "мар", "Dez", "dic"} {
		f.Add([]byte(m + " 22 06:03:25 h kubelet[1]: " + klogLine))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}

func FuzzMultiline(f *testing.F) {
	seedFile(f, "formats/klog-multiline.log", "formats/journald-short.log", "formats/hard-wrapped-80.log",
		"formats/pasted-quote.log", "formats/grep-nH.log", "formats/grep-n.log", "formats/annotations.log", "formats/crlf.log")
	f.Add([]byte(strings.Repeat("> ", 10) + klogLine + "\n>\n> \t x\n"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}

// FuzzInput runs bytes through what opens a file (decompression and the
// text check) and the Reader: damaged gzip and zstd streams, UTF-16 and
// binary data. Nothing may panic or hang, a refusal says why, and what is
// read is accounted for.
func FuzzInput(f *testing.F) {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "formats", "klog-multiline.log"))
	if err != nil {
		f.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(b)
	zw.Close()
	var zs bytes.Buffer
	ze, _ := zstd.NewWriter(&zs)
	ze.Write(b)
	ze.Close()
	f.Add(b)
	f.Add(gz.Bytes())
	f.Add(gz.Bytes()[:gz.Len()/2])
	f.Add(zs.Bytes())
	f.Add(zs.Bytes()[:zs.Len()/2])
	f.Add(append([]byte{0xff, 0xfe}, []byte("I\x001\x00")...))
	f.Add([]byte("LPKSHHRH\x00\x00"))
	f.Add(append(make([]byte, 100), b...))
	f.Fuzz(func(t *testing.T, data []byte) {
		rc, err := openText(io.NopCloser(bytes.NewReader(data)), "fuzz")
		if err != nil {
			var nt *NotTextError
			if !errors.As(err, &nt) && !strings.Contains(err.Error(), "gzip") && !strings.Contains(err.Error(), "zstd") {
				t.Fatalf("refused without a reason: %v", err)
			}
			return
		}
		defer rc.Close()
		rd := NewReader(rc, Options{Name: "fuzz", Year: 2026, MaxLineBytes: 4096})
		for {
			_, err := rd.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Input != "fuzz" {
					t.Fatalf("read error without a position: %v", err)
				}
				if _, err := rd.Next(); !errors.Is(err, io.EOF) {
					t.Fatalf("Next after the error: %v", err)
				}
				break
			}
		}
		if st := rd.Stats(); !st.Accounted() {
			t.Fatalf("not accounted: %+v", st)
		}
	})
}

// FuzzOverlap merges an input with a copy of its tail, as a rotation that
// copied too much leaves them: every record is returned or counted as a
// duplicate, and every line is accounted for.
func FuzzOverlap(f *testing.F) {
	for _, file := range []string{"formats/klog-1.2x.log", "formats/json.log", "formats/journald-short.log", "formats/containerd.log"} {
		b, err := os.ReadFile(filepath.Join("..", "testdata", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint16(len(b)/3))
	}
	f.Fuzz(func(t *testing.T, data []byte, at uint16) {
		cut := 0
		if len(data) > 0 {
			cut = int(at) % len(data)
			if nl := bytes.IndexByte(data[cut:], '\n'); nl >= 0 {
				cut += nl + 1
			} else {
				cut = len(data)
			}
		}
		dir := t.TempDir()
		a, b := filepath.Join(dir, "kubelet.log.1"), filepath.Join(dir, "kubelet.log")
		if os.WriteFile(a, data, 0o644) != nil || os.WriteFile(b, data[cut:], 0o644) != nil {
			t.Fatal("cannot write the inputs")
		}
		srcs, _ := Discover([]string{a, b}, nil)
		m := NewMultiReader(srcs, Options{Year: 2026, MaxLineBytes: 4096})
		defer m.Close()
		n := int64(0)
		for {
			if _, err := m.Next(); err != nil {
				break
			}
			n++
		}
		if len(m.Errors()) > 0 {
			return // refused as not text: nothing to merge
		}
		st := m.Stats()
		var read int64
		for _, ss := range m.SourceStats() {
			read += ss.Stats.Records + ss.Duplicates
			if !ss.Stats.Accounted() {
				t.Fatalf("%s not accounted: %+v", ss.Source.Name, ss.Stats)
			}
		}
		if st.Records != n || read != n+m.Duplicates() || !st.Accounted() {
			t.Fatalf("returned %d, stats %+v, %d duplicates", n, st, m.Duplicates())
		}
	})
}

// FuzzPasted covers the shapes people paste logs in and the exports of log
// stores: gutters, grep prefixes, markdown, backticks, syslog lines of any
// identifier and locale, systemctl status, lines cut short, newest-first
// order, zoned times, and JSON exports whole, cut or pretty-printed.
func FuzzPasted(f *testing.F) {
	seedFile(f, "formats/pasted/cat-n.log", "formats/pasted/nl.log", "formats/pasted/grep-n-space.log",
		"formats/pasted/grep-hn-path.log", "formats/pasted/md-quote-fence.log", "formats/pasted/md-fence-indent.log",
		"formats/pasted/md-backticks.log", "formats/pasted/md-bullets.log", "formats/syslog-any-ident.log",
		"formats/systemctl-status.log", "formats/terminal-cut-100.log", "formats/journald-reverse.log",
		"formats/zone-journald-cest.log", "formats/zone-watch-times.log",
		"formats/exports/cloud-logging.log", "formats/exports/cloud-logging-cut.log", "formats/exports/cloudwatch.log",
		"formats/exports/cloudwatch-fluentbit.log", "formats/exports/loki-jsonl.log", "formats/exports/loki-api.log",
		"formats/exports/elasticsearch.log", "formats/exports/docker-json.log", "formats/exports/node-prefix.log",
		"formats/pasted/cut-start.log", "formats/pasted/err-cut-256.log", "formats/pasted/k0s-markdown.log", "formats/pasted/pager-cut-200.log",
		"formats/pasted/indented-block.log")
	for _, s := range []string{
		"[{\"textPayload\":\"" + strings.ReplaceAll(klogLine, `"`, `\"`) + "\",\"timestamp\":\"2023-07-13T07:02:51Z\"},{\"log\":\"x\"}]",
		"  }\n]\n" + klogLine + "\n{\n",
		"n1: {\n  \"line\": \"I0713 07:02:51.865903 1 kubelet.go:1] \\\"a\\\" pod=\\\"d/x\",\n",
		"{\"values\":[[\"1689231771865903000\",\"" + strings.ReplaceAll(klogLine, `"`, `\"`) + "\"]]}\n",
		"● kubelet.service - x\n   Active: active since Tue 2019-03-12 09:14:02 CEST; 1s ago\n\n`" + klogLine[:60] + "…`\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}
