package parser

import (
	"bytes"
	"fmt"
	"time"
)

// klog and syslog headers carry no zone. Where the same input holds times
// that do (a journald short-iso prefix or a CRI/RFC 5424 time before a
// klog line, RFC 3339 times inside the kubelet's messages such as
// watchObservedRunningTime, a runtime line's time="…+02:00" under a syslog
// prefix, the zone journalctl names in its "-- Logs begin at … CEST"
// line), inferZone finds the offset the headers were written at from the
// first 64 KiB: the difference, in whole quarter hours, between a header's
// wall clock and an absolute time written at the same moment.

// zoneVotes counts the offsets (seconds east of UTC) the lines suggest.
type zoneVotes map[int]int

// best returns the offset most lines suggest and how many did.
func (v zoneVotes) best() (int, int) {
	off, n := 0, 0
	for o, c := range v {
		if c > n || c == n && abs(o) < abs(off) {
			off, n = o, c
		}
	}
	return off, n
}

// quarterOffset returns the offset, in whole quarter hours, that makes the
// wall clock w (read as UTC) the absolute time a, when it does to within
// tol.
func quarterOffset(w, a time.Time, tol time.Duration) (int, bool) {
	return roundOffset(w, a, 15*time.Minute, tol)
}

// halfOffset is quarterOffset in whole half hours (the zones of all but a
// few places), for times less sure to be of the same moment.
func halfOffset(w, a time.Time, tol time.Duration) (int, bool) {
	return roundOffset(w, a, 30*time.Minute, tol)
}

func roundOffset(w, a time.Time, unit, tol time.Duration) (int, bool) {
	d := w.Sub(a)
	q := d.Round(unit)
	if r := d - q; r > tol || r < -tol || q > 14*time.Hour || q < -14*time.Hour {
		return 0, false
	}
	return int(q / time.Second), true
}

// inferZone sets the zone of the klog headers (and of the syslog prefixes'
// times) from the zoned times in buf, unless the caller gave one. It
// returns what it found, in words, or "".
func (r *Reader) inferZone(buf []byte) string {
	if l := r.opts.Location; l != nil && l != time.UTC {
		return "" // given: --tz
	}
	strong, weak, sys, rel := zoneVotes{}, zoneVotes{}, zoneVotes{}, zoneVotes{}
	for len(buf) > 0 {
		line := buf
		if nl := bytes.IndexByte(buf, '\n'); nl >= 0 {
			line, buf = buf[:nl], buf[nl+1:]
		} else {
			buf = nil
		}
		if _, end, ok := r.journalSpan(line); ok {
			if _, off := end.Zone(); end.Location() != r.clock.loc || off != 0 {
				// (Printed in the zone journalctl's short times are in.)
				sys[off] += 4
			}
			continue
		}
		at, h := findHeader(line)
		jp := parseJournal(line)
		var syslog time.Time // a short prefix's wall clock, as UTC
		if jp.ok && !jp.iso && jp.tm.month != 0 {
			syslog = jp.tm.date(2000, time.UTC)
		}
		if at < 0 {
			// A runtime line's zoned time under a syslog prefix.
			if !syslog.IsZero() {
				if k := bytes.Index(line, []byte(`time="`)); k >= 0 {
					if t, off, has, _, ok := parseISO(line, k+6); ok && has {
						a := t.date(2000, time.FixedZone("", off))
						if o, ok := quarterOffset(syslog, a, 2*time.Minute); ok {
							sys[o]++
						}
					}
				}
			}
			continue
		}
		wall := time.Date(2000, time.Month(h.month), h.day, h.hour, h.min, h.sec, h.micros*1000, time.UTC)
		if jp.ok && jp.iso && jp.hasZone {
			a := jp.tm.date(jp.tm.year, time.FixedZone("", jp.zoneOff))
			if o, ok := quarterOffset(wall.AddDate(a.Year()-2000, 0, 0), a, 2*time.Minute); ok {
				strong[o]++
			}
		} else if !syslog.IsZero() {
			if o, ok := quarterOffset(wall, syslog, 2*time.Minute); ok {
				rel[o]++
			}
		} else if at > 0 {
			// A CRI, docker or RFC 5424 time before the header.
			for _, a := range appendRFC3339(nil, line[:at], r) {
				if o, ok := quarterOffset(wall.AddDate(a.Year()-2000, 0, 0), a, 2*time.Minute); ok {
					strong[o]++
				}
				break
			}
		}
		// Times in the message written at the line's moment (the kubelet
		// logs watchObservedRunningTime, lastTransitionTime, … as it
		// sees them): those within a few seconds of the header but for the
		// zone. Times of past moments (cadvisor's "Added event" of a cgroup
		// created an hour before, a container's startedAt) miss it by
		// minutes as well as hours, and must not vote.
		if bytes.Contains(line[at:], []byte("] Added event &{")) {
			// cadvisor's event carries its cgroup's creation time, never
			// the line's: the root cgroup's is the boot, and a kubelet
			// started five hours and 0.1 s after it (v1.31.13's 13) voted
			// +05:00 twice.
			continue
		}
		for _, a := range appendRFC3339(nil, line[at:], r) {
			if o, ok := halfOffset(wall.AddDate(a.Year()-2000, 0, 0), a, 5*time.Second); ok {
				weak[o]++
			}
		}
	}
	off, n := strong.best()
	how := fmt.Sprintf("%d zoned times written beside klog headers", n)
	if n == 0 {
		// Most of those times, and two at least.
		all := 0
		for _, c := range weak {
			all += c
		}
		if off, n = weak.best(); n < 2 || 2*n <= all {
			n = 0
		}
		how = fmt.Sprintf("%d zoned times inside kubelet messages", n)
	}
	if n == 0 {
		so, sn := sys.best()
		ro, rn := rel.best()
		if sn == 0 || rn == 0 {
			return ""
		}
		off, n = so+ro, sn
		how = "the zone of the syslog times and the runtime's zoned times under them"
	}
	if so, sn := sys.best(); sn > 0 && so != off {
		r.sysLoc = time.FixedZone(zoneName(so), so)
	}
	if off == 0 {
		return ""
	}
	r.clock.loc = time.FixedZone(zoneName(off), off)
	return fmt.Sprintf("klog times read at UTC%s, inferred from %s", zoneName(off), how)
}

// zoneName writes an offset as ±hh:mm.
func zoneName(off int) string {
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%c%02d:%02d", sign, off/3600, off/60%60)
}

// findHeader finds a klog header on a line, behind any prefix, and
// returns where it starts (-1: none) and what it says.
func findHeader(line []byte) (int, klogHeader) {
	lim := min(len(line), 512)
	for i := 0; i+30 <= len(line) && i < lim; i++ {
		switch line[i] {
		case 'I', 'W', 'E', 'F':
			if i > 0 && isAlnum(line[i-1]) || !isDigit(line[i+1]) {
				continue
			}
			if h, ok := parseKlogHeader(line[i:]); ok {
				return i, h
			}
		}
	}
	return -1, klogHeader{}
}
