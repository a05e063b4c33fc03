package timeline

import (
	"math"
	"strings"

	"github.com/podflow/podflow/parser"
)

// The builder keeps a flow's evidence lines and events while the log is
// read, some thirty per pod: they are kept in compact forms (a stamp for a
// time, a where for a line's position and text) that only the builder that
// made them reads back. Each form fits what real logs hold and sends what
// does not fit (a time years from the log's first, an input past the
// 65,535th) to a table on the side, so nothing is lost or rounded. What a
// kept line overwrites (a stage keeps its latest line in one slot, an
// event its latest time) gives its entries on the side back for reuse, so
// the tables grow with what flows keep, not with lines.

// stamp is a time in 8 bytes: nanoseconds from the builder's first
// stamped time with the time's zone (instant.go) when the zone is one of
// the first sixteen and the time within eight years of that one; else
// an index in b.wideTimes. The zero stamp is the zero time.
type stamp uint64

const (
	stampWide      = 1 // the low bit: the rest indexes b.wideTimes
	stampZoneBits  = 4
	stampShift     = 1 + stampZoneBits
	stampBias      = 1 << 58 // offsets from the base are kept as offset+stampBias in 59 bits
	stampMaxSecond = 1 << 28 // |seconds from the base| below this fit: 2^28 s * 1e9 + 1e9 < stampBias
)

// stamp converts i.
func (b *Builder) stamp(i instant) stamp {
	if i.IsZero() {
		return 0
	}
	if b.stampBase.IsZero() {
		b.stampBase = i
	}
	ds := i.sec - b.stampBase.sec
	if i.zone >= 0 && i.zone < 1<<stampZoneBits && ds > -stampMaxSecond && ds < stampMaxSecond {
		d := ds*1e9 + int64(i.nsec) - int64(b.stampBase.nsec)
		return stamp(uint64(d+stampBias)<<stampShift | uint64(i.zone)<<1)
	}
	return stamp(uint64(reuse(&b.wideTimes, &b.freeTimes, i))<<1 | stampWide)
}

// reuse puts v in a free entry of *table, or a new one, and returns its
// index.
func reuse[T any](table *[]T, free *[]int, v T) int {
	if n := len(*free); n > 0 {
		k := (*free)[n-1]
		*free = (*free)[:n-1]
		(*table)[k] = v
		return k
	}
	*table = append(*table, v)
	return len(*table) - 1
}

// release gives back what e holds on the side: it is overwritten.
func (b *Builder) release(e evidence) {
	b.releaseStamp(e.at)
	if e.wide {
		b.freePos = append(b.freePos, int(e.offset))
	}
	if k, ok := b.words[b.texts[e.text]]; !ok || k != e.text {
		// Not interned: its own entry.
		b.texts[e.text] = ""
		b.freeTexts = append(b.freeTexts, int(e.text))
	}
}

// releaseStamp gives back what s holds on the side: it is overwritten.
func (b *Builder) releaseStamp(s stamp) {
	if s&stampWide != 0 {
		b.freeTimes = append(b.freeTimes, int(s>>1))
	}
}

// instantOf converts s back.
func (b *Builder) instantOf(s stamp) instant {
	switch {
	case s == 0:
		return instant{}
	case s&stampWide != 0:
		return b.wideTimes[s>>1]
	}
	ns := int64(s>>stampShift) - stampBias + int64(b.stampBase.nsec)
	sec := ns / 1e9
	ns -= sec * 1e9
	if ns < 0 {
		sec--
		ns += 1e9
	}
	return instant{sec: b.stampBase.sec + sec, nsec: int32(ns), zone: int32(s>>1) & (1<<stampZoneBits - 1)}
}

// where is a kept line's position and text in 24 bytes: the line number
// and length in 32 bits and the input as an index in b.evInputs in 16 (or,
// when one does not fit, offset indexes b.widePos), the text as an index
// in b.texts.
type where struct {
	offset       int64
	line, length uint32
	input        uint16
	wide         bool
	text         uint32
}

// widePos is a position where does not hold.
type widePos struct {
	line, offset int64
	length       int
	input        int32
}

// where is rec's position, with text.
func (b *Builder) where(rec *parser.Record, text uint32) where {
	p := &rec.Pos
	in := b.inputIndex(p.Input)
	if p.Line >= 0 && p.Line <= math.MaxUint32 && p.Length >= 0 && uint64(p.Length) <= math.MaxUint32 && in <= math.MaxUint16 {
		return where{offset: p.Offset, line: uint32(p.Line), length: uint32(p.Length), input: uint16(in), text: text}
	}
	k := reuse(&b.widePos, &b.freePos, widePos{line: p.Line, offset: p.Offset, length: p.Length, input: in})
	return where{offset: int64(k), wide: true, text: text}
}

// evidence returns w as public evidence at time t, its text left out
// when text is false.
func (b *Builder) evidence(w where, t stamp, text bool) Evidence {
	ev := Evidence{Input: b.evInputs[w.input], Line: int64(w.line), Offset: w.offset, Length: int(w.length), Time: b.time(b.instantOf(t))}
	if w.wide {
		p := b.widePos[w.offset]
		ev.Input, ev.Line, ev.Offset, ev.Length = b.evInputs[p.input], p.line, p.offset, p.length
	}
	if text {
		ev.Text = b.texts[w.text]
	}
	return ev
}

// textID is s's index in b.texts: its entry when interned, else a new one.
func (b *Builder) textID(s string) uint32 {
	if k, ok := b.words[s]; ok {
		return k
	}
	return b.addText(s)
}

// internID is intern as an index in b.texts.
func (b *Builder) internID(s string) uint32 {
	if k, ok := b.words[s]; ok {
		return k
	}
	if len(s) > maxInternLen {
		return b.addText(keepReason(s))
	}
	w := strings.Clone(s)
	if k, ok := b.word(w); ok {
		return k
	}
	return b.addText(w)
}

// addText enters a string the builder owns into b.texts.
func (b *Builder) addText(s string) uint32 {
	return uint32(reuse(&b.texts, &b.freeTexts, s))
}
