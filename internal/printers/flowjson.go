package printers

// Hand-written encoders for timeline.Flow: one walk over a flow's fields
// (walkFlow, in the order and with the omitempty rules of their json
// tags) feeding a sink that writes JSON (flowJSON: the bytes
// encoding/json's Encoder with SetEscapeHTML(false) writes, compact or
// indented) or YAML (flowYAML, flowyaml.go: the bytes the YAML writer makes of that
// JSON). encoding/json's reflection walk per field, its re-compacting of
// what time.Time's and Duration's MarshalJSON return, and the YAML
// writer's reading of the JSON back were some 900 M of -o yaml's
// 2,900 M instructions on the 100 MiB bench log. flowjson_test.go holds
// both to the general encoders on the corpus, on every field of the
// model filled by reflection (a field added to the model and not here
// fails it) and under fuzzing.

import (
	"strconv"
	"time"

	"github.com/podflow/podflow/internal/jsonstr"
	"github.com/podflow/podflow/timeline"
)

// flowSink is what walkFlow writes to: members of objects (key, then one
// value), elements of lists (a value each).
type flowSink interface {
	key(k string) // the member's name, an identifier
	str(s string)
	int(v int64)
	bool(v bool)
	time(t time.Time)
	duration(d timeline.Duration)
	null()
	emptyList()
	openObject()
	closeObject()
	openList() // of one element or more: emptyList and null for the others
	closeList()
}

// walkFlow writes f as encoding/json sees it.
func walkFlow(s flowSink, f *timeline.Flow) {
	s.openObject()
	s.key("pod")
	s.openObject()
	fieldStr(s, "namespace", f.Pod.Namespace)
	fieldStr(s, "name", f.Pod.Name)
	fieldStrOmit(s, "uid", f.Pod.UID)
	s.closeObject()
	fieldStr(s, "node", f.Node)
	fieldStrOmit(s, "source", f.Source)
	fieldBoolOmit(s, "static", f.Static)
	fieldStrOmit(s, "mirrorUID", f.Mirror)
	fieldIntOmit(s, "incarnation", int64(f.Incarnation))
	fieldStr(s, "verdict", string(f.Verdict))
	fieldStrOmit(s, "status", f.Status)
	fieldStrOmit(s, "phase", f.Phase)
	fieldBoolOmit(s, "deleted", f.Deleted)
	fieldStr(s, "stage", f.Stage)
	fieldStr(s, "stalledAt", f.StalledAt)
	fieldStrOmit(s, "container", f.Container)
	fieldStrOmit(s, "containerStage", f.ContainerStage)
	fieldStrOmit(s, "reason", f.Reason)
	fieldDuration(s, "waited", f.Waited)
	fieldTime(s, "start", f.Start)
	fieldTime(s, "end", f.End)
	fieldDuration(s, "duration", f.Duration)
	fieldStrOmit(s, "diagnosis", f.Diagnosis)
	fieldStrOmit(s, "waitingOn", f.WaitingOn)
	fieldList(s, "stages", f.Stages, walkStage)
	fieldList(s, "containers", f.Containers, walkContainer)
	fieldListOmit(s, "events", f.Events, walkEvent)
	if f.Startup != nil {
		s.key("startup")
		walkStartup(s, f.Startup)
	}
	fieldStringsOmit(s, "sandboxes", f.Sandboxes)
	fieldStringsOmit(s, "findings", f.Findings)
	fieldListOmit(s, "evidence", f.Evidence, walkEvidence)
	fieldStringsOmit(s, "hidden", f.Hidden)
	fieldListOmit(s, "trouble", f.Trouble, walkTrouble)
	s.closeObject()
}

func walkEvidence(s flowSink, v *timeline.Evidence) {
	s.openObject()
	fieldStr(s, "input", v.Input)
	fieldInt(s, "line", v.Line)
	fieldInt(s, "offset", v.Offset)
	fieldInt(s, "length", int64(v.Length))
	fieldTime(s, "time", v.Time)
	fieldStr(s, "text", v.Text)
	s.closeObject()
}

func walkStage(s flowSink, v *timeline.Stage) {
	s.openObject()
	fieldStr(s, "id", v.ID)
	fieldStrOmit(s, "title", v.Title)
	fieldTimeOmit(s, "start", v.Start)
	fieldTimeOmit(s, "end", v.End)
	fieldStr(s, "status", string(v.Status))
	fieldDuration(s, "duration", v.Duration)
	fieldIntOmit(s, "attempts", int64(v.Attempts))
	fieldStrOmit(s, "reason", v.Reason)
	fieldStrOmit(s, "reveal", v.Reveal)
	fieldListOmit(s, "evidence", v.Evidence, walkEvidence)
	s.closeObject()
}

func walkContainer(s flowSink, c *timeline.Container) {
	s.openObject()
	fieldStr(s, "name", c.Name)
	fieldStr(s, "type", c.Type)
	fieldBoolOmit(s, "sidecar", c.Sidecar)
	fieldStrOmit(s, "image", c.Image)
	fieldStringsOmit(s, "ids", c.IDs)
	fieldInt(s, "restarts", int64(c.Restarts))
	fieldIntOmit(s, "backOffs", int64(c.BackOffs))
	fieldIntOmit(s, "pullBackOffs", int64(c.PullBackOffs))
	if c.ExitCode != nil {
		fieldInt(s, "exitCode", int64(*c.ExitCode))
	}
	fieldStrOmit(s, "state", c.State)
	fieldStrOmit(s, "reason", c.Reason)
	fieldBool(s, "ready", c.Ready)
	if p := c.Probe; p != nil {
		s.key("probe")
		s.openObject()
		fieldStr(s, "type", p.Type)
		fieldStr(s, "message", p.Message)
		fieldIntOmit(s, "failures", int64(p.Failures))
		fieldBoolOmit(s, "restart", p.Restart)
		s.closeObject()
	}
	fieldList(s, "stages", c.Stages, walkStage)
	s.closeObject()
}

func walkEvent(s flowSink, v *timeline.Event) {
	s.openObject()
	fieldTime(s, "time", v.Time)
	fieldStr(s, "type", v.Type)
	fieldStr(s, "reason", v.Reason)
	fieldStr(s, "message", v.Message)
	fieldStrOmit(s, "fieldPath", v.FieldPath)
	fieldInt(s, "count", int64(v.Count))
	if !v.LastTime.IsZero() { // omitzero: time.Time's IsZero
		fieldTime(s, "lastTime", v.LastTime)
	}
	s.key("evidence")
	walkEvidence(s, &v.Evidence)
	s.closeObject()
}

func walkStartup(s flowSink, v *timeline.Startup) {
	s.openObject()
	fieldDurationOmit(s, "kubeletE2E", v.KubeletE2E)
	fieldDurationOmit(s, "kubeletSLO", v.KubeletSLO)
	fieldDurationOmit(s, "podflowE2E", v.PodflowE2E)
	fieldDurationOmit(s, "podflowSLO", v.PodflowSLO)
	fieldTimeOmit(s, "created", v.Created)
	fieldTimeOmit(s, "observedRunning", v.ObservedRunning)
	if v.Evidence != nil {
		s.key("evidence")
		walkEvidence(s, v.Evidence)
	}
	s.closeObject()
}

func walkTrouble(s flowSink, t *timeline.Trouble) {
	s.openObject()
	fieldStr(s, "stage", t.Stage)
	fieldStrOmit(s, "container", t.Container)
	fieldIntOmit(s, "attempts", int64(t.Attempts))
	fieldIntOmit(s, "backOffs", int64(t.BackOffs))
	fieldStrOmit(s, "error", t.Error)
	fieldTime(s, "first", t.First)
	fieldTime(s, "last", t.Last)
	fieldDuration(s, "lasted", t.Lasted)
	if t.Budget != 0 { // omitempty: Duration is an int64
		fieldDuration(s, "budget", t.Budget)
	}
	fieldBool(s, "recovered", t.Recovered)
	s.closeObject()
}

// The members walkFlow writes, a key and its value; the Omit forms leave
// out what omitempty leaves out.

func fieldStr(s flowSink, k, v string) {
	s.key(k)
	s.str(v)
}

func fieldStrOmit(s flowSink, k, v string) {
	if v != "" {
		fieldStr(s, k, v)
	}
}

func fieldInt(s flowSink, k string, v int64) {
	s.key(k)
	s.int(v)
}

func fieldIntOmit(s flowSink, k string, v int64) {
	if v != 0 {
		fieldInt(s, k, v)
	}
}

func fieldBool(s flowSink, k string, v bool) {
	s.key(k)
	s.bool(v)
}

func fieldBoolOmit(s flowSink, k string, v bool) {
	if v {
		fieldBool(s, k, v)
	}
}

func fieldTime(s flowSink, k string, t time.Time) {
	s.key(k)
	s.time(t)
}

func fieldTimeOmit(s flowSink, k string, t *time.Time) {
	if t != nil {
		fieldTime(s, k, *t)
	}
}

func fieldDuration(s flowSink, k string, d timeline.Duration) {
	s.key(k)
	s.duration(d)
}

func fieldDurationOmit(s flowSink, k string, d *timeline.Duration) {
	if d != nil {
		fieldDuration(s, k, *d)
	}
}

// list writes a slice of structs with item; nil is null, as
// encoding/json writes it.
func fieldList[T any](s flowSink, k string, v []T, item func(flowSink, *T)) {
	s.key(k)
	switch {
	case v == nil:
		s.null()
	case len(v) == 0:
		s.emptyList()
	default:
		s.openList()
		for i := range v {
			item(s, &v[i])
		}
		s.closeList()
	}
}

func fieldListOmit[T any](s flowSink, k string, v []T, item func(flowSink, *T)) {
	if len(v) > 0 {
		fieldList(s, k, v, item)
	}
}

func fieldStringsOmit(s flowSink, k string, v []string) {
	if len(v) == 0 {
		return
	}
	s.key(k)
	s.openList()
	for _, x := range v {
		s.str(x)
	}
	s.closeList()
}

// flowJSON writes JSON, compact or indented; err is the first time
// RFC 3339 cannot hold (a year outside 0…9999, a zone hour outside
// 0…23), which encoding/json fails on too: callers encode the flow
// through it for its error.
type flowJSON struct {
	b        []byte
	err      error
	first    bool // in an object or list with nothing in it yet
	afterKey bool // a key was written: its value comes next
	// indented: a line per member and element, at prefix and two
	// spaces a level, as encoding/json's Encoder with SetIndent(prefix,
	// "  ") writes, without appendIndented's second pass over the bytes.
	indented bool
	prefix   string
	depth    int
}

// appendFlowJSON appends f as encoding/json's Encoder with
// SetEscapeHTML(false) writes it, without the final newline.
func appendFlowJSON(dst []byte, f *timeline.Flow) ([]byte, error) {
	e := flowJSON{b: dst, afterKey: true}
	walkFlow(&e, f)
	return e.b, e.err
}

// appendFlowJSONIndent is appendFlowJSON with SetIndent(prefix, "  ").
func appendFlowJSONIndent(dst []byte, f *timeline.Flow, prefix string) ([]byte, error) {
	e := flowJSON{b: dst, afterKey: true, indented: true, prefix: prefix}
	walkFlow(&e, f)
	return e.b, e.err
}

// newline starts a line at the depth, when indented.
func (e *flowJSON) newline() {
	if !e.indented {
		return
	}
	e.b = append(e.b, '\n')
	e.b = append(e.b, e.prefix...)
	for range e.depth {
		e.b = append(e.b, ' ', ' ')
	}
}

// value starts a value: after its key, or as an element of a list, on a
// line of its own after a comma but for the first.
func (e *flowJSON) value() {
	if e.afterKey {
		e.afterKey = false
	} else {
		if !e.first {
			e.b = append(e.b, ',')
		}
		e.newline()
	}
	e.first = false
}

func (e *flowJSON) key(k string) {
	if !e.first {
		e.b = append(e.b, ',')
	}
	e.newline()
	e.first = false
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
	if e.indented {
		e.b = append(e.b, ' ')
	}
	e.afterKey = true
}

func (e *flowJSON) str(s string) {
	e.value()
	e.b = jsonstr.Append(e.b, s)
}

func (e *flowJSON) int(v int64) {
	e.value()
	e.b = strconv.AppendInt(e.b, v, 10)
}

func (e *flowJSON) bool(v bool) {
	e.value()
	e.b = strconv.AppendBool(e.b, v)
}

// time writes t as time.Time's MarshalJSON does: RFC 3339 with
// nanoseconds, quoted.
func (e *flowJSON) time(t time.Time) {
	e.value()
	e.b = append(e.b, '"')
	b, err := t.AppendText(e.b) // MarshalJSON's strict RFC 3339
	if err != nil && e.err == nil {
		e.err = err
	}
	e.b = append(b, '"')
}

// duration writes d as Duration's MarshalJSON does: its Go string quoted
// (digits, '.', '-' and unit letters, µ among them: nothing to escape).
func (e *flowJSON) duration(d timeline.Duration) {
	e.value()
	e.b = append(e.b, '"')
	e.b = append(e.b, time.Duration(d).String()...)
	e.b = append(e.b, '"')
}

func (e *flowJSON) null() {
	e.value()
	e.b = append(e.b, "null"...)
}

func (e *flowJSON) emptyList() {
	e.value()
	e.b = append(e.b, "[]"...)
}

func (e *flowJSON) openObject() {
	e.value()
	e.b = append(e.b, '{')
	e.first = true
	e.depth++
}

// closeObject ends an object, on a line of its own when it has members
// ({} when it has none).
func (e *flowJSON) closeObject() {
	e.depth--
	if !e.first {
		e.newline()
	}
	e.b = append(e.b, '}')
	e.first = false
}

func (e *flowJSON) openList() {
	e.value()
	e.b = append(e.b, '[')
	e.first = true
	e.depth++
}

func (e *flowJSON) closeList() {
	e.depth--
	if !e.first {
		e.newline()
	}
	e.b = append(e.b, ']')
	e.first = false
}
