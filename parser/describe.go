package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
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
// pod ("Name:") is read so.

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
		// ends.
		t.section, t.ctrIndent, t.inCtr = describeSectionOf(text), 0, false
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
		t.inCtr, t.rowOpen = true, r.cur.active
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

// decodeDescribe makes the record of a describe block's container.
func (r *Reader) decodeDescribe(rec *Record) {
	t := r.evt
	c := &t.ctr
	t.rowOpen = false
	rec.Format = FormatDescribe
	rec.Component = "kubelet"
	rec.Msg = string(patchStatusMsg)
	rec.Verbosity = -1
	rec.Severity = SeverityInfo
	at, stated := c.time()
	rec.Time = at
	str := func(k, v string) {
		rec.Fields = append(rec.Fields, Field{Key: k, Raw: strconv.Quote(v), Value: Value{Kind: KindString, Str: v}})
	}
	if c.ns != "" {
		str("pod", c.ns+"/"+c.pod)
	} else {
		o := `{"name":` + strconv.Quote(c.pod) + `}`
		rec.Fields = append(rec.Fields, Field{Key: "pod", Raw: o, Value: Value{Kind: KindObject, Str: o}})
	}
	str("patch", c.patch())
	if !stated {
		str("age", "<unknown>")
	}
}
