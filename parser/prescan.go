package parser

import (
	"bytes"
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
func (r *Reader) prescan() {
	buf, _ := r.br.Peek(prescanBytes)
	if t, ok := r.findAnchor(buf); ok {
		r.clock.anchor(t)
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
			if h, ok := parseKlogHeader(line); ok {
				klogMonth = h.month
			}
		}
		if len(weak) < 16 {
			weak = appendRFC3339(weak, line, r)
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
		if ok && has {
			ts = append(ts, t.date(t.year, r.zone(off, has)))
		}
	}
	return ts
}

// epochMillis converts klog JSON's milliseconds since the epoch, from the
// number's text when it is plain decimal (exact to the nanosecond), else
// from the float.
func epochMillis(v Value) time.Time {
	s := v.Str
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
			return time.Unix(ms/1000, (ms%1000)*1e6+ns).UTC()
		}
	}
	f := v.Num
	sec := int64(f / 1000)
	nsec := int64((f - float64(sec)*1000) * 1e6)
	return time.Unix(sec, nsec).UTC()
}
