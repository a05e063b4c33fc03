package parser

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	seedLines(f, 20, "formats/containerd.log", "formats/crio.log")
	f.Add([]byte(`time="2026-11-22T06:03:26+25:99" level=x msg= a="b\"c" =d e`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzCheck(t, data) })
}

func FuzzJournald(f *testing.F) {
	seedLines(f, 10, "formats/journald-short.log", "formats/journald-short-iso.log", "formats/journald-short-iso-precise.log",
		"formats/journald-short-precise.log", "formats/journald-idents.log", "formats/journald-de-rollover.log")
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
