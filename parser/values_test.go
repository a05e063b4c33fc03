package parser

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unsafe"
)

// unquoteCases are quoted strings as klog, JSON and logrus write them, and
// the malformed ones a damaged or hostile line holds.
var unquoteCases = []struct{ in, want string }{
	{`""`, ""},
	{`"plain"`, "plain"},
	{`"a\"b"`, `a"b`},
	{`"a\\b"`, `a\b`},
	{`"tab\there"`, "tab\there"},
	{`"\n\r\t\a\b\f\v"`, "\n\r\t\a\b\f\v"},
	{`"\x41\x7f\xff"`, "A\x7f\xff"},
	{`"\101\000\377"`, "A\x00\xff"},
	{`"\u00e9t\u00e9"`, "été"},
	{`"\U0001F600"`, "😀"},
	{`"été"`, "été"},
	{`"été \"quoted\""`, `été "quoted"`},
	{`"{\"metadata\":{\"uid\":\"u\"},\"status\":{\"phase\":\"Running\"}}"`, `{"metadata":{"uid":"u"},"status":{"phase":"Running"}}`},
	// JSON's \/ is not Go: the whole string is decoded loosely.
	{`"a\/b\x41"`, `a/b\x41`},
	{`"\u00e9\/"`, "é/"},
	// What strconv rejects keeps its inner text, escapes decoded loosely.
	{`"\ud800"`, "\uFFFD"},
	{`"\q"`, `\q`},
	{`"\'"`, `\'`},
	{`"\400"`, `\400`},
	{`"\x4"`, `\x4`},
	{`"\u12"`, `\u12`},
	{`"end\"`, `end\`},
	{`"a"b"`, `a"b`},
	{`"a"b\n"`, "a\"b\n"},
	{"\"line\nbreak\"", "line\nbreak"},
	{"\"line\nbreak\\t\"", "line\nbreak\t"},
	// Invalid UTF-8: strconv writes U+FFFD, the loose path keeps the bytes.
	{"\"\xff\"", "\uFFFD"},
	{"\"\xff\\t\"", "\uFFFD\t"},
	{"\"\xff\\/\"", "\xff/"},
	// Not quoted at both ends: taken as it is, less the ends.
	{`x`, `x`},
	{`"`, `"`},
	{`ab`, ``},
	{`'a\tb'`, "a\tb"},
}

func TestUnquote(t *testing.T) {
	for _, c := range unquoteCases {
		if got := unquote(c.in); got != c.want {
			t.Errorf("unquote(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// checkQuoted checks that quoted gives at every quote of s what unquote
// gives for the string quotedEnd finds there.
func checkQuoted(t *testing.T, s string, sc *scratch) (got, want []string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		w, wantEnd := "", quotedEnd(s, i)
		if wantEnd > 0 {
			w = unquote(s[i:wantEnd])
		}
		g, end := quoted(s, i, sc)
		if g != w || end != wantEnd {
			t.Fatalf("quoted(%q, %d) = %q, %d; want %q, %d", s, i, g, end, w, wantEnd)
		}
		got, want = append(got, g), append(want, strings.Clone(w))
	}
	return got, want
}

// checkKept checks that strings made earlier still say what they said.
func checkKept(t *testing.T, got, want []string) {
	t.Helper()
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d changed after it was made: %q, was %q", i, got[i], want[i])
		}
	}
}

func TestQuoted(t *testing.T) {
	var sc scratch
	for _, c := range unquoteCases {
		// As a klog value: more key/value pairs follow.
		checkQuoted(t, c.in+` k="v\tw" x=1`, &sc)
		if len(c.in) > 1 && c.in[0] == '"' && quotedEnd(c.in, 0) == len(c.in) {
			if got, _ := quoted(c.in, 0, &sc); got != c.want {
				t.Errorf("quoted(%q) = %q, want %q", c.in, got, c.want)
			}
		}
	}
}

// FuzzQuoted checks quoted against quotedEnd and unquote (strconv).
func FuzzQuoted(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var sc scratch
		checkQuoted(t, s, &sc)
		checkQuoted(t, `"`+s+`"`, &sc)
		// In a Reader's text arena, as the strings of later records are
		// made in the same block, those made before stay as they were.
		text := scratch{text: &textArena{}}
		var got, want []string
		for _, q := range []string{s, `"` + s + `"`, s + s} {
			g, w := checkQuoted(t, q, &text)
			got, want = append(got, g...), append(want, w...)
			for i := 0; i < len(q); i++ {
				if e := quotedEnd(q, i); q[i] == '"' && e > 0 {
					got, want = append(got, quotedCopy(q[i:e], &text)), append(want, unquote(q[i:e]))
				}
			}
		}
		checkKept(t, got, want)
	})
}

// TestTextArena checks that the strings the text arena makes keep their
// bytes while it makes more, over many blocks; that a text longer than
// textMax is its own allocation; and that keep copies a text that grew out
// of the room it was given.
func TestTextArena(t *testing.T) {
	var a textArena
	var got, want []string
	src := bytes.Repeat([]byte("0123456789abcdef"), textBlock/8)
	for i := 0; i < 4*textBlock; i += 97 {
		b := src[:i%(textMax+64)]
		s := a.copy(b)
		if s != string(b) {
			t.Fatalf("copy of %d bytes = %q", len(b), s)
		}
		if in := inBlock(&a, s); in != (len(b) > 0 && len(b) <= textMax) {
			t.Fatalf("a text of %d bytes made in the block: %v", len(b), in)
		}
		got, want = append(got, s), append(want, string(b))
	}
	// More than the room given: appending reallocates, and keep copies.
	room := a.room(8)
	grown := append(room, src[:cap(room)-len(room)+1]...)
	s := a.keep(grown)
	grown[0] ^= 1
	if s != string(src[:len(grown)]) {
		t.Fatalf("keep of a text that left its room: %q", s)
	}
	got, want = append(got, s), append(want, string(src[:len(grown)]))
	checkKept(t, got, want)
}

// inBlock reports whether s lies in the arena's current block.
func inBlock(a *textArena, s string) bool {
	if len(s) == 0 || cap(a.blk) == 0 {
		return false
	}
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	base := uintptr(unsafe.Pointer(unsafe.SliceData(a.blk)))
	return p >= base && p < base+uintptr(cap(a.blk))
}

// BenchmarkQuoted decodes the Go-quoted JSON patch of a real "Patch status
// for pod" line, the longest quoted value kubelet writes at -v=4.
func BenchmarkQuoted(b *testing.B) {
	q := `"{\"metadata\":{\"uid\":\"ba83aee5-149e-f74d-9c45-393cecc90cfc\"},\"status\":{\"conditions\":[{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-22T06:25:26Z\",\"message\":\"containers with incomplete status: [init-config]\",\"observedGeneration\":1,\"reason\":\"ContainersNotInitialized\",\"status\":\"False\",\"type\":\"Initialized\"}],\"hostIP\":\"192.0.2.2\",\"startTime\":\"2026-11-22T06:25:26Z\"}}"`
	var sc scratch // a Reader's, used from record to record
	for _, c := range []struct {
		name string
		fn   func(string) string
	}{
		{"quoted", func(q string) string { s, _ := quoted(q, 0, &sc); return s }},
		{"strconv", func(q string) string { return unquote(q[:quotedEnd(q, 0)]) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(q)))
			b.ReportAllocs()
			for b.Loop() {
				c.fn(q)
			}
		})
	}
}

// quotedEndRef is quotedEnd byte by byte.
func quotedEndRef(b string, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// FuzzQuotedEnd checks quotedEnd, on strings and bytes, against
// quotedEndRef from every index of the input.
func FuzzQuotedEnd(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add(c.in + ` k="v\\" x="0123456789abcdef\"0123456789\\\\"`)
	}
	f.Add(`"0123456\\"01234567\"\\\"abcdefgh"`)
	f.Fuzz(func(t *testing.T, s string) {
		for i := 0; i < len(s); i++ {
			want := quotedEndRef(s, i)
			if got := quotedEnd(s, i); got != want {
				t.Fatalf("quotedEnd(%q, %d) = %d, want %d", s, i, got, want)
			}
			if got := quotedEnd([]byte(s), i); got != want {
				t.Fatalf("quotedEnd([]byte(%q), %d) = %d, want %d", s, i, got, want)
			}
		}
	})
}

// FuzzMsgEnd checks msgEnd against quotedEnd from every quote of the input.
func FuzzMsgEnd(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add(c.in + ` k="v\\" x`)
	}
	f.Add(`"\\\"\\"`)
	f.Add(`"a\" b\\\" c\\" d"`)
	f.Fuzz(func(t *testing.T, s string) {
		for i := 0; i < len(s); i++ {
			if s[i] != '"' {
				continue
			}
			if got, want := msgEnd([]byte(s), i), quotedEnd(s, i); got != want {
				t.Fatalf("msgEnd(%q, %d) = %d, quotedEnd gives %d", s, i, got, want)
			}
		}
	})
}

// scratchPayloads are klog payloads and JSON lines whose values nest,
// and parses that fail half way, leaving work in the scratch to drop.
var scratchPayloads = []string{
	` a={"x":{"y":[1,2,{"z":"\"q\""}]},"w":[],"e":{}} b={"bad":[1,2 c=[ns/a ns/b] d={"q":1}`,
	` status={"ID":"x","Resources":{"CPU":"0"},"Mounts":null} pods=[{"name":"a"},{"name":"b"}]`,
	` k=[{"a":[1,[2,[3 l={"m":{"n":` + "\n" + `1}}`,
	` k="a\"b" l="\u00e9\/" m={"s":"\x41","t":"\ud800"} n=[]`,
	` a=[[],[[1,2],[]],{},{"a":[{"b":{}}]}] b=[ 1 , 2 ] c={ } d=( e={"x":(1,2)} f=[1,[2,[3]],{"k":"v,w"}]`,
	`{"ts":1,"msg":"m","v":4,"pods":[{"name":"a","uid":"u"},{}],"err":null,"o":{"p":[[],[[]]]}}`,
	`{"ts":1,"msg":"m","pods":[{"name":"a","uid":`,
}

// decodeWith decodes p as a JSON record or a klog payload.
func decodeWith(p string, sc *scratch) any {
	if len(p) > 0 && p[0] == '{' {
		v, n, ok := parseJSON(p, 0, 0, sc)
		return []any{v, n, ok}
	}
	return parseKV(p, nil, sc)
}

// checkScratch checks that p decodes with a used scratch as with a fresh
// one, and that nothing is left in the scratch after.
func checkScratch(t *testing.T, p string, used *scratch) {
	t.Helper()
	got, want := decodeWith(p, used), decodeWith(p, &scratch{})
	if !reflect.DeepEqual(expandAny(got), expandAny(want)) {
		t.Fatalf("%q with a used scratch:\n%#v\nwith a fresh one:\n%#v", p, got, want)
	}
	if len(used.fields) != 0 || len(used.values) != 0 {
		t.Fatalf("%q left %d fields and %d values in the scratch", p, len(used.fields), len(used.values))
	}
	// A JSON klog value decodes as the same JSON alone.
	if fields, ok := got.([]Field); ok {
		for _, f := range fields {
			if f.Value.Kind != KindObject && f.Value.Kind != KindList {
				continue
			}
			if v, n, ok := parseJSON(f.Raw, 0, 0, &scratch{}); ok && n == len(f.Raw) && !reflect.DeepEqual(expand(v), expand(f.Value)) {
				t.Fatalf("%q: %s decoded as a klog value:\n%#v\nalone:\n%#v", p, f.Key, f.Value, v)
			}
		}
	}
}

// expand decodes the objects kept as text in v, all the way down, into
// the form the parser gave before it kept them so.
func expand(v Value) Value {
	if v.Kind == KindObject {
		m := v.Members()
		v.Str, v.Obj = "", nil
		if len(m) > 0 {
			v.Obj = make([]Field, len(m))
			for i, f := range m {
				f.Value = expand(f.Value)
				v.Obj[i] = f
			}
		}
	}
	if v.List != nil {
		l := make([]Value, len(v.List))
		for i, e := range v.List {
			l[i] = expand(e)
		}
		v.List = l
	}
	return v
}

func expandFields(fs []Field) []Field {
	if fs == nil {
		return nil
	}
	out := make([]Field, len(fs))
	for i, f := range fs {
		f.Value = expand(f.Value)
		out[i] = f
	}
	return out
}

// expandAny is expand on what decodeWith returns.
func expandAny(x any) any {
	switch x := x.(type) {
	case []Field:
		return expandFields(x)
	case []any:
		return []any{expand(x[0].(Value)), x[1], x[2]}
	}
	return x
}

// decodeEager decodes p as decodeWith does, with every object decoded at
// once: what the parser gave before it kept objects as text.
func decodeEager(p string) any {
	lim := newLimits(len(p), &scratch{})
	lim.eager = true
	if len(p) > 0 && p[0] == '{' {
		v, n, ok := parseJSONLim(p, 0, 0, lim)
		return []any{v, n, ok}
	}
	return parseKVLim(p, nil, lim)
}

// lazyPayloads add to scratchPayloads objects that test the members'
// decoding on demand: escaped, non-ASCII and repeated keys, spacing,
// values of every kind, and objects past the depth and value limits.
var lazyPayloads = []string{
	` status={"ID":"fakeRuntime://20f1","Name":"init-config","State":"exited","StartedAt":"2026-11-22T06:25:29.925362324Z","ExitCode":0,"Hash":3836990697,"Resources":{"CPURequest":"0"},"User":null,"Mounts":null,"Ok":true,"No":false}`,
	` o={ "a" : 1 , "b\u0041" : [ {"c" : "d"} , 2 ] , "é" : "e\"f" , "a" : 2 , "x\"y":{ } } p={"k":-1.5e3,"l":"\x41\/"}`,
	` o={"a":1,"b":} p={"a":1e999} q={"a":"` + "ÿ" + `"} r={"a" 1}`,
	` deep=` + strings.Repeat(`{"a":`, maxDepth+2) + `1` + strings.Repeat(`}`, maxDepth+2),
	` edge=` + strings.Repeat(`{"a":`, maxDepth-2) + `1` + strings.Repeat(`}`, maxDepth-2),
	` edge=` + strings.Repeat(`[`, maxDepth-3) + `{"a":{"b":1}}` + strings.Repeat(`]`, maxDepth-3),
	` many={"a":[` + strings.Repeat(`1,`, maxValues) + `1],"b":{"c":2}} after={"d":3}`,
	`{"ts":1,"msg":"m","pod":{"name":"p","namespace":"ns"},"node":{"name":"n"},"list":[{"a":{"b":{}}},{"c":[{"d":1}]}]}`,
}

// TestLazyObject checks that objects kept as text decode, in full (Members,
// String) and member by member (Get), as the parser decoded them at once.
func TestLazyObject(t *testing.T) {
	for _, p := range append(append([]string{}, scratchPayloads...), lazyPayloads...) {
		checkLazy(t, p)
	}
}

func FuzzLazyObject(f *testing.F) {
	for _, p := range append(append([]string{}, scratchPayloads...), lazyPayloads...) {
		f.Add(p)
	}
	f.Fuzz(checkLazy)
}

func checkLazy(t *testing.T, p string) {
	got, want := expandAny(decodeWith(p, &scratch{})), decodeEager(p)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q decoded on demand:\n%#v\nat once:\n%#v", p, got, want)
	}
	var lazy, eager []Value
	switch g := decodeWith(p, &scratch{}).(type) {
	case []Field:
		for i, f := range g {
			lazy, eager = append(lazy, f.Value), append(eager, want.([]Field)[i].Value)
		}
	case []any:
		lazy, eager = append(lazy, g[0].(Value)), append(eager, want.([]any)[0].(Value))
	}
	for i := range lazy {
		checkLazyValue(t, p, lazy[i], eager[i])
	}
}

// checkLazyValue compares l, as the parser keeps it, with e, decoded at
// once, through the accessors, all the way down: String, which renders
// the members of every level on demand, and then Get at every level.
// (Whole renderings are compared at the top only, and Get goes down each
// key once: a value nested 60 deep, as the fuzzer makes them, with keys
// "" (also looked up as a missing key) or twice the same, made the walk
// go down twice per level, and the fuzzer took that for a hang.)
func checkLazyValue(t *testing.T, p string, l, e Value) {
	t.Helper()
	if l.String() != e.String() {
		t.Fatalf("%q: String() %q on demand, %q at once", p, l.String(), e.String())
	}
	checkLazyGets(t, p, l, e)
}

// checkLazyGets is checkLazyValue's walk with Get.
func checkLazyGets(t *testing.T, p string, l, e Value) {
	t.Helper()
	if l.Kind != e.Kind {
		t.Fatalf("%q: kind %v on demand, %v at once", p, l.Kind, e.Kind)
	}
	switch e.Kind {
	case KindList:
		if len(l.List) != len(e.List) {
			t.Fatalf("%q: %d elements on demand, %d at once", p, len(l.List), len(e.List))
		}
		for i := range e.List {
			checkLazyGets(t, p, l.List[i], e.List[i])
		}
		return
	case KindObject:
	default:
		if !reflect.DeepEqual(l, e) {
			t.Fatalf("%q: %#v on demand, %#v at once", p, l, e)
		}
		return
	}
	seen := map[string]bool{}
	for _, f := range append(e.Obj[:len(e.Obj):len(e.Obj)], Field{Key: "missing"}, Field{Key: ""}) {
		if seen[f.Key] {
			continue
		}
		seen[f.Key] = true
		lv, lok := l.Get(f.Key)
		ev, eok := e.Get(f.Key)
		if lok != eok {
			t.Fatalf("%q: Get(%q) found %v on demand, %v at once", p, f.Key, lok, eok)
		}
		if lok {
			checkLazyGets(t, p, lv, ev)
		}
	}
}

func TestScratchReuse(t *testing.T) {
	var sc scratch
	for range 2 {
		for _, p := range scratchPayloads {
			checkScratch(t, p, &sc)
		}
	}
}

func FuzzScratchReuse(f *testing.F) {
	for _, p := range scratchPayloads {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		for _, sc := range []*scratch{{}, {text: &textArena{}}} {
			var kept []any
			var said []string
			for _, q := range scratchPayloads {
				v := decodeWith(q, sc)
				kept, said = append(kept, v), append(said, fmt.Sprintf("%#v", expandAny(v)))
			}
			checkScratch(t, p, sc)
			// What the used scratch made before is as it was.
			for i, v := range kept {
				if now := fmt.Sprintf("%#v", expandAny(v)); now != said[i] {
					t.Fatalf("%q changed after %q was decoded:\n%s\nwas\n%s", scratchPayloads[i], p, now, said[i])
				}
			}
		}
	})
}

// FuzzPlainLen checks plainLen against the byte table, from every offset.
func FuzzPlainLen(f *testing.F) {
	f.Add("abcdefgh\"ijklmnop\\qrstuvwx\nyz\xc3\xa9\x00\x01\x7f\x80\xff")
	f.Add("0123456789abcdef0123456789abcdef")
	f.Fuzz(func(t *testing.T, s string) {
		for i := 0; i <= len(s); i++ {
			want := 0
			for want < len(s)-i && plainByte[s[i+want]] {
				want++
			}
			if got := plainLen(s[i:]); got != want {
				t.Fatalf("plainLen(%q) = %d, want %d", s[i:], got, want)
			}
		}
	})
}

// FuzzKlogObjectEnd checks parseKlogValue's shortcut for JSON objects,
// whose end skipJSON finds without bracketEnd, against the match it
// saves: the same fields, and the limits left as they were.
func FuzzKlogObjectEnd(f *testing.F) {
	for _, p := range append(append([]string{}, scratchPayloads...), lazyPayloads...) {
		f.Add(p)
	}
	f.Add(` a={"x":1}) b={"y":(} c={"z":"(}"} d={"a":[1,2} e={ "f" : { } }`)
	f.Add(` k={"a":" k={"a":" k={"a":"`)
	f.Fuzz(func(t *testing.T, p string) {
		type result struct {
			Fields       []Field
			Scan, Values int
		}
		run := func(noGuess bool) result {
			lim := newLimits(len(p), &scratch{})
			lim.lazyTop, lim.noGuess = true, noGuess
			fs := parseKVLim(p, nil, lim)
			return result{fs, lim.scan, lim.values}
		}
		if got, want := run(false), run(true); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n%#v\nwithout the shortcut:\n%#v", p, got, want)
		}
	})
}

// junk sets every field of the struct v points to, recursively through
// embedded structs, to a value other than zero.
func junk(v reflect.Value) {
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString("junk")
		case reflect.Uint8:
			f.SetUint(7)
		case reflect.Float64:
			f.SetFloat(1.5)
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 1, 1))
		case reflect.Struct:
			junk(f)
		default:
			panic("junk: " + f.Kind().String())
		}
	}
}

// TestParseKVReusesSlots checks that fields decoded into a slice that
// held other fields (a Reader's, from record to record) keep nothing of
// them.
func TestParseKVReusesSlots(t *testing.T) {
	for _, p := range append(append([]string{}, scratchPayloads...), lazyPayloads...) {
		used := make([]Field, 64)
		for i := range used {
			junk(reflect.ValueOf(&used[i]).Elem())
		}
		got := parseKV(p, used[:0], &scratch{})
		want := parseKV(p, nil, &scratch{})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q into a used slice:\n%#v\nwant\n%#v", p, got, want)
		}
	}
}
