package cmd

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// LoadOptions are the flags every command that reads logs shares.
type LoadOptions struct {
	Year    int
	TZ      string
	Budgets []string // stage=duration
}

// addLoadFlags registers --year, --tz and --budget.
func addLoadFlags(c *cobra.Command, o *LoadOptions) {
	c.Flags().IntVar(&o.Year, "year", 0, "year of klog timestamps (klog writes none; default: from the log or the file's modification time)")
	c.Flags().StringVar(&o.TZ, "tz", "UTC", "time zone the kubelet wrote klog timestamps in (IANA name, e.g. Europe/Berlin)")
	c.Flags().StringArrayVar(&o.Budgets, "budget", nil, "stage budget override, e.g. --budget sandbox=5s (repeatable)")
}

// Analysis is the result of reading inputs through the engine.
type Analysis struct {
	Flows    *timeline.FlowList
	Sources  []parser.Source
	Stats    parser.Stats
	Warnings []error // inputs that could not be read (fully); the rest were analysed

	redact *redact.Redactor // --redact: Flows are masked, and so is what ReadRaw returns
}

// budgets parses --budget stage=duration pairs.
func (o LoadOptions) budgets() (map[string]time.Duration, error) {
	out := map[string]time.Duration{}
	for _, b := range o.Budgets {
		k, v, ok := strings.Cut(b, "=")
		if !ok {
			return nil, usageErrorf("--budget %q: want stage=duration, e.g. sandbox=5s", b)
		}
		if _, known := timeline.Reference.StageDefByID(k); !known {
			return nil, usageErrorf("--budget %q: unknown stage %q (see 'podflow pipeline')", b, k)
		}
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return nil, usageErrorf("--budget %q: bad duration %q", b, v)
		}
		out[k] = d
	}
	return out, nil
}

// Analyze discovers the inputs, parses them in one streaming pass and
// builds the flows. Unreadable inputs become warnings when others could be
// read; with none readable it returns an input error (exit 2).
func Analyze(ioS *IO, paths []string, o LoadOptions) (*Analysis, error) {
	if len(paths) == 0 {
		if ioS.InTTY {
			return nil, usageErrorf("no input: name log files or directories, or - for standard input")
		}
		paths = []string{"-"}
	}
	loc := time.UTC
	if o.TZ != "" && o.TZ != "UTC" {
		l, err := time.LoadLocation(o.TZ)
		if err != nil {
			return nil, usageErrorf("--tz %q: %v", o.TZ, err)
		}
		loc = l
	}
	budgets, err := o.budgets()
	if err != nil {
		return nil, err
	}
	srcs, errs := parser.Discover(paths, ioS.In)
	a := &Analysis{Sources: srcs, Warnings: errs}
	if len(srcs) == 0 {
		if len(errs) > 0 {
			return nil, inputError(errors.Join(errs...))
		}
		return nil, inputError(fmt.Errorf("%s: no kubelet or container-runtime logs found", strings.Join(paths, ", ")))
	}
	b := timeline.NewBuilder(timeline.Options{Budgets: budgets})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: o.Year, Location: loc, Want: b.Want})
	defer mr.Close()
	for {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		b.Add(rec)
	}
	b.Inputs(mr.SourceStats())
	a.Flows = b.Finish()
	a.Stats = mr.Stats()
	a.Warnings = append(a.Warnings, mr.Errors()...)
	a.Flows.Summary.Lines = a.Stats.Lines
	a.Flows.Summary.Unrecognized = a.Stats.Unrecognized
	a.Flows.Summary.Inputs = a.Flows.Summary.Inputs[:0]
	for _, s := range srcs {
		a.Flows.Summary.Inputs = append(a.Flows.Summary.Inputs, s.Name)
	}
	a.redact = ioS.Redact
	present(a.redact, a.Flows)
	return a, nil
}

// ReadRaw reads an evidence line back from its input (masked with
// --redact; ev.Input may be the masked name).
func (a *Analysis) ReadRaw(ev timeline.Evidence) ([]byte, error) {
	for _, s := range a.Sources {
		if s.Name == ev.Input || a.redact != nil && a.redact.Text(s.Name) == ev.Input {
			raw, err := parser.ReadRaw(s, parser.Position{Input: s.Name, Line: ev.Line, Offset: ev.Offset, Length: ev.Length})
			return a.redact.Bytes(raw), err
		}
	}
	return nil, fmt.Errorf("%s: not among the inputs", ev.Input)
}

// warn prints input warnings to stderr, one line each.
func (a *Analysis) warn(ioS *IO) {
	for _, w := range a.Warnings {
		fmt.Fprintf(ioS.ErrOut, "podflow: warning: %s\n", oneLine(a.redact.Text(w.Error())))
	}
}
