package timeline

import (
	"encoding/json"
	"strings"
	"testing"
	"unsafe"

	"github.com/podflow/podflow/parser"
)

// With parser.Options.Borrow a record's strings and slices live only until
// the next record: the builder must copy whatever it keeps past Add. Each
// record here reaches Add as a copy in memory of its own, overwritten as
// soon as Add returns; the flows must be those built from records that
// stay as they were.
func TestBuilderKeepsNoRecordMemory(t *testing.T) {
	inputs := rowInputs(t)
	var flows int
	for _, paths := range inputs {
		want := finishInputs(t, paths, func(b *Builder) *FlowList { return b.Finish() })
		got := readInputs(t, paths, func(b *Builder, rec *parser.Record) {
			c := copyRecord(rec)
			b.Add(&c)
			scribbleRecord(&c)
		}).Finish()
		w, _ := json.MarshalIndent(want, "", " ")
		g, _ := json.MarshalIndent(got, "", " ")
		if string(g) != string(w) {
			t.Errorf("%v: the builder kept memory of a record past Add (what it held was overwritten):\n%s", paths, firstDiff(g, w))
		}
		flows += len(want.Items)
	}
	if flows < 150 {
		t.Errorf("%d flows in %d inputs: the inputs prove too little", flows, len(inputs))
	}
}

// copyRecord copies r into memory no one else holds.
func copyRecord(r *parser.Record) parser.Record {
	c := *r
	c.Source, c.Msg, c.Err = strings.Clone(r.Source), strings.Clone(r.Msg), strings.Clone(r.Err)
	c.Host, c.Component = strings.Clone(r.Host), strings.Clone(r.Component)
	c.Fields = copyFields(r.Fields)
	return c
}

func copyFields(fs []parser.Field) []parser.Field {
	if fs == nil {
		return nil
	}
	out := make([]parser.Field, len(fs))
	for i, f := range fs {
		out[i] = parser.Field{Key: strings.Clone(f.Key), Raw: strings.Clone(f.Raw), Value: copyValue(f.Value)}
	}
	return out
}

func copyValue(v parser.Value) parser.Value {
	v.Str = strings.Clone(v.Str)
	v.Obj = copyFields(v.Obj)
	if v.List != nil {
		l := make([]parser.Value, len(v.List))
		for i := range v.List {
			l[i] = copyValue(v.List[i])
		}
		v.List = l
	}
	return v
}

// scribbleRecord overwrites the memory of a copyRecord copy: its text
// with '#' and its slices' elements with a field no rule reads.
func scribbleRecord(r *parser.Record) {
	for _, s := range []string{r.Source, r.Msg, r.Err, r.Host, r.Component} {
		scribble(s)
	}
	scribbleFields(r.Fields)
}

func scribbleFields(fs []parser.Field) {
	for i := range fs {
		scribble(fs[i].Key)
		scribble(fs[i].Raw)
		scribbleValue(&fs[i].Value)
		fs[i] = parser.Field{Key: "scribbled", Value: parser.Value{Kind: parser.KindString, Str: "scribbled"}}
	}
}

func scribbleValue(v *parser.Value) {
	scribble(v.Str)
	scribbleFields(v.Obj)
	for i := range v.List {
		scribbleValue(&v.List[i])
		v.List[i] = parser.Value{Kind: parser.KindString, Str: "scribbled"}
	}
}

// scribble overwrites s, which must be a strings.Clone of its own.
func scribble(s string) {
	if s == "" {
		return
	}
	b := unsafe.Slice(unsafe.StringData(s), len(s))
	for i := range b {
		b[i] = '#'
	}
}
