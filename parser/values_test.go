package parser

import (
	"reflect"
	"testing"
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
func checkQuoted(t *testing.T, s string, sc *scratch) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		want, wantEnd := "", quotedEnd(s, i)
		if wantEnd > 0 {
			want = unquote(s[i:wantEnd])
		}
		if got, end := quoted(s, i, sc); got != want || end != wantEnd {
			t.Fatalf("quoted(%q, %d) = %q, %d; want %q, %d", s, i, got, end, want, wantEnd)
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
	})
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
	if !reflect.DeepEqual(got, want) {
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
			if v, n, ok := parseJSON(f.Raw, 0, 0, &scratch{}); ok && n == len(f.Raw) && !reflect.DeepEqual(v, f.Value) {
				t.Fatalf("%q: %s decoded as a klog value:\n%#v\nalone:\n%#v", p, f.Key, f.Value, v)
			}
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
		var sc scratch
		for _, q := range scratchPayloads {
			decodeWith(q, &sc)
		}
		checkScratch(t, p, &sc)
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
