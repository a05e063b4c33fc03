package printers

// A hand-written JSON encoder for timeline.Flow: the bytes encoding/json's
// Encoder (SetEscapeHTML(false)) writes for a flow, compact, without its
// reflection walk per field and without re-compacting what time.Time's
// and Duration's MarshalJSON return. -o json and -o yaml encode every
// flow of the list through it; encoding/json's walk and the compacting
// were some 500 M of -o yaml's 2,900 M instructions on the 100 MiB bench
// log. flowjson_test.go holds it to encoding/json on the corpus, on every
// field filled by reflection (a field added to the model and not here
// fails it) and under fuzzing.

import (
	"strconv"
	"time"

	"github.com/podflow/podflow/internal/jsonstr"
	"github.com/podflow/podflow/timeline"
)

// flowJSON appends JSON; err is the first time RFC 3339 cannot hold
// (a year outside 0…9999, a zone hour outside 0…23), which encoding/json
// fails on too: callers encode the flow through it for its error.
type flowJSON struct {
	b   []byte
	err error
}

// appendFlowJSON appends f as encoding/json's Encoder with
// SetEscapeHTML(false) writes it, without the final newline.
func appendFlowJSON(dst []byte, f *timeline.Flow) ([]byte, error) {
	e := flowJSON{b: dst}
	e.flow(f)
	return e.b, e.err
}

// key starts a member: a comma unless it is the object's first (no value
// ends with '{': an object's first member follows its brace directly).
// k is the key as written, quoted, with its colon.
func (e *flowJSON) key(k string) {
	if e.b[len(e.b)-1] != '{' {
		e.b = append(e.b, ',')
	}
	e.b = append(e.b, k...)
}

func (e *flowJSON) str(k, v string) {
	e.key(k)
	e.b = jsonstr.Append(e.b, v)
}

// strOmit is str for a field tagged omitempty.
func (e *flowJSON) strOmit(k, v string) {
	if v != "" {
		e.str(k, v)
	}
}

func (e *flowJSON) int(k string, v int64) {
	e.key(k)
	e.b = strconv.AppendInt(e.b, v, 10)
}

func (e *flowJSON) intOmit(k string, v int64) {
	if v != 0 {
		e.int(k, v)
	}
}

func (e *flowJSON) bool(k string, v bool) {
	e.key(k)
	e.b = strconv.AppendBool(e.b, v)
}

func (e *flowJSON) boolOmit(k string, v bool) {
	if v {
		e.bool(k, v)
	}
}

// time writes t as time.Time's MarshalJSON does: RFC 3339 with
// nanoseconds, quoted.
func (e *flowJSON) time(k string, t time.Time) {
	e.key(k)
	e.timeValue(t)
}

func (e *flowJSON) timeValue(t time.Time) {
	e.b = append(e.b, '"')
	b, err := t.AppendText(e.b) // MarshalJSON's strict RFC 3339
	if err != nil && e.err == nil {
		e.err = err
	}
	e.b = append(b, '"')
}

func (e *flowJSON) timeOmit(k string, t *time.Time) {
	if t != nil {
		e.time(k, *t)
	}
}

// duration writes d as Duration's MarshalJSON does: its Go string quoted
// (digits, '.', '-' and unit letters, µ among them: nothing to escape).
func (e *flowJSON) duration(k string, d timeline.Duration) {
	e.key(k)
	e.b = append(e.b, '"')
	e.b = append(e.b, time.Duration(d).String()...)
	e.b = append(e.b, '"')
}

func (e *flowJSON) durationOmit(k string, d *timeline.Duration) {
	if d != nil {
		e.duration(k, *d)
	}
}

// strings writes a []string; nil is null, as encoding/json writes it.
func (e *flowJSON) strings(k string, v []string) {
	e.key(k)
	if v == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i, s := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.b = jsonstr.Append(e.b, s)
	}
	e.b = append(e.b, ']')
}

func (e *flowJSON) stringsOmit(k string, v []string) {
	if len(v) > 0 {
		e.strings(k, v)
	}
}

// list writes a slice of structs with item; nil is null.
func list[T any](e *flowJSON, k string, v []T, item func(*flowJSON, *T)) {
	e.key(k)
	if v == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	for i := range v {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		item(e, &v[i])
	}
	e.b = append(e.b, ']')
}

func listOmit[T any](e *flowJSON, k string, v []T, item func(*flowJSON, *T)) {
	if len(v) > 0 {
		list(e, k, v, item)
	}
}

func (e *flowJSON) flow(f *timeline.Flow) {
	e.b = append(e.b, `{"pod":{`...)
	e.str(`"namespace":`, f.Pod.Namespace)
	e.str(`"name":`, f.Pod.Name)
	e.strOmit(`"uid":`, f.Pod.UID)
	e.b = append(e.b, '}')
	e.str(`"node":`, f.Node)
	e.strOmit(`"source":`, f.Source)
	e.boolOmit(`"static":`, f.Static)
	e.strOmit(`"mirrorUID":`, f.Mirror)
	e.intOmit(`"incarnation":`, int64(f.Incarnation))
	e.str(`"verdict":`, string(f.Verdict))
	e.strOmit(`"status":`, f.Status)
	e.strOmit(`"phase":`, f.Phase)
	e.boolOmit(`"deleted":`, f.Deleted)
	e.str(`"stage":`, f.Stage)
	e.str(`"stalledAt":`, f.StalledAt)
	e.strOmit(`"container":`, f.Container)
	e.strOmit(`"containerStage":`, f.ContainerStage)
	e.strOmit(`"reason":`, f.Reason)
	e.duration(`"waited":`, f.Waited)
	e.time(`"start":`, f.Start)
	e.time(`"end":`, f.End)
	e.duration(`"duration":`, f.Duration)
	e.strOmit(`"diagnosis":`, f.Diagnosis)
	e.strOmit(`"waitingOn":`, f.WaitingOn)
	list(e, `"stages":`, f.Stages, (*flowJSON).stage)
	list(e, `"containers":`, f.Containers, (*flowJSON).container)
	listOmit(e, `"events":`, f.Events, (*flowJSON).event)
	if f.Startup != nil {
		e.key(`"startup":`)
		e.startup(f.Startup)
	}
	e.stringsOmit(`"sandboxes":`, f.Sandboxes)
	e.stringsOmit(`"findings":`, f.Findings)
	listOmit(e, `"evidence":`, f.Evidence, (*flowJSON).evidence)
	e.stringsOmit(`"hidden":`, f.Hidden)
	listOmit(e, `"trouble":`, f.Trouble, (*flowJSON).trouble)
	e.b = append(e.b, '}')
}

func (e *flowJSON) evidence(v *timeline.Evidence) {
	e.b = append(e.b, '{')
	e.str(`"input":`, v.Input)
	e.int(`"line":`, v.Line)
	e.int(`"offset":`, v.Offset)
	e.int(`"length":`, int64(v.Length))
	e.time(`"time":`, v.Time)
	e.str(`"text":`, v.Text)
	e.b = append(e.b, '}')
}

func (e *flowJSON) stage(s *timeline.Stage) {
	e.b = append(e.b, '{')
	e.str(`"id":`, s.ID)
	e.strOmit(`"title":`, s.Title)
	e.timeOmit(`"start":`, s.Start)
	e.timeOmit(`"end":`, s.End)
	e.str(`"status":`, string(s.Status))
	e.duration(`"duration":`, s.Duration)
	e.intOmit(`"attempts":`, int64(s.Attempts))
	e.strOmit(`"reason":`, s.Reason)
	e.strOmit(`"reveal":`, s.Reveal)
	listOmit(e, `"evidence":`, s.Evidence, (*flowJSON).evidence)
	e.b = append(e.b, '}')
}

func (e *flowJSON) container(c *timeline.Container) {
	e.b = append(e.b, '{')
	e.str(`"name":`, c.Name)
	e.str(`"type":`, c.Type)
	e.boolOmit(`"sidecar":`, c.Sidecar)
	e.strOmit(`"image":`, c.Image)
	e.stringsOmit(`"ids":`, c.IDs)
	e.int(`"restarts":`, int64(c.Restarts))
	e.intOmit(`"backOffs":`, int64(c.BackOffs))
	e.intOmit(`"pullBackOffs":`, int64(c.PullBackOffs))
	if c.ExitCode != nil {
		e.int(`"exitCode":`, int64(*c.ExitCode))
	}
	e.strOmit(`"state":`, c.State)
	e.strOmit(`"reason":`, c.Reason)
	e.bool(`"ready":`, c.Ready)
	if p := c.Probe; p != nil {
		e.key(`"probe":`)
		e.b = append(e.b, '{')
		e.str(`"type":`, p.Type)
		e.str(`"message":`, p.Message)
		e.intOmit(`"failures":`, int64(p.Failures))
		e.boolOmit(`"restart":`, p.Restart)
		e.b = append(e.b, '}')
	}
	list(e, `"stages":`, c.Stages, (*flowJSON).stage)
	e.b = append(e.b, '}')
}

func (e *flowJSON) event(v *timeline.Event) {
	e.b = append(e.b, '{')
	e.time(`"time":`, v.Time)
	e.str(`"type":`, v.Type)
	e.str(`"reason":`, v.Reason)
	e.str(`"message":`, v.Message)
	e.strOmit(`"fieldPath":`, v.FieldPath)
	e.int(`"count":`, int64(v.Count))
	if !v.LastTime.IsZero() { // omitzero: time.Time's IsZero
		e.time(`"lastTime":`, v.LastTime)
	}
	e.key(`"evidence":`)
	e.evidence(&v.Evidence)
	e.b = append(e.b, '}')
}

func (e *flowJSON) startup(s *timeline.Startup) {
	e.b = append(e.b, '{')
	e.durationOmit(`"kubeletE2E":`, s.KubeletE2E)
	e.durationOmit(`"kubeletSLO":`, s.KubeletSLO)
	e.durationOmit(`"podflowE2E":`, s.PodflowE2E)
	e.durationOmit(`"podflowSLO":`, s.PodflowSLO)
	e.timeOmit(`"created":`, s.Created)
	e.timeOmit(`"observedRunning":`, s.ObservedRunning)
	if s.Evidence != nil {
		e.key(`"evidence":`)
		e.evidence(s.Evidence)
	}
	e.b = append(e.b, '}')
}

func (e *flowJSON) trouble(t *timeline.Trouble) {
	e.b = append(e.b, '{')
	e.str(`"stage":`, t.Stage)
	e.strOmit(`"container":`, t.Container)
	e.intOmit(`"attempts":`, int64(t.Attempts))
	e.intOmit(`"backOffs":`, int64(t.BackOffs))
	e.strOmit(`"error":`, t.Error)
	e.time(`"first":`, t.First)
	e.time(`"last":`, t.Last)
	e.duration(`"lasted":`, t.Lasted)
	if t.Budget != 0 {
		e.duration(`"budget":`, t.Budget)
	}
	e.bool(`"recovered":`, t.Recovered)
	e.b = append(e.b, '}')
}
