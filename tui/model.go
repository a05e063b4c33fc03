// Package tui is podflow's interactive timeline: a pod list, the selected
// pod's stages on a time axis, its diagnosis and evidence, the raw log
// lines of a stage, and a node view. It reads flows from the streaming
// engine in a goroutine and can replay a log in its own time or follow a
// growing one.
package tui

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// Options configure the TUI.
type Options struct {
	Load   LoadOptions
	Color  bool    // false: no styles at all (NO_COLOR)
	Replay bool    // play the log back in its own time
	Speed  float64 // replay speed (log seconds per second); 0 means 20

	// Redact (--redact) masks every snapshot as the CLI masks its output
	// (redact.FlowList), and the raw lines read back; nil: off.
	Redact *redact.Redactor

	// The pages of one pod the CLI prints, rendered by the CLI's own code
	// (cmd/tui.go) off the UI's goroutine; nil: the page says it is not
	// available. Their text is sanitized again before it is drawn.
	//
	// Describe is `podflow describe pod` at width w; Lines is `podflow
	// lines pod` (stage "" for all, else as its --stage); Object is the
	// pod as `-o yaml` or `-o json` (format) prints it.
	Describe func(f *timeline.Flow, fl *timeline.FlowList, srcs []parser.Source, w int) (string, error)
	Lines    func(f *timeline.Flow, srcs []parser.Source, stage string) (string, error)
	Object   func(f *timeline.Flow, format string) (string, error)
}

type pane int

const (
	paneList pane = iota
	paneTimeline
	paneDetail
	paneCount
)

var sortModes = []string{"verdict", "duration", "start", "name"}

// Model is the TUI's root model.
type Model struct {
	opts Options
	ld   *loader
	st   styles
	keys keyMap
	help help.Model
	pg   page
	w, h int

	// loaded data
	all      *timeline.FlowList
	srcs     []parser.Source
	runs     map[string]run // container runs by runtime ID (restarts.go)
	runsAt   map[string]run // the runs shown: as of the replay clock
	loading  bool
	read     int64
	total    int64
	records  int64
	declined int64 // shown with records: their sum is parse --stats' RECORDS
	err      error
	warnings []error
	notes    []error
	gen      int

	// view state
	items    []timeline.Flow // all.Items, or as of the replay clock
	vis      []int           // items shown, filtered and sorted
	nat      listNat         // the list's column widths for vis whole
	cur, off int
	selKey   string
	// chosen: the user has moved the cursor or filtered. Until then
	// each snapshot puts the cursor on the worst pod (the list's first),
	// not on the first pod that loaded.
	chosen    bool
	focus     pane
	sortMode  int
	vFilter   string // "" all, "problems", or one verdict
	filter    string
	filtering bool
	zoom      int
	pan       time.Duration
	rowCur    int
	detailOff int
	pageOpen  bool
	node      int // -1: node view off
	showHelp  bool

	// replay
	clock        time.Time
	rStart, rEnd time.Time
	speed        float64
	paused       bool
	tickID       int
	rp           *replayer // the flows built again as of the clock
}

// New returns the model; Init starts loading.
func New(o Options) Model {
	if o.Speed <= 0 {
		o.Speed = 20
	}
	o.Load.Keep = o.Load.Keep || o.Replay
	m := Model{
		opts:    o,
		st:      newStyles(o.Color),
		keys:    keyMap{replay: o.Replay},
		help:    help.New(),
		pg:      newPage(),
		w:       80,
		h:       24,
		loading: true,
		zoom:    1,
		node:    -1,
		speed:   o.Speed,
		all:     &timeline.FlowList{},
	}
	m.help.Styles = m.st.help
	m.ld = newLoader(o.Load)
	return m
}

// Init starts the loader goroutine.
func (m Model) Init() tea.Cmd {
	m.ld.start()
	return m.ld.next()
}

// Preload starts the load and waits up to wait for its first news, so
// that inputs that cannot be read are reported before the screen opens,
// as the CLI reports them; it returns that error. Loads that take longer
// show their progress on the screen.
func (m Model) Preload(wait time.Duration) error { return m.ld.first(wait) }

type replayTickMsg struct{ id int }

func (m *Model) tick() tea.Cmd {
	id := m.tickID
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return replayTickMsg{id: id} })
}

// Update handles messages: size, loader snapshots, replay ticks, keys and
// the mouse wheel.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		return m, nil
	case snapshotMsg:
		cmd := m.applySnapshot(msg)
		return m, cmd
	case replayTickMsg:
		if msg.id != m.tickID || m.paused || !m.opts.Replay || m.loading {
			return m, nil
		}
		m.clock = m.clock.Add(time.Duration(float64(100*time.Millisecond) * m.speed))
		if !m.clock.Before(m.rEnd) {
			m.clock, m.paused = m.rEnd, true
		}
		m.refresh()
		if m.paused {
			return m, nil
		}
		return m, m.tick()
	case tea.MouseWheelMsg:
		switch {
		case m.pageOpen:
			var cmd tea.Cmd
			m.pg.vp, cmd = m.pg.vp.Update(msg)
			return m, cmd
		case msg.Button == tea.MouseWheelUp:
			m.up()
		case msg.Button == tea.MouseWheelDown:
			m.down()
		}
		return m, nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case rawLinesMsg:
		m.showRaw(msg)
		return m, nil
	case pageTextMsg:
		m.showPageText(msg)
		return m, nil
	}
	return m, nil
}

func (m Model) key(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if msg.String() == "ctrl+c" {
		return m, m.quit()
	}
	if m.filtering {
		m.chosen = true
		switch msg.String() {
		case "enter":
			m.filtering = false
		case "esc":
			m.filtering, m.filter = false, ""
		case "backspace":
			if r := []rune(m.filter); len(r) > 0 {
				m.filter = string(r[:len(r)-1])
			}
		default:
			if msg.Text != "" {
				m.filter += sanitize.Sanitize(msg.Text)
			}
		}
		m.refresh()
		return m, nil
	}
	if m.pageOpen {
		return m.pageKey(msg)
	}
	if m.showHelp && msg.String() != "?" && msg.String() != "q" {
		m.showHelp = false
		return m, nil
	}
	cmd, _ := dispatch(&m, false, msg)
	return m, cmd
}

func (m *Model) applySnapshot(msg snapshotMsg) tea.Cmd {
	if msg.err != nil {
		m.err, m.loading = msg.err, false
		return nil
	}
	if msg.gen < m.gen {
		return m.ld.next()
	}
	m.gen = msg.gen
	if !m.chosen {
		m.selKey = "" // refresh puts the cursor on the first (worst) pod
	}
	// Snapshots are the view's own copies (see snapshot), so masking in
	// place touches nothing the loader still uses.
	redact.FlowList(m.opts.Redact, msg.flows)
	m.all, m.srcs, m.runs = msg.flows, msg.srcs, msg.runs
	m.read, m.total, m.records, m.declined = msg.read, msg.total, msg.records, msg.declined
	wasLoading := m.loading
	m.loading = !msg.done
	if msg.done {
		m.warnings = msg.warnings
		m.notes = msg.notes
	}
	var cmds []tea.Cmd
	if m.opts.Replay && msg.done && wasLoading && m.clock.IsZero() {
		m.rStart, m.rEnd = span(m.all.Items)
		if e := m.all.Summary.End; e.After(m.rEnd) {
			// The replay plays the log to its last line: a stage under
			// way runs to it (timeline/clock.go), and a record may say a
			// time earlier than its own (a status patch's startedAt).
			m.rEnd = e
		}
		m.rp = newReplayer(msg.recs, timeline.Options{Budgets: m.opts.Load.Budgets, MaxFlows: m.opts.Load.MaxFlows}, m.opts.Redact)
		m.clock = m.rStart
		m.tickID++
		cmds = append(cmds, m.tick())
	}
	m.refresh()
	if !msg.done || m.opts.Load.Follow {
		cmds = append(cmds, m.ld.next())
	}
	return tea.Batch(cmds...)
}

// refresh recomputes the items (as of the replay clock), the filter and
// the sort, keeping the selected pod.
func (m *Model) refresh() {
	m.items, m.runsAt = m.all.Items, m.runs
	if m.opts.Replay && !m.clock.IsZero() && m.clock.Before(m.rEnd) && m.rp != nil {
		m.items, m.runsAt = m.rp.asOf(m.clock)
	}
	m.vis = m.vis[:0]
	vf := m.vFilter
	nodeName := ""
	if m.node >= 0 && m.node < len(m.all.Nodes) {
		nodeName = m.all.Nodes[m.node].Name
	}
	// Substring matches on ns/name win; fuzzy matching is the fallback
	// when nothing contains the filter.
	match := func(k string) bool { return strings.Contains(strings.ToLower(k), strings.ToLower(m.filter)) }
	if m.filter != "" {
		any := false
		for i := range m.items {
			if match(m.items[i].Pod.Key()) {
				any = true
				break
			}
		}
		if !any {
			match = func(k string) bool { return fuzzy(k, m.filter) }
		}
	}
	for i := range m.items {
		f := &m.items[i]
		if nodeName != "" && f.Node != nodeName {
			continue
		}
		switch vf {
		case "":
		case "problems":
			if !problem(f.Verdict) {
				continue
			}
		default:
			if string(f.Verdict) != vf {
				continue
			}
		}
		if m.filter != "" && !match(f.Pod.Key()) {
			continue
		}
		m.vis = append(m.vis, i)
	}
	m.sortVis()
	m.nat = naturalCols(m.items, m.vis)
	m.cur = 0
	for i, ix := range m.vis {
		if m.items[ix].Pod.Key() == m.selKey {
			m.cur = i
			break
		}
	}
	m.clampList()
}

var verdictRank = func() map[timeline.Verdict]int {
	r := map[timeline.Verdict]int{VerdictInFlight: len(timeline.Verdicts)}
	for i, v := range timeline.Verdicts {
		r[v] = i
	}
	return r
}()

func (m *Model) sortVis() {
	it := m.items
	var less func(a, b *timeline.Flow) bool
	switch sortModes[m.sortMode] {
	case "verdict":
		less = func(a, b *timeline.Flow) bool {
			if ra, rb := verdictRank[a.Verdict], verdictRank[b.Verdict]; ra != rb {
				return ra < rb
			}
			return a.Duration > b.Duration
		}
	case "duration":
		less = func(a, b *timeline.Flow) bool { return a.Duration > b.Duration }
	case "start":
		less = func(a, b *timeline.Flow) bool { return a.Start.Before(b.Start) }
	default:
		less = func(a, b *timeline.Flow) bool { return a.Pod.Key() < b.Pod.Key() }
	}
	sort.SliceStable(m.vis, func(i, j int) bool { return less(&it[m.vis[i]], &it[m.vis[j]]) })
}

// fuzzy reports whether every rune of pat occurs in s in order (so any
// substring matches too), ignoring case.
func fuzzy(s, pat string) bool {
	s, pat = strings.ToLower(s), strings.ToLower(pat)
	if strings.Contains(s, pat) {
		return true
	}
	pr := []rune(pat)
	i := 0
	for _, r := range s {
		if i < len(pr) && r == pr[i] {
			i++
		}
	}
	return i == len(pr)
}

// selected is the selected flow, or nil.
func (m *Model) selected() *timeline.Flow {
	if m.cur < 0 || m.cur >= len(m.vis) {
		return nil
	}
	return &m.items[m.vis[m.cur]]
}

// rows are the timeline's rows of f.
func (m *Model) rows(f *timeline.Flow) []tlRow { return timelineRows(f, m.runsAt, m.flowEnd(f)) }

// flowEnd is where f's time axis ends: its last stage, or later when the
// flow went on (a crash loop after its first start: its last run seen,
// and during replay the clock while a restarted container runs).
func (m *Model) flowEnd(f *timeline.Flow) time.Time {
	end := f.End // the input's end for a flow under way (timeline/clock.go)
	replaying := m.opts.Replay && !m.clock.IsZero() && m.clock.Before(m.rEnd)
	for i := range f.Containers {
		c := &f.Containers[i]
		if len(c.IDs) < 2 && c.Restarts == 0 {
			continue
		}
		for _, id := range c.IDs {
			r := m.runsAt[id]
			if r.died.After(end) {
				end = r.died
			}
			if r.start.After(end) {
				end = r.start
			}
			if replaying && !r.start.IsZero() && r.died.IsZero() && m.clock.After(end) {
				end = m.clock
			}
		}
	}
	return end
}

// layout sizes: header, body, help bar.
type dims struct {
	listW, rightW, bodyH, tlH, detailH int
}

func (m *Model) dims() dims {
	var d dims
	d.bodyH = max(m.h-3, 3) // header, status line, help bar
	// The list follows the terminal: up to 45% of it (half of a narrow
	// one), no wider than its columns whole need.
	share := m.w * 9 / 20
	if m.w < 100 {
		share = m.w / 2
	}
	d.listW = min(max(share, 30), max(m.nat.width(), 30))
	if m.w < 60 {
		d.listW = m.w
	}
	d.rightW = max(m.w-d.listW-1, 0)
	rows := 0
	if f := m.selected(); f != nil {
		rows = len(m.rows(f)) + 1
	}
	d.tlH = min(rows+3, d.bodyH*3/5)
	d.tlH = max(d.tlH, min(6, d.bodyH))
	d.detailH = d.bodyH - d.tlH
	return d
}

func (m *Model) layout() {
	d := m.dims()
	m.help.SetWidth(m.w)
	m.pg.vp.SetWidth(m.w)
	m.pg.vp.SetHeight(d.bodyH - 1)
	m.clampList()
}

func (m *Model) listH() int { return m.dims().bodyH - 2 } // title, headers

func (m *Model) clampList() {
	if m.cur >= len(m.vis) {
		m.cur = len(m.vis) - 1
	}
	if m.cur < 0 {
		m.cur = 0
	}
	h := max(m.listH(), 1)
	if m.cur < m.off {
		m.off = m.cur
	}
	if m.cur >= m.off+h {
		m.off = m.cur - h + 1
	}
	if m.off > max(len(m.vis)-h, 0) {
		m.off = max(len(m.vis)-h, 0)
	}
	if m.off < 0 {
		m.off = 0
	}
	if f := m.selected(); f != nil {
		if k := f.Pod.Key(); k != m.selKey {
			m.selKey = k
			m.zoom, m.pan, m.detailOff = 1, 0, 0
			m.rowCur = m.defaultRow(f)
		}
		if n := len(m.rows(f)); m.rowCur >= n {
			m.rowCur = n - 1
		}
	}
}

// defaultRow selects the stalled stage when there is one.
func (m *Model) defaultRow(f *timeline.Flow) int {
	rows := m.rows(f)
	if i, _ := stallRow(f, rows); i >= 0 {
		return i
	}
	return 0
}

// Actions (bound in keys.go).

func (m *Model) move(n int) tea.Cmd {
	switch m.focus {
	case paneList:
		m.cur += n
		m.chosen = true
		m.clampList()
	case paneTimeline:
		if f := m.selected(); f != nil {
			m.rowCur = min(max(m.rowCur+n, 0), len(m.rows(f))-1)
		}
	case paneDetail:
		m.detailOff = max(m.detailOff+n, 0)
	}
	return nil
}

func (m *Model) down() tea.Cmd     { return m.move(1) }
func (m *Model) up() tea.Cmd       { return m.move(-1) }
func (m *Model) pageDown() tea.Cmd { return m.move(max(m.listH()-1, 1)) }
func (m *Model) pageUp() tea.Cmd   { return m.move(-max(m.listH()-1, 1)) }
func (m *Model) top() tea.Cmd      { return m.move(-1 << 30) }
func (m *Model) bottom() tea.Cmd   { return m.move(1 << 30) }
func (m *Model) nextPane() tea.Cmd { m.focus = (m.focus + 1) % paneCount; return nil }
func (m *Model) prevPane() tea.Cmd { m.focus = (m.focus + paneCount - 1) % paneCount; return nil }
func (m *Model) quit() tea.Cmd     { m.ld.Close(); return tea.Quit }
func (m *Model) toggleHelp() tea.Cmd {
	m.showHelp = !m.showHelp
	return nil
}

// enter opens what is selected: on the pod list the pod (its describe
// page), on its timeline the stage (its lines).
func (m *Model) enter() tea.Cmd {
	if m.focus == paneList {
		return m.openDescribe()
	}
	return m.openRaw()
}

func (m *Model) back() tea.Cmd {
	switch {
	case m.filter != "":
		m.filter = ""
		m.refresh()
	case m.node >= 0:
		m.node = -1
		m.refresh()
	case m.focus != paneList:
		m.focus = paneList
	}
	return nil
}

// openRaw opens the raw view of the selected stage's evidence lines and
// returns the command that reads them back from the inputs by position,
// off the UI's goroutine: in a compressed input that means decompressing
// up to the last of them, a second or two into a large .gz.
func (m *Model) openRaw() tea.Cmd {
	f := m.selected()
	if f == nil {
		return nil
	}
	rows := m.rows(f)
	if m.rowCur < 0 || m.rowCur >= len(rows) {
		return nil
	}
	row := rows[m.rowCur]
	if m.opts.Lines != nil {
		return m.openStageLines(f, row)
	}
	ev := stageEvidence(f, &row)
	r := m.opts.Redact
	positions := make([]parser.Position, len(ev))
	for i, e := range ev {
		positions[i] = parser.Position{Input: e.Input, Line: e.Line, Offset: e.Offset, Length: e.Length}
		if r != nil { // e.Input is the masked name: read from the source it masks
			for _, s := range m.srcs {
				if r.Text(s.Name) == e.Input {
					positions[i].Input = s.Name
					break
				}
			}
		}
	}
	title := fmt.Sprintf("raw lines: %s %s (%d records)", sanitize.Sanitize(f.Pod.Key()), sanitize.Sanitize(strings.TrimSpace(row.label)), len(ev))
	m.openPage(pageRaw, title, f, nil)
	if len(ev) == 0 {
		m.setPageLines([]string{"no evidence lines for this stage"}, nil)
		return nil
	}
	m.setPageLines([]string{m.st.dim.Render(fmt.Sprintf("reading %d records back from the inputs…", len(ev)))}, nil)
	seq, srcs := m.pg.seq, m.srcs
	return func() tea.Msg {
		raws, errs := parser.ReadRaws(srcs, positions)
		return rawLinesMsg{seq: seq, ev: ev, raws: raws, errs: errs}
	}
}

// openStageLines opens the raw view of every line of the pod in the
// stage's time window, as 'podflow lines pod --stage' prints them; the
// evidence a stage keeps is a few of them.
func (m *Model) openStageLines(f *timeline.Flow, row tlRow) tea.Cmd {
	spec := row.stage.ID
	switch {
	case row.cycle != nil:
		spec = "" // restarts are no stage: every line of the pod
	case row.container != "":
		spec = row.container + ":" + row.stage.ID
	}
	title := fmt.Sprintf("raw lines: %s %s", sanitize.Sanitize(f.Pod.Key()), sanitize.Sanitize(strings.TrimSpace(row.label)))
	if row.stage.Start == nil {
		m.openPage(pageRaw, title, f, nil)
		m.setPageLines([]string{"the stage did not begin: it has no lines"}, nil)
		return nil
	}
	c := *f
	srcs, render := m.srcs, m.opts.Lines
	return m.openPage(pageRaw, title, f, func() (string, error) { return render(&c, srcs, spec) })
}

// rawLinesMsg brings the evidence lines openRaw read back.
type rawLinesMsg struct {
	seq  int
	ev   []timeline.Evidence
	raws [][]byte
	errs []error
}

// showRaw fills the raw view with the lines read back, unless another
// view was opened since or it was closed.
func (m *Model) showRaw(msg rawLinesMsg) {
	if msg.seq != m.pg.seq || !m.pageOpen {
		return
	}
	r := m.opts.Redact
	var lines, styled []string
	for i, e := range msg.ev {
		head := fmt.Sprintf("%s:%d", sanitize.Sanitize(e.Input), e.Line)
		if err := msg.errs[i]; err != nil {
			t := "cannot read back: " + sanitize.Sanitize(r.Text(err.Error()))
			lines = append(lines, head+" "+t)
			styled = append(styled, m.st.dim.Render(head)+" "+m.st.stall.Render(t))
			continue
		}
		lines = append(lines, head)
		styled = append(styled, m.st.dim.Render(head))
		for _, l := range strings.Split(sanitize.SanitizeLines(string(r.Bytes(msg.raws[i]))), "\n") {
			lines = append(lines, "  "+l)
			styled = append(styled, "  "+l)
		}
	}
	m.setPageLines(lines, styled)
}

func (m *Model) cycleSort() tea.Cmd {
	m.sortMode = (m.sortMode + 1) % len(sortModes)
	m.refresh()
	return nil
}

// verdictCycle is what v steps through: all, then "problems" when it
// picks out more than one verdict and not every pod, then each verdict
// that occurs, in verdict order (a filter that shows nothing is skipped).
func verdictCycle(items []timeline.Flow) []string {
	seen := map[timeline.Verdict]int{}
	for i := range items {
		seen[items[i].Verdict]++
	}
	out := []string{""}
	problems, fine := 0, 0
	for v := range seen {
		if problem(v) {
			problems++
		} else {
			fine++
		}
	}
	if problems > 1 && fine > 0 {
		out = append(out, "problems")
	}
	for _, v := range append(append([]timeline.Verdict(nil), timeline.Verdicts...), VerdictInFlight) {
		if seen[v] > 0 {
			out = append(out, string(v))
		}
	}
	return out
}

// problem: a verdict that is not a good ending.
func problem(v timeline.Verdict) bool {
	return v != timeline.VerdictRunning && v != timeline.VerdictCompleted && v != timeline.VerdictTerminated && v != VerdictInFlight
}

func (m *Model) cycleVerdict() tea.Cmd {
	modes := verdictCycle(m.items)
	next := 0
	for i, v := range modes {
		if v == m.vFilter {
			next = (i + 1) % len(modes)
			break
		}
	}
	m.vFilter = modes[next]
	m.refresh()
	return nil
}

func (m *Model) startFilter() tea.Cmd {
	m.filtering = true
	m.focus = paneList
	return nil
}

// openNode opens the selected pod's node; in the node view it moves to
// the next node, and after the last closes the view.
func (m *Model) openNode() tea.Cmd {
	if m.node < 0 {
		m.node = 0
		if f := m.selected(); f != nil {
			for i, n := range m.all.Nodes {
				if n.Name == f.Node {
					m.node = i
					break
				}
			}
		}
		if m.node >= len(m.all.Nodes) {
			m.node = -1
		}
	} else {
		m.node++
		if m.node >= len(m.all.Nodes) {
			m.node = -1
		}
	}
	m.refresh()
	return nil
}

func (m *Model) zoomIn() tea.Cmd {
	if m.zoom < 256 {
		m.zoom *= 2
		m.pan = m.centerPan()
	}
	return nil
}

func (m *Model) zoomOut() tea.Cmd {
	if m.zoom > 1 {
		m.zoom /= 2
		m.pan = m.centerPan()
	}
	return nil
}

// centerPan keeps the selected stage in the window when zooming.
func (m *Model) centerPan() time.Duration {
	f := m.selected()
	if f == nil || m.zoom == 1 {
		return 0
	}
	rows := m.rows(f)
	total := m.flowEnd(f).Sub(f.Start)
	win := total / time.Duration(m.zoom)
	if m.rowCur >= 0 && m.rowCur < len(rows) && rows[m.rowCur].stage.Start != nil {
		return max(rows[m.rowCur].stage.Start.Sub(f.Start)-win/4, 0)
	}
	return m.pan
}

func (m *Model) panBy(sign int) tea.Cmd {
	f := m.selected()
	if f == nil {
		return nil
	}
	total := m.flowEnd(f).Sub(f.Start)
	win := total / time.Duration(m.zoom)
	m.pan = min(max(m.pan+time.Duration(sign)*win/4, 0), max(total-win, 0))
	return nil
}

func (m *Model) panLeft() tea.Cmd  { return m.panBy(-1) }
func (m *Model) panRight() tea.Cmd { return m.panBy(1) }

func (m *Model) togglePause() tea.Cmd {
	if !m.opts.Replay || m.loading {
		return nil
	}
	m.paused = !m.paused
	if !m.paused {
		if !m.clock.Before(m.rEnd) {
			m.clock = m.rStart
			m.refresh()
		}
		m.tickID++
		return m.tick()
	}
	return nil
}

// step pauses and moves the replay clock to the next stage boundary.
func (m *Model) step() tea.Cmd {
	if !m.opts.Replay || m.loading {
		return nil
	}
	m.paused = true
	m.clock = nextEvent(m.all.Items, m.clock, m.rEnd)
	m.refresh()
	return nil
}

// stepBack pauses and moves the replay clock back to the previous stage
// boundary: the flows are built again up to it.
func (m *Model) stepBack() tea.Cmd {
	if !m.opts.Replay || m.loading {
		return nil
	}
	m.paused = true
	m.clock = prevEvent(m.all.Items, m.clock, m.rStart)
	m.refresh()
	return nil
}

func (m *Model) faster() tea.Cmd {
	if m.speed < 10000 {
		m.speed *= 2
	}
	return nil
}

func (m *Model) slower() tea.Cmd {
	if m.speed > 0.25 {
		m.speed /= 2
	}
	return nil
}

// Err is the error that stopped the load, if any (for the command's exit
// status after the program ends).
func (m Model) Err() error { return m.err }

// Warnings are what the load could not read or analyse whole (inputs
// unreadable, the pod limit): the CLI prints them after the screen closes
// and exits as it does for them.
func (m Model) Warnings() []error { return m.warnings }

// Notes are what the load noted but lost nothing by (duplicate lines
// across inputs, clock steps).
func (m Model) Notes() []error { return m.notes }
