package parser

import (
	"bytes"
	"io"
)

// Inputs written newest first: `journalctl -r`, and log stores that export
// the latest records first (Cloud Logging, Loki, log UIs). The order of
// the times in the first 64 KiB tells them (newestFirst); such an input
// is read to its end at once and its records handed out from the last,
// so that a reader of records sees them in time order, as from any other
// input. Its klog times are read with a clock that runs backwards: a
// January followed by a December is the year before.

// reversed holds the records of an input written newest first.
type reversed struct {
	recs []Record
	read bool  // the input was read
	err  error // the read error that ended it, returned after the records
	out  Record
}

// nextReversed is Next for an input written newest first.
func (r *Reader) nextReversed() (*Record, error) {
	v := r.rev
	if !v.read {
		v.read = true
		borrow := r.opts.Borrow
		r.opts.Borrow = false // (the records are kept: their strings must be their own)
		for {
			rec, err := r.nextForward()
			if err != nil {
				if err != io.EOF {
					v.err = err
				}
				break
			}
			v.recs = append(v.recs, cloneRecord(rec))
		}
		r.opts.Borrow = borrow
	}
	if n := len(v.recs); n > 0 {
		v.out = v.recs[n-1]
		v.recs[n-1] = Record{}
		v.recs = v.recs[:n-1]
		return &v.out, nil
	}
	if v.err != nil {
		err := v.err
		v.err = nil
		return nil, err
	}
	return nil, io.EOF
}

// cloneRecord copies what a record holds that the reader reuses: its
// fields and the lists in their values.
func cloneRecord(rec *Record) Record {
	c := *rec
	c.Fields = make([]Field, len(rec.Fields))
	for i, f := range rec.Fields {
		f.Value = cloneValue(f.Value)
		c.Fields[i] = f
	}
	return c
}

func cloneValue(v Value) Value {
	if v.List != nil {
		l := make([]Value, len(v.List))
		for i, e := range v.List {
			l[i] = cloneValue(e)
		}
		v.List = l
	}
	if v.Obj != nil {
		o := make([]Field, len(v.Obj))
		for i, f := range v.Obj {
			f.Value = cloneValue(f.Value)
			o[i] = f
		}
		v.Obj = o
	}
	return v
}

// newestFirst reports whether the times of the lines in buf mostly go
// backwards: klog headers wherever they are on a line (behind any prefix,
// inside a JSON export's strings), else journald times.
func newestFirst(buf []byte) bool {
	var prev int64
	have := false
	down, up := 0, 0
	for len(buf) > 0 {
		line := buf
		if nl := bytes.IndexByte(buf, '\n'); nl >= 0 {
			line, buf = buf[:nl], buf[nl+1:]
		} else {
			buf = nil
		}
		t, ok := lineStamp(line)
		if !ok {
			continue
		}
		if have {
			d := t - prev
			if d > halfYear || d < -halfYear {
				d = -d // (across New Year: December to January is forwards)
			}
			switch {
			case d < 0:
				down++
			case d > 0:
				up++
			}
		}
		prev, have = t, true
	}
	return down >= 2 && down > 3*up
}

// halfYear is about six months in the units of lineStamp.
const halfYear = 6 * 32 * 24 * 3600 * 1e6

// lineStamp returns the time of a line as a number that orders the times
// of one year (month to microsecond): its klog header's, else its journald
// prefix's.
func lineStamp(line []byte) (int64, bool) {
	if at, h := findHeader(line); at >= 0 {
		return ((((int64(h.month)*32+int64(h.day))*24+int64(h.hour))*60+int64(h.min))*60+int64(h.sec))*1e6 + int64(h.micros), true
	}
	if jp := parseJournal(line); jp.ok && jp.tm.month != 0 {
		t := jp.tm
		return ((((int64(t.month)*32+int64(t.day))*24+int64(t.hour))*60+int64(t.min))*60+int64(t.sec))*1e6 + int64(t.nsec/1000), true
	}
	return 0, false
}
