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
	// of the offending instruction (whose index in the module is
	// Instruction), and Toggled that the user asked for it (d) although
	// there is source.
	SPIRV       bool
	Instruction uint32
	Toggled     bool
	// Banner is shown above the lines, in the warning colour: why the pane
	// shows SPIR-V, and how to get the source.
	Banner string
}

// MaxBannerRows is the most rows a banner takes.
const MaxBannerRows = 2

// bannerLines is d's banner wrapped to width, at most MaxBannerRows.
func (d Doc) bannerLines(width int) []string {
	if d.Banner == "" || width <= 0 {
		return nil
	}
	ls := common.Lines(ansi.Wrap(common.Clean(d.Banner), width, ""))
	if len(ls) > MaxBannerRows {
		ls = ls[:MaxBannerRows]
		ls[MaxBannerRows-1] = ansi.Truncate(strings.TrimRight(ls[MaxBannerRows-1], " "), width-1, "") + common.Ellipsis
	}
	return ls
}

// codeHeight is how many of height rows show code under the banner.
func (d Doc) codeHeight(width, height int) int {
	return max(height-len(d.bannerLines(width)), 0)
}

// Empty reports whether d has no lines to show.
func (d Doc) Empty() bool { return len(d.Lines) == 0 }

// Location is "file:line:col" (parts that are known).
func (d Doc) Location() string {
	if d.File == "" {
		return ""
	}
	s := common.Clean(path.Base(d.File))
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
		lines[i] = common.Clean(ExpandTabs(strings.TrimRight(l, "\r\n")))
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

// gutterWidth is the cells before the code: marker, line number, rule.
func gutterWidth(d Doc) int { return 2 + len(strconv.Itoa(d.First+len(d.Lines)-1)) + 3 }

// CodeWidth is the widest line of d's code, in cells, tabs expanded.
func CodeWidth(hl Highlighted) int {
	w := 0
	for _, toks := range hl {
		n := 0
		for _, t := range toks {
			n += ansi.StringWidth(t.Value)
		}
		w = max(w, n)
	}
	return w
}

// Render highlights d and draws it from row top and code column left on:
// see [RenderHighlighted].
func Render(st *common.Styles, d Doc, top, left, width, height int) string {
	return RenderHighlighted(st, d, Highlight(d), top, left, width, height)
}

// RenderHighlighted draws d, already highlighted as hl, from row top on as
// exactly width×height cells, under d's banner. Each row is a gutter — the
// marker, the line number and a rule — and the code from cell left on
// (scrolled sideways), cut at the pane's edge with an ellipsis at either
// side where code is hidden. Every cell of the marked row, gutter, tokens
// and trailing blanks alike, carries the MarkLine style. When d has a
// column, a row with a caret under it follows the marked line.
func RenderHighlighted(st *common.Styles, d Doc, hl Highlighted, top, left, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if d.Empty() {
		return common.Center(st.Muted.Render(ansi.Wrap(common.Clean(d.Note), width, "")), width, height)
	}
	var lines []string
	for _, l := range d.bannerLines(width) {
		lines = append(lines, st.Warning.Render(l))
	}
	numW := len(strconv.Itoa(d.First + len(d.Lines) - 1))
	mark := d.markIndex()
	left = max(left, 0)
	row := 0
	for i := range d.Lines {
		if len(lines) >= height {
			break
		}
		if row >= top {
			lines = append(lines, renderLine(st, d.First+i, hl[i], numW, i == mark, left, width))
		}
		row++
		if i == mark && d.Column > 0 {
			if row >= top && len(lines) < height {
				lines = append(lines, renderCaret(st, d.Lines[i], d.Column, numW, left, width))
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

func renderLine(st *common.Styles, n int, toks []chroma.Token, numW int, marked bool, left, width int) string {
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
	// Scrolled sideways: the first cell says code is hidden to the left.
	codeW := 0
	for _, t := range toks {
		codeW += ansi.StringWidth(t.Value)
	}
	skip := left
	if left > 0 && codeW > left {
		put(st.Muted, common.Ellipsis, rem)
		skip++
	}
	// Code wider than the room left is cut one cell early for an ellipsis.
	room := rem
	cut := codeW-skip > room
	if cut {
		room--
	}
	for _, t := range toks {
		text := t.Value
		if skip > 0 {
			w := ansi.StringWidth(text)
			if w <= skip {
				skip -= w
				continue
			}
			text = ansi.TruncateLeft(text, skip, "")
			skip = 0
		}
		used := rem
		put(st.Token(t.Type), text, room)
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
// col (1-based, in characters of the line before tab expansion), the code
// scrolled left cells; no caret when its column is scrolled out.
func renderCaret(st *common.Styles, line string, col, numW, left, width int) string {
	runes := []rune(line)
	prefix := string(runes[:min(col-1, len(runes))])
	pad := ansi.StringWidth(ExpandTabs(prefix))
	if col-1 > len(runes) {
		pad += col - 1 - len(runes)
	}
	pad -= left
	gutter := strings.Repeat(" ", numW+2)
	s := gutter + st.Gutter.Render(" │ ")
	if pad >= 0 && (left == 0 || pad > 0) {
		s += strings.Repeat(" ", pad) + st.Caret.Render("^")
	}
	return ansi.Truncate(s, width, "")
}

// SideStep is how many cells ← and → scroll the code sideways.
const SideStep = 8

// Model is the source pane's state: the doc, its tokens, the first row and
// the first code column drawn.
type Model struct {
	c             *common.Common
	doc           Doc
	hl            Highlighted
	codeW         int
	top, left     int
	width, height int
}

// New returns an empty source pane.
func New(c *common.Common) *Model { return &Model{c: c, doc: Doc{Note: "no error selected"}} }

func sameDoc(a, b Doc) bool {
	return a.File == b.File && a.Mark == b.Mark && a.Column == b.Column &&
		a.First == b.First && len(a.Lines) == len(b.Lines) && a.Note == b.Note &&
		a.Partial == b.Partial && a.SPIRV == b.SPIRV && a.Banner == b.Banner && a.Toggled == b.Toggled
}

// SetDoc shows d. A different doc (another file or line) is highlighted and
// centred on its marked line, and so is any doc when recenter is set (a new
// selection); the same doc again from a new snapshot keeps the user's scroll.
func (m *Model) SetDoc(d Doc, recenter bool) {
	if !sameDoc(m.doc, d) || m.hl == nil {
		m.doc, m.hl = d, Highlight(d)
		m.codeW = CodeWidth(m.hl)
		recenter = true
	}
	if recenter {
		m.center()
	}
}

// center puts the marked line in the middle and its column in view.
func (m *Model) center() {
	h := m.codeHeight()
	m.top = CenterTop(m.doc, h)
	m.left = 0
	if room := m.codeRoom(); m.width > 0 && m.doc.Column > 0 && m.doc.Column+4 > room {
		m.left = m.clampLeft(m.doc.Column - room/2)
	}
}

func (m *Model) codeHeight() int { return m.doc.codeHeight(m.width, m.height) }

// codeRoom is the cells the code gets beside the gutter.
func (m *Model) codeRoom() int { return max(m.width-gutterWidth(m.doc), 1) }

func (m *Model) clampLeft(l int) int { return max(0, min(l, m.codeW-m.codeRoom()+1)) }

// Doc returns the doc shown.
func (m *Model) Doc() Doc { return m.doc }

// Top returns the first row drawn.
func (m *Model) Top() int { return m.top }

// Left returns the first code column drawn (0: not scrolled sideways).
func (m *Model) Left() int { return m.left }

// SetSize sets the pane's inner size and centres the marked line again.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.center()
}

// Scroll scrolls by d rows (negative: up).
func (m *Model) Scroll(d int) { m.top = clampTop(m.doc, m.top+d, m.codeHeight()) }

// Update scrolls on the movement keys and the wheel, and sideways on ← and
// →; the root sends keys only while the pane has focus.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.codeHeight()); ok {
		m.Scroll(d)
		return nil
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, m.c.Keys.ScrollLeft):
			m.left = m.clampLeft(m.left - SideStep)
		case key.Matches(k, m.c.Keys.ScrollRight):
			m.left = m.clampLeft(m.left + SideStep)
		}
	}
	return nil
}

// More counts the rows above and below the pane's window.
func (m *Model) More() common.More {
	if m.doc.Empty() {
		return common.More{}
	}
	return common.More{Above: m.top, Below: max(rowCount(m.doc)-m.top-m.codeHeight(), 0)}
}

// sideways are the sideways keys when the code is wider than the pane.
func (m *Model) sideways() []key.Binding {
	if m.codeW <= m.codeRoom() {
		return nil
	}
	k := m.c.Keys
	return []key.Binding{k.ScrollLeft, k.ScrollRight}
}

// ShortHelp is the footer's help: scroll, and sideways when lines are cut.
func (m *Model) ShortHelp() []key.Binding {
	s, _ := m.c.ScrollHelp()
	if m.sideways() != nil {
		s = append(s, common.Sideways(m.c.Keys))
	}
	return s
}

// FullHelp lists every key the pane handles now.
func (m *Model) FullHelp() [][]key.Binding {
	_, f := m.c.ScrollHelp()
	if side := m.sideways(); side != nil {
		f = append(f, side)
	}
	return f
}

// Title is the pane's title: "Source oob_compute.comp:9:5", or for a
// disassembly "SPIR-V shader-2.spvasm:120 · instruction 97" — the view's
// line and the instruction's index in the module, which differ — and
// "(d: source)" when d switches back to the source.
func (m *Model) Title() string {
	if m.doc.SPIRV {
		t := "SPIR-V " + m.doc.Location()
		if m.doc.Mark > 0 {
			t += fmt.Sprintf(" · instruction %d", m.doc.Instruction)
		}
		if m.doc.Toggled {
			t += " (d: source)"
		}
		return t
	}
	if loc := m.doc.Location(); loc != "" {
		return "Source " + loc
	}
	return "Source"
}

// View draws the pane's inner area.
func (m *Model) View() string {
	return RenderHighlighted(m.c.Styles, m.doc, m.hl, m.top, m.left, m.width, m.height)
}

// opcode is the opcode of a line of spirv-dis text: "OpFunction" for
// "%main = OpFunction %void None %3"; "" for other lines.
func opcode(line string) string {
	f := strings.Fields(line)
	if len(f) >= 3 && f[1] == "=" {
		f = f[2:]
	}
	if len(f) > 0 && strings.HasPrefix(f[0], "Op") {
		return f[0]
	}
	return ""
}

// FunctionSpan returns the first and last 1-based lines of the function
// (OpFunction … OpFunctionEnd) around line mark of a disassembly; ok is
// false when mark is outside every function (a type, a decoration).
func FunctionSpan(lines []string, mark int) (first, last int, ok bool) {
	if mark < 1 || mark > len(lines) {
		return 0, 0, false
	}
	for i := mark - 1; i >= 0; i-- {
		op := opcode(lines[i])
		if op == "OpFunctionEnd" && i != mark-1 {
			return 0, 0, false
		}
		if op == "OpFunction" {
			first = i + 1
			break
		}
	}
	if first == 0 {
		return 0, 0, false
	}
	for i := mark - 1; i < len(lines); i++ {
		if opcode(lines[i]) == "OpFunctionEnd" {
			return first, i + 1, true
		}
	}
	return 0, 0, false
}
