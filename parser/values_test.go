package parser

import (
	"strconv"
	"testing"
	"unicode/utf8"
)

// unquoteStrconv is unquote as it was before the fast path: strconv.Unquote,
// else the loose decoding. unquote must give the same on every input.
func unquoteStrconv(q string) string {
	if len(q) < 2 {
		return string(q)
	}
	inner := q[1 : len(q)-1]
	simple := true
	for i := 0; i < len(inner); i++ {
		if c := inner[i]; c == '\\' || c >= utf8.RuneSelf {
			simple = false
			break
		}
	}
	if simple {
		return string(inner)
	}
	if s, err := strconv.Unquote(string(q)); err == nil {
		return s
	}
	return unescapeLoose(inner)
}

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
		if ref := unquoteStrconv(c.in); ref != c.want {
			t.Errorf("reference unquote(%q) = %q, want %q", c.in, ref, c.want)
		}
	}
}

// FuzzUnquote checks unquote against the strconv implementation.
func FuzzUnquote(f *testing.F) {
	for _, c := range unquoteCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, q := range []string{s, `"` + s + `"`} {
			if got, want := unquote(q), unquoteStrconv(q); got != want {
				t.Fatalf("unquote(%q) = %q, strconv gives %q", q, got, want)
			}
		}
	})
}

// BenchmarkUnquote decodes the Go-quoted JSON patch of a real "Patch status
// for pod" line, the longest quoted value kubelet writes at -v=4.
func BenchmarkUnquote(b *testing.B) {
	q := `"{\"metadata\":{\"uid\":\"ba83aee5-149e-f74d-9c45-393cecc90cfc\"},\"status\":{\"conditions\":[{\"lastProbeTime\":null,\"lastTransitionTime\":\"2026-11-22T06:25:26Z\",\"message\":\"containers with incomplete status: [init-config]\",\"observedGeneration\":1,\"reason\":\"ContainersNotInitialized\",\"status\":\"False\",\"type\":\"Initialized\"}],\"hostIP\":\"192.0.2.2\",\"startTime\":\"2026-11-22T06:25:26Z\"}}"`
	for _, c := range []struct {
		name string
		fn   func(string) string
	}{{"fast", unquote}, {"strconv", unquoteStrconv}} {
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
