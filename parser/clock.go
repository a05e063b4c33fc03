package parser

import "time"

// clock turns klog's year-less, zone-less header times into full times.
// The year comes from Options.Year, else from an absolute time seen in the
// stream (journald ISO prefix, JSON ts, runtime RFC3339), else from the
// input's modification time; a month that goes backwards (December to
// January) moves to the next year.
type clock struct {
	year      int
	yearFixed bool // set by Options.Year: never re-anchored
	anchored  bool
	loc       *time.Location
	lastMonth int
	modTime   time.Time
	reverse   bool // the input is written newest first
	// sec is the last whole second klogTime made with time.Date, from
	// secYear and secHdr: the many lines of one second only add their
	// microseconds to it.
	sec     time.Time
	secYear int
	secHdr  klogHeader // month to sec
}

// same reports whether second would return c.sec for a header of the
// second k and leave the clock as it is: k is the second the clock was
// last moved to, in the same year, and no anchor has moved the month on
// since (so no New Year can come of it). A declined line is then only
// its microseconds (Reader.bare).
func (c *clock) same(k secondKey) bool {
	return c.known(k) && c.lastMonth == c.secHdr.month && c.year == c.secYear
}

// known reports whether k is the second of the last header the clock was
// moved to, whose time was read and found valid.
func (c *clock) known(k secondKey) bool { return k == c.secHdr.second && k.day != 0 }

func newClock(opts Options) clock {
	c := clock{loc: opts.Location, modTime: opts.ModTime}
	if c.loc == nil {
		c.loc = time.UTC
	}
	switch {
	case opts.Year > 0:
		c.year, c.yearFixed = opts.Year, true
	case !opts.ModTime.IsZero():
		c.year = opts.ModTime.In(c.loc).Year()
	default:
		c.year = time.Now().In(c.loc).Year()
	}
	return c
}

// anchor takes the year from an absolute timestamp found in the stream.
func (c *clock) anchor(t time.Time) {
	if c.yearFixed || c.anchored || t.IsZero() {
		return
	}
	c.anchored = true
	t = t.In(c.loc)
	c.year = t.Year()
	c.lastMonth = int(t.Month())
}

func (c *clock) klogTime(h *klogHeader) time.Time {
	return c.second(h).Add(time.Duration(h.micros) * time.Microsecond)
}

// second moves the clock on to the record with header h, as klogTime,
// and returns the time of its whole second.
func (c *clock) second(h *klogHeader) time.Time {
	if c.lastMonth == 0 && !c.anchored && !c.yearFixed && !c.modTime.IsZero() {
		// A log written before the file was last modified: a first month
		// later than the mtime's month belongs to the previous year.
		if h.month > int(c.modTime.In(c.loc).Month()) {
			c.year--
		}
	}
	switch {
	case c.reverse:
		if c.lastMonth == 1 && h.month == 12 {
			c.year-- // (read newest first: the December before)
		}
	case c.lastMonth == 12 && h.month == 1:
		c.year++
	}
	c.lastMonth = h.month
	// time.Date with nanoseconds is the time of the whole second plus
	// them (the zone is looked up by the second), to the bit.
	if s := &c.secHdr; h.sec != s.sec || h.min != s.min || h.hour != s.hour || h.day != s.day || h.month != s.month || c.year != c.secYear || c.sec.IsZero() {
		c.sec = time.Date(c.year, time.Month(h.month), h.day, h.hour, h.min, h.sec, 0, c.loc)
		c.secYear, c.secHdr = c.year, *h
	}
	return c.sec
}
