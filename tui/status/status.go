// Package status is the status bar at the bottom of the screen: the app's
// state (with a spinner while it runs), the device, how many error groups
// and records arrived, dropped records and notices, and the short key help.
package status

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Separator separates the bar's fields.
const Separator = " │ "

// MinHelpWidth is the room the short help needs to say "? help • q quit".
const MinHelpWidth = 16

// StateText says where the app is: "starting", "running", "exited 0",
// "crashed (SIGSEGV)", "failed to start".
func StateText(a session.App) string {
	switch a.State {
	case session.AppExited:
		return fmt.Sprintf("exited %d", a.ExitCode)
	case session.AppCrashed:
		if a.Signal != "" {
			return fmt.Sprintf("crashed (%s)", a.Signal)
		}
		return "crashed"
	case session.AppFailed:
		return "failed to start"
	case session.AppUnknown:
		return "end not recorded"
	case "":
		return "starting"
	}
	return string(a.State)
}

// Live reports whether the app may still produce errors (starting or
// running), which is when the spinner turns.
func Live(a session.App) bool {
	return a.State == "" || a.State == session.AppStarting || a.State == session.AppRunning
}

// Records is the number of error records behind the groups (their counts).
func Records(groups []*session.ErrorGroup) int {
	n := 0
	for _, g := range groups {
		n += g.Count
	}
	return n
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Render draws the bar, exactly width cells: frame is the spinner frame shown
// while the app is live, keys the bindings for the short help, which gets
// whatever room the fields leave. s may be nil (nothing known yet).
//
// run, when not empty, names the run shown ("run 2/3").
func Render(st *common.Styles, s *session.Session, frame, run string, keys help.KeyMap, width int) string {
	if width <= 0 {
		return ""
	}
	if s == nil {
		s = &session.Session{}
	}
	bar := st.Status
	on := func(fg lipgloss.Style) lipgloss.Style { return fg.Inherit(bar) }

	state := StateText(s.App)
	stateStyle := on(st.OK).Bold(true)
	switch {
	case Live(s.App):
		state = frame + " " + state
		stateStyle = bar.Bold(true)
	case s.App.State == session.AppExited && s.App.ExitCode == 0:
	default:
		stateStyle = on(st.Error)
	}
	// Fields in order of importance; the least important go first when the
	// bar is too narrow to leave MinHelpWidth cells for the help.
	type field struct {
		text string
		prio int
	}
	fields := []field{{stateStyle.Render(state), 0}}
	if run != "" {
		fields = append(fields, field{bar.Bold(true).Render(run), 0})
	}
	if s.Device.Name != "" {
		fields = append(fields, field{bar.Render(s.Device.Name), 3})
	}
	if c := ChecksText(s.Settings); c != "" {
		fields = append(fields, field{bar.Render(c), 2})
	}
	counts := plural(len(s.Groups), "group", "groups") + " · " + plural(Records(s.Groups), "record", "records")
	fields = append(fields, field{bar.Render(counts), 0})
	if s.Dropped > 0 {
		fields = append(fields, field{on(st.Warning).Render(fmt.Sprintf("%d records dropped", s.Dropped)), 1})
	}
	if s.LostRecords > 0 {
		// Never shed for room: a count that is lower than the truth says so.
		fields = append(fields, field{on(st.Warning).Render(fmt.Sprintf("%d records lost", s.LostRecords)), 0})
	}
	if n := len(s.Notices); n > 0 {
		fields = append(fields, field{on(st.Warning).Render(plural(n, "notice", "notices")), 2})
	}
	join := func(maxPrio int) string {
		var parts []string
		for _, f := range fields {
			if f.prio <= maxPrio {
				parts = append(parts, f.text)
			}
		}
		return bar.Render(" ") + strings.Join(parts, bar.Render(Separator))
	}
	prio := 3
	left := join(prio)
	for prio > 0 && ansi.StringWidth(left)+len(Separator)+MinHelpWidth > width {
		prio--
		left = join(prio)
	}
	if ansi.StringWidth(left) >= width {
		return bar.Render(common.Fit(left, width))
	}
	rem := width - ansi.StringWidth(left) - ansi.StringWidth(Separator)
	if keys != nil && rem >= MinHelpWidth {
		h := help.New()
		h.Styles = st.Help
		h.SetWidth(rem)
		if hv := h.View(keys); hv != "" {
			left += bar.Render(Separator) + hv
		}
	}
	if pad := width - ansi.StringWidth(left); pad > 0 {
		left += bar.Render(strings.Repeat(" ", pad))
	}
	return ansi.Truncate(left, width, "")
}

// ChecksText summarises the settings: "checks 1/7", plus "reserve-slot"
// when that is on; "" when the session has no settings yet.
func ChecksText(s session.Settings) string {
	if len(s.Checks) == 0 {
		return ""
	}
	on := 0
	for _, v := range s.Checks {
		if v {
			on++
		}
	}
	t := fmt.Sprintf("checks %d/%d", on, len(s.Checks))
	if s.ReserveSlot {
		t += " reserve-slot"
	}
	return t
}

// Model is the status bar's state: the session drawn and the spinner.
type Model struct {
	c        *common.Common
	s        *session.Session
	run      string
	spinner  spinner.Model
	spinning bool
	width    int
}

// New returns a status bar.
func New(c *common.Common) *Model {
	return &Model{c: c, spinner: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
}

// SetRun sets the name of the run shown ("" for none).
func (m *Model) SetRun(r string) { m.run = r }

// SetWidth sets the bar's width.
func (m *Model) SetWidth(w int) { m.width = w }

// SetSession sets the session drawn; it returns the command that starts the
// spinner when the app just became live.
func (m *Model) SetSession(s *session.Session) tea.Cmd {
	m.s = s
	live := s != nil && Live(s.App)
	start := live && !m.spinning
	m.spinning = live
	if start {
		return m.spinner.Tick
	}
	return nil
}

// Init starts the spinner when the app is live.
func (m *Model) Init() tea.Cmd {
	if m.spinning {
		return m.spinner.Tick
	}
	return nil
}

// Update advances the spinner; ticks stop once the app is no longer live.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if t, ok := msg.(spinner.TickMsg); ok {
		if !m.spinning {
			return nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(t)
		return cmd
	}
	return nil
}

// Frame returns the spinner's current frame.
func (m *Model) Frame() string { return m.spinner.View() }

// View draws the bar.
func (m *Model) View() string {
	return Render(m.c.Styles, m.s, m.Frame(), m.run, m.c.Keys, m.width)
}
