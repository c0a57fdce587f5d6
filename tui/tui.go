// Package tui is gpuav-dbg's terminal UI: a Bubble Tea program that shows a
// session live while the app runs — the error groups on the left, the
// selected group's details and its shader source on the right, a status bar
// at the bottom.
//
// The root [Model] owns the layout, the focus and the shared context
// (common.Common: size, theme styles, key map) and routes messages to the
// panes, each in its own package with a pure Render function:
//
//	tui/tree     the error groups as a tree (four groupings), left
//	tui/detail   everything about the selected group
//	tui/source   the shader source, highlighted, offending line marked,
//	             or the SPIR-V disassembly
//	tui/status   app state, run, device, settings, counts, short help
//	tui/logview  the app's output and the notices (screen o)
//	tui/settings checks, reserve slot, safe mode for a re-run (screen s)
//	tui/compare  two runs' counts side by side (screen c)
//
// A launcher hands the UI a [Source] of session snapshots and tells it when
// the session changed, through the Source's Updates channel or by sending
// [UpdatedMsg] to the program; see [Source].
package tui

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/themes"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/compare"
	"github.com/gpuav-dbg/gpuav-dbg/tui/detail"
	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
	"github.com/gpuav-dbg/gpuav-dbg/tui/logview"
	"github.com/gpuav-dbg/gpuav-dbg/tui/settings"
	"github.com/gpuav-dbg/gpuav-dbg/tui/source"
	"github.com/gpuav-dbg/gpuav-dbg/tui/status"
	"github.com/gpuav-dbg/gpuav-dbg/tui/tree"
)

// Source gives the UI the session to draw.
//
// Snapshot returns a consistent copy of the session that the UI may keep
// and read without locks; the UI never modifies it, and the launcher must
// not modify it after handing it out. The UI calls Snapshot once at start
// and again after each update notice.
//
// Updates returns a channel on which the launcher signals that the session
// changed; send without blocking on a channel with a buffer of one, so that
// a burst of changes becomes one notice:
//
//	select { case ch <- struct{}{}: default: }
//
// Closing the channel ends the notices. Updates may return nil: a launcher
// that builds its own program with [New] can instead call
// program.Send(tui.UpdatedMsg{}) whenever the session changes; a session
// opened from a file (gpuav-dbg open) needs neither (see [Static]).
type Source interface {
	Snapshot() *session.Session
	Updates() <-chan struct{}
}

// UpdatedMsg tells the model the session changed: it takes a new snapshot.
// Send it with program.Send(tui.UpdatedMsg{}); it is safe from any goroutine.
type UpdatedMsg struct{}

// Static returns a Source of a fixed session, with no updates: for sessions
// read from a file, demos and tests.
func Static(s *session.Session) Source { return staticSource{s} }

type staticSource struct{ s *session.Session }

func (s staticSource) Snapshot() *session.Session { return s.s }
func (s staticSource) Updates() <-chan struct{}   { return nil }

// Options configure the UI.
type Options struct {
	// Theme is "auto" (or ""), "dark", "light" or "high-contrast". Auto asks
	// the terminal for its background colour and picks dark or light.
	Theme string
	// NoColor draws no colours at all (text attributes only). The NO_COLOR
	// environment variable, when set and non-empty, does the same.
	NoColor bool
	// Rerun runs the app again with the given settings and returns the new
	// run's source; the UI adds it to its history and shows it. nil when
	// the app cannot be run again (a session opened from a file). It is
	// called from a command, not from Update.
	Rerun func(session.Settings) (Source, error)
	// Checks lists the check ids the settings pane offers, in order; nil
	// means gpuav.AllChecks.
	Checks []string
}

// Validate checks the options: the theme must be known.
func (o Options) Validate() error {
	if !themes.Valid(o.Theme) {
		_, err := themes.Get(o.Theme)
		return err
	}
	return nil
}

// MinWidth and MinHeight are the smallest terminal the layout draws in;
// below it the screen says the terminal is too small.
const (
	MinWidth  = 60
	MinHeight = 15
)

// Pane names a focusable pane of the main screen.
type Pane int

// The panes, in focus order (tab, l) from left to right, top to bottom.
const (
	PaneList Pane = iota // the error tree
	PaneDetail
	PaneSource
	numPanes
)

// String returns the pane's name.
func (p Pane) String() string {
	switch p {
	case PaneList:
		return "list"
	case PaneDetail:
		return "detail"
	case PaneSource:
		return "source"
	}
	return fmt.Sprintf("Pane(%d)", int(p))
}

// Screen is what the body shows: the main panes, or one of the full-size
// views (log, settings, compare).
type Screen int

// The screens.
const (
	ScreenMain Screen = iota
	ScreenLog
	ScreenSettings
	ScreenCompare
)

// run is one run of the history.
type run struct {
	src Source
	s   *session.Session
	// disasm caches the shaders' disassembly (SPIR-V does not change).
	disasm map[uint32]*session.Disassembly
}

// Model is the root Bubble Tea model. Create it with [New].
type Model struct {
	c         *common.Common
	opts      Options
	autoTheme bool
	noColor   bool

	runs []*run
	cur  int
	s    *session.Session // runs[cur].s

	tree     *tree.Model
	detail   *detail.Model
	source   *source.Model
	status   *status.Model
	log      *logview.Model
	settings *settings.Model
	compare  *compare.Model

	focus    Pane
	screen   Screen
	showHelp bool
	spirv    bool // the source pane shows the SPIR-V
	// shown is the group the detail and source panes show, to notice a
	// change of selection; -1 before the first.
	shown int

	filtering bool   // the filter prompt has the keyboard
	input     string // the prompt's text
	filter    string // the filter in force
	flash     string // a one-time message for the status bar
	rerunning bool
}

// New returns the UI's model for src. An unknown theme falls back to auto
// (use [Options.Validate] to reject it first).
func New(src Source, opts Options) *Model {
	noColor := opts.NoColor || themes.NoColor()
	theme, err := themes.Get(opts.Theme)
	auto := err != nil
	if auto {
		theme = themes.ForBackground(true) // until the terminal answers
	}
	if noColor {
		theme = theme.Plain()
	}
	if opts.Checks == nil {
		opts.Checks = gpuav.AllChecks
	}
	c := &common.Common{Styles: common.NewStyles(theme), Keys: keys.Default()}
	m := &Model{
		c:         c,
		opts:      opts,
		autoTheme: auto && !noColor,
		noColor:   noColor,
		runs:      []*run{{src: src}},
		tree:      tree.New(c),
		detail:    detail.New(c),
		source:    source.New(c),
		status:    status.New(c),
		log:       logview.New(c),
		settings:  settings.New(c, opts.Rerun != nil),
		compare:   compare.New(c),
		shown:     -1,
	}
	m.refresh(0)
	m.settings.Reset(opts.Checks, m.s.Settings, availability(m.s))
	m.setFocus(PaneList)
	return m
}

// ProgramOptions are the tea.Program options [Run] uses: the context, and
// the ASCII colour profile when colours are off.
func ProgramOptions(ctx context.Context, opts Options) []tea.ProgramOption {
	po := []tea.ProgramOption{tea.WithContext(ctx)}
	if opts.NoColor || themes.NoColor() {
		po = append(po, tea.WithColorProfile(colorprofile.ASCII))
	}
	return po
}

// Run runs the UI on the terminal (alternate screen, mouse in cell-motion
// mode) until the user quits or ctx is done; then it returns nil. It
// listens to src.Updates for changes.
func Run(ctx context.Context, src Source, opts Options) error {
	if err := opts.Validate(); err != nil {
		return err
	}
	p := tea.NewProgram(New(src, opts), ProgramOptions(ctx, opts)...)
	_, err := p.Run()
	if err != nil && ctx.Err() != nil && errors.Is(err, tea.ErrProgramKilled) {
		return nil
	}
	return err
}

// Session returns the snapshot the model draws (the current run's).
func (m *Model) Session() *session.Session { return m.s }

// Focus returns the focused pane.
func (m *Model) Focus() Pane { return m.focus }

// Screen returns the screen shown.
func (m *Model) Screen() Screen { return m.screen }

// Selected returns the index in the session's groups of the selected group
// (the first group below a selected tree node); -1 when there is none.
func (m *Model) Selected() int { return m.tree.Selected() }

// Tree returns the tree pane.
func (m *Model) Tree() *tree.Model { return m.tree }

// HelpShown reports whether the help overlay is open.
func (m *Model) HelpShown() bool { return m.showHelp }

// Runs returns the number of runs in the history; Current the index of the
// one shown.
func (m *Model) Runs() int { return len(m.runs) }

// Current returns the index of the run shown (0 for run 1).
func (m *Model) Current() int { return m.cur }

// RunSession returns run i's latest snapshot.
func (m *Model) RunSession(i int) *session.Session { return m.runs[i].s }

// Filter returns the filter in force ("" for none).
func (m *Model) Filter() string { return m.filter }

// Init asks the terminal for its background colour (theme auto), starts the
// spinner while the app is live, and listens for session updates.
func (m *Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.autoTheme {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if status.Live(m.s.App) {
		cmds = append(cmds, m.status.Init())
	}
	cmds = append(cmds, m.listen(0))
	return tea.Batch(cmds...)
}

// updatesMsg is a notice that came through run's Source channel; the model
// listens again after each.
type updatesMsg struct{ run int }

// rerunMsg is the result of Options.Rerun.
type rerunMsg struct {
	src Source
	err error
}

// listen waits for the next notice on run i's channel.
func (m *Model) listen(i int) tea.Cmd {
	ch := m.runs[i].src.Updates()
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return nil
		}
		return updatesMsg{run: i}
	}
}

// refresh takes a new snapshot of run i; when it is the run shown, the
// panes get it.
func (m *Model) refresh(i int) tea.Cmd {
	r := m.runs[i]
	// The app's strings reach the terminal escaped (session.ForTerminal).
	s := r.src.Snapshot().ForTerminal()
	if s == nil {
		s = &session.Session{}
	}
	r.s = s
	if i != m.cur {
		return nil
	}
	return m.show()
}

// show hands the current run's snapshot to the panes.
func (m *Model) show() tea.Cmd {
	m.s = m.runs[m.cur].s
	m.tree.SetGroups(m.s.Groups)
	if m.filter != "" {
		m.applyFilter(m.filter)
	}
	m.log.SetSession(m.s)
	m.status.SetRun(m.runLabel())
	cmd := m.status.SetSession(m.s)
	m.sync(true)
	if m.screen == ScreenCompare {
		m.setCompare()
	}
	return cmd
}

// runLabel is "run 2/3" once there is a history.
func (m *Model) runLabel() string {
	if len(m.runs) < 2 {
		return ""
	}
	return fmt.Sprintf("run %d/%d", m.cur+1, len(m.runs))
}

// group returns the selected group, nil when none.
func (m *Model) group() *session.ErrorGroup {
	i := m.tree.Selected()
	if i < 0 || i >= len(m.s.Groups) {
		return nil
	}
	return m.s.Groups[i]
}

// sync shows the selected group in the detail and source panes. A new
// selection resets their scroll; the same group again (from a new snapshot,
// with force) only refreshes what they show.
func (m *Model) sync(force bool) {
	sel := m.tree.Selected()
	changed := sel != m.shown
	if !changed && !force {
		return
	}
	g := m.group()
	m.detail.SetGroup(g, changed)
	m.source.SetDoc(m.docFor(g), changed)
	m.shown = sel
}

// docFor is the source pane's doc for g: its source, or the SPIR-V
// disassembly when the user asked for it or there is no source text.
func (m *Model) docFor(g *session.ErrorGroup) source.Doc {
	d := source.DocFor(m.s, g)
	if g == nil || (!m.spirv && !d.Empty()) {
		return d
	}
	r := m.runs[m.cur]
	dis := r.disasm[g.Shader.ID]
	if dis == nil {
		var err error
		dis, err = m.s.Disassemble(g.Shader.ID)
		if err != nil {
			if m.spirv {
				return source.Doc{Note: err.Error()}
			}
			return d
		}
		if r.disasm == nil {
			r.disasm = map[uint32]*session.Disassembly{}
		}
		dis.Lines = sanitize.Lines(dis.Lines) // OpString and OpSource text come from the app
		r.disasm[g.Shader.ID] = dis
	}
	return source.Doc{
		File:  fmt.Sprintf("shader-%d.spvasm", g.Shader.ID),
		Lines: dis.Lines,
		First: 1,
		Mark:  dis.Line(g.Instruction),
		SPIRV: true,
	}
}

func (m *Model) setFocus(p Pane) {
	m.focus = (p + numPanes) % numPanes
	m.tree.SetFocused(m.focus == PaneList)
}

// Update routes a message: sizes and themes to everyone, keys to the filter
// prompt or the focused pane (after the global keys), the mouse to the pane
// under it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.resize()
	case tea.BackgroundColorMsg:
		if m.autoTheme {
			m.c.Styles = common.NewStyles(themes.ForBackground(msg.IsDark()))
			m.log.SetSession(m.s)
		}
	case UpdatedMsg:
		return m, m.refresh(m.cur)
	case updatesMsg:
		if msg.run >= len(m.runs) {
			return m, nil
		}
		return m, tea.Batch(m.refresh(msg.run), m.listen(msg.run))
	case rerunMsg:
		return m, m.rerunDone(msg)
	case spinner.TickMsg:
		return m, m.status.Update(msg)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.MouseWheelMsg:
		m.wheel(msg.Mouse())
	case tea.MouseClickMsg:
		m.click(msg.Mouse())
	}
	return m, nil
}

func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	m.flash = ""
	if m.filtering {
		return m.filterKey(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case m.showHelp:
		if key.Matches(msg, k.Help, k.Back) {
			m.showHelp = false
		}
		return nil
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Rerun):
		return m.rerun()
	case key.Matches(msg, k.PrevRun):
		m.switchRun(m.cur - 1)
	case key.Matches(msg, k.NextRun):
		m.switchRun(m.cur + 1)
	case key.Matches(msg, k.Log):
		m.toggleScreen(ScreenLog)
	case key.Matches(msg, k.Settings):
		if m.screen != ScreenSettings {
			m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
		}
		m.toggleScreen(ScreenSettings)
	case key.Matches(msg, k.Compare):
		if len(m.runs) < 2 {
			m.flash = "compare needs two runs: change the settings (s) and re-run (r)"
			return nil
		}
		m.toggleScreen(ScreenCompare)
		m.setCompare()
	case m.screen != ScreenMain:
		if key.Matches(msg, k.Back) {
			m.screen = ScreenMain
			return nil
		}
		switch m.screen {
		case ScreenLog:
			return m.log.Update(msg)
		case ScreenSettings:
			return m.settings.Update(msg)
		case ScreenCompare:
			return m.compare.Update(msg)
		}
	default:
		return m.mainKey(msg)
	}
	return nil
}

// mainKey handles a key on the main screen.
func (m *Model) mainKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	switch {
	case key.Matches(msg, k.NextPane):
		m.setFocus(m.focus + 1)
	case key.Matches(msg, k.PrevPane):
		m.setFocus(m.focus - 1)
	case key.Matches(msg, k.Filter):
		m.filtering = true
		m.input = m.filter
	case key.Matches(msg, k.NextMatch):
		m.tree.NextLeaf(1)
		m.sync(false)
	case key.Matches(msg, k.PrevMatch):
		m.tree.NextLeaf(-1)
		m.sync(false)
	case key.Matches(msg, k.Grouping):
		m.tree.SetGrouping(m.tree.Grouping() + 1)
	case key.Matches(msg, k.Group1):
		m.tree.SetGrouping(tree.ByCommandBuffer)
	case key.Matches(msg, k.Group2):
		m.tree.SetGrouping(tree.ByPipeline)
	case key.Matches(msg, k.Group3):
		m.tree.SetGrouping(tree.BySource)
	case key.Matches(msg, k.Group4):
		m.tree.SetGrouping(tree.ByCheck)
	case key.Matches(msg, k.NextInShader):
		m.jumpInShader(1)
	case key.Matches(msg, k.PrevInShader):
		m.jumpInShader(-1)
	case key.Matches(msg, k.SPIRV):
		m.spirv = !m.spirv
		m.source.SetDoc(m.docFor(m.group()), true)
	case m.focus == PaneList && key.Matches(msg, k.Left):
		m.tree.Left()
		m.sync(false)
	case m.focus == PaneList && key.Matches(msg, k.Right) && m.tree.IsCollapsed():
		m.tree.SetCollapsed(false)
	case key.Matches(msg, k.Right):
		m.setFocus(min(m.focus+1, PaneSource))
	case key.Matches(msg, k.Left):
		m.setFocus(max(m.focus-1, PaneList))
	case key.Matches(msg, k.Open) && m.focus == PaneList:
		if n := m.tree.SelectedNode(); n != nil && !n.Leaf() {
			m.tree.Toggle()
			return nil
		}
		m.setFocus(PaneSource)
	case key.Matches(msg, k.Back):
		if m.filter != "" && m.focus == PaneList {
			m.applyFilter("")
			m.sync(false)
			return nil
		}
		m.setFocus(PaneList)
	default:
		var cmd tea.Cmd
		switch m.focus {
		case PaneList:
			cmd = m.tree.Update(msg)
			m.sync(false)
		case PaneDetail:
			cmd = m.detail.Update(msg)
		case PaneSource:
			cmd = m.source.Update(msg)
		}
		return cmd
	}
	return nil
}

// filterKey handles a key while the filter prompt is open: enter keeps the
// filter, esc drops it, backspace and ctrl+u edit it, printable keys type;
// the filter applies as it is typed.
func (m *Model) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "enter":
		m.filtering = false
		return nil
	case "esc", "ctrl+c":
		m.filtering = false
		m.input = ""
	case "backspace", "ctrl+h":
		if r := []rune(m.input); len(r) > 0 {
			m.input = string(r[:len(r)-1])
		}
	case "ctrl+u":
		m.input = ""
	default:
		if msg.Text == "" {
			return nil
		}
		m.input += msg.Text
	}
	if m.input != m.filter {
		m.applyFilter(m.input)
		m.sync(false)
	}
	return nil
}

// Match reports whether group g matches filter q: a case-insensitive
// substring of its message, source file, check, action or debug labels.
func Match(g *session.ErrorGroup, q string) bool {
	q = strings.ToLower(q)
	has := func(s string) bool { return strings.Contains(strings.ToLower(s), q) }
	if has(g.Message()) || has(g.Check) || has(g.Action) || has(tree.ActionText(g)) {
		return true
	}
	if g.Source != nil && has(g.Source.File) {
		return true
	}
	for _, l := range g.Labels {
		if has(l) {
			return true
		}
	}
	return false
}

// applyFilter puts filter q in force ("" for none).
func (m *Model) applyFilter(q string) {
	m.filter = q
	if q == "" {
		m.tree.SetFilter(nil)
		return
	}
	groups := m.s.Groups
	m.tree.SetFilter(func(i int) bool { return Match(groups[i], q) })
}

// jumpInShader selects the d-th next (±1) error group of the selected
// group's shader, in source order (line, column, instruction), wrapping.
func (m *Model) jumpInShader(d int) {
	g := m.group()
	if g == nil {
		return
	}
	cur := m.tree.Selected()
	var same []int
	for i, o := range m.s.Groups {
		if o.Shader.ID == g.Shader.ID && (m.filter == "" || Match(o, m.filter)) {
			same = append(same, i)
		}
	}
	pos := func(i int) [4]int {
		o := m.s.Groups[i]
		p := [4]int{0, 0, int(o.Instruction), i}
		if o.Source != nil {
			p[0], p[1] = o.Source.Line, o.Source.Column
		}
		return p
	}
	sort.Slice(same, func(a, b int) bool {
		pa, pb := pos(same[a]), pos(same[b])
		for k := range pa {
			if pa[k] != pb[k] {
				return pa[k] < pb[k]
			}
		}
		return false
	})
	at := 0
	for k, i := range same {
		if i == cur {
			at = k
		}
	}
	if len(same) < 2 {
		m.flash = "no other error in this shader"
		return
	}
	next := same[((at+d)%len(same)+len(same))%len(same)]
	m.tree.SelectGroup(next)
	m.sync(false)
}

func (m *Model) toggleScreen(s Screen) {
	if m.screen == s {
		m.screen = ScreenMain
		return
	}
	m.screen = s
}

// setCompare compares the run shown with the one before it (run 1 with run
// 2 when run 1 is shown).
func (m *Model) setCompare() {
	if len(m.runs) < 2 {
		return
	}
	a, b := m.cur-1, m.cur
	if a < 0 {
		a, b = 0, 1
	}
	m.compare.Set(m.runs[a].s, m.runs[b].s, fmt.Sprintf("run %d", a+1), fmt.Sprintf("run %d", b+1))
}

// switchRun shows run i of the history.
func (m *Model) switchRun(i int) {
	if i < 0 || i >= len(m.runs) || i == m.cur {
		return
	}
	m.cur = i
	m.shown = -1
	m.show()
	m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
}

// rerun runs the app again with the settings pane's settings.
func (m *Model) rerun() tea.Cmd {
	if m.opts.Rerun == nil {
		m.flash = "re-run is not available for a saved session"
		return nil
	}
	if m.rerunning {
		return nil
	}
	m.rerunning = true
	set, fn := m.settings.Settings(), m.opts.Rerun
	return func() tea.Msg {
		src, err := fn(set)
		return rerunMsg{src: src, err: err}
	}
}

// rerunDone adds a new run to the history and shows it.
func (m *Model) rerunDone(msg rerunMsg) tea.Cmd {
	m.rerunning = false
	if msg.err != nil {
		m.flash = "re-run failed: " + msg.err.Error()
		return nil
	}
	if msg.src == nil {
		return nil
	}
	m.runs = append(m.runs, &run{src: msg.src})
	m.cur = len(m.runs) - 1
	m.screen = ScreenMain
	m.shown = -1
	cmd := m.refresh(m.cur)
	m.settings.Reset(m.opts.Checks, m.s.Settings, availability(m.s))
	return tea.Batch(cmd, m.listen(m.cur))
}

// wheelStep is how many rows the wheel scrolls the detail and source panes.
const wheelStep = 3

func (m *Model) wheel(ms tea.Mouse) {
	d := 0
	switch ms.Button {
	case tea.MouseWheelUp:
		d = -1
	case tea.MouseWheelDown:
		d = 1
	default:
		return
	}
	l := computeLayout(m.c.Width, m.c.Height)
	if !l.ok || m.showHelp {
		return
	}
	switch m.screen {
	case ScreenLog:
		m.log.Scroll(d * wheelStep)
		return
	case ScreenCompare, ScreenSettings:
		if m.screen == ScreenCompare {
			m.compare.Scroll(d * wheelStep)
		}
		return
	}
	switch {
	case l.list.contains(ms.X, ms.Y):
		m.tree.Move(d)
		m.sync(false)
	case l.detail.contains(ms.X, ms.Y):
		m.detail.Scroll(d * wheelStep)
	case l.source.contains(ms.X, ms.Y):
		m.source.Scroll(d * wheelStep)
	}
}

func (m *Model) click(ms tea.Mouse) {
	l := computeLayout(m.c.Width, m.c.Height)
	if !l.ok || m.showHelp || ms.Button != tea.MouseLeft {
		return
	}
	if m.screen == ScreenSettings {
		if m.settings.SelectRow(ms.Y - 1) {
			m.settings.Toggle()
		}
		return
	}
	if m.screen != ScreenMain {
		return
	}
	switch {
	case l.list.contains(ms.X, ms.Y):
		m.setFocus(PaneList)
		if m.tree.SelectRow(ms.Y - l.list.y - 1) {
			m.sync(false)
		}
	case l.detail.contains(ms.X, ms.Y):
		m.setFocus(PaneDetail)
	case l.source.contains(ms.X, ms.Y):
		m.setFocus(PaneSource)
	}
}

func (m *Model) resize() {
	l := computeLayout(m.c.Width, m.c.Height)
	m.tree.SetSize(l.list.inner())
	m.detail.SetSize(l.detail.inner())
	m.source.SetSize(l.source.inner())
	m.log.SetSize(l.full.inner())
	m.settings.SetSize(l.full.inner())
	m.compare.SetSize(l.full.inner())
	m.status.SetWidth(m.c.Width)
}

// View draws the screen in the alternate screen buffer with the mouse on.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "gpuav-dbg"
	if m.s.App.Path != "" {
		v.WindowTitle += " — " + m.s.App.Path
	}
	return v
}

// Render draws the screen as a string of exactly Width×Height cells (empty
// before the first size is known).
func (m *Model) Render() string {
	w, h := m.c.Width, m.c.Height
	if w <= 0 || h <= 0 {
		return ""
	}
	st := m.c.Styles
	l := computeLayout(w, h)
	if !l.ok {
		msg := fmt.Sprintf("terminal too small (%dx%d), need at least %dx%d", w, h, MinWidth, MinHeight)
		return common.Center(st.Warning.Render(ansi.Wrap(msg, w, "")), w, h)
	}
	var body string
	switch {
	case m.screen == ScreenLog:
		body = common.Frame(st, m.log.Title(), m.log.View(), l.full.w, l.full.h, true)
	case m.screen == ScreenSettings:
		body = common.Frame(st, m.settings.Title(), m.settings.View(), l.full.w, l.full.h, true)
	case m.screen == ScreenCompare:
		body = common.Frame(st, m.compare.Title(), m.compare.View(), l.full.w, l.full.h, true)
	case len(m.s.Groups) == 0:
		body = common.Center(m.emptyText(), w, l.bodyHeight)
	default:
		title := m.tree.Title()
		if m.filter != "" {
			title += " /" + m.filter
		}
		left := common.Frame(st, title, m.tree.View(), l.list.w, l.list.h, m.focus == PaneList)
		right := common.Frame(st, m.detail.Title(), m.detail.View(), l.detail.w, l.detail.h, m.focus == PaneDetail) +
			"\n" + common.Frame(st, m.source.Title(), m.source.View(), l.source.w, l.source.h, m.focus == PaneSource)
		ll, rl := common.Lines(left), common.Lines(right)
		rows := make([]string, l.bodyHeight)
		for i := range rows {
			rows[i] = ll[i] + rl[i]
		}
		body = strings.Join(rows, "\n")
	}
	if m.showHelp {
		body = m.helpOverlay(body, w, l.bodyHeight)
	}
	return body + "\n" + m.bottomLine()
}

// bottomLine is the status bar, or the filter prompt while it is open, or a
// one-time message.
func (m *Model) bottomLine() string {
	st := m.c.Styles
	w := m.c.Width
	switch {
	case m.filtering:
		n := m.tree.Total()
		return common.Fit(st.Bold.Render("/"+m.input)+st.Selected.Render(" ")+
			st.Muted.Render(fmt.Sprintf("  %d matching groups · enter keeps · esc clears", n)), w)
	case m.flash != "":
		return st.Status.Render(common.Fit(" "+m.flash, w))
	case m.rerunning:
		return st.Status.Render(common.Fit(" re-running the app…", w))
	}
	return m.status.View()
}

// emptyText is the body while there are no errors: waiting, or none found.
func (m *Model) emptyText() string {
	st := m.c.Styles
	a := m.s.App
	head := st.Bold.Render("waiting for errors…")
	switch {
	case a.State == session.AppFailed:
		head = st.Error.Render("the app failed to start")
	case !status.Live(a):
		head = st.OK.Render("no validation errors")
	}
	app := "app " + status.StateText(a)
	if a.Path != "" {
		app = a.Path + " " + status.StateText(a)
	}
	if a.PID != 0 && status.Live(a) {
		app += fmt.Sprintf(" (pid %d)", a.PID)
	}
	lines := []string{head, "", st.Muted.Render(app)}
	// The last few notices explain an empty list (the layer never loaded,
	// shaders left uninstrumented).
	ns := m.s.Notices
	if len(ns) > 3 {
		ns = ns[len(ns)-3:]
	}
	for _, n := range ns {
		style := st.Muted
		switch n.Level {
		case "warning":
			style = st.Warning
		case "error":
			style = st.Error
		}
		lines = append(lines, style.Render(n.Text))
	}
	return strings.Join(lines, "\n")
}

// helpOverlay draws the full key help in a frame centred over body.
func (m *Model) helpOverlay(body string, w, h int) string {
	hm := help.New()
	hm.Styles = m.c.Styles.Help
	hm.SetWidth(w - 6)
	content := hm.FullHelpView(m.c.Keys.FullHelp())
	cl := common.Lines(content)
	bw, bh := 0, len(cl)+2
	for _, l := range cl {
		bw = max(bw, ansi.StringWidth(l))
	}
	bw = min(bw+4, w)
	bh = min(bh, h)
	inner := make([]string, len(cl))
	for i, l := range cl {
		inner[i] = " " + l
	}
	box := common.Frame(m.c.Styles, "Keys (? or esc to close)", strings.Join(inner, "\n"), bw, bh, true)
	return common.Overlay(body, box, (w-bw)/2, (h-bh)/2)
}
