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
func (s *Source) Location() string { return s.message().Location() }

// Caret returns a line with a '^' under the source column (1-based), tabs
// in the source kept so that the caret lines up; "" when the column is
// unknown or the text is a SPIR-V instruction.
func (s *Source) Caret() string { return s.message().Caret() }

// message is the source as a message shows it (nil for nil).
func (s *Source) message() *gpuav.MessageSource {
	if s == nil {
		return nil
	}
	return &gpuav.MessageSource{File: s.File, Line: s.Line, Column: s.Column, Text: s.Text,
		SPIRV: s.Language == sourcemap.LanguageSPIRV, Note: s.Note}
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
	m := gpuav.ErrorMessage{Check: g.Check, What: g.description().Message, Outcome: g.Outcome.Sentence(g.Check), Loop: g.Loop,
		VUID: g.VUID, CommandBuffer: g.CommandBuffer.String(), ActionIndex: g.ActionIndex, Action: g.Action, Labels: g.Labels,
		Submit: g.Submit, Shader: g.Shader.ID, Module: g.Shader.Module, Object: g.Shader.Object, ShaderName: g.Shader.Name,
		Instruction: g.Instruction, Stage: g.Stage, Count: g.Count, Source: g.Source.message(), Other: g.otherAccess()}
	if g.PrimaryCommandBuffer.Handle != "" && g.PrimaryActionIndex != nil {
		m.Primary, m.PrimaryAction = g.PrimaryCommandBuffer.String(), *g.PrimaryActionIndex
	}
	if g.Pipeline.Handle != "" && g.Pipeline.Handle != "0x0" {
		m.Pipeline = g.Pipeline.String()
	}
	if !g.Coords.IsZero() {
		m.Coords = g.Coords.String()
	}
	if len(g.Samples) > 1 {
		for _, s := range g.Samples {
			m.Samples = append(m.Samples, s.Values())
		}
	}
	return m.Text()
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
