// Package stamps keeps times compactly and exactly. A flow holds some
// hundred times while a log is read: as a Stamp, each is 8 bytes where a
// time.Time takes 24, and an Instant 16.
//
// A Stamp is nanoseconds from the table's first stamped time (its base)
// with the time's zone, when the zone is one of the table's first sixteen
// and the time within eight years of the base; any other time goes to a
// table on the side, so nothing is lost or rounded. Only the Table that
// made a stamp reads it back. The side table grows with what its holders
// keep, not with the times stamped: Sweep drops the entries no stamp
// holds any more.
package stamps

import "time"

// Instant is a time in 16 bytes: seconds since January 1 of year 1 (so
// the zero Instant is the zero time), nanoseconds, and the time's zone as
// an index into its table's zones. Only the table that made it reads it
// back as a time; instants of one table compare and subtract alone.
type Instant struct {
	sec  int64
	nsec int32
	zone int32
}

// unixToInternal is the number of seconds from year 1 to 1970.
const unixToInternal int64 = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 24 * 60 * 60

// IsZero reports whether i is the zero time.
func (i Instant) IsZero() bool { return i.sec == 0 && i.nsec == 0 }

// Before is time.Time's Before.
func (i Instant) Before(u Instant) bool {
	return i.sec < u.sec || i.sec == u.sec && i.nsec < u.nsec
}

// After is time.Time's After.
func (i Instant) After(u Instant) bool {
	return i.sec > u.sec || i.sec == u.sec && i.nsec > u.nsec
}

// Sub is time.Time's Sub, saturated alike.
func (i Instant) Sub(u Instant) time.Duration { return i.wall().Sub(u.wall()) }

// wall is the instant in some zone: enough to compare and subtract.
func (i Instant) wall() time.Time {
	// The sum wraps for times no calendar holds, and unwraps in time.Unix.
	return time.Unix(i.sec-unixToInternal, int64(i.nsec))
}

// Stamp is a time in 8 bytes, made by a Table (see the package comment).
// The zero Stamp is the zero time.
type Stamp uint64

// IsZero reports whether s is the zero time.
func (s Stamp) IsZero() bool { return s == 0 }

// compact reports whether s is a non-zero time held in s itself.
func (s Stamp) compact() bool { return s != 0 && s&wideBit == 0 }

const (
	wideBit   = 1 // the low bit: the rest indexes Table.wide
	zoneBits  = 4
	shift     = 1 + zoneBits
	bias      = 1 << 58 // offsets from the base are kept as offset+bias in 59 bits
	maxSecond = 1 << 28 // |seconds from the base| below this fit: 2^28 s * 1e9 + 1e9 < bias
)

// Table makes stamps and instants and reads them back. Its zero value is
// not ready: use New.
type Table struct {
	base     Instant   // the first stamped time
	wide     []Instant // the times a stamp does not hold
	zones    []*time.Location
	lastZone int32
	// At's last time and its stamp, while last is not 0.
	lastTime time.Time
	last     Stamp
	sweepAt  int  // the size of wide that calls for a sweep
	floor    int  // and the least (a sweep walks every holder)
	noCache  bool // SetReference
}

// New returns an empty table.
func New() Table { return Table{floor: 1024} }

// SetReference turns At's memory of its last time off (on) or back on:
// tests compare a table that remembers with one that always converts.
func (t *Table) SetReference(on bool) { t.noCache = on }

// SetSweepFloor sets the least size of the side table at which Due asks
// for a sweep (1024 by default): tests sweep often.
func (t *Table) SetSweepFloor(n int) { t.floor = n }

// Instant converts tm, keeping its zone.
func (t *Table) Instant(tm time.Time) Instant {
	i := Instant{sec: tm.Unix() + unixToInternal, nsec: int32(tm.Nanosecond())}
	if loc := tm.Location(); loc != time.UTC {
		i.zone = t.zoneIndex(loc, tm)
	}
	return i
}

// TimeOf converts i back to the time it was made from.
func (t *Table) TimeOf(i Instant) time.Time {
	loc := time.UTC
	if i.zone > 0 {
		loc = t.zones[i.zone]
	}
	return i.wall().In(loc)
}

// zoneIndex is loc's index in t.zones (0 is UTC), added if new. A parser
// makes a new fixed zone each time a journald prefix's offset changes, so
// a zone of the same name and offset is taken as the same: the table holds
// one entry per zone the input really has.
func (t *Table) zoneIndex(loc *time.Location, tm time.Time) int32 {
	if len(t.zones) == 0 {
		t.zones = []*time.Location{time.UTC}
	}
	if z := t.lastZone; t.zones[z] == loc {
		return z
	}
	name, off := tm.Zone()
	for k, z := range t.zones {
		if z == loc || k > 0 && z.String() == loc.String() && sameZone(tm.In(z), name, off) {
			t.lastZone = int32(k)
			return int32(k)
		}
	}
	t.zones = append(t.zones, loc)
	t.lastZone = int32(len(t.zones) - 1)
	return t.lastZone
}

func sameZone(tm time.Time, name string, off int) bool {
	n, o := tm.Zone()
	return n == name && o == off
}

// Zones is how many distinct zones the table holds, UTC included once any
// other is met.
func (t *Table) Zones() int { return len(t.zones) }

// Stamp converts i.
func (t *Table) Stamp(i Instant) Stamp {
	if i.IsZero() {
		return 0
	}
	if t.base.IsZero() {
		t.base = i
	}
	ds := i.sec - t.base.sec
	if i.zone >= 0 && i.zone < 1<<zoneBits && ds > -maxSecond && ds < maxSecond {
		d := ds*1e9 + int64(i.nsec) - int64(t.base.nsec)
		return Stamp(uint64(d+bias)<<shift | uint64(i.zone)<<1)
	}
	t.wide = append(t.wide, i)
	return Stamp(uint64(len(t.wide)-1)<<1 | wideBit)
}

// At is tm as a stamp. A record's time is stamped several times (its
// flow's span, its stage, its evidence): the last time's stamp is kept
// while it holds (a compact one, till a sweep renumbers).
func (t *Table) At(tm time.Time) Stamp {
	if t.last != 0 && tm == t.lastTime && !t.noCache {
		return t.last
	}
	return t.atNew(tm)
}

// atNew is At for a time other than the last: apart, so that At's test of
// the last inlines.
func (t *Table) atNew(tm time.Time) Stamp {
	// Stamp(Instant(tm)) in place for a time of the last zone (UTC
	// nearly always) near the base, as nearly all are.
	zone := int32(-1)
	if loc := tm.Location(); loc == time.UTC {
		zone = 0
	} else if z := t.lastZone; int(z) < len(t.zones) && t.zones[z] == loc {
		zone = z
	}
	if sec, nsec := tm.Unix()+unixToInternal, tm.Nanosecond(); zone >= 0 && zone < 1<<zoneBits && !t.base.IsZero() && (sec != 0 || nsec != 0) {
		if ds := sec - t.base.sec; ds > -maxSecond && ds < maxSecond {
			d := ds*1e9 + int64(nsec) - int64(t.base.nsec)
			s := Stamp(uint64(d+bias)<<shift | uint64(zone)<<1)
			t.lastTime, t.last = tm, s
			return s
		}
	}
	s := t.Stamp(t.Instant(tm))
	if s.compact() {
		t.lastTime, t.last = tm, s
	}
	return s
}

// Time is the time s was made from.
func (t *Table) Time(s Stamp) time.Time { return t.TimeOf(t.InstantOf(s)) }

// Before is time.Time's Before for stamps.
func (t *Table) Before(x, y Stamp) bool {
	if x.compact() && y.compact() {
		return x>>shift < y>>shift
	}
	return t.InstantOf(x).Before(t.InstantOf(y))
}

// After is time.Time's After for stamps.
func (t *Table) After(x, y Stamp) bool { return t.Before(y, x) }

// Sub is time.Time's Sub for stamps.
func (t *Table) Sub(x, y Stamp) time.Duration {
	if x.compact() && y.compact() {
		// Both within eight years of the base: no saturation.
		return time.Duration(int64(x>>shift) - int64(y>>shift))
	}
	return t.InstantOf(x).Sub(t.InstantOf(y))
}

// Later is the later of x and y (y when equal).
func (t *Table) Later(x, y Stamp) Stamp {
	if t.After(x, y) {
		return x
	}
	return y
}

// Widen widens the span from *first to *last to hold s: *first becomes s
// when it is zero or later than s, *last when it is earlier.
func (t *Table) Widen(first, last *Stamp, s Stamp) {
	if f, l := *first, *last; (s|f|l)&wideBit == 0 && s != 0 && f != 0 && l != 0 {
		// All three compact, as nearly all are: compared in place.
		if s>>shift < f>>shift {
			*first = s
		}
		if s>>shift > l>>shift {
			*last = s
		}
		return
	}
	t.widen(first, last, s)
}

// widen is Widen when a stamp is zero or on the side.
func (t *Table) widen(first, last *Stamp, s Stamp) {
	if first.IsZero() || t.Before(s, *first) {
		*first = s
	}
	if t.After(s, *last) {
		*last = s
	}
}

// InstantOf converts s back.
func (t *Table) InstantOf(s Stamp) Instant { return decode(s, t.base, t.wide) }

// Base is the table's first stamped time, its base (zero before any).
func (t *Table) Base() time.Time { return t.TimeOf(t.base) }

// Wide is how many times the side table holds.
func (t *Table) Wide() int { return len(t.wide) }

// decode is s as made from base with wide on the side.
func decode(s Stamp, base Instant, wide []Instant) Instant {
	switch {
	case s == 0:
		return Instant{}
	case s&wideBit != 0:
		return wide[s>>1]
	}
	ns := int64(s>>shift) - bias + int64(base.nsec)
	sec := ns / 1e9
	ns -= sec * 1e9
	if ns < 0 {
		sec--
		ns += 1e9
	}
	return Instant{sec: base.sec + sec, nsec: int32(ns), zone: int32(s>>1) & (1<<zoneBits - 1)}
}

// Due reports whether the side table has doubled since the last sweep
// (and holds at least the floor): the holder should then call Sweep.
func (t *Table) Due() bool { return len(t.wide) >= max(t.sweepAt, t.floor) }

// Sweep drops the times on the side that no stamp holds any more. The
// times a holder keeps are overwritten and copied, so entries are not
// given back one by one but swept, like a garbage collector. each must
// call visit with every stamp the holder keeps, each once, and no stamp
// may be held elsewhere: they are renumbered. When most stamps held are on
// the side (the base, the first time, was far from the rest), all are made
// again from the latest as the base.
func (t *Table) Sweep(each func(visit func(*Stamp))) {
	t.last = 0
	near, far := 0, 0
	var latest Instant
	each(func(s *Stamp) {
		switch {
		case s.compact():
			near++
		case *s != 0:
			far++
			if in := t.wide[*s>>1]; in.After(latest) {
				latest = in
			}
		}
	})
	if far > near {
		base, wide := t.base, t.wide
		t.base, t.wide = latest, nil
		each(func(s *Stamp) { *s = t.Stamp(decode(*s, base, wide)) })
		t.sweepAt = 2 * len(t.wide)
		return
	}
	keep := make([]int32, len(t.wide))
	var kept []Instant
	each(func(s *Stamp) {
		if *s&wideBit == 0 {
			return
		}
		k := *s >> 1
		if keep[k] == 0 {
			kept = append(kept, t.wide[k])
			keep[k] = int32(len(kept)) // +1: 0 is not yet kept
		}
		*s = Stamp(keep[k]-1)<<1 | wideBit
	})
	t.wide = kept
	t.sweepAt = 2 * len(kept)
}
