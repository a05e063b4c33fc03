package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// action is one meaning of a key, the same on every screen: its keys, and
// what it does on the main screen (main) and on an open page (page), nil
// where it does nothing. One table for both, so that a key has one
// meaning wherever it is pressed (TestKeysOneMeaning): j is down on the
// pod list and on a page, enter opens what is selected and never closes,
// q closes the view (the main screen's close is quitting).
type action struct {
	b          key.Binding
	mainShort  bool // shown in the main screen's one-line help bar
	pageShort  bool // shown in a page's help bar
	main, page func(m *Model) tea.Cmd
}

func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}

// keyTable lists every binding in help order, grouped into help columns.
var keyTable = [][]action{
	{
		{bind([]string{"j", "down"}, "j/↓", "down"), false, false, (*Model).down, (*Model).pageLineDown},
		{bind([]string{"k", "up"}, "k/↑", "up"), false, false, (*Model).up, (*Model).pageLineUp},
		{bind([]string{"g", "home"}, "g", "top"), false, true, (*Model).top, (*Model).pageTop},
		{bind([]string{"G", "end"}, "G", "bottom"), false, false, (*Model).bottom, (*Model).pageBottom},
		{bind([]string{"pgdown", "ctrl+d", "space"}, "pgdn/space", "page down"), false, true, (*Model).pageDown, (*Model).pageHalfDown},
		{bind([]string{"pgup", "ctrl+u", "b"}, "pgup/b", "page up"), false, false, (*Model).pageUp, (*Model).pageHalfUp},
	},
	{
		{bind([]string{"tab"}, "tab", "next pane"), false, false, (*Model).nextPane, nil},
		{bind([]string{"shift+tab"}, "shift+tab", "previous pane"), false, false, (*Model).prevPane, nil},
		{bind([]string{"enter"}, "enter", "open"), true, false, (*Model).enter, nil},
		{bind([]string{"esc"}, "esc", "back"), false, true, (*Model).back, (*Model).closePage},
		{bind([]string{"q"}, "q", "close/quit"), true, false, (*Model).quit, (*Model).closePage},
		{bind([]string{"?"}, "?", "help"), true, false, (*Model).toggleHelp, nil},
	},
	{
		{bind([]string{"d"}, "d", "describe"), true, false, (*Model).openDescribe, nil},
		{bind([]string{"l"}, "l", "lines"), true, false, (*Model).openLines, nil},
		{bind([]string{"y"}, "y", "yaml/json"), true, false, (*Model).openObject, (*Model).pageToggleObject},
		{bind([]string{"o"}, "o", "node"), true, false, (*Model).openNode, nil},
	},
	{
		{bind([]string{"/"}, "/", "search"), true, true, (*Model).startFilter, (*Model).pageStartSearch},
		{bind([]string{"n"}, "n/N", "next/prev match"), false, true, nil, (*Model).pageNext},
		{bind([]string{"N"}, "N", "previous match"), false, false, nil, (*Model).pagePrev},
		{bind([]string{"s"}, "s", "sort"), false, false, (*Model).cycleSort, nil},
		{bind([]string{"v"}, "v", "verdicts"), true, false, (*Model).cycleVerdict, nil},
		{bind([]string{"+", "="}, "+/-", "zoom"), false, false, (*Model).zoomIn, nil},
		{bind([]string{"-", "_"}, "-", "zoom out"), false, false, (*Model).zoomOut, nil},
		{bind([]string{"H", "left"}, "H/←", "pan left"), false, false, (*Model).panLeft, nil},
		{bind([]string{"L", "right"}, "L/→", "pan right"), false, false, (*Model).panRight, nil},
	},
	{
		{bind([]string{"p"}, "p", "pause"), false, false, (*Model).togglePause, nil},
		{bind([]string{"."}, ".", "step"), false, false, (*Model).step, nil},
		{bind([]string{","}, ",", "step back"), false, false, (*Model).stepBack, nil},
		{bind([]string{">"}, ">", "faster"), false, false, (*Model).faster, nil},
		{bind([]string{"<"}, "<", "slower"), false, false, (*Model).slower, nil},
		{bind([]string{"ctrl+c"}, "ctrl+c", "quit"), false, false, (*Model).quit, (*Model).quit},
	},
}

// replayKeys are the help bar's replay bindings, shown during replay.
var replayKeys = keyTable[4][:2]

// keyMap adapts the table to bubbles/help, for the main screen or a page.
type keyMap struct {
	page   bool
	replay bool
}

func (k keyMap) on(a action) bool {
	if k.page {
		return a.page != nil
	}
	return a.main != nil
}

// ShortHelp is the help bar: the screen's short bindings, help and
// close first so that a narrow terminal, which cuts the bar, still shows
// them; during replay its keys come next.
func (k keyMap) ShortHelp() []key.Binding {
	var first, rest []key.Binding
	for _, col := range keyTable {
		for _, a := range col {
			short := a.mainShort
			if k.page {
				short = a.pageShort
			}
			switch {
			case !short || !k.on(a):
			case a.b.Help().Key == "?" || a.b.Help().Key == "q" || a.b.Help().Key == "esc":
				first = append(first, a.b)
			default:
				rest = append(rest, a.b)
			}
		}
	}
	if k.replay && !k.page {
		for _, a := range replayKeys {
			first = append(first, a.b)
		}
	}
	return append(first, rest...)
}

func (k keyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, col := range keyTable {
		var c []key.Binding
		for _, a := range col {
			if k.on(a) {
				c = append(c, a.b)
			}
		}
		if len(c) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// dispatch runs what the binding msg matches does on the screen (main
// screen or page); ok is false when no binding matches.
func dispatch(m *Model, page bool, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	for _, col := range keyTable {
		for _, a := range col {
			if !key.Matches(msg, a.b) {
				continue
			}
			do := a.main
			if page {
				do = a.page
			}
			if do == nil {
				return nil, true
			}
			return do(m), true
		}
	}
	return nil, false
}
