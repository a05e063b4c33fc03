package parser

import (
	"bytes"
	"errors"
	"time"
)

// prescanBytes is how much of the input the year pre-scan looks at.
const prescanBytes = 64 << 10

// prescan peeks at the start of the input for an absolute time and anchors
// the clock's year on it. Strong sources, in order of appearance: a
// journald ISO prefix, a logrus time="…", a JSON "ts". A weak source, an
// RFC 3339 time inside a kubelet line (e.g. "lastTransitionTime":"…Z"),
// counts only when its month is the month of the first klog header; the
// most frequent year among those wins, so a certificate expiry a year
// away does not move the year.
//
// It also looks at the order of the times there: an input written newest
// first (journalctl -r, a log store's export) is read at once and its
// records handed out in time order.
func (r *Reader) prescan() {
	buf, err := r.br.Peek(prescanBytes)
	if errors.Is(err, ErrIdle) {
		// An input read as it grows: what it held so far is looked at
		// (Peek waits for no more), and the idle is given once that is read.
		r.peekIdle = true
	}
	r.stats.Zone = r.inferZone(buf)
	r.cutW = cutWidth(buf)
	if newestFirst(buf) {
		r.rev = &reversed{}
		r.clock.reverse = true
		r.stats.NewestFirst = true
	}
	if r.opts.Year == 0 && !r.opts.NoPrescan {
		if t, ok := r.findAnchor(buf); ok {
			r.clock.anchor(t)
		}
	}
	if r.rev != nil {
		r.regroupValues() // (buf is read no more)
	}
}

func (r *Reader) findAnchor(buf []byte) (time.Time, bool) {
	klogMonth := 0
	var weak []time.Time
	for len(buf) > 0 {
		line := buf
		if nl := bytes.IndexByte(buf, '\n'); nl >= 0 {
			line, buf = buf[:nl], buf[nl+1:]
		} else {
			buf = nil
		}
		// Paste markers and grep prefixes are not stripped here; journald
		// and runtime lines are found wherever they start.
		if begin, end, ok := r.journalSpan(line); ok {
			// "-- Logs begin at …, end at … --": the newest time first
			// when the lines are.
			if r.clock.reverse {
				return end, true
			}
			return begin, true
		}
		if jp := parseJournal(line); jp.ok {
			if jp.iso {
				return jp.tm.date(jp.tm.year, r.zone(jp.zoneOff, jp.hasZone)), true
			}
			line = line[jp.rest:]
		}
		if k := bytes.Index(line, []byte(`time="`)); k >= 0 {
			if t, off, has, _, ok := parseISO(line, k+6); ok && has {
				return t.date(t.year, r.zone(off, has)), true
			}
		}
		if bytes.HasPrefix(line, []byte(`{"ts":`)) {
			v, _, ok := parseJSON(string(line), 6, 0, &r.scratch)
			if ok && v.Kind == KindNumber && v.Num > 0 {
				return epochMillis(v), true
			}
		}
		if klogMonth == 0 {
			if st, _, ok := lineStamp(line); ok {
				klogMonth = int(st / (32 * 24 * 3600 * 1e6))
			}
		}
		if len(weak) < 16 {
			weak = appendDates(weak, line, r, false)
			weak = appendDescribeDate(weak, line)
		}
	}
	// The most frequent year among the weak times in the klog month wins;
	// ties go to the earlier year (certificate expiries lie ahead).
	var best time.Time
	bestN := 0
	for _, t := range weak {
		if klogMonth != 0 && int(t.In(r.clock.loc).Month()) != klogMonth {
			continue
		}
		n := 0
		for _, u := range weak {
			if u.Year() == t.Year() && (klogMonth == 0 || int(u.In(r.clock.loc).Month()) == klogMonth) {
				n++
			}
		}
		if n > bestN || n == bestN && t.Year() < best.Year() {
			best, bestN = t, n
		}
	}
	return best, bestN > 0
}

// appendRFC3339 appends the zoned RFC 3339 (or Go time.String) timestamps
// found in line.
func appendRFC3339(ts []time.Time, line []byte, r *Reader) []time.Time {
	return appendDates(ts, line, r, true)
}

// appendDates appends the RFC 3339 (or Go time.String) timestamps found in
// line, those without a zone too unless zoned (for their year).
func appendDates(ts []time.Time, line []byte, r *Reader, zoned bool) []time.Time {
	for i := 0; i+19 <= len(line); {
		k := bytes.IndexByte(line[i:], '-')
		if k < 0 {
			break
		}
		s := i + k - 4
		i += k + 1
		if s < 0 || (s > 0 && isDigit(line[s-1])) {
			continue
		}
		t, off, has, _, ok := parseISO(line, s)
		if ok && (has || !zoned) && t.year > 0 {
			ts = append(ts, t.date(t.year, r.zone(off, has)))
		}
	}
	return ts
}

// epochMillis converts klog JSON's milliseconds since the epoch, from the
// number's text when it is plain decimal (exact to the nanosecond), else
// from the float.
func epochMillis(v Value) time.Time {
	if t, ok := plainEpochMillis(v.Str); ok {
		return t
	}
	f := v.Num
	sec := int64(f / 1000)
	nsec := int64((f - float64(sec)*1000) * 1e6)
	return time.Unix(sec, nsec).UTC()
}

// plainEpochMillis is epochMillis for a number written in plain decimal;
// false for any other.
func plainEpochMillis[T string | []byte](s T) (time.Time, bool) {
	var ms, ns int64
	i := 0
	for i < len(s) && isDigit(s[i]) && i < 16 {
		ms = ms*10 + int64(s[i]-'0')
		i++
	}
	if i > 0 && (i == len(s) || s[i] == '.') {
		if i < len(s) {
			i++
			scale := int64(100000)
			for ; i < len(s) && isDigit(s[i]); i++ {
				ns += int64(s[i]-'0') * scale
				scale /= 10
			}
		}
		if i == len(s) {
			return time.Unix(ms/1000, (ms%1000)*1e6+ns).UTC(), true
		}
	}
	return time.Time{}, false
}

// seeJSONTime gives Stats the time of a declined JSON record, read from
// its "ts" when it leads the line, as klog writes it: the log's end is
// its last line's time, whatever the caller wants of it.
func (r *Reader) seeJSONTime(content []byte) {
	const key = `{"ts":`
	if !bytes.HasPrefix(content, []byte(key)) {
		return
	}
	s := content[len(key):]
	end := 0
	for end < len(s) && (isDigit(s[end]) || s[end] == '.') {
		end++
	}
	if t, ok := plainEpochMillis(s[:end]); ok {
		r.seeTime(t)
	}
}

// journalSpan reads the span journalctl prints before its lines ("-- Logs
// begin at Wed 2025-12-31 22:00:01 UTC, end at Thu 2026-01-01 00:00:09
// UTC. --", "-- Journal begins at …, ends at … --") and the start time
// systemctl status prints ("Active: active (running) since Thu 2023-07-13
// 07:00:01 UTC; 2min ago"): times with a date, in the zone named.
func (r *Reader) journalSpan(line []byte) (begin, end time.Time, ok bool) {
	t := bytes.TrimSpace(line)
	var rest []byte
	switch {
	case bytes.HasPrefix(t, []byte("-- Logs begin at ")), bytes.HasPrefix(t, []byte("-- Journal begins at ")):
		rest = t[bytes.Index(t, []byte(" at "))+4:]
	case bytes.HasPrefix(t, []byte("Active: ")) && bytes.Contains(t, []byte(" since ")):
		rest = t[bytes.Index(t, []byte(" since "))+7:]
	default:
		return begin, end, false
	}
	begin, n, ok := r.dayTime(rest)
	if !ok {
		return begin, end, false
	}
	end = begin
	if k := bytes.Index(rest[n:], []byte(" at ")); k >= 0 {
		if e, _, ok := r.dayTime(rest[n+k+4:]); ok {
			end = e
		}
	}
	return begin, end, true
}

// dayTime reads "Thu 2023-07-13 07:00:01 UTC" (the weekday optional) and
// returns the time and the bytes read.
func (r *Reader) dayTime(b []byte) (time.Time, int, bool) {
	i := 0
	if sp := bytes.IndexByte(b, ' '); sp > 0 && sp <= 12 && !isDigit(b[0]) {
		i = sp + 1
	}
	t, off, has, j, ok := parseISO(b, i)
	if !ok || t.year == 0 {
		return time.Time{}, 0, false
	}
	if !has && j+1 < len(b) && b[j] == ' ' {
		k := j + 1
		for k < len(b) && (b[k] >= 'A' && b[k] <= 'Z' || b[k] == '+' || b[k] == '-' || isDigit(b[k])) {
			k++
		}
		if o, ok := zoneAbbrev(string(b[j+1 : k])); ok {
			off, has, j = o, true, k
		}
	}
	return t.date(t.year, r.zone(off, has)), j, true
}

// zoneAbbrev gives the UTC offset of the zone abbreviations journalctl and
// systemctl print most ("CEST", "+08"), and of numeric ones.
func zoneAbbrev(z string) (int, bool) {
	const h = 3600
	switch z {
	case "UTC", "GMT", "Z", "WET", "UCT":
		return 0, true
	case "BST", "CET", "WEST", "IST1":
		return h, true
	case "CEST", "EET", "SAST":
		return 2 * h, true
	case "EEST", "MSK", "TRT", "AST3":
		return 3 * h, true
	case "IST":
		return 5*h + 30*60, true
	case "WIB", "ICT":
		return 7 * h, true
	case "CST8", "HKT", "SGT", "AWST", "PHT", "WITA":
		return 8 * h, true
	case "JST", "KST", "WIT":
		return 9 * h, true
	case "ACST":
		return 9*h + 30*60, true
	case "AEST":
		return 10 * h, true
	case "ACDT":
		return 10*h + 30*60, true
	case "AEDT":
		return 11 * h, true
	case "NZST":
		return 12 * h, true
	case "NZDT":
		return 13 * h, true
	case "HST":
		return -10 * h, true
	case "AKST":
		return -9 * h, true
	case "AKDT", "PST":
		return -8 * h, true
	case "PDT", "MST":
		return -7 * h, true
	case "MDT", "CST":
		return -6 * h, true
	case "CDT", "EST":
		return -5 * h, true
	case "EDT":
		return -4 * h, true
	case "BRT", "ART":
		return -3 * h, true
	}
	if len(z) >= 3 && (z[0] == '+' || z[0] == '-') {
		if o, n, ok := parseOffset([]byte(z), 0); ok && n == len(z) {
			return o, true
		}
	}
	return 0, false
}
