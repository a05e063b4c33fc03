package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// The containers of a kubectl describe pod block: under "Containers:"
// ("Init Containers:", "Ephemeral Containers:") describe prints each
// container's status as the API holds it (pod.Status.ContainerStatuses),
// the same status the kubelet's status manager sends and logs as "Patch
// status for pod" (status_manager.go). kubectl's describeStatus prints
//
//	  <name>:
//	    Container ID:   containerd://<id>
//	    Image:          <image>
//	    Image ID:       <digest>
//	    …
//	    State:          Waiting | Running | Terminated
//	      Reason:       <reason>             (Waiting, Terminated)
//	      Message:      <message>            (Terminated)
//	      Exit Code:    <code>               (Terminated)
//	      Signal:       <signal>             (Terminated, when > 0)
//	      Started:      <RFC 1123Z time>     (Running, Terminated)
//	      Finished:     <RFC 1123Z time>     (Terminated)
//	    Last State:     Terminated           (only when terminated)
//	      …
//	    Ready:          True | False
//	    Restart Count:  <n>
//
// and then the container's limits, probes, environment and mounts. Each
// container is read as one record shaped like the status manager's line
// (FormatDescribe): pod (namespace/name, or {"name": …} when no namespace
// is known) and patch, a status patch holding that one container's status
// as describe states it, nothing more: a field describe left out, or a
// paste cut before, is not in the patch (a terminated state without its
// exit code is left out whole). The record's lines are the container's
// from its name through "Restart Count:"; the rest of its lines are
// annotations. Its time is the state's own (Running: Started; Terminated:
// Finished), else the events table's rule (tableBase), and the record
// then has age="<unknown>", as a table row with an unknown age. Neither
// moves the input's time span (Stats): describe's times are the API's,
// not the log's; they are a weak source of the klog headers' year
// (prescan), as RFC 3339 times in lines are. Only a block that names its
// pod is read so: by its "Name:" line, or by the kubectl describe command
// line pasted before it (describeCmd).

// describeSection is the containers section of a describe block being
// read, and the key of the status list its containers go in.
type describeSection uint8

const (
	sectionNone describeSection = iota
	sectionContainers
	sectionInit
	sectionEphemeral
)

// describeSectionOf reads a describe block's top-level line.
func describeSectionOf(t []byte) describeSection {
	switch string(t) {
	case "Containers:":
		return sectionContainers
	case "Init Containers:":
		return sectionInit
	case "Ephemeral Containers:":
		return sectionEphemeral
	}
	return sectionNone
}

// describeCtr is a container of a describe block as its lines state it.
type describeCtr struct {
	section            describeSection
	ns, pod, name      string
	id, image, imageID string
	state, last        describeState
	ready              bool
	restarts           int
	hasReady, hasCount bool
	fieldIndent        int
	sub                uint8 // the state whose lines are read: 1 State, 2 Last State
	base               time.Time
	hasState, hasLast  bool
}

// describeState is a container state as describe prints it.
type describeState struct {
	kind              string // "waiting", "running", "terminated"
	reason, message   string
	exitCode, signal  int
	hasExit, hasSig   bool
	started, finished time.Time
}

// describeCtrName reads a container's first line, "<name>:", a DNS label.
func describeCtrName(t []byte) (string, bool) {
	if len(t) < 2 || len(t) > 64 || t[len(t)-1] != ':' {
		return "", false
	}
	name := t[:len(t)-1]
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return "", false
		}
	}
	return string(name), true
}

// describeTime reads describe's time.RFC1123Z; the zero time the API
// leaves unset (year 1) is none.
func describeTime(v string) time.Time {
	t, err := time.Parse(time.RFC1123Z, v)
	if err != nil || t.Year() < 1971 {
		return time.Time{}
	}
	return t
}

// appendDescribeDate appends the time a kubectl describe pod line
// states, "Start Time:" or a container state's "Started:" or
// "Finished:" (a weak source of the year: prescan).
func appendDescribeDate(ts []time.Time, line []byte) []time.Time {
	t, _ := tableText(line)
	if len(t) < 8 || t[0] != 'S' && t[0] != 'F' {
		return ts
	}
	for _, k := range [...]string{"Started:", "Finished:", "Start Time:"} {
		if v, ok := describeValue(t, k); ok {
			if d := describeTime(v); !d.IsZero() {
				ts = append(ts, d)
			}
			break
		}
	}
	return ts
}

// read takes a line of the container, text at indentation indent; done
// reports its last status line, "Restart Count:".
func (c *describeCtr) read(text []byte, indent int) (done bool) {
	if c.fieldIndent == 0 {
		c.fieldIndent = indent
	}
	if indent > c.fieldIndent {
		var s *describeState
		switch c.sub {
		case 1:
			s = &c.state
		case 2:
			s = &c.last
		default:
			return false
		}
		if v, ok := describeValue(text, "Reason:"); ok {
			s.reason = v
		} else if v, ok := describeValue(text, "Message:"); ok {
			s.message = v
		} else if v, ok := describeValue(text, "Exit Code:"); ok {
			s.exitCode, s.hasExit = describeInt(v)
		} else if v, ok := describeValue(text, "Signal:"); ok {
			s.signal, s.hasSig = describeInt(v)
		} else if v, ok := describeValue(text, "Started:"); ok {
			s.started = describeTime(v)
		} else if v, ok := describeValue(text, "Finished:"); ok {
			s.finished = describeTime(v)
		}
		return false
	}
	c.sub = 0
	if v, ok := describeValue(text, "Container ID:"); ok {
		c.id = v
	} else if v, ok := describeValue(text, "Image:"); ok {
		c.image = v
	} else if v, ok := describeValue(text, "Image ID:"); ok {
		c.imageID = v
	} else if v, ok := describeValue(text, "State:"); ok {
		if k := stateKind(v); k != "" {
			c.state, c.hasState, c.sub = describeState{kind: k}, true, 1
		}
	} else if v, ok := describeValue(text, "Last State:"); ok {
		if k := stateKind(v); k != "" {
			c.last, c.hasLast, c.sub = describeState{kind: k}, true, 2
		}
	} else if v, ok := describeValue(text, "Ready:"); ok {
		switch v {
		case "True":
			c.ready, c.hasReady = true, true
		case "False":
			c.ready, c.hasReady = false, true
		}
	} else if v, ok := describeValue(text, "Restart Count:"); ok {
		c.restarts, c.hasCount = describeInt(v)
		return true
	}
	return false
}

func stateKind(v string) string {
	switch v {
	case "Waiting":
		return "waiting"
	case "Running":
		return "running"
	case "Terminated":
		return "terminated"
	}
	return ""
}

func describeInt(v string) (int, bool) {
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// describeContainer reads a line of a describe block, text at
// indentation indent, for its containers sections: a container's first
// line begins its record, its status lines are the record's, and a
// top-level line ends the section. done false leaves the line to
// eventLine, an annotation.
func (r *Reader) describeContainer(line, text []byte, indent int, pfx *prefix, phys int, start int64) (*Record, bool) {
	t := r.evt
	if indent <= t.indent {
		// A top-level line: a containers section begins, or the one read
		// ends; or the pod's own status.
		t.section, t.ctrIndent, t.inCtr = describeSectionOf(text), 0, false
		if rec, ok := r.describePodLine(line, text, pfx, phys, start); ok {
			return rec, true
		}
		r.stats.Annotations++
		return r.tableRecordDone(), true
	}
	if t.section == sectionNone {
		return nil, false
	}
	if t.ctrIndent == 0 || indent <= t.ctrIndent {
		name, ok := describeCtrName(text)
		if !ok {
			t.inCtr = false
			r.stats.Annotations++
			return r.tableRecordDone(), true
		}
		t.ctrIndent = indent
		if t.base.IsZero() {
			t.base = r.tableBase()
		}
		var h klogHeader
		// (begin completes the container before, whose status t.ctr still
		// holds.)
		rec := r.begin(line, text, pfx, FormatDescribe, &h, patchStatusMsg, phys, start)
		t.ctr = describeCtr{section: t.section, ns: t.ns, pod: t.name, name: name, base: t.base}
		t.inCtr, t.rowOpen, t.podRec = true, r.cur.active, false
		return rec, true
	}
	if !t.inCtr {
		return nil, false
	}
	done := t.ctr.read(text, indent)
	if t.rowOpen && r.cur.active && r.cur.format == FormatDescribe {
		r.appendCont(line, text, '\n', start, phys)
		if done {
			return r.flush(), true
		}
		return nil, true
	}
	return nil, false
}

var patchStatusMsg = []byte("Patch status for pod")

// tableRecordDone completes the record a table or describe block has
// open, if any.
func (r *Reader) tableRecordDone() *Record {
	t := r.evt
	if t.rowOpen && r.cur.active && (r.cur.format == FormatEventTable || r.cur.format == FormatDescribe) {
		return r.flush()
	}
	return nil
}

// The status patch of one container, in the API's JSON (the kubelet's
// patch, its keys in order).
type (
	describePatch struct {
		Status describePatchStatus `json:"status"`
	}
	describePatchStatus struct {
		ContainerStatuses          []describeStatusJSON `json:"containerStatuses,omitempty"`
		EphemeralContainerStatuses []describeStatusJSON `json:"ephemeralContainerStatuses,omitempty"`
		InitContainerStatuses      []describeStatusJSON `json:"initContainerStatuses,omitempty"`
	}
	describeStatusJSON struct {
		ContainerID  string             `json:"containerID,omitempty"`
		Image        string             `json:"image,omitempty"`
		ImageID      string             `json:"imageID,omitempty"`
		LastState    *describeStateJSON `json:"lastState,omitempty"`
		Name         string             `json:"name"`
		Ready        *bool              `json:"ready,omitempty"`
		RestartCount *int               `json:"restartCount,omitempty"`
		State        *describeStateJSON `json:"state,omitempty"`
	}
	describeStateJSON struct {
		Running    *describeRunningJSON    `json:"running,omitempty"`
		Terminated *describeTerminatedJSON `json:"terminated,omitempty"`
		Waiting    *describeWaitingJSON    `json:"waiting,omitempty"`
	}
	describeRunningJSON struct {
		StartedAt string `json:"startedAt,omitempty"`
	}
	describeWaitingJSON struct {
		Reason string `json:"reason,omitempty"`
	}
	describeTerminatedJSON struct {
		ExitCode   int    `json:"exitCode"`
		FinishedAt string `json:"finishedAt,omitempty"`
		Message    string `json:"message,omitempty"`
		Reason     string `json:"reason,omitempty"`
		Signal     int    `json:"signal,omitempty"`
		StartedAt  string `json:"startedAt,omitempty"`
	}
)

// stateJSON is s in the API's form; nil when describe stated too little
// of it to say (a terminated state without its exit code).
func (s *describeState) stateJSON() *describeStateJSON {
	stamp := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format(time.RFC3339)
	}
	switch s.kind {
	case "waiting":
		return &describeStateJSON{Waiting: &describeWaitingJSON{Reason: s.reason}}
	case "running":
		return &describeStateJSON{Running: &describeRunningJSON{StartedAt: stamp(s.started)}}
	case "terminated":
		if !s.hasExit {
			return nil
		}
		return &describeStateJSON{Terminated: &describeTerminatedJSON{ExitCode: s.exitCode, FinishedAt: stamp(s.finished), Message: s.message,
			Reason: s.reason, Signal: s.signal, StartedAt: stamp(s.started)}}
	}
	return nil
}

// patch is the container's status patch.
func (c *describeCtr) patch() string {
	st := describeStatusJSON{ContainerID: c.id, Image: c.image, ImageID: c.imageID, Name: c.name}
	if c.hasState {
		st.State = c.state.stateJSON()
	}
	if c.hasLast {
		st.LastState = c.last.stateJSON()
	}
	if c.hasReady {
		st.Ready = &c.ready
	}
	if c.hasCount {
		st.RestartCount = &c.restarts
	}
	var p describePatch
	list := []describeStatusJSON{st}
	switch c.section {
	case sectionInit:
		p.Status.InitContainerStatuses = list
	case sectionEphemeral:
		p.Status.EphemeralContainerStatuses = list
	default:
		p.Status.ContainerStatuses = list
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(&p) // (strings and numbers only: it cannot fail)
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// time is the time of the container's record: its state's own, or the
// block's base time (stated false).
func (c *describeCtr) time() (t time.Time, stated bool) {
	switch {
	case c.hasState && c.state.kind == "running" && !c.state.started.IsZero():
		return c.state.started, true
	case c.hasState && c.state.kind == "terminated" && !c.state.finished.IsZero():
		return c.state.finished, true
	}
	return c.base, false
}

// decodeDescribe makes the record of a describe block's container, or of
// its pod's own status.
func (r *Reader) decodeDescribe(rec *Record) {
	t := r.evt
	c := &t.ctr
	t.rowOpen = false
	rec.Format = FormatDescribe
	rec.Component = "kubelet"
	rec.Msg = string(patchStatusMsg)
	rec.Verbosity = -1
	rec.Severity = SeverityInfo
	ns, name := c.ns, c.pod
	var patch string
	at, stated := t.base, false
	if t.podRec {
		t.podRec = false
		ns, name, patch = t.ns, t.name, t.pod.patch()
	} else {
		at, stated = c.time()
		patch = c.patch()
	}
	rec.Time = at
	str := func(k, v string) {
		rec.Fields = append(rec.Fields, Field{Key: k, Raw: strconv.Quote(v), Value: Value{Kind: KindString, Str: v}})
	}
	if ns != "" {
		str("pod", ns+"/"+name)
	} else {
		o := `{"name":` + strconv.Quote(name) + `}`
		rec.Fields = append(rec.Fields, Field{Key: "pod", Raw: o, Value: Value{Kind: KindObject, Str: o}})
	}
	str("patch", patch)
	if !stated {
		str("age", "<unknown>")
	}
}

// The pod's own status in a describe block: kubectl's describePod prints,
// at the block's top level, "Status:" (the phase, or "Terminating (lasts
// …)" while the pod is being deleted), then "Reason:" and "Message:" when
// the status has them. The kubelet sets a reason and message when it
// ends a pod itself: the eviction manager's Failed, Evicted, "The node was
// low on resource: memory. …" (eviction_manager.go), a pod rejected at
// admission, a node shutdown. Such a status is read as one record shaped
// as the status manager's "Patch status for pod" with the pod's phase,
// reason and message (its lines from "Status:", or from "Reason:" when
// the phase says no more than the containers do); a phase of Pending or
// Running with neither is not read.

// describePod is the status a describe block states of its pod.
type describePod struct {
	phase, reason, message string
}

// describePhase is the pod phase a describe "Status:" value names; none
// for "Terminating (lasts …)".
func describePhase(v string) string {
	switch v {
	case "Pending", "Running", "Succeeded", "Failed", "Unknown":
		return v
	}
	return ""
}

// describePodLine reads a top-level line of a describe block for its
// pod's status: done false leaves it an annotation.
func (r *Reader) describePodLine(line, text []byte, pfx *prefix, phys int, start int64) (*Record, bool) {
	t := r.evt
	if len(text) == 0 || !bytes.ContainsAny(text[:1], "SRMNP") {
		return nil, false
	}
	if !t.podLike {
		// Lines describe prints of a pod alone (not of a volume, whose
		// Status may be Failed with a Reason and Message).
		for _, k := range [...]string{"Node:", "Service Account:", "Start Time:", "Priority:"} {
			if _, ok := describeValue(text, k); ok {
				t.podLike = true
			}
		}
		if !t.podLike {
			return nil, false
		}
	}
	open := t.podRec && t.rowOpen && r.cur.active && r.cur.format == FormatDescribe
	if v, ok := describeValue(text, "Status:"); ok {
		t.pod = describePod{phase: describePhase(v)}
		if t.pod.phase != "Succeeded" && t.pod.phase != "Failed" {
			return nil, false
		}
		return r.beginPodStatus(line, text, pfx, phys, start), true
	}
	v, ok := describeValue(text, "Reason:")
	dst := &t.pod.reason
	if !ok {
		if v, ok = describeValue(text, "Message:"); !ok {
			return nil, false
		}
		dst = &t.pod.message
	}
	if v == "" {
		return nil, false // (before 1.9, printed when empty too)
	}
	*dst = v
	if open {
		r.appendCont(line, text, '\n', start, phys)
		return nil, true
	}
	return r.beginPodStatus(line, text, pfx, phys, start), true
}

// beginPodStatus begins the record of the pod's status at line,
// completing the record before it.
func (r *Reader) beginPodStatus(line, text []byte, pfx *prefix, phys int, start int64) *Record {
	t := r.evt
	if t.base.IsZero() {
		t.base = r.tableBase()
	}
	var h klogHeader
	// (begin completes the record before, whose state t still holds.)
	rec := r.begin(line, text, pfx, FormatDescribe, &h, patchStatusMsg, phys, start)
	t.podRec, t.rowOpen = true, r.cur.active
	return rec
}

// patch is the pod's status patch: {"status":{"message":…,"phase":…,
// "reason":…}}, what it states.
func (p *describePod) patch() string {
	var v struct {
		Status struct {
			Message string `json:"message,omitempty"`
			Phase   string `json:"phase,omitempty"`
			Reason  string `json:"reason,omitempty"`
		} `json:"status"`
	}
	v.Status.Message, v.Status.Phase, v.Status.Reason = p.message, p.phase, p.reason
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(&v) // (strings only: it cannot fail)
	return string(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

// A describe block pasted without its "Name:" line is named by the
// command that printed it when the paste shows that command on the line
// before: "kubectl describe po|pod|pods <name>" (or pod/<name>), with -n
// or --namespace, kubectl's alias k or OpenShift's oc, behind a shell
// prompt ("$ ", "# ", "root@host:~# ") or a wrapper (sudo, microk8s,
// k3s). A command that describes several pods (a selector, several
// names) names none.

// describeCmd is the pod a describe command line named, and the line.
type describeCmd struct {
	line     int64
	ns, name string
}

var describeWord = []byte("describe ")

// noteCommand keeps the pod a kubectl describe command line names. It
// runs on the lines no format reads: one search for "describe ".
func (r *Reader) noteCommand(b []byte) {
	if len(b) > 512 || bytes.Index(b, describeWord) < 0 {
		return
	}
	if ns, name, ok := describeCommand(b); ok {
		r.cmd = describeCmd{line: r.lineNo, ns: ns, name: name}
	}
}

// cmdBefore reports whether the line before this one was a describe
// command line.
func (r *Reader) cmdBefore() bool {
	return r.cmd.name != "" && r.cmd.line == r.lineNo-1
}

// describeTop reports a top-level line describe prints near the top of a
// pod's block, before its containers: where a paste without the "Name:"
// line begins.
func describeTop(t []byte) bool {
	for _, k := range [...]string{"Namespace:", "Priority:", "Priority Class Name:", "Runtime Class Name:", "Service Account:",
		"Node:", "Start Time:", "Labels:", "Annotations:", "Status:"} {
		if _, ok := describeValue(t, k); ok {
			return true
		}
	}
	return false
}

// describeCommand reads a command line that describes one pod.
func describeCommand(b []byte) (ns, name string, ok bool) {
	ws := strings.Fields(string(b))
	cmd := -1
	for i, w := range ws {
		if w == "kubectl" || w == "k" || w == "oc" || w == "kubectl.exe" || strings.HasSuffix(w, "/kubectl") {
			cmd = i
			break
		}
	}
	if cmd < 0 {
		return "", "", false
	}
	// Before the command: a prompt (its last word ends in $, #, % or >),
	// then wrappers.
	i := cmd - 1
	for i >= 0 && (ws[i] == "sudo" || ws[i] == "microk8s" || ws[i] == "k3s" || ws[i] == "k0s") {
		i--
	}
	if i >= 0 && !strings.ContainsAny(ws[i][len(ws[i])-1:], "$#%>") {
		return "", "", false
	}
	var pos []string // the words that are not flags
	for k := cmd + 1; k < len(ws); k++ {
		w := ws[k]
		switch {
		case w == "|" || w == ">" || w == ";" || w == "&&" || w == "||" || w == "2>&1" || strings.HasPrefix(w, "|"):
			k = len(ws)
		case w == "-n" || w == "--namespace":
			if k+1 < len(ws) {
				ns = ws[k+1]
				k++
			}
		case strings.HasPrefix(w, "--namespace="):
			ns = w[len("--namespace="):]
		case strings.HasPrefix(w, "-n="):
			ns = w[len("-n="):]
		case len(w) > 2 && strings.HasPrefix(w, "-n") && w[2] != '-':
			ns = w[2:]
		case w == "-l" || w == "--selector" || w == "-f" || w == "--filename" || w == "-A" || w == "--all-namespaces" ||
			strings.HasPrefix(w, "--selector=") || strings.HasPrefix(w, "-l="):
			return "", "", false // several pods
		case w == "--context" || w == "--kubeconfig" || w == "--cluster" || w == "--user" || w == "-s" || w == "--server" ||
			w == "--request-timeout" || w == "--as" || w == "--token":
			k++ // and its value
		case strings.HasPrefix(w, "-"):
		default:
			pos = append(pos, w)
		}
	}
	if len(pos) < 2 || pos[0] != "describe" {
		return "", "", false
	}
	kind, obj, _ := strings.Cut(pos[1], "/")
	switch kind {
	case "po", "pod", "pods":
	default:
		return "", "", false
	}
	switch {
	case obj != "" && len(pos) == 2:
		name = obj
	case obj == "" && len(pos) == 3:
		name = pos[2]
	default:
		return "", "", false
	}
	if !dnsName(name, 253) || ns != "" && !dnsName(ns, 63) {
		return "", "", false
	}
	return ns, name, true
}

// dnsName reports whether s may be an object's name: lower-case letters,
// digits, '-' and '.', starting and ending with a letter or digit.
func dnsName(s string, max int) bool {
	if s == "" || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || (c == '-' || c == '.') && i > 0 && i < len(s)-1) {
			return false
		}
	}
	return true
}

// Pasted describe blocks and events tables have no host of their own. An
// input whose journald lines name one kubelet host is that node's: its
// pasted records are given that host, so that what they say of a pod is
// said of the pod the kubelet's lines follow, not of another pod of a
// node of its own. The host is the one the input showed before the block
// and in what the reader holds after it (up to 64 KiB); none when they
// name several.

// seeKubeletHost notes the journald host of a kubelet record.
func (r *Reader) seeKubeletHost(h string) {
	if r.khost == "" {
		r.khost = h
	} else {
		r.khostMany = true
	}
}

// pastedHost is the host of the block or table being read: the input's
// one kubelet host, if it has one.
func (r *Reader) pastedHost() string {
	t := r.evt
	if t == nil {
		return ""
	}
	if t.hostRead {
		return t.host
	}
	t.hostRead = true
	if r.khostMany {
		return ""
	}
	h := r.khost
	buf := r.win[:min(len(r.win), prescanBytes)]
	for line := range bytes.Lines(buf) {
		line = bytes.TrimSuffix(line, []byte{'\n'})
		line, _ = tableText(line)
		jp := parseJournal(line)
		if !jp.ok || r.identComponent(line[jp.idS:jp.idE]) != "kubelet" {
			continue
		}
		switch host := line[jp.hostS:jp.hostE]; {
		case h == "":
			h = r.interned.get(host)
		case h != string(host):
			return ""
		}
	}
	t.host = h
	return h
}
