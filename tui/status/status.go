// Package status is the two bars at the bottom of the screen: the status
// bar — the app's state (with a spinner while it runs), the run, how many
// error groups and records arrived (and how many the filter keeps), dropped
// records, notices, the checks and the device — and the footer, the keys
// that work in the focused pane.
package status

import (
	"fmt"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// Now is the bar's clock, for the watchdog's countdown (tests set it).
var Now = time.Now

// Separator separates the bar's fields.
const Separator = " │ "

// StateText says where the app is: "starting", "running", "exited 0",
// "crashed (SIGSEGV)", "failed to start", "stopped by you".
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
	case "stopped": // the launcher stopped it for the user (Ctrl-C, a re-run)
		return "stopped by you"
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

// Counts are the group and record counts the bar shows: of the whole
// session, and, while a filter is in force, of the groups it keeps.
type Counts struct {
	Groups, Records int
	// Filtered says a filter is in force; Shown and ShownRecords are what
	// it keeps.
	Filtered                  bool
	ShownGroups, ShownRecords int
	// PrintfLines are the shaders' printf lines (the p screen).
	PrintfLines int
	// Muted and MutedRecords are the groups muted (m, M) and their
	// records: hidden from the tree, counted here.
	Muted, MutedRecords int
}

// Text is "2 groups · 68 records", or "1 of 2 groups · 4 of 68 records"
// under a filter or with groups muted, then " · 24 printf lines" when
// shaders printed and " · 1 muted (u)" when groups are muted.
func (c Counts) Text() string {
	printf := ""
	if c.PrintfLines > 0 {
		printf = " · " + plural(c.PrintfLines, "printf line", "printf lines")
	}
	if c.Muted > 0 {
		printf += fmt.Sprintf(" · %d muted (u)", c.Muted)
	}
	if !c.Filtered && c.Muted == 0 {
		return plural(c.Groups, "group", "groups") + " · " + plural(c.Records, "record", "records") + printf
	}
	of := func(n, total int, one, many string) string {
		if total == 1 {
			return fmt.Sprintf("%d of 1 %s", n, one)
		}
		return fmt.Sprintf("%d of %d %s", n, total, many)
	}
	return of(c.ShownGroups, c.Groups, "group", "groups") + " · " + of(c.ShownRecords, c.Records, "record", "records") + printf
}

// Render draws the bar, exactly width cells: frame is the spinner frame
// shown while the app is live; run, when not empty, names the run shown
// ("run 2/3"). The least important fields go first when the bar is too
// narrow. s may be nil (nothing known yet).
func Render(st *common.Styles, s *session.Session, frame, run string, counts Counts, width int) string {
	if width <= 0 {
		return ""
	}
	if s == nil {
		s = &session.Session{}
	}
	th := st.Theme
	state := StateText(s.App)
	verdict, _ := s.Verdict()
	if Live(s.App) {
		verdict = session.VerdictChecked // nothing is known yet
	}
	stateSeg := common.Seg{Text: state, Fg: th.StatusOK, Bold: true}
	switch {
	case Live(s.App):
		stateSeg = common.Seg{Text: frame + " " + state, Bold: true}
	case s.App.State == session.AppExited && s.App.ExitCode == 0 && verdict == session.VerdictChecked:
	case s.App.State == session.AppExited && s.App.ExitCode == 0:
		// The app did well, the run did not check it all: no green.
		stateSeg = common.Seg{Text: state, Bold: true}
	default:
		stateSeg = common.Seg{Text: state, Fg: th.StatusError, Bold: true}
	}
	if Live(s.App) && s.Paused() != nil {
		// The app waits in the layer: no spinner, and how to go on.
		stateSeg = common.Seg{Text: PausedText, Fg: th.StatusWarning, Bold: true}
	}
	// Fields in order of importance (prio 0 stays).
	type field struct {
		seg  common.Seg
		prio int
	}
	fields := []field{{stateSeg, 0}}
	if run != "" {
		fields = append(fields, field{common.Seg{Text: run, Bold: true}, 0})
	}
	// Never shed: an empty list that checked nothing, or not everything,
	// says so.
	switch verdict {
	case session.VerdictNone:
		fields = append(fields, field{common.Seg{Text: VerdictNoneText, Fg: th.StatusError, Bold: true}, 0})
	case session.VerdictPartly:
		fields = append(fields, field{common.Seg{Text: VerdictPartlyText, Fg: th.StatusWarning, Bold: true}, 0})
	}
	fields = append(fields, field{common.Seg{Text: counts.Text()}, 0})
	if s.Dropped > 0 {
		fields = append(fields, field{common.Seg{Text: fmt.Sprintf("%d records dropped", s.Dropped), Fg: th.StatusWarning}, 1})
	}
	for _, h := range s.Hangs {
		if h.Slow() {
			// A submission that finished after the watchdog's limit: a
			// warning, shed before the counts.
			fields = append(fields, field{common.Seg{Text: h.Short(), Fg: th.StatusWarning}, 1})
			continue
		}
		// Never shed: where the GPU was when it hung (the notices, o,
		// have the whole group).
		fields = append(fields, field{common.Seg{Text: h.Short(), Fg: th.StatusError, Bold: true}, 0})
	}
	if busy := s.BusyText(Now()); busy != "" && Live(s.App) {
		// Never shed: the GPU has made no progress for a while, and the
		// watchdog says when it will call it a hang.
		fields = append(fields, field{common.Seg{Text: busy, Fg: th.StatusWarning, Bold: true}, 0})
	}
	if s.LostRecords > 0 {
		// Never shed for room: a count lower than the truth says so.
		fields = append(fields, field{common.Seg{Text: fmt.Sprintf("%d records lost", s.LostRecords), Fg: th.StatusWarning}, 0})
	}
	if n := len(s.Notices); n > 0 {
		// Error-level notices (a pipeline left unchecked, a device not
		// instrumented) are not to be missed: counted, in the error colour.
		errs := 0
		for _, no := range s.Notices {
			if no.Level == "error" {
				errs++
			}
		}
		if errs > 0 {
			text := plural(n, "notice", "notices") + ", " + plural(errs, "error", "errors") + " (o)"
			fields = append(fields, field{common.Seg{Text: text, Fg: th.StatusError, Bold: true}, 1})
		} else {
			fields = append(fields, field{common.Seg{Text: plural(n, "notice", "notices") + " (o)", Fg: th.StatusWarning}, 2})
		}
	}
	// What was asked for is not what ran when nothing was checked.
	if c := ChecksText(s.Settings); c != "" && verdict != session.VerdictNone {
		fields = append(fields, field{common.Seg{Text: c}, 3})
		// The default goes first for room; clamp, execute and robust
		// change what the app computes, so they stay longer.
		prio := 3
		if !s.Settings.Robust && gpuav.OnErrorOrDefault(gpuav.OnError(s.Settings.OnError)) == gpuav.DefaultOnError {
			prio = 4
		}
		fields = append(fields, field{common.Seg{Text: OnErrorText(s.Settings)}, prio})
	}
	if s.Device.Name != "" {
		fields = append(fields, field{common.Seg{Text: common.Clean(s.Device.Name)}, 4})
	}
	join := func(maxPrio int) []common.Seg {
		segs := []common.Seg{{Text: " "}}
		for _, f := range fields {
			if f.prio > maxPrio {
				continue
			}
			if len(segs) > 1 {
				segs = append(segs, common.Seg{Text: Separator})
			}
			segs = append(segs, f.seg)
		}
		return segs
	}
	prio := 4
	segs := join(prio)
	for prio > 0 && common.SegsWidth(segs) > width {
		prio--
		segs = join(prio)
	}
	return common.Bar(segs, th.StatusFg, th.StatusBg, width)
}

// RenderKeys draws the footer: the bindings' keys and what they do, exactly
// width cells; bindings that do not fit are left out (the ? overlay has
// them all).
func RenderKeys(st *common.Styles, bindings []key.Binding, width int) string {
	th := st.Theme
	segs := []common.Seg{{Text: " "}}
	for _, b := range bindings {
		if !b.Enabled() {
			continue
		}
		h := b.Help()
		next := []common.Seg{{Text: h.Key, Fg: th.HelpKey, Bold: true}, {Text: " " + h.Desc, Fg: th.HelpDesc}}
		if len(segs) > 1 {
			next = append([]common.Seg{{Text: KeySeparator, Fg: th.HelpDesc}}, next...)
		}
		if common.SegsWidth(segs)+common.SegsWidth(next) > width {
			break
		}
		segs = append(segs, next...)
	}
	return common.Bar(segs, th.StatusFg, th.StatusBg, width)
}

// PausedText is the app's state while the layer keeps it paused at its
// first error (--stop-on-error).
const PausedText = "paused at the first error — c continues"

// The status bar's verdicts: nothing, or not everything, was checked.
const (
	VerdictNoneText   = "NOT CHECKED"
	VerdictPartlyText = "partly checked"
)

// KeySeparator separates the footer's keys.
const KeySeparator = "  "

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

// OnErrorText says what a failed access did in a run: "on error: skip",
// "on error: clamp", "on error: execute", or "robust only" (clamped, not
// reported). A session recorded before the setting reads skip.
func OnErrorText(s session.Settings) string {
	if s.Robust {
		return "robust only"
	}
	return "on error: " + common.Clean(string(gpuav.OnErrorOrDefault(gpuav.OnError(s.OnError))))
}

// Model is the status bar's state: the session drawn and the spinner.
type Model struct {
	c        *common.Common
	s        *session.Session
	run      string
	counts   Counts
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

// SetCounts sets the counts shown.
func (m *Model) SetCounts(c Counts) { m.counts = c }

// SetSize sets the bar's width; it is one row high.
func (m *Model) SetSize(w, _ int) { m.width = w }

// Title is empty: the bar has no frame.
func (m *Model) Title() string { return "" }

// ShortHelp is empty: the bar never has focus.
func (m *Model) ShortHelp() []key.Binding { return nil }

// FullHelp is empty: the bar never has focus.
func (m *Model) FullHelp() [][]key.Binding { return nil }

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
	return Render(m.c.Styles, m.s, m.Frame(), m.run, m.counts, m.width)
}
