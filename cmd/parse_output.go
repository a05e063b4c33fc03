package cmd

// What podflow parse prints: each record as JSON or as text, and the
// --stats summary with the notes about each input.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/parser"
)

// ParseRecord is the JSON shape of one record in `podflow parse -o json`.
type ParseRecord struct {
	Time      string       `json:"time"` // RFC 3339 with nanoseconds; "" when unknown
	Severity  string       `json:"severity"`
	Source    string       `json:"source,omitempty"` // file:line of the emitting call
	PID       int          `json:"pid,omitempty"`
	Msg       string       `json:"msg"`
	Err       string       `json:"err,omitempty"`
	V         *int         `json:"v,omitempty"` // JSON-format verbosity
	Fields    []ParseField `json:"fields"`
	Host      string       `json:"host,omitempty"`
	Component string       `json:"component,omitempty"`
	Format    string       `json:"format"`
	Pos       ParsePos     `json:"pos"`
}

// ParseField is one key/value pair: the raw text and the decoded value
// (string, number, bool, null, list or object with keys in written order).
type ParseField struct {
	Key   string `json:"key"`
	Raw   string `json:"raw"`
	Value any    `json:"value"`
}

// ParsePos says where the record's raw lines are.
type ParsePos struct {
	Input  string `json:"input"`
	Line   int64  `json:"line"`
	Lines  int    `json:"lines"`
	Offset int64  `json:"offset"`
	Length int    `json:"length"`
}

func recordJSON(r *parser.Record) ParseRecord {
	out := ParseRecord{
		Severity: r.Severity.String(), Source: r.Source, PID: r.PID, Msg: r.Msg, Err: r.Err,
		Fields: make([]ParseField, 0, len(r.Fields)), Host: r.Host, Component: r.Component,
		Format: r.Format.String(),
		Pos:    ParsePos{Input: r.Pos.Input, Line: r.Pos.Line, Lines: r.Pos.Lines, Offset: r.Pos.Offset, Length: r.Pos.Length},
	}
	if !r.Time.IsZero() {
		out.Time = r.Time.Format(time.RFC3339Nano)
	}
	if r.Verbosity >= 0 {
		v := r.Verbosity
		out.V = &v
	}
	for _, f := range r.Fields {
		out.Fields = append(out.Fields, ParseField{Key: f.Key, Raw: f.Raw, Value: valueJSON(f.Value)})
	}
	return out
}

// orderedObject marshals an object value with its keys in written order.
type orderedObject []parser.Field

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(valueJSON(f.Value))
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func valueJSON(v parser.Value) any {
	switch v.Kind {
	case parser.KindNumber:
		if json.Valid([]byte(v.Str)) {
			return json.Number(v.Str)
		}
		if !math.IsInf(v.Num, 0) && !math.IsNaN(v.Num) {
			return v.Num
		}
		return v.Str
	case parser.KindBool:
		return v.Str == "true"
	case parser.KindNull:
		return nil
	case parser.KindList:
		l := make([]any, len(v.List))
		for i, e := range v.List {
			l[i] = valueJSON(e)
		}
		return l
	case parser.KindObject:
		return orderedObject(v.Members())
	}
	return v.Str
}

// writeRecordText prints one record on one line; every log-derived string
// is sanitized.
func writeRecordText(w *bufio.Writer, r *parser.Record) {
	s := sanitize.Sanitize
	if r.Time.IsZero() {
		w.WriteString("-")
	} else {
		w.WriteString(r.Time.Format("2006-01-02T15:04:05.000000Z07:00"))
	}
	w.WriteByte(' ')
	w.WriteString(severityLetter(r.Severity))
	w.WriteByte(' ')
	if r.Host != "" {
		w.WriteString(s(r.Host))
		w.WriteByte('/')
	}
	w.WriteString(s(r.Component))
	if r.Source != "" {
		w.WriteByte(' ')
		w.WriteString(s(r.Source))
		w.WriteByte(']')
	}
	w.WriteByte(' ')
	if r.Format == parser.FormatKlogLegacy {
		w.WriteString(s(r.Msg))
	} else {
		w.WriteString(strconv.Quote(r.Msg)) // quoting escapes every control character
	}
	for _, f := range r.Fields {
		w.WriteByte(' ')
		if f.Key != "" {
			w.WriteString(s(f.Key))
			w.WriteByte('=')
		}
		w.WriteString(s(f.Raw))
	}
	w.WriteByte('\n')
}

func severityLetter(sev parser.Severity) string {
	switch sev {
	case parser.SeverityDebug:
		return "D"
	case parser.SeverityInfo:
		return "I"
	case parser.SeverityWarning:
		return "W"
	case parser.SeverityError:
		return "E"
	case parser.SeverityFatal:
		return "F"
	}
	return "?"
}

// ParseStats is the JSON shape of `podflow parse --stats -o json`.
type ParseStats struct {
	Inputs  []ParseInputStats `json:"inputs"`
	Total   parser.Stats      `json:"total"`
	Skipped []ParseSkipped    `json:"skipped,omitempty"` // files a directory walk passed over
}

// ParseSkipped is a file a directory walk did not read, and why.
type ParseSkipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// ParseInputStats is the accounting of one input.
type ParseInputStats struct {
	Input     string       `json:"input"`
	Node      string       `json:"node,omitempty"`
	Component string       `json:"component,omitempty"`
	Stats     parser.Stats `json:"stats"`
	Accounted bool         `json:"accounted"`
	Error     string       `json:"error,omitempty"`
}

func writeStats(w io.Writer, m *parser.MultiReader, skipped []parser.Skipped, format string, r *redact.Redactor) error {
	per := m.SourceStats()
	total := m.Stats()
	if format == "json" {
		out := ParseStats{Total: total}
		for _, s := range per {
			e := ParseInputStats{Input: s.Source.Name, Node: s.Source.Node, Component: s.Source.Component, Stats: s.Stats, Accounted: s.Stats.Accounted()}
			if s.Err != nil {
				e.Error = s.Err.Error()
			}
			out.Inputs = append(out.Inputs, e)
		}
		for _, s := range skipped {
			out.Skipped = append(out.Skipped, ParseSkipped{Path: s.Path, Reason: s.Reason})
		}
		r.Walk(&out, func(f string) redact.Role {
			if f == "ParseInputStats.Node" {
				return redact.RoleHost
			}
			return redact.RoleText
		})
		enc := json.NewEncoder(sanitize.JSONWriter(w))
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "LINES\tRECORDS\tFILTERED\tCONTINUATIONS\tANNOTATIONS\tBLANK\tUNRECOGNIZED\tTRUNCATED\t INPUT")
	row := func(name string, s parser.Stats, errText string) {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t %s", s.Lines, s.Records, s.Filtered, s.Continuations,
			s.Annotations, s.Blank, s.Unrecognized, s.Truncated, sanitize.Sanitize(r.Text(name)))
		if errText != "" {
			fmt.Fprintf(tw, " (error: %s)", sanitize.Sanitize(r.Text(errText)))
		}
		fmt.Fprintln(tw)
	}
	for _, s := range per {
		e := ""
		if s.Err != nil {
			e = s.Err.Error()
		}
		row(s.Source.Name, s.Stats, e)
	}
	row("total", total, "")
	if err := tw.Flush(); err != nil {
		return err
	}
	writeNotes(w, per, r)
	if len(skipped) > 0 {
		fmt.Fprintf(w, "\nskipped %d files:\n", len(skipped))
		for _, s := range skipped {
			fmt.Fprintf(w, "  %s: %s\n", sanitize.Sanitize(r.Text(s.Path)), s.Reason)
		}
	}
	return nil
}

// writeNotes says, per input, how it was read where that is not plain:
// newest first, the zone inferred, records cut short or packed on a line,
// and for its unrecognized lines their likely shape and what to do.
func writeNotes(w io.Writer, per []parser.SourceStats, r *redact.Redactor) {
	first := true
	note := func(name, format string, args ...any) {
		if first {
			fmt.Fprintln(w, "\nnotes:")
			first = false
		}
		fmt.Fprintf(w, "  %s: %s\n", sanitize.Sanitize(r.Text(name)), sanitize.Sanitize(fmt.Sprintf(format, args...)))
	}
	for _, s := range per {
		st, name := s.Stats, s.Source.Name
		if st.NewestFirst {
			note(name, "written newest first (journalctl -r, a log store's export): records read in time order")
		}
		if st.Zone != "" {
			note(name, "%s (--tz sets it)", st.Zone)
		}
		if st.CutShort > 0 {
			note(name, "%d records cut short (lines cut at a fixed width, an ellipsis): their last values may be partial", st.CutShort)
		}
		if st.Packed > 0 {
			note(name, "%d records share a line with another (a JSON export)", st.Packed)
		}
		for _, u := range st.Unread {
			note(name, "%d unrecognized lines of %s (first at line %d): %s", u.Lines, u.Shape, u.First, u.Advice)
		}
	}
}
