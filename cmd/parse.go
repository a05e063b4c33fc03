package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/parser"
	"github.com/spf13/cobra"
)

// ParseOptions holds what `podflow parse` needs.
type ParseOptions struct {
	IO *IO

	Paths  []string
	Output string // json or text
	Stats  bool
	Year   int
	TZ     string
	Grep   []string

	Location *time.Location // from TZ
}

var parseOutputs = []string{"json", "text"}

// NewCmdParse builds `podflow parse`. runF, when set, replaces parseRun
// (tests use it to capture the options).
func NewCmdParse(ioS *IO, runF func(*ParseOptions) error) *cobra.Command {
	opts := &ParseOptions{IO: ioS, Output: "json"}
	cmd := &cobra.Command{
		Use:   "parse FILE|DIR|- ...",
		Short: "Print the records podflow reads from kubelet and runtime logs",
		Long: `Parse kubelet and container-runtime logs and print one record per line.

Inputs are files, directories or - for standard input. Files may be gzip or
zstd compressed. Directories are walked for kubelet, containerd and CRI-O
logs (kind export logs, Cluster API artifacts, must-gather dumps, rotated
kubelet.log.N[.gz] sets); the directory holding a file names its node,
unless it holds several kubelet logs (a folder of collected logs, not a
node's): then each log's node comes from its own lines.

Formats: klog text (structured and printf), --logging-format=json, logrus
(containerd, CRI-O), each bare or behind a journald/syslog prefix
(journalctl -o short, short-precise, short-iso, short-iso-precise, in
several locales) or exported as journalctl -o json entries, and pasted with
"> " quote markers or grep -n prefixes.

klog headers carry no year and no zone: the year comes from --year, else
from an absolute time near the start of the input (journald ISO prefix,
runtime or JSON timestamps), else from the file's modification time; the
zone is --tz, else inferred from zoned times in the input, else UTC.

--stats also notes, per input, what was inferred (zone, newest-first
order), records cut short, and the likely shape of unrecognized lines
with what to do about them.

-o json prints one JSON object per record: time, severity, source, pid,
msg, err, v, fields [{key, raw, value}], host, component, format and pos
{input, line, lines, offset, length}. -o text prints one readable line per
record, with terminal control sequences removed.

--stats prints, instead of the records, how every input line was
accounted for (records, filtered, continuations, annotations, blank,
unrecognized) per input and in total.

Exit status: 0 on success; 2 for bad flags, or when no input could be
read; 5 when some inputs are missing, unreadable or truncated (the records
read are printed, each problem is named on standard error).`,
		Example: `  podflow parse kubelet.log
  podflow parse -o text --grep "SyncLoop" kubelet.log.2.gz kubelet.log.1 kubelet.log
  journalctl -u kubelet -o short-iso | podflow parse -o text -
  podflow parse --stats ./kind-logs/
  podflow parse --year 2025 --tz Europe/Berlin kubelet.log`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("give at least one FILE, DIR or - for standard input\nSee '%s --help'.", c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.Stats && !c.Flags().Changed("output") {
				opts.Output = "text" // the stats table; -o json asks for JSON
			}
			if !contains(parseOutputs, opts.Output) {
				return usageErrorf("unknown output format %q; allowed: %s", opts.Output, strings.Join(parseOutputs, ", "))
			}
			if c.Flags().Changed("year") && (opts.Year < 1970 || opts.Year > 9999) {
				return usageErrorf("--year %d: want a year between 1970 and 9999", opts.Year)
			}
			loc, err := loadZone(opts.TZ)
			if err != nil {
				return usageErrorf("--tz %q: %w", opts.TZ, err)
			}
			if c.Flags().Changed("tz") && loc == time.UTC {
				// Given: not inferred from the input (parser.Options.Location).
				loc = time.FixedZone("UTC", 0)
			}
			opts.Location = loc
			for _, g := range opts.Grep {
				if g == "" {
					return usageErrorf("--grep needs a non-empty message prefix")
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return parseRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", opts.Output, "output format: json or text (--stats: text unless -o json)")
	f.BoolVar(&opts.Stats, "stats", false, "print the line accounting per input and in total instead of the records")
	f.IntVar(&opts.Year, "year", 0, "year of the klog timestamps (default: inferred)")
	f.StringVar(&opts.TZ, "tz", "UTC", `zone the kubelet wrote its klog times in ("UTC", "Local", "Europe/Berlin", "+02:00")`)
	f.StringArrayVar(&opts.Grep, "grep", nil, "keep only records whose message starts with `MSGPREFIX` (repeatable)")
	return cmd
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

// loadZone reads a zone name or a fixed UTC offset such as +02:00.
func loadZone(tz string) (*time.Location, error) {
	switch tz {
	case "", "UTC", "utc", "Z":
		return time.UTC, nil
	case "Local", "local":
		return time.Local, nil
	}
	if tz[0] == '+' || tz[0] == '-' {
		s := strings.ReplaceAll(tz[1:], ":", "")
		if len(s) == 2 {
			s += "00"
		}
		if n, err := strconv.Atoi(s); err == nil && len(s) == 4 && n/100 <= 23 && n%100 < 60 {
			off := (n/100)*3600 + (n%100)*60
			if tz[0] == '-' {
				off = -off
			}
			return time.FixedZone(tz, off), nil
		}
		return nil, errors.New("want a zone name or an offset like +02:00")
	}
	return time.LoadLocation(tz)
}

// grepWant matches the raw (still escaped) message against the prefixes,
// as typed and as Go/JSON quoting would escape them.
func grepWant(prefixes []string) func([]byte) bool {
	if len(prefixes) == 0 {
		return nil
	}
	var ps [][]byte
	for _, p := range prefixes {
		ps = append(ps, []byte(p))
		q := strconv.Quote(p)
		if q = q[1 : len(q)-1]; q != p {
			ps = append(ps, []byte(q))
		}
	}
	return func(msg []byte) bool {
		for _, p := range ps {
			if bytes.HasPrefix(msg, p) {
				return true
			}
		}
		return false
	}
}

func parseRun(opts *ParseOptions) error {
	srcs, skipped, errs := parser.DiscoverReport(opts.Paths, opts.IO.In)
	learnHosts(opts.IO.Redact, srcs)
	m := parser.NewMultiReader(srcs, parser.Options{
		Year:     opts.Year,
		Location: opts.Location,
		Want:     grepWant(opts.Grep),
	})
	defer m.Close()
	w := bufio.NewWriterSize(opts.IO.Out, 64<<10)
	enc := json.NewEncoder(sanitize.JSONWriter(w))
	enc.SetEscapeHTML(false)
	var nodes *nodeLearner
	if opts.IO.Redact != nil {
		nodes = &nodeLearner{r: opts.IO.Redact, seen: map[string]bool{}}
	}
	for {
		rec, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if opts.Stats {
			continue
		}
		nodes.learn(rec)
		rec = redactRecord(opts.IO.Redact, rec)
		if opts.Output == "json" {
			if err := enc.Encode(recordJSON(rec)); err != nil {
				return fmt.Errorf("write record of %s:%d: %w", rec.Pos.Input, rec.Pos.Line, err)
			}
		} else {
			writeRecordText(w, rec)
		}
	}
	if opts.Stats {
		if err := writeStats(w, m, skipped, opts.Output, opts.IO.Redact); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("write output: %w", err)
	}
	errs = append(errs, m.Errors()...)
	for _, n := range m.Notices() {
		fmt.Fprintf(opts.IO.ErrOut, "podflow: note: %s\n", sanitize.OneLine(opts.IO.Redact.Text(n.Error())))
	}
	if st := m.Stats(); len(errs) > 0 && st.Records+st.Filtered == 0 {
		return inputError(errors.Join(errs...))
	}
	// Some inputs were read (in part): their records are out, the rest is
	// named on stderr and the exit code says the output is partial.
	for _, err := range errs {
		fmt.Fprintf(opts.IO.ErrOut, "podflow: warning: %s\n", sanitize.OneLine(opts.IO.Redact.Text(err.Error())))
		opts.IO.partial = true
	}
	return nil
}

// ParseRecord is the JSON shape of one record in `podflow parse -o json`.
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
