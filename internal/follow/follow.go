package follow

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/podflow/podflow/parser"
)

// Input is where a first pass stopped reading one input: it is followed
// from there.
type Input struct {
	Source parser.Source
	Bytes  int64     // bytes read (the offset to read on from)
	Lines  int64     // lines read
	Last   time.Time // the time of its last line, for the year of what follows
}

// Ends are the inputs of a first pass as they ended (MultiReader's
// SourceStats).
func Ends(stats []parser.SourceStats) []Input {
	var out []Input
	for _, ss := range stats {
		out = append(out, Input{Source: ss.Source, Bytes: ss.Stats.Bytes, Lines: ss.Stats.Lines, Last: ss.Stats.LastTime})
	}
	return out
}

// Followable reports whether an input can be followed: a plain file
// (standard input was read to its end by the first pass, and a
// compressed file does not grow).
func Followable(s parser.Source) bool {
	return !s.IsStdin() && s.Path != "" && !compressed(s.Path)
}

// Options say how to follow.
type Options struct {
	// Parser is the parser's options for what is read on (Year, Location,
	// Want, Rescue, Match, Quoted, Borrow); the input's name, node,
	// component and positions are set for each input.
	Parser parser.Options
	Poll   time.Duration // how often a file at its end is looked at (0: DefaultPoll)
	Stop   <-chan struct{}
	// Record is called with each record read; Idle when an input has
	// given all it holds for now (its last record was given to Record);
	// Note with what is worth telling (a file rotated, lines skipped).
	// The calls are made one at a time, from the follow's goroutines.
	Record func(rec *parser.Record, raw []byte)
	Idle   func()
	Note   func(error)
	// Clock, when set, is told the time of every line read.
	Clock *Clock
	// Raw: Record is given each record's text as written (its lines,
	// read back by position; nil when the file was cut under it), for a
	// view that prints lines.
	Raw bool
}

// Run follows the inputs that can be followed (Followable) until Stop is
// closed. A file that starts over (rotated, copy-truncated) is read from
// its new start into the same flows, as the rotated files read together
// would be: it continues the log. Its records not later than the last line
// read of it are the log written again (a dump made anew), not more of it:
// they are skipped, and counted in a note.
func Run(inputs []Input, o Options) {
	var mu sync.Mutex // the calls, one at a time
	call := func(f func()) { mu.Lock(); f(); mu.Unlock() }
	var wg sync.WaitGroup
	for _, in := range inputs {
		if !Followable(in.Source) {
			continue
		}
		t, err := Open(in.Source.Path, in.Bytes, in.Source.Info, o.Poll, o.Stop)
		if err != nil {
			if o.Note != nil {
				call(func() { o.Note(fmt.Errorf("%s: not followed: %w", in.Source.Name, err)) })
			}
			continue
		}
		popts := o.Parser
		popts.Name, popts.Node, popts.Component = in.Source.Name, in.Source.Node, in.Source.Component
		popts.NoPrescan, popts.StartOffset, popts.StartLine = true, in.Bytes, in.Lines
		popts.Workers = 1
		if popts.Year == 0 && !in.Last.IsZero() {
			loc := popts.Location
			if loc == nil {
				loc = time.UTC
			}
			popts.Year = in.Last.In(loc).Year()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer t.Close()
			followOne(t, in, popts, o, call)
		}()
	}
	wg.Wait()
}

// followOne reads one file on, and again from its start each time it
// starts over, until stopped.
func followOne(t *File, in Input, popts parser.Options, o Options, call func(func())) {
	last := in.Last // the last line's time read of this file
	var floor time.Time
	var skipped int64
	for {
		rd := parser.NewReader(t, popts)
		for {
			rec, err := rd.Next()
			if errors.Is(err, parser.ErrIdle) {
				lt := rd.Stats().LastTime
				call(func() {
					if skipped > 0 && o.Note != nil {
						o.Note(fmt.Errorf("%s: %d records not later than what was read of it before it started over were skipped (the log written again)", in.Source.Name, skipped))
						skipped = 0
					}
					if o.Clock != nil {
						o.Clock.Saw(lt)
					}
					if o.Idle != nil {
						o.Idle()
					}
				})
				continue
			}
			if err != nil {
				if !errors.Is(err, io.EOF) && o.Note != nil {
					call(func() { o.Note(fmt.Errorf("%s: %w", in.Source.Name, err)) })
				}
				break
			}
			if !rec.Time.IsZero() {
				if !floor.IsZero() && !rec.Time.After(floor) {
					skipped++
					continue
				}
				if rec.Time.After(last) {
					last = rec.Time
				}
			}
			var raw []byte
			if o.Raw {
				buf := make([]byte, rec.Pos.Length)
				if n, err := t.ReadAt(buf, rec.Pos.Offset); err == nil || n == len(buf) {
					raw = buf
				}
			}
			call(func() {
				if o.Clock != nil {
					o.Clock.Saw(rec.Time)
				}
				if o.Record != nil {
					o.Record(rec, raw)
				}
			})
		}
		what := t.Restart()
		if what == "" {
			return // stopped, or a read error (noted)
		}
		floor = last
		if o.Note != nil {
			call(func() { o.Note(fmt.Errorf("%s was %s: reading it from its new start", in.Source.Name, what)) })
		}
		// Positions are the new content's, from its start.
		popts.StartOffset, popts.StartLine = 0, 0
	}
}

// Clock is the present of a followed log, in the log's own time: the
// latest line's time, moved on by the wall clock since that line was read.
// While the writer is quiet the present moves on, so a stage still under
// way goes on running (timeline's Builder.Now); it is not the reader's
// wall clock, which a log written in another zone (klog writes none) or
// on a machine whose clock is off would place elsewhere.
type Clock struct {
	mu   sync.Mutex
	last time.Time // the latest line's time
	at   time.Time // when it was read (wall clock)
	now  func() time.Time
}

// NewClock starts a clock at last, the time of the last line of a first
// pass. now is the wall clock (nil: time.Now).
func NewClock(last time.Time, now func() time.Time) *Clock {
	if now == nil {
		now = time.Now
	}
	return &Clock{last: last, at: now(), now: now}
}

// Saw moves the clock to a line of time t, read now.
func (c *Clock) Saw(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.last) {
		c.last, c.at = t, c.now()
	}
}

// Present is the followed log's present; zero before any line had a time.
func (c *Clock) Present() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last.IsZero() {
		return time.Time{}
	}
	return c.last.Add(c.now().Sub(c.at))
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
