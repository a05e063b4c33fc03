package sanitize

import (
	"bytes"
	"io"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The byte-at-a-time versions of safe and guard, as they were before they
// learned to skip eight plain bytes at a time: the fuzzers below hold the
// fast swar.Ones to these.

func refSafe(s string, keepNL bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 {
			if c == '\t' || c == '\n' && keepNL {
				continue
			}
			return false
		}
		if c == 0x7f || c >= 0x80 {
			if c < 0x80 {
				return false
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size <= 1 || r <= 0x9f || Hidden(r) {
				return false
			}
			i += size - 1
		}
	}
	return true
}

type refGuard struct {
	w      io.Writer
	mid    bool    // past the white space that starts the line
	colon  bool    // the line so far is white space and one ':'
	hashes int     // '#' just before this byte
	rb     [4]byte // a multi-byte rune at the start of a line, being read
	rn     int
}

func (g *refGuard) Write(p []byte) (int, error) {
	var out []byte // allocated only when something changes
	last := 0
	insert := func(i int) {
		if out == nil {
			out = make([]byte, 0, len(p)+8)
		}
		out = append(out, p[last:i]...)
		out = append(out, ' ')
		last = i
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '\n' || c == '\r' {
			g.mid, g.colon, g.hashes, g.rn = false, false, 0, 0
			continue
		}
		if !g.mid {
			if g.rn > 0 || c >= 0x80 {
				g.rb[g.rn] = c
				g.rn++
				if !utf8.FullRune(g.rb[:g.rn]) {
					continue
				}
				r, _ := utf8.DecodeRune(g.rb[:g.rn])
				g.rn = 0
				if !unicode.IsSpace(r) {
					g.mid = true
				}
				continue
			}
			switch {
			case c == ' ' || c == '\t' || c == '\v' || c == '\f':
				continue
			case c == ':' && !g.colon:
				g.colon = true
				continue
			case c == ':' && g.colon:
				insert(i)
			}
			g.mid, g.colon = true, false
		}
		switch {
		case c == '#':
			g.hashes++
		case c == '[' && g.hashes >= 2:
			insert(i)
			g.hashes = 0
		default:
			g.hashes = 0
		}
	}
	if out == nil {
		return g.w.Write(p)
	}
	out = append(out, p[last:]...)
	if _, err := g.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

func FuzzSafe(f *testing.F) {
	for _, s := range []string{"", "plain text, long enough for words", "tab\there", "new\nline", "del\x7fx", "\x1b[31mred", "déjà vu", "\u202eevil", "bad\xffutf8", "12345678\x1f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, nl := range []bool{false, true} {
			if got, want := safe(s, nl), refSafe(s, nl); got != want {
				t.Errorf("safe(%q, %v) = %v, want %v", s, nl, got, want)
			}
		}
	})
}

func FuzzGuard(f *testing.F) {
	for _, s := range []string{"ok\n \u3000::add-mask::x\nfoo ##[error]y\n", "a long line without anything to defuse in it\n", "########[x", "#\n##[", "\r::a::\r  ::b"} {
		f.Add(s, uint8(3))
	}
	f.Fuzz(func(t *testing.T, s string, cut uint8) {
		var got, want bytes.Buffer
		g, r := &guard{w: &got}, &refGuard{w: &want}
		at := min(int(cut), len(s))
		for _, part := range []string{s[:at], s[at:]} {
			g.Write([]byte(part))
			r.Write([]byte(part))
		}
		if got.String() != want.String() {
			t.Errorf("guard(%q, cut %d) = %q, want %q", s, at, got.String(), want.String())
		}
	})
}

// refNeedsJSON is needsJSON byte by byte, as it was before it learned to
// skip eight bytes at a time.
func refNeedsJSON(b []byte) bool {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == 0x7f || c == '[' && i >= 2 && b[i-1] == '#' && b[i-2] == '#' {
			return true
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size <= 1 || Unsafe(r) || r == 0xfffe || r == 0xffff {
				return true
			}
			i += size - 1
		}
	}
	return false
}

func FuzzNeedsJSON(f *testing.F) {
	for _, s := range []string{"", `{"a":"plain text, long enough for words"}`, "1234567##[x", "123456##[", "#######[", "del\x7fx", "déjà vu, and more words", "\u202eevil", "bad\xffutf8", "\xef\xbf\xbe12345678"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := needsJSON([]byte(s)), refNeedsJSON([]byte(s)); got != want {
			t.Errorf("needsJSON(%q) = %v, want %v", s, got, want)
		}
	})
}

func FuzzBelowDEL(f *testing.F) {
	for _, s := range []string{"", "plain", "plain text, long enough", "1234567\x7f", "12345678\x80", "\xff1234567"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := true
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x7f {
				want = false
			}
		}
		if got := BelowDEL(s); got != want {
			t.Errorf("BelowDEL(%q) = %v, want %v", s, got, want)
		}
	})
}
