package session

import "github.com/gpuav-dbg/gpuav-dbg/gpuav"

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
	o := gpuav.FailedAccessUnder(s.OnError, s.Robust, code, p)
	out := &Outcome{Access: o.Access, Reason: o.Reason}
	if o.Clamped {
		to := o.ClampedTo
		out.ClampedTo = &to
	}
	return out
}

// Sentence says what the access did, for a message
// (gpuav.OutcomeSentence): clamped, executed, skipped where a clamp had no
// meaning, or skipped (the default); "" when the outcome is unknown.
func (o *Outcome) Sentence(check string) string {
	if o == nil {
		return ""
	}
	return gpuav.OutcomeSentence(check, o.Access, o.ClampedTo, o.Reason)
}
