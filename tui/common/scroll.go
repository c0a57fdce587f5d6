package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpuav-dbg/gpuav-dbg/tui/keys"
)

// ScrollDelta turns a movement key or the mouse wheel into a scroll distance
// in rows for a pane height rows tall: ±1 for up/down, ±(height−1) for page
// up/down, a distance past either end for top/bottom (panes clamp), and
// ±[WheelStep] for the wheel. ok is false for any other message.
func (c *Common) ScrollDelta(msg tea.Msg, height int) (delta int, ok bool) {
	if d, isWheel := WheelDelta(msg, WheelStep); isWheel {
		return d, true
	}
	press, isKey := msg.(tea.KeyPressMsg)
	if !isKey {
		return 0, false
	}
	k, page := c.Keys, max(height-1, 1)
	switch {
	case key.Matches(press, k.Up):
		return -1, true
	case key.Matches(press, k.Down):
		return 1, true
	case key.Matches(press, k.PageUp):
		return -page, true
	case key.Matches(press, k.PageDown):
		return page, true
	case key.Matches(press, k.Top):
		return -1 << 30, true
	case key.Matches(press, k.Bottom):
		return 1 << 30, true
	}
	return 0, false
}

// ScrollHelp is the key help of a pane that only scrolls: short (up, down)
// and full (every movement key).
func (c *Common) ScrollHelp() (short []key.Binding, full [][]key.Binding) {
	k := c.Keys
	return []key.Binding{k.Down, k.Up}, [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}}
}

// WithHelp returns a copy of b whose help says desc: the same keys, named
// for what they do in one pane (enter "expand" in the tree).
func WithHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// Bindings flattens a full help into one list.
func Bindings(full [][]key.Binding) []key.Binding {
	var out []key.Binding
	for _, col := range full {
		out = append(out, col...)
	}
	return out
}

// Sideways is ← and → as one footer entry, "←/→ sideways".
func Sideways(k *keys.KeyMap) key.Binding {
	return key.NewBinding(key.WithKeys(append(k.ScrollLeft.Keys(), k.ScrollRight.Keys()...)...), key.WithHelp("←/→", "sideways"))
}
