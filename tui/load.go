package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	// Every is how often a snapshot of the flows is sent while loading
	// (0: 500ms).
	Every time.Duration
}

// snapshotMsg carries the flows as of some point of the load.
type snapshotMsg struct {
	gen      int // load generation (follow restarts the load)
	flows    *timeline.FlowList
	srcs     []parser.Source
	read     int64 // bytes read so far
	total    int64 // bytes in all inputs; <=0 when unknown (stdin)
	records  int64
	done     bool
	warnings []error
	err      error
}

// loader runs the streaming builder in a goroutine and reports snapshots on
// a channel the model drains with waitFor.
type loader struct {
	opts LoadOptions
	ch   chan tea.Msg
	stop chan struct{}
	once sync.Once
}

func newLoader(o LoadOptions) *loader {
	if o.Every <= 0 {
		o.Every = 500 * time.Millisecond
	}
	return &loader{opts: o, ch: make(chan tea.Msg, 4), stop: make(chan struct{})}
}

// Close stops the loader.
func (l *loader) Close() { l.once.Do(func() { close(l.stop) }) }

// next is the command that waits for the loader's next message.
func (l *loader) next() tea.Cmd {
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

// run loads the inputs, then (with Follow) re-loads them whenever a file
// grows. Standard input is read as it arrives.
func (l *loader) run() {
	srcs, errs := parser.Discover(l.opts.Paths, l.opts.Stdin)
	if len(srcs) == 0 {
		err := errors.Join(errs...)
		if err == nil {
			err = errors.New("no kubelet or container-runtime logs found")
		}
		l.send(snapshotMsg{err: err, done: true})
		return
	}
	gen := 0
	for {
		sizes := statSizes(srcs)
		for i := range srcs {
			if s, ok := sizes[srcs[i].Path]; ok && srcs[i].Path != "" {
				srcs[i].Size = s
			}
		}
		if !l.loadOnce(gen, srcs, errs) {
			return
		}
		if !l.opts.Follow || allStdin(srcs) {
			return
		}
		// Follow: poll for growth, then read everything again. The builder
		// has no snapshot-and-continue API, so this is correct rather than
		// fast.
		for grown := false; !grown; {
			select {
			case <-l.stop:
				return
			case <-time.After(l.opts.Every):
			}
			now := statSizes(srcs)
			for _, s := range srcs {
				if s.Path != "" && now[s.Path] != s.Size {
					grown = true
				}
			}
		}
		gen++
	}
}

func allStdin(srcs []parser.Source) bool {
	for _, s := range srcs {
		if !s.IsStdin() {
			return false
		}
	}
	return true
}

func statSizes(srcs []parser.Source) map[string]int64 {
	out := map[string]int64{}
	for _, s := range srcs {
		if s.Path == "" {
			continue
		}
		if fi, err := os.Stat(s.Path); err == nil {
			out[s.Path] = fi.Size()
		}
	}
	return out
}

// loadOnce reads every source through a fresh builder. A ticker sends a
// snapshot every opts.Every while records arrive (also when the reader is
// blocked on standard input). It returns false when the loader was stopped.
func (l *loader) loadOnce(gen int, srcs []parser.Source, errs []error) bool {
	var total int64
	for _, s := range srcs {
		if s.Size < 0 {
			total = -1
			break
		}
		total += s.Size
	}
	var mu sync.Mutex
	b := timeline.NewBuilder(timeline.Options{Budgets: l.opts.Budgets})
	mr := parser.NewMultiReader(srcs, parser.Options{Year: l.opts.Year, Location: l.opts.Location, Want: b.Want})
	defer mr.Close()
	read := map[string]int64{}
	var records int64
	dirty := false
	snap := func(done bool) snapshotMsg {
		var n int64
		for _, v := range read {
			n += v
		}
		if total > 0 && n > total {
			n = total
		}
		m := snapshotMsg{gen: gen, srcs: srcs, read: n, total: total, records: records, done: done}
		if done {
			m.flows = b.Finish()
			m.warnings = append(append([]error(nil), errs...), mr.Errors()...)
			m.read = total
		} else {
			m.flows = snapshot(b)
		}
		dirty = false
		return m
	}
	finished := make(chan struct{})
	var tickerDone sync.WaitGroup
	tickerDone.Add(1)
	go func() {
		defer tickerDone.Done()
		t := time.NewTicker(l.opts.Every)
		defer t.Stop()
		for {
			select {
			case <-finished:
				return
			case <-l.stop:
				return
			case <-t.C:
				mu.Lock()
				if !dirty {
					mu.Unlock()
					continue
				}
				m := snap(false)
				mu.Unlock()
				if !l.send(m) {
					return
				}
			}
		}
	}()
	stopped := false
	for {
		select {
		case <-l.stop:
			stopped = true
		default:
		}
		if stopped {
			break
		}
		rec, err := mr.Next()
		if err != nil {
			break
		}
		mu.Lock()
		b.Add(rec)
		records++
		if end := rec.Pos.Offset + int64(rec.Pos.Length) + 1; end > read[rec.Pos.Input] {
			read[rec.Pos.Input] = end
		}
		dirty = true
		mu.Unlock()
	}
	close(finished)
	tickerDone.Wait()
	if stopped {
		return false
	}
	mu.Lock()
	m := snap(true)
	mu.Unlock()
	return l.send(m)
}

// snapshot judges the flows built so far without ending the build. The
// builder documents Finish as final; it does not change the builder's
// state in practice (TestSnapshotLeavesBuilderIntact checks this on the
// corpus), and the deep copy keeps the view from sharing slices the
// builder still appends to. A Builder.Snapshot in the engine would make
// this official.
func snapshot(b *timeline.Builder) *timeline.FlowList {
	fl := b.Finish()
	data, err := json.Marshal(fl)
	if err != nil {
		return &timeline.FlowList{}
	}
	out := &timeline.FlowList{}
	if err := json.Unmarshal(data, out); err != nil {
		return &timeline.FlowList{}
	}
	return out
}

// rawReader reads evidence lines back from the inputs by position.
type rawReader struct{ srcs []parser.Source }

func (r rawReader) read(ev timeline.Evidence) ([]byte, error) {
	for _, s := range r.srcs {
		if s.Name == ev.Input {
			return parser.ReadRaw(s, parser.Position{Input: ev.Input, Line: ev.Line, Offset: ev.Offset, Length: ev.Length})
		}
	}
	return nil, fmt.Errorf("%s: not among the inputs", ev.Input)
}
