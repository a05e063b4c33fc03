package sanitize_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/internal/sanitize/sanitizetest"
)

func TestHostileTable(t *testing.T) {
	for _, c := range sanitizetest.Hostile {
		t.Run(c.Name, func(t *testing.T) {
			// The table must be hostile: each value fails the text check
			// as is, or nothing would prove the layers do their work.
			if c.Against == "terminal" && sanitizetest.Problem(c.Value) == "" {
				t.Errorf("%q is not hostile to the text check", c.Value)
			}
			one := sanitize.Defuse(sanitize.Sanitize(c.Value))
			sanitizetest.Text(t, "Sanitize+Defuse", one)
			if !strings.Contains(one, c.Marker) {
				t.Errorf("marker %q lost: %q", c.Marker, one)
			}
			var b bytes.Buffer
			g := sanitize.Guard(&b)
			g.Write([]byte(sanitize.SanitizeLines(c.Value)))
			sanitizetest.Text(t, "SanitizeLines+Guard", b.String())

			enc, err := json.Marshal(c.Value)
			if err != nil {
				t.Fatal(err)
			}
			esc := sanitize.EscapeJSON(enc)
			sanitizetest.JSON(t, "EscapeJSON", string(esc))
			var back, want string
			json.Unmarshal(esc, &back)
			json.Unmarshal(enc, &want)
			if back != want {
				t.Errorf("EscapeJSON changed the value: %q, want %q", back, want)
			}
			sanitizetest.XML(t, "XML", "<a>"+strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(sanitize.Defuse(sanitize.XML(c.Value)))+"</a>")
			gh := sanitize.GitHubData(c.Value)
			if strings.ContainsAny(gh, "\r\n") {
				t.Errorf("GitHubData kept a line break: %q", gh)
			}
		})
	}
}

func TestDefuse(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"::error::x", ": :error::x"},
		{"  ::error::x", "  : :error::x"},
		{"\u00a0::warning::x", "\u00a0: :warning::x"},
		{"a ::not at start", "a ::not at start"},
		{"one\n::two::x\n  ::three", "one\n: :two::x\n  : :three"},
		{"x\r::cr::y", "x\r: :cr::y"},
		{"say ##[error]x", "say ## [error]x"},
		{"#[ and # # [ are fine", "#[ and # # [ are fine"},
		{"###[group]", "### [group]"},
		{":single colon", ":single colon"},
		{"[::1]:8080", "[::1]:8080"},
	}
	for _, tt := range tests {
		if got := sanitize.Defuse(tt.in); got != tt.want {
			t.Errorf("Defuse(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestGuardAcrossWrites(t *testing.T) {
	in := "ok\n \u3000::add-mask::x\nfoo ##[error]y\n"
	want := sanitize.Defuse(in)
	// Every split point, byte by byte, must give the same output.
	for cut := 0; cut <= len(in); cut++ {
		var b bytes.Buffer
		g := sanitize.Guard(&b)
		g.Write([]byte(in[:cut]))
		g.Write([]byte(in[cut:]))
		if b.String() != want {
			t.Fatalf("split at %d: %q, want %q", cut, b.String(), want)
		}
	}
	var b bytes.Buffer
	g := sanitize.Guard(&b)
	for i := 0; i < len(in); i++ {
		g.Write([]byte{in[i]})
	}
	if b.String() != want {
		t.Errorf("byte by byte: %q, want %q", b.String(), want)
	}
}

func TestEscapeJSON(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":"plain é"}`, `{"a":"plain é"}`},
		{"{\"a\":\"x\u202ey\"}", `{"a":"x\u202ey"}`},
		{"{\"a\":\"\u009b31m\x7f\"}", `{"a":"\u009b31m\u007f"}`},
		{"{\"a\":\"\U000E0041\"}", `{"a":"\udb40\udc41"}`},
		{`{"a":"##[error]x"}`, `{"a":"##\u005berror]x"}`},
		{"{\"a\":\"\xff\"}", `{"a":"\ufffd"}`},
	}
	for _, tt := range tests {
		got := string(sanitize.EscapeJSON([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("EscapeJSON(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	clean := []byte(`{"a":"nothing to do"}`)
	if n := testing.AllocsPerRun(50, func() { _ = sanitize.EscapeJSON(clean) }); n != 0 {
		t.Errorf("%v allocs for clean JSON", n)
	}
}

func TestXMLAndGitHub(t *testing.T) {
	if got := sanitize.XML("a\x01b\ufffec\x1b[1md\ne"); got != "abcd\ne" {
		t.Errorf("XML = %q", got)
	}
	if got := sanitize.GitHubData("50%\r\nnext\x1b[1m"); got != "50%25next" && got != "50%25%0Anext" {
		t.Errorf("GitHubData = %q", got)
	}
	if got := sanitize.GitHubProperty("a:b,c\nd"); got != "a%3Ab%2Cc%0Ad" {
		t.Errorf("GitHubProperty = %q", got)
	}
}

func TestTerminalWriter(t *testing.T) {
	const red, reset = "\x1b[31m", "\x1b[0m"
	for _, c := range sanitizetest.Hostile {
		in := "pod " + c.Value + "\n"
		want := sanitize.Defuse("pod " + sanitize.SanitizeLines(c.Value) + "\n")
		for cut := 0; cut <= len(in); cut++ {
			var b bytes.Buffer
			w := sanitize.Terminal(&b)
			w.Write([]byte(in[:cut]))
			w.Write([]byte(in[cut:]))
			if got := b.String(); got != want {
				t.Fatalf("%s, split at %d:\n got %q\nwant %q", c.Name, cut, got, want)
			}
		}
		sanitizetest.Text(t, c.Name, want)
	}
	// The caller's own colours pass; anything else is removed.
	in := "a " + red + "Failed" + reset + " \x1b]52;c;eA==\x07b\x1b[2J\n"
	var b bytes.Buffer
	w := sanitize.Terminal(&b, red, reset)
	for i := 0; i < len(in); i++ {
		w.Write([]byte{in[i]})
	}
	if want := "a " + red + "Failed" + reset + " b\n"; b.String() != want {
		t.Errorf("kept colours: %q, want %q", b.String(), want)
	}
}
