package statuspatch

import (
	"math/bits"
	"unicode"
	"unicode/utf8"
)

// JSON syntax on a string and an index, with no decoder state, for
// Decoder (scan.go): whitespace, strings (eight bytes at a time:
// load8, special8, stop8), literals, numbers, a string in the escaped form
// of a Go-quoted patch (escStr), and encoding/json's case-folding match of
// a key to a field name (fieldIs).

// escStr reads a string at s[i:] in the escaped form (esc): \" quotes
// around a body of strPlain bytes, which is the string. ok is false for
// any other string, which decodeQuoted leaves to the unquoted read.
func escStr(s string, i int) (body string, next int, ok bool) {
	if i+1 >= len(s) || s[i] != '\\' {
		return "", i, false
	}
	j := plainEnd(s, i+2)
	if j >= len(s) || s[j] != '\\' {
		return "", i, false
	}
	return s[i+2 : j], j + 2, true
}

// wsEnd is the index of the first byte at or after i that is not JSON
// whitespace.
func wsEnd(s string, i int) int {
	// Patches are compact JSON: nearly always nothing to skip.
	if i < len(s) && s[i] > ' ' {
		return i
	}
	return wsEndSlow(s, i)
}

func wsEndSlow(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// plainEnd is the index of the first byte at or after i that strPlain
// rejects, or len(s).
func plainEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		if m := special8(load8(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(s) && strPlain[s[i]] {
		i++
	}
	return i
}

// load8 is s[i:i+8] as a little-endian word (one load).
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// special8 flags the bytes of x that are not strPlain: below ' ', '"',
// '\\' or non-ASCII. Each test for a byte below n may also flag bytes
// above (more significant than) one it rightly flags, never below, so the
// lowest flag is the first special byte.
func special8(x uint64) uint64 {
	return x&0x8080808080808080 | stop8(x)
}

// strPlain marks the bytes a string holds as they are: ASCII but for
// control characters, '"' and '\\'.
var strPlain = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s string) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range []byte(s[2:6]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// strEnd validates the string whose body starts at i as encoding/json's
// scanner does (a control byte or a bad escape is an error, invalid UTF-8
// is not) and returns the index after its closing quote, or -1.
func strEnd(s string, i int) int {
	for {
		// Eight bytes at a time to the first byte strStop marks, then one
		// at a time near the end of s.
		for {
			if i+8 > len(s) {
				for i < len(s) && !strStop[s[i]] {
					i++
				}
				if i >= len(s) {
					return -1
				}
				break
			}
			if m := stop8(load8(s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		switch s[i] {
		case '"':
			return i + 1
		case '\\':
			if i+1 >= len(s) {
				return -1
			}
			switch s[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if getu4(s[i:]) < 0 {
					return -1
				}
				i += 6
			default:
				return -1
			}
		default: // a control byte
			return -1
		}
	}
}

// stop8 flags the bytes of x that end or escape a string's plain run
// (strStop), with special8's guarantee: the lowest flag is the first.
func stop8(x uint64) uint64 {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	// One test finds both a control byte and a quote: b^2 is below 0x21
	// exactly for b below 0x20 (which ^2 keeps there) and for '"' (0x22,
	// which becomes 0x20). A byte below n borrows in x-n: each test flags
	// the byte, and may flag bytes above it, never below.
	q := x ^ ones*0x02
	b := x ^ ones*'\\'
	return ((q-ones*0x21)&^q | (b-ones)&^b) & high
}

// strStop marks the bytes stop8 flags: below ' ', '"' and '\\'.
var strStop = func() (t [256]bool) {
	for c := range t {
		t[c] = c < ' ' || c == '"' || c == '\\'
	}
	return t
}()

// litEnd reads the literal w at i and returns the index after it, or -1.
func litEnd(s string, i int, w string) int {
	if len(s)-i < len(w) || s[i:i+len(w)] != w {
		return -1
	}
	return i + len(w)
}

// numEnd reads a JSON number at i and returns the index after it, or -1.
func numEnd(s string, i int) int {
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return -1
	case s[i] == '0':
		i++
	case '1' <= s[i] && s[i] <= '9':
		i = digitsEnd(s, i+1)
	default:
		return -1
	}
	if i < len(s) && s[i] == '.' {
		j := digitsEnd(s, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := digitsEnd(s, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digitsEnd(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// fieldIs matches a key to a field name as encoding/json does: exactly,
// else after folding case (Unicode simple folding: "ſ" matches "s").
// name is ASCII.
func fieldIs(key, name string) bool {
	// A rune of the key stands for one byte of the name, and takes one
	// byte (ASCII) or more: a shorter key never matches.
	if len(key) < len(name) {
		return false
	}
	return key == name || fieldFold(key, name)
}

// fieldFold is fieldIs for keys not exactly the name.
func fieldFold(key, name string) bool {
	if len(key) == len(name) {
		// Only ASCII can match: one byte a rune.
		for i := 0; i < len(key); i++ {
			c := key[i]
			if c >= utf8.RuneSelf || upper(c) != upper(name[i]) {
				return false
			}
		}
		return true
	}
	j := 0
	for i := 0; i < len(key); {
		c := key[i]
		if c < utf8.RuneSelf {
			i++
		} else {
			r, n := utf8.DecodeRuneInString(key[i:])
			i += n
			r = foldRune(r)
			if r >= utf8.RuneSelf {
				return false
			}
			c = byte(r)
		}
		if j >= len(name) || upper(c) != upper(name[j]) {
			return false
		}
		j++
	}
	return j == len(name)
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// foldRune is the smallest rune of r's simple-folding orbit.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// CutPlainString cuts s at the quote that ends a JSON string body of
// printable ASCII without escapes: the body is then the string itself.
func CutPlainString(s string) (body, rest string, ok bool) {
	i := 0
	// Eight bytes at a time to the first byte strPlain rejects (special8).
	for i+8 <= len(s) {
		if m := special8(load8(s, i)); m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			break
		}
		i += 8
	}
	for i < len(s) && strPlain[s[i]] {
		i++
	}
	if i < len(s) && s[i] == '"' {
		return s[:i], s[i+1:], true
	}
	return "", "", false
}
