package parser

import (
	"errors"
	"fmt"
	"hash/maphash"
	"strconv"
	"time"
)

// dedupe remembers the records the merge returned lately, to drop the
// copies overlapping inputs hold. A copy carries its record's time, and the
// time-ordered merge returns it soon after the record: only the records of
// the last dedupeWindow need remembering. (Not just those of one instant:
// a file's lines are a few milliseconds out of order, so the merge may
// return one copy's later lines before the other copy's earlier ones.)
type dedupe struct {
	h    maphash.Hash
	init bool
	fifo []seenRec // in the order returned; fifo[head:] are live
	head int
	by   map[uint64]int // fingerprint -> the source that returned it first
}

type seenRec struct {
	sum uint64
	at  int64 // Unix nanoseconds
	src int
}

const (
	dedupeWindow = 2 * BackwardsTolerance
	// dedupeMax bounds what is remembered when times stall or step back,
	// so memory stays bounded whatever the input.
	dedupeMax = 1 << 18
)

// seen reports whether another source than src already returned a record
// equal to rec; if not, it remembers rec as src's. Records without a time
// are never taken for copies: nothing places them.
func (d *dedupe) seen(rec *Record, src int) bool {
	if rec.Time.IsZero() {
		return false
	}
	if !d.init {
		d.init = true
		d.h.SetSeed(maphash.MakeSeed())
		d.by = map[uint64]int{}
	}
	now := rec.Time.UnixNano()
	for d.head < len(d.fifo) && (d.fifo[d.head].at < now-int64(dedupeWindow) || len(d.fifo)-d.head > dedupeMax) {
		e := d.fifo[d.head]
		if first, ok := d.by[e.sum]; ok && first == e.src {
			delete(d.by, e.sum)
		}
		d.head++
	}
	if d.head > 1024 && d.head > len(d.fifo)/2 {
		d.fifo = append(d.fifo[:0], d.fifo[d.head:]...)
		d.head = 0
	}
	sum := d.fingerprint(rec, now)
	if first, ok := d.by[sum]; ok {
		return first != src
	}
	d.by[sum] = src
	d.fifo = append(d.fifo, seenRec{sum, now, src})
	return false
}

// fingerprint hashes what makes a record the record it is. The raw text
// of the fields stands for their values.
func (d *dedupe) fingerprint(rec *Record, at int64) uint64 {
	h := &d.h
	h.Reset()
	var num [48]byte
	b := strconv.AppendInt(num[:0], at, 10)
	b = strconv.AppendInt(b, int64(rec.PID), 10)
	b = append(b, 0, byte(rec.Severity), byte(rec.Format))
	b = strconv.AppendInt(b, int64(rec.Verbosity), 10)
	h.Write(b)
	for _, s := range [...]string{rec.Host, rec.Component, rec.Source, rec.Msg, rec.Err} {
		h.WriteString(s)
		h.WriteByte(0)
	}
	for i := range rec.Fields {
		h.WriteString(rec.Fields[i].Key)
		h.WriteByte('=')
		h.WriteString(rec.Fields[i].Raw)
		h.WriteByte(0)
	}
	return h.Sum64()
}

// BackwardsTolerance is how far a record's time may lie before an earlier
// record of the same input before it counts as time going backwards:
// goroutines log concurrently, so klog lines are a few milliseconds out of
// order all the time.
const BackwardsTolerance = time.Second

// clockSteps watches one input's times for steps backwards.
type clockSteps struct {
	max       time.Time // the latest time so far
	behind    int64     // records more than BackwardsTolerance before max
	steps     int64     // times the input went from in order to behind
	inStep    bool
	firstLine int64     // line of the first record of the first step
	from, to  time.Time // the step: max then, and the time of that record
}

func (c *clockSteps) see(rec *Record) {
	if rec.Format == FormatDescribe {
		return // (a container state's time is the API's, not the log's: describe.go)
	}
	t := rec.Time
	if !c.max.IsZero() && t.Before(c.max.Add(-BackwardsTolerance)) {
		c.behind++
		if !c.inStep {
			c.inStep = true
			c.steps++
			if c.steps == 1 {
				c.firstLine, c.from, c.to = rec.Pos.Line, c.max, t
			}
		}
		return
	}
	c.inStep = false
	if t.After(c.max) {
		c.max = t
	}
}

// NoticeKind says what a Notice is about.
type NoticeKind string

const (
	NoticeDuplicates NoticeKind = "duplicates" // records dropped as another input's copies
	NoticeBackwards  NoticeKind = "backwards"  // time going backwards within an input
)

// Notice is something worth telling about an input that was read in full;
// no data was lost.
type Notice struct {
	Input  string
	Kind   NoticeKind
	Count  int64 // records concerned
	Detail string
}

func (n *Notice) Error() string { return n.Input + ": " + n.Detail }

// ErrLineTooLong is what a *LineTooLongError is.
var ErrLineTooLong = errors.New("line too long")

// LineTooLongError reports lines longer than Options.MaxLineBytes: only
// their first MaxLineBytes were parsed, the rest of each was skipped.
type LineTooLongError struct {
	Input string
	Lines int64 // lines cut (Stats.Truncated)
	Max   int   // the cap in bytes
}

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("%s: %s longer than %s cut to their first %s (the rest of each was skipped)",
		e.Input, plural(e.Lines, "line"), byteSize(e.Max), byteSize(e.Max))
}

func (e *LineTooLongError) Is(target error) bool { return target == ErrLineTooLong }

func plural(n int64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.FormatInt(n, 10) + " " + what + "s"
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.Itoa(n>>20) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.Itoa(n>>10) + " KiB"
	}
	return strconv.Itoa(n) + " bytes"
}
