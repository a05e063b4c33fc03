package timeline

import "github.com/podflow/podflow/parser"

// The status manager's "Patch status for pod" carries the pod's status as a
// JSON merge patch of about 1.6 KB, on one line in sixty of a busy log. The
// engine reads a dozen fields of it. patchDecoder reads exactly those, in
// one pass that allocates nothing for well-formed patches, and otherwise
// behaves as encoding/json.Unmarshal into the struct the fields come from
// (patchRef in the tests): the same JSON is accepted and rejected, keys
// match case-insensitively, a repeated key merges into what the first one
// set, null clears pointers and slices and leaves the rest. The fuzz test
// FuzzStatusPatch holds it to that.
//
// This file is the schema: what the engine keeps of a patch (patchDoc) and
// the object readers that walk the kubelet's status down to those fields.
// The JSON reading they call is patchscan.go's (the decoder's state,
// strings, skip, fields set as encoding/json sets them) and jsonscan.go's
// (the byte-level scanning, eight bytes at a time).

// patchDoc is what statusPatch reads of a patch. Its strings may point into
// the patch text: copy what is kept.
type patchDoc struct {
	uid, phase string
	// The status's reason and message: the eviction manager's "Evicted",
	// "The node was low on resource: …" (eviction.go).
	reason, message string
	conds           []patchCond
	init, ctrs      []cstatus
}

type patchCond struct{ typ, status string }

// cstatus is one container status. The has* flags stand for the pointers of
// the API's type: set when the patch gives the value, cleared by null.
type cstatus struct {
	name, containerID, image string
	ready, hasReady          bool
	restartCount             int
	hasRestartCount          bool
	waiting                  bool
	waitingReason            string
	running                  bool
	terminated               bool
	exitCode                 int
	terminatedReason         string
	// lastState.terminated: how the container's previous run ended.
	lastTerminated bool
	lastExitCode   int
	lastReason     string
}

// quotedFields are the record fields the engine reads in their escaped
// form: the status patch (see decodeField). A field named here comes as
// parser.KindQuoted, whose Str is not its text: it must be read only
// through Record.Str, Value.Text or valueText, never through Str.
var quotedFields = []string{"patch"}

// QuotedFields names the record fields the Builder reads as the log
// writes them, escapes and all: readers that feed it save the work of
// unquoting them by naming them in parser.Options.Quoted.
func (b *Builder) QuotedFields() []string { return quotedFields }

// decodeField decodes the patch in the first field named key of rec, as
// decode(rec.Str(key)) would (or the field's Str, when that is empty),
// reading a value the parser kept as written (parser.KindQuoted) in its
// escaped form.
func (d *patchDecoder) decodeField(rec *parser.Record, key string) bool {
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
func (d *patchDecoder) decodeQuoted(v *parser.Value) bool {
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
func (d *patchDecoder) decode(s string) bool {
	d.s, d.i, d.depth = s, 0, 0
	d.doc.uid, d.doc.phase, d.doc.reason, d.doc.message = "", "", "", ""
	d.doc.conds = resetSlice(d.doc.conds)
	d.doc.init = resetSlice(d.doc.init)
	d.doc.ctrs = resetSlice(d.doc.ctrs)
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

func (d *patchDecoder) top() bool {
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

func (d *patchDecoder) metadata() bool {
	if open, ok := d.object(); !open {
		return ok
	}
	for first := true; ; first = false {
		k, done, ok := d.member(first)
		if !ok || done {
			return ok
		}
		if d.is(k, "uid") {
			ok = d.strField(&d.doc.uid)
		} else {
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) status() bool {
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
			ok = d.strField(&d.doc.phase)
		case d.is(k, "reason"):
			ok = d.strField(&d.doc.reason)
		case d.is(k, "message"):
			ok = d.strField(&d.doc.message)
		case d.is(k, "conditions"):
			ok = decodeSlice(d, &d.doc.conds, (*patchDecoder).condition)
		case d.is(k, "initContainerStatuses"):
			ok = decodeSlice(d, &d.doc.init, (*patchDecoder).containerStatus)
		case d.is(k, "containerStatuses"):
			ok = decodeSlice(d, &d.doc.ctrs, (*patchDecoder).containerStatus)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) condition(c *patchCond) bool {
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
			ok = d.strField(&c.typ)
		case d.is(k, "status"):
			ok = d.strField(&c.status)
		default:
			ok = d.skip()
		}
		if !ok {
			return false
		}
	}
}

func (d *patchDecoder) containerStatus(cs *cstatus) bool {
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
			ok = d.strField(&cs.name)
		case d.is(k, "containerID"):
			ok = d.strField(&cs.containerID)
		case d.is(k, "image"):
			ok = d.strField(&cs.image)
		case d.is(k, "ready"):
			ok = d.boolField(&cs.ready, &cs.hasReady)
		case d.is(k, "restartCount"):
			ok = d.intField(&cs.restartCount, &cs.hasRestartCount)
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

func (d *patchDecoder) state(cs *cstatus) bool {
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

func (d *patchDecoder) waiting(cs *cstatus) bool {
	if open, ok := d.pointer(&cs.waiting); !open {
		cs.waitingReason = ""
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
			ok = d.strField(&cs.waitingReason)
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

func (d *patchDecoder) running(cs *cstatus) bool {
	if open, ok := d.pointer(&cs.running); !open {
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

func (d *patchDecoder) terminated(cs *cstatus) bool {
	return d.terminatedState(&cs.terminated, &cs.exitCode, &cs.terminatedReason)
}

// terminatedState reads a terminated state's exit code and reason, the
// fields state and lastState share.
func (d *patchDecoder) terminatedState(has *bool, exitCode *int, reason *string) bool {
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
func (d *patchDecoder) lastState(cs *cstatus) bool {
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

func (d *patchDecoder) lastTerminated(cs *cstatus) bool {
	return d.terminatedState(&cs.lastTerminated, &cs.lastExitCode, &cs.lastReason)
}
