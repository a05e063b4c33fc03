package parser

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
)

// compareQuoted reads data with the fields named in Options.Quoted kept as
// written, and without, and fails where they differ but for the kept
// values: a KindQuoted value must be a string the other read decoded, its
// Str the value as written (Raw), its Text, String and Record.Str the
// decoded text. It returns how many values were kept.
func compareQuoted(t *testing.T, data []byte, quoted []string, workers int) int {
	t.Helper()
	read := func(q []string) []Record {
		rd := NewReader(bytes.NewReader(data), Options{Year: 2026, Quoted: q, Workers: workers, ChunkBytes: 4096})
		var out []Record
		for {
			rec, err := rd.Next()
			if errors.Is(err, io.EOF) {
				return out
			}
			if err != nil {
				t.Fatalf("Next: %v", err)
			}
			out = append(out, *rec)
			out[len(out)-1].Fields = append([]Field(nil), rec.Fields...)
		}
	}
	want, got := read(nil), read(quoted)
	if len(got) != len(want) {
		t.Fatalf("%d records with Quoted, %d without", len(got), len(want))
	}
	kept := 0
	for i := range got {
		g, w := got[i], want[i]
		if len(g.Fields) != len(w.Fields) {
			t.Fatalf("record %d: %d fields with Quoted, %d without", i, len(g.Fields), len(w.Fields))
		}
		for j := range g.Fields {
			gf, wf := &g.Fields[j], &w.Fields[j]
			if gf.Value.Kind != KindQuoted {
				if !reflect.DeepEqual(gf, wf) {
					t.Fatalf("record %d field %d:\n got %#v\nwant %#v", i, j, gf, wf)
				}
				continue
			}
			kept++
			switch {
			case wf.Value.Kind != KindString:
				t.Fatalf("record %d: kept %q, decoded without Quoted as %v", i, gf.Key, wf.Value.Kind)
			case gf.Key != wf.Key || gf.Raw != wf.Raw || gf.Value.Str != gf.Raw:
				t.Fatalf("record %d: kept %q=%q raw %q; want %q raw %q", i, gf.Key, gf.Value.Str, gf.Raw, wf.Key, wf.Raw)
			case gf.Value.Text() != wf.Value.Str || gf.Value.String() != wf.Value.Str:
				t.Fatalf("record %d: %q unquoted as %q (String %q), want %q", i, gf.Raw, gf.Value.Text(), gf.Value.String(), wf.Value.Str)
			case !slicesContain(quoted, gf.Key):
				t.Fatalf("record %d: kept %q, not named in %q", i, gf.Key, quoted)
			}
		}
		for _, f := range g.Fields {
			if g.Str(f.Key) != w.Str(f.Key) {
				t.Fatalf("record %d: Str(%q) = %q, want %q", i, f.Key, g.Str(f.Key), w.Str(f.Key))
			}
		}
		g.Fields, w.Fields = nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("record %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	return kept
}

func slicesContain(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

func TestQuotedKeepsEscapedValuesAsWritten(t *testing.T) {
	const h = `I1122 06:03:25.000000 1 status_manager.go:1184] "Patch status for pod" `
	for _, c := range []struct {
		name string
		line string
		kept int // values kept as written
	}{
		{"patch", h + `pod="ns/a" patch="{\"metadata\":{\"uid\":\"u\"},\"status\":{\"phase\":\"Running\"}}" x=1`, 1},
		{"plain value is a substring already", h + `patch="{}" pod="ns/a"`, 0},
		{"empty", h + `patch="" pod="ns/a"`, 0},
		{"key not named", h + `other="{\"a\":1}"`, 0},
		// Only \" escapes, in ASCII text: any other is decoded.
		{"every escape", h + `patch="\a\b\f\n\r\t\v\\\" \x41 \u00e9 \U0001F600 \101" y=2`, 0},
		{"escape strconv rejects", h + `patch="a\qb\/c\"d\"efghijk" y=2`, 0},
		{"escaped backslash", h + `patch="{\"a\":\"b\\\"c\"}" y=2`, 0},
		{"non-ASCII", h + `patch="{\"a\":\"é\"}" y=2`, 0},
		{"invalid UTF-8", h + "patch=\"{\\\"a\\\":\\\"\xff\\\"}\" y=2", 0},
		{"control bytes", h + "patch=\"{\\\"a\\\":\t\\\"b\r\\\"}\" y=2", 1},
		{"short", h + `patch="\"1\"" y=2`, 1},
		{"quote at every offset", h + `patch="\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"\"ab" y=2`, 1},
		{"unclosed", h + `patch="{\"a\":1} y=2`, 0},
		{"ends in a backslash", h + `patch="\"\\`, 0},
		{"first of two", h + `patch="{\"a\":\"1\"}" patch="{\"a\":\"2\"}"`, 2},
		{"unquoted JSON", h + `patch={"a":"b\"c"}`, 0},
		{"multiline continuation", h + "patch=\"a\\\"b\"\n\tnext line", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.line + "\n" + c.line + "\n")
			for _, workers := range []int{1, 2} {
				if got := compareQuoted(t, data, []string{"patch", "absent"}, workers); got != 2*c.kept {
					t.Errorf("workers %d: %d values kept, want %d", workers, got, 2*c.kept)
				}
			}
		})
	}
}

// A reader that names no field keeps none: every kind is as before.
func TestQuotedOnlyNamedFields(t *testing.T) {
	line := `I1122 06:03:25.000000 1 a.go:1] "m" patch="{\"a\":1}"` + "\n"
	rec, err := NewReader(strings.NewReader(line), Options{Year: 2026}).Next()
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := rec.Field("patch"); v.Kind != KindString || v.Str != `{"a":1}` {
		t.Errorf("patch = %v %q, want a decoded string", v.Kind, v.Str)
	}
}

// FuzzKeptQuoted holds a reader that keeps every field as written, where it
// may, to one that keeps none: kept values decode to the same text, and
// all else is the same.
func FuzzKeptQuoted(f *testing.F) {
	seedLines(f, 40, "formats/klog-1.2x.log", "formats/klog-multiline.log")
	for _, s := range []string{
		`I1122 06:03:25.000000 1 a.go:1] "m" patch="{\"a\":\"\\\"x\"}" b="\u00e9\x41\q" c="\"`,
		"I1122 06:03:25.000000 1 a.go:1] \"m\" k=\"a\\\"\xff\"\n\tcont",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Every key of every record is named (once: the names are
		// looked through for each quoted value).
		rd := NewReader(bytes.NewReader(data), Options{Year: 2026})
		keys, seen := []string{}, map[string]bool{}
		for {
			rec, err := rd.Next()
			if err != nil {
				break
			}
			for _, f := range rec.Fields {
				if !seen[f.Key] {
					seen[f.Key] = true
					keys = append(keys, f.Key)
				}
			}
		}
		compareQuoted(t, data, keys, 1)
	})
}

// escapedEnd finds the end quotedEnd finds: every string of up to 20
// bytes of quotes, backslashes and a letter, at every start.
func TestEscapedEndMatchesQuotedEnd(t *testing.T) {
	alphabet := []byte{'"', '\\', 'a'}
	var rec func(b []byte)
	n := 0
	rec = func(b []byte) {
		if len(b) > 0 && b[0] == '"' {
			n++
			for _, pad := range []string{"", "abcdefg"} {
				s := pad + string(b)
				got, simple := escapedEnd(s, len(pad))
				if want := quotedEnd(s, len(pad)); got != want || got > 0 && simple != simpleRef(s[len(pad):got]) {
					t.Fatalf("escapedEnd(%q) = %d %v, want %d", s, got, simple, want)
				}
			}
		}
		if len(b) == 12 {
			return
		}
		for _, c := range alphabet {
			rec(append(b, c))
		}
	}
	rec(make([]byte, 0, 20))
	rng := rand.New(rand.NewPCG(3, 4))
	nsimple := 0
	for range 100000 {
		b := make([]byte, 1+rng.IntN(40))
		b[0] = '"'
		for i := 1; i < len(b); i++ {
			b[i] = alphabet[rng.IntN(3)]
			if rng.IntN(3) == 0 {
				b[i] = byte(rng.IntN(256))
			}
		}
		got, simple := escapedEnd(string(b), 0)
		if want := quotedEnd(string(b), 0); got != want || got > 0 && simple != simpleRef(string(b[:got])) {
			t.Fatalf("escapedEnd(%q) = %d %v, want %d", b, got, simple, want)
		}
		if simple {
			nsimple++
		}
	}
	if n < 100000 || nsimple < 1000 {
		t.Fatalf("%d strings tried, %d random ones simple", n, nsimple)
	}
}

// simpleRef reports whether the closed quoted string q is ASCII with no
// escape but \".
func simpleRef(q string) bool {
	for i := 1; i < len(q)-1; i++ {
		switch {
		case q[i] >= 0x80:
			return false
		case q[i] == '\\':
			if q[i+1] != '"' {
				return false
			}
			i++
		}
	}
	return true
}

func BenchmarkEscapedEnd(b *testing.B) {
	data, err := os.ReadFile("../testdata/corpus/v1.36.3/07-twenty-pods.log")
	if err != nil {
		b.Fatal(err)
	}
	var vals []string
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.Index(line, ` patch="`); i >= 0 {
			vals = append(vals, line[i+7:])
		}
	}
	size := 0
	for _, v := range vals {
		size += len(v)
	}
	b.SetBytes(int64(size))
	for _, fn := range []struct {
		name string
		f    func(string, int) int
	}{{"escapedEnd", func(s string, i int) int { e, _ := escapedEnd(s, i); return e }}, {"quotedEnd", quotedEnd[string]}} {
		b.Run(fn.name, func(b *testing.B) {
			for b.Loop() {
				for _, v := range vals {
					if fn.f(v, 0) < 0 {
						b.Fatal("not closed")
					}
				}
			}
		})
	}
}
