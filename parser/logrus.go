package parser

import (
	"bytes"

	"github.com/go-logfmt/logfmt"
)

// logrusMsg finds the raw msg value of a logrus line without decoding it.
func logrusMsg(b []byte) []byte {
	k := bytes.Index(b, []byte(" msg="))
	if k < 0 {
		return nil
	}
	s := k + 5
	if s < len(b) && b[s] == '"' {
		e := msgEnd(b, s)
		if e < 0 {
			return b[s+1:]
		}
		return b[s+1 : e-1]
	}
	e := s
	for e < len(b) && b[e] != ' ' {
		e++
	}
	return b[s:e]
}

// decodeLogrus fills rec from a containerd or CRI-O logrus text line:
//
//	time="2026-11-22T06:03:19.123456789Z" level=info msg="RunPodSandbox for …"
//	time="2026-11-22 06:03:19.123456789Z" level=info msg="Running pod sandbox: …" id=… name=…
//
// (containerd writes RFC 3339 with a T, CRI-O a space). go-logfmt decodes
// the values; the raw text of each value is taken from the line so that
// Field.Raw is what was written. Fields keep their order.
func (r *Reader) decodeLogrus(b []byte, rec *Record, namedComponent bool) bool {
	d := logfmt.NewDecoderSize(bytes.NewReader(b), len(b)+1)
	if !d.ScanRecord() {
		return false
	}
	rec.Format = FormatLogrus
	rec.Verbosity = -1
	rec.Fields = rec.Fields[:0]
	cur := 0 // where the raw scan resumes
	for d.ScanKeyval() {
		key := d.Key()
		raw, next := logfmtRaw(b, cur, key)
		cur = next
		switch string(key) {
		case "time":
			t, off, has, n, ok := parseISO(d.Value(), 0)
			if !ok || n != len(d.Value()) {
				return false
			}
			rec.Time = t.date(t.year, r.zone(off, has)).In(r.clock.loc)
			r.clock.anchor(rec.Time)
		case "level":
			rec.Severity = parseLevel(string(d.Value()))
		case "msg":
			rec.Msg = string(d.Value())
		default:
			k, v := string(key), string(d.Value())
			if k == "error" || k == "err" {
				rec.Err = v
			}
			val := Value{Kind: KindString, Str: v}
			if len(raw) == 0 || raw[0] != '"' {
				val = bareValue(v)
			}
			rec.Fields = append(rec.Fields, Field{Key: k, Raw: string(raw), Value: val})
		}
	}
	if d.Err() != nil || rec.Time.IsZero() {
		return false
	}
	if rec.Severity == SeverityUnknown {
		rec.Severity = SeverityInfo
	}
	if !namedComponent && rec.Component == "kubelet" && r.opts.Component == "kubelet" {
		rec.Component = "containerd"
	}
	return true
}

// logfmtRaw finds `key=` at or after b[from:] and returns the value as
// written (quotes included) and the index after it.
func logfmtRaw(b []byte, from int, key []byte) ([]byte, int) {
	i := from
	for i < len(b) {
		for i < len(b) && b[i] == ' ' {
			i++
		}
		ks := i
		for i < len(b) && b[i] != '=' && b[i] != ' ' {
			i++
		}
		if !bytes.Equal(b[ks:i], key) {
			// skip this pair
			if i < len(b) && b[i] == '=' {
				i++
				if i < len(b) && b[i] == '"' {
					if e := quotedEnd(b, i); e > 0 {
						i = e
						continue
					}
					return nil, len(b)
				}
				for i < len(b) && b[i] != ' ' {
					i++
				}
			}
			continue
		}
		if i >= len(b) || b[i] != '=' {
			return nil, i // a key with no value
		}
		i++
		vs := i
		if i < len(b) && b[i] == '"' {
			if e := quotedEnd(b, i); e > 0 {
				return b[vs:e], e
			}
			return b[vs:], len(b)
		}
		for i < len(b) && b[i] != ' ' {
			i++
		}
		return b[vs:i], i
	}
	return nil, len(b)
}
