package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/anystr"
	"github.com/podflow/podflow/parser"
)

// Standard input is read once, and nothing of it is written to disk: a
// view that reads lines back after the load keeps, as they go by, the
// lines it may show (LoadOptions.keep). A view of one pod keeps the lines
// that may be that pod's (podKeeper), so the memory goes with that pod's
// lines, not with the input; a view of evidence (describe, report) keeps
// every line the engine reads too, while they fit in half of
// parser.KeepBytes: past it, an evidence line that does not name its pod
// is shown by its summary, and a note says so.

// streamKeeper is what a view keeps of standard input.
type streamKeeper struct {
	pod *podKeeper // the pod's lines; nil: none in particular
	all bool       // every line while they fit

	input   string // standard input's name, for what is said
	allUsed int    // bytes kept as every line
	skipped int64  // lines every line no longer kept
	lost    int64  // lines of the pod that could not be kept
}

// keepEvery is the keeper of a view of every pod's or a node's evidence.
func keepEvery() *streamKeeper { return &streamKeeper{all: true} }

// keepPod is the keeper of a view of the pod name or uid: its lines, and
// with all every line while they fit. With --redact the name may be a
// mask, which no raw line holds: every line is kept then.
func keepPod(ioS *IO, name, uid string, all bool) *streamKeeper {
	if ioS.Redact != nil {
		return keepEvery()
	}
	return &streamKeeper{pod: newPodKeeper(name, uid), all: all}
}

func (k *streamKeeper) keep(mr *parser.MultiReader, rec *parser.Record, raw []byte) {
	k.input = rec.Pos.Input
	if k.pod != nil && k.pod.keep(mr, rec, raw, false, &k.lost) {
		return
	}
	if !k.all {
		return
	}
	if k.allUsed+len(raw) > parser.KeepBytes/2 || !mr.Keep(rec) {
		k.skipped++
		return
	}
	k.allUsed += len(raw)
}

// problems are what is said of what k could not keep: lines of the pod
// lost (warnings), evidence lines past the room for every line (notes).
func (k *streamKeeper) problems() (warnings, notes []error) {
	if k == nil {
		return nil, nil
	}
	name := k.input
	if name == "-" {
		name = "standard input"
	}
	if k.lost > 0 {
		warnings = append(warnings, keptLost(k.lost))
	}
	if k.skipped > 0 {
		notes = append(notes, fmt.Errorf("%s: read once, and kept in memory for reading back up to %d MiB of its lines (%d more were not kept): an evidence line among those is shown by its summary; name a file to see every line whole", name, parser.KeepBytes>>21, k.skipped))
	}
	return warnings, notes
}

// heldBytes bounds the lines a podKeeper holds that name an ID not yet
// tied to the pod: the kubelet names a pod's UID, or the runtime a
// container's ID, a few lines before a line names both.
const heldBytes = 8 << 20

// podKeeper keeps the raw lines of standard input that may belong to the
// pod a view names: those that name it (NAME, or --uid) and those that
// name a pod UID or a sandbox or container ID a line it kept named, as the
// engine ties them to the pod. A line naming an ID no kept line named yet
// is held, heldBytes of the latest at most, and kept once one does. What
// the view shows is then matched against the pod's flow (podNeedles), as
// for a file.
type podKeeper struct {
	needles [][]byte
	seen    map[string]bool
	match   *anystr.Matcher
	held    []heldLine
	bytes   int    // of held
	lost    *int64 // the streamKeeper's
}

// heldLine is a line held by a podKeeper; raw is nil once kept.
type heldLine struct {
	pos parser.Position
	t   time.Time
	seq int64 // its place in the merge (parser.MultiReader.Returned)
	raw []byte
}

// newPodKeeper returns the keeper of the pod name (as describe pod and
// lines pod take it: pod/NAME, NS/NAME, a prefix) or uid.
func newPodKeeper(name, uid string) *podKeeper {
	name = strings.TrimPrefix(strings.TrimPrefix(name, "pods/"), "pod/")
	if i := strings.IndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	k := &podKeeper{seen: map[string]bool{}}
	for _, s := range []string{name, uid} {
		if s != "" {
			k.needles = append(k.needles, []byte(s))
			k.seen[s] = true
		}
	}
	k.match = anystr.New(k.needles)
	return k
}

// keep keeps rec when it may be the pod's (hit: its text, a hard wrap
// undone, named the pod), and holds it when it names an ID; it reports
// whether it kept it, and counts in lost a line of the pod it could not
// keep.
func (k *podKeeper) keep(mr *parser.MultiReader, rec *parser.Record, raw []byte, hit bool, lost *int64) bool {
	if hit || k.match.Match(raw) {
		if !mr.Keep(rec) {
			*lost++
		}
		k.lost = lost
		k.learn(mr, raw)
		return true
	}
	if !hasID(raw) {
		return false
	}
	k.held = append(k.held, heldLine{pos: rec.Pos, t: rec.Time, seq: mr.Returned(), raw: bytes.Clone(raw)})
	k.bytes += len(raw)
	for k.bytes > heldBytes {
		k.bytes -= len(k.held[0].raw)
		k.held[0] = heldLine{}
		k.held = k.held[1:]
	}
	return false
}

// learn adds the IDs raw names to the needles, and keeps the held lines
// that name them (and those that name what these name).
func (k *podKeeper) learn(mr *parser.MultiReader, raw []byte) {
	var fresh [][]byte
	for _, id := range idTokens(raw) {
		if !k.seen[string(id)] {
			k.seen[string(id)] = true
			id = bytes.Clone(id)
			k.needles = append(k.needles, id)
			fresh = append(fresh, id)
		}
	}
	if len(fresh) == 0 {
		return
	}
	k.match = anystr.New(k.needles)
	m := anystr.New(fresh)
	for i := range k.held {
		h := k.held[i]
		if h.raw != nil && m.Match(h.raw) {
			k.held[i].raw = nil
			k.bytes -= len(h.raw)
			if !mr.KeepLines(h.pos, h.t, h.raw, h.seq) {
				*k.lost++
			}
			k.learn(mr, h.raw)
		}
	}
}

// hasID reports whether raw names a UID or an ID (idTokens).
func hasID(raw []byte) bool {
	found := false
	eachID(raw, func([]byte) bool { found = true; return false })
	return found
}

// idTokens returns the words of raw that are pod UIDs (8-4-4-4-12 hex, or
// 32 hex digits for a static pod) or sandbox and container IDs (64 hex
// digits).
func idTokens(raw []byte) [][]byte {
	var ids [][]byte
	eachID(raw, func(id []byte) bool { ids = append(ids, id); return true })
	return ids
}

// eachID calls f with each UID or ID raw names, while f returns true. A
// run of hex digits and dashes is split at its dashes: an ID may follow
// a word that ends in hex letters and a dash (cri-containerd-ID.scope).
func eachID(raw []byte, f func([]byte) bool) {
	for i := 0; i < len(raw); {
		if !isHexOrDash(raw[i]) {
			i++
			continue
		}
		j := i
		for j < len(raw) && isHexOrDash(raw[j]) {
			j++
		}
		if j-i >= 32 && !idsIn(raw[i:j], f) {
			return
		}
		i = j
	}
}

// uuidParts are the lengths of the dash-separated parts of a UID.
var uuidParts = [5]int{8, 4, 4, 4, 12}

// idsIn calls f with the UIDs and IDs in run, hex digits and dashes; it
// reports whether f asked for more.
func idsIn(run []byte, f func([]byte) bool) bool {
	var parts [][]byte
	for p := range bytes.SplitSeq(run, []byte("-")) {
		parts = append(parts, p)
	}
	for k := 0; k < len(parts); k++ {
		if n := len(parts[k]); n == 32 || n == 64 {
			if !f(parts[k]) {
				return false
			}
			continue
		}
		if k+5 <= len(parts) {
			uuid := true
			for m, want := range uuidParts {
				uuid = uuid && len(parts[k+m]) == want
			}
			if uuid {
				start := k // (the dashes before the UID)
				for _, p := range parts[:k] {
					start += len(p)
				}
				if !f(run[start : start+36]) {
					return false
				}
				k += 4
			}
		}
	}
	return true
}

func isHexOrDash(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c == '-'
}

// podLinesPass is lines pod's read of standard input, beside the load's:
// the load reads only the records the engine reads, and lines pod prints
// every line of the pod, so a second reader is given the same bytes as
// they come (a pipe each, fed in turn: nothing is held but what each
// reader buffers) and keeps the lines a second read of a file would find:
// every line while they fit in half of parser.KeepBytes (the engine ties
// some lines to a pod by where they stand, as in a kubectl describe
// paste), and past it those a podKeeper keeps.
type podLinesPass struct {
	load io.Reader // what the load reads as standard input
	feed *io.PipeWriter
	done chan struct{}
	kept []parser.Kept
	lost int64
}

// startPodLinesPass starts the pass of the pod name or uid over in, read
// as writePodLines reads a file.
//
// With all (--redact: the name may be a mask, which no raw line holds)
// every line is kept, parser.KeepBytes of them at most.
func startPodLinesPass(in io.Reader, name, uid string, all bool, opts parser.Options) *podLinesPass {
	loadR, loadW := io.Pipe()
	sideR, sideW := io.Pipe()
	p := &podLinesPass{load: loadR, feed: loadW, done: make(chan struct{})}
	go func() {
		// Each chunk to the load, then to the pass: the first to stop
		// reading (an error, a refused input) stops both where it did.
		buf := make([]byte, 256<<10)
		var err error
		for err == nil {
			var n int
			n, err = in.Read(buf)
			if n > 0 {
				if _, werr := loadW.Write(buf[:n]); werr != nil {
					err = werr
				} else if _, werr := sideW.Write(buf[:n]); werr != nil {
					err = werr
				}
			}
		}
		if err == io.EOF {
			err = nil
		}
		loadW.CloseWithError(err)
		sideW.CloseWithError(err)
	}()
	go func() {
		defer close(p.done)
		defer sideR.Close()
		srcs, _ := parser.Discover([]string{"-"}, sideR)
		k := newPodKeeper(name, uid)
		opts.Borrow, opts.KeepStream = true, true
		every, used := true, 0 // every line, while they fit
		hit := false           // the pod named in the text of the record last matched
		opts.Match = func(text []byte) bool {
			hit = !all && k.match.Match(text)
			return every || all || hit || hasID(text)
		}
		mr := parser.NewMultiReader(srcs, opts)
		defer mr.Close()
		for {
			rec, err := mr.Next()
			if err != nil {
				break
			}
			raw := mr.Raw(rec)
			switch {
			case all:
				if !mr.Keep(rec) {
					p.lost++
				}
			case raw == nil: // (longer than the stream holds)
				if hit {
					p.lost++
				}
			case k.keep(mr, rec, raw, hit, &p.lost):
			case every:
				if used += len(raw); used > parser.KeepBytes/2 || !mr.Keep(rec) {
					every = false
				}
			}
		}
		p.kept = parser.KeptRecords(srcs[0])
	}()
	return p
}

// wait ends the pass (the load has read standard input) and returns the
// lines it kept, and how many of the pod's it could not keep.
func (p *podLinesPass) wait() ([]parser.Kept, int64) {
	p.feed.CloseWithError(errors.New("read")) // (the load stopped early: stop the feed)
	<-p.done
	return p.kept, p.lost
}

// keptLost says that lost lines of a pod, of standard input, could not be
// kept to be shown.
func keptLost(lost int64) error {
	return fmt.Errorf("standard input: read once, and %d lines of the pod could not be kept to show (more than %d MiB of them, or a record longer than a few MiB); name a file to see them", lost, parser.KeepBytes>>20)
}
