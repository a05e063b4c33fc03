package parser

import (
	"bytes"
	"unicode/utf8"
)

// deco is a set of the paste decorations an input showed before its log
// lines, so that its continuation lines, which start like no log line,
// lose them too.
type deco uint8

const (
	decoGutter deco = 1 << iota // cat -n, nl: a right-aligned line number and a TAB
	decoTick                    // a line wrapped in backticks
	decoIndent                  // leading indentation (indentN bytes)
)

// maxPeel bounds the decorations taken off one line.
const maxPeel = 6

// peelOnce takes one decoration off the start of b without looking at the
// reader's state: a quote marker, a list bullet, a backtick, indentation,
// a cat -n/nl gutter or a grep -n line number. It reports the kind for a
// decoration the reader remembers (0 for the others).
func peelOnce(b []byte) (rest []byte, kind deco, ok bool) {
	if len(b) < 2 {
		return b, 0, false
	}
	switch c := b[0]; {
	case c == '>':
		switch b[1] {
		case ' ':
			return b[2:], 0, true
		case '>':
			return b[1:], 0, true // a nested quote
		}
	case c == '-' || c == '*' || c == '+' || c == 0xe2 && bytes.HasPrefix(b, []byte("• ")):
		if c == 0xe2 {
			return b[len("• "):], 0, true
		}
		if b[1] == ' ' {
			return b[2:], 0, true
		}
	case c == '`':
		if b[1] == '`' && len(b) > 2 && b[2] == '`' {
			return b, 0, false // a code fence: an annotation
		}
		n := 1
		if b[1] == '`' {
			n = 2
		}
		return trimTicks(b[n:]), decoTick, true
	case c == ' ' || c == '\t':
		if g, ok := gutter(b); ok {
			return g, decoGutter, true
		}
		n := 1
		for n < len(b) && (b[n] == ' ' || b[n] == '\t') {
			n++
		}
		return b[n:], decoIndent, true
	case isDigit(c):
		if g, ok := gutter(b); ok {
			return g, decoGutter, true
		}
		if rest, ok := grepDigits(b, 0); ok {
			return rest, 0, true
		}
		// "1. " of a numbered list.
		if i := bytes.IndexByte(b[:min(len(b), 4)], '.'); i > 0 && i+1 < len(b) && b[i+1] == ' ' && allDigits(b[:i]) {
			return b[i+2:], 0, true
		}
	}
	return b, 0, false
}

// gutter reads the line number cat -n and nl put before a line: spaces, a
// number, a TAB (or a "|" or "│" column as editors and web views copy
// it), and returns what follows.
func gutter(b []byte) ([]byte, bool) {
	i := 0
	for i < len(b) && i < 16 && b[i] == ' ' {
		i++
	}
	s := i
	for i < len(b) && isDigit(b[i]) {
		i++
	}
	if i == s || i-s > 9 || i >= len(b) {
		return nil, false
	}
	switch {
	case b[i] == '\t':
		return b[i+1:], true
	case b[i] == ' ':
		j := i
		for j < len(b) && b[j] == ' ' {
			j++
		}
		if j < len(b) && b[j] == '|' {
			return trimOne(b[j+1:]), true
		}
		if bytes.HasPrefix(b[j:], []byte("│")) {
			return trimOne(b[j+len("│"):]), true
		}
	}
	return nil, false
}

// trimOne drops one leading space.
func trimOne(b []byte) []byte {
	if len(b) > 0 && b[0] == ' ' {
		return b[1:]
	}
	return b
}

// trimTicks drops the closing backticks of a line wrapped in them.
func trimTicks(b []byte) []byte {
	b = bytes.TrimRight(b, " ")
	for k := 0; k < 2 && len(b) > 0 && b[len(b)-1] == '`'; k++ {
		b = b[:len(b)-1]
	}
	return b
}

// peelsToLog reports whether taking up to maxPeel decorations off b
// reaches a line podflow reads.
func peelsToLog(b []byte) bool {
	for i := 0; i < maxPeel; i++ {
		nb, _, ok := peelOnce(b)
		if !ok {
			return false
		}
		if startsLogLine(nb) {
			return true
		}
		b = nb
	}
	return false
}

// stripDeco takes one decoration of a kind this input showed, and not
// yet taken off this line (used), off a line that does not start a log
// line itself (a continuation line): the gutter, the backticks, or as much
// indentation as the log lines had. It returns the kind taken, 0 for none.
func (r *Reader) stripDeco(b []byte, used deco) ([]byte, deco) {
	if len(b) == 0 {
		return b, 0
	}
	if r.paste.deco&^used&decoGutter != 0 {
		if g, ok := gutter(b); ok {
			return g, decoGutter
		}
		// nl leaves the lines it does not number (blank ones) without a
		// number: spaces, then the TAB.
		if i := bytes.IndexByte(b[:min(len(b), 17)], '\t'); i > 0 && allByte(b[:i], ' ') {
			return b[i+1:], decoGutter
		}
		if allByte(b, ' ') {
			return b[:0], decoGutter
		}
	}
	if r.paste.deco&^used&decoTick != 0 && b[0] == '`' && !bytes.HasPrefix(b, []byte("```")) {
		n := 1
		if len(b) > 1 && b[1] == '`' {
			n = 2
		}
		return trimTicks(b[n:]), decoTick
	}
	if r.paste.deco&^used&decoIndent != 0 && r.paste.indentN > 0 {
		c := byte(' ')
		if r.paste.indentTab {
			c = '\t'
		}
		n := 0
		for n < len(b) && n < r.paste.indentN && b[n] == c {
			n++
		}
		if n > 0 {
			return b[n:], decoIndent
		}
	}
	return b, 0
}

// isFence reports a markdown code fence line: ``` or ~~~ and an optional
// language word.
func isFence(b []byte) bool {
	if !bytes.HasPrefix(b, []byte("```")) && !bytes.HasPrefix(b, []byte("~~~")) {
		return false
	}
	return bytes.IndexByte(bytes.TrimSpace(b[3:]), ' ') < 0
}

// isPrompt reports a shell command line pasted with the logs: "$ docker
// logs kubelet", "root@node-1:~# journalctl -u kubelet", "[root@node-1
// ~]# …", "PS C:\> …".
func isPrompt(b []byte) bool {
	if len(b) < 3 {
		return false
	}
	if (b[0] == '$' || b[0] == '#' || b[0] == '%') && b[1] == ' ' && b[2] != ' ' {
		return true
	}
	if bytes.HasPrefix(b, []byte("PS ")) && bytes.Contains(b[:min(len(b), 64)], []byte("> ")) {
		return true
	}
	head := b[:min(len(b), 100)]
	for _, end := range [][]byte{[]byte("$ "), []byte("# ")} {
		k := bytes.Index(head, end)
		if k <= 0 {
			continue
		}
		pre := head[:k]
		if bytes.ContainsAny(pre, "\"={") {
			continue
		}
		if at := bytes.IndexByte(pre, '@'); at > 0 && bytes.IndexByte(pre[:at], ' ') < 0 {
			return true
		}
	}
	return false
}

// isMarkup reports markdown people write around pasted logs: a heading,
// a line in bold ("**docker logs kubelet**"), a horizontal rule.
func isMarkup(b []byte) bool {
	switch {
	case len(b) >= 4 && (bytes.HasPrefix(b, []byte("**")) && bytes.HasSuffix(b, []byte("**")) ||
		bytes.HasPrefix(b, []byte("__")) && bytes.HasSuffix(b, []byte("__"))):
		return true
	case len(b) >= 2 && b[0] == '#' && (b[1] == '#' || b[1] == ' '):
		return true
	case len(b) >= 3 && (allByte(b, '-') || allByte(b, '*') || allByte(b, '=') || allByte(b, '_')):
		return true
	}
	return false
}

func allDigits(b []byte) bool {
	for _, x := range b {
		if !isDigit(x) {
			return false
		}
	}
	return len(b) > 0
}

func allByte(b []byte, c byte) bool {
	for _, x := range b {
		if x != c {
			return false
		}
	}
	return true
}

// isStatusHeader reports the first line of `systemctl status`: a state
// dot, the unit and its description ("● kubelet.service - kubelet: The
// Kubernetes Node Agent").
func isStatusHeader(b []byte) bool {
	r, n := utf8.DecodeRune(b)
	switch r {
	case '●', '○', '×', '*', '↻', '◆':
	default:
		return false
	}
	rest := b[n:]
	if len(rest) < 2 || rest[0] != ' ' {
		return false
	}
	rest = rest[1:]
	sp := bytes.IndexByte(rest, ' ')
	if sp < 0 {
		sp = len(rest)
	}
	unit := rest[:sp]
	for _, s := range []string{".service", ".scope", ".socket", ".slice"} {
		if bytes.HasSuffix(unit, []byte(s)) {
			return true
		}
	}
	return false
}

// statusLine reports a line of the block `systemctl status` prints under
// its header: indented "Key: value" lines and the cgroup tree.
func statusLine(b []byte) bool {
	if len(b) == 0 || b[0] != ' ' && b[0] != '\t' {
		return false
	}
	t := bytes.TrimLeft(b, " \t")
	if len(t) == 0 {
		return false
	}
	if bytes.HasPrefix(t, []byte("└─")) || bytes.HasPrefix(t, []byte("├─")) || bytes.HasPrefix(t, []byte("│")) ||
		bytes.HasPrefix(t, []byte("`-")) || bytes.HasPrefix(t, []byte("|-")) {
		return true
	}
	if c := bytes.IndexByte(t, ':'); c > 0 && c < 16 {
		for _, x := range t[:c] {
			if !(x >= 'A' && x <= 'Z' || x >= 'a' && x <= 'z' || x == ' ' || x == '-') {
				return false
			}
		}
		return t[0] >= 'A' && t[0] <= 'Z'
	}
	return false
}

// aroundLogs reports the lines people and tools put around pasted logs
// that isAnnotation does not know by themselves: code fences, shell
// command lines, markdown, and the header block of systemctl status.
func (r *Reader) aroundLogs(b []byte) bool {
	if r.paste.status && statusLine(b) {
		return true
	}
	t := bytes.TrimSpace(b)
	r.paste.status = false
	if len(t) == 0 || b[0] == '\t' {
		return false
	}
	switch {
	case isFence(t), isPrompt(t), isMarkup(t):
		return true
	case isStatusHeader(t):
		r.paste.status = true
		return true
	}
	return false
}

// kubeletFiles are the starts of the base names of source files only the
// kubelet logs from (pkg/kubelet and the volume and runtime code it alone
// runs): a klog line whose file:line starts so is the kubelet's, whatever
// the syslog identifier of the process that wrote it (docker[PID] around a
// kubelet container, an all-in-one binary, a wrapper script).
var kubeletFiles = []string{
	"kubelet", "kuberuntime_", "pod_workers.go", "pod_container_deletor.go", "pod_startup_latency_tracker.go",
	"status_manager.go", "volume_manager.go", "reconciler", "operation_generator.go", "desired_state_of_world",
	"actual_state_of_world.go", "nestedpendingoperations.go", "eviction_manager.go", "image_gc_manager.go",
	"container_gc.go", "container_manager", "cpu_manager.go", "memory_manager.go", "topology_manager.go",
	"docker_manager.go", "docker_service.go", "docker_sandbox.go", "docker_container.go", "remote_runtime.go",
	"remote_image.go", "pod_container_manager", "qos_container_manager", "node_container_manager", "csi_attacher.go",
	"csi_mounter.go", "csi_plugin.go", "plugin_watcher.go", "prober.go", "prober_manager.go", "generic.go",
	"evented.go", "runonce.go", "container_log_manager.go", "mirror_client.go", "atomic_writer.go", "empty_dir.go",
	"reconstruct", "configmap.go", "projected.go", "secret.go", "pod_status.go", "oom_watcher", "cadvisor_linux.go",
	"nodelease.go", "server_v1.go", "scope.go", "policy_static.go", "policy_none.go", "handler.go",
}

// kubeletSource reports whether the file:line of a klog header is one of
// the kubelet's.
func kubeletSource(src []byte) bool {
	for _, f := range kubeletFiles {
		if bytes.HasPrefix(src, []byte(f)) {
			return true
		}
	}
	return false
}

// knownComponent reports the component names identComponent makes of
// identifiers it knows.
func knownComponent(c string) bool {
	return c == "kubelet" || c == "containerd" || c == "crio" || c == ""
}

// identPID is a syslog identifier and process found to be a kubelet by
// its lines.
type identPID struct {
	ident string
	pid   int
}

// kubeletIdents are the processes, under identifiers of their own, found
// to be kubelets by their lines (a few: a pasted log holds one or two).
type kubeletIdents struct {
	n  int
	at [4]identPID
}

func (k *kubeletIdents) has(ident string, pid int) bool {
	for i := 0; i < k.n; i++ {
		if k.at[i].ident == ident && k.at[i].pid == pid {
			return true
		}
	}
	return false
}

func (k *kubeletIdents) add(ident string, pid int) {
	if k.has(ident, pid) {
		return
	}
	if k.n < len(k.at) {
		k.at[k.n] = identPID{ident, pid}
		k.n++
		return
	}
	copy(k.at[:], k.at[1:])
	k.at[len(k.at)-1] = identPID{ident, pid}
}

// judgeComponent gives the kubelet's name to a syslog process whose
// identifier podflow does not know when its klog lines come from kubelet
// source files, and to its other lines from then on.
func (r *Reader) judgeComponent(p *prefix, format Format, content []byte, h *klogHeader) {
	if !p.journal || knownComponent(p.component) {
		return
	}
	if r.paste.kubelets.has(p.component, p.pid) {
		p.component = "kubelet"
		return
	}
	if (format == FormatKlog || format == FormatKlogLegacy) && h.srcEnd <= len(content) && kubeletSource(content[h.srcStart:h.srcEnd]) {
		r.paste.kubelets.add(p.component, p.pid)
		p.component = "kubelet"
	}
}

// embeddedLine finds a log line that starts after text podflow knows no
// shape of (a syslog prefix of another form, RFC 5424, a timestamp, a
// label such as kubectl logs --prefix writes, markup): a klog header, a
// JSON record or a logrus line at a word boundary, with no quote, '=' or
// brace before it (text before a line inside a value has them). It
// returns the line and fills p from what the text before it says.
func (r *Reader) embeddedLine(b []byte, p *prefix) ([]byte, bool) {
	lim := min(len(b), 400)
	at := -1
	var h klogHeader
	for i := 1; i < lim; i++ {
		c := b[i]
		switch c {
		case 'I', 'W', 'E', 'F':
			if isAlnum(b[i-1]) || len(b)-i < 30 || !isDigit(b[i+1]) {
				continue
			}
			if parseKlogHeaderTo(&h, b[i:]) {
				at = i
			}
		case '{':
			if i+1 < len(b) && b[i+1] == '"' && jsonMsg(b[i:]) != nil {
				at = i
			}
		case 't':
			if !isAlnum(b[i-1]) && bytes.HasPrefix(b[i:], []byte(`time="`)) {
				at = i
			}
		}
		if at >= 0 {
			break
		}
		if c == '"' || c == '=' || c == '{' || c == '}' {
			return b, false
		}
	}
	if at < 0 {
		return b, false
	}
	r.prefixFacts(b[:at], p)
	return b[at:], true
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// prefixFacts reads what it can of the text before an embedded log line:
// an RFC 3339 time with its zone, and the identifier, PID and host of a
// syslog-like prefix ("host ident[pid]: ", RFC 5424's "host app procid
// msgid sd ").
func (r *Reader) prefixFacts(pre []byte, p *prefix) {
	for k := 0; k+11 <= len(pre); k++ {
		if k > 0 && pre[k-1] != ' ' && pre[k-1] != '[' || !isISODate(pre[k:]) {
			continue
		}
		if t, off, has, _, ok := parseISO(pre, k); ok && t.year > 0 {
			p.time = t.date(t.year, r.zone(off, has))
			p.hasTime = true
			if has {
				r.clock.anchor(p.time)
			}
		}
		break
	}
	words := bytes.Fields(pre)
	k := 0
	if len(words) > 0 && len(words[0]) > 2 && words[0][0] == '<' {
		k = 1 // <PRI>VERSION
	}
	if len(words) >= k+4 && len(words[k]) >= 19 && isISODate(pre[bytes.Index(pre, words[k]):]) {
		// RFC 5424: [<PRI>VERSION] TIME HOST APP PROCID [MSGID [SD]]
		if pid, ok := atoiBytes(words[k+3]); ok || string(words[k+3]) == "-" {
			p.host = r.interned.get(words[k+1])
			p.component = r.identComponent(words[k+2])
			p.pid = pid
			p.journal = true
			return
		}
	}
	if len(words) == 0 {
		return
	}
	last := bytes.TrimSuffix(words[len(words)-1], []byte(":"))
	id, pid := last, 0
	if o := bytes.IndexByte(last, '['); o > 0 && last[len(last)-1] == ']' {
		id = last[:o]
		pid, _ = atoiBytes(last[o+1 : len(last)-1])
	} else if len(words[len(words)-1]) == len(last) {
		return // no "ident:" before the line
	}
	if len(id) == 0 || bytes.ContainsAny(id, "/()<>") {
		return
	}
	if len(words) == 1 && pid == 0 {
		// "node-1: …": a node name (talosctl logs -n, a loop over nodes).
		p.host = r.interned.get(id)
		return
	}
	p.journal = true
	p.pid = pid
	p.component = r.identComponent(id)
	if len(words) >= 2 {
		if h := words[len(words)-2]; !bytes.ContainsRune(h, ':') || bytes.Count(h, []byte(":")) == 0 {
			p.host = r.interned.get(h)
		}
	}
}

// atoiBytes reads a decimal number of at most 10 digits.
func atoiBytes(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 10 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if !isDigit(c) {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// endsIndented reports whether a line that reads as nothing, with prefix
// q, ends the indented console block of the pending record instead of
// continuing it: the record's first line was indented (four spaces of a
// markdown code block, a bullet's journalctl output) and this line is not.
// A line of a multi-line message pasted in such a block carries the
// block's indentation (stripDeco takes it off); prose after the block
// does not. A line the terminal hard-wrapped (the record's last line at a
// wrap width, or inside an open quote) starts at the terminal's first
// column whatever the block's indentation, and still continues it. (Only
// a wanted record's text shows that: a declined one takes the line, as
// before, and nothing of it is kept.)
func (r *Reader) endsIndented(q *prefix) bool {
	p := &r.cur
	return p.pfx.indented && !q.indented && p.want && !p.openQuote() && !p.wrapped()
}
