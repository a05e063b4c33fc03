package cmd

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
	"github.com/podflow/podflow/tui"
	"github.com/spf13/cobra"
)

// TUIOptions holds what `podflow tui` needs.
type TUIOptions struct {
	IO    *IO
	Paths []string
	Load  LoadOptions

	Follow bool
	Replay bool
	Speed  string // "20x" or "20"
	Color  string // auto, always, never

	speed float64
}

// NewCmdTUI builds `podflow tui`. runF, when set, replaces tuiRun.
func NewCmdTUI(ioS *IO, runF func(*TUIOptions) error) *cobra.Command {
	opts := &TUIOptions{IO: ioS, Speed: "20x", Color: "auto"}
	c := &cobra.Command{
		Use:   "tui FILE|DIR|- ...",
		Short: "Browse pod flows in an interactive timeline",
		Long: `Open kubelet logs in an interactive timeline: a pod list, the selected pod's
stages on a shared time axis (bars to scale, waiting gaps dotted, the stall
marked with its reason), its diagnosis and evidence, the raw log lines of a
stage (read back from the input by position), and a node view with node
findings (PLEG, kubelet restarts).

Inputs load in the background; the first pods show while the rest loads.
--replay plays the log back in its own time (--speed 20x by default); -f
follows growing files (and standard input as it arrives).

Keys: one key means one thing on every screen. j/k or arrows move, g/G
top/bottom, space/b page down/up, tab switches pane, enter opens what is
selected (a pod: its describe page; a stage: its raw lines), esc goes
back, q closes (a page; on the pod list it quits); on the selected pod d
describes it (as 'podflow describe pod'), l shows all its lines (as
'podflow lines pod'), y its YAML (y again: JSON), o its node (o again:
the next node); +/- zoom and H/L pan the time axis, s sort, / searches
(filters the pod list; on a page, n and N go to the next and previous
match), v steps through the verdicts that occur, p/./,/</> replay, ? help.
The mouse wheel scrolls. NO_COLOR
turns every style off.
` + liveHelp + `
With -f, a live node is asked again every 2 seconds for what came since
(the node log query does not stream), and --journal runs journalctl -f.`,
		Example: `  podflow tui kubelet.log
  podflow tui --replay --speed 50x ./kind-logs/
  journalctl -u kubelet -f | podflow tui -f -
  podflow tui -f --node kind-worker            # a live node, asked again every 2s
  sudo podflow tui -f --journal                # on the node itself`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 && opts.Load.live.Node == "" && !opts.Load.live.Journal {
				return usageErrorf("give at least one FILE, DIR or - for standard input\nSee '%s --help'.", c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			opts.Load.live.Follow = opts.Follow
			s, err := parseSpeed(opts.Speed)
			if err != nil {
				return err
			}
			opts.speed = s
			if c.Flags().Changed("speed") && !opts.Replay {
				return usageErrorf("--speed needs --replay")
			}
			switch opts.Color {
			case "auto", "always", "never":
			default:
				return usageErrorf("--color %q: want auto, always or never", opts.Color)
			}
			if runF != nil {
				return runF(opts)
			}
			return tuiRun(opts)
		},
	}
	addLoadFlags(c, &opts.Load)
	c.Flags().BoolVarP(&opts.Follow, "follow", "f", false, "follow growing files (and standard input) and update the pods live")
	c.Flags().BoolVar(&opts.Replay, "replay", false, "play the log back in its own time")
	c.Flags().StringVar(&opts.Speed, "speed", opts.Speed, "replay speed, e.g. 20x (log seconds per second)")
	c.Flags().StringVar(&opts.Color, "color", opts.Color, "colour: auto, always or never (NO_COLOR also turns it off)")
	return c
}

func parseSpeed(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "x"), 64)
	if err != nil || v <= 0 {
		return 0, usageErrorf("--speed %q: want a positive factor such as 20x", s)
	}
	return v, nil
}

func tuiRun(opts *TUIOptions) error {
	ioS := opts.IO
	budgets, err := opts.Load.budgets()
	if err != nil {
		return err
	}
	loc, err := opts.Load.zone()
	if err != nil {
		return err
	}
	// The terminal is the TUI's; colour follows --color and NO_COLOR only.
	color := true
	switch {
	case opts.Color == "never":
		color = false
	case opts.Color == "auto" && (ioS.Getenv("NO_COLOR") != "" || ioS.Getenv("TERM") == "dumb"):
		color = false
	}
	stdin := ioS.In
	live, err := opts.Load.live.live(opts.Paths)
	if err != nil {
		return err
	}
	var liveSrcs []parser.Source
	if live {
		// Opened before the screen, so that a node that refuses is an
		// error on the terminal (exit 2) that says what to enable.
		var notes []error
		if liveSrcs, notes, err = opts.Load.live.liveSources(context.Background(), ioS); err != nil {
			return err
		}
		(&Analysis{Notes: notes}).warn(ioS)
	}
	to := tuiOptions(opts, stdin, loc, budgets, color)
	if live {
		to.Load.Discover = func([]string, io.Reader) ([]parser.Source, []error) { return liveSrcs, nil }
	}
	m := tui.New(to)
	popts := []tea.ProgramOption{tea.WithOutput(ioS.RawOut())}
	// When standard input carries the logs, bubbletea reads keys from the
	// controlling terminal.
	// Inputs that cannot be read are reported before the screen opens, as
	// the other commands report them (exit 2); a load that takes longer
	// shows its progress on the screen.
	if err := m.Preload(2 * time.Second); err != nil {
		return inputError(err)
	}
	p := tea.NewProgram(m, popts...)
	final, err := p.Run()
	if err != nil {
		return &ExitError{Code: ExitInternal, Err: err}
	}
	if fm, ok := final.(tui.Model); ok {
		if e := fm.Err(); e != nil {
			return inputError(e)
		}
		(&Analysis{Warnings: fm.Warnings(), Notes: fm.Notes(), redact: ioS.Redact}).warn(ioS)
	}
	return nil
}

// tuiOptions are the TUI's options for opts, with the CLI's own renderers
// for the pages of one pod.
func tuiOptions(opts *TUIOptions, stdin io.Reader, loc *time.Location, budgets map[string]time.Duration, color bool) tui.Options {
	ioS := opts.IO
	return tui.Options{
		Load: tui.LoadOptions{
			Paths: opts.Paths, Stdin: stdin, Year: opts.Load.Year, Location: loc,
			Budgets: budgets, Follow: opts.Follow, MaxFlows: opts.Load.MaxPods,
			Discover: func(paths []string, stdin io.Reader) ([]parser.Source, []error) {
				ok, bad := ioS.checkPaths(paths)
				var srcs []parser.Source
				var errs []error
				if len(ok) > 0 {
					srcs, errs = parser.Discover(ok, stdin)
				}
				// Standard input is read once: the raw lines the views
				// show are kept as they go by, in memory.
				parser.KeepEvery(srcs)
				return srcs, append(bad, append(errs, emptyDirs(ok, srcs)...)...)
			},
			Judge: tuiJudge,
		},
		Color:    color,
		Redact:   ioS.Redact,
		Replay:   opts.Replay,
		Speed:    opts.speed,
		Describe: tuiDescribe(ioS),
		Lines:    tuiLines(ioS, opts.Load.Year, loc),
		Object:   tuiObject,
	}
}

// tuiJudge judges the inputs of the TUI's first pass as Analyze judges
// them for every other command: an input that gave nothing is a warning,
// and when none gave anything the load stops with all of them.
func tuiJudge(stats []parser.SourceStats, found, read []error) ([]error, error) {
	var warnings []error
	good := 0
	for _, ss := range stats {
		switch {
		case ss.Err != nil && ss.Stats.Records+ss.Stats.Filtered == 0: // among read
		case ss.Err != nil:
			good++
		case ss.Stats.Lines == 0 || ss.Stats.Lines == ss.Stats.Blank:
			warnings = append(warnings, fmt.Errorf("%s: empty; nothing to analyse (is it the right file? most kubelets log to journald: journalctl -u kubelet > kubelet.log)", inputName(ss.Source)))
		case ss.Stats.Records+ss.Stats.Filtered == 0:
			warnings = append(warnings, fmt.Errorf("%s: not a kubelet or container-runtime log (%d lines, none recognised); pass the kubelet's log (kubelet.log, journalctl -u kubelet output), or see what podflow reads with 'podflow parse --stats'", inputName(ss.Source), ss.Stats.Lines))
		default:
			good++
		}
	}
	if good == 0 {
		return warnings, errors.Join(append(append(append([]error(nil), found...), warnings...), read...)...)
	}
	return warnings, nil
}

// tuiDescribe renders `podflow describe pod` of one flow, as it prints on
// a terminal w columns wide with colour off.
func tuiDescribe(ioS *IO) func(*timeline.Flow, *timeline.FlowList, []parser.Source, int) (string, error) {
	return func(f *timeline.Flow, fl *timeline.FlowList, srcs []parser.Source, w int) (string, error) {
		var buf bytes.Buffer
		a := &Analysis{Sources: srcs, Flows: fl, redact: ioS.Redact}
		d := &describer{w: &buf, a: a, f: f, maxEvidence: 20, wrapAt: 100}
		if w > 0 {
			d.width, d.wrapAt = w, w
		}
		d.describe()
		return buf.String(), nil
	}
}

// tuiObject renders one flow as `-o yaml` or `-o json` prints an item.
func tuiObject(f *timeline.Flow, format string) (string, error) {
	var buf bytes.Buffer
	var err error
	if format == "json" {
		err = printJSON(&buf, f)
	} else {
		err = printYAML(&buf, f)
	}
	return buf.String(), err
}

// tuiLines renders `podflow lines pod` of one flow (with --stage when
// stage is set): every raw line that names the pod, its UID, sandboxes or
// containers, prefixed with its input and line number. Standard input was
// read once, by the load: its lines are left out, and the text says so.
func tuiLines(ioS *IO, year int, loc *time.Location) func(*timeline.Flow, []parser.Source, string) (string, error) {
	r := ioS.Redact
	return func(f *timeline.Flow, srcs []parser.Source, stage string) (string, error) {
		var from, to time.Time
		if stage != "" {
			var err error
			if from, to, err = stageWindow(f, stage); err != nil {
				return "", err
			}
		}
		var files []parser.Source
		var once []string // standard input, a live node, the journal
		for _, s := range srcs {
			if s.IsStdin() {
				once = append(once, inputName(s))
				continue
			}
			files = append(files, s)
		}
		var buf bytes.Buffer
		w := bufio.NewWriter(&buf)
		for _, name := range once {
			fmt.Fprintf(w, "(%s was read once, by the load: its lines are not listed here)\n", r.Text(name))
		}
		// As lines pod: with --redact the needles are the pod's unmasked
		// names, and only the lines matched are masked.
		writePodLines(w, files, f, podLinesOptions{year: year, loc: loc, from: from, to: to, redact: r})
		if err := w.Flush(); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
}
