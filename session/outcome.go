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

// Sentence says what the access did, for a message: clamped, executed,
// skipped where a clamp had no meaning, or skipped (the default); "" when
// the outcome is unknown.
func (o *Outcome) Sentence(check string) string {
	c := gpuav.CheckByID(check)
	switch {
	case o == nil, c != nil && c.OutcomeInMessage():
		return ""
	case o.ClampedTo != nil:
		unit := "index"
		if c := gpuav.CheckByID(check); c != nil {
			unit = c.ClampUnit()
		}
		return fmt.Sprintf("The access was clamped to %s %d.", unit, *o.ClampedTo)
	case o.Access == gpuav.AccessExecuted:
		return "The access was executed as written."
	case o.Reason != "":
		return fmt.Sprintf("The access was skipped: %s.", o.Reason)
	case o.Access == gpuav.AccessSkipped, o.Access == gpuav.AccessClamped:
		// A skip (or, for mesh_outputs, what skip does: a clamp to the
		// maxima), as the check says it; the command checks' own
		// description says what the layer did.
		if c := gpuav.CheckByID(check); c != nil {
			return c.SkipSentence()
		}
		return "The access was skipped (a load read zero, a store or atomic did nothing)."
	}
	return ""
}
