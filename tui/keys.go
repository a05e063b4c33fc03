package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// action is one key binding and what it does: the table below is the
// single source of dispatch and of the help bar.
type action struct {
	b     key.Binding
	short bool // shown in the one-line help bar
	do    func(m *Model) tea.Cmd
}

func bind(keys []string, helpKey, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
}

// keyTable lists the bindings in help order, grouped into help columns.
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
		{bind([]string{"tab"}, "tab", "next pane"), true, (*Model).nextPane},
		{bind([]string{"shift+tab"}, "shift+tab", "previous pane"), false, (*Model).prevPane},
		{bind([]string{"enter"}, "enter", "open"), true, (*Model).enter},
		{bind([]string{"esc"}, "esc", "back"), false, (*Model).back},
		{bind([]string{"n"}, "n", "node view"), true, (*Model).nextNode},
		{bind([]string{"?"}, "?", "help"), true, (*Model).toggleHelp},
	},
	{
		{bind([]string{"s"}, "s", "sort"), true, (*Model).cycleSort},
		{bind([]string{"/"}, "/", "filter"), true, (*Model).startFilter},
		{bind([]string{"v"}, "v", "verdicts"), true, (*Model).cycleVerdict},
		{bind([]string{"+", "="}, "+/-", "zoom"), true, (*Model).zoomIn},
		{bind([]string{"-", "_"}, "-", "zoom out"), false, (*Model).zoomOut},
		{bind([]string{"h", "left"}, "h/l", "pan"), false, (*Model).panLeft},
		{bind([]string{"l", "right"}, "l", "pan right"), false, (*Model).panRight},
	},
	{
		{bind([]string{"space"}, "space", "pause"), false, (*Model).togglePause},
		{bind([]string{"."}, ".", "step"), false, (*Model).step},
		{bind([]string{">"}, ">", "faster"), false, (*Model).faster},
		{bind([]string{"<"}, "<", "slower"), false, (*Model).slower},
		{bind([]string{"q", "ctrl+c"}, "q", "quit"), true, (*Model).quit},
	},
}

// keyMap adapts the table to bubbles/help.
type keyMap struct{ replay bool }

func (k keyMap) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, col := range keyTable {
		for _, a := range col {
			if a.short {
				out = append(out, a.b)
			}
		}
	}
	if k.replay {
		out = append(out[:len(out)-1], keyTable[3][0].b, keyTable[3][1].b, out[len(out)-1])
	}
	return out
}

func (k keyMap) FullHelp() [][]key.Binding {
	out := make([][]key.Binding, len(keyTable))
	for i, col := range keyTable {
		for _, a := range col {
			out[i] = append(out[i], a.b)
		}
	}
	return out
}

// dispatch runs the first action whose binding matches msg.
func dispatch(m *Model, msg tea.KeyPressMsg) (tea.Cmd, bool) {
	for _, col := range keyTable {
		for _, a := range col {
			if key.Matches(msg, a.b) {
				return a.do(m), true
			}
		}
	}
	return nil, false
}
