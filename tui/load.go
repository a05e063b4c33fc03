package tui

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/internal/follow"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// Source loads flows for the TUI. Tests may supply their own.
type LoadOptions struct {
	Paths    []string
	Stdin    io.Reader
	Year     int
	Location *time.Location
	Budgets  map[string]time.Duration
	Follow   bool
	// MaxFlows caps the pods analysed (timeline.Options.MaxFlows); the
	// cap, once hit, is a warning on the status line.
	MaxFlows int
	// Every is how often a snapshot of the flows is sent while loading
	// (0: 500ms).
	Every time.Duration
	// Keep keeps a copy of every record the engine reads, for a replay
	// to build the flows again as of any time (replay.go).
	Keep bool
	// Discover, when set, finds the sources of Paths (the command's own
	// checks and wording); Judge, when set, judges the first pass's
	// inputs as the command does: warnings for inputs that gave nothing,
	// and an error when none gave anything (which stops the load).
	Discover func(paths []string, stdin io.Reader) ([]parser.Source, []error)
	// Judge is given the sources' stats, Discover's errors and the read
	// errors.
	Judge func(stats []parser.SourceStats, found, read []error) (warnings []error, fatal error)
}

// snapshotMsg carries the flows as of some point of the load.
type snapshotMsg struct {
	gen      int // load generation (0: following reads on into the same load)
	flows    *timeline.FlowList
	srcs     []parser.Source
	read     int64 // bytes read so far
	total    int64 // bytes in all inputs; <=0 when unknown (stdin)
	records  int64
	declined int64 // records the parser read that the engine had no use for (see load.declined)
	done     bool
	warnings []error
	err      error
	notes    []error
	runs     map[string]run   // container runs by runtime ID (restarts.go)
	recs     []*parser.Record // with LoadOptions.Keep, the records read, once done
}

// loader runs the streaming builder in a goroutine and reports snapshots on
// a channel the model drains with waitFor.
type loader struct {
	opts LoadOptions
	ch   chan tea.Msg
	stop chan struct{}
	once sync.Once

	started sync.Once
	pending tea.Msg // the first message, taken by first; next returns it
}

func newLoader(o LoadOptions) *loader {
	if o.Every <= 0 {
		o.Every = 500 * time.Millisecond
	}
	return &loader{opts: o, ch: make(chan tea.Msg, 4), stop: make(chan struct{})}
}

// start runs the loader, once.
func (l *loader) start() { l.started.Do(func() { go l.run() }) }

// first waits up to wait for the loader's first message and keeps it for
// next; it returns the error that stopped the load, if that came.
func (l *loader) first(wait time.Duration) error {
	l.start()
	select {
	case m := <-l.ch:
		l.pending = m
		if s, ok := m.(snapshotMsg); ok && s.err != nil {
			return s.err
		}
	case <-time.After(wait):
	}
	return nil
}

// Close stops the loader.
func (l *loader) Close() { l.once.Do(func() { close(l.stop) }) }

// next is the command that waits for the loader's next message.
func (l *loader) next() tea.Cmd {
	if m := l.pending; m != nil {
		l.pending = nil
		return func() tea.Msg { return m }
	}
	return func() tea.Msg {
		select {
		case m, ok := <-l.ch:
			if !ok {
				return nil
			}
			return m
		case <-l.stop:
			return nil
		}
	}
}

func (l *loader) send(m tea.Msg) bool {
	select {
	case l.ch <- m:
		return true
	case <-l.stop:
		return false
	}
}

// run loads the inputs in one streaming pass; with Follow it then reads
// on from where each file stopped, into the same builder, as the files
// grow. Standard input is read as it arrives.
func (l *loader) run() {
	discover := l.opts.Discover
	if discover == nil {
		discover = parser.Discover
	}
	srcs, errs := discover(l.opts.Paths, l.opts.Stdin)
	if len(srcs) == 0 {
		err := errors.Join(errs...)
		if err == nil {
			err = errors.New("no kubelet or container-runtime logs found")
		}
		l.send(snapshotMsg{err: err, done: true})
		return
	}
	bopts := timeline.Options{Budgets: l.opts.Budgets, MaxFlows: l.opts.MaxFlows}
	ld := &load{b: timeline.NewBuilder(bopts), srcs: srcs, read: map[string]int64{}, runs: map[string]run{}, keep: l.opts.Keep}
	for _, s := range srcs {
		if s.Size < 0 {
			ld.total = -1
			break
		}
		ld.total += s.Size
	}
	ends, ok := l.loadAll(ld, errs)
	if !ok || !l.opts.Follow {
		return
	}
	l.follow(ld, ends)
}

// load is the state a load shares between the reading goroutines and
// the snapshot ticker, guarded by mu.
type load struct {
	mu      sync.Mutex
	b       *timeline.Builder
	srcs    []parser.Source
	read    map[string]int64 // bytes read per input
	total   int64            // bytes in all inputs; <=0 when unknown (stdin)
	records int64
	// declined: the records the parser read and the builder did not want
	// (parser Stats.Filtered): with records, the count parse --stats
	// gives, which the status line shows.
	declined int64
	dirty    bool
	runs     map[string]run // container runs by runtime ID, from the PLEG's lines
	keep     bool
	recs     []*parser.Record // with keep, a copy of every record added
	done     bool             // the first pass ended: later snapshots only add lines
	clock    *follow.Clock    // following: the log's present, which moves on while it is quiet
	idle     chan struct{}    // following: an input gave all it holds; snapshot now
	warnings []error
	notes    []error // what is worth knowing but lost nothing (as the CLI's notes)
}

// add hands one record to the builder.
func (ld *load) add(rec *parser.Record) {
	ld.mu.Lock()
	ld.b.Add(rec)
	noteRun(ld.runs, rec)
	if ld.keep {
		ld.recs = append(ld.recs, cloneRecord(rec))
	}
	ld.records++
	if end := rec.Pos.Offset + int64(rec.Pos.Length) + 1; end > ld.read[rec.Pos.Input] {
		ld.read[rec.Pos.Input] = end
	}
	ld.dirty = true
	ld.mu.Unlock()
}

func (ld *load) setDeclined(n int64) {
	ld.mu.Lock()
	ld.declined = n
	ld.mu.Unlock()
}

// snap judges the flows so far; call with mu held. Every snapshot but the
// final one of a load without Follow is a deep copy, because the builder
// goes on.
func (ld *load) snap(final bool) snapshotMsg {
	var n int64
	for _, v := range ld.read {
		n += v
	}
	if ld.total > 0 && n > ld.total {
		n = ld.total
	}
	m := snapshotMsg{srcs: ld.srcs, read: n, total: ld.total, records: ld.records, declined: ld.declined, done: ld.done, runs: maps.Clone(ld.runs)}
	if ld.done {
		m.read = ld.total
		m.warnings = ld.warnings
		m.notes = ld.notes
		m.recs = ld.recs
	}
	if ld.clock != nil {
		// Following: a stage under way runs to the present, and its
		// timer moves while the log is quiet (timeline/clock.go).
		ld.b.Now(ld.clock.Present())
	}
	if final {
		m.flows = ld.b.Finish()
	} else {
		m.flows = ld.b.Snapshot()
	}
	if s := m.flows.Summary; s.PodLimit > 0 && ld.done {
		// First: it is what the status line shows, and the pods on screen
		// are not all the log's.
		m.warnings = append([]error{fmt.Errorf("pod limit reached: analysed the first %d pods; %d records about further pods were not analysed (raise it with --max-pods)", s.PodLimit, s.Dropped)}, m.warnings...)
	}
	ld.dirty = false
	return m
}

// ticker sends a snapshot every opts.Every while records arrive (also
// while a reader is blocked on standard input or a followed file) until
// stop is closed. A snapshot of many pods takes a while and holds up the
// load: the next one waits at least three times as long as the last took,
// so the load goes on at two thirds of its speed or more. Following, a
// snapshot goes as soon as a file has given all it holds (what was
// appended shows at once, however little), and at least every second
// while nothing comes, as the clocks of stages under way move on.
func (l *loader) ticker(ld *load, stop <-chan struct{}) {
	t := time.NewTicker(l.opts.Every)
	defer t.Stop()
	var last time.Time
	var cost time.Duration
	for {
		now := false
		select {
		case <-stop:
			return
		case <-l.stop:
			return
		case <-t.C:
		case <-ld.idle: // nil until following
			now = true
		}
		if !now && time.Since(last) < 3*cost {
			continue
		}
		ld.mu.Lock()
		tick := ld.clock != nil && time.Since(last) >= time.Second
		if !ld.dirty && !tick {
			ld.mu.Unlock()
			continue
		}
		start := time.Now()
		m := ld.snap(false)
		ld.mu.Unlock()
		last, cost = time.Now(), time.Since(start)
		if !l.send(m) {
			return
		}
	}
}

// loadAll reads every source through the builder with a MultiReader (big
// files on all cores) and sends the final snapshot. It returns where each
// input ended, and false when the loader was stopped.
func (l *loader) loadAll(ld *load, errs []error) ([]follow.Input, bool) {
	// Following standard input (tui -f -): it is followed by this pass,
	// which reads it as it comes. What came shows as soon as the pipe is
	// quiet (StreamIdle: the record under way is not held back for the
	// next line), and the present moves on while it is quiet, as for a
	// followed file (follow below).
	stream := l.opts.Follow && slices.ContainsFunc(ld.srcs, parser.Source.IsStdin)
	if stream {
		ld.clock, ld.idle = follow.NewClock(time.Time{}, nil), make(chan struct{}, 1)
	}
	mr := parser.NewMultiReader(ld.srcs, parser.Options{Year: l.opts.Year, Location: l.opts.Location, Want: ld.b.Want, Rescue: ld.b.Rescue(), Borrow: true, Quoted: ld.b.QuotedFields(), StreamIdle: stream})
	defer mr.Close()
	finished := make(chan struct{})
	var tickerDone sync.WaitGroup
	tickerDone.Add(1)
	go func() {
		defer tickerDone.Done()
		l.ticker(ld, finished)
	}()
	stopped := false
	n := 0
	for !stopped {
		select {
		case <-l.stop:
			stopped = true
			continue
		default:
		}
		rec, err := mr.Next()
		if errors.Is(err, parser.ErrIdle) {
			select {
			case ld.idle <- struct{}{}:
			default: // one is pending
			}
			continue
		}
		if err != nil {
			break
		}
		if stream {
			ld.clock.Saw(rec.Time)
		}
		ld.add(rec)
		if n++; n%4096 == 0 {
			ld.setDeclined(mr.Stats().Filtered)
		}
	}
	ld.setDeclined(mr.Stats().Filtered)
	close(finished)
	tickerDone.Wait()
	if stopped {
		return nil, false
	}
	ends := follow.Ends(mr.SourceStats())
	var judged []error
	if l.opts.Judge != nil {
		var fatal error
		judged, fatal = l.opts.Judge(mr.SourceStats(), errs, mr.Errors())
		if fatal != nil {
			l.send(snapshotMsg{err: fatal, done: true})
			return nil, false
		}
	}
	ld.mu.Lock()
	if !l.opts.Follow {
		// The inputs' spans, declined lines included, as the CLI's load
		// gives them: a stage under way runs to the input's last line,
		// not to the last line the engine read (timeline/clock.go).
		// Following, the clock is the follower's to move on (to the
		// lines it reads, and to now while the log is quiet).
		ld.b.Inputs(mr.SourceStats())
	}
	ld.done = true
	ld.warnings = append(append(append([]error(nil), errs...), judged...), mr.Errors()...)
	ld.notes = mr.Notices()
	m := ld.snap(!l.opts.Follow)
	ld.mu.Unlock()
	return ends, l.send(m)
}

// follow reads on from where each plain file's first pass ended, as the
// file grows, into the same builder: nothing is read twice (internal/follow).
// A file rotated or copy-truncated is read from its new start into the same
// flows: it continues the log. Compressed files do not grow; standard input
// was read to its end in the first pass.
func (l *loader) follow(ld *load, ends []follow.Input) {
	var last time.Time
	for _, e := range ends {
		if e.Last.After(last) {
			last = e.Last
		}
	}
	idle := make(chan struct{}, 1)
	ld.mu.Lock()
	ld.clock, ld.idle = follow.NewClock(last, nil), idle
	ld.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.ticker(ld, nil)
	}()
	follow.Run(ends, follow.Options{
		Parser: parser.Options{Year: l.opts.Year, Location: l.opts.Location, Want: ld.b.Want, Rescue: ld.b.Rescue(), Borrow: true, Quoted: ld.b.QuotedFields()},
		Poll:   min(l.opts.Every, follow.DefaultPoll),
		Stop:   l.stop,
		Clock:  ld.clock,
		Record: func(rec *parser.Record, _ []byte) { ld.add(rec) },
		Idle: func() {
			select {
			case idle <- struct{}{}:
			default: // one is pending
			}
		},
		Note: func(err error) {
			ld.mu.Lock()
			ld.notes = append(ld.notes, err)
			ld.dirty = true
			ld.mu.Unlock()
		},
	})
	<-done
}
