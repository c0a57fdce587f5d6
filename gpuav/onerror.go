package gpuav

import (
	"fmt"
	"strings"
)

// OnError is what an access does when its check fails. Every behaviour
// reports the error with the same values; they differ in what the access
// then does.
type OnError string

// The behaviours, in the order users see them.
const (
	// OnErrorSkip: the access does not happen; a load yields zero, a
	// store or an atomic is dropped (the default).
	OnErrorSkip OnError = "skip"
	// OnErrorClamp: the index, offset or coordinate is clamped into range
	// and the access happens there; where a clamp has no meaning (a
	// destroyed descriptor, an address outside every buffer) it is skipped.
	OnErrorClamp OnError = "clamp"
	// OnErrorExecute: the access happens exactly as the shader wrote it.
	OnErrorExecute OnError = "execute"
)

// OnErrorBehaviour is one value of the on_error setting, as the manifest,
// the CLI usage and the TUI's settings pane describe it.
type OnErrorBehaviour struct {
	Value OnError
	// Title names it in a few words.
	Title string
	// Help says in one sentence what a failed access does.
	Help string
}

// OnErrors lists the behaviours; the first is the default.
var OnErrors = []OnErrorBehaviour{
	{OnErrorSkip, "Skip the access",
		"The access does not happen: a load yields zero, a store or an atomic is dropped."},
	{OnErrorClamp, "Clamp into range",
		"The descriptor index, buffer offset or texel coordinate is clamped into range and the access happens there; where a clamp has no meaning (an unwritten or destroyed descriptor, a range smaller than the access, an address outside every buffer, ray-query values), the access is skipped."},
	{OnErrorExecute, "Let it execute",
		"The access happens exactly as the shader wrote it (what the app does without validation)."},
}

// DefaultOnError is the behaviour when nothing says otherwise.
const DefaultOnError = OnErrorSkip

// ParseOnError reads a behaviour by its name (case and surrounding spaces
// ignored); the error lists the valid names.
func ParseOnError(s string) (OnError, error) {
	v := OnError(strings.ToLower(strings.TrimSpace(s)))
	for _, b := range OnErrors {
		if b.Value == v {
			return v, nil
		}
	}
	return "", fmt.Errorf("%q is not a failed-access behaviour (use %s)", s, OnErrorNames())
}

// OnErrorNames is the behaviours' names joined with '|': "skip|clamp|execute".
func OnErrorNames() string {
	names := make([]string, len(OnErrors))
	for i, b := range OnErrors {
		names[i] = string(b.Value)
	}
	return strings.Join(names, "|")
}

// OnErrorOrDefault returns v, or DefaultOnError when v is empty (settings
// recorded before the setting existed).
func OnErrorOrDefault(v OnError) OnError {
	if v == "" {
		return DefaultOnError
	}
	return v
}

// Outcome is what a failed access did, from its record and the run's
// behaviour.
type Outcome struct {
	// Access is "skipped", "clamped" or "executed".
	Access string
	// Clamped says ClampedTo holds the index (descriptor_index_oob), texel
	// coordinate (texel_buffer_oob), byte offset (buffer_oob), divisor
	// (sanitizer_divide: the failing lanes') or gather component
	// (sanitizer_gather) the access went to.
	Clamped   bool
	ClampedTo uint32
	// Reason says why a clamp fell back to a skip.
	Reason string
}

// The accesses an Outcome names.
const (
	AccessSkipped  = "skipped"
	AccessClamped  = "clamped"
	AccessExecuted = "executed"
)

// FailedAccess returns what a failed access with this record did under
// behaviour v: clamp falls back to skip where it has no meaning (an
// unwritten or destroyed descriptor, an array or view of no element, a
// bound range too small for the access; for a whole check, its registry
// entry's noClamp) or where the element the clamp went to failed its own
// check (p7 of the record), and the reason says which.
func FailedAccess(v OnError, code CheckCode, p [RecordParams]uint32) Outcome {
	return failedAccessOf(v, code, p)
}

// FailedAccessUnder is FailedAccess under a run's settings: its on_error,
// and clamp in the robust-only mode.
func FailedAccessUnder(onError string, robust bool, code CheckCode, p [RecordParams]uint32) Outcome {
	v := OnError(onError)
	if robust {
		v = OnErrorClamp
	}
	return failedAccessOf(v, code, p)
}

// Sentence says what the access did, for check's message
// (OutcomeSentence).
func (o Outcome) Sentence(check string) string {
	var to *uint32
	if o.Clamped {
		to = &o.ClampedTo
	}
	return OutcomeSentence(check, o.Access, to, o.Reason)
}

func failedAccessOf(v OnError, code CheckCode, p [RecordParams]uint32) Outcome {
	if c := checkOfCode(code); c != nil && c.executes != "" {
		return Outcome{Access: AccessExecuted}
	}
	switch code {
	case CodeBarrierWorkgroup: // seen after the barrier ran
		return Outcome{Access: AccessExecuted}
	case CodeBarrierSubgroup: // the record says whether the arrivals skipped it
		if p[5] == 0 {
			return Outcome{Access: AccessExecuted}
		}
		return Outcome{Access: AccessSkipped}
	}
	switch OnErrorOrDefault(v) {
	case OnErrorExecute:
		return Outcome{Access: AccessExecuted}
	case OnErrorSkip:
		if code == CodeMeshVertices || code == CodeMeshPrimitives {
			return Outcome{Access: AccessClamped} // to the maxima: p2, p3
		}
		return Outcome{Access: AccessSkipped}
	}
	c := checkOfCode(code)
	switch {
	case c != nil && c.noClamp != "":
		return noMeaning(c.noClamp)
	case c != nil && c.clamp != nil:
		if o := c.clamp(code, p); o.Access != "" {
			return o
		}
	}
	return Outcome{Access: AccessSkipped, Reason: "clamp is not built for " + code.CheckID()}
}

// noMeaning is the outcome of a clamp that has no meaning for an access:
// it was skipped, for the reason why.
func noMeaning(why string) Outcome {
	return Outcome{Access: AccessSkipped, Reason: "clamp has no meaning here (" + why + ")"}
}

// clamped is the outcome of an operand clamped to to.
func clamped(to uint32) Outcome { return Outcome{Access: AccessClamped, Clamped: true, ClampedTo: to} }

// The registry rows' clamps (Check.clamp), one per check whose failed
// accesses a clamp moves into range. Each returns the zero Outcome for a
// code it does not know (FailedAccess: "clamp is not built").

// clampDescriptorIndex: the index to the array's last element (p2 the
// index, p3 the length), unless that element failed its own check (p7).
func clampDescriptorIndex(_ CheckCode, p [RecordParams]uint32) Outcome {
	if p[3] == 0 {
		return noMeaning("the array has no element")
	}
	return clampedIndex(min(p[2], p[3]-1), CheckCode(p[7]))
}

// clampBufferOffset: the byte offset the pass computed (p7), unless the
// bound range (p5) holds no place for the access's bytes (p4).
func clampBufferOffset(_ CheckCode, p [RecordParams]uint32) Outcome {
	if p[7] == BufferNoClamp {
		return noMeaning(fmt.Sprintf("the %d-byte bound range holds no place for the %d-byte access", p[5], p[4]))
	}
	return clamped(p[7])
}

// clampTexel: the texel coordinate (p3) into the view's texels (p4); a
// negative signed coordinate to 0.
func clampTexel(_ CheckCode, p [RecordParams]uint32) Outcome {
	switch {
	case p[4] == 0:
		return noMeaning("the view has no texel")
	case p[5]&TexelSigned != 0 && int32(p[3]) < 0:
		return clamped(0)
	}
	return clamped(min(p[3], p[4]-1))
}

// clampDivisor: an integer divisor to 1 in the failing lanes; a float
// divisor has no range.
func clampDivisor(code CheckCode, p [RecordParams]uint32) Outcome {
	switch code {
	case CodeSanitizerDivideByZero, CodeSanitizerDivideOverflow:
		return clamped(1) // the failing lanes' divisor
	case CodeSanitizerFloatDivideByZero:
		return noMeaning("a float divisor has no range to clamp into")
	}
	return Outcome{}
}

// clampTraceRay: the SBT offset and stride to their 4 bits and the miss
// index to its 16 (the trace is made with them); the ray's values, flags
// and a hit kind have no range.
func clampTraceRay(code CheckCode, p [RecordParams]uint32) Outcome {
	switch code {
	case CodeTraceRaySBTOffset, CodeTraceRaySBTStride:
		return clamped(p[code-CodeTraceRaySBTOffset+2] & 0xf) // the trace was made with it
	case CodeTraceRayMissIndex:
		return clamped(p[4] & 0xffff)
	case CodeHitKind:
		return noMeaning("a hit kind is a name, not an index")
	case CodeTraceRayTriangleFlags, CodeTraceRayOpaqueFlags, CodeTraceRaySkipBoth, CodeTraceRayOrigin, CodeTraceRayDirection,
		CodeTraceRayTNegative, CodeTraceRayTminGreaterThanTmax, CodeTraceRayTNaN, CodeTraceRaySkipTrianglesPipeline,
		CodeTraceRaySkipAABBsPipeline:
		return noMeaning("a ray's values and flags are not an index: the trace was not made")
	}
	return Outcome{}
}

// clampedIndex is the outcome of a descriptor index clamped to element to,
// where that element failed its own check with code (0: it did not, and
// the access went there).
func clampedIndex(to uint32, code CheckCode) Outcome {
	var why string
	switch code {
	case 0:
		return Outcome{Access: AccessClamped, Clamped: true, ClampedTo: to}
	case CodeDescriptorUninitialized:
		why = "was never written"
	case CodeDescriptorDestroyed:
		why = "has a destroyed resource"
	case CodeBufferOOB:
		why = "has a bound range with no place for the access"
	default:
		why = "failed its own check"
	}
	return Outcome{Access: AccessSkipped, Reason: fmt.Sprintf("the element the index clamps to, %d, %s", to, why)}
}
