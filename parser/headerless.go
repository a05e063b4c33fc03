package parser

// Kubelet lines that lost the time of their klog header, read as klog
// records without one. Only lines no other reader recognised come here
// (consume: format unknown, no annotation), so the lines of every other
// shape pay nothing for it.
//
//   - A klog line whose "Lmmdd hh:mm:ss.uuuuuu" the poster cut away,
//     leaving the PID, the call site and the message:
//     ` 58430 pod_container_deletor.go:77] Container "…" not found …`.
//     Read strictly (digits, one space, a Go file's name and line,
//     "] "), so prose is not taken for it. Its severity is unknown, its
//     time none (or its journald prefix's): the engine keeps such
//     records in their order, with no span.
//   - A klog line cut at its start, inside its header: what is left of
//     "mmdd hh:mm:ss.uuuuuu" (`22 06:03:25.671345`, `:03:25.671345`,
//     `45`), then the PID and call site as above. A terminal selection
//     or a copy begins where the mouse went down: the date and time that
//     are left cannot be trusted to be whole, so such a record has no
//     time either (or its journald prefix's), and an unknown severity.
//   - A journal entry of the kubelet whose text has no klog header and
//     continues no record of its stream: the part of a record the
//     journal wrote on a line of its own (a message with a newline in
//     it), whose first line was not pasted. It is still the kubelet's
//     line at the journal's time: a record of that time whose message is
//     the whole text, with no call site.

// headerless reads content, a line with prefix p that no reader
// recognised, as a klog record without a time, into h. It reports
// false, leaving h, for any other line.
func (r *Reader) headerless(content []byte, p *prefix, h *klogHeader) bool {
	if c := content[0]; (c == ' ' || isDigit(c)) && strippedKlog(h, content) {
		return true
	}
	if c := content[0]; (c == ' ' || c == ':' || c == '.' || isDigit(c)) && cutKlog(h, content) {
		return true
	}
	if !p.journal || p.component != "kubelet" || r.cur.active && sameStream(&r.cur.pfx, p) {
		return false
	}
	for _, c := range content {
		if c != ' ' && c != '\t' {
			*h = klogHeader{noTime: true, pid: p.pid}
			return true
		}
	}
	return false
}

// strippedKlog reads b as a klog line without its severity, date and
// time: spaces (klog pads the PID to seven columns), the PID's digits, one
// space, the call site (a Go file's name, ".go:", its line) and "] " or
// the line's end. It fills h as parseKlogHeaderTo does, with no time and
// an unknown severity.
func strippedKlog(h *klogHeader, b []byte) bool {
	i := 0
	for i < len(b) && i < 8 && b[i] == ' ' {
		i++
	}
	ps, pid := i, 0
	for i < len(b) && isDigit(b[i]) {
		if i-ps < 10 {
			pid = pid*10 + int(b[i]-'0')
		}
		i++
	}
	if i == ps || i-ps > 10 || i >= len(b) || b[i] != ' ' {
		return false
	}
	i++
	src := i
	for i < len(b) && sourceByte(b[i]) {
		i++
	}
	// name.go:NNN
	colon := i
	if colon-src < 4 || i >= len(b) || b[i] != ':' || string(b[colon-3:colon]) != ".go" {
		return false
	}
	i++
	ls := i
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	if i == ls || i >= len(b) || b[i] != ']' {
		return false
	}
	end := i
	i++
	if i < len(b) && b[i] != ' ' {
		return false
	}
	*h = klogHeader{noTime: true, pid: pid, srcStart: src, srcEnd: end, payload: min(i+1, len(b))}
	return true
}

// sourceByte reports the bytes of a klog call site's file name (with
// -add_dir_header, its directory).
func sourceByte(c byte) bool {
	return isAlnum(c) || c == '_' || c == '-' || c == '.' || c == '/'
}

// cutHeader is the part of a klog header a line cut at its start may keep
// some end of, its digits written 0.
const cutHeader = "0000 00:00:00.000000"

// cutKlog reads b as a klog line cut inside its "mmdd hh:mm:ss.uuuuuu":
// an end of that (digits where it has digits, its spaces, colons and
// point where it has them), then what strippedKlog reads. It fills h as
// strippedKlog does, the offsets counted from b's start.
func cutKlog(h *klogHeader, b []byte) bool {
	// The longest end of the header b starts with, followed by a space.
	for n := min(len(cutHeader), len(b)-1); n > 0; n-- {
		if b[n] != ' ' || !cutHeaderEnd(b[:n]) {
			continue
		}
		if !strippedKlog(h, b[n:]) {
			return false
		}
		h.srcStart += n
		h.srcEnd += n
		h.payload += n
		return true
	}
	return false
}

// cutHeaderEnd reports whether t is an end of cutHeader: digits where it
// has digits, its other bytes where it has them.
func cutHeaderEnd(t []byte) bool {
	tmpl := cutHeader[len(cutHeader)-len(t):]
	for i, c := range t {
		if want := tmpl[i]; want == '0' && !isDigit(c) || want != '0' && c != want {
			return false
		}
	}
	return true
}
