package timeline

import (
	"encoding/binary"
	"encoding/hex"
	"time"

	"github.com/podflow/podflow/parser"
)

// The builder keeps some hundred times and thirty lines per pod while the
// log is read: in compact forms (a stamp for a time, a where for a line's
// position and text) that only the builder that made them reads back. Each
// form fits what real logs hold and sends what does not fit (a time years
// from the log's first, an input past the 65,535th) to a table on the
// side, so nothing is lost or rounded. The tables grow with what flows
// keep, not with lines: a kept line that is overwritten (a stage keeps its
// latest line in one slot) gives its entries back, and the times on the
// side that nothing holds any more are swept (sweepTimes).

// stamp is a time in 8 bytes: nanoseconds from the builder's first
// stamped time with the time's zone (instant.go) when the zone is one of
// the first sixteen and the time within eight years of that one; else
// an index in b.wideTimes. The zero stamp is the zero time. Stamps are
// compared and subtracted by the builder (b.before, b.sub).
type stamp uint64

func (s stamp) IsZero() bool { return s == 0 }

// compact reports whether s is a non-zero time held in s itself.
func (s stamp) compact() bool { return s != 0 && s&stampWide == 0 }

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
	b.wideTimes = append(b.wideTimes, i)
	return stamp(uint64(len(b.wideTimes)-1)<<1 | stampWide)
}

// stampAt is t as a stamp. A record's time is stamped several times
// (its flow's span, its stage, its evidence): the last time's stamp is
// kept while it holds (a compact one, till sweepTimes renumbers).
func (b *Builder) stampAt(t time.Time) stamp {
	if b.lastStamp != 0 && t == b.lastStampTime && !b.reference {
		return b.lastStamp
	}
	return b.stampAtNew(t)
}

// stampAtNew is stampAt for a time other than the last: apart, so that
// stampAt's test of the last inlines.
func (b *Builder) stampAtNew(t time.Time) stamp {
	// stamp(instant(t)) in place for a time of the last zone (UTC nearly
	// always) near the base, as nearly all are.
	zone := int32(-1)
	if loc := t.Location(); loc == time.UTC {
		zone = 0
	} else if z := b.lastZone; int(z) < len(b.zones) && b.zones[z] == loc {
		zone = z
	}
	if sec, nsec := t.Unix()+unixToInternal, t.Nanosecond(); zone >= 0 && zone < 1<<stampZoneBits && !b.stampBase.IsZero() && (sec != 0 || nsec != 0) {
		if ds := sec - b.stampBase.sec; ds > -stampMaxSecond && ds < stampMaxSecond {
			d := ds*1e9 + int64(nsec) - int64(b.stampBase.nsec)
			s := stamp(uint64(d+stampBias)<<stampShift | uint64(zone)<<1)
			b.lastStampTime, b.lastStamp = t, s
			return s
		}
	}
	s := b.stamp(b.instant(t))
	if s.compact() {
		b.lastStampTime, b.lastStamp = t, s
	}
	return s
}

// timeOf is the time s was made from.
func (b *Builder) timeOf(s stamp) time.Time { return b.time(b.instantOf(s)) }

// before is time.Time's Before for stamps.
func (b *Builder) before(x, y stamp) bool {
	if x.compact() && y.compact() {
		return x>>stampShift < y>>stampShift
	}
	return b.instantOf(x).Before(b.instantOf(y))
}

// after is time.Time's After for stamps.
func (b *Builder) after(x, y stamp) bool { return b.before(y, x) }

// sub is time.Time's Sub for stamps.
func (b *Builder) sub(x, y stamp) time.Duration {
	if x.compact() && y.compact() {
		// Both within eight years of the base: no saturation.
		return time.Duration(int64(x>>stampShift) - int64(y>>stampShift))
	}
	return b.instantOf(x).Sub(b.instantOf(y))
}

// later is the later of x and y (y when equal).
func (b *Builder) later(x, y stamp) stamp {
	if b.after(x, y) {
		return x
	}
	return y
}

// stampSpan is a span of stamps.
type stampSpan struct{ from, to stamp }

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
	if e.wide() {
		b.freePos = append(b.freePos, int(e.pos))
	}
	b.texts.Release(e.text)
}

// sweepTimes drops the times on the side that nothing holds any more: the
// times a flow keeps are overwritten (its last line's, a stage's last
// failure) and copied (a stage ends when its container died), so entries
// are not given back one by one but swept, like a garbage collector,
// when the table has doubled since the last sweep. Stamps are then
// renumbered: it runs between records (Add), when no stamp is held
// outside the builder's flows. When most times the flows hold are on the
// side (the log's first time, the base, was far from the rest), all are
// made again from the latest as the base.
func (b *Builder) sweepTimes() {
	if len(b.wideTimes) < max(b.wideSweep, b.wideFloor) {
		return // as good as always: inlined
	}
	b.sweep()
}

// sweep is sweepTimes once the table has grown.
func (b *Builder) sweep() {
	b.lastStamp = 0
	near, far := 0, 0
	var latest instant
	b.eachStamp(func(s *stamp) {
		switch {
		case s.compact():
			near++
		case *s != 0:
			far++
			if in := b.wideTimes[*s>>1]; in.After(latest) {
				latest = in
			}
		}
	})
	if far > near {
		base, wide := b.stampBase, b.wideTimes
		b.stampBase, b.wideTimes = latest, nil
		b.eachStamp(func(s *stamp) { *s = b.stamp(decodeStamp(*s, base, wide)) })
		b.wideSweep = 2 * len(b.wideTimes)
		return
	}
	keep := make([]int32, len(b.wideTimes))
	var kept []instant
	b.eachStamp(func(s *stamp) {
		if *s&stampWide == 0 {
			return
		}
		k := *s >> 1
		if keep[k] == 0 {
			kept = append(kept, b.wideTimes[k])
			keep[k] = int32(len(kept)) // +1: 0 is not yet kept
		}
		*s = stamp(keep[k]-1)<<1 | stampWide
	})
	b.wideTimes = kept
	b.wideSweep = 2 * len(kept)
}

// eachStamp calls visit with every stamp the builder's flows hold.
func (b *Builder) eachStamp(visit func(*stamp)) {
	stage := func(s *stageState) {
		if s == nil {
			return
		}
		visit(&s.begin)
		visit(&s.complete)
		if s.trouble != nil {
			visit(&s.trouble.first)
			visit(&s.trouble.lastFail)
			visit(&s.trouble.lastRetry)
		}
		for i := range s.evidence {
			visit(&s.evidence[i].at)
		}
	}
	for _, f := range b.flows {
		if f == nil {
			continue
		}
		visit(&f.first)
		visit(&f.last)
		for _, s := range f.stages {
			stage(s)
		}
		if f.fallback != nil {
			for i := range f.fallback.evidence {
				visit(&f.fallback.evidence[i].at)
			}
		}
		for i := range f.events {
			visit(&f.events[i].at)
			visit(&f.events[i].last)
		}
		if st := f.startup; st != nil {
			visit(&st.created)
			visit(&st.observed)
			visit(&st.running)
			visit(&st.ev.at)
		}
		for _, c := range f.containers {
			for _, s := range c.stages {
				stage(s)
			}
			visit(&c.attemptAt)
			visit(&c.died)
			visit(&c.startedAt)
			visit(&c.troubleAt)
			visit(&c.plegAt)
			visit(&c.pullOpen)
			visit(&c.ran.from)
			visit(&c.ran.to)
			for i := range c.pulls {
				visit(&c.pulls[i].from)
				visit(&c.pulls[i].to)
			}
			for i := range c.present {
				visit(&c.present[i])
			}
		}
	}
}

// instantOf converts s back.
func (b *Builder) instantOf(s stamp) instant { return decodeStamp(s, b.stampBase, b.wideTimes) }

// decodeStamp is s as made from base with wide on the side.
func decodeStamp(s stamp, base instant, wide []instant) instant {
	switch {
	case s == 0:
		return instant{}
	case s&stampWide != 0:
		return wide[s>>1]
	}
	ns := int64(s>>stampShift) - stampBias + int64(base.nsec)
	sec := ns / 1e9
	ns -= sec * 1e9
	if ns < 0 {
		sec--
		ns += 1e9
	}
	return instant{sec: base.sec + sec, nsec: int32(ns), zone: int32(s>>1) & (1<<stampZoneBits - 1)}
}

// where is a kept line's position and text in 16 bytes: in pos the byte
// offset in 36 bits (64 GiB) and the line in 28 (268M lines); in more the
// length in 18 bits (256 KiB) and the input in 13, an index in b.evInputs
// (or, for a position that does not fit, more's top bit, and pos indexes
// b.widePos); the text as an index in b.texts.
type where struct {
	pos  uint64
	more uint32
	text uint32
}

const (
	whereLineBits   = 28
	whereOffsetBits = 64 - whereLineBits
	whereLengthBits = 18
	whereInputBits  = 13
	whereWide       = 1 << 31
)

// wide reports whether w's position is in b.widePos.
func (w where) wide() bool { return w.more&whereWide != 0 }

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
	if p.Offset >= 0 && p.Offset < 1<<whereOffsetBits && p.Line >= 0 && p.Line < 1<<whereLineBits &&
		p.Length >= 0 && p.Length < 1<<whereLengthBits && in >= 0 && in < 1<<whereInputBits {
		return where{pos: uint64(p.Offset)<<whereLineBits | uint64(p.Line), more: uint32(p.Length) | uint32(in)<<whereLengthBits, text: text}
	}
	k := reuse(&b.widePos, &b.freePos, widePos{line: p.Line, offset: p.Offset, length: p.Length, input: in})
	return where{pos: uint64(k), more: whereWide, text: text}
}

// evidence returns w as public evidence at time t, its text left out
// when text is false.
func (b *Builder) evidence(w where, t stamp, text bool) Evidence {
	ev := Evidence{Time: b.timeOf(t)}
	if w.wide() {
		p := b.widePos[w.pos]
		ev.Input, ev.Line, ev.Offset, ev.Length = b.evInputs[p.input], p.line, p.offset, p.length
	} else {
		ev.Input = b.evInputs[w.more>>whereLengthBits]
		ev.Line, ev.Offset, ev.Length = int64(w.pos&(1<<whereLineBits-1)), int64(w.pos>>whereLineBits), int(w.more&(1<<whereLengthBits-1))
	}
	if text {
		ev.Text = b.texts.Text(w.text)
	}
	return ev
}

// rid is a runtime (container or sandbox) ID as the builder keeps it, in
// half the bytes: a 64-digit lowercase hex ID, as nearly all are, packed
// in the 32 bytes it stands for; any other ID as itself, with 0xff added
// when it could be taken for a packed one (32 bytes) or for one with 0xff
// added (33 bytes or more, ending in 0xff).
type rid string

// packID writes id's rid into the builder's buffer and returns it: valid
// until the next packID. Look up with rid(p) (no copy); keep rid(p).
func (b *Builder) packID(id string) []byte {
	p := b.idBuf[:0]
	if len(id) == 64 {
		// Packed whole, eight digits a step, checked once.
		p = append(p, make([]byte, 32)...)
		if packHex(p[:32], id) {
			b.idBuf = p
			return p
		}
		p = p[:0]
	}
	p = append(p, id...)
	if len(id) == 32 || len(id) > 32 && id[len(id)-1] == 0xff {
		p = append(p, 0xff)
	}
	b.idBuf = p
	return p
}

// packHex decodes the 64 characters of id into the 32 bytes they stand
// for when each is a lowercase hex digit; ok is false otherwise.
func packHex(q []byte, id string) (ok bool) {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	q, id = q[:32], id[:64]
	var bad uint64
	for i := 0; i < 8; i++ {
		x := load8(id, 8*i)
		// For bytes below 0x80, b+(0x80-n) sets the byte's high bit
		// exactly when b >= n, and carries into no other byte.
		low := x &^ high
		letter := (low + ones*(0x80-'a')) &^ (low + ones*(0x80-'f'-1))
		digit := (low + ones*(0x80-'0')) &^ (low + ones*(0x80-'9'-1))
		bad |= x | ^(digit | letter)
		letter &= high
		// Each byte's value: its low four bits, and nine more for a
		// letter; pairs of them into bytes, in the 16-bit lanes, then
		// side by side.
		d := x&(ones*0x0f) + letter>>7*9
		t := (d&0x00ff00ff00ff00ff)<<4 | (d>>8)&0x00ff00ff00ff00ff
		t = (t | t>>8) & 0x0000ffff0000ffff
		t = (t | t>>16) & 0xffffffff
		binary.LittleEndian.PutUint32(q[4*i:], uint32(t))
	}
	return bad&high == 0
}

// String is the ID r stands for.
func (r rid) String() string {
	switch {
	case len(r) == 32:
		return hex.EncodeToString([]byte(r))
	case len(r) > 32 && r[len(r)-1] == 0xff:
		return string(r[:len(r)-1])
	}
	return string(r)
}

// ridStrings is ids as the IDs they stand for.
func ridStrings(ids []rid) []string {
	if ids == nil {
		return nil
	}
	out := make([]string, len(ids))
	for i, r := range ids {
		out[i] = r.String()
	}
	return out
}

// load8 is s[i:i+8] as a little-endian word (one load), for the hashes.
func load8(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
