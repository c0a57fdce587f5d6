package main

import (
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/internal/sanitize"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
	"github.com/gpuav-dbg/gpuav-dbg/sourcemap"
)

// Action is one draw or dispatch of a command buffer, as C recorded it.
type Action struct {
	Index    uint32
	Command  string // vkCmdDispatch...
	Pipeline uint64
	// PipelineSerial is the pipeline's serial (goPipelineCreated), 0
	// with none.
	PipelineSerial uint64
	Labels         []string
}

// SubmittedCB is one command buffer of a finished submit: its output
// buffer's words and its actions.
type SubmittedCB struct {
	Handle uint64
	// Serial is the command buffer's, PrimarySerial its primary's
	// (never reused, unlike handles).
	Serial, PrimarySerial uint64
	Words                 []uint32
	Actions               []Action
	// Primary and PrimaryAction: for a secondary, the primary that ran it
	// and where (see wire.Errors).
	Primary       uint64
	PrimaryAction uint32
	// LayerWords are the layer records made on the CPU, LayerDropped those
	// it could not keep, PrepassWords the pre-pass's output
	// (gpuav/layerrecord.go).
	LayerWords   []uint32
	LayerDropped uint32
	PrepassWords []uint32
	// PrintfWords is its printf buffer, header included (printf.go).
	PrintfWords []uint32
	// MinAction and MaxAction (0: none) keep the GPU records of actions in
	// [MinAction, MaxAction): a hang reports those of the completed
	// actions (hang.go), the submission's read the rest.
	MinAction, MaxAction uint32
}

// groupKey identifies identical records: same check, shader, instruction,
// action and parameters (docs/decisions/all-errors.md).
type groupKey struct {
	code, shader, instruction, action uint32
	params                            [gpuav.RecordParams]uint32
}

// samplesPerGroup is how many records with distinct stage coordinates a
// group keeps; records past that add to the last one's count. The session
// merges them back into one group and shows the coordinates as samples.
const samplesPerGroup = 8

// Builder builds Errors messages from output buffers in reused room: its
// index of groups, and the records and parameters of the message it built
// last, which the next Build overwrites.
type Builder struct {
	first   map[groupKey]int32
	next    []int32
	records []wire.Record
	params  []uint32
}

// builders keeps Builders for goSubmitDone's calls, on any app thread.
var builders = sync.Pool{New: func() any { return new(Builder) }}

// BuildErrors is Builder.Build with a Builder of its own: its message stays
// valid.
func BuildErrors(submit, queue uint64, cb SubmittedCB) (msg wire.Errors, malformed int, ok bool) {
	return new(Builder).Build(submit, queue, cb)
}

// Build decodes one command buffer's output buffer into an Errors message,
// grouping identical records with a count (up to samplesPerGroup distinct
// stage coordinates per group, the first record's first) and attributing
// each to its action. ok is false when the buffer holds nothing to
// report; malformed counts records the decoder skipped. The message's
// records are valid until the next Build.
func (b *Builder) Build(submit, queue uint64, cb SubmittedCB) (msg wire.Errors, malformed int, ok bool) {
	out := gpuav.Decode(cb.Words, siteTable())
	if cb.MinAction > 0 || cb.MaxAction > 0 {
		kept := out.Records[:0]
		for _, r := range out.Records {
			if r.ActionIndex >= cb.MinAction && (cb.MaxAction == 0 || r.ActionIndex < cb.MaxAction) {
				kept = append(kept, r)
			}
		}
		out.Records = kept
	}
	pre := gpuav.DecodeLayerOutput(cb.PrepassWords)
	out.Records = append(append(out.Records, gpuav.DecodeLayerRecords(cb.LayerWords)...), pre.Records...)
	out.Dropped += pre.Dropped + cb.LayerDropped
	msg = wire.Errors{Submit: submit, Queue: queue, CommandBuffer: cb.Handle, CommandBufferSerial: cb.Serial,
		Dropped: out.Dropped, Primary: cb.Primary, PrimarySerial: cb.PrimarySerial, PrimaryAction: cb.PrimaryAction}
	// first maps a group to its first record in msg.Records; next chains
	// a group's records (its samples), -1 ending the chain.
	if b.first == nil {
		b.first = map[groupKey]int32{}
	}
	clear(b.first)
	first, next := b.first, b.next[:0]
	msg.Records, b.params = b.records[:0], b.params[:0]
	if need := len(out.Records) * gpuav.RecordParams; cap(b.params) < need {
		b.params = make([]uint32, 0, need) // params never move once handed out
	}
	params := b.params
	var ids codeResolver
records:
	for _, r := range out.Records {
		count := int(max(r.Count, 1)) // the layer's own records have none
		var pipeline uint64           // its serial
		if int(r.ActionIndex) < len(cb.Actions) {
			pipeline = cb.Actions[r.ActionIndex].PipelineSerial
		}
		// The record's code id names the shader (codeid.go).
		r.ShaderID = ids.id(r.ShaderID, pipeline)
		k := groupKey{uint32(r.Code), r.ShaderID, r.Instruction, r.ActionIndex, r.Params}
		i, seen := first[k]
		if seen {
			last, n := i, 0
			for j := i; j >= 0; j = next[j] {
				if msg.Records[j].StageWords == r.StageWords {
					msg.Records[j].Count += count
					continue records
				}
				last, n = j, n+1
			}
			if n == samplesPerGroup {
				msg.Records[last].Count += count
				continue
			}
			next[last] = int32(len(msg.Records))
		} else {
			first[k] = int32(len(msg.Records))
		}
		start := len(params)
		params = append(params, r.Params[:]...)
		rec := wire.Record{
			Check:       r.Code.CheckID(),
			Code:        uint32(r.Code),
			ShaderID:    r.ShaderID,
			Instruction: r.Instruction,
			Stage:       r.Stage,
			StageWords:  r.StageWords,
			ActionIndex: r.ActionIndex,
			Params:      params[start:len(params):len(params)],
			Count:       count,
		}
		if count > 1 {
			rec.Loop = count
		}
		if int(r.ActionIndex) < len(cb.Actions) {
			a := &cb.Actions[r.ActionIndex]
			rec.Action, rec.Pipeline, rec.PipelineSerial, rec.Labels = a.Command, a.Pipeline, a.PipelineSerial, a.Labels
		}
		next = append(next, -1)
		msg.Records = append(msg.Records, rec)
	}
	b.next, b.records = next, msg.Records
	return msg, out.Malformed, len(msg.Records) > 0 || msg.Dropped > 0
}

// siteTable returns the site tables of the shaders the layer instrumented
// by code id, for gpuav.Decode: each is read once under the lock (a
// shader's table never changes once the shader is known, and the modules
// of one code id have the same).
func siteTable() gpuav.SiteTable {
	type entry struct {
		sites []gpuav.Site
		stage uint32
		ok    bool
	}
	seen := map[uint32]entry{}
	return func(id uint32) ([]gpuav.Site, uint32, bool) {
		e, found := seen[id]
		if !found {
			withLock(func() {
				if s := shaderOfCodeLocked(id, 0); s != nil {
					e = entry{s.sites, s.stage, true}
				}
			})
			seen[id] = e
		}
		return e.sites, e.stage, e.ok
	}
}

// reportLocked sends an Errors message to the launcher and, one message
// per group, to the app's debug-utils messengers; with neither, it prints
// its groups to stderr in the style of the Khronos validation layer.
// Callers hold state.mu.
func reportLocked(msg wire.Errors) {
	sent := sendLocked(wire.KindErrors, msg)
	if haveMessengers() {
		for _, g := range mergeSamples(msg.Records) {
			queueRecordLocked(msg, g.Record, recordMessage(msg, g))
		}
		if msg.Dropped > 0 {
			queueLogLocked(levelError, fmt.Sprintf("command buffer 0x%x, submit %d: %d records did not fit in the output buffer",
				msg.CommandBuffer, msg.Submit, msg.Dropped))
		}
		return
	}
	if sent {
		return
	}
	for _, g := range mergeSamples(msg.Records) {
		state.stderrErrors++
		if state.stderrErrors > maxStderrErrors {
			if state.stderrErrors == maxStderrErrors+1 {
				fmt.Fprintf(os.Stderr, "gpuav-dbg: further errors are not printed\n")
			}
			continue
		}
		fmt.Fprintln(os.Stderr, sanitize.Block("gpuav-dbg: ERROR "+recordMessage(msg, g).Text()))
	}
	if msg.Dropped > 0 && state.stderrErrors <= maxStderrErrors {
		fmt.Fprintf(os.Stderr, "gpuav-dbg: ERROR command buffer 0x%x, submit %d: %d records did not fit in the output buffer\n",
			msg.CommandBuffer, msg.Submit, msg.Dropped)
	}
}

// group is the records of one group of a message merged into one: the
// first record with the total count, and the stage words of up to
// samplesPerGroup distinct invocations (the first's first).
type group struct {
	wire.Record
	samples [][3]uint32
}

// mergeSamples folds the records of one group that differ only in their
// stage coordinates back into one, for a message per group.
func mergeSamples(recs []wire.Record) []group {
	var out []group
	index := map[groupKey]int{}
	for _, r := range recs {
		k := groupKey{code: r.Code, shader: r.ShaderID, instruction: r.Instruction, action: r.ActionIndex}
		copy(k.params[:], r.Params)
		i, ok := index[k]
		if !ok {
			index[k] = len(out)
			out = append(out, group{Record: r, samples: [][3]uint32{r.StageWords}})
			continue
		}
		g := &out[i]
		g.Count += r.Count
		if len(g.samples) < samplesPerGroup && !slices.Contains(g.samples, r.StageWords) {
			g.samples = append(g.samples, r.StageWords)
		}
	}
	return out
}

// recordMessage is one error group's message (gpuav.ErrorMessage: the
// session's words) from what the layer knows: the record, its command
// buffer, action, pipeline and shader with their debug names, what the
// failed access did under its device's settings, and the source line from
// the module's own debug information (the layer reads no file). Callers
// hold state.mu.
func recordMessage(msg wire.Errors, g group) gpuav.ErrorMessage {
	r := g.Record
	var p [gpuav.RecordParams]uint32
	copy(p[:], r.Params)
	code := gpuav.CheckCode(r.Code)
	d := gpuav.Describe(code, p)
	m := gpuav.ErrorMessage{Check: r.Check, What: d.Message, Loop: r.Loop, VUID: d.VUID(r.Action),
		CommandBuffer: handleText(msg.CommandBuffer, msg.CommandBufferSerial), ActionIndex: r.ActionIndex, Action: r.Action, Labels: r.Labels,
		Submit: msg.Submit, Shader: r.ShaderID, Instruction: r.Instruction, Stage: gpuav.StageName(r.Stage), Count: r.Count}
	if msg.Primary != 0 {
		m.Primary, m.PrimaryAction = handleText(msg.Primary, msg.PrimarySerial), msg.PrimaryAction
	}
	if r.Pipeline != 0 {
		m.Pipeline = handleText(r.Pipeline, r.PipelineSerial)
	}
	m.Coords, _ = gpuav.StageCoordText(r.Stage, g.samples[0])
	if len(g.samples) > 1 {
		for _, w := range g.samples {
			_, v := gpuav.StageCoordText(r.Stage, w)
			m.Samples = append(m.Samples, v)
		}
	}
	if r.ShaderID == 0 {
		return m // a layer record: the layer checked the command, no shader
	}
	sh := state.shaders[r.ShaderID]
	set := settingsLocked()
	if sh != nil && state.devices[sh.device] != nil {
		set = state.devices[sh.device].settings
	}
	m.Outcome = gpuav.FailedAccessUnder(set.OnError, set.Robust, code, p).Sentence(r.Check)
	switch {
	case sh == nil:
		m.Source = &gpuav.MessageSource{Note: fmt.Sprintf("shader %d is not known to the layer", r.ShaderID)}
	case sh.module != 0:
		m.Module, m.ShaderName = fmt.Sprintf("0x%x", sh.module), state.names[sh.module]
	case sh.object != 0:
		m.Object, m.ShaderName = fmt.Sprintf("0x%x", sh.object), state.names[sh.object]
	}
	if sh != nil {
		m.Source = sourceOf(sh, r.Instruction)
	}
	return m
}

// handleText prints a pipeline's or command buffer's handle with its
// debug name: `0x55 ("compute-cmd")`; serial is the object's (nameFor: a
// name given to another object with the handle is not shown).
func handleText(h, serial uint64) string {
	return fmt.Sprintf("0x%x%s", h, serialNameSuffix(h, serial))
}

// sourceOf says where in the source an instruction of the shader is, from
// the module's own debug information: the file, line, column and line of
// text, or the SPIR-V instruction and why there is no line. The map is
// built once per shader, on its first error.
func sourceOf(sh *shader, instruction uint32) *gpuav.MessageSource {
	if sh.srcmap == nil {
		sh.srcmap = sourcemap.New(sh.spirv)
	}
	loc := sh.srcmap.Lookup(int(instruction))
	return &gpuav.MessageSource{File: loc.File, Line: loc.Line, Column: loc.Column, Text: loc.Text,
		SPIRV: loc.Language == sourcemap.LanguageSPIRV, Note: loc.Note}
}

// nameFor is the debug name of a pipeline or command buffer of a serial
// (0: unknown): a name given to another object with the same handle is not
// its name. Callers hold state.mu.
func nameFor(h, serial uint64) string {
	if named := state.nameSerials[h]; serial != 0 && named != 0 && named != serial {
		return ""
	}
	return state.names[h]
}

// serialNameSuffix is nameSuffix for a pipeline or command buffer of a
// serial (nameFor).
func serialNameSuffix(h, serial uint64) string {
	if n := nameFor(h, serial); n != "" {
		return fmt.Sprintf(" (%q)", n)
	}
	return ""
}

func nameSuffix(h uint64) string {
	if n := state.names[h]; n != "" {
		return fmt.Sprintf(" (%q)", n)
	}
	return ""
}
