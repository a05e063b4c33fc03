package sanitize

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/podflow/podflow/internal/swar"
)

// GitHub Actions runners read every line a step prints and act on two
// command syntaxes: "::name props::data" when it is the first thing on a
// line after white space (.NET TrimStart, so any Unicode space), and the
// legacy "##[name props]data" anywhere in a line. A log line that says
// "::add-mask::…", "::stop-commands::…" or "##[error]…" would otherwise be
// obeyed when podflow runs in CI. Defuse and Guard break both syntaxes by
// putting a space inside them (": :", "## ["): visible, lossless to a
// reader, and inert to the runner.

// Defuse neutralises workflow commands in s, taking s to start a line.
func Defuse(s string) string {
	if !strings.Contains(s, "::") && !strings.Contains(s, "##[") {
		return s
	}
	var b strings.Builder
	g := &guard{w: &b}
	g.Write([]byte(s))
	return b.String()
}

// Guard returns a writer that passes everything to w but neutralises
// workflow commands as Defuse does, across Write calls. It holds no bytes
// back, so it needs no Flush. Output that must carry real workflow commands
// (podflow check -o github) is written around it.
func Guard(w io.Writer) io.Writer {
	if g, ok := w.(*guard); ok {
		return g
	}
	return &guard{w: w}
}

type guard struct {
	w      io.Writer
	mid    bool    // past the white space that starts the line
	colon  bool    // the line so far is white space and one ':'
	hashes int     // '#' just before this byte
	rb     [4]byte // a multi-byte rune at the start of a line, being read
	rn     int
}

func (g *guard) Write(p []byte) (int, error) {
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
		if g.mid && g.hashes == 0 {
			// Within a line and after no '#' only a line end or a '#'
			// changes anything: eight bytes at a time to the next.
			for i+8 <= len(p) {
				w := binary.LittleEndian.Uint64(p[i:])
				if m := swar.Eq(w, '\n') | swar.Eq(w, '\r') | swar.Eq(w, '#'); m != 0 {
					i += swar.First(m)
					break
				}
				i += 8
			}
			if i >= len(p) {
				break
			}
		} else if !g.mid && g.rn == 0 {
			// The spaces that indent a line (JSON's and YAML's, a third
			// of their bytes) change nothing either.
			for i < len(p) && p[i] == ' ' {
				i++
			}
			if i >= len(p) {
				break
			}
		}
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

// EscapeJSON makes encoded JSON inert on a terminal and in a CI log without
// losing anything: encoding/json already escapes C0 controls, but writes
// DEL, C1 controls, bidi and other format characters (and the
// noncharacters U+FFFE/U+FFFF, which YAML refuses) as raw UTF-8; they
// become \uXXXX escapes here, and the '[' of "##[" becomes \u005b. Those
// characters can only occur inside JSON strings, so the result is the same
// JSON value. Invalid UTF-8 (which encoding/json never writes) becomes
// U+FFFD.
func EscapeJSON(b []byte) []byte {
	if !needsJSON(b) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case Unsafe(r) && r >= 0x7f || r == 0xfffe || r == 0xffff:
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		case r == '[' && i >= 2 && b[i-1] == '#' && b[i-2] == '#':
			out = append(out, `\u005b`...)
		default:
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

func needsJSON(b []byte) bool {
	for i := 0; i < len(b); i++ {
		// Eight bytes at a time up to one at or above DEL, a '#' or a
		// '[' (whose "##" may end the word before).
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			if m := swar.High(w) | swar.Eq(w, '#') | swar.Eq(w, '['); m != 0 {
				i += swar.First(m)
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
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

// JSONWriter applies EscapeJSON to every Write. Each Write must carry whole
// runes, as json.Encoder's (one encoded value per Write) do.
func JSONWriter(w io.Writer) io.Writer { return jsonWriter{w} }

type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	if _, err := j.w.Write(EscapeJSON(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// XML makes log text safe for XML 1.0 character data and attributes:
// terminal controls and hidden characters are removed (as SanitizeLines
// does) and so is every character XML 1.0 forbids; encoding/xml escapes
// the markup characters.
func XML(s string) string {
	s = SanitizeLines(s)
	if !strings.ContainsFunc(s, func(r rune) bool { return !xmlChar(r) }) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if !xmlChar(r) {
			return -1
		}
		return r
	}, s)
}

func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD ||
		(r >= 0x20 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

// GitHubData escapes a workflow command's message as GitHub's toolkit does
// (escapeData: % CR LF), after removing terminal controls and hidden
// characters.
func GitHubData(s string) string {
	s = SanitizeLines(s)
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// GitHubProperty escapes a workflow command's property value (GitHub's
// escapeProperty: escapeData plus ':' and ',').
func GitHubProperty(s string) string {
	s = GitHubData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}

// Terminal returns a writer for terminal text: everything written goes
// through SanitizeLines (so no escape sequence, control character or
// hidden character gets through, whatever a caller forgot to clean) and
// then through Guard. keep lists exact escape sequences that pass, such as
// the SGR colours the caller paints with. A rune or an escape sequence cut
// by a Write boundary is held until the next Write; one never completed is
// dropped, as SanitizeLines would drop it.
func Terminal(w io.Writer, keep ...string) io.Writer {
	return &terminal{w: Guard(w), keep: keep}
}

type terminal struct {
	w       io.Writer
	keep    []string
	pending []byte
}

const maxPending = 256

func (t *terminal) Write(p []byte) (int, error) {
	buf := p
	if len(t.pending) > 0 {
		buf = append(t.pending, p...)
		t.pending = nil
	}
	cut := incompleteTail(buf)
	if len(buf)-cut <= maxPending {
		t.pending = append([]byte(nil), buf[cut:]...)
	}
	// Nearly all output is safe as it is: then buf goes on as it is, not
	// copied into a string and back (two copies of every byte printed,
	// some 400 MB for get pods -o json on the 1 GiB bench log). The
	// string view of buf lives only for the call.
	text := unsafe.String(unsafe.SliceData(buf), cut)
	var err error
	if safe(text, true) {
		_, err = t.w.Write(buf[:cut])
	} else {
		_, err = io.WriteString(t.w, t.clean(strings.Clone(text)))
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

func (t *terminal) clean(s string) string {
	if safe(s, true) {
		return s
	}
	if len(t.keep) == 0 || !strings.Contains(s, "\x1b") {
		return SanitizeLines(s)
	}
	var b strings.Builder
	for len(s) > 0 {
		i, k := nextKept(s, t.keep)
		if i < 0 {
			b.WriteString(SanitizeLines(s))
			break
		}
		b.WriteString(SanitizeLines(s[:i]))
		b.WriteString(k)
		s = s[i+len(k):]
	}
	return b.String()
}

func nextKept(s string, keep []string) (int, string) {
	best, which := -1, ""
	for _, k := range keep {
		if i := strings.Index(s, k); i >= 0 && (best < 0 || i < best) {
			best, which = i, k
		}
	}
	return best, which
}

// incompleteTail returns where an unfinished rune or escape sequence at
// the end of b begins (len(b) when there is none).
func incompleteTail(b []byte) int {
	// An escape sequence still open at the end of b.
	for i := len(b) - 1; i >= 0 && i >= len(b)-maxPending; i-- {
		c := b[i]
		if c == '\n' {
			break
		}
		if c == 0x1b || c == 0xc2 && i+1 < len(b) && (b[i+1] == 0x9b || b[i+1] == 0x9d || b[i+1] == 0x90 || b[i+1] >= 0x98 && b[i+1] <= 0x9f && b[i+1] != 0x9c) {
			s := string(b[i:])
			var end int
			if c == 0x1b {
				end = skipEscape(s, 1)
			} else if b[i+1] == 0x9b {
				end = skipCSI(s, 2)
			} else {
				end = skipString(s, 2)
			}
			if end >= len(s) && !terminated(s) {
				return i
			}
			break
		}
	}
	// A rune cut short.
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}

// terminated reports whether the escape sequence s (which runs to the end
// of the text) ends with its final byte rather than being cut.
func terminated(s string) bool {
	if len(s) < 2 {
		return false
	}
	last := s[len(s)-1]
	switch {
	case s[0] == 0x1b && s[1] == '[', s[0] == 0xc2 && s[1] == 0x9b:
		return len(s) > 2 && last >= 0x40 && last <= 0x7e
	case s[0] == 0x1b && strings.IndexByte("]PX^_", s[1]) >= 0, s[0] == 0xc2:
		return last == 0x07 || strings.HasSuffix(s, "\x1b\\") || strings.HasSuffix(s, "\u009c")
	case s[0] == 0x1b:
		return last >= 0x30 && last <= 0x7e
	}
	return true
}
