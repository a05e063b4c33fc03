package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func encoded(t *testing.T, s string) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		t.Fatal(err)
	}
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// TestAppend holds Append to encoding/json on every byte alone and on
// strings that need escapes of each kind, after what dst holds.
func TestAppend(t *testing.T) {
	texts := []string{"", "plain", `say "hi" \ back`, "tab\tnl\ncr\r\b\f\x01\x1f\x7f", "<&>", "café ☃ 😀",
		"bad\xffutf8\xc3", "ls\u2028ps\u2029", "\u00a0", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\ufffd", "\x00"}
	for b := range 256 {
		texts = append(texts, string([]byte{byte(b)}), "a"+string([]byte{byte(b)})+"z")
		// At each place of two words (eight bytes read at a time), and
		// beside a byte that borrows.
		for at := range 17 {
			long := []byte("abcdefghijklmnopq")
			long[at] = byte(b)
			texts = append(texts, string(long), string(long)+"\x00", "\x1f"+string(long))
		}
	}
	for _, r := range []string{"é", "☃", "😀", "\u2028", "\xff"} {
		for at := range 10 {
			texts = append(texts, strings.Repeat("x", at)+r+strings.Repeat("y", 9))
		}
	}
	for _, s := range texts {
		if got, want := string(Append([]byte("x"), s)), "x"+encoded(t, s); got != want {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	}
}

func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", `a"b\c`, "\x01\u2028\xff", "é😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(Append(nil, s)), encoded(t, s); got != want {
			t.Errorf("%q: got %s, want %s", s, got, want)
		}
	})
}
