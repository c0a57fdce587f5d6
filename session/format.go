package session

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"

	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
)

// String prints a handle with its name: `0x55 ("compute-cmd")`, or the
// bare handle when it has no name.
func (h Handle) String() string {
	if h.Name == "" {
		return h.Handle
	}
	return fmt.Sprintf("%s (%q)", h.Handle, h.Name)
}

// hexHandle formats a Vulkan handle the way the report does.
func hexHandle(h uint64) string { return fmt.Sprintf("0x%x", h) }

// Location prints "file:line:col", "file:line" when the column is unknown,
// or "" when there is no file.
func (s *Source) Location() string {
	if s == nil || s.File == "" {
		return ""
	}
	if s.Line <= 0 {
		return s.File
	}
	if s.Column <= 0 {
		return fmt.Sprintf("%s:%d", s.File, s.Line)
	}
	return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Column)
}

// Caret returns a line with a '^' under the source column (1-based), tabs
// in the source kept so that the caret lines up; "" when the column is
// unknown or the text is a SPIR-V instruction.
func (s *Source) Caret() string {
	if s == nil || s.Column <= 0 || s.Language == sourcemap.LanguageSPIRV {
		return ""
	}
	var b strings.Builder
	col := 1
	for _, r := range s.Text {
		if col >= s.Column {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		col++
	}
	for ; col < s.Column; col++ {
		b.WriteByte(' ')
	}
	b.WriteByte('^')
	return b.String()
}

// Message is the group's full message (docs/REPORT.md, "message"): what went
// wrong with numbers, the VUID, where (command buffer, action, labels,
// pipeline, shader, instruction), who (stage, coordinates, count, samples)
// and the source line with a caret. It is built from the group each time
// (a session keeps no message text: hundreds of thousands of groups would
// hold hundreds of megabytes of it); a group read from a report gives its
// MessageText.
func (g *ErrorGroup) Message() string {
	if g.MessageText != "" || !g.described {
		return g.MessageText
	}
	what := g.description().Message
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", g.Check, strings.TrimSpace(what))
	if !strings.HasSuffix(b.String(), ".") {
		b.WriteByte('.')
	}
	if o := g.Outcome.Sentence(g.Check); o != "" {
		fmt.Fprintf(&b, " %s", o)
	}
	if g.Loop > 1 {
		fmt.Fprintf(&b, " %s", g.loopSentence())
	}
	if g.VUID != "" {
		fmt.Fprintf(&b, " %s.", g.VUID)
	}
	fmt.Fprintf(&b, " Command buffer %s, action #%d", g.CommandBuffer, g.ActionIndex)
	if g.Action != "" {
		fmt.Fprintf(&b, " %s", g.Action)
	}
	if len(g.Labels) > 0 {
		fmt.Fprintf(&b, " in %q", strings.Join(g.Labels, " > "))
	}
	if g.PrimaryCommandBuffer.Handle != "" && g.PrimaryActionIndex != nil {
		fmt.Fprintf(&b, ", executed by primary %s after %d of its actions", g.PrimaryCommandBuffer, *g.PrimaryActionIndex)
	}
	if g.Submit > 0 {
		fmt.Fprintf(&b, ", submit %d", g.Submit)
	}
	if g.Pipeline.Handle != "" && g.Pipeline.Handle != "0x0" {
		fmt.Fprintf(&b, ", pipeline %s", g.Pipeline)
	}
	layer := g.Shader.ID == 0 // a layer record: the layer checked the command itself
	if layer {
		b.WriteString(", checked by the layer (no shader).")
	} else {
		fmt.Fprintf(&b, ", shader %d", g.Shader.ID)
	}
	switch {
	case layer:
	case g.Shader.Module != "" && g.Shader.Name != "":
		fmt.Fprintf(&b, " (module %s %q)", g.Shader.Module, g.Shader.Name)
	case g.Shader.Module != "":
		fmt.Fprintf(&b, " (module %s)", g.Shader.Module)
	case g.Shader.Object != "" && g.Shader.Name != "":
		fmt.Fprintf(&b, " (shader object %s %q)", g.Shader.Object, g.Shader.Name)
	case g.Shader.Object != "":
		fmt.Fprintf(&b, " (shader object %s)", g.Shader.Object)
	}
	if !layer {
		fmt.Fprintf(&b, ", instruction %d.", g.Instruction)
	}
	fmt.Fprintf(&b, " Stage %s", g.Stage)
	if !g.Coords.IsZero() {
		fmt.Fprintf(&b, ", %s", g.Coords)
	}
	switch {
	case layer && g.Count == 1:
		b.WriteString("; once.")
	case layer:
		fmt.Fprintf(&b, "; %d times.", g.Count)
	case g.Count == 1:
		b.WriteString("; 1 invocation.")
	default:
		fmt.Fprintf(&b, "; %d invocations.", g.Count)
	}
	if len(g.Samples) > 1 {
		b.WriteString(" Samples:")
		for _, s := range g.Samples {
			b.WriteByte(' ')
			b.WriteString(s.Values())
		}
		b.WriteByte('.')
	}
	if src := g.Source; src != nil {
		if loc := src.Location(); loc != "" {
			fmt.Fprintf(&b, " %s:", loc)
			if src.Text != "" {
				b.WriteString("\n")
				b.WriteString(src.Text)
				if c := src.Caret(); c != "" {
					b.WriteString("\n")
					b.WriteString(c)
				}
			}
			if src.Note != "" {
				fmt.Fprintf(&b, "\n(%s)", src.Note)
			}
		} else {
			if src.Note != "" {
				fmt.Fprintf(&b, " Source unknown: %s.", src.Note)
			}
			if src.Text != "" {
				// No debug info: the disassembled instruction stands in.
				b.WriteString("\n")
				b.WriteString(src.Text)
			}
		}
	}
	if o := g.otherAccess(); o != "" {
		b.WriteString("\n")
		b.WriteString(o)
	}
	return b.String()
}

// description describes the group's first record, with a hazard's
// variable and element named from its module.
func (g *ErrorGroup) description() gpuav.Description {
	if g.Race != nil {
		return gpuav.DescribeShared(g.code, g.params, g.Race.name())
	}
	return gpuav.Describe(g.code, g.params)
}

// otherAccess is the sentence that shows a hazard's earlier access: its
// location and source line; "" when the group has none.
func (g *ErrorGroup) otherAccess() string {
	r := g.Race
	if r == nil || r.OtherSource == nil || r.OtherSource.Location() == "" {
		return ""
	}
	s := fmt.Sprintf("The other access, by invocation %s: %s:", fmtIDs(r.OtherLocalID), r.OtherSource.Location())
	if r.OtherSource.Text != "" {
		s += "\n" + r.OtherSource.Text
	}
	return s
}

// fmtIDs writes an id triple as "(x, y, z)".
func fmtIDs(v [3]uint32) string { return fmt.Sprintf("(%d, %d, %d)", v[0], v[1], v[2]) }

// Summary is the group in one line, as the headless launcher prints it:
//
//	descriptor_index_oob ×4 compute oob_compute.comp:9 (set 0, binding 0) index 3 of array length 2 — vkCmdDispatch #0 cmd 0x55 ("compute-cmd")
func (g *ErrorGroup) Summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s ×%d %s", g.Check, g.Count, g.Stage)
	writeLocation(&b, g.Source, g.Shader.ID, g.Instruction)
	if d := g.Descriptor; d != nil && g.Check == "descriptor_index_oob" {
		fmt.Fprintf(&b, " (set %d, binding %d) index %d of array length %d", d.Set, d.Binding, d.Index, d.ArrayLength)
	} else if d != nil {
		fmt.Fprintf(&b, " (set %d, binding %d) index %d", d.Set, d.Binding, d.Index)
		if bu := g.Buffer; bu != nil {
			fmt.Fprintf(&b, " %s bytes %d..%d of %d bound", bu.Access(), bu.Offset, bu.Highest, bu.Range)
		}
		if te := g.Texel; te != nil {
			fmt.Fprintf(&b, " %s texel %d of %d", te.Access(), te.Texel, te.Count)
		}
		if g.IsWarning() {
			b.WriteString(" (warning)")
		}
	} else if what := g.what(); what != "" {
		fmt.Fprintf(&b, " %s", what)
	}
	if g.Loop > 1 {
		fmt.Fprintf(&b, " (%d times in this loop)", g.Loop)
	}
	if r := g.Race; r != nil && r.OtherSource != nil && r.OtherSource.Location() != "" {
		fmt.Fprintf(&b, " (other access %s)", r.OtherSource.Location())
	}
	writeAction(&b, g.Action, g.ActionIndex, g.CommandBuffer)
	return b.String()
}

// loopSentence says how many times a folded record's invocation failed in
// its loop, and whose values the group shows (its last failure's).
func (g *ErrorGroup) loopSentence() string {
	return fmt.Sprintf("The invocation failed %d times in this loop; the values are its last failure's.", g.Loop)
}

// what is the check's own sentence: described again from the record, or,
// for a group read from a report, the text of its message between "check:
// " and the VUID or the command buffer.
func (g *ErrorGroup) what() string {
	if g.described {
		return strings.TrimSuffix(strings.TrimSpace(g.description().Message), ".")
	}
	s := strings.TrimPrefix(g.MessageText, g.Check+": ")
	if i := strings.Index(s, " VUID-"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, " Command buffer "); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSuffix(strings.TrimSpace(s), ".")
}

// MarshalJSON writes the group as the report carries it, its message
// built (Message).
func (g ErrorGroup) MarshalJSON() ([]byte, error) {
	type plain ErrorGroup // the fields, without this method
	p := plain(g)
	p.MessageText = g.Message()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(&p); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
