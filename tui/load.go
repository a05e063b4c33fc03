package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
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
	ld := &load{b: timeline.NewBuilder(bopts), bopts: bopts, srcs: srcs, read: map[string]int64{}, runs: map[string]run{}, keep: l.opts.Keep}
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
	bopts    timeline.Options // the builder's, for one started again
	past     []byte           // the flows before a followed file started over, as JSON
	done     bool             // the first pass ended: later snapshots only add lines
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

// startOver ends the flows built so far and starts a new builder, when a
// followed file starts over (rotated, truncated): what it says from then
// on is a new start, and a pod it names again is another incarnation,
// not more of the flow it had (which would count its attempts twice).
// Call with mu held.
func (ld *load) startOver() {
	fl := ld.b.Snapshot()
	if ld.past != nil {
		fl = withPast(ld.past, fl)
	}
	if b, err := json.Marshal(fl); err == nil {
		ld.past = b
	}
	ld.b = timeline.NewBuilder(ld.bopts)
}

// withPast puts the flows of before a file started over (past, a
// FlowList as JSON) before cur's: a pod in both is an incarnation more in
// cur. The result is the view's own (decoded afresh each time).
func withPast(past []byte, cur *timeline.FlowList) *timeline.FlowList {
	var old timeline.FlowList
	if err := json.Unmarshal(past, &old); err != nil {
		return cur
	}
	seen := map[string]int{}
	for i := range old.Items {
		k := old.Items[i].Pod.Key()
		seen[k] = max(seen[k], max(old.Items[i].Incarnation, 1))
	}
	out := *cur
	out.Items = append(old.Items, cur.Items...)
	for i := len(old.Items); i < len(out.Items); i++ {
		f := &out.Items[i]
		if n := seen[f.Pod.Key()]; n > 0 {
			f.Incarnation = max(f.Incarnation, 1) + n
		}
	}
	out.Findings = append(old.Findings, cur.Findings...)
	names := map[string]bool{}
	for _, n := range cur.Nodes {
		names[n.Name] = true
	}
	out.Nodes = append([]timeline.Node(nil), cur.Nodes...)
	for _, n := range old.Nodes {
		if !names[n.Name] {
			out.Nodes = append(out.Nodes, n)
		}
	}
	return &out
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
	if final {
		m.flows = ld.b.Finish()
	} else {
		m.flows = ld.b.Snapshot()
	}
	if ld.past != nil {
		m.flows = withPast(ld.past, m.flows)
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
// so the load goes on at two thirds of its speed or more.
func (l *loader) ticker(ld *load, stop <-chan struct{}) {
	t := time.NewTicker(l.opts.Every)
	defer t.Stop()
	var last time.Time
	var cost time.Duration
	for {
		select {
		case <-stop:
			return
		case <-l.stop:
			return
		case <-t.C:
			if time.Since(last) < 3*cost {
				continue
			}
			ld.mu.Lock()
			if !ld.dirty {
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
}

// inputEnd is where the first pass stopped reading one input.
type inputEnd struct {
	src   parser.Source
	bytes int64
	lines int64
	last  time.Time
}

// loadAll reads every source through the builder with a MultiReader (big
// files on all cores) and sends the final snapshot. It returns where each
// input ended, and false when the loader was stopped.
func (l *loader) loadAll(ld *load, errs []error) ([]inputEnd, bool) {
	mr := parser.NewMultiReader(ld.srcs, parser.Options{Year: l.opts.Year, Location: l.opts.Location, Want: ld.b.Want, Rescue: ld.b.Rescue(), Borrow: true, Quoted: ld.b.QuotedFields()})
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
		if err != nil {
			break
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
	var ends []inputEnd
	for _, ss := range mr.SourceStats() {
		ends = append(ends, inputEnd{src: ss.Source, bytes: ss.Stats.Bytes, lines: ss.Stats.Lines, last: ss.Stats.LastTime})
	}
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
// file grows, into the same builder: nothing is read twice. Compressed
// files do not grow; standard input was read to its end in the first
// pass. Records of several files are added as they arrive.
func (l *loader) follow(ld *load, ends []inputEnd) {
	var wg sync.WaitGroup
	for _, e := range ends {
		if e.src.IsStdin() || e.src.Path == "" || compressed(e.src.Path) {
			continue
		}
		f, err := os.Open(e.src.Path)
		if err != nil {
			continue
		}
		if _, err := f.Seek(e.bytes, io.SeekStart); err != nil {
			f.Close()
			continue
		}
		year := l.opts.Year
		if year == 0 && !e.last.IsZero() {
			loc := l.opts.Location
			if loc == nil {
				loc = time.UTC
			}
			year = e.last.In(loc).Year()
		}
		name := e.src.Name
		tr := &tailReader{f: f, path: e.src.Path, off: e.bytes, every: l.opts.Every, stop: l.stop}
		popts := parser.Options{
			Name: e.src.Name, Node: e.src.Node, Component: e.src.Component, Year: year,
			Location: l.opts.Location, Want: ld.b.Want, Rescue: ld.b.Rescue(), NoPrescan: true,
			StartOffset: e.bytes, StartLine: e.lines, Borrow: true, Quoted: ld.b.QuotedFields(),
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { tr.mu.Lock(); tr.f.Close(); tr.mu.Unlock() }()
			for {
				rd := parser.NewReader(tr, popts)
				for {
					rec, err := rd.Next()
					if err != nil {
						break
					}
					ld.add(rec)
				}
				// The reader ends at the end of what was read before the
				// file started over (its last line whole), or when stopped.
				what := tr.takeRestart()
				if what == "" {
					return
				}
				ld.mu.Lock()
				ld.notes = append(ld.notes, fmt.Errorf("%s was %s: reading it from its new start", name, what))
				ld.startOver()
				ld.dirty = true
				ld.mu.Unlock()
				// Positions are the new content's, from its start.
				popts.StartOffset, popts.StartLine = 0, 0
			}
		}()
	}
	l.ticker(ld, nil)
	wg.Wait()
}

// compressed reports whether the file starts with a gzip or zstd magic.
func compressed(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var m [4]byte
	n, _ := io.ReadFull(f, m[:])
	return n >= 2 && m[0] == 0x1f && m[1] == 0x8b || n == 4 && m == [4]byte{0x28, 0xb5, 0x2f, 0xfd}
}

// tailReader reads a growing file as tail -F does: at its end it waits
// for more (polling every `every`) until stop is closed. A line the writer
// has not finished is simply read on when the rest arrives. When the file
// at path is another one (rotated: renamed and created again) or shorter
// than what was read (copy-truncated), it ends (io.EOF) with restart
// saying which, and reads on from the new content's start: the caller
// starts a new parser over it.
type tailReader struct {
	f       *os.File
	path    string
	off     int64 // bytes read of f
	every   time.Duration
	stop    <-chan struct{}
	mu      sync.Mutex
	restart string // "rotated" or "truncated" when it ended for that: it reads nothing until taken
}

// takeRestart says whether (and why) the reader ended because the file
// started over, and lets it read the new content.
func (t *tailReader) takeRestart() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	r := t.restart
	t.restart = ""
	return r
}

func (t *tailReader) Read(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.restart != "" {
		return 0, io.EOF // a parser reading on after its end
	}
	for {
		n, err := t.f.Read(p)
		if n > 0 {
			t.off += int64(n)
			return n, nil
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if what := t.moved(); what != "" {
			t.restart, t.off = what, 0
			return 0, io.EOF
		}
		t.mu.Unlock()
		select {
		case <-t.stop:
			t.mu.Lock()
			return 0, io.EOF
		case <-time.After(t.every):
		}
		t.mu.Lock()
	}
}

// moved reopens the file when it was rotated and goes back to its start
// when it was truncated; it says which ("" when neither).
func (t *tailReader) moved() string {
	if t.path == "" {
		return ""
	}
	st, err := os.Stat(t.path)
	if err != nil {
		return "" // between the rename and the new file: wait
	}
	cur, err := t.f.Stat()
	if err != nil {
		return ""
	}
	if !os.SameFile(st, cur) {
		nf, err := os.Open(t.path)
		if err != nil {
			return ""
		}
		t.f.Close()
		t.f = nf
		return "rotated"
	}
	if st.Size() < t.off {
		if _, err := t.f.Seek(0, io.SeekStart); err != nil {
			return ""
		}
		return "truncated"
	}
	return ""
}
