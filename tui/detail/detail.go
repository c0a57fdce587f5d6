// Package detail is the detail pane: everything known about one error group,
// as a user needs it to fix the bug: the message, check and VUID, stage and
// coordinates, descriptor, command buffer, submit, action, debug labels,
// pipeline and shader, SPIR-V instruction, count and sample coordinates.
package detail

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpuav-dbg/gpuav-dbg/session"
	"github.com/gpuav-dbg/gpuav-dbg/tui/common"
)

// LabelWidth is the width of the field-name column.
const LabelWidth = 12

// FormatTuple formats coordinate values: (0, 0, 0), (0.5, 0.5).
func FormatTuple(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// FormatCoords formats stage coordinates, keys in order:
// "global_invocation_id (0, 0, 0)"; several keys are joined with ", ".
func FormatCoords(c session.Coords) string {
	keys := c.Keys()
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + " " + FormatTuple(c.Get(k))
	}
	return strings.Join(parts, ", ")
}

// formatSample formats one sample: just the tuple when it has a single key.
func formatSample(c session.Coords) string {
	if keys := c.Keys(); len(keys) == 1 {
		return FormatTuple(c.Get(keys[0]))
	}
	return FormatCoords(c)
}

// FormatHandle formats a handle with its debug name: 0x55d0 "main cb"; "—"
// when neither is known.
func FormatHandle(h session.Handle) string {
	switch {
	case h.Handle == "" && h.Name == "":
		return "—"
	case h.Name == "":
		return h.Handle
	case h.Handle == "":
		return strconv.Quote(h.Name)
	}
	return h.Handle + " " + strconv.Quote(h.Name)
}

// Field is one labelled line of the pane.
type Field struct {
	// Label names the field; Value is its text, possibly long (wrapped).
	Label, Value string
}

// InstructionText is the Instruction field: the instruction's index in
// the module, and where the SPIR-V view (d) shows it when that line number
// differs (the view counts the header's lines and every line of a
// multi-line string): "57 (index in the module; line 71 of the SPIR-V
// view, d)". spirvLine 0 means the view cannot show the module.
func InstructionText(instruction uint32, spirvLine int) string {
	s := strconv.FormatUint(uint64(instruction), 10)
	if spirvLine > 0 && spirvLine != int(instruction) {
		s += fmt.Sprintf(" (index in the module; line %d of the SPIR-V view, d)", spirvLine)
	}
	return s
}

// Fields lists g's fields in display order; fields with nothing to say are
// left out. spirvLine is the instruction's line in the SPIR-V view (0:
// unknown). Text from the app is cleaned ([common.Clean]).
func Fields(g *session.ErrorGroup, spirvLine int) []Field {
	var f []Field
	add := func(label, value string) {
		if value != "" {
			f = append(f, Field{label, common.Clean(value)})
		}
	}
	add("Check", g.Check)
	if g.IsWarning() {
		add("Level", "warning (defined behaviour under robustBufferAccess)")
	}
	add("VUID", g.VUID)
	stage := g.Stage
	if c := FormatCoords(g.Coords); c != "" {
		stage += "  " + c
	}
	add("Stage", stage)
	if d := g.Descriptor; d != nil {
		add("Descriptor", fmt.Sprintf("set %d, binding %d, index %d, array length %d", d.Set, d.Binding, d.Index, d.ArrayLength))
	}
	if b := g.BDA; b != nil {
		add("Address", fmt.Sprintf("%s, %d bytes %s", b.Address, b.Size, b.Access()))
		if n := b.Nearest; n != nil {
			add("Nearest buf", fmt.Sprintf("%s, %d bytes", n.Address, n.Size))
		}
	}
	if b := g.Buffer; b != nil {
		add("Access", fmt.Sprintf("%d-byte %s at offset %d of a %s buffer, highest byte %d", b.Size, b.Access(), b.Offset, b.Kind, b.Highest))
		add("Bound range", fmt.Sprintf("%d bytes", b.Range))
	}
	if te := g.Texel; te != nil {
		add("Access", fmt.Sprintf("%s of texel %d of a %s texel buffer", te.Access(), te.Texel, te.Kind))
		add("View size", fmt.Sprintf("%d texels", te.Count))
	}
	if r := g.Race; r != nil {
		id := func(v [3]uint32) string { return fmt.Sprintf("(%d,%d,%d)", v[0], v[1], v[2]) }
		add("Hazard", fmt.Sprintf("%s on %s", r.Kind, r.Element))
		add("Invocations", fmt.Sprintf("local %s (this line) after local %s, global %s", id(r.LocalID), id(r.OtherLocalID), id(r.OtherGlobalID)))
		if o := r.OtherSource; o != nil && o.Location() != "" {
			add("Other line", strings.TrimSpace(fmt.Sprintf("%s  %s", o.Location(), strings.TrimSpace(o.Text))))
		} else if r.OtherInstruction == nil {
			add("Other line", "not known (past the module's 510th checked access)")
		}
	}
	if b := g.Barrier; b != nil {
		arr := fmt.Sprintf("%d of %d invocations of the %s", b.Arrived, b.Expected, b.Scope)
		if m := b.MissingLocalID; m != nil {
			arr += fmt.Sprintf("; missing local (%d,%d,%d)", m[0], m[1], m[2])
		}
		if b.Skipped {
			arr += "; skipped"
		}
		add("Arrived", arr)
	}
	add("Command buf", FormatHandle(g.CommandBuffer))
	if g.PrimaryActionIndex != nil {
		add("Primary", fmt.Sprintf("%s, after %d of its actions", FormatHandle(g.PrimaryCommandBuffer), *g.PrimaryActionIndex))
	}
	if g.Queue.Handle != "" {
		add("Queue", FormatHandle(g.Queue))
	}
	add("Submit", fmt.Sprintf("#%d", g.Submit))
	action := fmt.Sprintf("#%d", g.ActionIndex)
	if g.Action != "" {
		action += " " + g.Action
	}
	add("Action", action)
	add("Labels", strings.Join(g.Labels, " › "))
	add("Pipeline", FormatHandle(g.Pipeline))
	shader := fmt.Sprintf("id %d", g.Shader.ID)
	if g.Shader.Module != "" {
		shader += ", module " + g.Shader.Module
	}
	if g.Shader.Object != "" {
		shader += ", shader object " + g.Shader.Object
	}
	if g.Shader.Name != "" {
		shader += " " + strconv.Quote(g.Shader.Name)
	}
	add("Shader", shader)
	add("Instruction", InstructionText(g.Instruction, spirvLine))
	if s := g.Source; s != nil && s.File != "" {
		loc := fmt.Sprintf("%s:%d", path.Base(s.File), s.Line)
		if s.Column > 0 {
			loc += fmt.Sprintf(":%d", s.Column)
		}
		add("Source", loc)
	}
	if s := g.Source; s != nil {
		add("Note", s.Note)
	}
	if g.Loop > 1 {
		add("Loop", fmt.Sprintf("its invocation failed %d times in this loop; the values are the last failure's", g.Loop))
	}
	add("Count", strconv.Itoa(g.Count))
	samples := make([]string, len(g.Samples))
	for i, s := range g.Samples {
		samples[i] = formatSample(s)
	}
	add("Samples", strings.Join(samples, " "))
	return f
}

// Lines renders g as lines of at most width cells: its verdict in one
// line (what went wrong and what the access did; wrapped when narrow), a
// blank line, then the fields with wrapped values indented under their
// label. The fields hold the rest of the message: no paragraph repeats
// them.
func Lines(st *common.Styles, g *session.ErrorGroup, spirvLine, width int) []string {
	if g == nil || width <= 0 {
		return nil
	}
	var out []string
	verdict := common.Clean(g.Verdict())
	if verdict == "" {
		verdict = g.Check
	}
	for _, l := range common.Lines(ansi.Wrap(verdict, width, "")) {
		out = append(out, st.Bold.Render(l))
	}
	out = append(out, "")
	vw := max(width-LabelWidth, 8)
	for _, f := range Fields(g, spirvLine) {
		vs := common.Lines(ansi.Wrap(f.Value, vw, ""))
		for i, v := range vs {
			label := strings.Repeat(" ", LabelWidth)
			if i == 0 {
				label = st.Label.Render(common.Fit(f.Label, LabelWidth))
			}
			out = append(out, label+valueStyle(st, f.Label).Render(v))
		}
	}
	return out
}

func valueStyle(st *common.Styles, label string) lipgloss.Style {
	switch label {
	case "Check":
		return st.Check
	case "Source":
		return st.Location
	case "Count":
		return st.Count
	case "Note":
		return st.Warning
	}
	return st.Value
}

// NoGroup is the pane's text when no error is selected.
const NoGroup = "no error selected"

// Render draws g from line offset on, exactly width×height cells; nil says
// no error is selected.
func Render(st *common.Styles, g *session.ErrorGroup, spirvLine, offset, width, height int) string {
	if g == nil {
		return common.Center(st.Muted.Render(NoGroup), width, height)
	}
	lines := Lines(st, g, spirvLine, width)
	if offset > 0 && offset < len(lines) {
		lines = lines[offset:]
	} else if offset >= len(lines) {
		lines = nil
	}
	return common.Block(lines, width, height)
}

// Model is the detail pane's state: the group shown and the scroll offset.
type Model struct {
	c             *common.Common
	group         *session.ErrorGroup
	spirvLine     int
	offset        int
	width, height int
	// lines is the rendered group, kept until the group, the width or the
	// theme changes.
	lines       []string
	linesStyles *common.Styles
	linesW      int
}

// New returns an empty detail pane.
func New(c *common.Common) *Model { return &Model{c: c} }

// SetSize sets the pane's inner size.
func (m *Model) SetSize(w, h int) {
	m.width, m.height = w, h
	m.scroll(0)
}

// SetGroup shows g, whose instruction is on line spirvLine of the SPIR-V
// view (0: unknown); a different group scrolls back to the top.
func (m *Model) SetGroup(g *session.ErrorGroup, spirvLine int, reset bool) {
	m.group, m.spirvLine, m.lines = g, spirvLine, nil
	if reset {
		m.offset = 0
	}
	m.scroll(0)
}

// Offset returns the scroll offset in lines.
func (m *Model) Offset() int { return m.offset }

// rendered returns the group's lines at the pane's width.
func (m *Model) rendered() []string {
	if m.lines == nil || m.linesStyles != m.c.Styles || m.linesW != m.width {
		m.lines, m.linesStyles, m.linesW = Lines(m.c.Styles, m.group, m.spirvLine, m.width), m.c.Styles, m.width
	}
	return m.lines
}

func (m *Model) scroll(d int) {
	n := len(m.rendered())
	m.offset = max(0, min(m.offset+d, n-m.height))
}

// More counts the lines above and below the pane's window.
func (m *Model) More() common.More {
	n := len(m.rendered())
	return common.More{Above: m.offset, Below: max(n-m.offset-m.height, 0)}
}

// Update scrolls on the movement keys; the root sends keys only while the
// pane has focus.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	if d, ok := m.c.ScrollDelta(msg, m.height); ok {
		m.scroll(d)
	}
	return nil
}

// ShortHelp is the footer's help while the pane has focus.
func (m *Model) ShortHelp() []key.Binding { s, _ := m.c.ScrollHelp(); return s }

// FullHelp lists every key the pane handles.
func (m *Model) FullHelp() [][]key.Binding { _, f := m.c.ScrollHelp(); return f }

// Title is the pane's title.
func (m *Model) Title() string { return "Detail" }

// View draws the pane's inner area.
func (m *Model) View() string {
	if m.group == nil {
		return Render(m.c.Styles, nil, 0, 0, m.width, m.height)
	}
	lines := m.rendered()
	return common.Block(lines[min(m.offset, len(lines)):], m.width, m.height)
}

// Summary is g as one line, compiler style, for the clipboard (y):
// "oob_compute.comp:9:5: descriptor_index_oob: Descriptor index 3 is out of
// bounds: … (vkCmdDispatch #0 in command buffer 0x55d5 "compute cb", 4
// records)". Text from the app is cleaned.
func Summary(g *session.ErrorGroup) string {
	var b strings.Builder
	if s := g.Source; s != nil && s.File != "" && s.Line > 0 {
		fmt.Fprintf(&b, "%s:%d:", s.File, s.Line)
		if s.Column > 0 {
			fmt.Fprintf(&b, "%d:", s.Column)
		}
		b.WriteString(" ")
	} else {
		fmt.Fprintf(&b, "shader %d instruction %d: ", g.Shader.ID, g.Instruction)
	}
	msg := g.Message()
	if msg == "" {
		msg = g.Check
	}
	action := g.Action
	if action == "" {
		action = "action"
	}
	records := "records"
	if g.Count == 1 {
		records = "record"
	}
	fmt.Fprintf(&b, "%s: %s (%s #%d in command buffer %s, %d %s)", g.Check, strings.Join(strings.Fields(msg), " "),
		action, g.ActionIndex, FormatHandle(g.CommandBuffer), g.Count, records)
	return common.Clean(b.String())
}
