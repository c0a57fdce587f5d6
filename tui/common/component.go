package common

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// Component is the contract every pane and screen of the TUI keeps, so that
// the root model routes to them from a table instead of a switch per pane:
//
//   - SetSize gives it its inner size in cells, inside the frame the root
//     draws around it; the root calls it on every resize and layout change.
//   - Update handles a message the root routes to it: the keys of its own
//     key help (ShortHelp/FullHelp) while it has focus, and mouse messages
//     in its own coordinates (column 0, row 0 is its inner top-left cell;
//     see [Relative]). It returns a command or nil.
//   - View draws its inner area: exactly the size set, every line padded
//     (see [Block]). It is a thin wrapper over a pure Render function of the
//     component's package, which golden files pin.
//   - Title is the text the root sets into the frame's top border.
//   - ShortHelp lists the keys that work while it has focus (the footer
//     shows them); FullHelp groups every key it handles (the ? overlay).
//
// A component keeps its own state (scroll offset, cursor) and reads the
// shared [Common] (styles, key map) through a pointer, so that a theme
// change reaches it without a call.
type Component interface {
	help.KeyMap
	SetSize(width, height int)
	Update(msg tea.Msg) tea.Cmd
	View() string
	Title() string
}

// Relative returns msg with its mouse position moved by (-x, -y): the
// position inside a component whose inner top-left cell is at column x,
// row y. Messages other than clicks and the wheel are returned unchanged.
func Relative(msg tea.Msg, x, y int) tea.Msg {
	switch m := msg.(type) {
	case tea.MouseClickMsg:
		m.X, m.Y = m.X-x, m.Y-y
		return m
	case tea.MouseWheelMsg:
		m.X, m.Y = m.X-x, m.Y-y
		return m
	}
	return msg
}

// WheelDelta is the scroll distance of a wheel message: step rows down or
// up; ok is false for any other message.
func WheelDelta(msg tea.Msg, step int) (delta int, ok bool) {
	w, isWheel := msg.(tea.MouseWheelMsg)
	if !isWheel {
		return 0, false
	}
	switch w.Button {
	case tea.MouseWheelUp:
		return -step, true
	case tea.MouseWheelDown:
		return step, true
	}
	return 0, false
}

// WheelStep is how many rows the wheel scrolls a pane.
const WheelStep = 3
