package cmd

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/podflow/podflow/internal/anystr"
	"github.com/podflow/podflow/internal/follow"
	"github.com/podflow/podflow/internal/printers"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// get pods -w and lines pod -f: a first pass over the files, then what is
// appended to them, as it is (internal/follow), until Ctrl-C.

// stopOnInterrupt is closed by Ctrl-C (SIGINT) or SIGTERM: a watch ends
// there, as kubectl's does, with exit status 0.
func stopOnInterrupt() (<-chan struct{}, func()) {
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ctx.Done(), cancel
}

// followPaths checks the inputs of a command that follows them: files or
// directories of files, or standard input when stdin is true (get pods
// -w -), not a live node.
func followPaths(flag string, paths []string, live liveOptions, stdin bool) error {
	if live.Node != "" && !live.ownNode || live.Journal {
		return usageErrorf("%s follows files; a live node is asked again with podflow tui -f --node NAME", flag)
	}
	if len(paths) == 0 {
		return usageErrorf("%s follows the files named: name them (or - for standard input)", flag)
	}
	if !stdin && contains(paths, "-") {
		return usageErrorf("%s follows the files named: name them (standard input is followed by podflow tui -f - and get pods -w -)", flag)
	}
	return nil
}

// noneToFollow is the note for inputs of which none grows (compressed
// files, rotated away): the command then ends after the first pass.
func noneToFollow(ends []follow.Input) error {
	for _, e := range ends {
		if follow.Followable(e.Source) {
			return nil
		}
	}
	return errors.New("nothing to follow: no input is a plain file that grows (compressed files do not)")
}

// watchedLoad is a builder fed by a first pass over the inputs and then by
// what is appended to them; mu guards b.
type watchedLoad struct {
	mu    sync.Mutex
	b     *timeline.Builder
	srcs  []parser.Source
	ends  []follow.Input
	clock *follow.Clock
	warn  []error
	popts parser.Options
	notes []error
	// stream, when standard input is among the inputs, is the merge the
	// first pass read until the pipe was first quiet: the watch reads on
	// from it (the files named beside it are read in it, in time order
	// with the pipe, and not followed).
	stream *parser.MultiReader
}

// loadToFollow reads the inputs once, into a builder that goes on.
func loadToFollow(ioS *IO, paths []string, o LoadOptions) (*watchedLoad, error) {
	budgets, err := o.budgets()
	if err != nil {
		return nil, err
	}
	loc, err := o.zone()
	if err != nil {
		return nil, err
	}
	ok, bad := ioS.checkPaths(paths)
	var srcs []parser.Source
	var found []error
	if len(ok) > 0 {
		srcs, found = parser.Discover(ok, ioS.In)
	}
	found = append(append(bad, found...), emptyDirs(ok, srcs)...)
	if len(srcs) == 0 {
		if len(found) == 0 {
			found = append(found, errors.New("no kubelet or container-runtime logs found"))
		}
		return nil, inputError(errors.Join(found...))
	}
	b := timeline.NewBuilder(timeline.Options{Budgets: budgets, MaxFlows: o.MaxPods})
	popts := parser.Options{Year: o.Year, Location: loc, Want: b.Want, Rescue: b.Rescue(), Borrow: true, Quoted: b.QuotedFields()}
	// A pipe has no end to read to: the first pass is what it gave until
	// it was first quiet (StreamIdle), and the watch reads on from there.
	stream := slices.ContainsFunc(srcs, parser.Source.IsStdin)
	popts.StreamIdle = stream
	mr := parser.NewMultiReader(srcs, popts)
	quiet := false
	for {
		rec, err := mr.Next()
		if errors.Is(err, parser.ErrIdle) {
			quiet = true
			break
		}
		if err != nil {
			break
		}
		b.Add(rec)
	}
	if !quiet {
		defer mr.Close()
	}
	warnings, fatal := tuiJudge(mr.SourceStats(), found, mr.Errors())
	if fatal != nil {
		return nil, inputError(fatal)
	}
	ends := follow.Ends(mr.SourceStats())
	var last time.Time
	for _, e := range ends {
		if e.Last.After(last) {
			last = e.Last
		}
	}
	w := &watchedLoad{b: b, srcs: srcs, ends: ends, clock: follow.NewClock(last, ioS.Now),
		warn: append(warnings, mr.Errors()...), popts: popts, notes: mr.Notices()}
	if stream {
		// The files beside the pipe were read in its merge: they are
		// not followed from where they stand.
		w.ends = nil
		if quiet {
			w.stream = mr
		}
	}
	return w, nil
}

// snapshot judges the flows as of the followed log's present.
func (w *watchedLoad) snapshot() *timeline.FlowList {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Now(w.clock.Present())
	return w.b.Snapshot()
}

// follow reads on until stop is closed (or standard input ends); changed
// is signalled (without blocking) each time a file or the pipe has given
// all it holds for now.
func (w *watchedLoad) follow(ioS *IO, stop <-chan struct{}, changed chan<- struct{}) {
	if w.stream != nil {
		w.followStream(stop, changed)
		return
	}
	follow.Run(w.ends, follow.Options{
		Parser: w.popts,
		Stop:   stop,
		Clock:  w.clock,
		Record: func(rec *parser.Record, _ []byte) {
			w.mu.Lock()
			w.b.Add(rec)
			w.mu.Unlock()
		},
		Idle: func() {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
		Note: func(err error) { (&Analysis{Notes: []error{err}, redact: ioS.Redact}).warn(ioS) },
	})
}

// followStream reads standard input on, from where the first pass
// stopped, until it ends or stop is closed. (A read waits for the pipe:
// on Ctrl-C the watch does not wait for it.)
func (w *watchedLoad) followStream(stop <-chan struct{}, changed chan<- struct{}) {
	defer w.stream.Close()
	for {
		select {
		case <-stop:
			return
		default:
		}
		rec, err := w.stream.Next()
		if errors.Is(err, parser.ErrIdle) {
			select {
			case changed <- struct{}{}:
			default:
			}
			continue
		}
		if err != nil {
			return
		}
		w.clock.Saw(rec.Time)
		w.mu.Lock()
		w.b.Add(rec)
		w.mu.Unlock()
	}
}

// getPodsWatch is get pods -w: the table, then a row again each time a pod
// changes (its status, verdict, stage, restarts or reason: the clocks
// moving on do not make a row, as kubectl's AGE does not), until Ctrl-C.
func getPodsWatch(o *GetPodsOptions) error {
	ioS := o.IO
	if err := followPaths("-w", o.Paths, o.Load.live, true); err != nil {
		return err
	}
	w, err := loadToFollow(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	a := &Analysis{Sources: w.srcs, Warnings: w.warn, Notes: w.notes, redact: ioS.Redact, verbose: o.Load.Verbose}
	fl, err := o.selectFlows(w.presented(ioS))
	if err != nil {
		return err
	}
	a.Flows = fl
	wp := &watchPrinter{o: o}
	if err := wp.first(a, fl); err != nil {
		return err
	}
	a.warn(ioS)
	if w.stream == nil && slices.ContainsFunc(w.srcs, parser.Source.IsStdin) {
		// The pipe ended before it was ever quiet: all it gave is above.
		(&Analysis{Notes: []error{errors.New("standard input ended: nothing more to follow")}}).warn(ioS)
		return nil
	}
	if w.stream == nil {
		if err := noneToFollow(w.ends); err != nil {
			(&Analysis{Notes: []error{err}}).warn(ioS)
			return nil
		}
	}
	seen := map[string]string{}
	for i := range fl.Items {
		seen[watchKey(&fl.Items[i])] = watchRow(&fl.Items[i])
	}
	stop, cancel := stopOnInterrupt()
	defer cancel()
	changed := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.follow(ioS, stop, changed)
	}()
	if w.stream == nil {
		defer func() { <-done }()
	}
	// While the log is quiet the present moves on: a stage under way may
	// pass its budget and stall, which is a change.
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	ended := done // files are followed until stop; standard input may end
	for last := false; !last; {
		select {
		case <-stop:
			return nil
		case <-changed:
		case <-tick.C:
		case <-ended:
			last = true // what it gave last, and no more
		}
		fl, err := o.selectFlows(w.presented(ioS))
		if err != nil {
			return err
		}
		var rows []timeline.Flow
		for i := range fl.Items {
			f := &fl.Items[i]
			k, row := watchKey(f), watchRow(f)
			if seen[k] != row {
				seen[k] = row
				rows = append(rows, *f)
			}
		}
		if len(rows) == 0 {
			continue
		}
		head := *fl
		head.Items = nil
		if err := wp.changed(&head, rows); err != nil {
			return err
		}
	}
	return nil
}

// presented is a snapshot as get pods prints it: masked under --redact
// (the -p patterns are masked alike, see selectFlows).
func (w *watchedLoad) presented(ioS *IO) *timeline.FlowList {
	fl := w.snapshot()
	present(ioS.Redact, fl)
	return fl
}

// watchPrinter prints get pods -w in the output asked for, as kubectl's
// watch does: the table and then a row per change without a header;
// -o json and -o yaml a document per pod (a Flow, not a list: one per
// change, the pods there at first each one too; YAML's documents
// separated by ---); -o name a name per change; -o jsonpath and
// custom-columns applied to the pods that changed (the columns' header
// once).
type watchPrinter struct {
	o    *GetPodsOptions
	docs int // documents written (-o yaml: --- between them)
}

// flowDoc is one pod as a document of its own: the item of a FlowList
// with its apiVersion and kind, as a kubectl watch prints a Pod.
type flowDoc struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	*timeline.Flow
}

func (wp *watchPrinter) first(a *Analysis, fl *timeline.FlowList) error {
	switch wp.o.Output {
	case "json", "yaml":
		return wp.documents(fl.Items)
	}
	return wp.o.printPods(a, fl)
}

func (wp *watchPrinter) changed(head *timeline.FlowList, rows []timeline.Flow) error {
	o, ioS := wp.o, wp.o.IO
	if o.template != nil {
		return o.template.print(ioS.Out, head, each(rows), true)
	}
	switch o.Output {
	case "json", "yaml":
		return wp.documents(rows)
	case "name":
		bw := bufio.NewWriter(ioS.Out)
		for i := range rows {
			fmt.Fprintf(bw, "pod/%s\n", sanitize.OneLine(rows[i].Pod.Key()))
		}
		return bw.Flush()
	}
	printPodTable(ioS, rows, o.Output == "wide", true, ioS.ColorEnabled(o.Color))
	return nil
}

// documents writes each flow as a document of its own.
func (wp *watchPrinter) documents(rows []timeline.Flow) error {
	return printers.Buffered(wp.o.IO.Out, func(w io.Writer) error {
		for i := range rows {
			d := flowDoc{APIVersion: timeline.APIVersion, Kind: timeline.KindFlow, Flow: &rows[i]}
			if wp.o.Output == "json" {
				if err := writeJSON(w, d); err != nil {
					return err
				}
			} else {
				if wp.docs > 0 {
					io.WriteString(w, "---\n")
				}
				if err := writeYAML(w, d); err != nil {
					return err
				}
			}
			wp.docs++
		}
		return nil
	})
}

// watchKey names one row of get pods: a pod incarnation.
func watchKey(f *timeline.Flow) string {
	return f.Pod.Key() + "#" + strconv.Itoa(f.Incarnation)
}

// watchRow is what makes a row of get pods -w again: what the table says
// of the pod but its times, which move on with the clock.
func watchRow(f *timeline.Flow) string {
	restarts := 0
	for _, c := range f.Containers {
		restarts += c.Restarts
	}
	return strings.Join([]string{f.Node, f.Status, string(f.Verdict), stageLabel(f), strconv.Itoa(restarts), f.Reason}, "\x00")
}

// followPodLines is lines pod -f: after the lines the files hold, the
// pod's lines as they are appended, until Ctrl-C. The lines are matched
// as lines pod matches them (podNeedles: the names, UID, sandbox and
// container IDs the first pass knew), cleaned and prefixed alike.
func followPodLines(ioS *IO, ends []follow.Input, f *timeline.Flow, o podLinesOptions) error {
	if err := noneToFollow(ends); err != nil {
		(&Analysis{Notes: []error{err}}).warn(ioS)
		return nil
	}
	match := podMatcher(f, o)
	out := bufio.NewWriter(ioS.Out)
	defer out.Flush()
	stop, cancel := stopOnInterrupt()
	defer cancel()
	follow.Run(ends, follow.Options{
		Parser: parser.Options{Year: o.year, Location: o.loc, Borrow: true, Match: match},
		Stop:   stop,
		Raw:    true,
		Record: func(rec *parser.Record, raw []byte) {
			if raw == nil || !o.from.IsZero() && (rec.Time.Before(o.from) || rec.Time.After(o.to)) || !match(raw) {
				return
			}
			eachPodLine(rec.Pos, raw, o, func(line string) {
				out.WriteString(line)
				out.WriteByte('\n')
			})
		},
		Idle: func() { out.Flush() },
		Note: func(err error) {
			out.Flush()
			(&Analysis{Notes: []error{err}, redact: o.redact}).warn(ioS)
		},
	})
	return nil
}

// podMatcher is lines pod's match of a raw line to f.
func podMatcher(f *timeline.Flow, o podLinesOptions) func([]byte) bool {
	return anystr.New(podNeedles(f, o.redact.Reveal)).Match
}
