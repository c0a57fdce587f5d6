package main

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
	"github.com/gpuav-dbg/gpuav-dbg/session/wire"
)

// Action is one draw or dispatch of a command buffer, as C recorded it.
type Action struct {
	Index    uint32
	Command  string // vkCmdDispatch...
	Pipeline uint64
	Labels   []string
}

// SubmittedCB is one command buffer of a finished submit: its output
// buffer's words and its actions.
type SubmittedCB struct {
	Handle  uint64
	Words   []uint32
	Actions []Action
	// Primary and PrimaryAction: for a secondary, the primary that ran it
	// and where (see wire.Errors).
	Primary       uint64
	PrimaryAction uint32
}

// groupKey identifies identical records: same check, shader, instruction,
// action and parameters (DESIGN decision 5).
type groupKey struct {
	code, shader, instruction, action uint32
	params                            [gpuav.RecordParams]uint32
}

// samplesPerGroup is how many records with distinct stage coordinates a
// group keeps; records past that add to the last one's count. The session
// merges them back into one group and shows the coordinates as samples.
const samplesPerGroup = 8

// BuildErrors decodes one command buffer's output buffer into an Errors
// message, grouping identical records with a count (up to samplesPerGroup
// distinct stage coordinates per group, the first record's first) and
// attributing each to its action. ok is false
// when the buffer holds nothing to report; malformed counts records the
// decoder skipped.
func BuildErrors(submit, queue uint64, cb SubmittedCB) (msg wire.Errors, malformed int, ok bool) {
	out := gpuav.Decode(cb.Words, siteTable())
	msg = wire.Errors{Submit: submit, Queue: queue, CommandBuffer: cb.Handle, Dropped: out.Dropped,
		Primary: cb.Primary, PrimaryAction: cb.PrimaryAction}
	index := map[groupKey][]int{}
records:
	for _, r := range out.Records {
		k := groupKey{uint32(r.Code), r.ShaderID, r.Instruction, r.ActionIndex, r.Params}
		if seen := index[k]; len(seen) > 0 {
			for _, i := range seen {
				if msg.Records[i].StageWords == r.StageWords {
					msg.Records[i].Count++
					continue records
				}
			}
			if len(seen) == samplesPerGroup {
				msg.Records[seen[len(seen)-1]].Count++
				continue
			}
		}
		rec := wire.Record{
			Check:       r.Code.CheckID(),
			Code:        uint32(r.Code),
			ShaderID:    r.ShaderID,
			Instruction: r.Instruction,
			Stage:       r.Stage,
			StageWords:  r.StageWords,
			ActionIndex: r.ActionIndex,
			Params:      append([]uint32(nil), r.Params[:]...),
			Count:       1,
		}
		if int(r.ActionIndex) < len(cb.Actions) {
			a := cb.Actions[r.ActionIndex]
			rec.Action, rec.Pipeline, rec.Labels = a.Command, a.Pipeline, a.Labels
		}
		index[k] = append(index[k], len(msg.Records))
		msg.Records = append(msg.Records, rec)
	}
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
		for _, r := range mergeSamples(msg.Records) {
			queueRecordLocked(msg, r, formatRecord(msg, r))
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
	for _, r := range mergeSamples(msg.Records) {
		state.stderrErrors++
		if state.stderrErrors > maxStderrErrors {
			if state.stderrErrors == maxStderrErrors+1 {
				fmt.Fprintf(os.Stderr, "gpuav-dbg: further errors are not printed\n")
			}
			continue
		}
		fmt.Fprintln(os.Stderr, formatRecord(msg, r))
	}
	if msg.Dropped > 0 && state.stderrErrors <= maxStderrErrors {
		fmt.Fprintf(os.Stderr, "gpuav-dbg: ERROR command buffer 0x%x, submit %d: %d records did not fit in the output buffer\n",
			msg.CommandBuffer, msg.Submit, msg.Dropped)
	}
}

// mergeSamples folds the records of one group that differ only in their
// stage coordinates back into one, the first's coordinates with the total
// count, for a one-line-per-group stderr report.
func mergeSamples(recs []wire.Record) []wire.Record {
	var out []wire.Record
	index := map[groupKey]int{}
	for _, r := range recs {
		k := groupKey{code: r.Code, shader: r.ShaderID, instruction: r.Instruction, action: r.ActionIndex}
		copy(k.params[:], r.Params)
		if i, ok := index[k]; ok {
			out[i].Count += r.Count
			continue
		}
		index[k] = len(out)
		out = append(out, r)
	}
	return out
}

// formatRecord writes one error group as one line, VVL style.
func formatRecord(msg wire.Errors, r wire.Record) string {
	var p [gpuav.RecordParams]uint32
	copy(p[:], r.Params)
	d := gpuav.Describe(gpuav.CheckCode(r.Code), p)
	var b strings.Builder
	fmt.Fprintf(&b, "gpuav-dbg: ERROR %s", r.Check)
	if v := d.VUID(r.Action); v != "" {
		fmt.Fprintf(&b, " %s", v)
	}
	fmt.Fprintf(&b, ": %s", d.Message)
	fmt.Fprintf(&b, " Command buffer 0x%x%s, submit %d, action %d", msg.CommandBuffer, nameSuffix(msg.CommandBuffer),
		msg.Submit, r.ActionIndex)
	if r.Action != "" {
		fmt.Fprintf(&b, " (%s)", r.Action)
	}
	if len(r.Labels) > 0 {
		fmt.Fprintf(&b, " in %q", strings.Join(r.Labels, " > "))
	}
	if r.Pipeline != 0 {
		fmt.Fprintf(&b, ", pipeline 0x%x%s", r.Pipeline, nameSuffix(r.Pipeline))
	}
	fmt.Fprintf(&b, ", shader %d", r.ShaderID)
	if s := state.shaders[r.ShaderID]; s != nil && s.module != 0 {
		fmt.Fprintf(&b, " (module 0x%x%s)", s.module, nameSuffix(s.module))
	} else if s != nil && s.object != 0 {
		fmt.Fprintf(&b, " (shader object 0x%x%s)", s.object, nameSuffix(s.object))
	}
	fmt.Fprintf(&b, ", instruction %d, stage %s", r.Instruction, gpuav.StageName(r.Stage))
	coords := gpuav.StageCoords(r.Stage, r.StageWords)
	for _, k := range slices.Sorted(maps.Keys(coords)) {
		fmt.Fprintf(&b, " %s=%v", k, coords[k])
	}
	if r.Count > 1 {
		fmt.Fprintf(&b, ", %d times", r.Count)
	}
	return b.String()
}

func nameSuffix(h uint64) string {
	if n := state.names[h]; n != "" {
		return fmt.Sprintf(" (%q)", n)
	}
	return ""
}
