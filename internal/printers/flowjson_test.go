package printers

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// encodingJSON is what appendFlowJSON must write: encoding/json's Encoder
// with SetEscapeHTML(false), without its final newline.
func encodingJSON(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// checkFlowJSON fails t unless appendFlowJSON writes f as encoding/json
// does, after what dst already holds, or both fail.
func checkFlowJSON(t *testing.T, name string, f *timeline.Flow) {
	t.Helper()
	want, werr := encodingJSON(f)
	got, gerr := appendFlowJSON([]byte("prefix"), f)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("%s: encoding/json error %v, appendFlowJSON error %v", name, werr, gerr)
	}
	if werr != nil {
		return
	}
	if !bytes.HasPrefix(got, []byte("prefix")) {
		t.Fatalf("%s: what dst held was overwritten: %.20q", name, got)
	}
	if got = got[len("prefix"):]; !bytes.Equal(got, want) {
		at := 0
		for at < min(len(got), len(want)) && got[at] == want[at] {
			at++
		}
		t.Fatalf("%s: differs at byte %d\n got …%s\nwant …%s", name, at, got[max(0, at-80):min(len(got), at+80)], want[max(0, at-80):min(len(want), at+80)])
	}
	// Indented, as -o json's list writes its items (prefix: two levels).
	for _, prefix := range []string{"", "    "} {
		var ind bytes.Buffer
		enc := json.NewEncoder(&ind)
		enc.SetEscapeHTML(false)
		enc.SetIndent(prefix, "  ")
		if err := enc.Encode(f); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(ind.Bytes(), []byte("\n"))
		got, err := appendFlowJSONIndent([]byte("x"), f, prefix)
		if err != nil {
			t.Fatal(err)
		}
		if got = got[1:]; !bytes.Equal(got, want) {
			at := 0
			for at < min(len(got), len(want)) && got[at] == want[at] {
				at++
			}
			t.Fatalf("%s: indented at %q differs at byte %d\n got …%s\nwant …%s", name, prefix, at, got[max(0, at-80):min(len(got), at+80)], want[max(0, at-80):min(len(want), at+80)])
		}
	}
}

// corpusFlows builds the flows of one log as get pods does.
func corpusFlows(t *testing.T, path string) []timeline.Flow {
	t.Helper()
	srcs, errs := parser.Discover([]string{path}, nil)
	if len(errs) > 0 {
		t.Fatal(errors.Join(errs...))
	}
	b := timeline.NewBuilder(timeline.Options{})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: 2026, Want: b.Want, Rescue: b.Rescue(), Quoted: b.QuotedFields()})
	defer mr.Close()
	for {
		rec, err := mr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		b.Add(rec)
	}
	b.Inputs(mr.SourceStats())
	return b.Finish().Items
}

// TestFlowJSONCorpus: every flow of every real log encodes as
// encoding/json encodes it.
func TestFlowJSONCorpus(t *testing.T) {
	var logs []string
	for _, dir := range []string{"corpus", "wild"} {
		for _, pattern := range []string{"*.log", "*/*.log", "*/*/*.log"} {
			m, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, pattern))
			if err != nil {
				t.Fatal(err)
			}
			logs = append(logs, m...)
		}
	}
	if len(logs) < 200 {
		t.Fatalf("%d logs in testdata/corpus and testdata/wild", len(logs))
	}
	flows, direct := 0, 0
	for _, path := range logs {
		items := corpusFlows(t, path)
		for i := range items {
			checkFlowJSON(t, path+" "+items[i].Pod.Key(), &items[i])
			if checkFlowYAML(t, path+" "+items[i].Pod.Key(), &items[i]) {
				direct++
			}
		}
		flows += len(items)
	}
	if flows < 300 {
		t.Fatalf("%d flows in %d logs", flows, len(logs))
	}
	// The direct YAML is for the common flow, not only the odd one.
	if direct < flows*3/4 {
		t.Errorf("flowYAML wrote %d of %d flows", direct, flows)
	}
	t.Logf("%d flows in %d logs, %d written as YAML directly", flows, len(logs), direct)
}

var timeType = reflect.TypeFor[time.Time]()

// filler fills every field of a value by reflection with values that
// are not zero, so that no omitempty field is left out: strings taken in
// turn from texts, numbers counting up, times in a zone with nanoseconds,
// slices of two. emptySlices makes every slice empty instead (but not
// nil), nilSlices leaves slices and pointers nil.
type filler struct {
	texts       []string
	n           int64
	when        time.Time
	emptySlices bool
	nilSlices   bool
}

func (f *filler) fill(v reflect.Value) {
	switch {
	case v.Type() == timeType:
		f.n++
		v.Set(reflect.ValueOf(f.when.Add(time.Duration(f.n) * 1_234_567)))
		return
	}
	switch v.Kind() {
	case reflect.String:
		f.n++
		v.SetString(f.texts[uint64(f.n)%uint64(len(f.texts))])
	case reflect.Int, reflect.Int64, reflect.Int32:
		f.n++
		v.SetInt(f.n * 7_654_321)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		if f.nilSlices {
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		switch {
		case f.nilSlices:
		case f.emptySlices:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			s := reflect.MakeSlice(v.Type(), 2, 2)
			f.fill(s.Index(0))
			f.fill(s.Index(1))
			v.Set(s)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f.fill(v.Field(i))
		}
	default:
		panic("filler: no value for kind " + v.Kind().String() + " (" + v.Type().String() + "): teach the filler and appendFlowJSON")
	}
}

// hardTexts are strings that need escapes.
var hardTexts = []string{
	"plain", `say "hi" \ back`, "tab\tnl\ncr\r\b\f\x01\x1f\x7f", "<&> html", "café ☃ 😀",
	"bad\xffutf8\xc3", "ls\u2028ps\u2029", "\u00a0nbsp", "\x00nul", "\xed\xa0\x80 surrogate", "µs",
}

// TestFlowJSONEveryField fills every field of Flow and of what it holds
// and compares with encoding/json: a field added to the model and not to
// appendFlowJSON fails it (the filler panics on a kind it does not know).
func TestFlowJSONEveryField(t *testing.T) {
	zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+30*60), time.FixedZone("X", -7*3600)}
	tests := []struct {
		name string
		f    filler
	}{
		{"filled", filler{texts: hardTexts}},
		{"empty strings", filler{texts: []string{""}}},
		{"empty slices", filler{texts: hardTexts, emptySlices: true}},
		{"nil slices and pointers", filler{texts: hardTexts, nilSlices: true}},
	}
	for _, tt := range tests {
		for _, z := range zones {
			for _, when := range []time.Time{time.Date(2026, 11, 28, 20, 1, 2, 345_678_900, z), time.Date(2026, 1, 2, 3, 4, 5, 0, z)} {
				f := tt.f
				f.when = when
				var flow timeline.Flow
				f.fill(reflect.ValueOf(&flow).Elem())
				checkFlowJSON(t, tt.name+" "+when.String(), &flow)
				checkFlowYAML(t, tt.name+" "+when.String(), &flow)
			}
		}
	}
	// Text the YAML writer writes alone (plain, quoted, escaped on one
	// line): flowYAML must write every field of such a flow itself.
	for _, texts := range [][]string{
		{"plain", "it's", "a: b", "#x", "true", "12", "-", "café ☃", "", " lead", "1.5e3", "2026-11-28T20:01:02Z", "- x", "say \"hi\"", "a\tb", "null"},
		{"ecf6f2d3-1c06-4df3-afbe-57c57957b7f6", "0x1F", "~", "<<", "..."},
	} {
		f := filler{texts: texts, when: time.Date(2026, 11, 28, 20, 1, 2, 345_678_900, time.UTC)}
		var flow timeline.Flow
		f.fill(reflect.ValueOf(&flow).Elem())
		if !checkFlowYAML(t, "yaml texts", &flow) {
			t.Errorf("flowYAML gave up on %q", texts)
		}
	}
	checkFlowJSON(t, "zero", &timeline.Flow{})
	if !checkFlowYAML(t, "zero", &timeline.Flow{}) {
		t.Error("flowYAML gave up on the zero flow")
	}
	// Negative and odd durations, a zero LastTime (omitzero), a
	// count of zero.
	d := timeline.Duration(-1500 * time.Microsecond)
	odd := &timeline.Flow{Waited: -1, Duration: timeline.Duration(90 * time.Minute),
		Startup: &timeline.Startup{KubeletE2E: &d}, Events: []timeline.Event{{Count: 0}},
		Trouble: []timeline.Trouble{{Budget: 1}}, Containers: []timeline.Container{{Stages: []timeline.Stage{}}}}
	checkFlowJSON(t, "durations", odd)
	if !checkFlowYAML(t, "durations", odd) {
		t.Error("flowYAML gave up on odd durations")
	}
	// An empty startup object ({}), and a pod named like a YAML word, a
	// number and a timestamp, which the YAML writer quotes.
	words := &timeline.Flow{Pod: timeline.PodRef{Namespace: "true", Name: "0x1F"}, Node: "2026-11-28T20:01:02Z", Stage: "- x", Startup: &timeline.Startup{}}
	checkFlowJSON(t, "words", words)
	checkFlowYAML(t, "words", words)
}

// TestFlowJSONKeys: the keys appendFlowJSON writes for a flow with every
// field filled are the json names of every field of the model, no more,
// no fewer (so the filler cannot miss a field either).
func TestFlowJSONKeys(t *testing.T) {
	want := map[string]bool{}
	modelKeys(reflect.TypeFor[timeline.Flow](), "", want)
	f := filler{texts: hardTexts, when: time.Date(2026, 11, 28, 20, 1, 2, 3, time.UTC)}
	var flow timeline.Flow
	f.fill(reflect.ValueOf(&flow).Elem())
	b, err := appendFlowJSON(nil, &flow)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	got := map[string]bool{}
	writtenKeys(v, "", got)
	if len(want) < 60 {
		t.Fatalf("only %d fields in the model: %v", len(want), want)
	}
	for k := range want {
		if !got[k] {
			t.Errorf("%s: a field of the model appendFlowJSON does not write", k)
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("%s: written, but no field of the model", k)
		}
	}
}

// modelKeys adds the json paths of t's fields to keys: "stages[].id".
func modelKeys(t reflect.Type, at string, keys map[string]bool) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		if t.Kind() == reflect.Slice {
			at += "[]"
		}
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || t == timeType {
		return
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		p := at + "." + name
		keys[p] = true
		modelKeys(sf.Type, p, keys)
	}
}

// writtenKeys adds the paths of the keys of decoded JSON to keys.
func writtenKeys(v any, at string, keys map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			keys[at+"."+k] = true
			writtenKeys(x, at+"."+k, keys)
		}
	case []any:
		for _, x := range v {
			writtenKeys(x, at+"[]", keys)
		}
	}
}

// TestFlowJSONTimeErrors: a time RFC 3339 cannot hold fails as
// encoding/json fails, and the list encoders then return encoding/json's
// error.
func TestFlowJSONTimeErrors(t *testing.T) {
	for _, when := range []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600)),
	} {
		flows := []timeline.Flow{{End: when}, {Events: []timeline.Event{{LastTime: when}}}, {Stages: []timeline.Stage{{End: &when}}}}
		for i := range flows {
			if _, err := appendFlowJSON(nil, &flows[i]); err == nil {
				t.Errorf("%v: no error", when)
			}
			checkFlowJSON(t, when.String(), &flows[i])
			var c compactJSON
			_, err := c.encode(&flows[i])
			var me *json.MarshalerError
			if !errors.As(err, &me) {
				t.Errorf("%v: error %v, want encoding/json's", when, err)
			}
		}
		// The list writers stop on it with encoding/json's error.
		list := &timeline.FlowList{Items: flows}
		for name, print := range map[string]func(io.Writer, any) error{"json": PrintJSON, "yaml": PrintYAML} {
			var me *json.MarshalerError
			if err := print(io.Discard, list); !errors.As(err, &me) {
				t.Errorf("%v: -o %s error %v, want encoding/json's", when, name, err)
			}
		}
	}
}

// FuzzFlowJSON feeds strings, times and numbers into every field and
// compares with encoding/json.
func FuzzFlowJSON(f *testing.F) {
	for i, s := range hardTexts {
		f.Add(s, hardTexts[(i+1)%len(hardTexts)], int64(1_764_000_000+i), int64(i*123_456_789), 3600*i, int64(i)*1e9+7)
	}
	f.Add("", "", int64(-62_135_596_800), int64(0), 0, int64(0))
	f.Add("a", "b", int64(253_402_300_800), int64(1), 86400, int64(-1))
	f.Fuzz(func(t *testing.T, a, b string, sec, nsec int64, off int, n int64) {
		fl := filler{texts: []string{a, b, a + b}, n: n % (1 << 40), when: time.Unix(sec, nsec).In(time.FixedZone("", off%(100*3600)))}
		var flow timeline.Flow
		fl.fill(reflect.ValueOf(&flow).Elem())
		checkFlowJSON(t, "fuzz", &flow)
		checkFlowYAML(t, "fuzz", &flow)
		fl.nilSlices = true
		flow = timeline.Flow{}
		fl.fill(reflect.ValueOf(&flow).Elem())
		checkFlowJSON(t, "fuzz nil", &flow)
		checkFlowYAML(t, "fuzz nil", &flow)
	})
}

// checkFlowYAML fails t unless flowYAML writes f as the YAML writer
// writes f's JSON, when it writes it at all; it reports whether it did.
func checkFlowYAML(t *testing.T, name string, f *timeline.Flow) bool {
	t.Helper()
	js, err := encodingJSON(f)
	if err != nil {
		var y flowYAML
		if _, ok := y.appendFlowYAML(nil, f, 2); ok {
			t.Fatalf("%s: flowYAML wrote a flow encoding/json fails on (%v)", name, err)
		}
		return false
	}
	var want bytes.Buffer
	var iw yamlItemWriter
	if err := iw.writeJSON(&want, js); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var y flowYAML
	got, ok := y.appendFlowYAML([]byte("prefix"), f, 2)
	if !ok {
		if string(got) != "prefix" {
			t.Fatalf("%s: flowYAML gave up but returned %q", name, got)
		}
		return false
	}
	if got = got[len("prefix"):]; string(got) != want.String() {
		at := 0
		for at < min(len(got), want.Len()) && got[at] == want.Bytes()[at] {
			at++
		}
		t.Fatalf("%s: YAML differs at byte %d\n got …%s\nwant …%s", name, at, got[max(0, at-120):min(len(got), at+80)], want.Bytes()[max(0, at-120):min(want.Len(), at+80)])
	}
	return true
}
