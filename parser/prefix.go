package parser

import (
	"bytes"
	"time"
)

// prefix is what a wrapper put before the log line proper: a journald or
// syslog prefix, a paste marker, a grep -n line number.
type prefix struct {
	host       string
	component  string
	pid        int
	time       time.Time
	hasTime    bool
	journal    bool // a journald/syslog prefix was found
	annotation bool // the whole line is something people add around logs
	// ends: the annotation closes a block of pasted log lines (a code
	// fence, a shell prompt, markdown): the record before it is complete.
	ends bool
	// outer: time is that of a JSON export's record, which wins over a
	// klog header's (no year, no zone).
	outer bool
	// indented: indentation was taken off the line (an indented console
	// block: see endsIndented).
	indented bool
}

// stripPrefix removes wrappers from a physical line and returns the log
// line proper. It runs on every line: no regexp, no allocation (host and
// ident strings are interned per Reader).
func (r *Reader) stripPrefix(line []byte) ([]byte, prefix) {
	var p prefix
	if bareLogLine(line) {
		if line[0] == '{' && isJournalJSON(line) {
			if msg, jp, ok := r.stripJournalJSON(line); ok {
				return msg, jp
			}
		}
		return line, p // the common case: a log line with no wrapper
	}
	b := line
	var used deco // the remembered decorations taken off this line
	for n := 0; n < maxPeel; n++ {
		nb, ok := r.stripPaste(b, &used)
		if !ok {
			break
		}
		b = nb
		p.indented = used&decoIndent != 0
	}
	if isAnnotation(b) {
		p.annotation = true
		return b, p
	}
	if jp := parseJournal(b); !jp.ok {
		if r.aroundLogs(b) {
			p.annotation, p.ends = true, true
		}
	} else {
		p.journal = true
		p.host = r.interned.get(b[jp.hostS:jp.hostE])
		p.component = r.identComponent(b[jp.idS:jp.idE])
		p.pid = jp.pid
		if !knownComponent(p.component) && r.paste.kubelets.has(p.component, p.pid) {
			p.component = "kubelet"
		}
		rest := b[jp.rest:]
		// microshift[pid]: kubelet I0128 …: a word naming the component
		// before the log line proper.
		if w := leadingWord(rest); w > 0 && startsLogLine(rest[w+1:]) {
			p.component = r.identComponent(rest[:w])
			rest = rest[w+1:]
		}
		switch {
		case jp.iso:
			p.time = jp.tm.date(jp.tm.year, r.zone(jp.zoneOff, jp.hasZone))
			r.clock.anchor(p.time)
			p.hasTime = true
		case jp.tm.month != 0: // (0: a month name of a locale not known)
			loc := r.clock.loc
			if r.sysLoc != nil {
				loc = r.sysLoc
			}
			p.time = jp.tm.date(r.clock.year, loc)
			p.hasTime = true
		}
		b = rest
	}
	return b, p
}

// stripPaste removes one paste artifact from the start of b: a "> " quote
// marker, a list bullet, backticks, indentation, a cat -n or nl gutter, or
// a grep -n / grep -n -H line-number prefix. A candidate is taken when
// what follows it looks like a log line (after at most a few more), or
// when the input already showed the same kind of prefix (so continuation
// lines lose it too); used gathers the kinds taken off this line so far.
func (r *Reader) stripPaste(b []byte, used *deco) ([]byte, bool) {
	if len(b) == 0 {
		return b, false
	}
	if b[0] == '>' {
		if len(b) == 1 {
			r.quoted = true
			return b[1:], true
		}
		if b[1] == '>' && (r.quoted || peelsToLog(b)) {
			r.quoted = true
			return b[1:], true
		}
		if b[1] == ' ' && (r.quoted || startsLogLine(b[2:]) || peelsToLog(b[2:])) {
			r.quoted = true
			return b[2:], true
		}
		return b, false
	}
	switch c := b[0]; {
	case c == ' ' || c == '\t' || c == '-' || c == '*' || c == '+' || c == '`' || c == 0xe2:
		if nb, kind, ok := peelOnce(b); ok && (startsLogLine(nb) || peelsToLog(nb)) {
			r.learnDeco(b, nb, kind)
			*used |= kind
			return nb, true
		}
	case isDigit(c):
		if g, ok := gutter(b); ok && (startsLogLine(g) || peelsToLog(g)) {
			r.paste.deco |= decoGutter
			*used |= decoGutter
			return g, true
		}
	}
	if r.paste.deco&^*used != 0 {
		if nb, kind := r.stripDeco(b, *used); kind != 0 {
			*used |= kind
			return nb, true
		}
	}
	if r.grep {
		// Same shape as before: name, separator, digits, same separator.
		if n := len(r.grepName); n == 0 {
			if rest, ok := grepDigits(b, 0); ok {
				return r.grepRest(rest), true
			}
		} else if len(b) > n+1 && bytes.Equal(b[:n], r.grepName) {
			if rest, ok := grepNumber(b, n); ok {
				return r.grepRest(rest), true
			}
		}
	}
	if isISODate(b) {
		return b, false // a journald short-iso time, not grep's "2026-" context
	}
	// Candidates: a run of digits at the start of the line, or between two
	// equal separators after a file name, before the first space.
	for i := 0; i < len(b) && i < 4096; i++ {
		c := b[i]
		if c == ' ' || c == '\t' {
			break
		}
		if !isDigit(c) || (i > 0 && isDigit(b[i-1])) {
			continue
		}
		var rest []byte
		var ok bool
		name := 0
		switch {
		case i == 0:
			rest, ok = grepDigits(b, 0)
		case i > 1 && (b[i-1] == ':' || b[i-1] == '-'):
			name = i - 1
			rest, ok = grepNumber(b, name)
		default:
			continue
		}
		if !ok {
			continue
		}
		space := false
		if !startsLogLine(rest) {
			// "123: I1122 …", "kubelet.log:12: …": a space after the number.
			if len(rest) < 2 || rest[0] != ' ' || !startsLogLine(rest[1:]) && !peelsToLog(rest[1:]) {
				continue
			}
			rest, space = rest[1:], true
		}
		r.grep, r.paste.grepSpace = true, space
		r.grepName = append(r.grepName[:0], b[:name]...)
		return rest, true
	}
	return b, false
}

// grepRest is what follows a grep line number in an input whose numbers
// were seen followed by a space.
func (r *Reader) grepRest(rest []byte) []byte {
	if r.paste.grepSpace && len(rest) > 0 && rest[0] == ' ' {
		return rest[1:]
	}
	return rest
}

// learnDeco remembers a decoration taken off a line that reads (b, before
// it was taken, and nb, after), for the lines that follow.
func (r *Reader) learnDeco(b, nb []byte, kind deco) {
	r.paste.deco |= kind
	if kind == decoIndent {
		r.paste.indentN = len(b) - len(nb)
		r.paste.indentTab = b[0] == '\t'
	}
}

// grepNumber reads `:123:` or `-123-` at b[i:] and returns what follows.
func grepNumber(b []byte, i int) ([]byte, bool) {
	if i >= len(b) {
		return nil, false
	}
	sep := b[i]
	if sep != ':' && sep != '-' {
		return nil, false
	}
	j := i + 1
	s := j
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j == s || j >= len(b) || b[j] != sep {
		return nil, false
	}
	return b[j+1:], true
}

// grepDigits reads `123:` or `123-` at b[i:] (grep -n without a file name).
func grepDigits(b []byte, i int) ([]byte, bool) {
	j := i
	for j < len(b) && b[j] >= '0' && b[j] <= '9' {
		j++
	}
	if j == i || j >= len(b) || (b[j] != ':' && b[j] != '-') {
		return nil, false
	}
	return b[j+1:], true
}

// startsLogLine reports whether b starts like a line podflow knows: a klog
// header, a JSON object, a logrus line, a journald prefix, an annotation or
// a further paste marker. It does not allocate.
func startsLogLine(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	switch b[0] {
	case 'I', 'W', 'E', 'F':
		if len(b) > 5 && isDigit(b[1]) && isDigit(b[4]) && b[5] == ' ' {
			return true
		}
	case '{':
		return len(b) > 1 && (b[1] == '"' || b[1] == ' ')
	case 't':
		if bytes.HasPrefix(b, []byte("time=")) {
			return true
		}
	case '>':
		return len(b) == 1 || b[1] == ' '
	case '-', '.', '[', 0xe2: // annotations ("…" starts with 0xe2)
		return isAnnotation(b)
	case '`', '~':
		return isFence(b)
	}
	return parseJournal(b).ok
}

// bareLogLine reports a klog header, a JSON object or a logrus line at the
// very start of b.
func bareLogLine(b []byte) bool {
	if len(b) < 6 {
		return false
	}
	switch b[0] {
	case 'I', 'W', 'E', 'F':
		return isDigit(b[1]) && isDigit(b[4]) && b[5] == ' '
	case '{':
		return b[1] == '"'
	case 't':
		return string(b[:5]) == "time="
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// leadingWord returns the length of a lower-case word followed by a space
// at the start of b (at most 32 bytes), or 0.
func leadingWord(b []byte) int {
	for i := 0; i < len(b) && i <= 32; i++ {
		c := b[i]
		switch {
		case c >= 'a' && c <= 'z', c == '-', c == '.', c == '_', i > 0 && c >= '0' && c <= '9':
		case c == ' ' && i > 0:
			return i
		default:
			return 0
		}
	}
	return 0
}

// isAnnotation reports lines people and tools put around logs: journalctl's
// "-- Logs begin at … --", "-- No entries --", "-- Boot … --", grep's "--"
// group separator, and elisions ("...", "…", "[...]").
func isAnnotation(b []byte) bool {
	b = bytes.TrimSpace(b)
	if len(b) < 2 {
		return false
	}
	switch string(b) {
	case "--", "...", "…", "[...]", "[…]", "(...)", "[snip]", "<snip>", "[truncated]":
		return true
	}
	return len(b) >= 5 && bytes.HasPrefix(b, []byte("-- ")) && bytes.HasSuffix(b, []byte(" --"))
}

// tparts is a wall-clock time read from text.
type tparts struct {
	year, month, day, hour, min, sec, nsec int
}

func (t tparts) date(year int, loc *time.Location) time.Time {
	return time.Date(year, time.Month(t.month), t.day, t.hour, t.min, t.sec, t.nsec, loc)
}

func (t tparts) valid() bool {
	return t.month >= 1 && t.month <= 12 && t.day >= 1 && t.day <= 31 && t.hour <= 23 && t.min <= 59 && t.sec <= 60
}

// jprefix holds the offsets of a journald/syslog prefix.
type jprefix struct {
	ok           bool
	iso          bool
	tm           tparts
	zoneOff      int // seconds east of UTC
	hasZone      bool
	hostS, hostE int
	idS, idE     int
	pid          int
	rest         int // index of the message
}

// parseJournal reads `TIME HOST IDENT[PID]: ` in the journalctl short,
// short-precise, short-iso and short-iso-precise forms (and classic
// syslog files, whose day may be space-padded).
func parseJournal(b []byte) (jp jprefix) {
	var i int
	var ok bool
	if isISODate(b) {
		jp.tm, jp.zoneOff, jp.hasZone, i, ok = parseISO(b, 0)
		if !ok || jp.tm.year == 0 {
			return jprefix{}
		}
		jp.iso = true
	} else {
		jp.tm, i, ok = parseShortTime(b)
		if !ok {
			return jprefix{}
		}
	}
	if i >= len(b) || b[i] != ' ' {
		return jprefix{}
	}
	i++
	jp.hostS = i
	for i < len(b) && b[i] != ' ' {
		i++
	}
	jp.hostE = i
	if jp.hostE == jp.hostS || i >= len(b) {
		return jprefix{}
	}
	i++
	jp.idS = i
	for i < len(b) && b[i] != '[' && b[i] != ':' && b[i] != ' ' {
		i++
	}
	jp.idE = i
	if jp.idE == jp.idS || i >= len(b) {
		return jprefix{}
	}
	if b[i] == '[' {
		i++
		s := i
		for i < len(b) && isDigit(b[i]) {
			if i-s < 10 {
				jp.pid = jp.pid*10 + int(b[i]-'0')
			}
			i++
		}
		if i == s || i >= len(b) || b[i] != ']' {
			return jprefix{}
		}
		i++
	}
	if i >= len(b) || b[i] != ':' {
		return jprefix{}
	}
	i++
	if i < len(b) {
		if b[i] != ' ' {
			return jprefix{}
		}
		i++
	}
	jp.rest = i
	jp.ok = true
	return jp
}

// isISODate reports whether b starts with `dddd-dd-dd` followed by T or a space.
func isISODate(b []byte) bool {
	return len(b) >= 11 && isDigit(b[0]) && isDigit(b[1]) && isDigit(b[2]) && isDigit(b[3]) &&
		b[4] == '-' && isDigit(b[5]) && isDigit(b[6]) && b[7] == '-' && isDigit(b[8]) && isDigit(b[9]) &&
		(b[10] == 'T' || b[10] == ' ')
}

// parseISO reads `YYYY-MM-DD[T ]hh:mm:ss[.frac][Z|±hh[:]mm| ±hhmm]` at b[i:].
func parseISO(b []byte, i int) (t tparts, off int, hasZone bool, next int, ok bool) {
	if !isISODate(b[i:]) {
		return t, 0, false, i, false
	}
	t.year, _ = digits(b, i, 4)
	t.month, _ = digits(b, i+5, 2)
	t.day, _ = digits(b, i+8, 2)
	j, ok := parseClock(b, i+11, &t)
	if !ok || !t.valid() {
		return t, 0, false, i, false
	}
	if j < len(b) && b[j] == ' ' && j+1 < len(b) && (b[j+1] == '+' || b[j+1] == '-') {
		if o, n, zok := parseOffset(b, j+1); zok {
			return t, o, true, n, true
		}
	}
	if j < len(b) {
		switch b[j] {
		case 'Z':
			return t, 0, true, j + 1, true
		case '+', '-':
			if o, n, zok := parseOffset(b, j); zok {
				return t, o, true, n, true
			}
		}
	}
	return t, 0, false, j, true
}

// parseClock reads `hh:mm:ss[.frac]` at b[i:] into t.
func parseClock(b []byte, i int, t *tparts) (int, bool) {
	if len(b)-i < 8 || b[i+2] != ':' || b[i+5] != ':' {
		return i, false
	}
	var ok1, ok2, ok3 bool
	t.hour, ok1 = digits(b, i, 2)
	t.min, ok2 = digits(b, i+3, 2)
	t.sec, ok3 = digits(b, i+6, 2)
	if !(ok1 && ok2 && ok3) {
		return i, false
	}
	j := i + 8
	if j < len(b) && (b[j] == '.' || b[j] == ',') {
		j++
		s := j
		scale := 100000000
		for j < len(b) && isDigit(b[j]) {
			if scale > 0 {
				t.nsec += int(b[j]-'0') * scale
				scale /= 10
			}
			j++
		}
		if j == s {
			return i, false
		}
	}
	return j, true
}

// parseOffset reads `+hh:mm`, `+hhmm` or `+hh` at b[i:].
func parseOffset(b []byte, i int) (int, int, bool) {
	sign := 1
	if b[i] == '-' {
		sign = -1
	}
	j := i + 1
	if len(b)-j < 2 {
		return 0, i, false
	}
	h, ok := digits(b, j, 2)
	if !ok || h > 23 {
		return 0, i, false
	}
	j += 2
	m := 0
	if j < len(b) && b[j] == ':' {
		j++
	}
	if len(b)-j >= 2 {
		if mm, ok := digits(b, j, 2); ok && mm < 60 {
			m = mm
			j += 2
		}
	}
	return sign * (h*3600 + m*60), j, true
}

// parseShortTime reads `Mon dd hh:mm:ss[.uuuuuu]` (journalctl -o short and
// short-precise, syslog) with the month as strftime's %b writes it in any
// locale: English and localized abbreviations, the numbered months of
// CJK locales ("1月", " 1월", padded as journald pads them). A month word
// it does not know leaves t.month 0: the line is still a syslog line, and
// its klog header, if any, says the month.
func parseShortTime(b []byte) (t tparts, next int, ok bool) {
	i := 0
	if len(b) > 1 && b[0] == ' ' && isDigit(b[1]) {
		i = 1 // " 1月": a numbered month padded to two columns
	}
	s := i
	for i < len(b) && i-s < 16 && b[i] != ' ' {
		i++
	}
	if i == s || i >= len(b) || i-s == 16 {
		return t, 0, false
	}
	tok := b[s:i]
	if t.month = monthNumber(tok); t.month == 0 && !monthWord(tok) {
		return t, 0, false
	}
	for i < len(b) && b[i] == ' ' {
		i++
	}
	s = i
	for i < len(b) && isDigit(b[i]) {
		t.day = t.day*10 + int(b[i]-'0')
		i++
	}
	if i == s || i-s > 2 || i >= len(b) {
		return t, 0, false
	}
	if b[i] != ' ' {
		// "13日" in a CJK date.
		if !bytes.HasPrefix(b[i:], []byte("日 ")) && !bytes.HasPrefix(b[i:], []byte("일 ")) {
			return t, 0, false
		}
		i += len("日")
	}
	i++
	j, ok := parseClock(b, i, &t)
	if !ok {
		return t, 0, false
	}
	if m := t.month; m == 0 {
		t.month = 1 // (checked as January; the caller is told it is not known)
		ok = t.valid()
		t.month = 0
	} else {
		ok = t.valid()
	}
	if !ok {
		return t, 0, false
	}
	return t, j, true
}

// monthWord reports whether tok may be a month name of a locale the month
// table lacks: letters (any script) and at most a trailing dot, no digits
// or punctuation of a log line.
func monthWord(tok []byte) bool {
	if len(tok) < 2 {
		return false
	}
	for k, c := range tok {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= 0x80:
		case c == '.' && k == len(tok)-1:
		default:
			return false
		}
	}
	return true
}

// months lists month abbreviations as strftime's %b prints them in the
// C/English locale and in de, fr, es, it, nl, pt, ru, pl, cs, sk, sv, da,
// nb, fi, tr, hu, ro, hr, uk, el, lt and ca; index+1 is the month. Matching
// ignores ASCII case and a trailing dot. (CJK locales number their months:
// see monthNumber.)
var months = [12][]string{
	{"jan", "janv", "ene", "gen", "янв", "январь", "jän", "sty", "led", "tam", "tammi", "oca", "ian", "sij", "січ", "ιαν", "sau", "gen"},
	{"feb", "févr", "fevr", "fév", "fev", "фев", "февр", "lut", "úno", "helmi", "hel", "şub", "febr", "veľ", "vel", "velj", "лют", "φεβ", "vas"},
	{"mar", "mär", "mrt", "mars", "мар", "март", "bře", "maalis", "maal", "márc", "mart", "ožu", "бер", "μάρ", "μαρ", "kov", "març"},
	{"apr", "avr", "avril", "abr", "апр", "kwi", "dub", "huhti", "huh", "nis", "ápr", "travanj", "tra", "кві", "απρ", "bal", "abr"},
	{"may", "mai", "mag", "mei", "мая", "май", "maj", "kvě", "touko", "tou", "máj", "svi", "тра", "μαΐ", "μάι", "geg", "maig"},
	{"jun", "juin", "giu", "июн", "июня", "cze", "čvn", "kesä", "kes", "haz", "jún", "iun", "lipanj", "чер", "ιούν", "ιουν", "bir", "juny"},
	{"jul", "juil", "lug", "июл", "июля", "lip", "čvc", "heinä", "hei", "tem", "júl", "iul", "лип", "ιούλ", "ιουλ", "lie", "jul"},
	{"aug", "août", "aout", "ago", "авг", "sie", "srp", "elo", "ağu", "aug", "kol", "сер", "αύγ", "αυγ", "rgp", "ag"},
	{"sep", "sept", "set", "сен", "сент", "wrz", "zář", "syys", "syy", "eyl", "szept", "rujan", "ruj", "вер", "σεπ", "rgs", "set"},
	{"oct", "okt", "ott", "out", "окт", "paź", "říj", "loka", "lok", "eki", "жов", "οκτ", "spa", "oct"},
	{"nov", "ноя", "нояб", "lis", "marras", "kas", "stu", "лис", "νοέ", "νοε", "lap", "nov"},
	{"dec", "déc", "dez", "dic", "дек", "gru", "pro", "joulu", "jou", "ara", "des", "pro", "гру", "δεκ", "grd", "des"},
}

// monthNumber returns the month (1-12) a %b month name says, or 0.
func monthNumber(tok []byte) int {
	if len(tok) == 3 {
		// English, as most journals print it: one switch, not the table.
		if m := englishMonth[uint32(tok[0]|0x20)<<16|uint32(tok[1]|0x20)<<8|uint32(tok[2]|0x20)]; m > 0 {
			return m
		}
	}
	if n := len(tok); n > 0 && tok[n-1] == '.' {
		tok = tok[:n-1]
	}
	if m := cjkMonth(tok); m > 0 {
		return m
	}
	if len(tok) < 2 || len(tok) > 12 {
		return 0
	}
	var buf [12]byte
	low := buf[:len(tok)]
	for i, c := range tok {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		low[i] = c
	}
	// Capitalized Cyrillic (Янв) and accented capitals: fold the first rune.
	low = foldFirst(low)
	for m := range months {
		for _, s := range months[m] {
			if string(low) == s {
				return m + 1
			}
		}
	}
	return 0
}

// englishMonth maps the English abbreviations, lower-cased and packed in
// three bytes, to their months.
var englishMonth = func() map[uint32]int {
	m := map[uint32]int{}
	for i, s := range []string{"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"} {
		m[uint32(s[0])<<16|uint32(s[1])<<8|uint32(s[2])] = i + 1
	}
	return m
}()

// cjkMonth reads a numbered month: "1月", "01月", "1월", "１月".
func cjkMonth(tok []byte) int {
	i, m := 0, 0
	for i < len(tok) && i < 2 && isDigit(tok[i]) {
		m = m*10 + int(tok[i]-'0')
		i++
	}
	if i == 0 {
		// Full-width digits (U+FF10-FF19: EF BC 90-99).
		for i+2 < len(tok) && i < 6 && tok[i] == 0xef && tok[i+1] == 0xbc && tok[i+2] >= 0x90 && tok[i+2] <= 0x99 {
			m = m*10 + int(tok[i+2]-0x90)
			i += 3
		}
		if i == 0 {
			return 0
		}
	}
	switch string(tok[i:]) {
	case "月", "월", "мес":
		if m >= 1 && m <= 12 {
			return m
		}
	}
	return 0
}

// foldFirst lower-cases a leading two-byte Cyrillic capital (А-Я) in place.
func foldFirst(b []byte) []byte {
	if len(b) >= 2 && b[0] == 0xd0 && b[1] >= 0x90 && b[1] <= 0xaf {
		// U+0410..U+042F -> U+0430..U+044F
		r := rune(b[1]-0x90) + 0x430
		if r < 0x440 {
			b[0], b[1] = 0xd0, byte(0xb0+(r-0x430))
		} else {
			b[0], b[1] = 0xd1, byte(0x80+(r-0x440))
		}
	}
	return b
}

// interner keeps the few host and ident strings an input uses, so that
// prefixes cost no allocation once seen.
type interner struct{ s []string }

func (in *interner) get(b []byte) string {
	for _, s := range in.s {
		if s == string(b) {
			return s
		}
	}
	s := string(b)
	if len(in.s) < 64 {
		in.s = append(in.s, s)
	}
	return s
}

// identComponent normalises a syslog identifier to a component name:
// kubelet-like wrappers become "kubelet", CRI-O "crio".
func (r *Reader) identComponent(id []byte) string {
	switch {
	case bytes.Contains(id, []byte("containerd")):
		return "containerd"
	case bytes.Contains(id, []byte("crio")), bytes.Contains(id, []byte("cri-o")):
		return "crio"
	case bytes.Contains(id, []byte("kubelet")), bytes.Contains(id, []byte("kubelite")),
		bytes.Equal(id, []byte("hyperkube")), bytes.Equal(id, []byte("kubenswrapper")), bytes.HasPrefix(id, []byte("k3s")),
		bytes.HasPrefix(id, []byte("k0s")), bytes.HasPrefix(id, []byte("rke2")),
		bytes.Equal(id, []byte("microshift")), bytes.Equal(id, []byte("openshift")):
		return "kubelet"
	}
	return r.interned.get(id)
}

// zone returns the location for a UTC offset read from the input, caching
// the last one so that a steady offset costs no allocation.
func (r *Reader) zone(off int, has bool) *time.Location {
	if !has {
		return r.clock.loc
	}
	if off == 0 {
		return time.UTC
	}
	if r.zoneLoc != nil && r.zoneOff == off {
		return r.zoneLoc
	}
	r.zoneOff, r.zoneLoc = off, time.FixedZone("", off)
	return r.zoneLoc
}
