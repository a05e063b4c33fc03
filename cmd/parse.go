package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

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
