package statuspatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// patchRef is the struct statusPatch decoded patches into with
// encoding/json; Decoder must read every patch exactly as
// json.Unmarshal reads it into this.
type patchRef struct {
	Metadata struct {
		UID string `json:"uid"`
	} `json:"metadata"`
	Status struct {
		Phase      string `json:"phase"`
		Reason     string `json:"reason"`
		Message    string `json:"message"`
		Conditions []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
		Init []cstatusRef `json:"initContainerStatuses"`
		Ctrs []cstatusRef `json:"containerStatuses"`
	} `json:"status"`
}

type cstatusRef struct {
	Name         string `json:"name"`
	ContainerID  string `json:"containerID"`
	Image        string `json:"image"`
	Ready        *bool  `json:"ready"`
	RestartCount *int   `json:"restartCount"`
	State        struct {
		Waiting *struct {
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"waiting"`
		Running *struct {
			StartedAt string `json:"startedAt"`
		} `json:"running"`
		Terminated *struct {
			ExitCode int    `json:"exitCode"`
			Reason   string `json:"reason"`
		} `json:"terminated"`
	} `json:"state"`
	LastState struct {
		Terminated *struct {
			ExitCode int    `json:"exitCode"`
			Reason   string `json:"reason"`
		} `json:"terminated"`
	} `json:"lastState"`
}

// docOf renders patchRef in Doc's form.
func docOf(r *patchRef) Doc {
	d := Doc{UID: r.Metadata.UID, Phase: r.Status.Phase, Reason: r.Status.Reason, Message: r.Status.Message}
	for _, c := range r.Status.Conditions {
		d.Conds = append(d.Conds, Cond{c.Type, c.Status})
	}
	conv := func(in []cstatusRef) []Container {
		var out []Container
		for _, r := range in {
			c := Container{Name: r.Name, ContainerID: r.ContainerID, Image: r.Image}
			if r.Ready != nil {
				c.Ready, c.HasReady = *r.Ready, true
			}
			if r.RestartCount != nil {
				c.RestartCount, c.HasRestartCount = *r.RestartCount, true
			}
			if w := r.State.Waiting; w != nil {
				c.Waiting, c.WaitingReason = true, w.Reason
			}
			if w := r.State.Running; w != nil {
				c.Running = true
			}
			if w := r.State.Terminated; w != nil {
				c.Terminated, c.ExitCode, c.TerminatedReason = true, w.ExitCode, w.Reason
			}
			if w := r.LastState.Terminated; w != nil {
				c.LastTerminated, c.LastExitCode, c.LastReason = true, w.ExitCode, w.Reason
			}
			out = append(out, c)
		}
		return out
	}
	d.Init, d.Ctrs = conv(r.Status.Init), conv(r.Status.Ctrs)
	return d
}

// normDoc makes empty slices nil so documents compare by content.
func normDoc(d Doc) Doc {
	if len(d.Conds) == 0 {
		d.Conds = nil
	}
	if len(d.Init) == 0 {
		d.Init = nil
	}
	if len(d.Ctrs) == 0 {
		d.Ctrs = nil
	}
	return d
}

// checkPatch decodes s both ways and fails on any difference; it reports
// whether the patch was accepted. The decoder reads s as JSON, and as klog
// writes it, quoted, from the record the parser makes of it (DecodeField).
func checkPatch(t *testing.T, d *Decoder, s string) bool {
	t.Helper()
	var ref patchRef
	err := json.Unmarshal([]byte(s), &ref)
	want := normDoc(docOf(&ref))
	kept, _ := patchRecords(t, strconv.Quote(s))
	if v, _ := kept.Field("patch"); v.Text() != s {
		t.Fatalf("patch %.200q: quoted and unquoted, %.200q", s, v.Text())
	}
	for _, quoted := range []bool{false, true} {
		var ok bool
		if quoted {
			ok = d.DecodeField(kept, "patch")
		} else {
			ok = d.decode(s)
		}
		if ok != (err == nil) {
			t.Fatalf("patch %.200q (quoted %v): decoder ok=%v, encoding/json error %v", s, quoted, ok, err)
		}
		if !ok {
			return false
		}
		if got := docCopy(d.doc); !reflect.DeepEqual(got, want) {
			t.Fatalf("patch %.200q (quoted %v):\n got %+v\nwant %+v", s, quoted, got, want)
		}
	}
	return true
}

// patchRecords parses a "Patch status for pod" line with the value q as
// written, by a reader that keeps the patch as written, if it may
// (Options.Quoted), and one that does not.
func patchRecords(t *testing.T, q string) (kept, plain *parser.Record) {
	t.Helper()
	line := `I1122 06:25:28.451801   12052 status_manager.go:1184] "Patch status for pod" pod="default/a" patch=` + q + "\n"
	read := func(quoted []string) *parser.Record {
		rec, err := parser.NewReader(strings.NewReader(line), parser.Options{Year: 2026, Quoted: quoted}).Next()
		if err != nil {
			t.Fatalf("%.200q: %v", line, err)
		}
		return rec
	}
	return read([]string{"patch"}), read(nil)
}

// docCopy is normDoc of a copy of doc, which the decoder reuses.
func docCopy(doc Doc) Doc {
	doc.Conds, doc.Init, doc.Ctrs = append([]Cond(nil), doc.Conds...), append([]Container(nil), doc.Init...), append([]Container(nil), doc.Ctrs...)
	return normDoc(doc)
}

// checkEscaped reads q, a patch value as a log could write it, from the
// records two readers make of it: DecodeField of the one that keeps it
// as written must read what decode reads of the other's unquoted text.
// It reports whether the value was kept.
func checkEscaped(t *testing.T, d *Decoder, q string) bool {
	t.Helper()
	kept, plain := patchRecords(t, q)
	ok := d.DecodeField(kept, "patch")
	got := docCopy(d.doc)
	if want := d.decode(plain.Str("patch")); ok != want {
		t.Fatalf("value %.200q: kept ok=%v, unquoted %v", q, ok, want)
	}
	if want := docCopy(d.doc); ok && !reflect.DeepEqual(got, want) {
		t.Fatalf("value %.200q:\n got %+v\nwant %+v", q, got, want)
	}
	v, _ := kept.Field("patch")
	return v.Kind == parser.KindQuoted
}

// corpus holds the real kubelet logs whose patches the tests read.
const corpus = "../../testdata/corpus"

// corpusPatches returns the patch of every "Patch status for pod" record
// of the corpus, as the parser hands it to the engine.
func corpusPatches(t testing.TB) []string {
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: f, Year: 2026})
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			if rec.Msg == "Patch status for pod" {
				out = append(out, rec.Str("patch"))
			}
		}
	}
	return out
}

func TestStatusPatchCorpusMatchesJSON(t *testing.T) {
	var d Decoder
	patches := corpusPatches(t)
	if len(patches) < 100 {
		t.Fatalf("%d patches in the corpus; want the hundreds it holds", len(patches))
	}
	accepted, withIDs := 0, 0
	for _, p := range patches {
		if checkPatch(t, &d, p) {
			accepted++
			for _, c := range d.doc.Ctrs {
				if c.ContainerID != "" {
					withIDs++
				}
			}
		}
	}
	if accepted != len(patches) || withIDs == 0 {
		t.Errorf("%d of %d corpus patches accepted, %d container statuses with IDs; want all, and IDs", accepted, len(patches), withIDs)
	}
}

// hostilePatches are patches no kubelet writes, each at an edge of
// encoding/json's behaviour.
var hostilePatches = []string{
	``, ` `, `null`, ` null `, `nul`, `{}`, `[]`, `"x"`, `5`, `true`, `{`, `}`, `{}x`, `{} {}`, "{}\f",
	`{"metadata":null,"status":null}`, `{"metadata":5}`, `{"metadata":[]}`, `{"metadata":{"uid":5}}`, `{"metadata":{"uid":null}}`,
	`{"METADATA":{"UID":"u1"}}`, `{"Status":{"Phase":"Running"}}`,
	`{"ſtatus":{"phaſe":"Running","containerStatuſes":[{"name":"a","ſtate":{"waiting":{"reaſon":"r","meſſage":"m"}}}]}}`,
	"{\"status\":{\"phase\":\"K\u212a\"}}", "{\"\u212aey\":1}",
	`{"st\u0061tus":{"phase":"esc"}}`, `{"status":{"phase":"\ud83d\ude00 \ud800 \ud800\u0041 \udc00\ud800 \u00e9 \/ \b\f\n\r\t \" \\"}}`,
	"{\"status\":{\"phase\":\"\xff\xfe ok \xc3\"}}", "{\"\xffstatus\":{}}", "{\"status\":{\"phase\":\"\x01\"}}",
	`{"status":{"phase":"\q"}}`, `{"status":{"phase":"\'"}}`, `{"status":{"phase":"\u12"}}`, `{"status":{"phase":"\u12g4"}}`, `{"status":{"phase":"abc`,
	`{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":1e}`, `{"a":1e+}`, `{"a":-0.5e-3}`, `{"a":.5}`, `{"a":+1}`, `{"a":tru}`, `{"a":truex}`, `{"a":nulll}`,
	`{"a":1,}`, `{,"a":1}`, `{"a" 1}`, `{"a":1 "b":2}`, `{"a":[1,]}`, `{"a":[,1]}`, `{"a":[1 2]}`, `{"a":[]}`, `{"a":{}}`, `{"a":[{}, [], "x", 1, true, null]}`,
	" \t\r\n{ \"status\" : { \"phase\" : \"ws\" } } \n",
	`{"status":{"conditions":{}}}`, `{"status":{"conditions":"x"}}`, `{"status":{"conditions":[5]}}`, `{"status":{"conditions":[null,{"type":"Ready","status":"True"}]}}`,
	`{"status":{"conditions":[{"type":"A"},{"type":"B"}],"conditions":[{"status":"x"}],"conditions":[{},{}]}}`,
	`{"status":{"conditions":[{"type":"A"}],"conditions":[],"conditions":[{}]}}`,
	`{"status":{"conditions":[{"type":"A"}],"conditions":null,"conditions":[{}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","ready":true}],"containerStatuses":[{"image":"i"}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","ready":true,"restartCount":3}],"containerStatuses":[{"ready":null,"restartCount":null}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","state":{"waiting":{"reason":"a"},"waiting":null,"waiting":{}}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","state":{"waiting":{"reason":"a"},"waiting":{"message":"m"},"running":{},"terminated":{"exitCode":1,"reason":"Error"},"terminated":{"exitCode":null}}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":2},"terminated":null,"terminated":{"reason":"r"}}}]}}`,
	`{"status":{"initContainerStatuses":[{"name":"i","containerID":"containerd://abc","state":{"terminated":{"exitCode":0,"reason":"Completed"}}}],"initContainerStatuses":[{"state":null}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","ready":"true"}]}}`, `{"status":{"containerStatuses":[{"name":"a","ready":1}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","restartCount":1.5}]}}`, `{"status":{"containerStatuses":[{"name":"a","restartCount":1e2}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","restartCount":-0}]}}`, `{"status":{"containerStatuses":[{"name":"a","restartCount":99999999999999999999}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","restartCount":"1"}]}}`, `{"status":{"containerStatuses":[{"name":5}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","state":[]}]}}`, `{"status":{"containerStatuses":[{"name":"a","state":{"waiting":5}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","state":{"running":{"startedAt":5}}}]}}`, `{"status":{"containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":"0"}}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":-9223372036854775808}}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","unknown":{"deep":[[{"x":null}]]}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled"},"running":{}},"lastState":null}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","lastState":{"terminated":{"exitCode":1},"terminated":null,"terminated":{"reason":"r"}}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","lastState":{"terminated":{"exitCode":1}},"lastState":{"terminated":{"reason":"Error"}}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","lastState":[]}]}}`, `{"status":{"containerStatuses":[{"name":"a","lastState":{"terminated":{"exitCode":"1"}}}]}}`,
	`{"status":{"containerStatuses":[{"name":"a","state":{"waiting":{"reason":"ErrImagePull","message":"\"quoted\""}}}],"phase":"Pending"},"status":{"phase":"Failed"}}`,
	`{"metadata":{"uid":"11111111-1111-1111-1111-111111111111"},"metadata":{"uid":null}}`,
	`{"status":{"phase":"Failed","reason":"Evicted","message":"The node was low on resource: memory. Threshold quantity: 100Mi, available: 1Ki."}}`,
	`{"status":{"reason":"Evicted","reason":null,"Message":"m","MESSAGE":"n","message":5}}`, `{"status":{"reason":["x"]}}`,
	`{"status":{"message":"\u00e9 \"low\" \\ on resource: memory","reason":""}}`,
	deep(9998), deep(9999), deep(10000), deep(10001),
}

// deep nests n arrays under a key the engine does not read.
func deep(n int) string {
	return `{"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`
}

func TestStatusPatchHostileMatchesJSON(t *testing.T) {
	var d Decoder
	accepted := 0
	for _, p := range hostilePatches {
		if checkPatch(t, &d, p) {
			accepted++
		}
	}
	// Both outcomes are exercised: the edges are on either side.
	if accepted < 20 || len(hostilePatches)-accepted < 20 {
		t.Errorf("%d of %d hostile patches accepted; want many of each", accepted, len(hostilePatches))
	}
}

// The decoder reuses its slices: a patch must not see the one before.
func TestStatusPatchDecoderForgets(t *testing.T) {
	var d Decoder
	for _, p := range []string{
		`{"status":{"conditions":[{"type":"A","status":"x"},{"type":"B"}],"containerStatuses":[{"name":"a","ready":true,"restartCount":2,"state":{"waiting":{"reason":"r"}}}]}}`,
		`{"status":{"conditions":[{}],"containerStatuses":[{}],"conditions":[{},{}]}}`,
		`{"status":{"containerStatuses":[{"state":{}}, {}]}}`,
	} {
		checkPatch(t, &d, p)
	}
}

func FuzzStatusPatch(f *testing.F) {
	for _, p := range hostilePatches {
		f.Add(p)
	}
	for i, p := range corpusPatches(f) {
		if i%25 == 0 {
			f.Add(p)
		}
	}
	var d Decoder
	f.Fuzz(func(t *testing.T, s string) {
		checkPatch(t, &d, s)
		// s as the escaped text itself: klog's quoting, or what a log
		// could hold in its place.
		checkEscaped(t, &d, `"`+s+`"`)
	})
}

// The engine reads the patches of the corpus as the parser keeps them
// (Options.Quoted), escaped: each reads as its unquoted text does, and
// every one is read in the escaped form, not unquoted again.
func TestStatusPatchQuotedCorpus(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	var d, ref Decoder
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		kept := parser.NewReader(bytes.NewReader(data), parser.Options{Name: f, Year: 2026, Quoted: []string{"patch"}})
		plain := parser.NewReader(bytes.NewReader(data), parser.Options{Name: f, Year: 2026})
		for {
			rec, err := kept.Next()
			prec, perr := plain.Next()
			if (err == nil) != (perr == nil) {
				t.Fatalf("%s: %v with Quoted, %v without", f, err, perr)
			}
			if err != nil {
				break
			}
			if rec.Msg != "Patch status for pod" {
				continue
			}
			ok, want := d.DecodeField(rec, "patch"), ref.decode(prec.Str("patch"))
			if ok != want || !reflect.DeepEqual(docCopy(d.doc), docCopy(ref.doc)) {
				t.Fatalf("%s:%d: escaped ok=%v %+v\nunquoted ok=%v %+v", f, rec.Pos.Line, ok, d.doc, want, ref.doc)
			}
			v, _ := rec.Field("patch")
			// (The parser does not keep a patch with a JSON escape,
			// written \\ in the Go-quoted text, as in an image pull's
			// message.)
			if v.Kind == parser.KindQuoted {
				n++
				d.esc = true
				if !d.decode(v.Str[1 : len(v.Str)-1]) {
					t.Errorf("%s:%d: patch not read in its escaped form", f, rec.Pos.Line)
				}
				d.esc = false
			}
		}
	}
	if n < 100 {
		t.Errorf("%d patches kept quoted in the corpus; want the hundreds it holds", n)
	}
}

func TestStatusPatchEscapedEdges(t *testing.T) {
	var d Decoder
	kept := 0
	for _, q := range []string{
		`"{\"status\":{\"phase\":\"Running\"}}"`,
		`"{\"status\":{\"phase\":\"a\\\"b\"}}"`, // an escaped quote in a string: unquoted first
		`"{\"status\":{\"phase\":\"é\"}}"`,
		`"{\"status\":{\"phase\":\"\u00e9\"}}"`,
		`"{\"status\":{\"phase\":\"\xff\"}}"`,
		"\"{\\\"status\\\":{\\\"phase\\\":\\\"\xff\\\"}}\"",
		`"{\n\"status\":{}}"`, "\"{\n\\\"status\\\":{}}\"", "\"{\t\\\"status\\\":{}}\"",
		`"{"status":{}}"`, `"{\"status":{}}"`, `"{\"status\":{}}\"`, `"{\"status\":{}}\\"`,
		`"{\"metadata\":{\"uid\":\"u\"},\"status\":{\"containerStatuses\":[{\"name\":\"a\",\"state\":{\"waiting\":{\"reason\":\"r\",\"message\":\"m\"}}}]}}"`,
		`"{\"status\":{\"containerStatuses\":[{\"name\":\"a\",\"state\":{\"waiting\":{\"message\":5}}}]}}"`,
		`"{\"status\":{\"containerStatuses\":[{\"name\":\"a\",\"state\":{\"waiting\":{\"message\":"m"}}}]}}"`,
		`"{\"x\":[\"a\",{\"b\":\"c\"}],\"status\":{\"phase\":\"P\"}}"`, `"{\"x\":[\"a\",{\"b\":"c"}]}"`,
		`"{\"STATUS\":{\"Phase\":\"P\"}}"`, `"{\"ſtatus\":{\"phase\":\"P\"}}"`,
		`"null"`, `""`, `"`, `"\"`, `x`,
	} {
		if checkEscaped(t, &d, q) {
			kept++
		}
	}
	if kept < 8 {
		t.Errorf("%d values kept as written; want most", kept)
	}
}

func BenchmarkStatusPatch(b *testing.B) {
	patches := corpusPatches(b)
	var d Decoder
	size := 0
	for _, p := range patches {
		size += len(p)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range patches {
			if !d.decode(p) {
				b.Fatal(fmt.Sprintf("%.100q", p))
			}
		}
	}
}

// BenchmarkStatusPatchQuoted is BenchmarkStatusPatch for the records the
// engine's readers make (parser.Options.Quoted): patches kept as written,
// read escaped (DecodeField).
func BenchmarkStatusPatchQuoted(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(corpus, "*", "*.log"))
	var recs []*parser.Record
	size := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: f, Year: 2026, Quoted: []string{"patch"}})
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			if rec.Msg == "Patch status for pod" {
				c := *rec // (the reader reuses its record)
				c.Fields = append([]parser.Field(nil), rec.Fields...)
				recs = append(recs, &c)
				size += len(rec.Str("patch"))
			}
		}
	}
	var d Decoder
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, rec := range recs {
			if !d.DecodeField(rec, "patch") {
				b.Fatal(rec.Pos)
			}
		}
	}
}

// special8's and stop8's lowest flag is the first byte their table
// (strPlain, strStop) marks as special, whatever the bytes above it:
// every byte value at every position, over plain and random neighbours.
func TestSpecial8FindsFirstSpecialByte(t *testing.T) {
	for _, c := range []struct {
		name    string
		flags   func(uint64) uint64
		special func(byte) bool
	}{
		{"special8", special8, func(c byte) bool { return !strPlain[c] }},
		{"stop8", stop8, func(c byte) bool { return strStop[c] }},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			first := func(w [8]byte) int {
				for i, b := range w {
					if c.special(b) {
						return i
					}
				}
				return 8
			}
			check := func(w [8]byte) {
				got := 8
				if m := c.flags(load8(string(w[:]), 0)); m != 0 {
					got = bits.TrailingZeros64(m) >> 3
				}
				if want := first(w); got != want {
					t.Fatalf("%s(%q): first special byte %d, want %d", c.name, w, got, want)
				}
			}
			for pos := 0; pos < 8; pos++ {
				for b := 0; b < 256; b++ {
					w := [8]byte{'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}
					w[pos] = byte(b)
					check(w)
					for range 20 {
						for i := range w {
							if i != pos {
								w[i] = byte(rng.Uint32())
							}
						}
						check(w)
					}
				}
			}
		})
	}
}

// TestStatusPatchFieldFirstOfName: of two fields named patch, DecodeField
// reads the first, as rec.Str does, whether or not a later one was kept as
// written.
func TestStatusPatchFieldFirstOfName(t *testing.T) {
	rec := &parser.Record{Fields: []parser.Field{
		{Key: "patch", Value: parser.Value{Kind: parser.KindString, Str: `{"status":{"phase":"Running"}}`}},
		{Key: "patch", Value: parser.Value{Kind: parser.KindQuoted, Str: strconv.Quote(`{"status":{"phase":"Failed"}}`)}},
	}}
	var d Decoder
	if !d.DecodeField(rec, "patch") || d.doc.Phase != "Running" {
		t.Errorf("phase %q, want the first field's Running", d.doc.Phase)
	}
	rec.Fields[0], rec.Fields[1] = rec.Fields[1], rec.Fields[0]
	if !d.DecodeField(rec, "patch") || d.doc.Phase != "Failed" {
		t.Errorf("phase %q, want the first field's Failed", d.doc.Phase)
	}
}
