package session

import (
	"fmt"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// Verdict is the group in one line, what went wrong and what the access
// did, as the TUI's detail pane leads with it: "index 5 of an array of 4
// descriptors — skipped, read 0", "4-byte read at byte 32 of a 32-byte
// bound range — clamped to byte offset 28". The fields say the rest.
func (g *ErrorGroup) Verdict() string {
	what := g.verdictWhat()
	if out := g.verdictOutcome(); out != "" {
		return what + " — " + out
	}
	return what
}

// What is the check's own sentence (gpuav's description of the first
// record, as the message starts with it), without the check's id.
func (g *ErrorGroup) What() string { return g.what() }

// verdictWhat says what went wrong in a few words.
func (g *ErrorGroup) verdictWhat() string {
	d := g.Descriptor
	switch {
	case g.Buffer != nil:
		b := g.Buffer
		what := fmt.Sprintf("%d-byte %s at byte %d of a %d-byte bound range", b.Size, b.Access(), b.Offset, b.Range)
		if b.Offset == ^uint32(0) {
			what = fmt.Sprintf("%d-byte %s at an offset past 4 GiB of a %d-byte bound range", b.Size, b.Access(), b.Range)
		}
		return what
	case g.Texel != nil:
		return fmt.Sprintf("%s of texel %d of a %d-texel view", g.Texel.Access(), g.Texel.Texel, g.Texel.Count)
	case g.BDA != nil:
		return fmt.Sprintf("%d-byte %s at %s, in no buffer", g.BDA.Size, access(g.BDA.Atomic, g.BDA.Write, "write"), g.BDA.Address)
	case d != nil && g.Check == gpuav.CheckDescriptorIndexOOB:
		return fmt.Sprintf("index %d of an array of %d %s", d.Index, d.ArrayLength, plural(int(d.ArrayLength), "descriptor", "descriptors"))
	case d != nil && g.Check == gpuav.CheckDescriptorUninit:
		return fmt.Sprintf("descriptor %d of set %d, binding %d was never written", d.Index, d.Set, d.Binding)
	case d != nil && g.Check == gpuav.CheckDescriptorDestroyed:
		return fmt.Sprintf("descriptor %d of set %d, binding %d uses a destroyed resource", d.Index, d.Set, d.Binding)
	}
	what := g.what()
	if what == "" {
		what = g.Check
	}
	return strings.Join(strings.Fields(what), " ")
}

// verdictOutcome says what the failed access did: "skipped, read 0",
// "skipped, the write dropped", "clamped to index 1", "executed as
// written", "skipped: <why a clamp had no meaning>"; for the command
// checks whether the layer let the command run. "" when unknown.
func (g *ErrorGroup) verdictOutcome() string {
	switch {
	case g.IndexBuffer != nil:
		return skippedCommand(g.IndexBuffer.Skipped, "the draw was skipped")
	case g.Vertex != nil:
		return skippedCommand(g.Vertex.Skipped, "skipped, the attribute read 0")
	case g.Indirect != nil:
		return skippedCommand(g.Indirect.Skipped, "made harmless before it ran")
	case g.Accel != nil:
		return skippedCommand(g.Accel.Skipped, "built with the instance inactive")
	case g.DepthCopy != nil:
		return skippedCommand(g.DepthCopy.Clamped, "copied with the values clamped into [0, 1]")
	}
	o := g.Outcome
	if o == nil {
		return ""
	}
	switch {
	case o.ClampedTo != nil:
		unit := "index"
		switch g.Check {
		case gpuav.CheckTexelBufferOOB:
			unit = "texel"
		case gpuav.CheckBufferOOB:
			unit = "byte offset"
		}
		return fmt.Sprintf("clamped to %s %d", unit, *o.ClampedTo)
	case o.Access == gpuav.AccessExecuted:
		return "executed as written"
	case o.Reason != "":
		return "skipped: " + o.Reason
	}
	write, known := g.writes()
	switch {
	case !known:
		return "skipped (a load reads 0, a store is dropped)"
	case write:
		return "skipped, the write dropped"
	}
	return "skipped, read 0"
}

// writes says whether the group's access writes, when its values say.
func (g *ErrorGroup) writes() (write, known bool) {
	switch {
	case g.Buffer != nil:
		return g.Buffer.Write || g.Buffer.Atomic, true
	case g.Texel != nil:
		return g.Texel.Write || g.Texel.Atomic, true
	case g.BDA != nil:
		return g.BDA.Write || g.BDA.Atomic, true
	}
	return false, false
}

func skippedCommand(skipped bool, how string) string {
	if skipped {
		return how
	}
	return "ran as recorded"
}
