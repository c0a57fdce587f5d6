package common

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// ScrollDelta turns a movement key into a scroll distance in rows for a
// pane height rows tall: ±1 for up/down, ±(height−1) for page up/down, and
// a distance past either end for top/bottom (panes clamp). ok is false for
// any other message.
func (c *Common) ScrollDelta(msg tea.Msg, height int) (delta int, ok bool) {
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
