package session

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/gpuav/printf"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Printf limits.
const (
	// MaxPrintfValues is how many distinct texts a printf group counts
	// one by one; lines with other texts are counted together.
	MaxPrintfValues = 64
	// MaxPrintfLines is how many printf lines a session keeps, one by
	// one, in memory; later ones are counted (PrintfNotKept), with a
	// notice.
	MaxPrintfLines = 1 << 20
)

// PrintfGroup is the lines one debugPrintfEXT call printed in one action
// of one command buffer: how many, their distinct texts with counts, and
// each invocation's line.
type PrintfGroup struct {
	// Format is the call's format string.
	Format string `json:"format"`
	// Count is the number of lines received.
	Count int `json:"count"`
	// Values are the distinct texts in the order they first came, with
	// their counts: the first MaxPrintfValues; OtherValues counts the
	// lines whose text is none of them.
	Values      []PrintfValue `json:"values"`
	OtherValues int           `json:"other_values,omitempty"`
	// Lines are the lines in arrival order; LinesNotKept counts those
	// the session had no room for (MaxPrintfLines).
	Lines        []PrintfLine `json:"lines"`
	LinesNotKept int          `json:"lines_not_kept,omitempty"`
	// LinesOmitted counts kept lines a JSON report leaves out
	// (ReportPrintfLines per group).
	LinesOmitted int `json:"lines_omitted,omitempty"`
	// Problem says when lines are not the Khronos layer's text: a
	// conversion it cannot print, missing values, an unknown format.
	Problem string `json:"problem,omitempty"`
	Stage   string `json:"stage"`
	Where
}

// Where is what an error group or a printf group is attributed to.
type Where struct {
	CommandBuffer Handle `json:"command_buffer"`
	// Queue is the queue of the group's first submit (omitted in sessions
	// from before the layer sent it).
	Queue Handle `json:"queue,omitzero"`
	// PrimaryCommandBuffer is, for a secondary command buffer, the primary
	// that executed it in the group's first submit, and PrimaryActionIndex
	// the number of actions that primary had recorded before its
	// vkCmdExecuteCommands. Both are omitted for a primary.
	PrimaryCommandBuffer Handle  `json:"primary_command_buffer,omitzero"`
	PrimaryActionIndex   *uint32 `json:"primary_action_index,omitempty"`
	Submit               uint64  `json:"submit"`
	// LastSubmit is the number of the latest submit with a record in the
	// group.
	LastSubmit  uint64    `json:"last_submit,omitempty"`
	ActionIndex uint32    `json:"action_index"`
	Action      string    `json:"action"`
	Labels      []string  `json:"labels,omitempty"`
	Pipeline    Handle    `json:"pipeline"`
	Shader      ShaderRef `json:"shader"`
	Instruction uint32    `json:"instruction"`
	Source      *Source   `json:"source,omitempty"`
}

// PrintfValue is one distinct text of a group and how many lines had it.
type PrintfValue struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

// PrintfLine is one invocation's line.
type PrintfLine struct {
	Submit uint64 `json:"submit"`
	Coords Coords `json:"coords"`
	Text   string `json:"text"`
}

// printfKey identifies a printf group: the call site in one action of one
// command buffer (the pipeline is the action's).
type printfKey struct {
	cmdBuf, cbSerial uint64
	action           uint32
	shader           uint32
	instruction      uint32
}

// printfState is a group and what the collector needs to add lines and
// names to it.
type printfState struct {
	g      *PrintfGroup
	format *printf.Format
	// values indexes g.Values by text.
	values map[string]int
	// handles the group names, for debug names that come later.
	module, queue             uint64
	cmdBuf, pipeline, primary objRef
}

// printfCollector is the collector's printf part (used under its lock).
type printfCollector struct {
	groups map[printfKey]*printfState
	order  []*printfState
	// of indexes the groups by the handles they name (renamePrintf).
	of map[uint64][]*printfState
	// formats are each shader's call sites' parsed formats by
	// instruction; a shader whose sites could not be read maps to nil.
	formats map[uint32]map[uint32]*printf.Format
	// kept counts the lines kept one by one in the whole session, up to
	// maxLines (MaxPrintfLines; tests lower it).
	kept, maxLines int
	args           []uint32
	buf            []byte
}

// addPrintf folds one Printf message into the printf groups.
func (c *Collector) addPrintf(m *wire.Printf) {
	p := &c.printf
	if p.groups == nil {
		p.groups = map[printfKey]*printfState{}
		p.formats = map[uint32]map[uint32]*printf.Format{}
		if p.maxLines == 0 {
			p.maxLines = MaxPrintfLines
		}
	}
	s := c.s
	s.Submits = max(s.Submits, m.Submit)
	if m.Lost > 0 {
		s.PrintfLost += m.Lost
		c.noticeCause("warning", "printf lost", "", func(n int, _ string) string {
			return fmt.Sprintf("printf: %d lines lost: the printf buffer was full in %d %s of a command buffer; a larger --printf-buffer keeps them",
				s.PrintfLost, n, plural(n, "submission", "submissions"))
		})
	}
	for i := range m.Sites {
		site := &m.Sites[i] // whole lines: validate checked them
		key := printfKey{cmdBuf: m.CommandBuffer, cbSerial: m.CommandBufferSerial, action: site.ActionIndex, shader: site.ShaderID,
			instruction: site.Instruction}
		st, ok := p.groups[key]
		if !ok {
			st = c.newPrintfGroup(m, site)
			p.groups[key] = st
			p.order = append(p.order, st)
			hs := [...]uint64{st.cmdBuf.h, st.pipeline.h, st.module, st.queue, st.primary.h}
			for i, h := range hs {
				if h != 0 && !slices.Contains(hs[:i], h) {
					if p.of == nil {
						p.of = map[uint64][]*printfState{}
					}
					p.of[h] = append(p.of[h], st)
				}
			}
			s.Printf = append(s.Printf, st.g)
		}
		c.addPrintfLines(st, m.Submit, site)
	}
}

// addPrintfLines formats a site's lines into its group.
func (c *Collector) addPrintfLines(st *printfState, submit uint64, site *wire.PrintfSite) {
	p, g := &c.printf, st.g
	g.LastSubmit = max(g.LastSubmit, submit)
	p.args = slices.Grow(p.args[:0], int(site.Args))[:site.Args]
	for i := range site.Count() {
		stage := site.Line(i, p.args)
		g.Count++
		var text string
		var prob printf.Problem
		if st.format != nil {
			p.buf, prob = st.format.Append(p.buf[:0], p.args)
			text = st.value(p.buf)
		} else {
			text = st.value(rawWords(p.buf[:0], p.args))
		}
		if prob != 0 && !strings.Contains(g.Problem, prob.String()) {
			g.Problem = joinProblem(g.Problem, prob.String())
		}
		if p.kept >= p.maxLines {
			g.LinesNotKept++
			c.s.PrintfNotKept++
			if c.s.PrintfNotKept == 1 {
				c.addNotice("warning", fmt.Sprintf("printf: more than %d lines; later lines are counted, their texts counted in values, and not kept one by one", p.maxLines))
			}
			continue
		}
		p.kept++
		g.Lines = append(g.Lines, PrintfLine{Submit: submit, Coords: stageCoords(site.Stage, stage), Text: text})
	}
}

// value counts a line's text among the group's values and returns the
// string to keep for it (the value's own copy when it is one).
func (st *printfState) value(b []byte) string {
	g := st.g
	if i, ok := st.values[string(b)]; ok {
		g.Values[i].Count++
		return g.Values[i].Text
	}
	text := string(b)
	if len(g.Values) < MaxPrintfValues {
		st.values[text] = len(g.Values)
		g.Values = append(g.Values, PrintfValue{Text: text, Count: 1})
	} else {
		g.OtherValues++
	}
	return text
}

// rawWords writes argument words as hex, for a line whose format is
// unknown.
func rawWords(b []byte, words []uint32) []byte {
	for i, w := range words {
		if i > 0 {
			b = append(b, ' ')
		}
		b = fmt.Appendf(b, "0x%x", w)
	}
	return b
}

func joinProblem(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// newPrintfGroup starts a group from the first lines of its site.
func (c *Collector) newPrintfGroup(m *wire.Printf, site *wire.PrintfSite) *printfState {
	g := &PrintfGroup{
		Stage: gpuav.StageName(site.Stage),
		Where: Where{
			CommandBuffer: c.objHandle(objCommandBuffer, objRef{m.CommandBuffer, m.CommandBufferSerial}),
			Submit:        m.Submit,
			ActionIndex:   site.ActionIndex,
			Action:        c.intern.str(site.Action),
			Pipeline:      c.objHandle(objPipeline, objRef{site.Pipeline, site.PipelineSerial}),
			Instruction:   site.Instruction,
		},
		Values: []PrintfValue{},
		Lines:  []PrintfLine{},
	}
	if len(site.Labels) > 0 {
		g.Labels = c.intern.labels(site.Labels)
	}
	st := &printfState{g: g, values: map[string]int{}, cmdBuf: objRef{m.CommandBuffer, m.CommandBufferSerial},
		pipeline: objRef{site.Pipeline, site.PipelineSerial}}
	if m.Queue != 0 {
		st.queue, g.Queue = m.Queue, c.handle(m.Queue)
	}
	if m.Primary != 0 {
		st.primary = objRef{m.Primary, m.PrimarySerial}
		g.PrimaryCommandBuffer = c.objHandle(objCommandBuffer, st.primary)
		pa := m.PrimaryAction
		g.PrimaryActionIndex = &pa
	}
	g.Shader, st.module = c.shaderRef(site.ShaderID)
	g.Source = c.sourceOf(site.ShaderID, site.Instruction)
	st.format = c.printfFormat(site.ShaderID, site.Instruction)
	switch {
	case st.format == nil:
		g.Problem = fmt.Sprintf("shader %d has no printf call at instruction %d: lines show their words", site.ShaderID, site.Instruction)
	default:
		g.Format = st.format.Text()
		if prob := st.format.Problem(); prob != 0 {
			g.Problem = prob.String()
		}
	}
	return st
}

// printfFormat is the parsed format of a shader's call at an instruction,
// or nil when the shader or the call is unknown.
func (c *Collector) printfFormat(shader, instruction uint32) *printf.Format {
	p := &c.printf
	sites, ok := p.formats[shader]
	if !ok {
		if sh, known := c.s.Shaders[shader]; known {
			if found, err := printf.Sites(sh.SPIRV); err == nil {
				sites = map[uint32]*printf.Format{}
				for _, s := range found {
					sites[uint32(s.Instruction)] = printf.Parse(s.Format)
				}
			}
			p.formats[shader] = sites
		}
	}
	return sites[instruction]
}

// renamePrintf gives a debug name to the printf groups that name h (a
// pipeline or command buffer of serial, objRef.named); the shader name
// only to those of shader id shader (0: none).
func (c *Collector) renamePrintf(h uint64, shader uint32, name string, serial uint64) {
	for _, st := range c.printf.of[h] {
		g := st.g
		for _, f := range [...]struct {
			r    objRef
			name *Handle
		}{{st.cmdBuf, &g.CommandBuffer}, {st.pipeline, &g.Pipeline}, {objRef{h: st.queue}, &g.Queue},
			{st.primary, &g.PrimaryCommandBuffer}} {
			if f.r.named(h, serial) {
				f.name.Name = name
			}
		}
		if st.module == h && shader != 0 && g.Shader.ID == shader && (g.Shader.Module != "" || g.Shader.Object != "") {
			g.Shader.Name = name
		}
	}
}

// clonePrintf copies the printf groups for a snapshot: values change in
// place, lines are only appended.
func clonePrintf(groups []*PrintfGroup) []*PrintfGroup {
	if groups == nil {
		return nil
	}
	out := make([]*PrintfGroup, len(groups))
	for i, g := range groups {
		cp := *g
		cp.Values = slices.Clone(g.Values)
		cp.Lines = slices.Clip(g.Lines)
		out[i] = &cp
	}
	return out
}

// PrintfLines counts the printf lines of the session.
func (s *Session) PrintfLines() int {
	n := 0
	for _, g := range s.Printf {
		n += g.Count
	}
	return n
}
