// Package tui is gpuav-dbg's terminal UI: a Bubble Tea program that shows a
// session live while the app runs — the error groups on the left, the
// selected group's details and its shader source on the right, a status bar
// at the bottom.
//
// The root [Model] owns the layout, the focus and the shared context
// (common.Common: size, theme styles, key map) and routes messages to the
// panes, each in its own package with a pure Render function:
//
//	tui/errlist  the error list (one row per group)
//	tui/detail   everything about the selected group
//	tui/source   the shader source, highlighted, offending line marked
//	tui/status   app state, device, counts, short help
//
// A launcher hands the UI a [Source] of session snapshots and tells it when
// the session changed, through the Source's Updates channel or by sending
// [UpdatedMsg] to the program; see [Source].
package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/themes"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
	"github.com/gpuav-dbg/gpuav-dbg/tui/detail"
	"github.com/gpuav-dbg/gpuav-dbg/tui/errlist"
	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
	"github.com/gpuav-dbg/gpuav-dbg/tui/source"
	"github.com/gpuav-dbg/gpuav-dbg/tui/status"
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

// updatesMsg is an UpdatedMsg that came through the Source's channel; the
// model listens again after each.
type updatesMsg struct{}

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

// Pane names a focusable pane.
type Pane int

// The panes, in focus order (tab, l) from left to right, top to bottom.
const (
	PaneList Pane = iota
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

// Model is the root Bubble Tea model. Create it with [New].
type Model struct {
	src       Source
	c         *common.Common
	s         *session.Session
	autoTheme bool
	noColor   bool

	list   *errlist.Model
	detail *detail.Model
	source *source.Model
	status *status.Model

	focus    Pane
	showHelp bool
	// shown is the index of the group the detail and source panes show, to
	// notice a change of selection; -1 before the first.
	shown int
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
	c := &common.Common{Styles: common.NewStyles(theme), Keys: keys.Default()}
	m := &Model{
		src:       src,
		c:         c,
		autoTheme: auto && !noColor,
		noColor:   noColor,
		list:      errlist.New(c),
		detail:    detail.New(c),
		source:    source.New(c),
		status:    status.New(c),
		shown:     -1,
	}
	m.refresh()
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

// Session returns the snapshot the model draws.
func (m *Model) Session() *session.Session { return m.s }

// Focus returns the focused pane.
func (m *Model) Focus() Pane { return m.focus }

// Selected returns the index of the selected group.
func (m *Model) Selected() int { return m.list.Selected() }

// HelpShown reports whether the help overlay is open.
func (m *Model) HelpShown() bool { return m.showHelp }

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
	cmds = append(cmds, m.listen())
	return tea.Batch(cmds...)
}

// listen waits for the next notice on the Source's channel.
func (m *Model) listen() tea.Cmd {
	ch := m.src.Updates()
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		if _, ok := <-ch; !ok {
			return nil
		}
		return updatesMsg{}
	}
}

// refresh takes a new snapshot and hands it to the panes.
func (m *Model) refresh() tea.Cmd {
	s := m.src.Snapshot()
	if s == nil {
		s = &session.Session{}
	}
	m.s = s
	m.list.SetGroups(s.Groups)
	cmd := m.status.SetSession(s)
	m.sync(true)
	return cmd
}

// sync shows the selected group in the detail and source panes. A new
// selection resets their scroll; the same group again (from a new snapshot,
// with force) only refreshes what they show.
func (m *Model) sync(force bool) {
	sel := m.list.Selected()
	changed := sel != m.shown
	if !changed && !force {
		return
	}
	g := m.list.SelectedGroup()
	m.detail.SetGroup(g, changed)
	m.source.SetDoc(source.DocFor(m.s, g), changed)
	m.shown = sel
}

func (m *Model) setFocus(p Pane) {
	m.focus = (p + numPanes) % numPanes
	m.list.SetFocused(m.focus == PaneList)
}

// Update routes a message: sizes and themes to everyone, keys to the focused
// pane (after the global keys), the mouse to the pane under it.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.c.Width, m.c.Height = msg.Width, msg.Height
		m.resize()
	case tea.BackgroundColorMsg:
		if m.autoTheme {
			m.c.Styles = common.NewStyles(themes.ForBackground(msg.IsDark()))
		}
	case UpdatedMsg:
		return m, m.refresh()
	case updatesMsg:
		return m, tea.Batch(m.refresh(), m.listen())
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
	case key.Matches(msg, k.NextPane):
		m.setFocus(m.focus + 1)
	case key.Matches(msg, k.PrevPane):
		m.setFocus(m.focus - 1)
	case key.Matches(msg, k.Right):
		m.setFocus(min(m.focus+1, PaneSource))
	case key.Matches(msg, k.Left):
		m.setFocus(max(m.focus-1, PaneList))
	case key.Matches(msg, k.Open) && m.focus == PaneList:
		m.setFocus(PaneSource)
	case key.Matches(msg, k.Back):
		m.setFocus(PaneList)
	default:
		var cmd tea.Cmd
		switch m.focus {
		case PaneList:
			cmd = m.list.Update(msg)
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
	switch {
	case !l.ok || m.showHelp:
	case l.list.contains(ms.X, ms.Y):
		m.list.Move(d)
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
	switch {
	case l.list.contains(ms.X, ms.Y):
		m.setFocus(PaneList)
		if m.list.SelectRow(ms.Y - l.list.y - 1) {
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
	m.list.SetSize(l.list.inner())
	m.detail.SetSize(l.detail.inner())
	m.source.SetSize(l.source.inner())
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
	if len(m.s.Groups) == 0 {
		body = common.Center(m.emptyText(), w, l.bodyHeight)
	} else {
		left := common.Frame(st, m.list.Title(), m.list.View(), l.list.w, l.list.h, m.focus == PaneList)
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
	return body + "\n" + m.status.View()
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
