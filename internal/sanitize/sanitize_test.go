package sanitize

import "testing"

func TestSanitize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "SyncLoop ADD pod=\"default/web\"", "SyncLoop ADD pod=\"default/web\""},
		{"tab kept", "a\tb", "a\tb"},
		{"newline dropped", "a\nb", "ab"},
		{"CSI colour", "\x1b[31mred\x1b[0m", "red"},
		{"CSI cursor", "a\x1b[2J\x1b[1;1Hb", "ab"},
		{"OSC 52 clipboard BEL", "x\x1b]52;c;ZWNobyBwd25lZA==\x07y", "xy"},
		{"OSC 8 hyperlink ST", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"DCS", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"APC", "a\x1b_hidden\x1b\\b", "ab"},
		{"two-byte ESC", "a\x1bcb", "ab"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"C1 OSC", "a\u009d0;title\u009cb", "ab"},
		{"bare CR", "real\rfake", "realfake"},
		{"backspace", "ab\b\bcd", "abcd"},
		{"NUL and DEL", "a\x00b\x7fc", "abc"},
		{"bidi override", "abc\u202edcba\u202c", "abcdcba"},
		{"bidi isolate", "\u2066x\u2069", "x"},
		{"zero width and BOM", "ad\u200bmi\u200dn\ufeff", "admin"},
		{"LRM RLM ALM", "a\u200eb\u200fc\u061cd", "abcd"},
		{"line separators", "a\u2028b\u2029c", "abc"},
		{"tag characters", "a\U000E0041b", "ab"},
		{"soft hyphen", "a\u00adb", "ab"},
		{"invalid UTF-8", "a\xffb", "a\ufffdb"},
		{"unicode kept", "déc. мар 日本 ✓", "déc. мар 日本 ✓"},
		{"unterminated OSC", "a\x1b]0;title", "a"},
		{"ESC at end", "a\x1b", "a"},
		{"malformed CSI before rune", "a\x1b[1é", "aé"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
	if got := SanitizeLines("a\nb\rc"); got != "a\nbc" {
		t.Errorf("SanitizeLines = %q", got)
	}
}

func TestSanitizeNoAlloc(t *testing.T) {
	s := "I1122 06:03:25.671345 kubelet.go:2709] \"SyncLoop ADD\" déc."
	if n := testing.AllocsPerRun(100, func() { _ = Sanitize(s) }); n != 0 {
		t.Errorf("%v allocs for clean text", n)
	}
}

func FuzzSanitize(f *testing.F) {
	f.Add("\x1b]52;c;x\x07\u202e\r\b")
	f.Fuzz(func(t *testing.T, s string) {
		out := Sanitize(s)
		for _, r := range out {
			if r < 0x20 && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || Hidden(r) {
				t.Fatalf("Sanitize(%q) = %q keeps %U", s, out, r)
			}
		}
	})
}
