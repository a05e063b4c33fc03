// Package sanitize makes untrusted text (log lines) safe to print. There is
// one layer per output kind, and each command output goes through exactly
// one of them:
//
//   - terminal text (tables, describe, lines, stats, check text, YAML):
//     Sanitize / SanitizeLines on every log-derived value, and Guard on the
//     stream for GitHub workflow commands;
//   - JSON: EscapeJSON on the encoder's output (lossless: hidden characters
//     stay, as \uXXXX escapes);
//   - GitHub annotations: GitHubData / GitHubProperty;
//   - XML (JUnit): XML;
//   - HTML: html/template over Sanitize'd values.
//
// Sanitize removes control characters and escape sequences that could move
// the cursor, rewrite the screen, set the clipboard (OSC 52), forge
// hyperlinks (OSC 8), and the format characters that reorder or hide text
// (bidi overrides, zero-width characters).
package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/podflow/podflow/internal/swar"
)

// Sanitize returns s without:
//   - ESC sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST, incl.
//     OSC 8 and OSC 52), DCS/SOS/PM/APC (ESC P/X/^/_ … ST) and two-byte
//     ESC sequences, and their 8-bit C1 forms (U+009B CSI, U+009D OSC, …);
//   - other C0 controls (including bare CR, backspace, NUL) except TAB,
//     and DEL and the C1 controls U+0080–U+009F;
//   - the bidi embedding, override and isolate controls U+202A–U+202E and
//     U+2066–U+2069, and every other format character (Unicode category
//     Cf: zero-width space/joiners, LRM/RLM/ALM, word joiner, BOM, tag
//     characters, …), which render as nothing and so can hide or reorder
//     text; and the line and paragraph separators U+2028/U+2029.
//
// Invalid UTF-8 bytes become U+FFFD. Newlines are removed too: callers
// print one line per record (use SanitizeLines to keep them).
func Sanitize(s string) string { return clean(s, false) }

// SanitizeLines is Sanitize but keeps '\n'.
func SanitizeLines(s string) string { return clean(s, true) }

func clean(s string, keepNL bool) string {
	if safe(s, keepNL) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		case r == 0x1b: // ESC
			i = skipEscape(s, i+1)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		case r == '\t', r == '\n' && keepNL:
			b.WriteRune(r)
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, Hidden(r):
			// dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Hidden reports whether r is a character that displays as nothing yet
// changes how the text around it reads: a format character (category Cf,
// which holds the bidi controls U+202A–U+202E and U+2066–U+2069) or a
// line/paragraph separator.
func Hidden(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x2028 || r == 0x2029 || r >= 0xad && unicode.Is(unicode.Cf, r)
}

// Unsafe reports whether r may not appear in sanitized output: a C0 or
// C1 control other than TAB and LF, DEL, or a Hidden character.
func Unsafe(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f || Hidden(r)
}

// safe reports whether s needs no change (the common case: no allocation).
func safe(s string, keepNL bool) bool {
	for i := 0; i < len(s); i++ {
		// Eight bytes at a time while they are printable ASCII: all the
		// output passes here (the terminal layer), nearly all of it plain.
		// A word that is not goes on from its first odd byte (a line's
		// end, mostly), not byte by byte to the word's end.
		for i+8 <= len(s) {
			if m := specialMask(swar.Word(s, i)); m != 0 {
				i += swar.First(m)
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
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

// skipEscape skips the sequence after an ESC at s[i-1].
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// ESC followed by intermediates (0x20–0x2F) and a final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f:
			i++
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		default:
			return i // malformed: stop before the odd byte
		}
	}
	return i
}

// skipString skips an OSC/DCS/SOS/PM/APC body up to BEL, ESC \ or the C1
// ST (U+009C), or the end of s.
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + 2
		}
		i++
	}
	return i
}

// special reports whether a byte of w is not printable ASCII: below
// 0x20, DEL or above.
func special(w uint64) bool { return specialMask(w) != 0 }

// specialMask has the high bit of each byte of w that special finds set,
// exactly for the lowest such byte (a borrow only runs upward, so one
// above it may be set by mistake): swar.First(specialMask(w)) is the first.
func specialMask(w uint64) uint64 {
	del := w ^ 0x7f*swar.Ones
	return ((w-0x20*swar.Ones)&^w | (del-swar.Ones)&^del | w) & swar.Highs
}

// has reports whether a byte of w is c.
func has(w uint64, c byte) bool { return swar.Eq(w, c) != 0 }

// OneLine cleans s (Sanitize) and folds it onto one line, its runs of
// white space one space each: a table cell, a trace attribute.
func OneLine(s string) string {
	if folded(s) {
		return s // a table of 10,000 pods asks for some 50,000 cells
	}
	return strings.Join(strings.Fields(Sanitize(strings.ReplaceAll(s, "\n", " "))), " ")
}

// folded reports whether OneLine would give s back as it is: printable
// ASCII words with one space between them.
func folded(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i-1] == ' ' {
				return false
			}
		case c < '!' || c > '~':
			return false
		}
	}
	return true
}

// BelowDEL reports whether every byte of s is below DEL (0x7f): ASCII
// without DEL, which no filter of DEL, C1 controls or hidden characters
// has to decode rune by rune.
func BelowDEL(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if swar.High(swar.Word(s, i)) != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= 0x7f {
			return false
		}
	}
	return true
}
