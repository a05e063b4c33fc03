// Package jsonstr appends strings as encoding/json writes them with HTML
// escaping off (Encoder.SetEscapeHTML(false)), for the hand-written
// encoders of podflow's outputs (internal/printers' flows, internal/trace's
// events and spans): one string encoder that both hold to the library, not
// a copy in each.
package jsonstr

import (
	"math/bits"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/swar"
)

const hexDigits = "0123456789abcdef"

// plain marks the ASCII bytes a JSON string holds as they are: not a
// control, quote or backslash. Bytes from 0x80 up are false: a multi-byte
// rune is checked for invalid UTF-8 and U+2028/U+2029.
var plain = func() (t [256]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\'
	}
	return t
}()

// Append appends s quoted as encoding/json's Encoder with
// SetEscapeHTML(false) writes it: quotes, backslashes and controls
// escaped (\n, \r, \t, \b, \f by name, the rest \u00XX), each byte of
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped (JavaScript reads
// them as line ends), everything else as it is.
func Append(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time to the next that is not plain: most
		// text is plain throughout.
		for i+8 <= len(s) {
			if m := escapeMask(swar.Word(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i == len(s) {
			break
		}
		b := s[i]
		if plain[b] {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// escapeMask has the high bit set of the lowest byte of w that is not
// plain (a control, '"', '\\' or from 0x80 up), and maybe of bytes above
// it (a borrow runs upward), none when every byte is plain.
func escapeMask(w uint64) uint64 {
	q := w ^ '"'*swar.Ones
	bs := w ^ '\\'*swar.Ones
	return ((w-0x20*swar.Ones)&^w | (q-swar.Ones)&^q | (bs-swar.Ones)&^bs | w) & swar.Highs
}
