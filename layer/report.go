package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"
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
records:
	for _, r := range out.Records {
		count := int(max(r.Count, 1)) // the layer's own records have none
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

// siteTable returns the site tables of the shaders the layer instrumented,
// for gpuav.Decode: each shader's is read once under the lock (a shader's
// table never changes once the shader is known).
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
				if s := state.shaders[id]; s != nil {
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
			queueRecordLocked(msg, g.Record, formatRecord(msg, g))
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
		fmt.Fprintln(os.Stderr, sanitize.Block(formatRecord(msg, g)))
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

// formatRecord writes one error group the way the Khronos layer does: a
// line with the check, its VUID and message, the command buffer, action,
// pipeline, shader and instruction, the stage and the coordinates of the
// invocations it samples, and the count; then where in the source the
// instruction is, and the source line.
func formatRecord(msg wire.Errors, g group) string {
	r := g.Record
	var p [gpuav.RecordParams]uint32
	copy(p[:], r.Params)
	d := gpuav.Describe(gpuav.CheckCode(r.Code), p)
	var b strings.Builder
	fmt.Fprintf(&b, "gpuav-dbg: ERROR %s", r.Check)
	if v := d.VUID(r.Action); v != "" {
		fmt.Fprintf(&b, " %s", v)
	}
	fmt.Fprintf(&b, ": %s", d.Message)
	fmt.Fprintf(&b, " Command buffer 0x%x%s, submit %d, action %d", msg.CommandBuffer,
		serialNameSuffix(msg.CommandBuffer, msg.CommandBufferSerial),
		msg.Submit, r.ActionIndex)
	if r.Action != "" {
		fmt.Fprintf(&b, " (%s)", r.Action)
	}
	if len(r.Labels) > 0 {
		fmt.Fprintf(&b, " in %q", strings.Join(r.Labels, " > "))
	}
	if r.Pipeline != 0 {
		fmt.Fprintf(&b, ", pipeline 0x%x%s", r.Pipeline, serialNameSuffix(r.Pipeline, r.PipelineSerial))
	}
	if r.ShaderID == 0 {
		b.WriteString(", checked by the layer")
	} else {
		fmt.Fprintf(&b, ", shader %d", r.ShaderID)
	}
	sh := state.shaders[r.ShaderID]
	if sh != nil && sh.module != 0 {
		fmt.Fprintf(&b, " (module 0x%x%s)", sh.module, nameSuffix(sh.module))
	} else if sh != nil && sh.object != 0 {
		fmt.Fprintf(&b, " (shader object 0x%x%s)", sh.object, nameSuffix(sh.object))
	}
	fmt.Fprintf(&b, ", instruction %d, stage %s %s", r.Instruction, gpuav.StageName(r.Stage), coordText(r.Stage, g.samples[0]))
	if len(g.samples) > 1 {
		b.WriteString(", also")
		for i, w := range g.samples[1:] {
			if i > 0 {
				b.WriteByte(';')
			}
			fmt.Fprintf(&b, " %s", coordText(r.Stage, w))
		}
	}
	if r.Loop > 1 {
		fmt.Fprintf(&b, ", %d times in this loop (the last failure shown)", r.Loop)
	}
	if r.Count > 1 {
		fmt.Fprintf(&b, ", %d times", r.Count)
	}
	b.WriteString(sourceText(sh, r.Instruction))
	return b.String()
}

// coordText prints an invocation's stage coordinates: "global_invocation_id=[0 0 0]".
func coordText(stage uint32, words [3]uint32) string {
	coords := gpuav.StageCoords(stage, words)
	parts := make([]string, 0, len(coords))
	for _, k := range slices.Sorted(maps.Keys(coords)) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, coords[k]))
	}
	return strings.Join(parts, " ")
}

// sourceText says where in the source an instruction of the shader is and
// shows the line, as the Khronos layer does, from the module's own debug
// information (the layer reads no file):
//
//	Shader validation error occurred at oob_compute.comp:9
//	9:     outs[pc.idx].v[i] = i * 3u;
//
// A module without line information says so and how to get it. The map is
// built once per shader, on its first error.
func sourceText(sh *shader, instruction uint32) string {
	if sh == nil {
		return ""
	}
	if sh.srcmap == nil {
		sh.srcmap = sourcemap.New(sh.spirv)
	}
	loc := sh.srcmap.Lookup(int(instruction))
	if loc.File == "" || loc.Line <= 0 {
		return fmt.Sprintf("\nShader validation error occurred at instruction %d; the module has no line information for it "+
			"(compile the shader with -g or -gVS to see the source line)", instruction)
	}
	where := fmt.Sprintf("%s:%d", loc.File, loc.Line)
	if loc.Column > 0 {
		where += fmt.Sprintf(":%d", loc.Column)
	}
	if loc.Text == "" || loc.Language == sourcemap.LanguageSPIRV {
		return fmt.Sprintf("\nShader validation error occurred at %s (the module carries no text for it)", where)
	}
	return fmt.Sprintf("\nShader validation error occurred at %s\n%d: %s", where, loc.Line, loc.Text)
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
