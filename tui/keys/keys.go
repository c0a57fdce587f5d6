// Package keys is the TUI's key map: every binding the panes react to, with
// the help text that the footer (each pane's short help), the ? overlay
// (full help) and the README's key table show. The overlay and the README
// are both drawn from [KeyMap.Groups], so they cannot drift apart
// (go generate ./tui/keys rewrites the README table; a test compares it).
package keys

//go:generate go run ./internal/readme -w ../../README.md

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap holds the TUI's key bindings. It implements bubbles/help's KeyMap.
type KeyMap struct {
	// Up and Down move the selection (tree, settings, compare) or scroll
	// (detail, source, log, help).
	Up, Down key.Binding
	// PageUp and PageDown move by a page.
	PageUp, PageDown key.Binding
	// Top and Bottom jump to the first and last row.
	Top, Bottom key.Binding
	// ScrollLeft and ScrollRight scroll the source and log panes sideways;
	// elsewhere ← and → move like h and l.
	ScrollLeft, ScrollRight key.Binding
	// Wrap switches line wrapping in the log.
	Wrap key.Binding

	// NextPane and PrevPane cycle focus through tree, detail and source.
	NextPane, PrevPane key.Binding
	// Left and Right move focus to the previous / next pane without wrapping
	// (tree ← detail ← source); in the tree, h collapses a node or goes to
	// its parent and l expands a collapsed node.
	Left, Right key.Binding
	// Open opens the selected error's source (focuses the source pane), or
	// expands / collapses a tree node, or switches a setting.
	Open key.Binding
	// Toggle expands or collapses a tree node, or switches a setting.
	Toggle key.Binding
	// Back returns focus to the tree, clears the filter, closes a screen or
	// the help.
	Back key.Binding
	// Log shows the app's output and the notices; Settings the validation
	// settings; Compare this run next to the previous one; Printf the
	// shaders' debugPrintfEXT lines.
	Log, Settings, Compare, Printf key.Binding
	// Help toggles the help overlay; Quit leaves the program.
	Help, Quit key.Binding

	// Filter opens the filter prompt; NextMatch and PrevMatch walk the
	// error groups (those that match the filter).
	Filter, NextMatch, PrevMatch key.Binding
	// Grouping cycles the tree's grouping; Group1..Group4 pick one.
	Grouping, Group1, Group2, Group3, Group4 key.Binding
	// SortCount switches the tree between arrival order and most records
	// first; CollapseAll and ExpandAll fold the whole tree.
	SortCount, CollapseAll, ExpandAll key.Binding
	// Mute hides the selected error's check, MuteVUID its VUID, for this
	// session (counted in the status bar, never gone); Unmute shows them
	// all again.
	Mute, MuteVUID, Unmute key.Binding
	// NextInShader and PrevInShader select the next / previous error in the
	// same shader, in source order.
	NextInShader, PrevInShader key.Binding
	// SPIRV switches the source pane between the source and the SPIR-V
	// disassembly.
	SPIRV key.Binding
	// Edit opens the selected error's source file in $EDITOR at its line;
	// Copy copies the error's one-line summary to the clipboard (OSC 52).
	Edit, Copy key.Binding

	// Continue lets the app paused at its first error (--stop-on-error)
	// continue; while it is not paused, c is Compare.
	Continue key.Binding
	// Rerun runs the app again with the settings (asking first, and
	// stopping it, while it still runs); RerunErrors does so instrumenting
	// only the pipelines that reported errors in this run (the scope); Yes
	// and No answer that question.
	Rerun, RerunErrors, Yes, No key.Binding
	// PrevRun and NextRun switch between the runs of the history.
	PrevRun, NextRun key.Binding
}

// Default returns the default key map.
func Default() *KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return &KeyMap{
		Up:          b("↑/k", "up", "k", "up"),
		Down:        b("↓/j", "down", "j", "down"),
		PageUp:      b("pgup", "page up", "pgup", "ctrl+u"),
		PageDown:    b("pgdn", "page down", "pgdown", "ctrl+d"),
		Top:         b("g", "top", "g", "home"),
		Bottom:      b("G", "bottom", "G", "end"),
		ScrollLeft:  b("←", "scroll left (source, log)", "left"),
		ScrollRight: b("→", "scroll right (source, log)", "right"),
		Wrap:        b("w", "wrap long lines (log)", "w"),

		NextPane: b("tab", "next pane", "tab"),
		PrevPane: b("shift+tab", "previous pane", "shift+tab"),
		Left:     b("h/←", "pane left; tree: collapse, parent", "h", "left"),
		Right:    b("l/→", "pane right; tree: expand", "l", "right"),
		Open:     b("enter", "open the error's source; tree: expand/collapse", "enter"),
		Toggle:   b("space", "tree: expand/collapse; settings: switch", "space"),
		Back:     b("esc", "back to the tree; clear the filter; close", "esc"),
		Log:      b("o", "app output and notices", "o"),
		Settings: b("s", "settings for the next run", "s"),
		Compare:  b("c", "compare with the previous run", "c"),
		Printf:   b("p", "the shaders' printf lines", "p"),
		Help:     b("?", "help", "?"),
		Quit:     b("q", "quit", "q", "ctrl+c"),

		Filter:       b("/", "filter (message, file, check, action, labels)", "/"),
		NextMatch:    b("n", "next error", "n"),
		PrevMatch:    b("N", "previous error", "N"),
		Grouping:     b("v", "next grouping", "v"),
		Group1:       b("1", "by command buffer → action → pipeline", "1"),
		Group2:       b("2", "by pipeline", "2"),
		Group3:       b("3", "by source line", "3"),
		Group4:       b("4", "by check", "4"),
		SortCount:    b("#", "tree: sort by count / by arrival", "#"),
		CollapseAll:  b("-", "tree: collapse all", "-"),
		ExpandAll:    b("+", "tree: expand all", "+", "="),
		Mute:         b("m", "mute the error's check (this session)", "m"),
		MuteVUID:     b("M", "mute the error's VUID (this session)", "M"),
		Unmute:       b("u", "unmute everything", "u"),
		NextInShader: b("]", "next error in the shader", "]"),
		PrevInShader: b("[", "previous error in the shader", "["),
		SPIRV:        b("d", "source / SPIR-V disassembly", "d"),
		Edit:         b("e", "open the source in $EDITOR", "e"),
		Copy:         b("y", "copy the error's summary", "y"),

		Continue:    b("c", "continue the app paused at the first error", "c"),
		Rerun:       b("r", "re-run the app with the settings", "r"),
		RerunErrors: b("R", "re-run the erring pipelines only", "R"),
		Yes:         b("y/enter", "yes: stop the app and re-run", "y", "enter"),
		No:          b("n/esc", "no: keep it running", "n", "esc"),
		PrevRun:     b("<", "previous run", "<"),
		NextRun:     b(">", "next run", ">"),
	}
}

// Group is a titled list of bindings: a column of the ? overlay and a
// section of the README's key table.
type Group struct {
	Title    string
	Bindings []key.Binding
}

// Groups lists every binding once, in the overlay's order.
func (k *KeyMap) Groups() []Group {
	return []Group{
		{"Move", []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, k.ScrollLeft, k.ScrollRight, k.Wrap}},
		{"Panes and screens", []key.Binding{k.NextPane, k.PrevPane, k.Left, k.Right, k.Open, k.Toggle, k.Back,
			k.Log, k.Settings, k.Compare, k.Printf, k.Help, k.Quit}},
		{"Errors", []key.Binding{k.Filter, k.NextMatch, k.PrevMatch, k.Grouping, k.Group1, k.Group2, k.Group3, k.Group4,
			k.SortCount, k.CollapseAll, k.ExpandAll, k.Mute, k.MuteVUID, k.Unmute,
			k.NextInShader, k.PrevInShader, k.SPIRV, k.Edit, k.Copy}},
		{"Runs", []key.Binding{k.Continue, k.Rerun, k.RerunErrors, k.Yes, k.No, k.PrevRun, k.NextRun}},
	}
}

// ShortHelp is the help that works everywhere, first in the footer: help
// and quit.
func (k *KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Help, k.Quit} }

// FullHelp is the groups' bindings, one column per group.
func (k *KeyMap) FullHelp() [][]key.Binding {
	var out [][]key.Binding
	for _, g := range k.Groups() {
		out = append(out, g.Bindings)
	}
	return out
}

// All lists every binding once, for tests that check the help is complete.
func (k *KeyMap) All() []key.Binding {
	var all []key.Binding
	for _, col := range k.FullHelp() {
		all = append(all, col...)
	}
	return all
}

// README markers: the key table lies between them.
const (
	TableBegin = "<!-- keys:begin (go generate ./tui/keys) -->"
	TableEnd   = "<!-- keys:end -->"
)

// Markdown is the README's key table: one section per group, one row per
// binding, the same keys and words as the ? overlay.
func (k *KeyMap) Markdown() string {
	var b strings.Builder
	b.WriteString("| keys | what they do |\n|---|---|\n")
	for _, g := range k.Groups() {
		fmt.Fprintf(&b, "| **%s** | |\n", g.Title)
		for _, kb := range g.Bindings {
			h := kb.Help()
			fmt.Fprintf(&b, "| `%s` | %s |\n", h.Key, h.Desc)
		}
	}
	return b.String()
}

// ReplaceTable returns readme with the text between [TableBegin] and
// [TableEnd] replaced by table.
func ReplaceTable(readme, table string) (string, error) {
	i := strings.Index(readme, TableBegin)
	j := strings.Index(readme, TableEnd)
	if i < 0 || j < i {
		return "", fmt.Errorf("README: no %q … %q block", TableBegin, TableEnd)
	}
	return readme[:i+len(TableBegin)] + "\n" + table + readme[j:], nil
}
