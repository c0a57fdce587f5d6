// Package tui is gpuav-dbg's terminal UI: a Bubble Tea program that shows a
// session live while the app runs — the error groups on the left, the
// selected group's details and its shader source on the right, a status bar
// at the bottom.
//
// The root [Model] owns the layout, the focus and the shared context
// (common.Common: size, theme styles, key map). Every pane and screen keeps
// one contract, [common.Component] (SetSize, Update, View, Title and its
// key help), and lives in its own package with a pure Render function that
// golden files pin; the root routes keys, the mouse, resizes and rendering
// through a table of screens and their panes (screens.go), not a switch per
// pane:
//
//	tui/tree     the error groups as a tree (four groupings), left
//	tui/detail   everything about the selected group
//	tui/source   the shader source, highlighted, offending line marked,
//	             or the SPIR-V disassembly
//	tui/status   app state, run, device, settings, counts, short help
//	tui/logview  the app's output and the notices (screen o)
//	tui/settings checks, reserve slot, on error, robust for a re-run (screen s)
//	tui/compare  two runs' counts side by side (screen c)
//	tui/helpview every key (the ? overlay)
//
// A launcher hands the UI a [Source] of session snapshots and tells it when
// the session changed, through the Source's Updates channel or by sending
// [UpdatedMsg] to the program; see [Source].
package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/themes"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/compare"
	"github.com/gpuav-dbg/gpuav-dbg/tui/detail"
	"github.com/gpuav-dbg/gpuav-dbg/tui/helpview"
	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
	"github.com/gpuav-dbg/gpuav-dbg/tui/logview"
	"github.com/gpuav-dbg/gpuav-dbg/tui/printfview"
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

// Rerunner runs the app again (r) and stops the apps that still run: a
// re-run while an app still runs asks the user, stops it, then runs. The
// launcher implements it; nil Options.Rerun means the app cannot run again
// (a session opened from a file).
type Rerunner interface {
	// Rerun starts the app again with set and returns the new run's source.
	// It is called from a command, not from Update; a run whose app failed
	// to start is returned with the error.
	Rerun(set session.Settings) (Source, error)
	// Running reports whether an app the launcher started (the first run
	// or a re-run) still runs.
	Running() bool
	// Stop ends every app that still runs (SIGTERM, then SIGKILL after a
	// grace time) and returns once they have exited. Called from a command.
	Stop() error
}

// Options configure the UI.
type Options struct {
	// Theme is "auto" (or ""), "dark", "light" or "high-contrast". Auto asks
	// the terminal for its background colour and picks dark or light.
	Theme string
	// NoColor draws no colours at all (text attributes only). The NO_COLOR
	// environment variable, when set and non-empty, does the same.
	NoColor bool
	// Rerun runs the app again with the settings pane's settings; the UI
	// adds the new run to its history and shows it. nil when the app cannot
	// run again (a session opened from a file).
	Rerun Rerunner
	// Checks lists the check ids the settings pane offers, in order; nil
	// means gpuav.AllChecks.
	Checks []string
	// SourceDirs are the directories the user lets the session read source
	// files from (the app's working directory, --source-path): e opens a
	// shader's file in $EDITOR only when it is found there.
	SourceDirs []string
	// Getenv reads the environment ($VISUAL, $EDITOR); nil means os.Getenv.
	Getenv func(string) string
	// PrintfAt is the printf screen's coordinate filter at first
	// (--printf-at).
	PrintfAt session.PrintfFilter
	// Mute lists check ids and VUIDs whose groups start muted (--mute,
	// GPUAV_DBG_MUTE): hidden from the tree, counted in the status bar.
	Mute []string
	// Continue lets the app the layer paused at its first error
	// (--stop-on-error) continue (c), and reports whether a paused app
	// was reached; nil when no app can continue (a session opened from a
	// file). It is called from a command, not from Update.
	Continue func() bool
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
// below it the screen says the terminal is too small. 80×24 and wider
// terminals are the ones the layout is made for (see layout.go).
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
	ScreenPrintf
)

// Model is the root Bubble Tea model. Create it with [New].
type Model struct {
	c         *common.Common
	opts      Options
	autoTheme bool
	noColor   bool

	runs []*run
	cur  int
	s    *session.Session // runs[cur].s
	// records counts the records of the current run's groups.
	records int

	tree     *tree.Model
	detail   *detail.Model
	source   *source.Model
	status   *status.Model
	log      *logview.Model
	settings *settings.Model
	compare  *compare.Model
	printf   *printfview.Model
	help     *helpview.Model

	// screens is the screen table (screens.go); screen names the one shown.
	screens []screenEntry
	screen  Screen
	// lay is the layout in force; relayout changes it and resizes the
	// panes when the size, the focus or the tree's width changes.
	lay screenLayout
	// focus is the focused pane of the main screen.
	focus    Pane
	showHelp bool
	spirv    bool // the source pane shows the SPIR-V
	// shown is the group the detail and source panes show, to notice a
	// change of selection; -1 before the first.
	shown int

	filtering bool            // the filter prompt has the keyboard
	prompt    textinput.Model // the filter prompt
	filter    string          // the filter in force
	// muted are the checks and VUIDs whose groups the tree hides (m, M,
	// Options.Mute); the status bar counts them.
	muted []string
	flash string // a one-time message for the status bar
	// placing says a placeMsg is on its way.
	placing bool
	// confirm, when set, is the question the user must answer first.
	confirm   *confirmation
	rerunning string // what the re-run is doing ("" when idle)
	// pauseShown is the stop at the first error whose error was last
	// selected (pause.go).
	pauseShown session.Pause
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
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
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
		compare:   compare.New(c, opts.Checks),
		printf:    printfview.New(c, opts.PrintfAt),
		help:      helpview.New(c),
		shown:     -1,
		prompt:    newPrompt(c.Styles),
	}
	m.screens = m.screenTable()
	m.muted = slices.Clone(opts.Mute)
	m.refresh(0)
	if len(m.muted) > 0 {
		m.applyFilter("")
	}
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

// Confirming reports whether the model waits for a yes or no.
func (m *Model) Confirming() bool { return m.confirm != nil }

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

// Update routes a message: sizes and themes to everyone, keys to the
// question or the filter prompt or the global keys or the focused pane
// (screens.go), the mouse to the pane under it. The layout follows what
// the message changed.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.relayout()
	if m.tree.Pending() && !m.placing {
		// More groups to place: one step per message, keys in between.
		m.placing = true
		cmd = tea.Batch(cmd, func() tea.Msg { return placeMsg{} })
	}
	return m, cmd
}

// placeMsg places the next step of the groups a large snapshot brought.
type placeMsg struct{}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		if m.autoTheme {
			m.c.Styles = common.NewStyles(themes.ForBackground(msg.IsDark()))
			m.prompt = restyle(m.prompt, m.c.Styles)
			m.lay = screenLayout{} // lay out (and draw) everything again
		}
	case UpdatedMsg:
		return m.refresh(m.cur)
	case snapshotMsg:
		return m.applySnapshot(msg)
	case rerunMsg:
		return m.rerunDone(msg)
	case continuedMsg:
		m.continued(msg)
	case placeMsg:
		m.placing = false
		m.tree.Continue()
		m.setCounts()
		m.sync(false)
	case compare.OpenMsg:
		m.openCompared(msg)
	case editedMsg:
		if msg.err != nil {
			m.flash = "editor: " + msg.err.Error()
		}
	case spinner.TickMsg:
		return m.status.Update(msg)
	case tea.KeyPressMsg:
		return m.key(msg)
	case tea.MouseWheelMsg, tea.MouseClickMsg:
		return m.mouse(msg)
	}
	return nil
}

// key handles a key: the question while one is asked, the filter prompt
// while it is open, the help overlay while it shows, then the global keys
// (quit, help, re-run, runs, the screens' keys), then the screen shown.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := m.c.Keys
	m.flash = ""
	switch {
	case m.confirm != nil:
		return m.answer(msg)
	case m.filtering:
		return m.filterKey(msg)
	case m.capturing():
		return m.focused().Update(msg)
	case key.Matches(msg, k.Quit):
		return tea.Quit
	case m.showHelp:
		if key.Matches(msg, k.Help, k.Back) {
			m.showHelp = false
			return nil
		}
		return m.help.Update(msg)
	case key.Matches(msg, k.Help):
		m.showHelp = true
	case key.Matches(msg, k.Continue) && m.canContinue():
		return m.continueApp()
	case key.Matches(msg, k.Rerun):
		return m.rerun()
	case key.Matches(msg, k.RerunErrors):
		return m.rerunErrors()
	case key.Matches(msg, k.PrevRun):
		m.switchRun(m.cur - 1)
	case key.Matches(msg, k.NextRun):
		m.switchRun(m.cur + 1)
	default:
		if e := m.toggledBy(msg); e != nil {
			m.toggle(e)
			return nil
		}
		return m.screenKey(msg)
	}
	return nil
}

// View draws the screen in the alternate screen buffer with the mouse on.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "gpuav-dbg"
	if m.s.App.Path != "" {
		v.WindowTitle += " — " + common.Clean(m.s.App.Path)
	}
	return v
}

// Render draws the screen as a string of exactly Width×Height cells (empty
// before the first size is known): the body, the status bar and the
// footer of keys.
func (m *Model) Render() string {
	w, h := m.c.Width, m.c.Height
	if w <= 0 || h <= 0 {
		return ""
	}
	st := m.c.Styles
	l := m.lay
	if !l.ok {
		msg := fmt.Sprintf("terminal too small (%dx%d), need at least %dx%d", w, h, MinWidth, MinHeight)
		return common.Center(st.Warning.Render(ansi.Wrap(msg, w, "")), w, h)
	}
	var body string
	if m.screen == ScreenMain && len(m.s.Groups) == 0 {
		body = common.Center(m.emptyText(), w, l.bodyHeight)
	} else {
		body = m.renderScreen(l)
	}
	switch {
	case m.confirm != nil:
		body = m.overlay(body, m.confirm.title, m.confirm.lines(st, w-4))
	case m.showHelp:
		body = m.helpOverlay(body)
	}
	return body + "\n" + m.statusLine() + "\n" + m.footer()
}

// statusLine is the status bar, or a one-time message, or what a re-run is
// doing.
func (m *Model) statusLine() string {
	st := m.c.Styles
	switch {
	case m.flash != "":
		return common.Bar([]common.Seg{{Text: " " + m.flash}}, st.Theme.StatusFg, st.Theme.StatusBg, m.c.Width)
	case m.rerunning != "":
		return common.Bar([]common.Seg{{Text: " " + m.rerunning}}, st.Theme.StatusFg, st.Theme.StatusBg, m.c.Width)
	}
	return m.status.View()
}

// footer is the keys that work where the focus is, or the filter prompt
// while it is open.
func (m *Model) footer() string {
	if m.filtering {
		return m.promptLine()
	}
	return status.RenderKeys(m.c.Styles, m.footerKeys(), m.c.Width)
}

// emptyText is the body while there are no errors: waiting; none found
// (green only when everything was checked); nothing or not everything
// checked, with the causes; or an app that failed to start. The notices
// are in the log screen (o), counted here.
func (m *Model) emptyText() string {
	st := m.c.Styles
	a := m.s.App
	verdict, causes := m.s.Verdict()
	head := st.Bold.Render("waiting for errors…")
	switch {
	case status.Live(a):
		causes = nil
	case verdict == session.VerdictFailed:
		head = st.Error.Render("the app failed to start")
	case verdict == session.VerdictNone:
		head = st.Error.Render("not checked: nothing was validated")
	case verdict == session.VerdictPartly:
		head = st.Warning.Render("no validation errors in what was checked — not everything was checked")
	default:
		head = st.OK.Render("no validation errors")
	}
	app := "app " + status.StateText(a)
	if a.Path != "" {
		app = common.Clean(a.Path) + " " + status.StateText(a)
	}
	if a.PID != 0 && status.Live(a) {
		app += fmt.Sprintf(" (pid %d)", a.PID)
	}
	lines := []string{head, "", st.Muted.Render(app)}
	width := max(m.c.Width-4, 20)
	style := st.Warning
	if verdict == session.VerdictNone {
		style = st.Error
	}
	for _, u := range causes {
		for _, l := range strings.Split(ansi.Wrap(common.Clean(u.String()), width, " "), "\n") {
			lines = append(lines, style.Render(l))
		}
	}
	// The last few warnings explain an empty list (the layer never
	// loaded: how to find out why); information (caches, latency) stays
	// in the log.
	var warned []session.Notice
	for _, n := range m.s.Notices {
		if n.Level == "warning" || n.Level == "error" {
			warned = append(warned, n)
		}
	}
	if len(warned) > 3 {
		warned = warned[len(warned)-3:]
	}
	if len(warned) > 0 {
		lines = append(lines, "")
	}
	for _, n := range warned {
		style := st.Warning
		if n.Level == "error" {
			style = st.Error
		}
		for _, l := range strings.Split(ansi.Wrap(common.Clean(n.Text), width, " "), "\n") {
			lines = append(lines, style.Render(l))
		}
	}
	// What the run looked at, as one block (centred as a whole).
	if !status.Live(a) && verdict != session.VerdictFailed && (a.LayerLoaded || len(m.s.Shaders) > 0) {
		block := m.s.Coverage().Lines()
		w := 0
		for i, l := range block {
			block[i] = common.Clean(l)
			w = max(w, ansi.StringWidth(block[i]))
		}
		lines = append(lines, "")
		for _, l := range block {
			lines = append(lines, st.Muted.Render(l+strings.Repeat(" ", max(w-ansi.StringWidth(l), 0))))
		}
	}
	if n := len(m.s.Notices); n > 0 {
		word := "notices"
		if n == 1 {
			word = "notice"
		}
		lines = append(lines, "", st.Muted.Render(fmt.Sprintf("%d %s: o shows them", n, word)))
	}
	return strings.Join(lines, "\n")
}

// helpOverlay draws the key help in a frame centred over body.
func (m *Model) helpOverlay(body string) string {
	w, h := m.help.Size()
	box := common.FrameMore(m.c.Styles, m.help.Title(), m.help.View(), w+2, h+2, true, m.help.More())
	return common.Overlay(body, box, (m.c.Width-w-2)/2, (m.lay.bodyHeight-h-2)/2)
}

// overlay draws lines in a frame titled title centred over body.
func (m *Model) overlay(body, title string, lines []string) string {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	w, h := min(w+4, m.c.Width), min(len(lines)+2, m.lay.bodyHeight)
	for i, l := range lines {
		lines[i] = " " + l
	}
	box := common.Frame(m.c.Styles, title, strings.Join(lines, "\n"), w, h, true)
	return common.Overlay(body, box, (m.c.Width-w)/2, (m.lay.bodyHeight-h)/2)
}
