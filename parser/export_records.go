package parser

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"
)

// exportRecords returns the log lines of an export's object (or of the
// text it holds, cut short) and how many log-line fields it found.
func (r *Reader) exportRecords(text []byte, host string) ([]exportRec, int) {
	d := json.NewDecoder(bytes.NewReader(text))
	d.UseNumber()
	var v any
	var recs []exportRec
	found := 0
	if d.Decode(&v) == nil {
		recs, found = r.exportWalk(v, exportCtx{host: host}, recs, 0)
	} else {
		recs, found = r.exportSalvage(text, host)
	}
	return recs, found
}

// exportCtx is what the objects around a log line say of it.
type exportCtx struct {
	t    time.Time
	host string
}

// exportWalk finds the log lines in a decoded JSON value.
func (r *Reader) exportWalk(v any, ctx exportCtx, out []exportRec, depth int) ([]exportRec, int) {
	if depth > 16 {
		return out, 0
	}
	switch x := v.(type) {
	case map[string]any:
		ctx = r.exportContext(x, ctx)
		if kubeletJSON(x) {
			// A record of the kubelet's JSON format, pretty-printed.
			b, err := json.Marshal(x)
			if err != nil {
				return out, 0
			}
			return append(out, exportRec{text: orderedJSON(b), time: time.Time{}, host: ctx.host}), 1
		}
		for _, k := range exportMsgKeys {
			switch m := x[k].(type) {
			case string:
				return r.exportText(m, ctx, out, depth)
			case map[string]any:
				return r.exportWalk(m, ctx, out, depth+1)
			}
		}
		if jp, ok := x["jsonPayload"].(map[string]any); ok {
			return r.exportWalk(jp, ctx, out, depth+1)
		}
		// Loki: {"stream": {labels}, "values": [["<ns>", "<line>"], …]}.
		if vals, ok := x["values"].([]any); ok {
			found := 0
			for _, pv := range vals {
				pair, ok := pv.([]any)
				if !ok || len(pair) < 2 {
					continue
				}
				line, ok := pair[1].(string)
				if !ok {
					continue
				}
				c := ctx
				if t, ok := r.exportTime(pair[0]); ok {
					c.t = t
				}
				var n int
				out, n = r.exportText(line, c, out, depth)
				found += n
			}
			if found > 0 {
				return out, found
			}
		}
		// Grafana's data frames: {"fields": [{"name": "Line", "values": […]}, {"name": "Time", …}]}.
		if out2, n := r.exportFrame(x, ctx, out, depth); n > 0 {
			return out2, n
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		found := 0
		for _, k := range keys {
			switch x[k].(type) {
			case map[string]any, []any:
				var n int
				out, n = r.exportWalk(x[k], ctx, out, depth+1)
				found += n
			}
		}
		return out, found
	case []any:
		found := 0
		for _, e := range x {
			var n int
			out, n = r.exportWalk(e, ctx, out, depth+1)
			found += n
		}
		return out, found
	}
	return out, 0
}

// exportFrame reads a Grafana data frame's columns of lines and times.
func (r *Reader) exportFrame(x map[string]any, ctx exportCtx, out []exportRec, depth int) ([]exportRec, int) {
	fields, ok := x["fields"].([]any)
	if !ok {
		if s, ok := x["schema"].(map[string]any); ok {
			fields, _ = s["fields"].([]any)
		}
	}
	if len(fields) == 0 {
		return out, 0
	}
	var lines, times []any
	values, _ := x["values"].([]any)
	if d, ok := x["data"].(map[string]any); ok {
		values, _ = d["values"].([]any)
	}
	for i, f := range fields {
		fm, ok := f.(map[string]any)
		if !ok {
			continue
		}
		name, _ := fm["name"].(string)
		col, _ := fm["values"].([]any)
		if col == nil && i < len(values) {
			col, _ = values[i].([]any)
		}
		switch strings.ToLower(name) {
		case "line", "body", "message", "log":
			lines = col
		case "time", "timestamp", "ts":
			times = col
		}
	}
	found := 0
	for i, l := range lines {
		s, ok := l.(string)
		if !ok {
			continue
		}
		c := ctx
		if i < len(times) {
			if t, ok := r.exportTime(times[i]); ok {
				c.t = t
			}
		}
		var n int
		out, n = r.exportText(s, c, out, depth)
		found += n
	}
	return out, found
}

// exportText adds the log line s: a line of text, or JSON that wraps it
// once more (a CloudWatch message holding a Fluent Bit record).
func (r *Reader) exportText(s string, ctx exportCtx, out []exportRec, depth int) ([]exportRec, int) {
	s = strings.TrimRight(s, "\r\n")
	if t := strings.TrimLeft(s, " "); strings.HasPrefix(t, "{") && jsonMsg([]byte(t)) == nil && depth < 16 {
		d := json.NewDecoder(strings.NewReader(t))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil {
			if m, ok := v.(map[string]any); ok {
				if o, n := r.exportWalk(m, ctx, out, depth+1); n > 0 {
					return o, n
				}
			}
		}
	}
	return append(out, exportRec{text: []byte(s), time: ctx.t, host: ctx.host}), 1
}

// kubeletJSON reports a record of the kubelet's JSON logging format.
func kubeletJSON(x map[string]any) bool {
	_, msg := x["msg"].(string)
	_, ts := x["ts"]
	_, caller := x["caller"]
	return msg && (ts || caller)
}

// orderedJSON is b, which json.Marshal wrote with its keys sorted, with
// ts, caller, msg and v first, as the kubelet writes them.
func orderedJSON(b []byte) []byte {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return b
	}
	var out bytes.Buffer
	out.WriteByte('{')
	first := true
	put := func(k string) {
		v, ok := m[k]
		if !ok {
			return
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
		delete(m, k)
	}
	for _, k := range []string{"ts", "caller", "msg", "v", "err"} {
		put(k)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		put(k)
	}
	out.WriteByte('}')
	return out.Bytes()
}

// exportContext takes the time and node an object states.
func (r *Reader) exportContext(x map[string]any, ctx exportCtx) exportCtx {
	for _, k := range exportTimeKeys {
		if v, ok := x[k]; ok {
			if _, isMsg := x["msg"]; k == "ts" && isMsg {
				continue // the kubelet's own
			}
			if t, ok := r.exportTime(v); ok {
				ctx.t = t
				break
			}
		}
	}
	if h := exportHost(x); h != "" {
		ctx.host = h
	}
	for _, k := range []string{"kubernetes", "resource", "labels", "stream"} {
		if m, ok := x[k].(map[string]any); ok {
			if l, ok := m["labels"].(map[string]any); ok {
				m = l
			}
			if h := exportHost(m); h != "" {
				ctx.host = h
			}
		}
	}
	return ctx
}

func exportHost(x map[string]any) string {
	for _, k := range exportHostKeys {
		switch h := x[k].(type) {
		case string:
			if h != "" && len(h) < 256 && !strings.ContainsAny(h, " \n") {
				return h
			}
		case map[string]any: // ECS: "host": {"name": …}
			for _, n := range []string{"name", "hostname"} {
				if s, ok := h[n].(string); ok && s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// exportTime reads a time field: RFC 3339 (a time without a zone is in
// the klog zone), or a number since the epoch in seconds, milliseconds,
// microseconds or nanoseconds (told apart by size), as a number or text.
func (r *Reader) exportTime(v any) (time.Time, bool) {
	var s string
	switch x := v.(type) {
	case string:
		s = x
	case json.Number:
		s = string(x)
	default:
		return time.Time{}, false
	}
	if isISODate([]byte(s + " ")) {
		t, off, has, _, ok := parseISO([]byte(s), 0)
		if !ok || t.year == 0 {
			return time.Time{}, false
		}
		return t.date(t.year, r.zone(off, has)), true
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f <= 0 || math.IsInf(f, 0) {
		return time.Time{}, false
	}
	var t time.Time
	switch {
	case f < 1e11:
		sec, frac := math.Modf(f)
		t = time.Unix(int64(sec), int64(frac*1e9))
	case f < 1e14:
		t = epochMillis(Value{Kind: KindNumber, Str: s, Num: f})
	case f < 1e17:
		t = time.UnixMicro(int64(f))
	default:
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			t = time.Unix(0, n)
		} else {
			t = time.Unix(0, int64(f))
		}
	}
	if t.Year() < 1990 || t.Year() > 2200 {
		return time.Time{}, false
	}
	return t.In(r.clock.loc), true
}

// outerTime is the time of an export's klog record: the export's, which
// is absolute, made as precise as the klog header when they agree but
// for the header's zone (and year): the header's wall clock moved by a
// whole number of quarter hours to within a minute of the export's. (A
// store keeps milliseconds, or the time it received the line.)
func outerTime(klog, outer time.Time) time.Time {
	if klog.IsZero() {
		return outer
	}
	const q = 15 * time.Minute
	d := outer.Sub(klog)
	if d > 400*24*time.Hour || d < -400*24*time.Hour {
		return outer
	}
	t := klog.Add(d.Round(q))
	if e := t.Sub(outer); e > time.Minute || e < -time.Minute {
		return outer
	}
	return t.In(outer.Location())
}
