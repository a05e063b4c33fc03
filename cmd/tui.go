package cmd

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/parser"
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

Keys: j/k or arrows move, g/G top/bottom, tab switches pane, enter opens
(stage → raw lines), esc goes back, +/- zoom and h/l pan the time axis,
s sort, / filter, v verdict filter, n node view, space/./</> replay, ? help,
q quit. The mouse wheel scrolls. NO_COLOR turns every style off.`,
		Example: `  podflow tui kubelet.log
  podflow tui --replay --speed 50x ./kind-logs/
  journalctl -u kubelet -f | podflow tui -f -`,
		Args: func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usageErrorf("give at least one FILE, DIR or - for standard input\nSee '%s --help'.", c.CommandPath())
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
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
	loc := time.UTC
	if opts.Load.TZ != "" && opts.Load.TZ != "UTC" {
		l, err := time.LoadLocation(opts.Load.TZ)
		if err != nil {
			return usageErrorf("--tz %q: %v", opts.Load.TZ, err)
		}
		loc = l
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
	if ioS.Redact != nil {
		// The masks are keyed as the other commands key them: by the
		// inputs' heads.
		stdin = redactStdin(ioS, opts.Paths)
		srcs, _ := parser.Discover(opts.Paths, stdin)
		keyRedact(ioS, srcs, stdin)
	}
	m := tui.New(tui.Options{
		Load: tui.LoadOptions{
			Paths: opts.Paths, Stdin: stdin, Year: opts.Load.Year, Location: loc,
			Budgets: budgets, Follow: opts.Follow, MaxFlows: opts.Load.MaxPods,
		},
		Color:  color,
		Redact: ioS.Redact,
		Replay: opts.Replay,
		Speed:  opts.speed,
	})
	popts := []tea.ProgramOption{tea.WithOutput(ioS.RawOut())}
	// When standard input carries the logs, bubbletea reads keys from the
	// controlling terminal.
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
