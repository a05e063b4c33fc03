package parser

import (
	"bufio"
	"bytes"
	"errors"
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
			if errors.Is(err, ErrIdle) {
				continue // newest first is read whole: there is no "so far"
			}
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

// A klog multi-line value (`key=<`, TAB-indented lines, a closing " >")
// written newest first line by line (journalctl -r, where each of its
// lines is a journal entry, or a log store's lines) has its closing line
// and its lines, last first, before its header. regroup puts each such
// run of lines back after the header it comes before, in their order,
// before the lines are read: the record then reads whole, as forwards.
// The run and the header fill the same bytes either way, so the record's
// position (first line, offset, length) is the span in the input.
type regroup struct {
	br   *bufio.Reader
	out  []byte // bytes ready to be read
	at   int    // read of out
	run  []byte // the continuation lines held, each with its line end
	ends []int  // where each held line ends in run
	key  []byte // the stream of the held lines: their journald host, ident and pid
	line []byte // a line longer than br's buffer
	err  error
}

// maxRunBytes bounds the lines regroup holds; a longer run is let through
// in its order.
const maxRunBytes = 1 << 20

// regroupValues puts the multi-line values of an input written newest
// first back in order (regroup) for the rest of the read.
func (r *Reader) regroupValues() {
	g := &regroup{br: r.br}
	r.br = bufio.NewReaderSize(g, r.br.Size())
}

func (g *regroup) Read(p []byte) (int, error) {
	for g.at == len(g.out) {
		if g.err != nil {
			return 0, g.err
		}
		g.out, g.at = g.out[:0], 0
		g.step()
	}
	n := copy(p, g.out[g.at:])
	g.at += n
	return n, nil
}

// step reads one line and moves what it can to out.
func (g *regroup) step() {
	line, err := g.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		g.line = append(g.line[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = g.br.ReadSlice('\n')
			g.line = append(g.line, line...)
		}
		line = g.line
	}
	if err != nil {
		g.err = err
	}
	if len(line) == 0 {
		g.flushRun()
		return
	}
	key, content := lineStream(line)
	switch {
	case valueLine(content, key != nil) && len(g.run)+len(line) <= maxRunBytes:
		if len(g.ends) > 0 && !bytes.Equal(key, g.key) {
			g.flushRun()
		}
		if len(g.ends) == 0 {
			g.key = append(g.key[:0], key...)
		}
		g.run = append(g.run, line...)
		g.ends = append(g.ends, len(g.run))
	case len(g.ends) > 0 && bytes.Equal(key, g.key) && valueHeader(content):
		// The header first, then its lines from the oldest; the line
		// last in the input (the header, or the input's last line) has
		// no line end if the input's last line had none.
		last := len(line) > 0 && line[len(line)-1] != '\n'
		g.out = append(g.out, line...)
		if last {
			g.out = append(g.out, '\n')
		}
		for i := len(g.ends) - 1; i >= 0; i-- {
			from := 0
			if i > 0 {
				from = g.ends[i-1]
			}
			g.out = append(g.out, g.run[from:g.ends[i]]...)
		}
		if last {
			g.out = g.out[:len(g.out)-1]
		}
		g.run, g.ends = g.run[:0], g.ends[:0]
	default:
		g.flushRun()
		g.out = append(g.out, line...)
	}
	if g.err != nil {
		g.flushRun()
	}
}

// flushRun lets the held lines through in their order.
func (g *regroup) flushRun() {
	g.out = append(g.out, g.run...)
	g.run, g.ends = g.run[:0], g.ends[:0]
}

// lineStream splits a line into its stream (a journald prefix's host,
// ident and pid; nil for a line without one) and its content, without the
// line end.
func lineStream(line []byte) (key, content []byte) {
	line = bytes.TrimRight(line, "\r\n")
	if t := bytes.TrimLeft(line, " "); len(t) > 0 {
		if jp := parseJournal(t); jp.ok {
			return t[jp.hostS:jp.rest], t[jp.rest:]
		}
	}
	return nil, line
}

// valueLine reports whether content can be a line of a klog multi-line
// value: TAB-indented, blank, or the closing " >"; under a journald prefix
// also indented by spaces (a paste that turned the TAB into spaces), when
// not a log line itself.
func valueLine(content []byte, journal bool) bool {
	t := bytes.TrimRight(content, " ")
	switch {
	case len(t) == 0, t[0] == '\t', string(t) == " >":
		return true
	case journal && t[0] == ' ':
		return !startsLogLine(bytes.TrimLeft(t, " "))
	}
	return false
}

// valueHeader reports whether content is a klog line that opens a
// multi-line value (it ends in "=<").
func valueHeader(content []byte) bool {
	t := bytes.TrimRight(content, " ")
	if !bytes.HasSuffix(t, []byte("=<")) {
		return false
	}
	t = bytes.TrimLeft(t, " ")
	_, ok := parseKlogHeader(t)
	return ok
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
// inside a JSON export's strings), else journald times. Each kind is
// compared with the last time of its own kind: a journald time to the
// second (a multi-line value's lines, a runtime's) against a header's to
// the microsecond would go up and down within one second, and a journal
// in local time against headers in UTC by hours.
func newestFirst(buf []byte) bool {
	var prev [2]int64
	var have [2]bool
	down, up := 0, 0
	for len(buf) > 0 {
		line := buf
		if nl := bytes.IndexByte(buf, '\n'); nl >= 0 {
			line, buf = buf[:nl], buf[nl+1:]
		} else {
			buf = nil
		}
		t, kind, ok := lineStamp(line)
		if !ok {
			continue
		}
		if have[kind] {
			d := t - prev[kind]
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
		prev[kind], have[kind] = t, true
	}
	return down >= 2 && down > 3*up
}

// halfYear is about six months in the units of lineStamp.
const halfYear = 6 * 32 * 24 * 3600 * 1e6

// lineStamp returns the time of a line as a number that orders the times
// of one year (month to microsecond): its klog header's (kind 0), else its
// journald prefix's (kind 1).
func lineStamp(line []byte) (stamp int64, kind int, ok bool) {
	if at, h := findHeader(line); at >= 0 {
		return ((((int64(h.month)*32+int64(h.day))*24+int64(h.hour))*60+int64(h.min))*60+int64(h.sec))*1e6 + int64(h.micros), 0, true
	}
	if jp := parseJournal(line); jp.ok && jp.tm.month != 0 {
		t := jp.tm
		return ((((int64(t.month)*32+int64(t.day))*24+int64(t.hour))*60+int64(t.min))*60+int64(t.sec))*1e6 + int64(t.nsec/1000), 1, true
	}
	return 0, 0, false
}
