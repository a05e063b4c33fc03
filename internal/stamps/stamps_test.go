package stamps

import (
	"math"
	"strconv"
	"testing"
	"time"
)

// Instants give back the very time they were made from, zone included,
// and order and subtract as time.Time does.
func TestInstantRoundTrip(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	times := []time.Time{
		{},
		time.Date(2026, 11, 22, 6, 25, 30, 165825000, time.UTC),
		time.Date(2026, 11, 22, 6, 25, 30, 999999999, time.FixedZone("", 2*3600)),
		time.Date(2026, 11, 22, 6, 25, 30, 1, time.FixedZone("", 2*3600)), // same offset, another *Location
		time.Date(2026, 3, 29, 1, 30, 0, 0, berlin),
		time.Date(2026, 7, 1, 12, 0, 0, 0, berlin),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.Local),
		time.Unix(0, 0).UTC(),
		time.Unix(-1, 999999999).UTC(),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(-5000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(300000, 1, 1, 0, 0, 0, 0, time.FixedZone("", -9*3600)),
		time.Unix(math.MaxInt64/2, 0).UTC(),
		time.Unix(math.MinInt64/2, 0).UTC(),
	}
	b := New()
	for i, a := range times {
		ia := b.Instant(a)
		got := b.TimeOf(ia)
		// The same instant in an equal zone (another *Location with the
		// same name and offset) is the same time.
		if got != a && !(got.Equal(a) && got.Location().String() == a.Location().String() && zoneOff(got) == zoneOff(a)) {
			t.Errorf("%d: %v came back as %v", i, a, got)
		}
		if got.Location().String() != a.Location().String() {
			t.Errorf("%d: zone %q came back as %q", i, a.Location(), got.Location())
		}
		if ia.IsZero() != a.IsZero() {
			t.Errorf("%d: %v: IsZero %v", i, a, ia.IsZero())
		}
		for j, c := range times {
			ic := b.Instant(c)
			if ia.Before(ic) != a.Before(c) || ia.After(ic) != a.After(c) || ia.Sub(ic) != a.Sub(c) {
				t.Errorf("%d vs %d: Before %v/%v After %v/%v Sub %v/%v", i, j, ia.Before(ic), a.Before(c), ia.After(ic), a.After(c), ia.Sub(ic), a.Sub(c))
			}
		}
	}
}

// A journald prefix whose offset flips makes a new zone each time: the
// table keeps one per distinct zone, not one per line.
func TestInstantZonesBounded(t *testing.T) {
	b := New()
	base := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	for i := range 10000 {
		off := 3600 * (i % 3)
		tm := base.Add(time.Duration(i) * time.Second).In(time.FixedZone("", off))
		if got := b.TimeOf(b.Instant(tm)); !got.Equal(tm) || zoneOff(got) != off {
			t.Fatalf("%v came back as %v", tm, got)
		}
	}
	if b.Zones() != 4 { // UTC, and the fixed zones +00:00, +01:00, +02:00
		t.Errorf("%d zones kept, want 4", b.Zones())
	}
}

func zoneOff(t time.Time) int {
	_, off := t.Zone()
	return off
}

// Stamps give back the very instant they were made from: near the first
// one in 8 bytes, far from it or in a zone past the sixteenth from the
// table on the side.
func TestStampRoundTrip(t *testing.T) {
	base := time.Date(2026, 11, 22, 6, 25, 30, 165825000, time.UTC)
	times := []time.Time{
		base,
		{},
		base.Add(-time.Nanosecond),
		base.Add(time.Nanosecond),
		base.Add(-base.Sub(time.Unix(0, 0))), // the epoch
		base.Add(8 * 365 * 24 * time.Hour),   // the edge of the compact form
		base.Add(-8 * 365 * 24 * time.Hour),
		base.Add(9 * 365 * 24 * time.Hour), // past it
		base.Add(-9 * 365 * 24 * time.Hour),
		time.Date(2026, 11, 22, 6, 25, 30, 999999999, time.FixedZone("", 2*3600)),
		time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		time.Date(300000, 1, 1, 0, 0, 0, 0, time.FixedZone("", -9*3600)),
		time.Unix(math.MaxInt64/2, 0).UTC(),
		time.Unix(math.MinInt64/2, 999999999).UTC(),
	}
	// More zones than a stamp holds.
	for i := range 20 {
		times = append(times, base.Add(time.Duration(i)*time.Hour).In(time.FixedZone("", i*900)))
	}
	b := New()
	wide := 0
	for i, tm := range times {
		in := b.Instant(tm)
		s := b.Stamp(in)
		if s&wideBit != 0 {
			wide++
		}
		if got := b.InstantOf(s); got != in {
			t.Errorf("%d: %v: instant %+v came back as %+v", i, tm, in, got)
		}
		if (s == 0) != tm.IsZero() {
			t.Errorf("%d: %v: stamp %d", i, tm, s)
		}
	}
	// On the side: the seven times nine years or more from the first, and
	// the times in zones 16 to 21 (UTC, +02:00 and -09:00 come first; the
	// loop's +02:00 is the one before).
	if wide != 13 {
		t.Errorf("%d of %d stamps on the side, want 13", wide, len(times))
	}
}

// atNew's path in place for the last zone is stamp(instant(t)): two
// tables given the same times, one each way, stamp them alike and read
// them back as they were, whatever the zone or distance from the base.
func TestStampAtNewIsStampOfInstant(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	other := time.FixedZone("CET", 3600) // the same zone, another *Location
	base := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	times := []time.Time{base, base.Add(time.Nanosecond), base.In(paris), base.Add(time.Second).In(paris), base.In(other), base.Add(2 * time.Second),
		{}, time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), base.AddDate(9, 0, 0), base.AddDate(-9, 0, 0), base.Add(-time.Hour), base.Add(3 * time.Second).In(paris),
		time.Date(-5, 3, 1, 0, 0, 0, 0, time.UTC), base.AddDate(200, 0, 0).In(paris), base.Add(5 * time.Second)}
	for i := range 20 {
		times = append(times, base.Add(time.Duration(i)*time.Second).In(time.FixedZone("Z"+strconv.Itoa(i), i*60)))
	}
	// And with the base a second after the zero time, which is then near.
	early := time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC)
	for _, seq := range [][]time.Time{times, {early, {}, early.Add(time.Nanosecond), {}, early.In(paris)}} {
		inPlace, byInstant := New(), New()
		for _, tm := range seq {
			got := inPlace.atNew(tm)
			want := byInstant.Stamp(byInstant.Instant(tm))
			if got != want {
				t.Fatalf("%v: stamp %x, stamp(instant) %x", tm, got, want)
			}
			if back := inPlace.Time(got); !back.Equal(tm) || back.Location().String() != tm.Location().String() && !tm.IsZero() {
				t.Fatalf("%v came back as %v", tm, back)
			}
		}
	}
}

// Stamps order and subtract as the times they stand for, compact or on
// the side, and Widen widens a span as time.Time's Before would.
func TestStampsCompareAsTimes(t *testing.T) {
	base := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	times := []time.Time{base, base.Add(time.Nanosecond), base.Add(-time.Hour), base.AddDate(20, 0, 0), base.AddDate(-30, 0, 0),
		base.Add(time.Minute).In(time.FixedZone("", 3600)), time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC), base.Add(time.Second)}
	tab := New()
	st := make([]Stamp, len(times))
	for i, tm := range times {
		st[i] = tab.At(tm)
	}
	for i, a := range times {
		for j, c := range times {
			x, y := st[i], st[j]
			if tab.Before(x, y) != a.Before(c) || tab.After(x, y) != a.After(c) || tab.Sub(x, y) != a.Sub(c) {
				t.Errorf("%v vs %v: Before %v After %v Sub %v", a, c, tab.Before(x, y), tab.After(x, y), tab.Sub(x, y))
			}
			want := c
			if a.After(c) {
				want = a
			}
			if got := tab.Time(tab.Later(x, y)); !got.Equal(want) {
				t.Errorf("Later(%v, %v) = %v", a, c, got)
			}
		}
	}
	var first, last Stamp
	for i, s := range st {
		tab.Widen(&first, &last, s)
		lo, hi := times[0], times[0]
		for _, tm := range times[1 : i+1] {
			if tm.Before(lo) {
				lo = tm
			}
			if tm.After(hi) {
				hi = tm
			}
		}
		if !tab.Time(first).Equal(lo) || !tab.Time(last).Equal(hi) {
			t.Fatalf("after %d: span %v..%v, want %v..%v", i, tab.Time(first), tab.Time(last), lo, hi)
		}
	}
}

// Sweep keeps the times the holder keeps, drops the rest, and moves the
// base to the latest time when most held stamps are on the side.
func TestSweep(t *testing.T) {
	base := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	far := base.AddDate(20, 0, 0)
	tests := []struct {
		name     string
		near     int // compact stamps held
		far      int // stamps on the side held
		dropped  int // stamps on the side made and dropped
		wantWide int
		rebased  bool
	}{
		{"drops what nothing holds", 5, 3, 100, 3, false},
		{"nothing on the side", 5, 0, 10, 0, false},
		{"most far: rebase", 1, 4, 10, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := New()
			var held []Stamp
			var want []time.Time
			tab.At(base)
			for i := range tt.near {
				tm := base.Add(time.Duration(i) * time.Second)
				held, want = append(held, tab.At(tm)), append(want, tm)
			}
			for i := range tt.dropped {
				tab.At(far.Add(time.Duration(i) * time.Hour))
			}
			for i := range tt.far {
				tm := far.Add(time.Duration(i)*time.Minute + time.Nanosecond)
				held, want = append(held, tab.At(tm)), append(want, tm)
			}
			held = append(held, 0)
			want = append(want, time.Time{})
			if !tab.Due() && tt.dropped+tt.far >= 1024 {
				t.Fatal("not due past the floor")
			}
			tab.Sweep(func(visit func(*Stamp)) {
				for i := range held {
					visit(&held[i])
				}
			})
			if got := tab.Wide(); got != tt.wantWide {
				t.Errorf("%d times on the side after the sweep, want %d", got, tt.wantWide)
			}
			if moved := !tab.Base().Equal(base); moved != tt.rebased {
				t.Errorf("base %v, rebased %v, want %v", tab.Base(), moved, tt.rebased)
			}
			for i, s := range held {
				if got := tab.Time(s); !got.Equal(want[i]) {
					t.Errorf("stamp %d: %v after the sweep, want %v", i, got, want[i])
				}
			}
		})
	}
}

// FuzzStamps stamps times read from the input (any second, nanosecond
// and zone offset, so many on the side) and checks that each comes back
// exactly, with and without At's memory, and after sweeps that keep only
// some of them.
func FuzzStamps(f *testing.F) {
	f.Add(int64(1795000000), int32(5), int16(0), int64(0), []byte{1, 2, 3})
	f.Add(int64(-62135596800), int32(1), int16(60), int64(1<<40), []byte{0, 255, 7})
	f.Add(int64(math.MaxInt64/4), int32(999999999), int16(-720), int64(-1), []byte{9, 9, 9, 9, 9})
	f.Fuzz(func(t *testing.T, sec int64, nsec int32, offMin int16, step int64, ops []byte) {
		nsec = nsec % 1e9
		if nsec < 0 {
			nsec = -nsec
		}
		tab, ref := New(), New()
		ref.SetReference(true)
		tab.SetSweepFloor(4)
		var held []Stamp
		var want []time.Time
		for i, op := range ops {
			tm := time.Unix(sec+int64(op)*step%(1<<40), int64(nsec)+int64(i))
			switch op % 4 {
			case 1:
				tm = tm.In(time.FixedZone("", int(offMin)*60))
			case 2:
				tm = tm.In(time.FixedZone("Z"+strconv.Itoa(int(op)%20), int(op)*60))
			case 3:
				tm = time.Time{}
			default:
				tm = tm.UTC()
			}
			s := tab.At(tm)
			if r := ref.Time(ref.At(tm)); !r.Equal(tm) {
				t.Fatalf("%v came back as %v without memory", tm, r)
			}
			if got := tab.Time(s); !got.Equal(tm) || got.Location().String() != tm.Location().String() && !tm.IsZero() {
				t.Fatalf("%v came back as %v", tm, got)
			}
			if op%3 != 0 { // kept; the others are dropped at the next sweep
				held, want = append(held, s), append(want, tm)
			}
			if tab.Due() {
				tab.Sweep(func(visit func(*Stamp)) {
					for i := range held {
						visit(&held[i])
					}
				})
			}
			for k, s := range held {
				if got := tab.Time(s); !got.Equal(want[k]) {
					t.Fatalf("held %v came back as %v", want[k], got)
				}
				if k > 0 && tab.Before(held[k-1], s) != want[k-1].Before(want[k]) {
					t.Fatalf("%v before %v: %v", want[k-1], want[k], tab.Before(held[k-1], s))
				}
			}
		}
	})
}
