package session

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// Ray is the operands of a failed OpRayQueryInitializeKHR (the ray_query
// check) or OpTraceRayKHR (trace_ray). A record has room for one vector:
// Origin, or Direction when the error is about the direction (neither for
// a trace_ray error about its SBT operands, whose ray is valid).
type Ray struct {
	Tmin      Float32     `json:"tmin"`
	Tmax      Float32     `json:"tmax"`
	Origin    *[3]Float32 `json:"origin,omitempty"`
	Direction *[3]Float32 `json:"direction,omitempty"`
	Flags     uint32      `json:"flags"`
	CullMask  uint32      `json:"cull_mask"`
}

// Float32 is a shader float in JSON: a number when finite, else the string
// "NaN", "+Inf" or "-Inf" (JSON has no such numbers, and these are exactly
// the values a ray query error is about).
type Float32 float32

// MarshalJSON writes the shortest decimal that reads back exactly.
func (f Float32) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return json.Marshal(strconv.FormatFloat(x, 'g', -1, 32))
	}
	return []byte(strconv.FormatFloat(x, 'g', -1, 32)), nil
}

// UnmarshalJSON reads what MarshalJSON writes.
func (f *Float32) UnmarshalJSON(b []byte) error {
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
	} else {
		s = string(b)
	}
	x, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return fmt.Errorf("float %s: %w", b, err)
	}
	*f = Float32(x)
	return nil
}

// rayOf converts the decoder's ray values, or returns nil.
func rayOf(r *gpuav.RayValues) *Ray {
	if r == nil {
		return nil
	}
	vec := func(v *[3]float32) *[3]Float32 {
		if v == nil {
			return nil
		}
		return &[3]Float32{Float32(v[0]), Float32(v[1]), Float32(v[2])}
	}
	return &Ray{Tmin: Float32(r.Tmin), Tmax: Float32(r.Tmax), Origin: vec(r.Origin), Direction: vec(r.Direction),
		Flags: r.Flags, CullMask: r.CullMask}
}

// SBT is the shader binding table operands of a failed OpTraceRayKHR (the
// trace_ray check), as the shader passed them: omitted from an error about
// the ray when one of them has more bits than the instruction uses (4, 4
// and 16; an SBT error of its own once the ray is valid).
type SBT struct {
	Offset    uint32 `json:"offset"`
	Stride    uint32 `json:"stride"`
	MissIndex uint32 `json:"miss_index"`
}

// sbtOf converts the decoder's SBT values, or returns nil.
func sbtOf(v *gpuav.SBTValues) *SBT {
	if v == nil {
		return nil
	}
	return &SBT{Offset: v.Offset, Stride: v.Stride, MissIndex: v.MissIndex}
}

// Intersection is the operands of a failed OpReportIntersectionKHR (the
// trace_ray check): its Hit Kind, above 127, and Hit, the intersection's t.
type Intersection struct {
	HitKind uint32  `json:"hit_kind"`
	Hit     Float32 `json:"hit"`
}

// intersectionOf converts the decoder's hit kind values, or returns nil.
func intersectionOf(v *gpuav.HitKindValues) *Intersection {
	if v == nil {
		return nil
	}
	return &Intersection{HitKind: v.HitKind, Hit: Float32(v.Hit)}
}

// LoopBudget is a loop_budget error: a loop an invocation ran for more
// iterations in one entry than the budget.
type LoopBudget struct {
	// Iterations the invocation completed in that entry of the loop when
	// it reported (the budget, unless the limit was lowered since).
	Iterations uint32 `json:"iterations"`
	Budget     uint32 `json:"budget"`
	// Left says the invocation left the loop (every on_error but
	// execute, under which it kept looping).
	Left bool `json:"left"`
}

// loopBudgetOf converts the decoder's loop values, or returns nil.
func loopBudgetOf(v *gpuav.LoopBudgetValues) *LoopBudget {
	if v == nil {
		return nil
	}
	return &LoopBudget{Iterations: v.Iterations, Budget: v.Budget, Left: v.Left}
}

// BDA is the access of a bda_oob error: an access through a buffer device
// address outside every buffer whose address the app obtained. Addresses
// are hex strings ("0x7f3eebc7a040"): JSON numbers lose 64-bit precision.
type BDA struct {
	Address string `json:"address"`
	Size    uint32 `json:"size"`
	Write   bool   `json:"write"`
	Atomic  bool   `json:"atomic,omitempty"`
	Struct  bool   `json:"struct,omitempty"`
	// Alignment is, for a bda_alignment error, the access's Aligned
	// operand, which Address is not a multiple of.
	Alignment uint32 `json:"alignment,omitempty"`
	// Nearest is the buffer with the highest address at or below Address
	// (the lowest one when none is below); omitted when the app obtained
	// no address.
	Nearest *BDABuffer `json:"nearest,omitempty"`
}

// BDABuffer is a buffer's range in a bda_oob error (Size saturates at
// 0xFFFFFFFF).
type BDABuffer struct {
	Address string `json:"address"`
	Size    uint64 `json:"size"`
}

// Access says "read", "written", "atomic read" or "atomic write".
func (b *BDA) Access() string { return access(b.Atomic, b.Write, "written") }

// access names an access: "read", "atomic read", "atomic write", or
// written for a plain write.
func access(atomic, write bool, written string) string {
	switch {
	case atomic && write:
		return "atomic write"
	case atomic:
		return "atomic read"
	case write:
		return written
	}
	return "read"
}

// bdaOf converts the decoder's BDA values, or returns nil.
func bdaOf(v *gpuav.BDAValues) *BDA {
	if v == nil {
		return nil
	}
	b := &BDA{Address: fmt.Sprintf("0x%x", v.Address), Size: v.Size, Write: v.Write, Atomic: v.Atomic, Struct: v.Struct,
		Alignment: v.Alignment}
	if n := v.Nearest; n != nil {
		b.Nearest = &BDABuffer{Address: fmt.Sprintf("0x%x", n.Address), Size: n.Size}
	}
	return b
}

// Buffer is the access of a buffer_oob error: a uniform or storage buffer
// access outside the range bound to its descriptor (the descriptor itself
// is the group's Descriptor).
type Buffer struct {
	// Offset is the access's byte offset in the bound range (4294967295
	// when it overflowed 32 bits); Size the bytes accessed; Range the
	// bytes bound, VK_WHOLE_SIZE and dynamic offsets resolved.
	Offset uint32 `json:"offset"`
	Size   uint32 `json:"size"`
	Range  uint32 `json:"range"`
	// Highest is the last byte accessed, Offset + Size - 1.
	Highest uint64 `json:"highest_byte"`
	Write   bool   `json:"write"`
	Atomic  bool   `json:"atomic,omitempty"`
	// Kind is "uniform" or "storage".
	Kind string `json:"kind"`
	// Robust says the device enabled robustBufferAccess (the group is a
	// warning).
	Robust bool `json:"robust,omitempty"`
	// CooperativeMatrix says a cooperative-matrix load or store (Write: a
	// store): Size is the bytes its rows or columns span.
	CooperativeMatrix bool `json:"cooperative_matrix,omitempty"`
}

// Access says "read", "write", "atomic read" or "atomic write".
func (b *Buffer) Access() string { return access(b.Atomic, b.Write, "write") }

// bufferOf converts the decoder's buffer values, or returns nil.
func bufferOf(v *gpuav.BufferValues) *Buffer {
	if v == nil {
		return nil
	}
	kind := "storage"
	if v.Uniform {
		kind = "uniform"
	}
	return &Buffer{Offset: v.Offset, Size: v.Size, Range: v.Range, Highest: v.Highest(), Write: v.Write,
		Atomic: v.Atomic, Kind: kind, Robust: v.Robust, CooperativeMatrix: v.CooperativeMatrix}
}

// Texel is the access of a texel_buffer_oob error: a uniform or storage
// texel buffer access at a texel past the end of the bound buffer view
// (the descriptor itself is the group's Descriptor).
type Texel struct {
	// Texel is the coordinate the shader used (negative when the shader's
	// signed coordinate was); Count the view's texel count.
	Texel  int64  `json:"texel"`
	Count  uint32 `json:"texel_count"`
	Write  bool   `json:"write"`
	Atomic bool   `json:"atomic,omitempty"`
	// Kind is "uniform" or "storage".
	Kind string `json:"kind"`
	// Robust says the device enabled robustBufferAccess (the group is a
	// warning).
	Robust bool `json:"robust,omitempty"`
}

// Access says "read", "write", "atomic read" or "atomic write".
func (t *Texel) Access() string {
	b := Buffer{Write: t.Write, Atomic: t.Atomic}
	return b.Access()
}

// texelOf converts the decoder's texel values, or returns nil.
func texelOf(v *gpuav.TexelValues) *Texel {
	if v == nil {
		return nil
	}
	kind := "storage"
	if v.Uniform {
		kind = "uniform"
	}
	return &Texel{Texel: v.Texel, Count: v.Count, Write: v.Write, Atomic: v.Atomic, Kind: kind, Robust: v.Robust}
}

// Level values of ErrorGroup.
const (
	LevelError   = "error"
	LevelWarning = "warning"
)

// IsWarning reports whether a group is a warning rather than an error.
func (g *ErrorGroup) IsWarning() bool { return g.Level == LevelWarning }

// Race is the two accesses of a shared_memory_race hazard: two
// invocations of one workgroup touched one scalar of a shared variable
// with no barrier between them, at least one writing. The group's
// coordinates and source are the later access's; Other* the earlier one's.
type Race struct {
	// Kind is "read-after-write", "write-after-read" or "write-after-write".
	Kind string `json:"kind"`
	// Variable is the shared variable's name; Element the scalar
	// ("pairs[3].b"); Slot its number in the variable (scalars in
	// declaration order); ByteOffset its offset with the scalars laid out
	// without padding.
	Variable   string  `json:"variable"`
	Element    string  `json:"element"`
	Slot       uint32  `json:"slot"`
	ByteOffset *uint32 `json:"byte_offset,omitempty"`
	// LocalID and OtherLocalID are the two invocations'
	// gl_LocalInvocationID; OtherGlobalID the earlier one's
	// gl_GlobalInvocationID (the group's coordinates are the later one's).
	LocalID       [3]uint32 `json:"local_id"`
	OtherLocalID  [3]uint32 `json:"other_local_id"`
	OtherGlobalID [3]uint32 `json:"other_global_id"`
	Atomic        bool      `json:"atomic,omitempty"`
	OtherAtomic   bool      `json:"other_atomic,omitempty"`
	// OtherInstruction is the earlier access's instruction (absent when
	// not known: past the 510th checked access of its module), and
	// OtherSource its source line.
	OtherInstruction *uint32 `json:"other_instruction,omitempty"`
	OtherSource      *Source `json:"other_source,omitempty"`
}

// raceOf converts the decoder's hazard values, with the variable and
// element named from the shader's module (spirv nil: by id and slot),
// the earlier invocation's global id derived from the later one's
// (global, its stage words) and the earlier access's source (source).
func raceOf(v *gpuav.RaceValues, spirv []uint32, global [3]uint32, source func(uint32) *Source) *Race {
	if v == nil {
		return nil
	}
	r := &Race{Kind: v.Kind, Variable: fmt.Sprintf("%%%d", v.Variable), Element: fmt.Sprintf("%%%d slot %d", v.Variable, v.Slot),
		Slot: v.Slot, LocalID: v.LocalID(v.LocalIndex), OtherLocalID: v.LocalID(v.OtherLocalIndex),
		Atomic: v.Atomic, OtherAtomic: v.OtherAtomic}
	if spirv != nil {
		if n, ok := gpuav.SharedElement(spirv, v.Variable, v.Slot); ok {
			r.Variable, r.Element, r.ByteOffset = n.Variable, n.Element, n.Offset
		}
	}
	for i := range r.OtherGlobalID {
		r.OtherGlobalID[i] = global[i] - r.LocalID[i] + r.OtherLocalID[i]
	}
	if v.OtherInstruction != gpuav.NoInstruction {
		in := v.OtherInstruction
		r.OtherInstruction = &in
		if src := source(in); src != nil {
			o := *src // the group's own source has the context lines
			o.Context, o.ContextLine = nil, 0
			r.OtherSource = &o
		}
	}
	return r
}

// name is the element name the description takes.
func (r *Race) name() gpuav.SharedElementName {
	return gpuav.SharedElementName{Variable: r.Variable, Element: r.Element, Offset: r.ByteOffset}
}

// Barrier is a barrier_divergence report: a workgroup barrier that not
// every invocation of the workgroup reached.
type Barrier struct {
	// Scope is "subgroup" (seen before the barrier: some invocations of
	// the arriving invocations' subgroup are not there) or "workgroup"
	// (seen after it: fewer than the workgroup arrived).
	Scope string `json:"scope"`
	// Arrived of Expected invocations (of the subgroup or the workgroup)
	// reached the barrier.
	Arrived  uint32 `json:"arrived"`
	Expected uint32 `json:"expected"`
	// MissingLocalID is the lowest invocation that did not (for the
	// workgroup, the lowest that returned before the barrier); absent when
	// not known.
	MissingLocalID *[3]uint32 `json:"missing_local_id,omitempty"`
	// Before is the workgroup barriers passed before this one.
	Before uint32 `json:"barriers_before"`
	// Skipped says the arriving invocations skipped the barrier.
	Skipped bool `json:"skipped,omitempty"`
}

// barrierOf converts the decoder's barrier values, or returns nil.
func barrierOf(v *gpuav.BarrierValues) *Barrier {
	if v == nil {
		return nil
	}
	b := &Barrier{Scope: "subgroup", Arrived: v.Arrived, Expected: v.Expected, Before: v.Before, Skipped: v.Skipped}
	if v.Workgroup {
		b.Scope = "workgroup"
	}
	if v.Missing != gpuav.NoInstruction {
		id := v.LocalID(v.Missing)
		b.MissingLocalID = &id
	}
	return b
}
