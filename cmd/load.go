package cmd

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/metrics"
	"strconv"
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
	MaxPods int
	Verbose bool // every warning and note about an input on its own line

	// trim, set by a view that prints only part of each flow, drops the
	// rest as each flow is judged, so a big log's detailed FlowList never
	// exists whole (see timeline.Builder.FinishEach). With rows set it is
	// called from several goroutines at once, each on its own flow
	// (FinishRows judges on every core): it must touch nothing else.
	trim func(*timeline.Flow)
	// oneFlow, set by a view that prints one flow of many (lines pod),
	// has --redact learn the hosts and IDs and mask the names only: the
	// view masks the flow it prints (redact.Flow).
	oneFlow bool
	// rows, set by a view that prints one row per flow, has each flow
	// judged only as far as its row needs (timeline.Builder.FinishRows):
	// what rowOnly keeps.
	rows bool
	// progress, when set, is called now and then (every 1,024 records)
	// with what tells how many bytes of the inputs have been read, which
	// it calls only when it shows them (a sum over every input: thousands
	// of them, each open while their times overlap).
	progress func(read func() int64)
	// nameArgs are arguments taken as pod names because no file or
	// directory has their name, given while no input was: when standard
	// input then holds nothing, the error says so (a path typed without
	// ./ that does not exist must not pass for a pod name in silence).
	nameArgs []string

	// keep, set by a view that reads lines back after the load
	// (evidence), is given each record of standard input and its raw
	// lines, and keeps in memory those the view may show
	// (parser.MultiReader.Keep, keep.go): standard input is read once and
	// written nowhere, so what is not kept cannot be read back.
	keep *streamKeeper

	// live: --node NAME with no input, or --journal (live.go).
	live liveOptions
}

// addLoadFlags registers --year, --tz and --budget.
func addLoadFlags(c *cobra.Command, o *LoadOptions) {
	c.Flags().IntVar(&o.Year, "year", 0, "year of klog timestamps (klog writes none; default: from the log or the file's modification time)")
	c.Flags().StringVar(&o.TZ, "tz", "", `zone the kubelet wrote its klog times in ("UTC", "Local", "Europe/Berlin", "+02:00"; default: inferred from zoned times in the input, else UTC)`)
	c.Flags().StringArrayVar(&o.Budgets, "budget", nil, "stage budget override, e.g. --budget sandbox=5s (repeatable)")
	c.Flags().BoolVar(&o.Verbose, "verbose", false, "list every input a warning or note is about (several of a kind are otherwise one line)")
	c.Flags().IntVar(&o.MaxPods, "max-pods", timeline.DefaultMaxFlows, "most pods to analyse; records about further pods are counted and reported, not analysed (bounds memory: a few KiB per pod)")
	addLiveFlags(c, &o.live)
	if !strings.Contains(c.Long, "Live nodes:") {
		c.Long += "\n" + liveHelp
	}
}

// Analysis is the result of reading inputs through the engine.
type Analysis struct {
	Flows    *timeline.FlowList
	Sources  []parser.Source
	Stats    parser.Stats
	Warnings []error // inputs that could not be read (fully); the rest were analysed
	Notes    []error // what is worth knowing but lost nothing (duplicate lines across inputs, clock steps)

	redact  *redact.Redactor // --redact: Flows are masked, and so is what ReadRaws returns
	verbose bool             // --verbose: every warning and note on a line of its own

	// Live: the inputs were a live node's log or the local journal.
	Live bool
}

// budgets parses --budget stage=duration pairs.
// It first refuses load flags out of range, as every command that loads
// logs reads its budgets before anything else.
func (o LoadOptions) budgets() (map[string]time.Duration, error) {
	if o.Year != 0 && (o.Year < 1970 || o.Year > 9999) {
		return nil, usageErrorf("--year %d: want a year from 1970 to 9999 (or leave it out to take the year from the log)", o.Year)
	}
	if o.MaxPods < 0 {
		return nil, usageErrorf("--max-pods %d: want a number of pods, at least 1 (default %d)", o.MaxPods, timeline.DefaultMaxFlows)
	}
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
	live, err := o.live.live(paths)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 && !live {
		if ioS.InTTY {
			return nil, usageErrorf("no input: name log files or directories, or - for standard input%s", o.nameNote())
		}
		paths = []string{"-"}
	}
	loc, err := o.zone()
	if err != nil {
		return nil, err
	}
	budgets, err := o.budgets()
	if err != nil {
		return nil, err
	}
	var srcs []parser.Source
	var errs, liveNotes []error
	if live {
		// A live read ends when the node's answer does (or, following,
		// when the process does): no context to cancel before.
		if srcs, liveNotes, err = o.live.liveSources(context.Background(), ioS); err != nil {
			return nil, err
		}
	} else {
		var bad []error
		paths, bad = ioS.checkPaths(paths)
		if len(paths) > 0 {
			srcs, errs = parser.Discover(paths, ioS.In)
		}
		errs = append(bad, append(errs, emptyDirs(paths, srcs)...)...)
	}
	a := &Analysis{Sources: srcs, Warnings: errs, verbose: o.Verbose, Live: live}
	if len(srcs) == 0 {
		return nil, inputError(errors.Join(errs...))
	}
	b := timeline.NewBuilder(timeline.Options{Budgets: budgets, MaxFlows: o.MaxPods})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: o.Year, Location: loc, Want: b.Want, Rescue: b.Rescue(), Borrow: true, Quoted: b.QuotedFields(), KeepStream: o.keep != nil})
	defer mr.Close()
	read := func() int64 { return mr.BytesRead() }
	if o.progress != nil {
		o.progress(func() int64 { return 0 })
	}
	var nodes *nodeLearner
	if ioS.Redact != nil {
		// Names a record the engine passes over gives (on node "NAME")
		// are learnt from the inputs' heads, as parse learns them.
		learnHosts(ioS.Redact, srcs)
		nodes = &nodeLearner{r: ioS.Redact, seen: map[string]bool{}}
	}
	for n := 1; ; n++ {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		nodes.learn(rec)
		if o.keep != nil {
			if raw := mr.Raw(rec); raw != nil {
				o.keep.keep(mr, rec, raw)
			}
		}
		b.Add(rec)
		if o.progress != nil && n&1023 == 0 {
			o.progress(read)
		}
	}
	b.Inputs(mr.SourceStats())
	// Memory peaks at the end of a big log: the judged list, the view's
	// table and the builder's state, which judging frees flow by flow,
	// all at once, on top of whatever the read left as garbage since the
	// last collection (up to the live heap again, by chance). Collected
	// here, the read's garbage no longer counts, and collected again once
	// judged, the builder's is room for the view (see collectBig).
	collected := collectBig()
	if o.rows {
		a.Flows = b.FinishRows(o.trim)
	} else {
		a.Flows = b.FinishEach(o.trim)
	}
	if collected {
		runtime.GC()
	}
	a.Stats = mr.Stats()
	good := 0
	for _, ss := range mr.SourceStats() {
		switch {
		case ss.Err != nil && ss.Stats.Records+ss.Stats.Filtered == 0 && !errors.Is(ss.Err, parser.ErrNoLine): // among mr.Errors()
		case ss.Err != nil:
			good++ // read up to the error (a cut gzip, an endless stream abandoned): what was read counts
		case (ss.Stats.Lines == 0 || ss.Stats.Lines == ss.Stats.Blank) && live:
			a.Warnings = append(a.Warnings, &inputProblem{inputName(ss.Source), "empty", "empty; the node sent no log lines (none in the --since/--until window? is it the unit the kubelet runs as? --unit names another)"})
		case ss.Stats.Lines == 0 || ss.Stats.Lines == ss.Stats.Blank:
			a.Warnings = append(a.Warnings, &inputProblem{inputName(ss.Source), "empty", "empty; nothing to analyse (is it the right file? most kubelets log to journald: journalctl -u kubelet > kubelet.log)"})
		case ss.Stats.Records+ss.Stats.Filtered == 0:
			a.Warnings = append(a.Warnings, &inputProblem{inputName(ss.Source), "notlog", fmt.Sprintf("not a kubelet or container-runtime log (%d lines, none recognised); pass the kubelet's log (kubelet.log, journalctl -u kubelet output), or see what podflow reads with 'podflow parse --stats'", ss.Stats.Lines)})
		default:
			good++
		}
	}
	a.Warnings = append(a.Warnings, mr.Errors()...)
	if w, n := o.keep.problems(); w != nil || n != nil {
		a.Warnings = append(a.Warnings, w...)
		a.Notes = append(a.Notes, n...)
	}
	a.Notes = append(liveNotes, mr.Notices()...)
	if runtimeOnly(a.Stats) {
		a.Notes = append(a.Notes, errors.New("no kubelet lines: judging only what the runtime's lines prove (the kubelet logs most stages and the runtime few: pass the kubelet's log too, e.g. journalctl -u kubelet > kubelet.log)"))
	}
	if s := a.Flows.Summary; s.PodLimit > 0 {
		a.Warnings = append(a.Warnings, fmt.Errorf("pod limit reached: analysed the first %d pods; %d records about further pods were not analysed (raise it with --max-pods)", s.PodLimit, s.Dropped))
	}
	if good == 0 {
		if note := o.nameNote(); note != "" && len(paths) == 1 && paths[0] == "-" {
			return nil, inputError(fmt.Errorf("%w%s", errors.Join(a.Warnings...), note))
		}
		return nil, inputError(errors.Join(a.Warnings...))
	}
	a.Flows.Summary.Lines = a.Stats.Lines
	a.Flows.Summary.Unrecognized = a.Stats.Unrecognized
	a.Flows.Summary.Inputs = a.Flows.Summary.Inputs[:0]
	for _, s := range srcs {
		a.Flows.Summary.Inputs = append(a.Flows.Summary.Inputs, s.Name)
	}
	a.redact = ioS.Redact
	if o.oneFlow {
		redact.Learn(a.redact, a.Flows)
		redact.Names(a.redact, a.Flows)
	} else {
		present(a.redact, a.Flows)
	}
	return a, nil
}

// bigHeap is the heap from which Analyze collects the garbage between
// reading and judging: on the 1 GiB bench log (10,000 pods, some 55 MB of
// heap by then) the peak RSS of get pods falls from some 82-88 MiB to
// 70-75 MiB for two collections of 20 and 10 ms; a small log's heap is
// far below it, and its run pays nothing. A variable for the tests.
var bigHeap uint64 = 32 << 20

// collectBig collects the garbage now when the heap holds bigHeap bytes or
// more, and reports whether it did.
func collectBig() bool {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[0].Value.Uint64() < bigHeap {
		return false
	}
	runtime.GC()
	return true
}

// runtimeOnly reports whether the inputs held container-runtime lines
// (containerd's or CRI-O's logrus text) and not one kubelet line (klog
// text or JSON): every verdict then rests on the runtime's few lines.
func runtimeOnly(s parser.Stats) bool {
	kubelet := s.ByFormat[parser.FormatKlog.String()] + s.ByFormat[parser.FormatKlogLegacy.String()] + s.ByFormat[parser.FormatJSON.String()]
	return kubelet == 0 && s.ByFormat[parser.FormatLogrus.String()] > 0
}

// zone is the location klog times are read in: --tz when given (UTC
// too, which the parser then takes as given), else time.UTC, which lets
// the parser infer the headers' offset from zoned times in the input.
func (o LoadOptions) zone() (*time.Location, error) {
	loc, err := loadZone(o.TZ)
	if err != nil {
		return nil, usageErrorf("--tz %q: %v", o.TZ, err)
	}
	if o.TZ != "" && loc == time.UTC {
		loc = time.FixedZone("UTC", 0)
	}
	return loc, nil
}

// nameNote says which arguments were taken as pod names, for an error
// about missing input; "" when none were.
func (o LoadOptions) nameNote() string {
	if len(o.nameArgs) == 0 {
		return ""
	}
	q := make([]string, len(o.nameArgs))
	for i, n := range o.nameArgs {
		q[i] = strconv.Quote(n)
	}
	return fmt.Sprintf("\n%s was taken as a pod name, as no file or directory has that name, and no input was given (a path that exists, ./NAME, or - for standard input)", strings.Join(q, ", "))
}

// ReadRaws reads evidence lines back from their inputs (masked with
// --redact; an Input may be the masked name), in the order of their
// places in the inputs, so that a compressed input is decompressed once
// for all of them, not from its start for each (a report of many pods of
// a large .gz took minutes).
func (a *Analysis) ReadRaws(evs []timeline.Evidence) ([][]byte, []error) {
	positions := make([]parser.Position, len(evs))
	for i, ev := range evs {
		positions[i] = parser.Position{Input: ev.Input, Line: ev.Line, Offset: ev.Offset, Length: ev.Length}
		if a.redact != nil {
			for _, s := range a.Sources {
				if a.redact.Text(s.Name) == ev.Input {
					positions[i].Input = s.Name
					break
				}
			}
		}
	}
	raws, errs := parser.ReadRaws(a.Sources, positions)
	for i, raw := range raws {
		if raw != nil {
			raws[i] = a.redact.Bytes(raw)
		}
	}
	return raws, errs
}
