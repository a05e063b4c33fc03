package tui

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// A crash-looping container's restart cycles: each run from its start
// to its death, and the back-off before the next, drawn on the timeline
// (a flow's stages end at the first start). The runs come from the PLEG's
// lines, which name the container by its runtime ID, as the loader reads
// them; a container's IDs, in order, are its runs.

// run is one container run, by runtime ID: when the PLEG first saw it
// started and died (zero: not seen).
type run struct {
	start, died time.Time
}

var runtimeID = regexp.MustCompile(`[0-9a-f]{64}`)

// noteRun records a PLEG line about a container's start or death, in
// any of the kubelet's forms: "SyncLoop (PLEG): event for pod" with
// event={…"Type":"ContainerDied","Data":ID} (and its ≤1.20 printf form),
// and GenericPLEG's containerID with newState running or exited.
func noteRun(runs map[string]run, rec *parser.Record) {
	if !strings.Contains(rec.Msg, "PLEG") {
		return
	}
	started, died := false, false
	text := rec.Msg
	if ev := rec.Str("event"); ev != "" {
		text = ev
	}
	switch {
	case strings.Contains(text, "ContainerStarted"):
		started = true
	case strings.Contains(text, "ContainerDied"):
		died = true
	}
	if cid := rec.Str("containerID"); cid != "" {
		text = cid
		switch rec.Str("newState") {
		case "running":
			started = true
		case "exited":
			died = true
		}
	}
	if !started && !died {
		return
	}
	id := runtimeID.FindString(text)
	if id == "" {
		return
	}
	r, ok := runs[id]
	if !ok {
		id = strings.Clone(id) // the record's text is the parser's
	}
	if started && r.start.IsZero() {
		r.start = rec.Time
	}
	if died && r.died.IsZero() {
		r.died = rec.Time
	}
	runs[id] = r
}

// cycleSpan is a bar on the timeline: a run or a back-off.
type cycleSpan struct {
	from, to time.Time
	backOff  bool
}

// cycles are a container's runs and the back-offs between them, in
// time order, up to end; nil when it did not restart or its runs were not
// seen.
func cycles(c *timeline.Container, runs map[string]run, end time.Time) []cycleSpan {
	if len(c.IDs) < 2 && c.Restarts == 0 {
		return nil
	}
	var rs []run
	for _, id := range c.IDs {
		r, ok := runs[id]
		if !ok {
			r, ok = runByPrefix(runs, id)
		}
		if ok && !r.start.IsZero() {
			rs = append(rs, r)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].start.Before(rs[j].start) })
	var out []cycleSpan
	for i, r := range rs {
		next := end
		if i+1 < len(rs) {
			next = rs[i+1].start
		}
		if r.died.IsZero() || r.died.After(next) {
			out = append(out, cycleSpan{from: r.start, to: next})
			continue
		}
		out = append(out, cycleSpan{from: r.start, to: r.died})
		if next.After(r.died) {
			out = append(out, cycleSpan{from: r.died, to: next, backOff: true})
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// runByPrefix finds a run by a short ID (the 12 or 13 characters some
// lines give).
func runByPrefix(runs map[string]run, id string) (run, bool) {
	if len(id) < 12 || len(id) >= 64 {
		return run{}, false
	}
	for k, r := range runs {
		if strings.HasPrefix(k, id) {
			return r, true
		}
	}
	return run{}, false
}

// cyclesText says what the restart row shows, for the detail pane.
func cyclesText(c *timeline.Container, sp []cycleSpan) string {
	var parts []string
	n := 0
	for _, s := range sp {
		if s.backOff {
			parts = append(parts, "back-off "+fmtDur(s.to.Sub(s.from)))
			continue
		}
		n++
		parts = append(parts, fmt.Sprintf("run %d %s", n, fmtDur(s.to.Sub(s.from))))
	}
	t := fmt.Sprintf("Container %s: %d restarts, %d back-offs", san(c.Name), c.Restarts, c.BackOffs)
	if c.ExitCode != nil {
		t += fmt.Sprintf(", last exit code %d", *c.ExitCode)
	}
	return t + ": " + strings.Join(parts, ", ")
}
