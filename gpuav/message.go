package gpuav

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ErrorMessage is what the message of one error group says, in neutral
// terms: the session (the TUI, the JSON report, the headless output) and
// the layer (stderr, the app's debug-utils messengers) each fill it in
// from what they know, and Text writes the one message both show.
type ErrorMessage struct {
	Check string
	// What says what went wrong, with numbers: Describe's Message.
	What string
	// Outcome says what the failed access did (OutcomeSentence; "" when
	// unknown).
	Outcome string
	// Loop, past 1, is how many times the record's invocation failed in
	// one loop (its values are the last failure's).
	Loop int
	VUID string
	// CommandBuffer is the command buffer's handle and name: `0x55
	// ("compute-cmd")`.
	CommandBuffer string
	ActionIndex   uint32
	// Action is the action's command (vkCmdDispatch...), "" when unknown.
	Action string
	Labels []string
	// Primary is the primary command buffer that executed a secondary
	// ("" for a primary), after PrimaryAction of its actions.
	Primary       string
	PrimaryAction uint32
	// Submit is the submit's number (0: unknown).
	Submit uint64
	// Pipeline is the pipeline's handle and name ("" : none).
	Pipeline string
	// Shader is the shader id; 0 for a layer record (the layer checked
	// the command itself: no shader, no instruction, no source).
	Shader uint32
	// Module or Object is the handle of the shader's module or shader
	// object, ShaderName its debug name.
	Module, Object, ShaderName string
	Instruction                uint32
	Stage                      string
	// Coords are the first invocation's stage coordinates
	// ("global_invocation_id (0,0,0)"; "" : none), Samples the values of
	// each invocation the group samples, the first's first ("(0,0,0)"):
	// shown when there are several.
	Coords  string
	Samples []string
	// Count is the number of records (invocations, or a layer record's
	// commands).
	Count int
	// Source is where the instruction is in the shader's source (nil:
	// nothing known, a layer record).
	Source *MessageSource
	// Other shows a hazard's other access, on lines of its own.
	Other string
}

// MessageSource is an instruction's place in the source.
type MessageSource struct {
	File         string
	Line, Column int
	// Text is the source line, or, without line information, the SPIR-V
	// instruction (SPIRV: no caret under it).
	Text  string
	SPIRV bool
	// Note says what is missing or where the text came from.
	Note string
}

// Text is the message: what went wrong with numbers, what the access did,
// the VUID, where (command buffer, action, labels, pipeline, shader,
// instruction), who (stage, coordinates, count, samples) and the source
// line with a caret.
func (m ErrorMessage) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", m.Check, strings.TrimSpace(m.What))
	if !strings.HasSuffix(b.String(), ".") {
		b.WriteByte('.')
	}
	if m.Outcome != "" {
		fmt.Fprintf(&b, " %s", m.Outcome)
	}
	if m.Loop > 1 {
		fmt.Fprintf(&b, " The invocation failed %d times in this loop; the values are its last failure's.", m.Loop)
	}
	if m.VUID != "" {
		fmt.Fprintf(&b, " %s.", m.VUID)
	}
	fmt.Fprintf(&b, " Command buffer %s, action #%d", m.CommandBuffer, m.ActionIndex)
	if m.Action != "" {
		fmt.Fprintf(&b, " %s", m.Action)
	}
	if len(m.Labels) > 0 {
		fmt.Fprintf(&b, " in %q", strings.Join(m.Labels, " > "))
	}
	if m.Primary != "" {
		fmt.Fprintf(&b, ", executed by primary %s after %d of its actions", m.Primary, m.PrimaryAction)
	}
	if m.Submit > 0 {
		fmt.Fprintf(&b, ", submit %d", m.Submit)
	}
	if m.Pipeline != "" {
		fmt.Fprintf(&b, ", pipeline %s", m.Pipeline)
	}
	layer := m.Shader == 0
	if layer {
		b.WriteString(", checked by the layer (no shader).")
	} else {
		fmt.Fprintf(&b, ", shader %d", m.Shader)
	}
	switch {
	case layer:
	case m.Module != "" && m.ShaderName != "":
		fmt.Fprintf(&b, " (module %s %q)", m.Module, m.ShaderName)
	case m.Module != "":
		fmt.Fprintf(&b, " (module %s)", m.Module)
	case m.Object != "" && m.ShaderName != "":
		fmt.Fprintf(&b, " (shader object %s %q)", m.Object, m.ShaderName)
	case m.Object != "":
		fmt.Fprintf(&b, " (shader object %s)", m.Object)
	}
	if !layer {
		fmt.Fprintf(&b, ", instruction %d.", m.Instruction)
	}
	fmt.Fprintf(&b, " Stage %s", m.Stage)
	if m.Coords != "" {
		fmt.Fprintf(&b, ", %s", m.Coords)
	}
	switch {
	case layer && m.Count == 1:
		b.WriteString("; once.")
	case layer:
		fmt.Fprintf(&b, "; %d times.", m.Count)
	case m.Count == 1:
		b.WriteString("; 1 invocation.")
	default:
		fmt.Fprintf(&b, "; %d invocations.", m.Count)
	}
	if len(m.Samples) > 1 {
		b.WriteString(" Samples:")
		for _, s := range m.Samples {
			b.WriteByte(' ')
			b.WriteString(s)
		}
		b.WriteByte('.')
	}
	if src := m.Source; src != nil {
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
	if m.Other != "" {
		b.WriteString("\n")
		b.WriteString(m.Other)
	}
	return b.String()
}

// Location prints "file:line:col", "file:line" when the column is unknown,
// or "" when there is no file.
func (s *MessageSource) Location() string {
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
func (s *MessageSource) Caret() string {
	if s == nil || s.Column <= 0 || s.SPIRV {
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

// skipSentence is what a skipped access did, for a check the registry
// does not know.
const skipSentence = "The access was skipped (a load read zero, a store or atomic did nothing)."

// OutcomeSentence says what a failed access of check did, for a message:
// clamped (to clampedTo, when not nil), executed, skipped where a clamp
// had no meaning (reason), or skipped as the check says it; "" when the
// outcome is unknown (access "") or the check's own description says it
// (Check.OutcomeInMessage).
func OutcomeSentence(check, access string, clampedTo *uint32, reason string) string {
	c := CheckByID(check)
	switch {
	case access == "", c != nil && c.OutcomeInMessage():
		return ""
	case clampedTo != nil:
		unit := "index"
		if c != nil {
			unit = c.ClampUnit()
		}
		return fmt.Sprintf("The access was clamped to %s %d.", unit, *clampedTo)
	case access == AccessExecuted:
		return "The access was executed as written."
	case reason != "":
		return fmt.Sprintf("The access was skipped: %s.", reason)
	case access == AccessSkipped, access == AccessClamped:
		// A skip (or, for mesh_outputs, what skip does: a clamp to the
		// maxima), as the check says it; the command checks' own
		// description says what the layer did.
		if c != nil {
			return c.SkipSentence()
		}
		return skipSentence
	}
	return ""
}

// CoordKeyOrder is every coordinate key a stage gives (EachStageCoord),
// in the order messages print them; others follow alphabetically.
var CoordKeyOrder = []string{
	"global_invocation_id", "launch_id", "frag_coord", "vertex_index", "instance_index",
	"primitive_id", "invocation_id", "tess_coord", "words",
}

// AppendCoordValues appends coordinate values as messages print them,
// several in parentheses: integers without a fraction, others as short as
// they round-trip.
func AppendCoordValues(b []byte, v []float64) []byte {
	if len(v) != 1 {
		b = append(b, '(')
	}
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		if x >= 0 && x < 1e6 && x == math.Trunc(x) && !math.Signbit(x) {
			b = strconv.AppendUint(b, uint64(x), 10) // as 'g' prints it, faster
			continue
		}
		b = strconv.AppendFloat(b, x, 'g', -1, 64)
	}
	if len(v) != 1 {
		b = append(b, ')')
	}
	return b
}

// StageCoordText prints a record's stage coordinates as messages show
// them: named, "global_invocation_id (0,0,0)" or "vertex_index 3,
// instance_index 0"; and as a sample, the values alone: "(0,0,0)", or
// "(vertex_index 3, instance_index 0)" for several keys.
func StageCoordText(model uint32, w [3]uint32) (named, values string) {
	type kv struct {
		key string
		v   []float64
	}
	var kvs []kv
	EachStageCoord(model, w, func(key string, n int, v [3]float64) { kvs = append(kvs, kv{key, slices.Clone(v[:n])}) })
	rank := func(k string) int {
		if i := slices.Index(CoordKeyOrder, k); i >= 0 {
			return i
		}
		return len(CoordKeyOrder)
	}
	slices.SortStableFunc(kvs, func(a, b kv) int {
		if ra, rb := rank(a.key), rank(b.key); ra != rb {
			return ra - rb
		}
		return strings.Compare(a.key, b.key)
	})
	var n []byte
	for i, x := range kvs {
		if i > 0 {
			n = append(n, ", "...)
		}
		n = AppendCoordValues(append(append(n, x.key...), ' '), x.v)
	}
	switch {
	case len(kvs) == 0:
		return "", ""
	case len(kvs) != 1:
		return string(n), "(" + string(n) + ")"
	}
	v := AppendCoordValues(nil, kvs[0].v)
	if v[0] != '(' {
		v = append(append([]byte{'('}, v...), ')')
	}
	return string(n), string(v)
}
