package timeline

import (
	"strings"
	"unicode/utf8"
)

// Texts the builder keeps. The same few thousand words (marker messages,
// reasons, images, container names, errors) repeat across every pod of a
// node: each is kept once, in b.texts, and a flow holds its index (4 bytes,
// not a 16-byte header and a copy). A record's strings point into the
// parser's line buffers, so whatever is kept is copied out first.

// intern returns one copy of a short string that repeats across pods
// (marker messages, event reasons and types, field paths, images); the
// table is bounded, past it strings are copied.
func (b *Builder) intern(s string) string {
	if k, ok := b.wordOf(s); ok {
		return b.texts[k]
	}
	if len(s) > maxInternLen {
		return keepReason(s)
	}
	return b.addWord(strings.Clone(s))
}

// nameID is name as an index in b.texts.
func (b *Builder) nameID(s string) uint32 {
	if len(s) > maxInternLen {
		return b.addText(strings.Clone(s))
	}
	return b.internID(s)
}

// setText sets *dst to s's index in b.texts, giving back what *dst held
// when it was not interned.
func (b *Builder) setText(dst *uint32, s string) {
	if b.texts[*dst] == s {
		// Nearly always (a status patch says again what the last one
		// said): the entry stays, which reads the same as a new one.
		return
	}
	old := *dst
	*dst = b.internID(s)
	b.releaseText(old)
}

// name is intern for names, which must stay whole: a long one is copied,
// not cut.
func (b *Builder) name(s string) string {
	if len(s) > maxInternLen {
		return strings.Clone(s)
	}
	return b.intern(s)
}

// internBytes is intern for text composed in a buffer.
func (b *Builder) internBytes(p []byte) string {
	if k, ok := b.wordOfBytes(p); ok {
		return b.texts[k]
	}
	if len(p) > maxReason {
		p = p[:maxReason+1]
		return cut(string(p), maxReason)
	}
	if len(p) > maxInternLen {
		return string(p)
	}
	return b.addWord(string(p))
}

// internBytesID is internBytes as an index in b.texts (what textID would
// give for its result).
func (b *Builder) internBytesID(p []byte) uint32 {
	if k, ok := b.wordOfBytes(p); ok {
		return k
	}
	// As internBytes: a text longer than maxInternLen is never in words.
	if len(p) > maxReason {
		return b.addText(cut(string(p[:maxReason+1]), maxReason))
	}
	w := string(p)
	if len(p) <= maxInternLen {
		if k, ok := b.word(w); ok {
			return k
		}
	}
	return b.addText(w)
}

// addWord enters a string the builder owns into the intern table.
func (b *Builder) addWord(w string) string {
	b.word(w)
	return w
}

// word enters w, a string the builder owns, into the intern table and
// b.texts, unless the table is full.
func (b *Builder) word(w string) (uint32, bool) {
	if len(b.words) >= maxInterned {
		return 0, false
	}
	if b.words == nil {
		b.words = map[string]uint32{}
	}
	k := b.addText(w)
	b.words[w] = k
	return k, true
}

// Evidence texts (cut at maxEvidenceText) are interned whole: an error
// repeats across pods in the same words. The table pins at most some 20
// MiB on a log of ever new texts.
const (
	maxInternLen = maxEvidenceText + len("…")
	maxInterned  = 1 << 16
)

// wordIn returns *k, the interned index of s, looking it up while unknown.
func (b *Builder) wordIn(k *uint32, s string) (uint32, bool) {
	if *k != 0 {
		return *k, true
	}
	id, ok := b.wordOf(s)
	if ok {
		*k = id
	}
	return id, ok
}

// isText reports whether text id is s, where k, interned, is what wordOf
// gave for s: an interned text has one index, as words never changes an
// entry nor takes one once full (a text added while it was full is never
// interned later).
func (b *Builder) isText(id uint32, s string, k uint32, interned bool) bool {
	if interned {
		return id == k
	}
	return b.texts[id] == s
}

// keepReason copies a reason out of its record's line (see evidenceOf),
// cut at maxReason bytes on a rune boundary: an error can be as long as a
// line (64 MiB), and every pod keeps its reasons.
func keepReason(s string) string {
	if s == "" {
		return s
	}
	if len(s) > maxReason {
		return cut(s, maxReason)
	}
	return strings.Clone(s)
}

// cut returns the first n bytes of s (fewer, to end on a rune boundary) and
// "…", as a new string that keeps nothing of s alive.
func cut(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// cutBytes is cut for text composed in a buffer: t is cut in place.
func cutBytes(t []byte, n int) []byte {
	for n > 0 && !utf8.RuneStart(t[n]) {
		n--
	}
	return append(t[:n], "…"...)
}

// maxReason is far above real reasons (a CNI or registry error chain is a
// few hundred bytes).
const maxReason = 4096
