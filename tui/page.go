package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// A page is a full-screen text view over the panes: a stage's raw lines,
// the pod described, all its lines, or its YAML or JSON. It scrolls,
// searches with / n N, and shows its own keys in the help bar.

type pageKind int

const (
	pageRaw pageKind = iota + 1
	pageDescribe
	pageLines
	pageYAML
	pageJSON
)

type page struct {
	kind   pageKind
	title  string
	seq    int      // of the page opened last: text for an older one is dropped
	lines  []string // the text, sanitized, unstyled: what search looks in
	styled []string // the lines as drawn (nil: as lines)
	pod    *timeline.Flow

	searching bool
	query     string
	hits      []int // indexes of the lines the query is in
	hit       int   // the current one
	vp        viewport.Model
}

func newPage() page {
	vp := viewport.New()
	vp.SoftWrap = true
	return page{vp: vp}
}

// pageTextMsg brings a page's text, rendered off the UI's goroutine.
type pageTextMsg struct {
	seq  int
	text string
	err  error
}

// openPage opens a page of kind saying it is being rendered, and returns
// the command that renders it with render.
func (m *Model) openPage(kind pageKind, title string, f *timeline.Flow, render func() (string, error)) tea.Cmd {
	m.pg.seq++
	m.pg.kind, m.pg.title, m.pg.pod = kind, title, f
	m.pg.searching, m.pg.query, m.pg.hits, m.pg.hit = false, "", nil, 0
	m.setPageLines([]string{"rendering…"}, nil)
	m.pageOpen = true
	if render == nil {
		m.setPageLines([]string{"not available here"}, nil)
		return nil
	}
	seq := m.pg.seq
	return func() tea.Msg {
		s, err := render()
		return pageTextMsg{seq: seq, text: s, err: err}
	}
}

// showPageText fills the page with its text unless another page was
// opened since or it was closed.
func (m *Model) showPageText(msg pageTextMsg) {
	if msg.seq != m.pg.seq || !m.pageOpen {
		return
	}
	if msg.err != nil {
		m.setPageLines([]string{m.st.stall.Render("podflow: " + sanitize.Sanitize(m.opts.Redact.Text(msg.err.Error())))}, nil)
		return
	}
	text := strings.TrimSuffix(sanitize.SanitizeLines(msg.text), "\n")
	lines := strings.Split(text, "\n")
	var styled []string
	if m.pg.kind == pageLines || m.pg.kind == pageRaw {
		m.pg.title += fmt.Sprintf(" (%d lines)", len(lines))
		styled = make([]string, len(lines))
		for i, l := range lines {
			styled[i] = m.styleRawLine(l)
		}
	}
	m.setPageLines(lines, styled)
}

// setPageLines sets the page's text (and how it is drawn) and scrolls to
// its top.
func (m *Model) setPageLines(lines, styled []string) {
	m.pg.lines, m.pg.styled = lines, styled
	m.pg.hits, m.pg.hit = nil, 0
	if m.pg.query != "" {
		m.pg.find()
	}
	m.drawPage()
	m.pg.vp.GotoTop()
}

// drawPage puts the lines into the viewport, the search's hits marked.
func (m *Model) drawPage() {
	out := make([]string, len(m.pg.lines))
	hit := map[int]bool{}
	for _, h := range m.pg.hits {
		hit[h] = true
	}
	for i, l := range m.pg.lines {
		switch {
		case hit[i] && m.st.color:
			out[i] = m.st.match.Render(l)
		case hit[i] && len(m.pg.hits) > 0 && i == m.pg.hits[m.pg.hit]:
			out[i] = "▶" + l
		case m.pg.styled != nil:
			out[i] = m.pg.styled[i]
		default:
			out[i] = l
		}
	}
	m.pg.vp.SetContentLines(out)
}

// find lists the lines that hold the query, ignoring case.
func (p *page) find() {
	p.hits, p.hit = nil, 0
	if p.query == "" {
		return
	}
	q := strings.ToLower(p.query)
	for i, l := range p.lines {
		if strings.Contains(strings.ToLower(l), q) {
			p.hits = append(p.hits, i)
		}
	}
}

// showHit scrolls the current hit into view, a few lines from the top.
func (m *Model) showHit() {
	if len(m.pg.hits) == 0 {
		return
	}
	m.drawPage()
	m.pg.vp.SetYOffset(max(m.pg.hits[m.pg.hit]-2, 0))
}

// pageStatus is the page's title line's right part: where it is, the
// search, and how to close it.
func (m Model) pageStatus() string {
	s := fmt.Sprintf("  %3.0f%%", m.pg.vp.ScrollPercent()*100)
	if m.pg.query != "" {
		if len(m.pg.hits) == 0 {
			s += fmt.Sprintf("  /%s: no match", sanitize.Sanitize(m.pg.query))
		} else {
			s += fmt.Sprintf("  /%s: match %d of %d", sanitize.Sanitize(m.pg.query), m.pg.hit+1, len(m.pg.hits))
		}
	}
	return s + "  esc closes"
}

// pageKey handles a key on an open page: the search line's editing
// first, then the page's key table.
func (m Model) pageKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if m.pg.searching {
		switch msg.String() {
		case "enter":
			m.pg.searching = false
			m.pg.find()
			m.showHit()
			m.drawPage()
		case "esc":
			m.pg.searching, m.pg.query = false, ""
			m.pg.find()
			m.drawPage()
		case "backspace":
			if r := []rune(m.pg.query); len(r) > 0 {
				m.pg.query = string(r[:len(r)-1])
			}
		case "ctrl+c":
			return m, m.quit()
		default:
			if msg.Text != "" {
				m.pg.query += sanitize.Sanitize(msg.Text)
			}
		}
		return m, nil
	}
	if cmd, ok := dispatch(&m, true, msg); ok {
		return m, cmd
	}
	return m, nil
}

func (m *Model) pageLineDown() tea.Cmd { m.pg.vp.ScrollDown(1); return nil }
func (m *Model) pageLineUp() tea.Cmd   { m.pg.vp.ScrollUp(1); return nil }
func (m *Model) pageHalfDown() tea.Cmd { m.pg.vp.PageDown(); return nil }
func (m *Model) pageHalfUp() tea.Cmd   { m.pg.vp.PageUp(); return nil }
func (m *Model) pageTop() tea.Cmd      { m.pg.vp.GotoTop(); return nil }
func (m *Model) pageBottom() tea.Cmd   { m.pg.vp.GotoBottom(); return nil }
func (m *Model) closePage() tea.Cmd    { m.pageOpen = false; return nil }

func (m *Model) pageStartSearch() tea.Cmd {
	m.pg.searching, m.pg.query = true, ""
	return nil
}

func (m *Model) pageNext() tea.Cmd {
	if n := len(m.pg.hits); n > 0 {
		m.pg.hit = (m.pg.hit + 1) % n
		m.showHit()
	}
	return nil
}

func (m *Model) pagePrev() tea.Cmd {
	if n := len(m.pg.hits); n > 0 {
		m.pg.hit = (m.pg.hit + n - 1) % n
		m.showHit()
	}
	return nil
}

// Pages of the selected pod (bound in keys.go).

func (m *Model) openDescribe() tea.Cmd {
	f := m.selectedCopy()
	if f == nil {
		return nil
	}
	all, srcs, w, render := m.all, m.srcs, m.w, m.opts.Describe
	var fn func() (string, error)
	if render != nil {
		fn = func() (string, error) { return render(f, all, srcs, w) }
	}
	return m.openPage(pageDescribe, "describe pod "+sanitize.Sanitize(f.Pod.Key()), f, fn)
}

func (m *Model) openLines() tea.Cmd {
	f := m.selectedCopy()
	if f == nil {
		return nil
	}
	srcs, render := m.srcs, m.opts.Lines
	var fn func() (string, error)
	if render != nil {
		fn = func() (string, error) { return render(f, srcs, "") }
	}
	return m.openPage(pageLines, "lines pod "+sanitize.Sanitize(f.Pod.Key()), f, fn)
}

func (m *Model) openObject() tea.Cmd { return m.object(m.selectedCopy(), pageYAML) }

// pageToggleObject turns a YAML page into JSON and back.
func (m *Model) pageToggleObject() tea.Cmd {
	switch m.pg.kind {
	case pageYAML:
		return m.object(m.pg.pod, pageJSON)
	case pageJSON:
		return m.object(m.pg.pod, pageYAML)
	}
	return nil
}

func (m *Model) object(f *timeline.Flow, kind pageKind) tea.Cmd {
	if f == nil {
		return nil
	}
	format := "yaml"
	if kind == pageJSON {
		format = "json"
	}
	render := m.opts.Object
	var fn func() (string, error)
	if render != nil {
		fn = func() (string, error) { return render(f, format) }
	}
	return m.openPage(kind, fmt.Sprintf("pod %s -o %s  (y: %s)", sanitize.Sanitize(f.Pod.Key()), format, map[string]string{"yaml": "json", "json": "yaml"}[format]), f, fn)
}

// selectedCopy is a copy of the selected flow a page's renderer may read
// off the UI's goroutine; nil when none.
func (m *Model) selectedCopy() *timeline.Flow {
	f := m.selected()
	if f == nil {
		return nil
	}
	c := *f
	return &c
}

// styleRawLine colours a raw log line by its level: errors red, warnings
// yellow (klog's E and W headers, the JSON and logfmt levels).
func (m *Model) styleRawLine(l string) string {
	switch rawLevel(l) {
	case 'E':
		return m.st.stall.Render(l)
	case 'W':
		return m.st.warn.Render(l)
	}
	return l
}

// rawLevel is E, W or 0 for a raw line, which may start with an input and
// line number ("kubelet.log:12:") or a journald or syslog prefix.
func rawLevel(l string) byte {
	ll := strings.ToLower(l)
	switch {
	case strings.Contains(ll, `"level":"error"`), strings.Contains(ll, "level=error"), strings.Contains(ll, `"severity":"error"`):
		return 'E'
	case strings.Contains(ll, `"level":"warn`), strings.Contains(ll, "level=warn"):
		return 'W'
	}
	// klog: Lmmdd hh:mm:ss.uuuuuu, at the start of the line or after a
	// prefix ending in a space or a colon.
	for i := 0; i+14 < len(l); i++ {
		if i > 0 && l[i-1] != ' ' && l[i-1] != ':' {
			continue
		}
		c := l[i]
		if (c == 'E' || c == 'W' || c == 'F') && digits(l[i+1:i+5]) && l[i+5] == ' ' && l[i+8] == ':' {
			if c == 'F' {
				return 'E'
			}
			return c
		}
		if c == 'I' && digits(l[i+1:i+5]) && l[i+5] == ' ' {
			return 0
		}
	}
	return 0
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
