package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
	"github.com/podflow/podflow/timeline"
)

// styles are every style the TUI uses. With colour off they are all empty:
// no escape sequence at all (NO_COLOR).
type styles struct {
	color     bool
	header    lipgloss.Style
	dim       lipgloss.Style
	selected  lipgloss.Style
	focus     lipgloss.Style // title of the focused pane
	title     lipgloss.Style
	stall     lipgloss.Style
	warn      lipgloss.Style
	match     lipgloss.Style // a search's hit
	verdict   map[timeline.Verdict]lipgloss.Style
	recovered lipgloss.Style // a pod that ran after trouble (Flow.Recovered)
	status    map[timeline.Status]lipgloss.Style
	help      help.Styles
}

// Basic ANSI colours, so 16-colour terminals look the same.
var (
	cRed     = lipgloss.Red
	cGreen   = lipgloss.Green
	cYellow  = lipgloss.Yellow
	cBlue    = lipgloss.Blue
	cMagenta = lipgloss.Magenta
	cCyan    = lipgloss.Cyan
	cGray    = lipgloss.BrightBlack
)

func newStyles(color bool) styles {
	s := styles{color: color, verdict: map[timeline.Verdict]lipgloss.Style{}, status: map[timeline.Status]lipgloss.Style{}}
	if !color {
		plain := lipgloss.NewStyle()
		s.header, s.dim, s.selected, s.focus, s.title, s.stall, s.warn, s.match = plain, plain, plain, plain, plain, plain, plain, plain
		s.help = help.Styles{Ellipsis: plain, ShortKey: plain, ShortDesc: plain, ShortSeparator: plain, FullKey: plain, FullDesc: plain, FullSeparator: plain}
		return s
	}
	n := lipgloss.NewStyle
	s.header = n().Bold(true)
	s.dim = n().Foreground(cGray)
	s.selected = n().Reverse(true)
	s.focus = n().Bold(true).Foreground(cCyan)
	s.title = n().Bold(true)
	s.stall = n().Bold(true).Foreground(cRed)
	s.warn = n().Foreground(cYellow)
	s.match = n().Reverse(true)
	s.verdict[timeline.VerdictFailed] = n().Foreground(cRed).Bold(true)
	s.verdict[timeline.VerdictStalled] = n().Foreground(cRed)
	s.verdict[timeline.VerdictRejected] = n().Foreground(cMagenta)
	s.verdict[timeline.VerdictTerminating] = n().Foreground(cYellow)
	s.verdict[timeline.VerdictIncomplete] = n().Foreground(cGray)
	s.verdict[timeline.VerdictRunning] = n().Foreground(cGreen)
	s.verdict[timeline.VerdictCompleted] = n().Foreground(cBlue)
	s.verdict[timeline.VerdictTerminated] = n().Foreground(cGray)
	s.verdict[VerdictInFlight] = n().Foreground(cCyan)
	s.recovered = n().Foreground(cYellow)
	s.status[timeline.StatusDone] = n().Foreground(cGreen)
	s.status[timeline.StatusFailed] = n().Foreground(cRed).Bold(true)
	s.status[timeline.StatusStalled] = n().Foreground(cRed)
	s.status[timeline.StatusActive] = n().Foreground(cCyan)
	s.status[timeline.StatusPending] = n().Foreground(cGray)
	s.status[timeline.StatusUnknown] = n().Foreground(cGray)
	s.status[timeline.StatusSkipped] = n().Foreground(cGray)
	s.help = help.DefaultDarkStyles()
	return s
}

func (s styles) v(v timeline.Verdict) lipgloss.Style {
	if st, ok := s.verdict[v]; ok {
		return st
	}
	return lipgloss.NewStyle()
}

func (s styles) st(x timeline.Status) lipgloss.Style {
	if st, ok := s.status[x]; ok {
		return st
	}
	return lipgloss.NewStyle()
}

// verdictIcon is one cell per verdict, readable without colour.
var verdictIcon = map[timeline.Verdict]string{
	timeline.VerdictFailed:      "✗",
	timeline.VerdictStalled:     "!",
	timeline.VerdictRejected:    "⊘",
	timeline.VerdictTerminating: "↓",
	timeline.VerdictIncomplete:  "?",
	timeline.VerdictRunning:     "✓",
	timeline.VerdictCompleted:   "✔",
	timeline.VerdictTerminated:  "∅",
	VerdictInFlight:             "…",
}
