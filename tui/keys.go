package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// action is one key binding and what it does: the tables below are the
// single source of dispatch and of the help bar.
type action struct {
	b     key.Binding
	short bool // shown in the one-line help bar
	do    func(m *Model) tea.Cmd
}

func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}

// keyTable lists the main screen's bindings in help order, grouped into
// help columns.
var keyTable = [][]action{
	{
		{bind([]string{"j", "down"}, "j/↓", "down"), false, (*Model).down},
		{bind([]string{"k", "up"}, "k/↑", "up"), false, (*Model).up},
		{bind([]string{"g", "home"}, "g", "top"), false, (*Model).top},
		{bind([]string{"G", "end"}, "G", "bottom"), false, (*Model).bottom},
		{bind([]string{"pgdown", "ctrl+d"}, "pgdn", "page down"), false, (*Model).pageDown},
		{bind([]string{"pgup", "ctrl+u"}, "pgup", "page up"), false, (*Model).pageUp},
	},
	{
		{bind([]string{"tab"}, "tab", "next pane"), false, (*Model).nextPane},
		{bind([]string{"shift+tab"}, "shift+tab", "previous pane"), false, (*Model).prevPane},
		{bind([]string{"enter"}, "enter", "stage lines"), true, (*Model).enter},
		{bind([]string{"esc"}, "esc", "back"), false, (*Model).back},
		{bind([]string{"?"}, "?", "help"), true, (*Model).toggleHelp},
	},
	{
		{bind([]string{"d"}, "d", "describe"), true, (*Model).openDescribe},
		{bind([]string{"l"}, "l", "lines"), true, (*Model).openLines},
		{bind([]string{"y"}, "y", "yaml"), true, (*Model).openObject},
		{bind([]string{"n"}, "n", "node"), true, (*Model).openNode},
	},
	{
		{bind([]string{"s"}, "s", "sort"), false, (*Model).cycleSort},
		{bind([]string{"/"}, "/", "filter"), true, (*Model).startFilter},
		{bind([]string{"v"}, "v", "verdicts"), true, (*Model).cycleVerdict},
		{bind([]string{"+", "="}, "+/-", "zoom"), false, (*Model).zoomIn},
		{bind([]string{"-", "_"}, "-", "zoom out"), false, (*Model).zoomOut},
		{bind([]string{"H", "left"}, "H/←", "pan left"), false, (*Model).panLeft},
		{bind([]string{"L", "right"}, "L/→", "pan right"), false, (*Model).panRight},
	},
	{
		{bind([]string{"space"}, "space", "pause"), false, (*Model).togglePause},
		{bind([]string{"."}, ".", "step"), false, (*Model).step},
		{bind([]string{","}, ",", "step back"), false, (*Model).stepBack},
		{bind([]string{">"}, ">", "faster"), false, (*Model).faster},
		{bind([]string{"<"}, "<", "slower"), false, (*Model).slower},
		{bind([]string{"q", "ctrl+c"}, "q", "quit"), true, (*Model).quit},
	},
}

// pageKeyTable lists the bindings of a page (raw lines, describe, lines,
// YAML): scrolling, search and closing.
var pageKeyTable = [][]action{
	{
		{bind([]string{"j", "down"}, "j/↓", "down"), false, (*Model).pageLineDown},
		{bind([]string{"k", "up"}, "k/↑", "up"), false, (*Model).pageLineUp},
		{bind([]string{"pgdown", "ctrl+d", "space"}, "pgdn", "page down"), true, (*Model).pageHalfDown},
		{bind([]string{"pgup", "ctrl+u", "b"}, "pgup", "page up"), false, (*Model).pageHalfUp},
		{bind([]string{"g", "home"}, "g/G", "top/bottom"), true, (*Model).pageTop},
		{bind([]string{"G", "end"}, "G", "bottom"), false, (*Model).pageBottom},
	},
	{
		{bind([]string{"/"}, "/", "search"), true, (*Model).pageStartSearch},
		{bind([]string{"n"}, "n/N", "next/prev match"), true, (*Model).pageNext},
		{bind([]string{"N"}, "N", "previous match"), false, (*Model).pagePrev},
		{bind([]string{"y"}, "y", "yaml/json"), false, (*Model).pageToggleObject},
		{bind([]string{"esc", "q", "enter"}, "esc", "close"), true, (*Model).closePage},
		{bind([]string{"ctrl+c"}, "ctrl+c", "quit"), false, (*Model).quit},
	},
}

// keyMap adapts a table to bubbles/help.
type keyMap struct {
	table  [][]action
	replay bool
}

// ShortHelp is the help bar: the table's short bindings, help and quit
// first so that a narrow terminal, which cuts the bar, still shows them;
// during replay its keys come next.
func (k keyMap) ShortHelp() []key.Binding {
	var first, rest []key.Binding
	for _, col := range k.table {
		for _, a := range col {
			switch {
			case !a.short:
			case a.b.Help().Key == "?" || a.b.Help().Key == "q" || a.b.Help().Key == "esc":
				first = append(first, a.b)
			default:
				rest = append(rest, a.b)
			}
		}
	}
	if k.replay {
		play := keyTable[4]
		first = append(first, play[0].b, play[1].b)
	}
	return append(first, rest...)
}

func (k keyMap) FullHelp() [][]key.Binding {
	out := make([][]key.Binding, len(k.table))
	for i, col := range k.table {
		for _, a := range col {
			out[i] = append(out[i], a.b)
		}
	}
	return out
}

// dispatch runs the first action of table whose binding matches msg.
func dispatch(m *Model, table [][]action, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	for _, col := range table {
		for _, a := range col {
			if key.Matches(msg, a.b) {
				return a.do(m), true
			}
		}
	}
	return nil, false
}
