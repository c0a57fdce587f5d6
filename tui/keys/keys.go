// Package keys is the TUI's key map: every binding the panes react to, with
// the help text that bubbles/help shows in the status line (short help) and
// in the ? overlay (full help).
package keys

import "charm.land/bubbles/v2/key"

// KeyMap holds the TUI's key bindings. It implements bubbles/help's KeyMap.
type KeyMap struct {
	// Up and Down move the selection (error list) or scroll (detail, source).
	Up, Down key.Binding
	// PageUp and PageDown move by a page.
	PageUp, PageDown key.Binding
	// Top and Bottom jump to the first and last row.
	Top, Bottom key.Binding
	// NextPane and PrevPane cycle focus through list, detail and source.
	NextPane, PrevPane key.Binding
	// Left and Right move focus to the previous / next pane without wrapping
	// (list ← detail ← source).
	Left, Right key.Binding
	// Open focuses the source pane from the error list.
	Open key.Binding
	// Back returns focus to the error list, or closes the help overlay.
	Back key.Binding
	// Help toggles the full help overlay.
	Help key.Binding
	// Quit leaves the program.
	Quit key.Binding
}

// Default returns the default key map.
func Default() *KeyMap {
	return &KeyMap{
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G", "bottom")),
		NextPane: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next pane")),
		PrevPane: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous pane")),
		Left:     key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/←", "pane left")),
		Right:    key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("l/→", "pane right")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "source")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:     key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
	}
}

// ShortHelp is the one-line help of the status bar; help and quit come
// first, so that they survive when a narrow bar cuts the rest.
func (k *KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.Down, k.Up, k.NextPane, k.Open}
}

// FullHelp is the help overlay, one column per group: moving, panes, other.
func (k *KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom},
		{k.NextPane, k.PrevPane, k.Left, k.Right, k.Open, k.Back},
		{k.Help, k.Quit},
	}
}
