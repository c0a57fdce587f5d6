// Package source is the source pane: the shader source around an error,
// syntax-highlighted with chroma, with line numbers, the offending line
// marked by a ▶ in the gutter and a background across the whole line, and a
// caret under the offending column.
//
// chroma's terminal formatters reset all attributes after each token, which
// would punch holes into a line background; this package therefore renders
// tokens itself, one lipgloss style per token, each carrying the background.
package source

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// TabWidth is the tab stop distance used when expanding tabs.
const TabWidth = 4

// MarkerGlyph marks the offending line in the gutter.
const MarkerGlyph = "▶"

// Doc is what the pane shows: some lines of one file, one of them marked.
type Doc struct {
	// File is the source file's name as the debug info gives it.
	File string
	// Language is the source language when known (glsl, hlsl...).
	Language string
	// Lines are the lines shown, tabs not yet expanded.
	Lines []string
	// First is the line number of Lines[0] (1 for a whole file).
	First int
	// Mark is the line number of the offending line, 0 for none.
	Mark int
	// Column is the 1-based column of the offending instruction, 0 when
	// unknown.
	Column int
	// Note is shown instead of the code when there are no lines.
	Note string
	// Partial says Lines is only the offending line, because the session
	// does not hold the file.
	Partial bool
	// SPIRV says Lines are the shader's SPIR-V disassembly, Mark the line
	// of the offending instruction.
	SPIRV bool
}

// Empty reports whether d has no lines to show.
func (d Doc) Empty() bool { return len(d.Lines) == 0 }

// Location is "file:line:col" (parts that are known).
func (d Doc) Location() string {
	if d.File == "" {
		return ""
	}
	s := path.Base(d.File)
	if d.Mark > 0 {
		s += ":" + strconv.Itoa(d.Mark)
		if d.Column > 0 {
			s += ":" + strconv.Itoa(d.Column)
		}
	}
	return s
}

// DocFor returns the doc for group g of session s: the whole file from
// s.Sources when the session has it (and it reaches the line), else the
// single line the error carries.
func DocFor(s *session.Session, g *session.ErrorGroup) Doc {
	if g == nil {
		return Doc{Note: "no error selected"}
	}
	src := g.Source
	if src == nil {
		return Doc{Note: "no source location: the shader has no debug info (compile with -g)"}
	}
	d := Doc{File: src.File, Language: src.Language, Mark: src.Line, Column: src.Column, Note: src.Note}
	if s != nil && src.Line > 0 {
		if lines, ok := s.Sources[session.SourceKey{ShaderID: g.Shader.ID, File: src.File}]; ok && src.Line <= len(lines) {
			d.Lines, d.First = lines, 1
			return d
		}
	}
	if src.Text != "" {
		d.Lines, d.First, d.Partial = []string{src.Text}, max(src.Line, 1), true
		return d
	}
	if d.Note == "" {
		d.Note = fmt.Sprintf("%s: source text not available", d.Location())
	}
	return d
}

// glslExts are the extensions chroma's GLSL lexer does not claim by file
// name but that hold GLSL.
var glslExts = map[string]bool{
	".glsl": true, ".comp": true, ".vert": true, ".frag": true, ".geom": true,
	".tesc": true, ".tese": true, ".mesh": true, ".task": true, ".rgen": true,
	".rchit": true, ".rmiss": true, ".rahit": true, ".rint": true, ".rcall": true,
}

// Lexer picks the chroma lexer for a file: by the language when it names
// one (glsl, hlsl), else by extension — by lexer NAME, since chroma's GLSL
// lexer matches only .vert/.frag/.geo by file name — else plain text.
func Lexer(file, language string) chroma.Lexer {
	var l chroma.Lexer
	switch lang := strings.ToLower(language); lang {
	case "glsl", "hlsl":
		l = lexers.Get(lang)
	}
	if l == nil {
		ext := strings.ToLower(path.Ext(file))
		switch {
		case glslExts[ext]:
			l = lexers.Get("glsl")
		case ext == ".hlsl" || ext == ".hlsli":
			l = lexers.Get("hlsl")
		}
	}
	if l == nil {
		l = lexers.Get("plaintext")
	}
	if l == nil {
		l = lexers.Fallback
	}
	return chroma.Coalesce(l)
}

// ExpandTabs replaces tabs by spaces up to the next multiple of [TabWidth].
func ExpandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := TabWidth - col%TabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col += ansi.StringWidth(string(r))
	}
	return b.String()
}

// Highlighted is a doc's lines split into chroma tokens, one slice per line,
// tabs expanded and without line ends. It depends on the doc only, not on
// the theme, so a model can keep it while the theme changes.
type Highlighted [][]chroma.Token

// Highlight tokenises d's lines as one text, so that constructs spanning
// lines (block comments) are coloured right.
func Highlight(d Doc) Highlighted {
	lines := make([]string, len(d.Lines))
	for i, l := range d.Lines {
		lines[i] = ExpandTabs(strings.TrimRight(l, "\r\n"))
	}
	out := make(Highlighted, len(lines))
	it, err := Lexer(d.File, d.Language).Tokenise(nil, strings.Join(lines, "\n")+"\n")
	if err == nil {
		for i, toks := range chroma.SplitTokensIntoLines(it.Tokens()) {
			if i >= len(out) {
				break
			}
			for _, t := range toks {
				t.Value = strings.TrimRight(t.Value, "\n")
				if t.Value != "" {
					out[i] = append(out[i], t)
				}
			}
		}
	}
	// Whatever the lexer did, every line keeps its text.
	for i, l := range lines {
		var got strings.Builder
		for _, t := range out[i] {
			got.WriteString(t.Value)
		}
		if got.String() != l {
			out[i] = []chroma.Token{{Type: chroma.Text, Value: l}}
		}
	}
	return out
}

// rows: every line is one row; the caret adds a row under the marked line.
func rowCount(d Doc) int {
	n := len(d.Lines)
	if d.Column > 0 && d.markIndex() >= 0 {
		n++
	}
	return n
}

// markIndex is the index in Lines of the marked line, -1 when none shows.
func (d Doc) markIndex() int {
	i := d.Mark - d.First
	if d.Mark <= 0 || i < 0 || i >= len(d.Lines) {
		return -1
	}
	return i
}

// CenterTop returns the first row to draw so that the marked line sits in
// the middle of height rows, clamped so that no row past the end shows while
// there are rows above.
func CenterTop(d Doc, height int) int {
	return clampTop(d, d.markIndex()-(height-1)/2, height)
}

func clampTop(d Doc, top, height int) int {
	return max(0, min(top, rowCount(d)-height))
}

// Render highlights d and draws it from row top on: see [RenderHighlighted].
func Render(st *common.Styles, d Doc, top, width, height int) string {
	return RenderHighlighted(st, d, Highlight(d), top, width, height)
}

// RenderHighlighted draws d, already highlighted as hl, from row top on as
// exactly width×height cells. Each row is a gutter — the marker, the line
// number and a rule — and the code, cut at the pane's edge. Every cell of
// the marked row, gutter, tokens and trailing blanks alike, carries the
// MarkLine style. When d has a column, a row with a caret under it follows
// the marked line.
func RenderHighlighted(st *common.Styles, d Doc, hl Highlighted, top, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if d.Empty() {
		return common.Center(st.Muted.Render(ansi.Wrap(d.Note, width, "")), width, height)
	}
	numW := len(strconv.Itoa(d.First + len(d.Lines) - 1))
	mark := d.markIndex()
	var lines []string
	row := 0
	for i := range d.Lines {
		if len(lines) >= height {
			break
		}
		if row >= top {
			lines = append(lines, renderLine(st, d.First+i, hl[i], numW, i == mark, width))
		}
		row++
		if i == mark && d.Column > 0 {
			if row >= top && len(lines) < height {
				lines = append(lines, renderCaret(st, d.Lines[i], d.Column, numW, width))
			}
			row++
		}
	}
	if d.Partial && len(lines)+2 <= height { // when there is room
		lines = append(lines, "")
		for _, l := range common.Lines(ansi.Wrap(PartialNote, width, "")) {
			lines = append(lines, st.Muted.Render(l))
		}
	}
	return common.Block(lines, width, height)
}

// PartialNote is shown under a doc that has only the offending line.
const PartialNote = "(the session has only this line of the file)"

func renderLine(st *common.Styles, n int, toks []chroma.Token, numW int, marked bool, width int) string {
	style := func(s lipgloss.Style) lipgloss.Style {
		if marked {
			return s.Inherit(st.MarkLine)
		}
		return s
	}
	var b strings.Builder
	rem := width
	// put writes text in style s, cut to limit cells (and to rem).
	put := func(s lipgloss.Style, text string, limit int) {
		limit = min(limit, rem)
		if limit <= 0 || text == "" {
			return
		}
		if ansi.StringWidth(text) > limit {
			text = ansi.Truncate(text, limit, "")
		}
		rem -= ansi.StringWidth(text)
		b.WriteString(style(s).Render(text))
	}
	if marked {
		put(st.Marker, MarkerGlyph+" ", rem)
		put(st.Marker, fmt.Sprintf("%*d", numW, n), rem)
	} else {
		put(st.LineNumber, "  ", rem)
		put(st.LineNumber, fmt.Sprintf("%*d", numW, n), rem)
	}
	put(st.Gutter, " │ ", rem)
	// Code wider than the room left is cut one cell early for an ellipsis.
	codeW := 0
	for _, t := range toks {
		codeW += ansi.StringWidth(t.Value)
	}
	room := rem
	cut := codeW > room
	if cut {
		room--
	}
	for _, t := range toks {
		used := rem
		put(st.Token(t.Type), t.Value, room)
		room -= used - rem
	}
	if cut {
		put(st.Muted, common.Ellipsis, rem)
	}
	if rem > 0 {
		put(st.Text, strings.Repeat(" ", rem), rem)
	}
	return b.String()
}

// renderCaret draws the row under the marked line with a ^ under column
// col (1-based, in characters of the line before tab expansion).
func renderCaret(st *common.Styles, line string, col, numW, width int) string {
	runes := []rune(line)
	prefix := string(runes[:min(col-1, len(runes))])
	pad := ansi.StringWidth(ExpandTabs(prefix))
	if col-1 > len(runes) {
		pad += col - 1 - len(runes)
	}
	gutter := strings.Repeat(" ", numW+2)
	s := gutter + st.Gutter.Render(" │ ") + strings.Repeat(" ", pad) + st.Caret.Render("^")
	return ansi.Truncate(s, width, "")
}

// Model is the source pane's state: the doc, its tokens, and the first row
// drawn.
type Model struct {
	c             *common.Common
	doc           Doc
	hl            Highlighted
	top           int
	width, height int
}

// New returns an empty source pane.
func New(c *common.Common) *Model { return &Model{c: c, doc: Doc{Note: "no error selected"}} }

func sameDoc(a, b Doc) bool {
	return a.File == b.File && a.Mark == b.Mark && a.Column == b.Column &&
		a.First == b.First && len(a.Lines) == len(b.Lines) && a.Note == b.Note &&
		a.Partial == b.Partial && a.SPIRV == b.SPIRV
}

// SetDoc shows d. A different doc (another file or line) is highlighted and
// centred on its marked line, and so is any doc when recenter is set (a new
// selection); the same doc again from a new snapshot keeps the user's scroll.
func (m *Model) SetDoc(d Doc, recenter bool) {
	if !sameDoc(m.doc, d) || m.hl == nil {
		m.doc, m.hl = d, Highlight(d)
		recenter = true
	}
	if recenter {
		m.top = CenterTop(d, m.height)
	}
}

// Doc returns the doc shown.
func (m *Model) Doc() Doc { return m.doc }

// Top returns the first row drawn.
func (m *Model) Top() int { return m.top }

// SetSize sets the pane's inner size and centres the marked line again.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.top = CenterTop(m.doc, h)
}

// Scroll scrolls by d rows (negative: up).
func (m *Model) Scroll(d int) { m.top = clampTop(m.doc, m.top+d, m.height) }

// Update scrolls on the movement keys; the root sends keys only while the pane has focus.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.height); ok {
		m.Scroll(d)
	}
	return nil
}

// ShortHelp is the footer's help while the pane has focus.
func (m *Model) ShortHelp() []key.Binding { s, _ := m.c.ScrollHelp(); return s }

// FullHelp lists every key the pane handles.
func (m *Model) FullHelp() [][]key.Binding { _, f := m.c.ScrollHelp(); return f }

// Title is the pane's title: "Source oob_compute.comp:9:5", or
// "SPIR-V shader-2.spvasm:120" for a disassembly.
func (m *Model) Title() string {
	if m.doc.SPIRV {
		return "SPIR-V " + m.doc.Location() + " (d: source)"
	}
	if loc := m.doc.Location(); loc != "" {
		return "Source " + loc
	}
	return "Source"
}

// View draws the pane's inner area.
func (m *Model) View() string {
	return RenderHighlighted(m.c.Styles, m.doc, m.hl, m.top, m.width, m.height)
}
