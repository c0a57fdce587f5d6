// Package themes holds the colour themes of gpuav-dbg's terminal UI: the
// colours of its panes, selections and status bar, and the chroma style used
// to highlight shader source under each theme.
//
// It is a leaf package: it imports only lipgloss and chroma, so the TUI, the
// CLI (to validate a --theme flag) and headless reports can all use it.
//
// There are three themes, "dark", "light" and "high-contrast", and the choice
// "auto", which picks dark or light from the terminal's background colour
// (see [ForBackground] and [HasDarkBackground]). When the NO_COLOR
// environment variable is set to a non-empty value (https://no-color.org),
// [NoColor] reports true and the UI draws no colours at all; [Theme.Plain]
// gives the colourless variant of a theme.
package themes

import (
	"fmt"
	"image/color"
	"os"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
)

// Theme names accepted by [Get] and [Resolve].
const (
	Auto         = "auto"
	Dark         = "dark"
	Light        = "light"
	HighContrast = "high-contrast"
)

// HighContrastChroma is the name of the chroma style this package registers
// for the high-contrast theme: bright, saturated colours on black.
const HighContrastChroma = "gpuav-high-contrast"

// Theme is a set of colours for the UI plus the chroma style for source code.
//
// Every colour is set in the themes this package returns, except in a
// [Theme.Plain] theme, where all of them are nil and NoColor is true.
type Theme struct {
	// Name is the theme's name: dark, light or high-contrast.
	Name string
	// IsDark says the theme is meant for a dark terminal background.
	IsDark bool
	// NoColor is true for a theme that must draw no colours at all; the
	// colour fields are then nil and Chroma is empty.
	NoColor bool
	// Chroma names the chroma style for syntax highlighting (see
	// [Theme.ChromaStyle]).
	Chroma string

	// Text is ordinary text; Muted is secondary text (headers, line numbers
	// of unmarked lines, separators); Accent is titles and focused frames.
	Text, Muted, Accent color.Color
	// Border is the frame of an unfocused pane; FocusBorder of the focused one.
	Border, FocusBorder color.Color
	// SelectedFg and SelectedBg draw the selected row of a list.
	SelectedFg, SelectedBg color.Color
	// MarkBg is the background of the offending source line; Marker colours
	// its ▶ gutter marker and the caret under the column.
	MarkBg, Marker color.Color
	// LineNumber colours source line numbers.
	LineNumber color.Color
	// Error, Warning and OK colour states and notices (crashed, warnings,
	// exited 0).
	Error, Warning, OK color.Color
	// Check colours check ids; Count the ×N counts; Location file:line.
	Check, Count, Location color.Color
	// StatusFg and StatusBg draw the status bar and the footer;
	// StatusWarning, StatusError and StatusOK are the warning, error and OK
	// colours on StatusBg.
	StatusFg, StatusBg                   color.Color
	StatusWarning, StatusError, StatusOK color.Color
	// HelpKey and HelpDesc draw key help (on StatusBg in the footer).
	HelpKey, HelpDesc color.Color
	// Background is the terminal background the theme is made for: the UI
	// does not paint it, and every colour above reaches WCAG AA contrast
	// against it (see [Theme.Pairs]). For dark and light themes it is a
	// light dark grey and a dark light grey, so that the colours also
	// hold on the many terminals with a darker or lighter background.
	Background color.Color
}

func init() {
	styles.Register(chroma.MustNewStyle(HighContrastChroma, chroma.StyleEntries{
		chroma.Background:        "#ffffff bg:#000000",
		chroma.Text:              "#ffffff",
		chroma.Error:             "bold #ff5555",
		chroma.Comment:           "#55ffff",
		chroma.CommentPreproc:    "bold #ff55ff",
		chroma.Keyword:           "bold #ffff55",
		chroma.KeywordType:       "bold #55ff55",
		chroma.Name:              "#ffffff",
		chroma.NameBuiltin:       "bold #55ffff",
		chroma.NameFunction:      "bold #ffffff",
		chroma.LiteralString:     "#55ff55",
		chroma.LiteralNumber:     "#ff55ff",
		chroma.Operator:          "bold #ffff55",
		chroma.Punctuation:       "#ffffff",
		chroma.GenericEmph:       "italic",
		chroma.GenericStrong:     "bold",
		chroma.GenericDeleted:    "#ff5555",
		chroma.GenericInserted:   "#55ff55",
		chroma.NameVariableMagic: "bold #55ffff",
	}))
}

var c = lipgloss.Color

var all = map[string]Theme{
	Dark: {
		Name: Dark, IsDark: true, Chroma: "monokai",
		Text: c("#d0d0d0"), Muted: c("#9a9a9a"), Accent: c("#7aa2f7"),
		Border: c("#767676"), FocusBorder: c("#7aa2f7"),
		SelectedFg: c("#ffffff"), SelectedBg: c("#3b4261"),
		MarkBg: c("#5f0000"), Marker: c("#ff6e6e"), LineNumber: c("#939393"),
		Error: c("#ff6e6e"), Warning: c("#e0af68"), OK: c("#9ece6a"),
		Check: c("#bb9af7"), Count: c("#e0af68"), Location: c("#7dcfff"),
		StatusFg: c("#c0caf5"), StatusBg: c("#24283b"),
		StatusWarning: c("#e0af68"), StatusError: c("#ff7a7a"), StatusOK: c("#9ece6a"),
		HelpKey: c("#c0caf5"), HelpDesc: c("#9aa0b8"),
		Background: c("#262626"),
	},
	Light: {
		Name: Light, IsDark: false, Chroma: "github",
		Text: c("#303030"), Muted: c("#626262"), Accent: c("#1f5fbf"),
		Border: c("#858585"), FocusBorder: c("#1f5fbf"),
		SelectedFg: c("#000000"), SelectedBg: c("#cfe0ff"),
		MarkBg: c("#ffe1e1"), Marker: c("#b00000"), LineNumber: c("#626262"),
		Error: c("#b00000"), Warning: c("#8a5000"), OK: c("#2a6e2a"),
		Check: c("#6f35a5"), Count: c("#8a5000"), Location: c("#005f87"),
		StatusFg: c("#303030"), StatusBg: c("#e4e4e4"),
		StatusWarning: c("#7a4600"), StatusError: c("#a00000"), StatusOK: c("#236023"),
		HelpKey: c("#1c1c1c"), HelpDesc: c("#585858"),
		Background: c("#eeeeee"),
	},
	HighContrast: {
		Name: HighContrast, IsDark: true, Chroma: HighContrastChroma,
		Text: c("#ffffff"), Muted: c("#d0d0d0"), Accent: c("#ffff00"),
		Border: c("#ffffff"), FocusBorder: c("#ffff00"),
		SelectedFg: c("#000000"), SelectedBg: c("#ffff00"),
		MarkBg: c("#5f0000"), Marker: c("#ff8787"), LineNumber: c("#d0d0d0"),
		Error: c("#ff5555"), Warning: c("#ffff55"), OK: c("#55ff55"),
		Check: c("#ffffff"), Count: c("#ffff55"), Location: c("#55ffff"),
		StatusFg: c("#000000"), StatusBg: c("#ffffff"),
		StatusWarning: c("#6b4500"), StatusError: c("#a00000"), StatusOK: c("#005f00"),
		HelpKey: c("#000000"), HelpDesc: c("#303030"),
		Background: c("#000000"),
	},
}

// Names lists the concrete theme names, in the order a help text shows them.
func Names() []string { return []string{Dark, Light, HighContrast} }

// Valid reports whether name is a theme name or "auto" (case-insensitive;
// the empty string means auto).
func Valid(name string) bool {
	n := normalize(name)
	_, ok := all[n]
	return ok || n == Auto
}

// Get returns the theme called name: "dark", "light" or "high-contrast"
// (case-insensitive). For "auto", use [Resolve] or [ForBackground].
func Get(name string) (Theme, error) {
	t, ok := all[normalize(name)]
	if !ok {
		return Theme{}, fmt.Errorf("unknown theme %q (want auto, %s)", name, strings.Join(Names(), ", "))
	}
	return t, nil
}

// Resolve is [Get] that also accepts "auto" (or ""), answered from
// darkBackground by [ForBackground].
func Resolve(name string, darkBackground bool) (Theme, error) {
	if normalize(name) == Auto {
		return ForBackground(darkBackground), nil
	}
	return Get(name)
}

// ForBackground is the automatic choice: the dark theme on a dark terminal
// background, the light theme on a light one.
func ForBackground(dark bool) Theme {
	if dark {
		return all[Dark]
	}
	return all[Light]
}

// HasDarkBackground asks the terminal on stdin/stdout for its background
// colour and reports whether it is dark; it answers true when the terminal
// does not answer. A Bubble Tea program should rather ask with
// tea.RequestBackgroundColor and read tea.BackgroundColorMsg.
func HasDarkBackground() bool {
	return lipgloss.HasDarkBackground(os.Stdin, os.Stdout)
}

// NoColor reports whether the NO_COLOR environment variable asks for no
// colours: set and not empty.
func NoColor() bool { return os.Getenv("NO_COLOR") != "" }

// Plain returns the theme without any colour: every colour nil, no chroma
// style and NoColor set. The UI then marks things with text attributes only
// (bold, reverse video) and characters (▶, ^, a cursor).
func (t Theme) Plain() Theme {
	return Theme{Name: t.Name, IsDark: t.IsDark, NoColor: true}
}

// ChromaStyle returns the theme's chroma style, or nil for a plain theme.
func (t Theme) ChromaStyle() *chroma.Style {
	if t.NoColor || t.Chroma == "" {
		return nil
	}
	return styles.Get(t.Chroma)
}

func normalize(name string) string {
	n := strings.ToLower(strings.TrimSpace(name))
	switch n {
	case "":
		return Auto
	case "highcontrast", "high_contrast", "hc":
		return HighContrast
	}
	return n
}
