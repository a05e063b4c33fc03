package parser

import (
	"time"
)

// Stats account for every input line: Lines == Records + Filtered +
// Continuations + Annotations + Blank + Unrecognized.
type Stats struct {
	Lines         int64 `json:"lines"`
	Bytes         int64 `json:"bytes"`
	Records       int64 `json:"records"`       // records returned by Next
	Filtered      int64 `json:"filtered"`      // records of a known format the caller did not want
	Continuations int64 `json:"continuations"` // lines joined to the record before them
	Annotations   int64 `json:"annotations"`   // lines people add around logs: "-- Logs begin at …", "..."
	Blank         int64 `json:"blank"`
	Unrecognized  int64 `json:"unrecognized"`
	Truncated     int64 `json:"truncated"` // lines, or records with their continuation lines, longer than MaxLineBytes (cut, still counted above)
	// CutShort are the records returned whose text was cut short
	// (Record.Truncated).
	CutShort int64 `json:"cutShort,omitempty"`
	// Packed are the records beyond the first read from one line (a
	// JSON export that writes several records on a line).
	Packed int64 `json:"packed,omitempty"`
	// FirstTime and LastTime span the timestamps of all records, declined
	// ones included (klog headers), so callers know where the log ends.
	FirstTime time.Time `json:"firstTime,omitzero"`
	LastTime  time.Time `json:"lastTime,omitzero"`
	// Zone, when not "", says at which UTC offset the klog times of an
	// input were read and why: inferred from zoned times in it. (Add
	// leaves it: it is an input's.)
	Zone string `json:"zone,omitempty"`
	// NewestFirst says the input was written newest first (journalctl
	// -r, a log store's export): its records were read at once and
	// handed out in time order.
	NewestFirst bool `json:"newestFirst,omitempty"`
	// Unread tells the likely shapes of the unrecognized lines (those
	// that reached no record, not those of a record that did not decode)
	// and what to do about them.
	Unread []LineShape `json:"unread,omitempty"`
	// ByFormat counts records (returned or filtered) per format name.
	ByFormat map[string]int64 `json:"byFormat"`
}

// Add sums s and o.
func (s *Stats) Add(o Stats) {
	s.Lines += o.Lines
	s.Bytes += o.Bytes
	s.Records += o.Records
	s.Filtered += o.Filtered
	s.Continuations += o.Continuations
	s.Annotations += o.Annotations
	s.Blank += o.Blank
	s.Unrecognized += o.Unrecognized
	s.Truncated += o.Truncated
	s.Packed += o.Packed
	s.CutShort += o.CutShort
	s.NewestFirst = s.NewestFirst || o.NewestFirst
	s.Unread = addShapes(s.Unread, o.Unread)
	if !o.FirstTime.IsZero() && (s.FirstTime.IsZero() || o.FirstTime.Before(s.FirstTime)) {
		s.FirstTime = o.FirstTime
	}
	if o.LastTime.After(s.LastTime) {
		s.LastTime = o.LastTime
	}
	for k, v := range o.ByFormat {
		if s.ByFormat == nil {
			s.ByFormat = map[string]int64{}
		}
		s.ByFormat[k] += v
	}
}

func (r *Reader) seeTime(t time.Time) {
	r.settle()
	if t.IsZero() {
		return
	}
	if r.stats.FirstTime.IsZero() || t.Before(r.stats.FirstTime) {
		r.stats.FirstTime = t
	}
	if t.After(r.stats.LastTime) {
		r.stats.LastTime = t
	}
}

// secTimes gathers the times of declined klog records of one second (most
// lines), which are that second plus their microseconds: only the least
// and the greatest can be the first or last time, and they are given to
// seeTime when another second comes or the stats are read. (Two adding
// of the microseconds and two comparisons of times a line cost as much as
// the rest of the time a declined line takes.)
type secTimes struct {
	sec      time.Time
	min, max int // microseconds
	set      bool
}

// seeKlogTime is seeTime for the time of the declined klog record with
// header h.
func (r *Reader) seeKlogTime(h *klogHeader) { r.seeMicros(r.clock.second(h), h.micros) }

// seeMicros is seeKlogTime for the time that is the second sec plus
// micros microseconds.
func (r *Reader) seeMicros(sec time.Time, micros int) {
	g := &r.secTimes
	if g.set && g.sec == sec {
		g.min, g.max = min(g.min, micros), max(g.max, micros)
		return
	}
	r.settle()
	*g = secTimes{sec: sec, min: micros, max: micros, set: true}
}

// settle gives the times secTimes holds to seeTime.
func (r *Reader) settle() {
	g := &r.secTimes
	if !g.set {
		return
	}
	g.set = false
	r.seeTime(g.sec.Add(time.Duration(g.min) * time.Microsecond))
	if g.max != g.min {
		r.seeTime(g.sec.Add(time.Duration(g.max) * time.Microsecond))
	}
}

// Accounted reports whether every line falls in exactly one bucket (the
// records packed on a line of another record aside).
func (s Stats) Accounted() bool {
	return s.Lines+s.Packed == s.Records+s.Filtered+s.Continuations+s.Annotations+s.Blank+s.Unrecognized
}
