package timeline

import "time"

// instant is a time the builder keeps, in 16 bytes where time.Time takes
// 24: a flow holds a hundred of them, in its stages, containers and events.
// It is exact: seconds since January 1 of year 1 (so the zero instant is
// the zero time), nanoseconds, and the time's zone as an index into the
// builder's zones. Only the builder that made an instant can read it back.
type instant struct {
	sec  int64
	nsec int32
	zone int32
}

// unixToInternal is the number of seconds from year 1 to 1970.
const unixToInternal int64 = (1969*365 + 1969/4 - 1969/100 + 1969/400) * 24 * 60 * 60

func (i instant) IsZero() bool { return i.sec == 0 && i.nsec == 0 }

func (i instant) Before(u instant) bool {
	return i.sec < u.sec || i.sec == u.sec && i.nsec < u.nsec
}

func (i instant) After(u instant) bool {
	return i.sec > u.sec || i.sec == u.sec && i.nsec > u.nsec
}

// Sub is time.Time's Sub, saturated alike.
func (i instant) Sub(u instant) time.Duration { return i.wall().Sub(u.wall()) }

// wall is the instant in some zone: enough to compare and subtract.
func (i instant) wall() time.Time {
	// The sum wraps for times no calendar holds, and unwraps in time.Unix.
	return time.Unix(i.sec-unixToInternal, int64(i.nsec))
}

// instant converts t, keeping its zone.
func (b *Builder) instant(t time.Time) instant {
	i := instant{sec: t.Unix() + unixToInternal, nsec: int32(t.Nanosecond())}
	if loc := t.Location(); loc != time.UTC {
		i.zone = b.zoneIndex(loc, t)
	}
	return i
}

// time converts i back to the time it was made from.
func (b *Builder) time(i instant) time.Time {
	loc := time.UTC
	if i.zone > 0 {
		loc = b.zones[i.zone]
	}
	return i.wall().In(loc)
}

// zoneIndex is loc's index in b.zones (0 is UTC), added if new. The
// parser makes a new fixed zone each time a journald prefix's offset
// changes, so a zone of the same name and offset is taken as the same:
// the table holds one entry per zone the input really has.
func (b *Builder) zoneIndex(loc *time.Location, t time.Time) int32 {
	if len(b.zones) == 0 {
		b.zones = []*time.Location{time.UTC}
	}
	if z := b.lastZone; b.zones[z] == loc {
		return z
	}
	name, off := t.Zone()
	for k, z := range b.zones {
		if z == loc || k > 0 && z.String() == loc.String() && sameZone(t.In(z), name, off) {
			b.lastZone = int32(k)
			return int32(k)
		}
	}
	b.zones = append(b.zones, loc)
	b.lastZone = int32(len(b.zones) - 1)
	return b.lastZone
}

func sameZone(t time.Time, name string, off int) bool {
	n, o := t.Zone()
	return n == name && o == off
}
