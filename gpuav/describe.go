package gpuav

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Description is a record's check-specific part in the user's terms.
type Description struct {
	Check string
	// VUIDSuffix completes a VUID of the action command:
	// "VUID-" + command + "-" + VUIDSuffix, e.g. VUID-vkCmdDraw-None-10068.
	VUIDSuffix string
	// Message is the sentence that says what went wrong, with numbers.
	Message string
	// FullVUID is a VUID that does not depend on the action command
	// (VUID-RuntimeSpirv-...); it wins over VUIDSuffix.
	FullVUID string
	// Descriptor fields, when the check is about a descriptor.
	HasDescriptor bool
	Set, Binding  uint32
	Index, Length uint32
	// Ray holds the operands of a failed OpRayQueryInitializeKHR or
	// OpTraceRayKHR.
	Ray *RayValues
	// SBT holds a failed OpTraceRayKHR's shader binding table operands.
	SBT *SBTValues
	// HitKind holds the operands of a failed OpReportIntersectionKHR.
	HitKind *HitKindValues
	// BDA holds the access of a failed buffer-device-address check.
	BDA *BDAValues
	// Buffer holds the access of a failed buffer_oob check.
	Buffer *BufferValues
	// Texel holds the access of a failed texel_buffer_oob check.
	Texel *TexelValues
	// Sanitizer holds the operands of a failed sanitizer check.
	Sanitizer *SanitizerValues
	// Mesh holds the counts of a failed mesh_outputs check.
	Mesh *MeshValues
	// Race holds the two accesses of a shared_memory_race hazard.
	Race *RaceValues
	// Barrier holds a barrier_divergence report's arrivals.
	Barrier *BarrierValues
	// IndexBuffer, Vertex and Indirect hold the values of the command
	// checks (cmdchecks.go).
	IndexBuffer *IndexValues
	Vertex      *VertexValues
	Indirect    *IndirectValues
	// Accel and Depth hold the values of acceleration_structure_build and
	// depth_copy_range (buildchecks.go).
	Accel *AccelValues
	Depth *DepthValues
	// LoopBudget holds the values of a loop that ran past the budget.
	LoopBudget *LoopBudgetValues
	// vuid, when set, gives the VUID by action command (it wins over
	// FullVUID and VUIDSuffix).
	vuid func(action string) string
	// Warning says the record is defined behaviour the app probably did
	// not mean (an out-of-range access under robustBufferAccess): the
	// report's level is "warning" instead of "error".
	Warning bool
}

// BufferValues describe a uniform or storage buffer access outside the
// range bound to its descriptor.
type BufferValues struct {
	Offset uint32 // byte offset of the access in the bound range (0xFFFFFFFF: overflowed)
	Size   uint32 // bytes accessed
	Range  uint32 // bytes bound (VK_WHOLE_SIZE and dynamic offsets resolved)
	Write  bool   // a store, or an atomic that writes
	Atomic bool
	// Uniform says a uniform buffer (else a storage buffer).
	Uniform bool
	// Robust says the device enabled robustBufferAccess.
	Robust bool
	// CooperativeMatrix says a cooperative-matrix load or store: Size is
	// the bytes its rows or columns span.
	CooperativeMatrix bool
}

// Highest is the last byte the access touched, offset + size - 1.
func (b *BufferValues) Highest() uint64 {
	return uint64(b.Offset) + uint64(b.Size) - 1
}

// TexelValues describe an access to a uniform or storage texel buffer at
// a texel past the end of the buffer view bound to its descriptor.
type TexelValues struct {
	// Texel is the coordinate the shader used (negative when the shader's
	// coordinate is signed and was negative).
	Texel int64
	// Count is the view's texel count (its range over the format's texel
	// size).
	Count  uint32
	Write  bool // an image store, or an atomic that writes
	Atomic bool
	// Uniform says a uniform texel buffer (else a storage texel buffer).
	Uniform bool
	// Robust says the device enabled robustBufferAccess.
	Robust bool
}

// TexelVUID is the id the Khronos layer reports texel buffer accesses out
// of bounds under: the specification has no VUID for it yet.
const TexelVUID = "UNASSIGNED-Descriptor Texel Buffer texel out of bounds"

// BDAValues describe an access through a buffer device address that is
// not inside one buffer whose address the app obtained.
type BDAValues struct {
	Address uint64
	Size    uint32 // bytes accessed
	// Alignment is, for a bda_alignment error, the access's Aligned
	// operand, which Address is not a multiple of (0 otherwise).
	Alignment uint32
	Write     bool // a store, or an atomic that writes
	Atomic    bool
	Struct    bool // a whole-struct load or store
	// Nearest is the buffer with the highest address at or below Address
	// (the lowest buffer when none is below); nil when the app obtained
	// no address at all.
	Nearest *BDABuffer
}

// BDABuffer is one buffer of the address table. Size saturates at
// 0xFFFFFFFF (a record has one word for it).
type BDABuffer struct {
	Address, Size uint64
}

// RayValues are the operands of an OpRayQueryInitializeKHR or
// OpTraceRayKHR as the shader passed them (NaN and infinities included).
type RayValues struct {
	Tmin, Tmax float32
	// Origin is set unless the error is about the direction; Direction is
	// set only then (a record has room for one vector). A trace_ray error
	// about the SBT operands has neither (its ray is valid).
	Origin, Direction *[3]float32
	Flags, CullMask   uint32
}

// Describe turns a record's check code and parameters into a description,
// as the code's check in the registry says.
func Describe(code CheckCode, p [RecordParams]uint32) Description {
	d := Description{Check: code.CheckID()}
	c := checkOfCode(code)
	if c == nil || c.describe == nil {
		d.Message = fmt.Sprintf("check code %d with parameters %v", uint32(code), p)
		return d
	}
	c.describe(&d, code, p)
	return d
}

// describeDescriptorIndex fills in a descriptor_index_oob error.
func describeDescriptorIndex(d *Description, _ CheckCode, p [RecordParams]uint32) {
	d.HasDescriptor = true
	d.Set, d.Binding, d.Index, d.Length = p[0], p[1], p[2], p[3]
	d.VUIDSuffix = "None-10068"
	d.Message = fmt.Sprintf("(set = %d, binding = %d) Index of %d used to index descriptor array of length %d.",
		d.Set, d.Binding, d.Index, d.Length)
}

// describeDescriptorState fills in a descriptor_uninitialized or
// descriptor_destroyed error. Descriptor validity (VUID-...-None-08114): a
// statically used descriptor must be valid; the Khronos layer reports both
// cases under it.
func describeDescriptorState(d *Description, code CheckCode, p [RecordParams]uint32) {
	d.HasDescriptor = true
	d.Set, d.Binding, d.Index, d.Length = p[0], p[1], p[2], p[3]
	d.VUIDSuffix = "None-08114"
	what := "is uninitialized (never written)"
	if code == CodeDescriptorDestroyed {
		what = "references a resource that was destroyed"
	}
	d.Message = fmt.Sprintf("(set = %d, binding = %d) Descriptor index %d %s.", d.Set, d.Binding, d.Index, what)
}

// describeRayQuery fills in a ray query error: the VUIDs of the Vulkan
// environment for SPIR-V (RuntimeSpirv) and the operand values.
func describeRayQuery(d *Description, code CheckCode, p [RecordParams]uint32) {
	f := math.Float32frombits
	r := &RayValues{Tmin: f(p[0]), Tmax: f(p[1]), Flags: p[5], CullMask: p[6]}
	v := &[3]float32{f(p[2]), f(p[3]), f(p[4])}
	if code == CodeRayQueryDirectionNonFinite {
		r.Direction = v
	} else {
		r.Origin = v
	}
	d.Ray = r
	const op = "OpRayQueryInitializeKHR operand"
	vec := fmt.Sprintf("(%s, %s, %s)", fmtFloat(v[0]), fmtFloat(v[1]), fmtFloat(v[2]))
	switch code {
	case CodeRayQueryTminGreaterThanTmax:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06350"
		d.Message = fmt.Sprintf("%s RayTmin (%s) is greater than RayTmax (%s).", op, fmtFloat(r.Tmin), fmtFloat(r.Tmax))
	case CodeRayQueryNegativeTmin:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349"
		d.Message = fmt.Sprintf("%s RayTmin (%s) is negative.", op, fmtFloat(r.Tmin))
	case CodeRayQueryNegativeTmax:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349"
		d.Message = fmt.Sprintf("%s RayTmax (%s) is negative.", op, fmtFloat(r.Tmax))
	case CodeRayQueryOriginNonFinite:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348"
		d.Message = fmt.Sprintf("%s RayOrigin %s is not finite.", op, vec)
	case CodeRayQueryDirectionNonFinite:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348"
		d.Message = fmt.Sprintf("%s RayDirection %s is not finite.", op, vec)
	case CodeRayQueryTNaN:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06351"
		d.Message = fmt.Sprintf("%ss RayTmin (%s) and RayTmax (%s) must not be NaN.", op, fmtFloat(r.Tmin), fmtFloat(r.Tmax))
	case CodeRayQuerySkipTrianglesAndAABBs:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06889"
		d.Message = fmt.Sprintf("%s Rayflags %s contains both SkipTrianglesKHR and SkipAABBsKHR.", op, rayFlagsString(r.Flags))
	case CodeRayQueryTriangleFlags:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06890"
		d.Message = fmt.Sprintf("%s Rayflags %s contains more than one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and CullFrontFacingTrianglesKHR.", op, rayFlagsString(r.Flags))
	case CodeRayQueryOpaqueFlags:
		d.FullVUID = "VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06891"
		d.Message = fmt.Sprintf("%s Rayflags %s contains more than one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and CullNoOpaqueKHR.", op, rayFlagsString(r.Flags))
	}
}

// rayFlagNames are the SPIR-V Ray Flags bits, lowest first.
var rayFlagNames = []string{"OpaqueKHR", "NoOpaqueKHR", "TerminateOnFirstHitKHR", "SkipClosestHitShaderKHR",
	"CullBackFacingTrianglesKHR", "CullFrontFacingTrianglesKHR", "CullOpaqueKHR", "CullNoOpaqueKHR",
	"SkipTrianglesKHR", "SkipAABBsKHR", "ForceOpacityMicromap2StateEXT"}

// rayFlagsString formats Rayflags as hex and names: "0x300 (SkipTrianglesKHR|SkipAABBsKHR)".
func rayFlagsString(f uint32) string {
	var names []string
	for i, n := range rayFlagNames {
		if f&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if rest := f &^ (1<<len(rayFlagNames) - 1); rest != 0 {
		names = append(names, fmt.Sprintf("%#x", rest))
	}
	return fmt.Sprintf("%#x (%s)", f, strings.Join(names, "|"))
}

// MeshValues are OpSetMeshOutputsEXT's counts and the mesh shader's
// declared maxima.
type MeshValues struct {
	VertexCount, PrimitiveCount uint32
	MaxVertices, MaxPrimitives  uint32
}

// describeMeshOutputs fills in a mesh_outputs error, worded like the
// Khronos layer's, with both counts and both maxima.
func describeMeshOutputs(d *Description, code CheckCode, p [RecordParams]uint32) {
	v := &MeshValues{VertexCount: p[0], PrimitiveCount: p[1], MaxVertices: p[2], MaxPrimitives: p[3]}
	d.Mesh = v
	var over []string
	if v.VertexCount > v.MaxVertices {
		over = append(over, fmt.Sprintf("the Vertex Count (%d) is greater than OutputVertices (max_vertices = %d)", v.VertexCount, v.MaxVertices))
	}
	if v.PrimitiveCount > v.MaxPrimitives {
		over = append(over, fmt.Sprintf("the Primitive Count (%d) is greater than OutputPrimitivesEXT (max_primitives = %d)",
			v.PrimitiveCount, v.MaxPrimitives))
	}
	d.FullVUID = "VUID-RuntimeSpirv-MeshEXT-07332"
	if code == CodeMeshPrimitives {
		d.FullVUID = "VUID-RuntimeSpirv-MeshEXT-07333"
	}
	if len(over) == 0 { // a record the shader could not have written
		over = []string{fmt.Sprintf("the counts (%d, %d) are over the maxima (%d, %d)", v.VertexCount, v.PrimitiveCount, v.MaxVertices, v.MaxPrimitives)}
	}
	d.Message = fmt.Sprintf("OpSetMeshOutputsEXT: %s.", strings.Join(over, ", and "))
}

// describeMeshTaskPayload fills in a mesh_task_payload error.
func describeMeshTaskPayload(d *Description, _ CheckCode, _ [RecordParams]uint32) {
	d.FullVUID = "VUID-RuntimeSpirv-MeshEXT-12380"
	d.Message = "The mesh shader read its task payload (a TaskPayloadWorkgroupEXT variable), but the pipeline has no task shader " +
		"to write it: the value is undefined."
}

// describeBDA fills in a bda_oob error, worded like the Khronos layer's
// (VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819 in its 1.4 releases;
// 1.3.239 had no VUID for it), with the nearest buffer added.
func describeBDA(d *Description, code CheckCode, p [RecordParams]uint32) {
	v := &BDAValues{
		Address: uint64(p[0]) | uint64(p[1])<<32,
		Size:    p[2],
		Write:   p[3]&BDAWrite != 0,
		Atomic:  p[3]&BDAAtomic != 0,
		Struct:  p[3]&BDAStruct != 0,
	}
	if code == CodeBDAAlignment {
		describeBDAAlignment(d, v, p[4])
		return
	}
	if p[3]&BDANearest != 0 {
		v.Nearest = &BDABuffer{Address: uint64(p[4]) | uint64(p[5])<<32, Size: uint64(p[6])}
	}
	d.BDA = v
	d.FullVUID = "VUID-RuntimeSpirv-PhysicalStorageBuffer64-11819"
	verb := "read"
	if v.Write {
		verb = "written"
	}
	msg := fmt.Sprintf("Out of bounds access: %d bytes %s at buffer device address 0x%x", v.Size, verb, v.Address)
	if p[3]&BDACoopMatrix != 0 {
		msg = fmt.Sprintf("Out of bounds access: a cooperative matrix spanning %d bytes %s at buffer device address 0x%x", v.Size, verb, v.Address)
	}
	switch n := v.Nearest; {
	case n == nil:
		msg += ", and the app obtained no buffer device address."
	case n.Address <= v.Address:
		msg += fmt.Sprintf(", past the nearest buffer below it, [0x%x, 0x%x) (%d bytes).", n.Address, n.Address+n.Size, n.Size)
	default:
		msg += fmt.Sprintf(", below every buffer; the lowest is [0x%x, 0x%x) (%d bytes).", n.Address, n.Address+n.Size, n.Size)
	}
	if v.Struct {
		msg += " The access is a whole-struct load or store, though the source may use only some members."
	}
	d.Message = msg
}

// describeBDAAlignment fills in a bda_alignment error: the address, the
// Aligned operand and how far past a multiple of it the address is
// (VUID-RuntimeSpirv-PhysicalStorageBuffer64-06315, as the Khronos layer
// 1.4.363 reports it).
func describeBDAAlignment(d *Description, v *BDAValues, align uint32) {
	v.Alignment = align
	d.BDA = v
	d.FullVUID = "VUID-RuntimeSpirv-PhysicalStorageBuffer64-06315"
	verb := "read"
	if v.Write {
		verb = "written"
	}
	past := uint64(0)
	if align != 0 {
		past = v.Address % uint64(align)
	}
	d.Message = fmt.Sprintf("Misaligned access: %d bytes %s at buffer device address 0x%x, which is not a multiple of the access's Aligned operand %d (%d bytes past one).",
		v.Size, verb, v.Address, align, past)
	if v.Struct {
		d.Message += " The access is a whole-struct load or store."
	}
}

// Which operands of a cooperative-matrix load or store are misaligned
// (CodeCoopMatAlignment's p7 >> 16).
const (
	CoopMatPointer = 1 << 0
	CoopMatStride  = 1 << 1
)

// describeCoopMatAlignment fills in a cooperative_matrix_alignment error:
// the pointer's byte offset, the stride in bytes and the alignment the
// operands that are not a multiple of it miss, with the Khronos layer's
// VUID.
func describeCoopMatAlignment(d *Description, code CheckCode, p [RecordParams]uint32) {
	if code == CodeCoopMatAlignmentBDA {
		describeCoopMatAlignmentBDA(d, p)
		return
	}
	flags := p[6] & (1<<BufferFlagBits - 1)
	d.Buffer = &BufferValues{Offset: p[3], Size: p[4], Write: flags&BufferWrite != 0,
		Uniform: flags&BufferUniform != 0, Robust: flags&BufferRobust != 0, CooperativeMatrix: true}
	d.HasDescriptor = true
	d.Set, d.Binding, d.Index, d.Length = p[0], p[1], p[2], p[6]>>BufferFlagBits
	d.FullVUID = "VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986"
	align, bad, stride := p[7]&0xFFFF, p[7]>>16, p[5]
	op := "OpCooperativeMatrixLoadKHR"
	if d.Buffer.Write {
		op = "OpCooperativeMatrixStoreKHR"
	}
	var what []string
	if bad&CoopMatPointer != 0 {
		what = append(what, fmt.Sprintf("its Pointer, at byte offset %d of the bound range (%d bytes past a multiple)", p[3], p[3]%max(align, 1)))
	}
	if bad&CoopMatStride != 0 {
		what = append(what, fmt.Sprintf("its Stride, %d bytes (%d past a multiple)", stride, stride%max(align, 1)))
	}
	verb := "is"
	if len(what) > 1 {
		verb = "are"
	}
	d.Message = fmt.Sprintf("(set = %d, binding = %d) %s: %s %s not a multiple of %d bytes, the lesser of 16 and one row's (column-major: column's) bytes (a %d-byte matrix at offset %d, stride %d bytes).",
		d.Set, d.Binding, op, strings.Join(what, " and "), verb, align, p[4], p[3], stride)
}

// describeCoopMatAlignmentBDA is describeCoopMatAlignment of a
// cooperative-matrix load or store through a device address.
func describeCoopMatAlignmentBDA(d *Description, p [RecordParams]uint32) {
	v := &BDAValues{Address: uint64(p[0]) | uint64(p[1])<<32, Size: p[2], Write: p[3]&BDAWrite != 0, Alignment: p[5] & 0xFFFF}
	d.BDA = v
	d.FullVUID = "VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986"
	align, bad, stride := p[5]&0xFFFF, p[5]>>16, p[4]
	op := "OpCooperativeMatrixLoadKHR"
	if v.Write {
		op = "OpCooperativeMatrixStoreKHR"
	}
	var what []string
	if bad&CoopMatPointer != 0 {
		what = append(what, fmt.Sprintf("its Pointer, buffer device address 0x%x (%d bytes past a multiple)", v.Address, v.Address%uint64(max(align, 1))))
	}
	if bad&CoopMatStride != 0 {
		what = append(what, fmt.Sprintf("its Stride, %d bytes (%d past a multiple)", stride, stride%max(align, 1)))
	}
	verb := "is"
	if len(what) > 1 {
		verb = "are"
	}
	d.Message = fmt.Sprintf("%s: %s %s not a multiple of %d bytes, the lesser of 16 and one row's (column-major: column's) bytes (a %d-byte matrix at 0x%x, stride %d bytes).",
		op, strings.Join(what, " and "), verb, align, v.Size, v.Address, stride)
}

// describeBuffer fills in a buffer_oob error, worded like the Khronos
// layer's, with the access added. The VUIDs are those of pipelines
// (uniformBuffers-06935, storageBuffers-06936).
func describeBuffer(d *Description, _ CheckCode, p [RecordParams]uint32) {
	flags := p[6] & (1<<BufferFlagBits - 1)
	v := &BufferValues{Offset: p[3], Size: p[4], Range: p[5],
		Write: flags&BufferWrite != 0, Atomic: flags&BufferAtomic != 0,
		Uniform: flags&BufferUniform != 0, Robust: flags&BufferRobust != 0, CooperativeMatrix: flags&BufferCoopMatrix != 0}
	d.Buffer = v
	d.HasDescriptor = true
	d.Set, d.Binding, d.Index, d.Length = p[0], p[1], p[2], p[6]>>BufferFlagBits
	d.VUIDSuffix = "storageBuffers-06936"
	kind := "storage"
	if v.Uniform {
		d.VUIDSuffix = "uniformBuffers-06935"
		kind = "uniform"
	}
	verb := "read"
	switch {
	case v.Atomic && v.Write:
		verb = "atomic write"
	case v.Atomic:
		verb = "atomic read"
	case v.Write:
		verb = "write"
	}
	if v.CooperativeMatrix {
		verb = "cooperative matrix load"
		if v.Write {
			verb = "cooperative matrix store"
		}
	}
	at := fmt.Sprintf("at offset %d", v.Offset)
	if v.Offset == 0xFFFFFFFF {
		at = "at an offset past 2^32 bytes"
	}
	d.Message = fmt.Sprintf("(set = %d, binding = %d) Descriptor index %d access out of bounds. Descriptor size is %d and highest byte accessed was %d (%d-byte %s %s of a %s buffer).",
		d.Set, d.Binding, d.Index, v.Range, v.Highest(), v.Size, verb, at, kind)
	if v.Robust {
		d.Warning = true
		d.Message += " The device enabled robustBufferAccess, so the access is defined (out-of-range reads return zero or in-range values, writes may be discarded), but it is probably not intended."
	}
}

// describeTexel fills in a texel_buffer_oob error, worded like the Khronos
// layer 1.3.239's (which reports uniform texel buffer fetches only, under
// VUID-...-None-02705), with the kind of access added. The id is that of
// the newer Khronos releases, TexelVUID: no VUID covers texel buffers.
func describeTexel(d *Description, _ CheckCode, p [RecordParams]uint32) {
	v := &TexelValues{Texel: int64(p[3]), Count: p[4],
		Write: p[5]&TexelWrite != 0, Atomic: p[5]&TexelAtomic != 0,
		Uniform: p[5]&TexelUniform != 0, Robust: p[5]&TexelRobust != 0}
	if p[5]&TexelSigned != 0 {
		v.Texel = int64(int32(p[3]))
	}
	d.Texel = v
	d.HasDescriptor = true
	d.Set, d.Binding, d.Index, d.Length = p[0], p[1], p[2], p[6]
	d.FullVUID = TexelVUID
	kind := "storage"
	if v.Uniform {
		kind = "uniform"
	}
	verb := "read"
	switch {
	case v.Atomic && v.Write:
		verb = "atomic write"
	case v.Atomic:
		verb = "atomic read"
	case v.Write:
		verb = "write"
	}
	d.Message = fmt.Sprintf("(set = %d, binding = %d) Descriptor index %d access out of bounds. Descriptor size is %d texels and highest texel accessed was %d (%s of a %s texel buffer).",
		d.Set, d.Binding, d.Index, v.Count, v.Texel, verb, kind)
	if v.Robust {
		d.Warning = true
		d.Message += " The device enabled robustBufferAccess, so the access is defined (out-of-range reads return zero or in-range values, writes may be discarded), but it is probably not intended."
	}
}

// fmtFloat writes a float32 the shortest way that reads back exactly:
// 5, -0.5, 1e+30, +Inf, NaN.
func fmtFloat(x float32) string { return strconv.FormatFloat(float64(x), 'g', -1, 32) }

// VUID returns the full VUID for a description and action command name, or
// "" when the check has none.
func (d Description) VUID(action string) string {
	if d.vuid != nil {
		return d.vuid(action)
	}
	if d.FullVUID != "" {
		return d.FullVUID
	}
	if d.VUIDSuffix == "" || action == "" {
		return ""
	}
	return "VUID-" + action + "-" + d.VUIDSuffix
}

// SPIR-V ExecutionModel values, as records carry them.
const (
	ModelVertex                 = 0
	ModelTessellationControl    = 1
	ModelTessellationEvaluation = 2
	ModelGeometry               = 3
	ModelFragment               = 4
	ModelGLCompute              = 5
	ModelTaskNV                 = 5267
	ModelMeshNV                 = 5268
	ModelRayGeneration          = 5313
	ModelIntersection           = 5314
	ModelAnyHit                 = 5315
	ModelClosestHit             = 5316
	ModelMiss                   = 5317
	ModelCallable               = 5318
	ModelTaskEXT                = 5364
	ModelMeshEXT                = 5365
)

// StageName names an execution model the way the JSON report does.
func StageName(model uint32) string {
	switch model {
	case ModelVertex:
		return "vertex"
	case ModelTessellationControl:
		return "tess_control"
	case ModelTessellationEvaluation:
		return "tess_eval"
	case ModelGeometry:
		return "geometry"
	case ModelFragment:
		return "fragment"
	case ModelGLCompute:
		return "compute"
	case ModelTaskNV, ModelTaskEXT:
		return "task"
	case ModelMeshNV, ModelMeshEXT:
		return "mesh"
	case ModelRayGeneration:
		return "raygen"
	case ModelIntersection:
		return "intersection"
	case ModelAnyHit:
		return "any_hit"
	case ModelClosestHit:
		return "closest_hit"
	case ModelMiss:
		return "miss"
	case ModelCallable:
		return "callable"
	case ModelCommand:
		return "command"
	case ModelBuild:
		return "build"
	case ModelCopy:
		return "copy"
	}
	return fmt.Sprintf("stage_%d", model)
}

// StageCoords decodes the stage-specific words of a record into the JSON
// report's coordinate keys.
func StageCoords(model uint32, w [3]uint32) map[string][]float64 {
	m := make(map[string][]float64, 2)
	EachStageCoord(model, w, func(key string, n int, v [3]float64) { m[key] = append([]float64(nil), v[:n]...) })
	return m
}

// EachStageCoord decodes the stage-specific words of a record as
// StageCoords does, calling add with each key and its n values, in the
// stage's order, without allocating.
func EachStageCoord(model uint32, w [3]uint32, add func(key string, n int, v [3]float64)) {
	f := func(x uint32) float64 { return float64(math.Float32frombits(x)) }
	u := func(x uint32) float64 { return float64(x) }
	switch model {
	case ModelVertex:
		add("vertex_index", 1, [3]float64{u(w[0])})
		add("instance_index", 1, [3]float64{u(w[1])})
	case ModelTessellationControl:
		add("invocation_id", 1, [3]float64{u(w[0])})
		add("primitive_id", 1, [3]float64{u(w[1])})
	case ModelTessellationEvaluation:
		add("primitive_id", 1, [3]float64{u(w[0])})
		add("tess_coord", 2, [3]float64{f(w[1]), f(w[2])})
	case ModelGeometry:
		add("primitive_id", 1, [3]float64{u(w[0])})
		add("invocation_id", 1, [3]float64{u(w[1])})
	case ModelFragment:
		add("frag_coord", 2, [3]float64{f(w[0]), f(w[1])})
	case ModelGLCompute, ModelTaskNV, ModelTaskEXT, ModelMeshNV, ModelMeshEXT:
		add("global_invocation_id", 3, [3]float64{u(w[0]), u(w[1]), u(w[2])})
	case ModelRayGeneration, ModelIntersection, ModelAnyHit, ModelClosestHit, ModelMiss, ModelCallable:
		add("launch_id", 3, [3]float64{u(w[0]), u(w[1]), u(w[2])})
	case ModelCommand:
		add("draw_index", 1, [3]float64{u(w[0])})
	case ModelBuild:
		add("build_info", 1, [3]float64{u(w[0])})
		add("geometry", 1, [3]float64{u(w[1])})
		add("primitive", 1, [3]float64{u(w[2])})
	case ModelCopy:
		add("region", 1, [3]float64{u(w[0])})
		add("texel", 3, [3]float64{u(w[1] & 0xffff), u(w[1] >> 16), u(w[2])})
	default:
		add("words", 3, [3]float64{u(w[0]), u(w[1]), u(w[2])})
	}
}
