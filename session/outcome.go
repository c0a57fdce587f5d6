package session

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// Outcome is what a group's failed access did: the run's on_error
// behaviour, or skipped where a clamp has no meaning or the element it
// went to failed its own check (docs/decisions/on-error-behaviours.md).
type Outcome struct {
	// Access is "skipped", "clamped" or "executed".
	Access string `json:"access"`
	// ClampedTo is the index (descriptor_index_oob), texel coordinate
	// (texel_buffer_oob) or byte offset (buffer_oob) a clamped access went
	// to.
	ClampedTo *uint32 `json:"clamped_to,omitempty"`
	// Reason says why a clamp fell back to a skip.
	Reason string `json:"reason,omitempty"`
}

// outcomeOf is the outcome of a shader's failed access under settings s.
func outcomeOf(s Settings, code gpuav.CheckCode, p [gpuav.RecordParams]uint32) *Outcome {
	v := gpuav.OnError(s.OnError)
	if s.Robust {
		v = gpuav.OnErrorClamp
	}
	o := gpuav.FailedAccess(v, code, p)
	out := &Outcome{Access: o.Access, Reason: o.Reason}
	if o.Clamped {
		to := o.ClampedTo
		out.ClampedTo = &to
	}
	return out
}

// Sentence says what the access did, for a message; "" for a plain skip
// (the default, which every check's help describes) and for loop_budget,
// whose message says whether the loop was left.
func (o *Outcome) Sentence(check string) string {
	switch {
	case o == nil || check == gpuav.CheckLoopBudget:
		return ""
	case o.ClampedTo != nil:
		unit := "index"
		switch check {
		case gpuav.CheckTexelBufferOOB:
			unit = "texel"
		case gpuav.CheckBufferOOB:
			unit = "byte offset"
		}
		return fmt.Sprintf("The access was clamped to %s %d.", unit, *o.ClampedTo)
	case o.Access == gpuav.AccessExecuted:
		return "The access was executed as written."
	case o.Reason != "":
		return fmt.Sprintf("The access was skipped: %s.", o.Reason)
	}
	return ""
}
