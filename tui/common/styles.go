package common

import (
	"image/color"
	"sync"

	"charm.land/bubbles/v2/help"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"

	"github.com/gpuav-dbg/gpuav-dbg/themes"
)

// Styles are the lipgloss styles of every UI element, derived from a theme.
// With a plain theme (NO_COLOR) they carry no colour, only text attributes.
type Styles struct {
	// Theme is the theme the styles were built from.
	Theme themes.Theme

	// Text is ordinary text, Muted secondary text, Bold emphasised text.
	Text, Muted, Bold lipgloss.Style

	// Border and BorderFocused draw pane frames; Title and TitleFocused the
	// pane titles set into the top border.
	Border, BorderFocused, Title, TitleFocused lipgloss.Style

	// Header is the column header of the error list.
	Header lipgloss.Style
	// Selected is the selected row of the focused list; SelectedBlurred the
	// selected row when another pane has focus.
	Selected, SelectedBlurred lipgloss.Style
	// Check, Count and Location colour the error list's columns.
	Check, Count, Location lipgloss.Style

	// Label is a field name of the detail pane; Value its value; Handle a
	// Vulkan handle; Name a debug name.
	Label, Value, Handle, Name lipgloss.Style

	// LineNumber is a source line number; Gutter the separator after it;
	// Marker the ▶ of the offending line; Caret the ^ under its column;
	// MarkLine the offending line's background, applied to every token.
	LineNumber, Gutter, Marker, Caret, MarkLine lipgloss.Style

	// Error, Warning and OK colour states and notices.
	Error, Warning, OK lipgloss.Style

	// Status is the status bar.
	Status lipgloss.Style

	// Help are the styles of bubbles/help, short and full.
	Help help.Styles

	chroma *chroma.Style
	mu     sync.Mutex
	tokens map[chroma.TokenType]lipgloss.Style
}

// NewStyles builds the styles of theme t. A theme with NoColor set (see
// [themes.Theme.Plain]) gives colourless styles: selection and the marked
// source line then use reverse video.
func NewStyles(t themes.Theme) *Styles {
	fg := func(c color.Color) lipgloss.Style {
		s := lipgloss.NewStyle()
		if c != nil {
			s = s.Foreground(c)
		}
		return s
	}
	bg := func(s lipgloss.Style, c color.Color) lipgloss.Style {
		if c != nil {
			s = s.Background(c)
		}
		return s
	}
	st := &Styles{
		Theme:  t,
		chroma: t.ChromaStyle(),
		tokens: map[chroma.TokenType]lipgloss.Style{},
	}
	st.Text = fg(t.Text)
	st.Muted = fg(t.Muted)
	st.Bold = fg(t.Text).Bold(true)
	st.Border = fg(t.Border)
	st.BorderFocused = fg(t.FocusBorder)
	st.Title = fg(t.Muted).Bold(true)
	st.TitleFocused = fg(t.Accent).Bold(true)
	st.Header = fg(t.Muted)
	st.Check = fg(t.Check)
	st.Count = fg(t.Count)
	st.Location = fg(t.Location)
	st.Label = fg(t.Muted)
	st.Value = fg(t.Text)
	st.Handle = fg(t.Location)
	st.Name = fg(t.Check)
	st.LineNumber = fg(t.LineNumber)
	st.Gutter = fg(t.Border)
	st.Marker = fg(t.Marker).Bold(true)
	st.Caret = fg(t.Marker).Bold(true)
	st.Error = fg(t.Error).Bold(true)
	st.Warning = fg(t.Warning)
	st.OK = fg(t.OK)
	st.Status = bg(fg(t.StatusFg), t.StatusBg)
	if t.NoColor {
		st.Selected = lipgloss.NewStyle().Reverse(true)
		st.SelectedBlurred = lipgloss.NewStyle().Bold(true)
		st.MarkLine = lipgloss.NewStyle().Reverse(true)
	} else {
		st.Selected = fg(t.SelectedFg).Background(t.SelectedBg).Bold(true)
		st.SelectedBlurred = fg(t.Accent).Bold(true)
		st.MarkLine = lipgloss.NewStyle().Background(t.MarkBg)
	}
	st.Help = help.Styles{
		Ellipsis:       bg(fg(t.HelpDesc), t.StatusBg),
		ShortKey:       bg(fg(t.HelpKey), t.StatusBg),
		ShortDesc:      bg(fg(t.HelpDesc), t.StatusBg),
		ShortSeparator: bg(fg(t.HelpDesc), t.StatusBg),
		FullKey:        fg(t.Accent).Bold(true),
		FullDesc:       fg(t.Text),
		FullSeparator:  fg(t.Muted),
	}
	return st
}

// Token returns the style of a chroma token type under the theme's chroma
// style: its foreground (made readable on the background and the marked
// line, see themes.Theme.TokenColor), bold, italic and underline, never its
// background (the terminal's background, or the marked line's, shows
// through). With no chroma style (NO_COLOR) it is the plain Text style.
func (s *Styles) Token(tt chroma.TokenType) lipgloss.Style {
	if s.chroma == nil {
		return s.Text
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st, ok := s.tokens[tt]; ok {
		return st
	}
	e := s.chroma.Get(tt)
	st := lipgloss.NewStyle()
	if fg := s.Theme.TokenColor(tt); fg != nil {
		st = st.Foreground(fg)
	}
	if e.Bold == chroma.Yes {
		st = st.Bold(true)
	}
	if e.Italic == chroma.Yes {
		st = st.Italic(true)
	}
	if e.Underline == chroma.Yes {
		st = st.Underline(true)
	}
	s.tokens[tt] = st
	return st
}
