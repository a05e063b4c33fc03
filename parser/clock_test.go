package parser

import (
	"testing"
	"time"
	_ "time/tzdata" // the zones below, wherever the tests run
)

// TestClockSecondMemo checks klogTime, which makes one time.Date per
// second, against time.Date for every line: lines a few hundred
// milliseconds apart across the DST changes of several zones (Lord Howe's
// is half an hour; Monrovia kept -0:44:30 until 1972).
func TestClockSecondMemo(t *testing.T) {
	for _, name := range []string{"UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Africa/Monrovia"} {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, start := range []time.Time{
			time.Date(2026, 3, 29, 0, 59, 0, 0, time.UTC), // Berlin springs forward at 01:00 UTC
			time.Date(2026, 10, 25, 0, 59, 0, 0, time.UTC),
			time.Date(2026, 3, 8, 6, 59, 0, 0, time.UTC),
			time.Date(2026, 4, 4, 14, 29, 0, 0, time.UTC),
			time.Date(1972, 4, 30, 23, 59, 0, 0, time.UTC),
			time.Date(2025, 12, 31, 23, 59, 0, 0, time.UTC),
		} {
			c := clock{year: start.In(loc).Year(), yearFixed: true, loc: loc}
			// Lines a few hundred milliseconds apart, then lines that share
			// all but one field with the one before.
			var ats []time.Time
			for at := start; at.Before(start.Add(3 * time.Minute)); at = at.Add(337 * time.Millisecond) {
				ats = append(ats, at)
			}
			for _, d := range []time.Duration{time.Minute, time.Hour, 24 * time.Hour, 31 * 24 * time.Hour, 365 * 24 * time.Hour} {
				ats = append(ats, ats[len(ats)-1].Add(d))
			}
			for _, at := range ats {
				w := at.In(loc)
				h := klogHeader{month: int(w.Month()), day: w.Day(), hour: w.Hour(), min: w.Minute(), sec: w.Second(), micros: w.Nanosecond() / 1000}
				got := c.klogTime(&h) // (moves c.year on at New Year)
				if want := time.Date(c.year, time.Month(h.month), h.day, h.hour, h.min, h.sec, h.micros*1000, loc); got != want {
					t.Fatalf("%s: klogTime(%+v) = %v, want %v", name, h, got, want)
				}
			}
		}
	}
}

// TestClockSecondMemoYear checks that the same header in another year (an
// anchor moved the clock) is not given the remembered second.
func TestClockSecondMemoYear(t *testing.T) {
	c := clock{year: 2025, loc: time.UTC}
	h := klogHeader{month: 11, day: 22, hour: 6, min: 25, sec: 28, micros: 451801}
	c.klogTime(&h)
	c.year = 2026
	if got, want := c.klogTime(&h), time.Date(2026, 11, 22, 6, 25, 28, 451801000, time.UTC); got != want {
		t.Errorf("klogTime = %v, want %v", got, want)
	}
}
