package timeline

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/parser"
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
	b := NewBuilder(Options{})
	for i, a := range times {
		ia := b.instant(a)
		got := b.time(ia)
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
			ic := b.instant(c)
			if ia.Before(ic) != a.Before(c) || ia.After(ic) != a.After(c) || ia.Sub(ic) != a.Sub(c) {
				t.Errorf("%d vs %d: Before %v/%v After %v/%v Sub %v/%v", i, j, ia.Before(ic), a.Before(c), ia.After(ic), a.After(c), ia.Sub(ic), a.Sub(c))
			}
		}
	}
}

// A journald prefix whose offset flips makes a new zone each time: the
// builder keeps one per distinct zone, not one per line.
func TestInstantZonesBounded(t *testing.T) {
	b := NewBuilder(Options{})
	base := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	for i := range 10000 {
		off := 3600 * (i % 3)
		tm := base.Add(time.Duration(i) * time.Second).In(time.FixedZone("", off))
		if got := b.time(b.instant(tm)); !got.Equal(tm) || zoneOff(got) != off {
			t.Fatalf("%v came back as %v", tm, got)
		}
	}
	if len(b.zones) != 4 { // UTC, and the fixed zones +00:00, +01:00, +02:00
		t.Errorf("%d zones kept, want 4", len(b.zones))
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
	b := NewBuilder(Options{})
	wide := 0
	for i, tm := range times {
		in := b.instant(tm)
		s := b.stamp(in)
		if s&stampWide != 0 {
			wide++
		}
		if got := b.instantOf(s); got != in {
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

// Positions past what a where holds inline come back whole.
func TestWhereRoundTrip(t *testing.T) {
	b := NewBuilder(Options{})
	id := b.texts.ID("a text")
	// The 8,192 inputs a where holds inline, then one past them.
	for i := range 1 << whereInputBits {
		b.inputIndex(strconv.Itoa(i))
	}
	last := strconv.Itoa(1<<whereInputBits - 1)
	for i, tt := range []struct {
		p    parser.Position
		wide bool
	}{
		{parser.Position{Input: "0", Line: 1, Offset: 0, Length: 10}, false},
		{parser.Position{Input: last, Line: 1<<whereLineBits - 1, Offset: 1<<whereOffsetBits - 1, Length: 1<<whereLengthBits - 1}, false},
		{parser.Position{Input: "past", Line: 7, Offset: 5, Length: 3}, true},
		{parser.Position{Input: "1", Line: 1 << whereLineBits, Offset: 5, Length: 3}, true},
		{parser.Position{Input: "1", Line: 7, Offset: 1 << whereOffsetBits, Length: 3}, true},
		{parser.Position{Input: "1", Line: 7, Offset: 5, Length: 1 << whereLengthBits}, true},
		{parser.Position{Input: "1", Line: math.MaxInt64, Offset: math.MaxInt64, Length: math.MaxInt}, true},
		{parser.Position{Input: "1", Line: -1, Offset: -1, Length: -1}, true},
	} {
		rec := &parser.Record{Pos: tt.p, Time: time.Date(2026, 11, 22, 6, 0, 0, i, time.UTC)}
		w := b.where(rec, id)
		if w.wide() != tt.wide {
			t.Errorf("%d: wide %v, want %v", i, w.wide(), tt.wide)
		}
		ev := b.evidence(w, b.stampAt(rec.Time), true)
		want := Evidence{Input: tt.p.Input, Line: tt.p.Line, Offset: tt.p.Offset, Length: tt.p.Length, Time: rec.Time, Text: "a text"}
		if ev != want {
			t.Errorf("%d: %+v came back as %+v", i, want, ev)
		}
	}
}

// sweepTimes renumbers every stamp the flows hold: eachStamp must visit
// each stamp field of a flow's state, which a reflective walk counts.
func TestEachStampVisitsEveryStamp(t *testing.T) {
	stampType := reflect.TypeFor[stamp]()
	nodeType := reflect.TypeFor[*nodeState]()
	var count func(v reflect.Value) int
	count = func(v reflect.Value) int {
		if v.Type() == stampType {
			return 1
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || v.Type() == nodeType { // the flow's node holds no stamps
				return 0
			}
			return count(v.Elem())
		case reflect.Struct:
			n := 0
			for i := range v.NumField() {
				n += count(v.Field(i))
			}
			return n
		case reflect.Slice, reflect.Array:
			n := 0
			for i := range v.Len() {
				n += count(v.Index(i))
			}
			return n
		}
		return 0
	}
	if reflect.TypeFor[nodeState]().NumField() == 0 || count(reflect.ValueOf(&nodeState{})) != 0 {
		t.Fatal("the walk does not work")
	}
	for _, name := range []string{"v1.36.3/07-twenty-pods.log", "v1.36.3/10-init-container-crashloop.log", "v1.36.3/03-slow-image-pull.log"} {
		data, err := os.ReadFile(filepath.Join(corpus, name))
		if err != nil {
			t.Fatal(err)
		}
		b := NewBuilder(Options{})
		feed(b, filepath.Base(name), data)
		want := 0
		for _, f := range b.flows {
			want += count(reflect.ValueOf(f))
		}
		got := 0
		b.eachStamp(func(*stamp) { got++ })
		if got != want || want < 50 {
			t.Errorf("%s: eachStamp visits %d stamps, the flows hold %d", name, got, want)
		}
	}
}

// Times far from the first are kept on the side and swept, or made again
// from a new base when most are far: the list is the one a builder that
// never sweeps makes.
func TestSweptTimesComeBack(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/07-twenty-pods.log"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		first time.Time // the first time the builder stamps, its base
		years []int     // the log is read once per year, each as its own node
	}{
		// Most times near the base: the far ones (twenty years on) swept.
		{"sweep", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), []int{2026, 2046}},
		// The log four years after the base, then twice twenty years
		// after: most times are far, until the base moves to the latest.
		{"rebase", time.Date(2006, 1, 1, 0, 0, 0, 0, time.UTC), []int{2010, 2026, 2027}},
	}
	for _, tt := range tests {
		build := func(floor int) (js []byte, sweeps int, base time.Time) {
			b := NewBuilder(Options{})
			b.stampAt(tt.first)
			b.wideFloor = floor
			for _, year := range tt.years {
				r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: strconv.Itoa(year) + ".log", Year: year, Want: b.Want})
				for {
					rec, err := r.Next()
					if err != nil {
						break
					}
					n := len(b.wideTimes)
					b.Add(rec)
					if len(b.wideTimes) < n {
						sweeps++
					}
				}
			}
			base = b.time(b.stampBase)
			js, _ = json.Marshal(b.Finish())
			return js, sweeps, base
		}
		swept, sweeps, base := build(8)
		kept, _, _ := build(math.MaxInt)
		if !bytes.Equal(swept, kept) {
			t.Errorf("%s: the list differs when times on the side are swept", tt.name)
		}
		switch {
		case tt.name == "sweep" && sweeps < 5:
			t.Errorf("sweep: %d sweeps, the test proves nothing", sweeps)
		case tt.name == "rebase" && base.Year() != 2026:
			t.Errorf("rebase: the base is %v after %d sweeps, want it moved to the log's time", base, sweeps)
		case tt.name == "sweep" && !base.Equal(tt.first):
			t.Errorf("sweep: the base moved to %v", base)
		}
	}
}

// Runtime IDs come back as they were given, packed or not, and distinct
// IDs stay distinct.
func TestRuntimeIDRoundTrip(t *testing.T) {
	hex64 := "4f3a0c9e1b2d7f6a8e5c3b1a0f9d8c7b6a5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c"
	ids := []string{
		"", "a", hex64,
		strings.ToUpper(hex64),   // not lowercase: kept as is
		hex64[:63] + "g",         // not hex
		hex64[:62],               // shorter
		hex64[:32],               // 32 bytes: could pass for a packed one
		hex64[:32] + "\xff",      // and with the 0xff that marks it
		hex64[:32] + "\xff\xff",  // and once more
		hex64[:31] + "\xff",      // 32 bytes ending in 0xff
		string(make([]byte, 32)), // 32 zero bytes
		"containerd://" + hex64,  // a prefix left on
		"sandbox-\xff",           // a short one ending in 0xff
	}
	b := NewBuilder(Options{})
	seen := map[rid]string{}
	for _, id := range ids {
		r := rid(b.packID(id))
		if got := r.String(); got != id {
			t.Errorf("%q came back as %q", id, got)
		}
		if other, ok := seen[r]; ok {
			t.Errorf("%q and %q pack alike", id, other)
		}
		seen[r] = id
	}
	if n := len(b.packID(hex64)); n != 32 {
		t.Errorf("a 64-digit hex ID packs in %d bytes, want 32", n)
	}
}

// A 64-character ID packs into the bytes it stands for exactly when each
// character is a lowercase hex digit: every byte value at every position
// of a hex ID, over random digits around it.
func TestRuntimeIDPacksHexOnly(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const digits = "0123456789abcdef"
	b := NewBuilder(Options{})
	for pos := range 64 {
		for c := range 256 {
			id := make([]byte, 64)
			for i := range id {
				id[i] = digits[rng.IntN(16)]
			}
			id[pos] = byte(c)
			want, err := hex.DecodeString(string(id))
			isHex := err == nil && strings.IndexFunc(string(id), func(r rune) bool { return r >= 'A' && r <= 'F' }) < 0
			got := b.packID(string(id))
			if isHex != (len(got) == 32) || isHex && !bytes.Equal(got, want) {
				t.Fatalf("%q packs as %x; hex: %v", id, got, isHex)
			}
			if r := rid(got).String(); r != string(id) {
				t.Fatalf("%q came back as %q", id, r)
			}
		}
	}
}

// stripRuntime drops what strings.Index finds of "://" and what is before.
func TestStripRuntime(t *testing.T) {
	for _, id := range []string{"", "abc", "containerd://abc", "cri-o://x", "a:b://c", "a:/b", "a::b", "://", "x:", "a:/:/b://c://d", ":://e"} {
		want := id
		if i := strings.Index(id, "://"); i >= 0 {
			want = id[i+3:]
		}
		if got := stripRuntime(id); got != want {
			t.Errorf("stripRuntime(%q) = %q, want %q", id, got, want)
		}
	}
}

func FuzzRuntimeID(f *testing.F) {
	f.Add("4f3a0c9e1b2d7f6a8e5c3b1a0f9d8c7b6a5e4d3c2b1a0f9e8d7c6b5a4f3e2d1c", "4f3a0c9e1b2d7f6a8e5c3b1a0f9d8c7b\xff")
	f.Add(string(make([]byte, 32)), "0000000000000000000000000000000000000000000000000000000000000000")
	f.Fuzz(func(t *testing.T, x, y string) {
		b := NewBuilder(Options{})
		rx := rid(b.packID(x))
		ry := rid(b.packID(y))
		if rx.String() != x || ry.String() != y {
			t.Fatalf("%q, %q came back as %q, %q", x, y, rx.String(), ry.String())
		}
		if (rx == ry) != (x == y) {
			t.Fatalf("%q and %q: packed equal %v", x, y, rx == ry)
		}
	})
}

// stampAtNew's path in place for the last zone is stamp(instant(t)): two
// builders given the same times, one each way, stamp them alike and read
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
		inPlace, byInstant := NewBuilder(Options{}), NewBuilder(Options{})
		for _, tm := range seq {
			got := inPlace.stampAtNew(tm)
			want := byInstant.stamp(byInstant.instant(tm))
			if got != want {
				t.Fatalf("%v: stamp %x, stamp(instant) %x", tm, got, want)
			}
			if back := inPlace.timeOf(got); !back.Equal(tm) || back.Location().String() != tm.Location().String() && !tm.IsZero() {
				t.Fatalf("%v came back as %v", tm, back)
			}
		}
	}
}
