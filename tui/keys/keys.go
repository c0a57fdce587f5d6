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

	// Toggle expands or collapses a tree node (space), or switches a
	// setting in the settings pane.
	Toggle key.Binding
	// Grouping cycles the tree's grouping; Group1..Group4 pick one.
	Grouping, Group1, Group2, Group3, Group4 key.Binding
	// Filter opens the filter prompt; NextMatch and PrevMatch jump between
	// the error groups that match it.
	Filter, NextMatch, PrevMatch key.Binding
	// NextInShader and PrevInShader select the next / previous error in the
	// same shader, in source order.
	NextInShader, PrevInShader key.Binding
	// SPIRV toggles the source pane between the source and the SPIR-V
	// disassembly.
	SPIRV key.Binding
	// Log shows the app's output and the notices; Settings the validation
	// settings; Compare the counts of this run next to the previous one.
	Log, Settings, Compare key.Binding
	// Rerun runs the app again with the settings.
	Rerun key.Binding
	// PrevRun and NextRun switch between the runs of the history.
	PrevRun, NextRun key.Binding
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

		Toggle:       key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "expand/collapse, toggle")),
		Grouping:     key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "next grouping")),
		Group1:       key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "by command buffer")),
		Group2:       key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "by pipeline")),
		Group3:       key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "by source line")),
		Group4:       key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "by check")),
		Filter:       key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		NextMatch:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next match")),
		PrevMatch:    key.NewBinding(key.WithKeys("N"), key.WithHelp("N", "previous match")),
		NextInShader: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next error in shader")),
		PrevInShader: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "prev error in shader")),
		SPIRV:        key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "source/SPIR-V")),
		Log:          key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "app output log")),
		Settings:     key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "settings")),
		Compare:      key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "compare runs")),
		Rerun:        key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "re-run app")),
		PrevRun:      key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "previous run")),
		NextRun:      key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "next run")),
	}
}

// ShortHelp is the one-line help of the status bar; help and quit come
// first, so that they survive when a narrow bar cuts the rest.
func (k *KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.Down, k.Up, k.NextPane, k.Open}
}

// FullHelp is the help overlay, one column per group: moving, panes,
// the tree and the source, runs and other.
func (k *KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.Filter, k.NextMatch, k.PrevMatch},
		{k.NextPane, k.PrevPane, k.Left, k.Right, k.Open, k.Back, k.Toggle},
		{k.Grouping, k.Group1, k.Group2, k.Group3, k.Group4, k.NextInShader, k.PrevInShader, k.SPIRV},
		{k.Log, k.Settings, k.Rerun, k.Compare, k.PrevRun, k.NextRun, k.Help, k.Quit},
	}
}

// All lists every binding once, for tests that check the help is complete.
func (k *KeyMap) All() []key.Binding {
	var all []key.Binding
	for _, col := range k.FullHelp() {
		all = append(all, col...)
	}
	return all
}
