package cmd

import (
	"bufio"
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/anystr"
	"github.com/podflow/podflow/internal/follow"
	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// LinesPodOptions holds what `podflow lines pod` needs.
type LinesPodOptions struct {
	IO   *IO
	Load LoadOptions

	Name      string
	Paths     []string
	Namespace string
	UID       string
	NoPrefix  bool
	Stage     string
	Since     string // RFC3339, or a duration back from the log's end
	Until     string
	Tail      int    // the last N lines only; 0: all
	Level     string // klog severity letters: "E", "EW" or "E,W"
	Follow    bool   // -f: then the pod's lines as they are appended (watch.go)
}

// NewCmdLinesPod builds `podflow lines pod`.
func NewCmdLinesPod(ioS *IO, runF func(*LinesPodOptions) error) *cobra.Command {
	opts := &LinesPodOptions{IO: ioS}
	cmd := &cobra.Command{
		Use:     "pod NAME [FILE|DIR|-]...",
		Aliases: []string{"pods", "po"},
		Short:   "Print every raw log line that belongs to a pod, in time order",
		Long: `Print every raw log line that belongs to one pod, merged in time order
across all inputs (kubelet and container-runtime logs alike), each
prefixed by input:line: (drop it with --no-prefix). Lines are printed as
written, with terminal control sequences removed.

A line belongs to the pod when it names it (pod="ns/name",
object="ns/name", pods=["ns/name"], JSON {"name":…,"namespace":…}), its
UID (this also covers the name_ns(uid) form of old kubelets), one of its
sandbox IDs or one of its container IDs (which is how containerd and
CRI-O lines are found).

--stage narrows the lines to the time window of one stage: a pod stage
(sandbox, containers, …), a container stage as CONTAINER:STAGE
(api:image), or a bare container stage (image) for the window spanning
that stage in every container. See 'podflow pipeline' for stage ids.

--since and --until bound the lines by time (RFC3339, or a duration back
from the end of the log, as in 'get pods'); --level keeps the lines of
the klog severities given (E, W, I, F; "E,W" for both); --tail N prints
only the last N lines of what the other filters keep.

NAME is matched as in 'podflow describe pod'.

-f (--follow) goes on, as stern and kubectl logs -f do: after the lines
the files hold, it prints the pod's lines as they are appended (files
followed as tail -F follows them: rotated or copy-truncated files are
read on from their new start), until Ctrl-C (exit status 0). A line is
the pod's by the names and IDs known when the files were first read.`,
		Example: `  podflow lines pod web-7d9f8c6b5-x2kqp kubelet.log
  podflow lines pod payments kubelet.log containerd.log --stage sandbox
  podflow lines pod api ./kind-logs/ --stage api:image --no-prefix
  podflow lines pod web-7d9f8c6b5-x2kqp -f /var/log/kubelet.log   # then new lines as they come; Ctrl-C ends
  podflow lines pod web ./kind-logs/node1/kubelet.log ./kind-logs/node1/containerd.log
  podflow lines pod web-7d9f8c6b5-x2kqp kubelet.log --level E,W      # errors and warnings
  podflow lines pod web-7d9f8c6b5-x2kqp kubelet.log --since 2m --tail 20
  podflow lines pod web-7d9f8c6b5-x2kqp kubelet.log --since 2026-11-22T06:08:00Z
  podflow lines pod web-7d9f8c6b5-x2kqp --node kind-worker --pattern web-7d9f8c6b5-x2kqp
  sudo podflow lines pod web-7d9f8c6b5-x2kqp --journal --since 1h`,
		RunE: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("give the pod NAME, then the inputs\nSee '%s --help'.", c.CommandPath())
			}
			opts.Name, opts.Paths = args[0], args[1:]
			if opts.Stage != "" {
				id := opts.Stage
				if _, st, ok := strings.Cut(id, ":"); ok {
					id = st
				}
				if _, ok := timeline.Reference.StageDefByID(id); !ok {
					return usageErrorf("--stage %q: unknown stage (see 'podflow pipeline')", opts.Stage)
				}
			}
			if _, err := levelSet(opts.Level); err != nil {
				return err
			}
			if opts.Tail < 0 {
				return usageErrorf("--tail %d: want a count of lines, 0 or more", opts.Tail)
			}
			// --since and --until are this command's own; they also bound
			// what a live node sends.
			opts.Load.live.Since, opts.Load.live.Until = opts.Since, opts.Until
			if runF != nil {
				return runF(opts)
			}
			return linesPodRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Namespace, "namespace", "n", "", "the pod's namespace (default: any)")
	f.StringVar(&opts.UID, "uid", "", "the pod's UID, to pick one of several incarnations")
	f.BoolVar(&opts.NoPrefix, "no-prefix", false, "print the lines without the input:line: prefix")
	f.StringVar(&opts.Stage, "stage", "", "only lines within the time window of this stage (STAGE or CONTAINER:STAGE)")
	f.StringVar(&opts.Since, "since", "", "only lines from this time on (RFC3339, or a duration back from the log's end: 5m)")
	f.StringVar(&opts.Until, "until", "", "only lines up to this time (RFC3339, or a duration back from the log's end)")
	f.IntVar(&opts.Tail, "tail", 0, "print only the last N lines (0: all)")
	f.StringVar(&opts.Level, "level", "", "only lines of these klog severities: E, W, I, F (E,W: errors and warnings)")
	f.BoolVarP(&opts.Follow, "follow", "f", false, "then print the pod's lines as they are appended to the files (until Ctrl-C)")
	addLoadFlags(cmd, &opts.Load)
	_ = cmd.RegisterFlagCompletionFunc("stage", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		var ids []string
		for _, s := range timeline.Reference.Stages {
			ids = append(ids, s.ID)
		}
		return ids, cobra.ShellCompDirectiveNoFileComp
	})
	return cmd
}

// podNeedles are the byte strings whose presence ties a raw line to f.
// With --redact, f's names are masked: unmask (Redactor.Reveal) gives
// them back as the raw lines have them.
func podNeedles(f *timeline.Flow, unmask func(string) string) [][]byte {
	var n [][]byte
	add := func(s string) {
		if s != "" {
			n = append(n, []byte(unmask(s)))
		}
	}
	ns, name := f.Pod.Namespace, f.Pod.Name
	if ns != "" {
		add(`"` + ns + "/" + name + `"`)
		add(`"name":"` + name + `","namespace":"` + ns + `"`)
		add(`"namespace":"` + ns + `","name":"` + name + `"`)
		add(name + "_" + ns + "(")
		// atomic_writer.go's printf form: "pod ns/name volume v: …".
		add("pod " + ns + "/" + name + " ")
	} else {
		add(`"` + name + `"`)
	}
	// The CPU and memory managers name the pod by its name alone
	// (podName="name", "podName":"name" in JSON), beside no UID.
	add(`podName="` + name + `"`)
	add(`"podName":"` + name + `"`)
	add(f.Pod.UID)
	for _, s := range f.Sandboxes {
		add(s)
	}
	for _, c := range f.Containers {
		for _, id := range c.IDs {
			add(id)
		}
	}
	return n
}

// stageWindow is the time window of --stage in f.
func stageWindow(f *timeline.Flow, spec string) (from, to time.Time, err error) {
	cname, id, isContainer := strings.Cut(spec, ":")
	if !isContainer {
		id, cname = spec, ""
	}
	var hits []timeline.Stage
	for _, s := range f.Stages {
		if !isContainer && s.ID == id {
			hits = append(hits, s)
		}
	}
	if len(hits) == 0 {
		for _, c := range f.Containers {
			if isContainer && c.Name != cname {
				continue
			}
			for _, s := range c.Stages {
				if s.ID == id {
					hits = append(hits, s)
				}
			}
		}
	}
	for _, s := range hits {
		if s.Start == nil {
			continue
		}
		end := stageEnd(f, &s)
		if from.IsZero() || s.Start.Before(from) {
			from = *s.Start
		}
		if end.After(to) {
			to = end
		}
	}
	if from.IsZero() {
		return from, to, usageErrorf("--stage %q: pod %s has no such stage that began", spec, sanitize.OneLine(f.Pod.Key()))
	}
	return from, to, nil
}

func linesPodRun(o *LinesPodOptions) error {
	ioS := o.IO
	live, err := o.Load.live.live(o.Paths)
	if err != nil {
		return err
	}
	if o.Follow {
		if err := followPaths("-f", o.Paths, o.Load.live, false); err != nil {
			return err
		}
	}
	var liveNames map[string]string
	paths, cleanup := o.Paths, func() {}
	if live {
		// Read twice, the node's answer is kept in files first.
		if paths, liveNames, cleanup, err = o.Load.live.spoolLive(ioS); err != nil {
			return err
		}
		o.Load.live = liveOptions{}
	}
	defer cleanup()
	loc, err := o.Load.zone()
	if err != nil {
		return err
	}
	// Standard input is read once: a second reader beside the load keeps
	// the lines that may be the pod's as they go by (keep.go).
	var pass *podLinesPass
	if !live && (contains(paths, "-") || len(paths) == 0 && !ioS.InTTY) {
		pass = startPodLinesPass(ioS.In, o.Name, o.UID, ioS.Redact != nil, parser.Options{Year: o.Load.Year, Location: loc})
		in := ioS.In
		ioS.In = pass.load
		defer func() { ioS.In = in }()
	}
	// Only the pod asked for needs its whole flow (IDs, stages), as in
	// describe pod.
	o.Load.trim = describeTrim(ioS, o.Name, o.UID)
	o.Load.oneFlow = true
	a, err := analyze(ioS, paths, o.Load)
	var kept []parser.Kept
	if pass != nil {
		var lost int64
		if kept, lost = pass.wait(); lost > 0 && err == nil {
			(&Analysis{Warnings: []error{keptLost(lost)}}).warn(ioS)
		}
	}
	if err != nil {
		for spool, name := range liveNames {
			err = &ExitError{Code: exitCode(err), Err: errors.New(strings.ReplaceAll(err.Error(), spool, name))}
		}
		return err
	}
	f, err := resolvePod(ioS, a.Flows, podQuery{o.Name, o.Namespace, o.UID, "", "only that node's files as inputs"})
	if err != nil {
		return err
	}
	redact.Flow(a.redact, f)
	var from, to time.Time
	if o.Stage != "" {
		if from, to, err = stageWindow(f, o.Stage); err != nil {
			return err
		}
	}
	since, err := timeArg("since", o.Since, a.Flows.Summary.End)
	if err != nil {
		return err
	}
	until, err := timeArg("until", o.Until, a.Flows.Summary.End)
	if err != nil {
		return err
	}
	levels, _ := levelSet(o.Level)
	w := bufio.NewWriter(ioS.Out)
	defer w.Flush()
	rename := func(name string) string {
		if n, ok := liveNames[name]; ok {
			return n
		}
		return name
	}
	plo := podLinesOptions{year: o.Load.Year, loc: loc, from: from, to: to, redact: a.redact, rename: rename, noPrefix: o.NoPrefix, stream: kept,
		since: since, until: until, levels: levels, tail: o.Tail}
	var ends []follow.Input
	if o.Follow {
		plo.ends = &ends
	}
	writePodLines(w, a.Sources, f, plo)
	if o.Follow {
		w.Flush()
		return followPodLines(ioS, ends, f, plo)
	}
	return nil
}

// eachPodLine gives line each line of the record raw at pos as lines pod
// prints it: input:line: (unless --no-prefix) and the line, cleaned of
// terminal control sequences, masked under --redact; the first pass
// and the follow that goes on from it (followPodLines) print alike.
func eachPodLine(pos parser.Position, raw []byte, o podLinesOptions, line func(string)) {
	raw = o.redact.Bytes(raw)
	name := pos.Input
	if o.rename != nil {
		name = o.rename(name)
	}
	name = o.redact.Text(name)
	for i, l := range bytes.Split(raw, []byte("\n")) {
		s := oneLineKeepSpace(string(l))
		if !o.noPrefix {
			s = oneLineKeepSpace(name) + ":" + strconv.FormatInt(pos.Line+int64(i), 10) + ":" + s
		}
		line(s)
	}
}

// oneLineKeepSpace sanitizes one raw line without folding its spaces.
func oneLineKeepSpace(s string) string {
	return sanitize.Sanitize(strings.TrimSuffix(s, "\r"))
}

// podLinesOptions says which of a pod's lines writePodLines prints, and how.
type podLinesOptions struct {
	year     int
	loc      *time.Location
	from, to time.Time // the stage's window (--stage); from zero: every line
	redact   *redact.Redactor
	rename   func(input string) string // the name printed for an input; nil: as read
	noPrefix bool
	stream   []parser.Kept // the lines kept of standard input, read once (podLinesPass)
	// since, until bound the lines by time (zero: unbounded); levels
	// keeps only the severities it holds (nil: all); tail keeps only the
	// last tail lines printed (0: all).
	since, until time.Time
	levels       map[parser.Severity]bool
	tail         int
	ends         *[]follow.Input // when set, where the files' reading ended (lines pod -f reads on from there)
}

// writePodLines writes every raw line of srcs that names f (its names,
// UID, sandboxes or containers), prefixed with its input and line number,
// as lines pod prints them and the TUI shows them. Only a record's time
// and place are read: its strings may be the parser's (Borrow), and cost
// no allocation. The parser's workers look for the pod in each record's
// text and decode only those that name it, the few a pod has among a
// large log's lines; the raw lines are then matched again. Under --redact
// the needles are the pod's unmasked names, and only the lines matched
// are masked, after the match and before they are printed.
//
// Standard input, read once, gives the lines kept as they went by
// (o.stream), merged with the files' in time order.
func writePodLines(w *bufio.Writer, srcs []parser.Source, f *timeline.Flow, o podLinesOptions) {
	match := anystr.New(podNeedles(f, o.redact.Reveal))
	var files []parser.Source
	for _, s := range srcs {
		if !s.IsStdin() {
			files = append(files, s)
		}
	}
	kept := o.stream
	raws := map[string]*parser.RawReader{}
	for _, s := range files {
		raws[s.Name] = parser.NewRawReader(s)
	}
	defer func() {
		for _, r := range raws {
			r.Close()
		}
	}()
	out := lineSink{w: w, tail: o.tail}
	defer out.flush()
	emit := func(pos parser.Position, t time.Time, sev parser.Severity, raw []byte) {
		if !o.from.IsZero() && (t.Before(o.from) || t.After(o.to)) || !match.Match(raw) {
			return
		}
		if !o.since.IsZero() && t.Before(o.since) || !o.until.IsZero() && t.After(o.until) {
			return
		}
		if o.levels != nil {
			if sev == severityNotRead {
				sev = severityOf(raw, o.year, o.loc)
			}
			if !o.levels[sev] {
				return
			}
		}
		eachPodLine(pos, raw, o, out.line)
	}
	var mr *parser.MultiReader
	if len(files) > 0 {
		mr = parser.NewMultiReader(files, parser.Options{Year: o.year, Location: o.loc, Borrow: true, Match: match.Match})
		defer mr.Close()
	}
	for mr != nil {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		for len(kept) > 0 && kept[0].Time.Before(rec.Time) {
			emit(kept[0].Pos, kept[0].Time, severityNotRead, kept[0].Raw)
			kept = kept[1:]
		}
		rr := raws[rec.Pos.Input]
		if rr == nil {
			continue
		}
		if raw, err := rr.Read(rec.Pos); err == nil {
			emit(rec.Pos, rec.Time, rec.Severity, raw)
		}
	}
	for _, k := range kept {
		emit(k.Pos, k.Time, severityNotRead, k.Raw)
	}
	if o.ends != nil && mr != nil {
		*o.ends = follow.Ends(mr.SourceStats())
	}
}
