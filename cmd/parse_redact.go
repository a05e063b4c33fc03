package cmd

// --redact for podflow parse: the node names learnt before the first
// record is printed, and each record's text and fields masked.

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/parser"
)

// learnHosts gives --redact the node names before the first record is
// printed: parse masks as it streams, and the kubelet names its node
// (--hostname-override, node="…") only some lines in, after paths and
// messages that already carry it. The directory layout's node and the
// head of each file (not standard input, which cannot be read twice) are
// read for them.
func learnHosts(r *redact.Redactor, srcs []parser.Source) {
	if r == nil {
		return
	}
	for _, s := range srcs {
		r.Host(s.Node)
		if s.IsStdin() {
			continue
		}
		rc, err := s.Open()
		if err != nil {
			continue
		}
		head := make([]byte, 256<<10)
		n, _ := io.ReadFull(rc, head)
		rc.Close()
		for _, m := range headHost.FindAllSubmatch(head[:n], -1) {
			if plausibleHost(string(m[1])) {
				r.Host(string(m[1]))
			}
		}
		for _, m := range reNodeIn.FindAllSubmatch(head[:n], -1) {
			if !bytes.HasPrefix(m[0], []byte("Node ")) || len(m[2]) > 0 {
				if plausibleHost(string(m[1])) {
					r.Host(string(m[1]))
				}
			}
		}
	}
}

var headHost = regexp.MustCompile(`(?:--hostname-override=\\?"?|(?:^|[^-\w])node=\\?")([A-Za-z0-9][A-Za-z0-9.-]*)`)

// redactRecord returns rec with its text masked (--redact), as a copy:
// the reader may reuse rec's memory. Host names are learnt first, from the
// record's host and its node/hostname fields, so the record's own text
// masks them too.
func redactRecord(r *redact.Redactor, rec *parser.Record) *parser.Record {
	if r == nil {
		return rec
	}
	out := *rec
	r.Host(rec.Host)
	for _, f := range rec.Fields {
		switch strings.ToLower(f.Key) {
		case "node", "nodename", "hostname", "host":
			if f.Value.Kind != parser.KindObject { // (an object's Str is its JSON text)
				r.Host(f.Value.Str)
			}
		}
	}
	out.Host = r.Host(rec.Host)
	out.Msg, out.Err, out.Source = r.Text(rec.Msg), r.Text(rec.Err), r.Text(rec.Source)
	out.Pos.Input = r.Text(rec.Pos.Input)
	out.Fields = redactFields(r, rec.Fields)
	return &out
}

func redactFields(r *redact.Redactor, fs []parser.Field) []parser.Field {
	if fs == nil {
		return nil
	}
	out := make([]parser.Field, len(fs))
	for i, f := range fs {
		out[i] = parser.Field{Key: f.Key, Raw: r.Text(f.Raw), Value: redactValue(r, f.Value)}
	}
	return out
}

func redactValue(r *redact.Redactor, v parser.Value) parser.Value {
	if v.Kind == parser.KindObject {
		// Decoded here, so that what is printed is the masked members,
		// not the object's text.
		v.Obj, v.Str = redactFields(r, v.Members()), ""
		return v
	}
	v.Str = r.Text(v.Str)
	if v.List != nil {
		l := make([]parser.Value, len(v.List))
		for i, e := range v.List {
			l[i] = redactValue(r, e)
		}
		v.List = l
	}
	return v
}
