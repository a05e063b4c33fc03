package parser

import (
	"bytes"
	"time"

	"github.com/go-logfmt/logfmt"
)

// logrusMsg finds the raw msg value of a logrus line without decoding it.
func logrusMsg(b []byte) []byte {
	k := bytes.Index(b, []byte(` msg="`))
	if k < 0 {
		return nil
	}
	s := k + 5
	e := quotedEnd(b, s)
	if e < 0 {
		return b[s+1:]
	}
	return b[s+1 : e-1]
}

// decodeLogrus fills rec from a containerd/CRI-O logrus text line.
func (r *Reader) decodeLogrus(b []byte, rec *Record) bool {
	d := logfmt.NewDecoder(bytes.NewReader(b))
	if !d.ScanRecord() {
		return false
	}
	rec.Format = FormatLogrus
	rec.Verbosity = -1
	rec.Fields = rec.Fields[:0]
	for d.ScanKeyval() {
		k, v := string(d.Key()), string(d.Value())
		switch k {
		case "time":
			t, err := time.Parse(time.RFC3339Nano, v)
			if err != nil {
				return false
			}
			rec.Time = t.In(r.clock.loc)
			r.clock.anchor(t)
		case "level":
			rec.Severity = parseLevel(v)
		case "msg":
			rec.Msg = v
		default:
			if k == "error" || k == "err" {
				rec.Err = v
			}
			rec.Fields = append(rec.Fields, Field{Key: k, Raw: v, Value: Value{Kind: KindString, Str: v}})
		}
	}
	if d.Err() != nil {
		return false
	}
	if rec.Component == "kubelet" && r.opts.Component == "kubelet" {
		rec.Component = "containerd"
	}
	return true
}
