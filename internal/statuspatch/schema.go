// Package statuspatch reads the kubelet's status patches: the fields of
// the pod status the engine (package timeline) follows, out of the JSON
// merge patch "Patch status for pod" logs, as encoding/json would read
// them, without its cost.
package statuspatch

import "github.com/podflow/podflow/parser"

// The status manager's "Patch status for pod" carries the pod's status as a
// JSON merge patch of about 1.6 KB, on one line in sixty of a busy log. The
// engine reads a dozen fields of it. Decoder reads exactly those, in
// one pass that allocates nothing for well-formed patches, and otherwise
// behaves as encoding/json.Unmarshal into the struct the fields come from
// (patchRef in the tests): the same JSON is accepted and rejected, keys
// match case-insensitively, a repeated key merges into what the first one
// set, null clears pointers and slices and leaves the rest. The fuzz test
// FuzzStatusPatch holds it to that.
//
// This file is the schema: what the engine keeps of a patch (Doc) and
// the object readers that walk the kubelet's status down to those fields.
// The JSON reading they call is scan.go's (the decoder's state,
// strings, skip, fields set as encoding/json sets them) and bytes.go's
// (the byte-level scanning, eight bytes at a time).

// Doc is what the engine reads of a patch. Its strings may point into
// the patch text: copy what is kept.
type Doc struct {
	UID, Phase string
	// The status's reason and message: the eviction manager's "Evicted",
	// "The node was low on resource: …".
	Reason, Message string
	Conds           []Cond
	Init, Ctrs      []Container
}

// Cond is one of the pod's conditions.
type Cond struct{ Type, Status string }

// Container is one container status. The Has* flags stand for the
// pointers of the API's type: set when the patch gives the value, cleared
// by null.
type Container struct {
	Name, ContainerID, Image string
	Ready, HasReady          bool
	RestartCount             int
	HasRestartCount          bool
	Waiting                  bool
	WaitingReason            string
	Running                  bool
	Terminated               bool
	ExitCode                 int
	TerminatedReason         string
	// lastState.terminated: how the container's previous run ended.
	LastTerminated bool
	LastExitCode   int
	LastReason     string
}

// Doc is what the last successful decode read; its slices are reused by
// the next.
func (d *Decoder) Doc() *Doc { return &d.doc }

// DecodeField decodes the patch in the first field named key of rec, as
// decode(rec.Str(key)) would (or the field's Str, when that is empty),
// reading a value the parser kept as written (parser.KindQuoted) in its
// escaped form.
func (d *Decoder) DecodeField(rec *parser.Record, key string) bool {
	for i := range rec.Fields {
		if f := &rec.Fields[i]; f.Key == key {
			if f.Value.Kind == parser.KindQuoted {
				return d.decodeQuoted(&f.Value)
			}
			break // the first of the name, as rec.Str reads
		}
	}
	raw := rec.Str(key)
	if raw == "" {
		if v, ok := rec.Field(key); ok {
			raw = v.Str
		}
	}
	return d.decode(raw)
}

// decodeQuoted is decode(v.Text()) for a string the parser kept as written
// (parser.KindQuoted). klog writes a patch with strconv.Quote: JSON's
// quotes become \" and nothing else changes while the JSON holds no
// backslash or non-ASCII byte, and the parser keeps only such strings.
// The patch is read as it is, with \" for the quote, saving the work and
// memory of unquoting 1.6 KB; what that read fails (every string must be
// plain, every byte in JSON's syntax) is unquoted and read again.
func (d *Decoder) decodeQuoted(v *parser.Value) bool {
	if q := v.Str; len(q) >= 2 && q[0] == '"' && q[len(q)-1] == '"' {
		d.esc = true
		ok := d.decode(q[1 : len(q)-1])
		d.esc = false
		if ok {
			return true
		}
	}
	return d.decode(v.Text())
}

// decode reads s into d.doc, reusing its slices; false when
// encoding/json.Unmarshal would return an error.
func (d *Decoder) decode(s string) bool {
	d.s, d.i, d.depth = s, 0, 0
	d.doc.UID, d.doc.Phase, d.doc.Reason, d.doc.Message = "", "", "", ""
	d.doc.Conds = resetSlice(d.doc.Conds)
	d.doc.Init = resetSlice(d.doc.Init)
	d.doc.Ctrs = resetSlice(d.doc.Ctrs)
	d.ws()
	switch d.peek() {
	case 'n':
		if !d.lit("null") {
			return false
		}
	case '{':
		if !d.top() {
			return false
		}
	default:
		return false // a syntax error or, for any other value, a type error
	}
	d.ws()
	return d.i == len(d.s)
}

// The lengths of the field names each object reader reads (keyLens): a
// plain ASCII key of another length, nearly every key it skips, is told
// apart without trying each name (unread).
var (
	topKeys             = keyLens("metadata", "status")
	statusKeys          = keyLens("phase", "reason", "message", "conditions", "initContainerStatuses", "containerStatuses")
	conditionKeys       = keyLens("type", "status")
	containerStatusKeys = keyLens("name", "containerID", "image", "ready", "restartCount", "state", "lastState")
	stateKeys           = keyLens("waiting", "running", "terminated")
	lastStateKeys       = keyLens("terminated")
	waitingKeys         = keyLens("reason", "message")
	terminatedKeys      = keyLens("exitCode", "reason")
)

// The object readers below walk their members in a loop of their own,
// member by member: each reads the fields statusPatch keeps and skips the
// rest.

func (d *Decoder) top() bool {
	d.open()
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, topKeys):
			ok = d.skip()
		case d.is(k, "metadata"):
			ok = d.metadata()
		case d.is(k, "status"):
			ok = d.status()
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) metadata() bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		if d.is(k, "uid") {
			ok = d.strField(&d.doc.UID)
		} else {
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) status() bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, statusKeys):
			ok = d.skip()
		case d.is(k, "phase"):
			ok = d.strField(&d.doc.Phase)
		case d.is(k, "reason"):
			ok = d.strField(&d.doc.Reason)
		case d.is(k, "message"):
			ok = d.strField(&d.doc.Message)
		case d.is(k, "conditions"):
			ok = decodeSlice(d, &d.doc.Conds, (*Decoder).condition)
		case d.is(k, "initContainerStatuses"):
			ok = decodeSlice(d, &d.doc.Init, (*Decoder).containerStatus)
		case d.is(k, "containerStatuses"):
			ok = decodeSlice(d, &d.doc.Ctrs, (*Decoder).containerStatus)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) condition(c *Cond) bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, conditionKeys):
			ok = d.skip()
		case d.is(k, "type"):
			ok = d.strField(&c.Type)
		case d.is(k, "status"):
			ok = d.strField(&c.Status)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) containerStatus(cs *Container) bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, containerStatusKeys):
			ok = d.skip()
		case d.is(k, "name"):
			ok = d.strField(&cs.Name)
		case d.is(k, "containerID"):
			ok = d.strField(&cs.ContainerID)
		case d.is(k, "image"):
			ok = d.strField(&cs.Image)
		case d.is(k, "ready"):
			ok = d.boolField(&cs.Ready, &cs.HasReady)
		case d.is(k, "restartCount"):
			ok = d.intField(&cs.RestartCount, &cs.HasRestartCount)
		case d.is(k, "state"):
			ok = d.state(cs)
		case d.is(k, "lastState"):
			ok = d.lastState(cs)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) state(cs *Container) bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, stateKeys):
			ok = d.skip()
		case d.is(k, "waiting"):
			ok = d.waiting(cs)
		case d.is(k, "running"):
			ok = d.running(cs)
		case d.is(k, "terminated"):
			ok = d.terminated(cs)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) waiting(cs *Container) bool {
	if open, ok := d.pointer(&cs.Waiting); !open {
		cs.WaitingReason = ""
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, waitingKeys):
			ok = d.skip()
		case d.is(k, "reason"):
			ok = d.strField(&cs.WaitingReason)
		case d.is(k, "message"):
			ok = d.strField(nil) // read for its type: a number is an error
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) running(cs *Container) bool {
	if open, ok := d.pointer(&cs.Running); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		if d.is(k, "startedAt") {
			ok = d.strField(nil)
		} else {
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) terminated(cs *Container) bool {
	return d.terminatedState(&cs.Terminated, &cs.ExitCode, &cs.TerminatedReason)
}

// terminatedState reads a terminated state's exit code and reason, the
// fields state and lastState share.
func (d *Decoder) terminatedState(has *bool, exitCode *int, reason *string) bool {
	if open, ok := d.pointer(has); !open {
		*exitCode, *reason = 0, ""
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, terminatedKeys):
			ok = d.skip()
		case d.is(k, "exitCode"):
			ok = d.intField(exitCode, nil)
		case d.is(k, "reason"):
			ok = d.strField(reason)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

// lastState reads a container's lastState: of it, the terminated state
// (the only one the kubelet keeps there).
func (d *Decoder) lastState(cs *Container) bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		switch {
		case d.unread(k, lastStateKeys):
			ok = d.skip()
		case d.is(k, "terminated"):
			ok = d.lastTerminated(cs)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *Decoder) lastTerminated(cs *Container) bool {
	return d.terminatedState(&cs.LastTerminated, &cs.LastExitCode, &cs.LastReason)
}
