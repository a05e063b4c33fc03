package trace

// Hand-written JSON for the trace's events and spans: the bytes
// encoding/json's Encoder writes for them (SetEscapeHTML(false), indented
// by two spaces after a prefix), without reflection per field or the
// indenting pass over the encoded value. A trace of a 10,000-pod log is
// some 400,000 events; encoding them was a third of `trace`'s CPU.

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/podflow/podflow/internal/jsonstr"
)

// jsonObject writes the fields of one object, indented.
type jsonObject struct {
	b      []byte
	prefix string // the indent of the object's own lines
	n      int
}

func openObject(dst []byte, prefix string) jsonObject {
	return jsonObject{b: append(dst, '{'), prefix: prefix}
}

// key starts the next field, k a name in the code (nothing to escape:
// a span writes some ten keys, a tenth of trace -o otlp's encoding).
func (o *jsonObject) key(k string) {
	o.next()
	o.b = append(o.b, '"')
	o.b = append(o.b, k...)
	o.b = append(o.b, '"', ':', ' ')
}

// mapKey is key for a key from a map, escaped.
func (o *jsonObject) mapKey(k string) {
	o.next()
	o.b = jsonstr.Append(o.b, k)
	o.b = append(o.b, ": "...)
}

// next ends the field before and starts the next field's line.
func (o *jsonObject) next() {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(o.b, '\n')
	o.b = append(o.b, o.prefix...)
	o.b = append(o.b, "  "...)
}

func (o *jsonObject) str(k, v string) {
	o.key(k)
	o.b = jsonstr.Append(o.b, v)
}

func (o *jsonObject) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

// close ends the object and returns the bytes.
func (o *jsonObject) close() []byte {
	if o.n > 0 {
		o.b = append(o.b, '\n')
		o.b = append(o.b, o.prefix...)
	}
	return append(o.b, '}')
}

// appendAny writes v as encoding/json would at prefix: the types the
// trace puts in its maps directly, anything else through encoding/json.
func appendAny(dst []byte, v any, prefix string) []byte {
	switch v := v.(type) {
	case string:
		return jsonstr.Append(dst, v)
	case int:
		return strconv.AppendInt(dst, int64(v), 10)
	case int64:
		return strconv.AppendInt(dst, v, 10)
	case bool:
		return strconv.AppendBool(dst, v)
	}
	var buf, ind bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return append(dst, "null"...)
	}
	if err := json.Indent(&ind, bytes.TrimSuffix(buf.Bytes(), []byte("\n")), prefix, "  "); err != nil {
		return append(dst, "null"...)
	}
	return append(dst, ind.Bytes()...)
}

// appendMap writes m as encoding/json would at prefix: keys sorted.
func appendMap(dst []byte, m map[string]any, prefix string) []byte {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	o := openObject(dst, prefix)
	for _, k := range keys {
		o.mapKey(k)
		o.b = appendAny(o.b, m[k], prefix+"  ")
	}
	return o.close()
}

// AppendJSON appends e as an encoding/json Encoder with SetIndent(prefix,
// "  ") and SetEscapeHTML(false) writes it, without the final newline.
func (e *ChromeEvent) AppendJSON(dst []byte, prefix string) []byte {
	o := openObject(dst, prefix)
	o.str("name", e.Name)
	if e.Cat != "" {
		o.str("cat", e.Cat)
	}
	o.str("ph", e.Ph)
	o.int("ts", e.Ts)
	if e.Dur != nil {
		o.int("dur", *e.Dur)
	}
	o.int("pid", int64(e.Pid))
	o.int("tid", int64(e.Tid))
	if e.S != "" {
		o.str("s", e.S)
	}
	if len(e.Args) > 0 {
		o.key("args")
		o.b = appendMap(o.b, e.Args, prefix+"  ")
	}
	return o.close()
}
