package printers

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestYAMLWriterMatchesLibrary holds the YAML writer to the library's
// output (writeYAMLTree) on strings chosen for every styling rule: plain,
// single-quoted for indicators, double-quoted where a plain scalar would
// read as a number, bool, null or time, non-ASCII text styled by the
// library, and what the writer must leave to the library.
func TestYAMLWriterMatchesLibrary(t *testing.T) {
	strs := []string{
		"", " ", "a", "abc def", " lead", "trail ", "a: b", "a:b", "a:", ":a", ": a", "? a", "?a", "a ?b", "- a", "-a", "-", "--", "---x", "...x", "..",
		"#a", "a#b", "a #b", "a# b", ",a", "a,b", "[a]", "a[b]", "{a}", "&a", "a&b", "*a", "!a", "|a", ">a", "'a", "a'b", `"a`, `a"b`, "%a", "@a", "`a",
		"true", "True", "TRUE", "tRue", "false", "null", "Null", "~", "~a", "<<", "<", "yes", "no", "on", "off", "y", "n",
		".5", ".inf", ".NaN", ".x", "1", "-1", "+1", "1.5", "1e3", "0x1F", "0o17", "0b101", "017", "1_000", "0s", "4h2m53.072379s", "1.5ms",
		"2026-11-22T06:25:26.936135Z", "2026-11-22T06:25:26Z", "2026-13-22T06:25:26Z", "2026-11-22", "2026-11-22 06:25:26", "2026-1-2",
		"0b8e1c2a-149e-f74d-9c45-393cecc90cfc", "ba83aee5-149e-f74d-9c45-393cecc90cfc", "12:30", "1:2:3", "+.inf", "-.Inf", "-", "+",
		`Failed to pull image "nginx:1.27.99": not found`, `back\slash`, "tab\there", "line\nbreak", "trailing\n", "café", "a: café", "ĸ", "\u00a0x",
		"x\u2028y", "\ufeffbom", "é: b", "emoji 😀", "a\\b\"c",
	}
	for _, s := range strs {
		doc := map[string]any{"k": s, "list": []any{s, map[string]any{"m": s, "n": []any{s}}, []any{}, map[string]any{}}, "n": 1.5, "b": true, "z": nil}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := writeYAMLTree(&want, b); err != nil {
			t.Fatal(err)
		}
		var y yamlWriter
		got, ok := y.document(nil, b)
		if !ok {
			if !strings.ContainsAny(s, "\n\u2028") {
				t.Errorf("%q: the writer gave up on a one-line string", s)
			}
			continue
		}
		if string(got) != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want.String())
		}
	}
}

// TestYAMLWriterGivesUp: what it cannot write as the library would, it
// leaves whole, appending nothing.
func TestYAMLWriterGivesUp(t *testing.T) {
	for _, js := range []string{`[[1]]`, `{"a b":1}`, `{"true":1}`, `{"a":"x\ny"}`, `"top"`, `1`, `{"a":1`, `{"a":"\u00e9\n"}`} {
		var y yamlWriter
		out, ok := y.document([]byte("keep"), []byte(js))
		if ok || string(out) != "keep" {
			t.Errorf("%s: ok %v, out %q", js, ok, out)
		}
	}
}

// FuzzYAMLWriter: on any string, as a value, a list item and a key, the
// writer writes what the library writes, or leaves the document to it.
func FuzzYAMLWriter(f *testing.F) {
	for _, s := range []string{"a", "a: b", "true", "0x1F", "2026-11-22T06:25:26Z", "'q'", "-", "é", "x\ny", " #", "758eacf0-bdef-6431-52bd-91e4a9888d6a", "1e-5-", "-1e-5", "1-2-3", "2026-1-2", "0x1-2-3", "1_0-0-0", "12-34-56:00", "cut…", "é", " é", "é ", "#é", "é: x", "日本 #x", "- é", "x\u00a0y", "\u00a0", "\ue000", "\U0001f600 ok"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, err := json.Marshal(map[string]any{"k": s, "l": []any{s, map[string]any{s: 1}}})
		if err != nil {
			return
		}
		var want bytes.Buffer
		if err := writeYAMLTree(&want, b); err != nil {
			return // the library refuses it: nothing to compare
		}
		var y yamlWriter
		if got, ok := y.document(nil, b); ok && string(got) != want.String() {
			t.Errorf("%q:\n got %s\nwant %s", s, got, want.String())
		}
	})
}
