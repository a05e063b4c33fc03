package trace

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// SpanAppender writes a pod's spans as encoding/json writes the spans
// Spans builds (indented, no HTML escapes), without building them: Spans makes a
// dozen strings and slices a span (IDs, times, attribute values behind
// pointers), some 200 MB on make bench's 1 GiB log, and the collections
// they caused scanned the flows again and again, a third of trace -o
// otlp's CPU. It reuses its buffers from one pod to the next.
type SpanAppender struct {
	cur   span1     // the span being written
	attrs []kv      // cur's attributes
	pod   []kv      // the pod's own attributes, on every span
	ids   []stageID // the spans of the pod's stages, for their containers
	buf   []byte    // a span ID's hash input
	item  func([]byte, string) []byte
	// pfx is the last prefix appendCur was given, in1…in3 it indented
	// by one to three levels: made once, not for every span.
	pfx, in1, in2, in3 string
}

// span1 is one span, as OTLPSpan holds it, in forms that need no
// allocation.
type span1 struct {
	trace      string
	id, parent [16]byte
	hasParent  bool
	name       string
	kind       int
	start, end int64
	statusCode int
	statusMsg  string
}

// kv is an attribute: a string value, or an integer one.
type kv struct {
	key, str string
	isInt    bool
	num      int
}

type stageID struct {
	stage string
	id    [16]byte
}

// Each calls add with a function that appends each span of f in turn,
// in the order Spans gives them.
func (a *SpanAppender) Each(f *timeline.Flow, add func(func(dst []byte, prefix string) []byte) error) error {
	if a.item == nil {
		a.item = a.appendCur
	}
	tid := TraceID(f)
	a.pod = append(a.pod[:0], kv{key: "k8s.pod.name", str: sanitize.OneLine(f.Pod.Name)}, kv{key: "k8s.namespace.name", str: sanitize.OneLine(f.Pod.Namespace)})
	if f.Pod.UID != "" {
		a.pod = append(a.pod, kv{key: "k8s.pod.uid", str: sanitize.OneLine(f.Pod.UID)})
	}
	root := a.spanID(tid, "syncPod", "", "")
	a.cur = span1{trace: tid, id: root, name: "syncPod", kind: spanKindInternal, start: f.Start.UnixNano(), end: f.End.UnixNano()}
	a.attrs = append(append(a.attrs[:0], a.pod...), kv{key: "podflow.verdict", str: string(f.Verdict)})
	switch f.Verdict {
	case timeline.VerdictStalled, timeline.VerdictFailed, timeline.VerdictRejected:
		a.cur.statusCode, a.cur.statusMsg = 2, fmt.Sprintf("%s at %s: %s", f.Verdict, stageLabel(f), sanitize.OneLine(f.Reason))
	case timeline.VerdictIncomplete:
	default:
		a.cur.statusCode = 1
	}
	if err := add(a.item); err != nil {
		return err
	}
	a.ids = a.ids[:0]
	for j := range f.Stages {
		s := &f.Stages[j]
		if s.Start == nil {
			continue
		}
		id := a.spanID(tid, "stage/", s.ID, "")
		a.ids = append(a.ids, stageID{s.ID, id})
		a.attrs = append(append(a.attrs[:0], a.pod...), kv{key: "podflow.stage", str: s.ID}, kv{key: "podflow.status", str: string(s.Status)})
		a.stage(f, s, tid, id, root)
		if err := add(a.item); err != nil {
			return err
		}
	}
	for ci := range f.Containers {
		c := &f.Containers[ci]
		parent := root
		group := timeline.StContainers
		if c.Type == timeline.ContainerInit {
			group = timeline.StInitContainers
		}
		for _, x := range a.ids {
			if x.stage == group {
				parent = x.id
				break
			}
		}
		for j := range c.Stages {
			s := &c.Stages[j]
			if s.Start == nil {
				continue
			}
			a.attrs = append(append(a.attrs[:0], a.pod...), kv{key: "k8s.container.name", str: sanitize.OneLine(c.Name)},
				kv{key: "podflow.stage", str: s.ID}, kv{key: "podflow.status", str: string(s.Status)})
			if c.Image != "" {
				a.attrs = append(a.attrs, kv{key: "container.image.name", str: sanitize.OneLine(c.Image)})
			}
			a.stage(f, s, tid, a.spanID(tid, "container/", c.Name, "/"+s.ID), parent)
			if err := add(a.item); err != nil {
				return err
			}
		}
	}
	return nil
}

// stage sets cur to the span of stage s (its attributes but the failed
// attempts already in attrs).
func (a *SpanAppender) stage(f *timeline.Flow, s *timeline.Stage, tid string, id, parent [16]byte) {
	name, kind := kubeletSpanName(s.ID)
	if s.Attempts > 0 {
		a.attrs = append(a.attrs, kv{key: "podflow.failed_attempts", isInt: true, num: s.Attempts})
	}
	st := stageStatus(s)
	end := stageEnd(f, s)
	a.cur = span1{trace: tid, id: id, parent: parent, hasParent: true, name: name, kind: kind,
		start: s.Start.UnixNano(), end: end.UnixNano(), statusCode: st.Code, statusMsg: st.Message}
}

// spanID is spanID(trace, a+b+c) without the strings.
func (a *SpanAppender) spanID(trace, p1, p2, p3 string) (id [16]byte) {
	a.buf = append(append(append(append(append(a.buf[:0], trace...), '/'), p1...), p2...), p3...)
	h := sha256.Sum256(a.buf)
	hex.Encode(id[:], h[:8])
	return id
}

// appendCur appends cur as an encoding/json Encoder with
// SetIndent(prefix, "  ") and SetEscapeHTML(false) writes the OTLPSpan
// Spans makes of it, without the final newline.
func (a *SpanAppender) appendCur(dst []byte, prefix string) []byte {
	s := &a.cur
	if prefix != a.pfx || a.in1 == "" {
		a.pfx, a.in1, a.in2, a.in3 = prefix, prefix+"  ", prefix+"    ", prefix+"      "
	}
	o := openObject(dst, prefix)
	o.str("traceId", s.trace)
	o.key("spanId")
	o.b = append(append(append(o.b, '"'), s.id[:]...), '"')
	if s.hasParent {
		o.key("parentSpanId")
		o.b = append(append(append(o.b, '"'), s.parent[:]...), '"')
	}
	o.str("name", s.name)
	o.int("kind", int64(s.kind))
	o.key("startTimeUnixNano")
	o.b = append(strconv.AppendInt(append(o.b, '"'), s.start, 10), '"')
	o.key("endTimeUnixNano")
	o.b = append(strconv.AppendInt(append(o.b, '"'), s.end, 10), '"')
	if len(a.attrs) > 0 {
		o.key("attributes")
		o.b = appendKVs(o.b, a.attrs, a.in1, a.in2, a.in3)
	}
	o.key("status")
	st := openObject(o.b, a.in1)
	if s.statusCode != 0 {
		st.int("code", int64(s.statusCode))
	}
	if s.statusMsg != "" {
		st.str("message", s.statusMsg)
	}
	o.b = st.close()
	return o.close()
}

// appendKVs writes OTLP attributes as encoding/json would at prefix, with
// prefix indented once (in) and twice (in2).
func appendKVs(dst []byte, kvs []kv, prefix, in, in2 string) []byte {
	dst = append(dst, '[')
	var num [20]byte
	for i := range kvs {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '\n')
		dst = append(dst, in...)
		o := openObject(dst, in)
		o.str("key", kvs[i].key)
		o.key("value")
		v := openObject(o.b, in2)
		if kvs[i].isInt {
			v.key("intValue")
			v.b = append(append(append(v.b, '"'), strconv.AppendInt(num[:0], int64(kvs[i].num), 10)...), '"')
		} else {
			v.str("stringValue", kvs[i].str)
		}
		o.b = v.close()
		dst = o.close()
	}
	if len(kvs) > 0 {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
	}
	return append(dst, ']')
}
