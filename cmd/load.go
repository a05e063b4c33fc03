package cmd

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
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

// checkPaths opens every named input once, before anything is read, so
// that a missing or unreadable one is reported in words a person can act
// on; it returns the paths that can be read and an error for each of the
// others.
func (s *IO) checkPaths(paths []string) (ok []string, bad []error) {
	open := s.Open
	if open == nil {
		open = func(name string) (io.Closer, error) { return os.Open(name) }
	}
	for _, p := range paths {
		if p == "-" {
			ok = append(ok, p)
			continue
		}
		if err := parser.LinkError(p); err != nil {
			bad = append(bad, err)
			continue
		}
		f, err := open(p)
		switch {
		case err == nil:
			f.Close()
			ok = append(ok, p)
		case errors.Is(err, fs.ErrNotExist):
			bad = append(bad, fmt.Errorf("%s: no such file or directory; check the path, or give a directory of logs, or - to read standard input", p))
		case errors.Is(err, fs.ErrPermission):
			bad = append(bad, fmt.Errorf("%s: permission denied; run podflow as a user who can read it (kubelet logs are often root's: sudo), or copy the log somewhere readable", p))
		default:
			bad = append(bad, fmt.Errorf("%s: cannot open: %w", p, errors.Unwrap(err)))
		}
	}
	return ok, bad
}

// emptyDirs reports each directory among paths in which discovery found
// no log: without it, such a directory would vanish silently when another
// input has logs.
func emptyDirs(paths []string, srcs []parser.Source) []error {
	var errs []error
	for _, p := range paths {
		fi, err := os.Stat(p)
		if p == "-" || err != nil || !fi.IsDir() {
			continue
		}
		dir := filepath.Clean(p) + string(filepath.Separator)
		found := false
		for _, s := range srcs {
			if name := filepath.Clean(s.Path); strings.HasPrefix(name, dir) || filepath.Clean(p) == "." && !filepath.IsAbs(name) {
				found = true
				break
			}
		}
		if !found {
			errs = append(errs, fmt.Errorf("%s: no kubelet or container-runtime logs found in this directory; name the log files, or a directory holding kubelet.log, journal exports or a kind/Cluster API/must-gather dump", p))
		}
	}
	return errs
}

func inputName(s parser.Source) string {
	if s.IsStdin() && s.Name == "-" {
		return "standard input"
	}
	return s.Name
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

// summariseAt is how many warnings or notes of one kind, each about
// another input, become one line (--verbose lists them all).
const summariseAt = 3

// inputProblem is a warning podflow itself makes about one input, of a
// kind that many inputs may share (a folder of empty files).
type inputProblem struct {
	input, kind, detail string
}

func (e *inputProblem) Error() string { return e.input + ": " + e.detail }

// problemKind is how warn groups err with others: its kind and the
// one-line summary of n of them (records: the records they concern); ""
// for an error told on its own.
func problemKind(err error) (kind string, summary func(n int, records int64) string) {
	var nt *parser.Notice
	var ip *inputProblem
	var long *parser.LineTooLongError
	switch {
	case errors.As(err, &nt) && nt.Kind == parser.NoticeDuplicates:
		return "dup", func(n int, r int64) string {
			return fmt.Sprintf("%d inputs repeat records of another input (%d records), counted once", n, r)
		}
	case errors.As(err, &nt) && nt.Kind == parser.NoticeBackwards:
		return "back", func(n int, r int64) string {
			return fmt.Sprintf("%d inputs go back in time (a clock step or inputs out of order); %d records merged by their own times", n, r)
		}
	case errors.As(err, &ip) && ip.kind == "empty":
		return "empty", func(n int, _ int64) string { return fmt.Sprintf("%d inputs are empty; nothing to analyse in them", n) }
	case errors.As(err, &ip) && ip.kind == "notlog":
		return "notlog", func(n int, _ int64) string {
			return fmt.Sprintf("%d inputs are not kubelet or container-runtime logs (no line recognised); see what podflow reads with 'podflow parse --stats'", n)
		}
	case errors.As(err, &long):
		return "long", func(n int, _ int64) string {
			return fmt.Sprintf("%d inputs have lines longer than %s, cut to their first %s", n, humanBytes(int64(long.Max)), humanBytes(int64(long.Max)))
		}
	}
	return "", nil
}

// warn prints input warnings and notes to stderr, one line each, or one
// line for several of a kind (unless --verbose), and marks the run as
// partial (exit 5) when there are warnings.
func (a *Analysis) warn(ioS *IO) {
	ioS.partial = ioS.partial || len(a.Warnings) > 0
	a.tell(ioS, "warning", a.Warnings)
	a.tell(ioS, "note", a.Notes)
}

// tell prints errs under label, those of a kind many share as one line
// where the first of them would be.
func (a *Analysis) tell(ioS *IO, label string, errs []error) {
	type group struct {
		n       int
		records int64
		first   string
		summary func(int, int64) string
		told    bool
	}
	groups := map[string]*group{}
	for _, e := range errs {
		kind, summary := problemKind(e)
		if kind == "" {
			continue
		}
		g := groups[kind]
		if g == nil {
			g = &group{first: e.Error(), summary: summary}
			groups[kind] = g
		}
		g.n++
		var nt *parser.Notice
		if errors.As(e, &nt) {
			g.records += nt.Count
		}
	}
	for _, e := range errs {
		msg := e.Error()
		if kind, _ := problemKind(e); kind != "" && !a.verbose && groups[kind].n >= summariseAt {
			g := groups[kind]
			if g.told {
				continue
			}
			first, _, _ := strings.Cut(g.first, ": ")
			msg = g.summary(g.n, g.records) + " (the first " + first + "; --verbose lists them)"
			g.told = true
		}
		fmt.Fprintf(ioS.ErrOut, "podflow: %s: %s\n", label, sanitize.OneLine(a.redact.Text(msg)))
	}
}
