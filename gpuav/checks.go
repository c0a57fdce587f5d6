package gpuav

import (
	"fmt"
	"slices"
	"strings"
)

// Check is one check a user switches on and off: everything the rest of
// the project knows about it. The settings (launcher flags, layer
// environment, the manifest's settings, the TUI's settings pane), the
// JSON and SARIF reports, the device requirements of doctor and the
// record decoder all read Checks.
type Check struct {
	// ID is the check's stable name, as settings, reports and the TUI
	// spell it.
	ID string
	// Codes are the record codes its check functions write.
	Codes []RecordCode
	// Default says the check is on when nothing says otherwise.
	Default bool
	// Title names the check in a few words (SARIF rule, manifest label,
	// settings pane).
	Title string
	// Help says in one line what the check finds and what gpuav-dbg does
	// about it (SARIF rule help, manifest description).
	Help string
	// Device is what the check needs of a device.
	Device DeviceRequirement
	// Command says the layer checks the action commands themselves (on
	// the CPU or in a pre-pass of its own, cmdchecks.go); it has no pass
	// unless part of it runs in shaders (vertex_fetch_oob).
	Command bool
	// noClamp, when set, says why on_error clamp has no meaning for any
	// of the check's accesses (they are skipped, FailedAccess says why).
	noClamp string
	// clamp says what on_error clamp does with a failed access of one of
	// the check's codes, from the record's parameters: clamped(to), the
	// value its operand went to (ClampUnit names it), or noMeaning(why)
	// for a code a clamp does not fit; the zero Outcome for a code it
	// does not know. Every code of a shader check gets its outcome from
	// clamp, noClamp or executes (TestClampFromTheRow).
	clamp func(code CheckCode, p [RecordParams]uint32) Outcome
	// skipWords are the words of Help true only where failed accesses
	// are skipped (on_error skip, the default): HelpUnder leaves them out
	// of a run that clamped or executed them.
	skipWords []string
	// clampUnit names what a clamp of the check's failed accesses moves
	// into range ("" : "index"), for "The access was clamped to ...".
	clampUnit string
	// outcomeInMessage says the check's own description says what the
	// failed operation did (loop_budget: whether the loop was left), so no
	// outcome sentence is added to its message.
	outcomeInMessage bool
	// skipped says what a failed access did under skip, for its message
	// ("" : a memory access's: a load read zero, a store or atomic did
	// nothing).
	skipped string
	// executes, when set, says why a failed access of the check always
	// happens, whatever on_error says (FailedAccess reports it executed).
	executes string
	// otherSite is 1 + the parameter that holds another access's
	// Site.RaceTag, which Decode replaces with that site's instruction (0:
	// none).
	otherSite int
	// describe fills in the check-specific part of a record's description.
	describe func(d *Description, code CheckCode, p [RecordParams]uint32)
	// pass adds the check to shaders; checks may share one.
	pass *passSpec
}

// HelpUnder is Help as a run with on_error v makes it true: under clamp
// or execute without the words that say a failed access was skipped. A
// command check keeps them under clamp, where its commands are still
// made harmless (a clamp has no meaning for them).
func (c *Check) HelpUnder(v OnError) string {
	v = OnErrorOrDefault(v)
	if v == OnErrorSkip || c.Command && v == OnErrorClamp {
		return c.Help
	}
	help := c.Help
	for _, w := range c.skipWords {
		help = strings.Replace(help, w, "", 1)
	}
	return help
}

// ClampUnit names what a clamp of the check's failed accesses moves into
// range: an index, a texel, a byte offset, a divisor, a component.
func (c *Check) ClampUnit() string {
	if c.clampUnit == "" {
		return "index"
	}
	return c.clampUnit
}

// SkipSentence says what a failed access of the check did under on_error
// skip, as a message sentence; "" for a command check, whose own
// description says what the layer did to the command.
func (c *Check) SkipSentence() string {
	switch {
	case c.Command:
		return ""
	case c.skipped != "":
		return c.skipped
	}
	return "The access was skipped (a load read zero, a store or atomic did nothing)."
}

// OutcomeInMessage reports whether the check's description already says
// what its failed operation did, so that no outcome sentence is added.
func (c *Check) OutcomeInMessage() bool { return c.outcomeInMessage }

// WarnedUnderRobustness reports whether what the check finds is defined
// behaviour when the app enables one of its Device.WarnWith features
// (robustBufferAccess): it is reported as a warning there, or, with
// warn_robust off, not instrumented at all.
func (c *Check) WarnedUnderRobustness() bool { return len(c.Device.WarnWith) > 0 }

// InShaders reports whether the check runs in instrumented shaders (it has
// a pass), wholly or, for a command check, in part (vertex_fetch_oob): the
// stages whose shaders cannot be instrumented on a device are then
// unchecked for it.
func (c *Check) InShaders() bool { return c.pass != nil }

// RecordCode is a check code with the name the check functions give it
// (the GLSL macro GPUAV_CODE_<GLSL>, defined by genlib).
type RecordCode struct {
	Code CheckCode
	GLSL string
}

// DeviceRequirement is what one check needs of a device beyond the base
// (Vulkan 1.1, a free descriptor-set slot, and fragmentStoresAndAtomics /
// vertexPipelineStoresAndAtomics for the stages they cover). Package
// device assesses it against a device's features.
type DeviceRequirement struct {
	// Features must all be supported, or the check cannot run.
	Features []string
	// Extension is the device extension that provides Features, named in
	// the reason when it is missing ("" for core features).
	Extension string
	// WarnWith are features that, when the app enables them, make the
	// accesses the check finds defined behaviour: reported as warnings.
	WarnWith []string
	// GatedBy are the features without which no shader on the device can
	// contain what the check looks at (no ray queries without rayQuery, no
	// device addresses without bufferDeviceAddress): when one is missing the
	// check is not needed rather than missing, and does not make the device
	// unready.
	GatedBy []string
	// VertexOnly says the check's shader part runs in vertex shaders only
	// (vertex_fetch_oob): fragmentStoresAndAtomics does not matter to it.
	VertexOnly bool
}

// Check ids: the stable names of the checks a user switches on and off, as
// they appear in settings, the JSON report and the TUI.
const (
	CheckDescriptorIndexOOB  = "descriptor_index_oob"
	CheckDescriptorUninit    = "descriptor_uninitialized"
	CheckDescriptorDestroyed = "descriptor_destroyed"
	CheckBufferOOB           = "buffer_oob"
	CheckTexelBufferOOB      = "texel_buffer_oob"
	CheckBDAOOB              = "bda_oob"
	CheckRayQuery            = "ray_query"
	CheckTraceRay            = "trace_ray"
	// The shader sanitizer, one check per family of the Khronos layer's
	// SPIRV-Sanitizer-* ids (docs/decisions/shader-sanitizer.md).
	CheckSanitizerDivide   = "sanitizer_divide"
	CheckSanitizerPow      = "sanitizer_pow"
	CheckSanitizerAtan2    = "sanitizer_atan2"
	CheckSanitizerMinMax   = "sanitizer_minmax"
	CheckSanitizerGather   = "sanitizer_gather"
	CheckMeshOutputs       = "mesh_outputs"
	CheckMeshTaskPayload   = "mesh_task_payload"
	CheckBDAAlignment      = "bda_alignment"
	CheckCoopMatAlignment  = "cooperative_matrix_alignment"
	CheckSharedMemoryRace  = "shared_memory_race"
	CheckBarrierDivergence = "barrier_divergence"
	CheckLoopBudget        = "loop_budget"
)

// Check codes (word 8 of a record) and their parameters (words 9..).
const (
	// CodeDescriptorIndexOOB: p0 set, p1 binding, p2 index, p3 array length;
	// under clamp, p7 the code the clamped element failed with (0: the
	// access went there).
	CodeDescriptorIndexOOB CheckCode = 1
	// CodeDescriptorUninitialized: p0 set, p1 binding, p2 index.
	CodeDescriptorUninitialized CheckCode = 2
	// CodeDescriptorDestroyed: p0 set, p1 binding, p2 index.
	CodeDescriptorDestroyed CheckCode = 3
	// CodeBufferOOB: p0 set, p1 binding, p2 index, p3 offset, p4 access
	// size, p5 bound range, p6 flags (Buffer* bits) and array length; p7
	// the byte offset a clamp used, or BufferNoClamp.
	CodeBufferOOB CheckCode = 4
	// CodeTexelBufferOOB: p0 set, p1 binding, p2 index, p3 texel coordinate
	// (bits), p4 texel count, p5 flags (Texel* bits), p6 array length.
	CodeTexelBufferOOB CheckCode = 5
	// CodeBDAOOB: p0/p1 address low/high, p2 access size, p3 flags (BDA*
	// bits), p4..p6 the nearest buffer (BDANearest).
	CodeBDAOOB CheckCode = 6
	// Ray query codes (OpRayQueryInitializeKHR operands), one per rule:
	// p0 RayTmin bits, p1 RayTmax bits, p2..p4 RayDirection's bits for
	// CodeRayQueryDirectionNonFinite and RayOrigin's otherwise, p5 Rayflags,
	// p6 CullMask. A shader reports only the first rule broken, in the order
	// origin, direction, NaN t, negative RayTmin, negative RayTmax,
	// RayTmin > RayTmax.
	CodeRayQueryTminGreaterThanTmax CheckCode = 7  // VUID-...-06350
	CodeRayQueryNegativeTmin        CheckCode = 8  // VUID-...-06349
	CodeRayQueryOriginNonFinite     CheckCode = 9  // VUID-...-06348
	CodeRayQueryDirectionNonFinite  CheckCode = 10 // VUID-...-06348
	CodeRayQueryTNaN                CheckCode = 11 // VUID-...-06351 (+inf is allowed)
	CodeRayQueryNegativeTmax        CheckCode = 12 // VUID-...-06349
	// Ray query Rayflags codes, same parameters; checked after the rules
	// above, in this order.
	CodeRayQuerySkipTrianglesAndAABBs CheckCode = 13 // VUID-...-06889
	CodeRayQueryTriangleFlags         CheckCode = 14 // VUID-...-06890
	CodeRayQueryOpaqueFlags           CheckCode = 15 // VUID-...-06891
	// Shader sanitizer codes (32-47; pass_sanitizer.go's table): p0..p5
	// the operands' bits, p6 the lane and NaN operands, p7 the operation
	// and its type.
	CodeSanitizerDivideByZero      CheckCode = 32 // integer division, modulo or remainder by 0
	CodeSanitizerDivideOverflow    CheckCode = 33 // a signed one of the minimum value by -1
	CodeSanitizerFloatDivideByZero CheckCode = 34 // OpFMod, OpFRem by 0
	CodeSanitizerPow               CheckCode = 35 // pow(x, y), x < 0, or x == 0 and y <= 0
	CodeSanitizerAtan2             CheckCode = 36 // atan(0, 0)
	CodeSanitizerMinMaxNaN         CheckCode = 37 // FMin, FMax, FClamp with a NaN operand
	CodeSanitizerImageGather       CheckCode = 38 // p0 the component, outside 0..3
	// Mesh outputs codes (48-55): p0 the vertex count, p1 the primitive
	// count of OpSetMeshOutputsEXT, p2 OutputVertices, p3
	// OutputPrimitivesEXT; the vertex code when its count is over.
	CodeMeshVertices   CheckCode = 48 // VUID-RuntimeSpirv-MeshEXT-07332
	CodeMeshPrimitives CheckCode = 49 // VUID-RuntimeSpirv-MeshEXT-07333
	// CodeMeshTaskPayload: a mesh shader read its TaskPayloadWorkgroupEXT
	// variable in a pipeline with no task shader
	// (VUID-RuntimeSpirv-MeshEXT-12380): p0 TaskPayloadRead when the read
	// was made.
	CodeMeshTaskPayload CheckCode = 50
	// CodeBDAAlignment (56-63): p0/p1 address low/high, p2 access size, p3
	// flags (BDA* bits), p4 the Aligned operand the address is not a
	// multiple of (VUID-RuntimeSpirv-PhysicalStorageBuffer64-06315); the
	// bda pass's site record, shared with CodeBDAOOB.
	CodeBDAAlignment CheckCode = 56
	// CodeCoopMatAlignment (40-47): a cooperative-matrix load or store
	// whose Pointer or Stride is not a multiple of the lesser of 16 bytes
	// and one row's or column's bytes
	// (VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986): p0 set, p1
	// binding, p2 index, p3 the pointer's byte offset in the bound range,
	// p4 the bytes the matrix spans, p5 the stride in bytes, p6 flags
	// (Buffer* bits) | length << 8, p7 the alignment | which operands are
	// not a multiple of it << 16 (CoopMatPointer, CoopMatStride); the
	// buffer pass's site record, shared with CodeBufferOOB.
	CodeCoopMatAlignment CheckCode = 40
	// CodeCoopMatAlignmentBDA: the same through a device address: p0/p1
	// the address low/high, p2 the bytes the matrix spans, p3 flags (BDA*
	// bits), p4 the stride in bytes, p5 the alignment | which operands are
	// not a multiple of it << 16; the bda pass's site record.
	CodeCoopMatAlignmentBDA CheckCode = 41
	// trace_ray (64-111): each code is 64 + the Khronos layer's
	// kErrorSubCode_* of the same rule (layers/gpuav/shaders/
	// gpuav_error_codes.h), so the two can be compared line by line;
	// 106-108 are gpuav-dbg's own. A shader reports only the first rule
	// broken, in the Khronos layer's order: the Rayflags rules, origin,
	// direction, NaN t, negative t, RayTmin > RayTmax, then the SBT
	// operands. OpTraceRayKHR records: p0 RayTmin bits, p1 RayTmax bits,
	// p2..p4 RayDirection's bits for CodeTraceRayDirection, the SBT
	// Offset, SBT Stride and Miss Index as written for the SBT codes, and
	// RayOrigin's bits otherwise; p5 Rayflags, p6 CullMask, p7 the SBT
	// operands as the instruction uses them (TraceRaySBT* bits) and what
	// the failed call did (TraceRayMade, TraceRayMasked).
	CodeTraceRayTriangleFlags       CheckCode = 81 // VUID-RuntimeSpirv-OpTraceRayKHR-06892 (TrianglesFlags, 17)
	CodeTraceRayOpaqueFlags         CheckCode = 82 // -06893 (OpaqueFlags, 18)
	CodeTraceRaySkipBoth            CheckCode = 83 // -06552 (BothSkip, 19)
	CodeTraceRayOrigin              CheckCode = 84 // -06355 (OriginNaNOrInf, 20)
	CodeTraceRayDirection           CheckCode = 85 // -06355 (DirectionNaNOrInf, 21)
	CodeTraceRayTNegative           CheckCode = 86 // -06356 (TNegative, 22)
	CodeTraceRayTminGreaterThanTmax CheckCode = 87 // -06357 (TMaxLessThanTMin, 23)
	CodeTraceRayTNaN                CheckCode = 88 // -06358 (RayParametersNans, 24)
	// SkipTrianglesKHR in a pipeline created with
	// VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR, and SkipAABBsKHR
	// with SKIP_TRIANGLES (the pipeline word, pipeline_word.go).
	CodeTraceRaySkipTrianglesPipeline CheckCode = 90 // -06553 (SkipTrianglesWithPipelineSkipAABBs, 26)
	CodeTraceRaySkipAABBsPipeline     CheckCode = 91 // -06554 (SkipAABBsWithPipelineSkipTriangles, 27)
	// CodeHitKind: OpReportIntersectionKHR's Hit Kind above 127
	// (VUID-RuntimeSpirv-OpReportIntersectionKHR-06998;
	// ReportIntersection_HitKindOutOfRange, 41): p0 the Hit Kind, p1 Hit
	// (its t) bits, p2 TraceRayMade when the intersection was reported.
	CodeHitKind CheckCode = 105
	// The SBT operands past the bits OpTraceRayKHR uses (the SPIR-V
	// specification ignores the others: warnings, gpuav-dbg's own ids).
	CodeTraceRaySBTOffset CheckCode = 106 // more than 4 bits
	CodeTraceRaySBTStride CheckCode = 107 // more than 4 bits
	CodeTraceRayMissIndex CheckCode = 108 // more than 16 bits

	// Shared-memory hazards (shared_memory_race), one code per kind, in the
	// order the two accesses ran: p0 the Workgroup variable's result id
	// (static), p1 the scalar slot in the variable (its scalars numbered
	// in declaration order: members, elements, components), p2 the other
	// access's instruction (the site's RaceTag in the record, replaced by
	// Decode; NoInstruction when not known), p3 the local invocation
	// indices (this access's | the other's << 16), p4 the workgroup size
	// x | y << 16, p5 bit 0 this access is atomic, bit 1 the other is.
	// The record's coordinates and instruction are the later access's.
	CodeSharedRaceRAW CheckCode = 128 // a read of what another invocation wrote
	CodeSharedRaceWAR CheckCode = 129 // a write of what another invocation read
	CodeSharedRaceWAW CheckCode = 130 // a write of what another invocation wrote

	// Barriers not every invocation reaches (barrier_divergence): p0 the
	// invocations that arrived, p1 those expected, p2 the local index of
	// one that did not (the lowest; 0xFFFFFFFF when not known), p3 the
	// workgroup barriers the invocation passed before this one, p4 the
	// workgroup size x | y << 16, p5 1 when the arrivals skipped it.
	// CodeBarrierSubgroup is seen before the barrier, in a subgroup (p0,
	// p1 count its invocations); CodeBarrierWorkgroup after it (p0, p1
	// count the workgroup's).
	CodeBarrierSubgroup  CheckCode = 136
	CodeBarrierWorkgroup CheckCode = 137
	// CodeLoopBudget (120-127 are loop_budget's): p0 the iterations the
	// invocation completed in this entry of the loop, p1 the budget, p2
	// flags (LoopLeft).
	CodeLoopBudget CheckCode = 120
)

// NoInstruction stands for an instruction a record names but its module's
// site table does not have (the other access of a hazard past the 510th).
const NoInstruction = ^uint32(0)

// Device features and extensions the requirements name.
var (
	descriptorIndexing = DeviceRequirement{Features: []string{"runtimeDescriptorArray", "descriptorBindingPartiallyBound"},
		Extension: "VK_EXT_descriptor_indexing"}
	robustWarnings = DeviceRequirement{WarnWith: []string{"robustBufferAccess", "robustBufferAccess2"}}
)

// Checks is the check registry, in the order users see the checks: the
// shader checks, then the command checks (cmdchecks.go).
var Checks = append(append([]Check{
	{
		ID:      CheckDescriptorIndexOOB,
		Codes:   []RecordCode{{CodeDescriptorIndexOOB, "DESCRIPTOR_INDEX_OOB"}},
		Default: true,
		Title:   "Descriptor array index out of bounds",
		Help: "A shader indexed a descriptor array (an array of buffers, images or samplers) with an index at or past the array's length, " +
			"as bound in the descriptor set layout (or the variable count of the set). The access is undefined behaviour; gpuav-dbg skipped it " +
			"(a load yields zero). Clamp or check the index, or make the array larger.",
		skipWords: []string{"; gpuav-dbg skipped it (a load yields zero)"},
		describe:  describeDescriptorIndex,
		pass:      descriptorIndexPass,
		clamp:     clampDescriptorIndex,
	},
	{
		// Unwritten and destroyed descriptors can only be legal (and so
		// only be reached) with partially bound, runtime-sized arrays; the
		// layer's descriptor-state buffer is indexed by the same rules.
		ID:      CheckDescriptorUninit,
		Codes:   []RecordCode{{CodeDescriptorUninitialized, "DESCRIPTOR_UNINIT"}},
		Default: true,
		Title:   "Descriptor not written",
		Help: "A shader used a descriptor that was never written (partially bound descriptor arrays must only be used where written). " +
			"Runtime (bindless) arrays, sized arrays and plain bindings are checked; VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=0 limits it to runtime arrays.",
		Device:   descriptorIndexing,
		describe: describeDescriptorState,
		pass:     descriptorIndexPass,
		noClamp:  "the descriptor was never written",
	},
	{
		ID:      CheckDescriptorDestroyed,
		Codes:   []RecordCode{{CodeDescriptorDestroyed, "DESCRIPTOR_DESTROYED"}},
		Default: true,
		Title:   "Descriptor uses a destroyed resource",
		Help: "A shader used a descriptor whose buffer, image view or sampler was destroyed after the descriptor was written. " +
			"Runtime (bindless) arrays, sized arrays and plain bindings are checked; VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=0 limits it to runtime arrays.",
		Device:   descriptorIndexing,
		describe: describeDescriptorState,
		pass:     descriptorIndexPass,
		noClamp:  "the descriptor's resource was destroyed",
	},
	{
		// On by default since its checks were made cheap
		// (docs/decisions/cheap-checks.md).
		ID:      CheckBufferOOB,
		Codes:   []RecordCode{{CodeBufferOOB, "BUFFER_OOB"}},
		Default: true,
		Title:   "Buffer access out of bounds",
		Help: "A shader read or wrote a storage or uniform buffer past the range bound to its descriptor (its offset and range, " +
			"VK_WHOLE_SIZE and dynamic offsets resolved). gpuav-dbg skipped the access (a load yields zero). Bind a larger range or " +
			"keep the access inside it. Under robustBufferAccess the access is defined and reported as a warning.",
		skipWords: []string{" gpuav-dbg skipped the access (a load yields zero)."},
		clampUnit: "byte offset",
		Device:    robustWarnings,
		describe:  describeBuffer,
		pass:      bufferOOBPass,
		clamp:     clampBufferOffset,
	},
	{
		ID:      CheckTexelBufferOOB,
		Codes:   []RecordCode{{CodeTexelBufferOOB, "TEXEL_BUFFER_OOB"}},
		Default: true,
		Title:   "Texel buffer access out of bounds",
		Help: "A shader read or wrote a uniform or storage texel buffer (fetch, load, store or atomic) at a texel past the end of the " +
			"buffer view bound to its descriptor. gpuav-dbg skipped the access (a load yields zero). Under robustBufferAccess the access " +
			"is defined and reported as a warning.",
		skipWords: []string{" gpuav-dbg skipped the access (a load yields zero)."},
		clampUnit: "texel",
		Device:    robustWarnings,
		describe:  describeTexel,
		pass:      texelBufferPass,
		clamp:     clampTexel,
	},
	{
		// The address check compares 64-bit addresses in the shader.
		ID:      CheckBDAOOB,
		Codes:   []RecordCode{{CodeBDAOOB, "BDA_OOB"}},
		Default: true,
		Title:   "Buffer device address out of bounds",
		Help: "A shader dereferenced a buffer device address outside every live buffer whose address the app obtained. " +
			"gpuav-dbg skipped the access (a load yields zero).",
		skipWords: []string{" gpuav-dbg skipped the access (a load yields zero)."},
		Device: DeviceRequirement{Features: []string{"bufferDeviceAddress", "shaderInt64"},
			Extension: "VK_KHR_buffer_device_address", GatedBy: []string{"bufferDeviceAddress"}},
		describe: describeBDA,
		pass:     bdaPass,
		noClamp:  "the address is outside every buffer",
	},
	{
		ID: CheckRayQuery,
		Codes: []RecordCode{
			{CodeRayQueryTminGreaterThanTmax, "RAY_QUERY_TMIN_GT_TMAX"},
			{CodeRayQueryNegativeTmin, "RAY_QUERY_NEGATIVE_TMIN"},
			{CodeRayQueryOriginNonFinite, "RAY_QUERY_ORIGIN"},
			{CodeRayQueryDirectionNonFinite, "RAY_QUERY_DIRECTION"},
			{CodeRayQueryTNaN, "RAY_QUERY_T_NAN"},
			{CodeRayQueryNegativeTmax, "RAY_QUERY_NEGATIVE_TMAX"},
			{CodeRayQuerySkipTrianglesAndAABBs, "RAY_QUERY_SKIP_BOTH"},
			{CodeRayQueryTriangleFlags, "RAY_QUERY_TRI_FLAGS"},
			{CodeRayQueryOpaqueFlags, "RAY_QUERY_OPAQUE_FLAGS"},
		},
		Default: true,
		Title:   "Invalid ray query parameters",
		Help: "A shader started a ray query with an invalid ray: a negative or NaN t_min or t_max, t_min greater than t_max, " +
			"a non-finite origin or direction, or ray flags that contradict each other.",
		Device:   DeviceRequirement{Features: []string{"rayQuery"}, Extension: "VK_KHR_ray_query", GatedBy: []string{"rayQuery"}},
		describe: describeRayQuery,
		pass:     rayQueryPass,
		noClamp:  "a ray's values are not an index",
	},
	{
		// docs/decisions/trace-ray-check.md
		ID: CheckTraceRay,
		Codes: []RecordCode{
			{CodeTraceRayTriangleFlags, "TRACE_RAY_TRI_FLAGS"},
			{CodeTraceRayOpaqueFlags, "TRACE_RAY_OPAQUE_FLAGS"},
			{CodeTraceRaySkipBoth, "TRACE_RAY_SKIP_BOTH"},
			{CodeTraceRayOrigin, "TRACE_RAY_ORIGIN"},
			{CodeTraceRayDirection, "TRACE_RAY_DIRECTION"},
			{CodeTraceRayTNegative, "TRACE_RAY_T_NEGATIVE"},
			{CodeTraceRayTminGreaterThanTmax, "TRACE_RAY_TMIN_GT_TMAX"},
			{CodeTraceRayTNaN, "TRACE_RAY_T_NAN"},
			{CodeTraceRaySkipTrianglesPipeline, "TRACE_RAY_SKIP_TRI_PIPELINE"},
			{CodeTraceRaySkipAABBsPipeline, "TRACE_RAY_SKIP_AABB_PIPELINE"},
			{CodeHitKind, "HIT_KIND"},
			{CodeTraceRaySBTOffset, "TRACE_RAY_SBT_OFFSET"},
			{CodeTraceRaySBTStride, "TRACE_RAY_SBT_STRIDE"},
			{CodeTraceRayMissIndex, "TRACE_RAY_MISS_INDEX"},
		},
		Default: true,
		Title:   "Invalid ray tracing call",
		Help: "A ray-tracing shader called traceRayEXT (OpTraceRayKHR) with an invalid ray (a negative or NaN t_min or t_max, " +
			"t_min greater than t_max, a non-finite origin or direction), ray flags that contradict each other or the pipeline's " +
			"SKIP_TRIANGLES / SKIP_AABBS flag, or with an SBT offset " +
			"or stride past 4 bits or a miss index past 16 bits (warnings: the driver ignores the other bits); or an intersection " +
			"shader called reportIntersectionEXT with a hit kind above 127 (128-255 are reserved). gpuav-dbg reported every operand " +
			"and did not make the call: the ray payload keeps its value, the intersection is not reported (under on_error clamp, " +
			"SBT operands past their bits are masked to them and the trace is made).",
		skipWords: []string{" and did not make the call: the ray payload keeps its value, the intersection is not reported (under on_error clamp, " +
			"SBT operands past their bits are masked to them and the trace is made)"},
		outcomeInMessage: true,
		Device: DeviceRequirement{Features: []string{"rayTracingPipeline"}, Extension: "VK_KHR_ray_tracing_pipeline",
			GatedBy: []string{"rayTracingPipeline"}},
		describe: describeTraceRay,
		pass:     traceRayPass,
		clamp:    clampTraceRay,
	},
	{
		ID: CheckSanitizerDivide,
		Codes: []RecordCode{
			{CodeSanitizerDivideByZero, "SANITIZER_DIVIDE_ZERO"},
			{CodeSanitizerDivideOverflow, "SANITIZER_DIVIDE_OVERFLOW"},
			{CodeSanitizerFloatDivideByZero, "SANITIZER_FDIVIDE_ZERO"},
		},
		Default: true,
		Title:   "Division by zero",
		Help: "A shader divided an integer by zero (/ or %: OpUDiv, OpSDiv, OpUMod, OpSMod, OpSRem), divided the minimum signed value by -1 " +
			"(an overflow), or took a float mod() by zero (OpFMod, OpFRem); the behaviour or the result is undefined. gpuav-dbg reported " +
			"the operands and the lane, and the failing lanes yield 0. Divisors the analyses prove non-zero (a constant, x | 1, " +
			"max(x, 1u), clamp(x, 1, n)) are not checked.",
		skipWords: []string{", and the failing lanes yield 0"},
		clampUnit: "divisor",
		skipped:   "The failing lanes yielded 0.",
		describe:  describeSanitizer,
		pass:      sanitizerPass,
		clamp:     clampDivisor,
	},
	{
		// Opt-in: clean real shaders take pow of negative bases the
		// drivers fold (pow(r.x, 2.0)) or that rounding makes
		// (pow(1.0 - cosTheta, 5.0)); docs/decisions/shader-sanitizer.md.
		ID:      CheckSanitizerPow,
		Codes:   []RecordCode{{CodeSanitizerPow, "SANITIZER_POW"}},
		Default: false,
		Title:   "pow() with an undefined result",
		Help: "A shader called pow(x, y) with x < 0, or with x == 0 and y <= 0 (GLSL.std.450 Pow): the result is undefined. " +
			"gpuav-dbg reported x, y and the lane, and the failing lanes yield 0. Use pow(abs(x), y) or check the base. " +
			"Off by default: clean shaders often take pow of a negative base the driver folds (pow(x, 2.0)) or that rounding makes.",
		skipWords: []string{", and the failing lanes yield 0"},
		skipped:   "The failing lanes yielded 0.",
		describe:  describeSanitizer,
		pass:      sanitizerPass,
		noClamp:   "pow's operands have no range to clamp into",
	},
	{
		ID:      CheckSanitizerAtan2,
		Codes:   []RecordCode{{CodeSanitizerAtan2, "SANITIZER_ATAN2"}},
		Default: true,
		Title:   "atan(y, x) with both zero",
		Help: "A shader called atan(y, x) with y == 0 and x == 0 (GLSL.std.450 Atan2): the result is undefined. " +
			"gpuav-dbg reported the lane, and the failing lanes yield 0.",
		skipWords: []string{", and the failing lanes yield 0"},
		skipped:   "The failing lanes yielded 0.",
		describe:  describeSanitizer,
		pass:      sanitizerPass,
		noClamp:   "atan's operands have no range to clamp into",
	},
	{
		// Opt-in: no analysis proves a float from memory is not NaN,
		// so every min, max and clamp of real shaders keeps its check;
		// docs/decisions/shader-sanitizer.md.
		ID:      CheckSanitizerMinMax,
		Codes:   []RecordCode{{CodeSanitizerMinMaxNaN, "SANITIZER_MINMAX"}},
		Default: false,
		Title:   "min, max or clamp with a NaN operand",
		Help: "A shader called min, max or clamp on floats (GLSL.std.450 FMin, FMax, FClamp) with a NaN operand: which operand wins is " +
			"undefined. gpuav-dbg reported the operands and which is NaN, and computed NMin, NMax or NClamp instead (the other operand wins). " +
			"Off by default: every min, max and clamp of a real shader keeps this check, and NaNs reach them in clean rendering.",
		skipWords: []string{", and computed NMin, NMax or NClamp instead (the other operand wins)"},
		skipped:   "NMin, NMax or NClamp was computed instead: the operand that is not NaN won.",
		describe:  describeSanitizer,
		pass:      sanitizerPass,
		noClamp:   "a NaN has no range to clamp into",
	},
	{
		ID:      CheckSanitizerGather,
		Codes:   []RecordCode{{CodeSanitizerImageGather, "SANITIZER_GATHER"}},
		Default: true,
		Title:   "Image gather component out of range",
		Help: "A shader gathered (OpImageGather, OpImageSparseGather) with a component other than 0, 1, 2 or 3: the result is undefined. " +
			"gpuav-dbg reported the component, and the gather read component 0 instead (3 under on_error clamp).",
		skipWords: []string{", and the gather read component 0 instead (3 under on_error clamp)"},
		clampUnit: "component",
		skipped:   "The gather read component 0 instead.",
		describe:  describeSanitizer,
		pass:      sanitizerPass,
		clamp:     func(CheckCode, [RecordParams]uint32) Outcome { return clamped(3) },
	},
	{
		ID:      CheckMeshOutputs,
		Codes:   []RecordCode{{CodeMeshVertices, "MESH_VERTICES"}, {CodeMeshPrimitives, "MESH_PRIMITIVES"}},
		Default: true,
		Title:   "Mesh shader output counts over their maxima",
		Help: "A mesh shader called SetMeshOutputsEXT with a vertex count above its max_vertices (OutputVertices) or a primitive count " +
			"above its max_primitives (OutputPrimitivesEXT). gpuav-dbg reported the counts and the maxima, and clamped the counts to the maxima.",
		skipWords: []string{", and clamped the counts to the maxima"},
		skipped:   "The counts were clamped to the maxima.",
		Device: DeviceRequirement{Features: []string{"meshShader"}, Extension: "VK_EXT_mesh_shader",
			GatedBy: []string{"meshShader"}},
		describe: describeMeshOutputs,
		pass:     meshOutputsPass,
		// The counts went to the maxima (p2, p3) under skip and clamp alike.
		clamp: func(CheckCode, [RecordParams]uint32) Outcome { return Outcome{Access: AccessClamped} },
	},
	{
		// docs/decisions/pipeline-word.md
		ID:      CheckMeshTaskPayload,
		Codes:   []RecordCode{{CodeMeshTaskPayload, "MESH_TASK_PAYLOAD"}},
		Default: true,
		Title:   "Task payload read without a task shader",
		Help: "A mesh shader read its task payload (a TaskPayloadWorkgroupEXT variable, taskPayloadSharedEXT) in a pipeline with no task " +
			"shader, or as a shader object created with VK_SHADER_CREATE_NO_TASK_SHADER_BIT_EXT: no task shader wrote the payload, so " +
			"the value is undefined. gpuav-dbg reported the read, and the read yielded zero.",
		skipWords: []string{", and the read yielded zero"},
		skipped:   "The read yielded zero.",
		Device: DeviceRequirement{Features: []string{"meshShader"}, Extension: "VK_EXT_mesh_shader",
			GatedBy: []string{"meshShader"}},
		describe: describeMeshTaskPayload,
		pass:     meshTaskPayloadPass,
		noClamp:  "a task payload has no range to clamp into",
	},
	{
		// The bda pass checks both (docs/decisions/bda-alignment-check.md).
		ID:      CheckBDAAlignment,
		Codes:   []RecordCode{{CodeBDAAlignment, "BDA_ALIGNMENT"}},
		Default: true,
		Title:   "Buffer device address access misaligned",
		Help: "A shader loaded or stored through a buffer device address that is not a multiple of the access's Aligned operand " +
			"(buffer_reference_align, or the type's alignment). gpuav-dbg reported the address and the alignment, and skipped the access " +
			"(a load yields zero).",
		skipWords: []string{", and skipped the access (a load yields zero)"},
		Device: DeviceRequirement{Features: []string{"bufferDeviceAddress", "shaderInt64"},
			Extension: "VK_KHR_buffer_device_address", GatedBy: []string{"bufferDeviceAddress"}},
		describe: describeBDA,
		pass:     bdaPass,
		noClamp:  "a misaligned address has no aligned place to go to",
	},
	{
		// The buffer pass checks both (docs/decisions/cooperative-matrix-checks.md).
		ID:      CheckCoopMatAlignment,
		Codes:   []RecordCode{{CodeCoopMatAlignment, "COOPMAT_ALIGNMENT"}, {CodeCoopMatAlignmentBDA, "COOPMAT_ALIGNMENT_BDA"}},
		Default: true,
		Title:   "Cooperative matrix load or store misaligned",
		Help: "A shader loaded or stored a cooperative matrix through a storage or uniform buffer or a device address at a byte offset, or with a stride, " +
			"that is not a multiple of the lesser of 16 bytes and one row's (column-major: column's) bytes. gpuav-dbg reported the " +
			"offset, the stride in bytes and the alignment, and skipped the access (a load yields zero).",
		skipWords: []string{", and skipped the access (a load yields zero)"},
		Device: DeviceRequirement{Features: []string{"cooperativeMatrix"}, Extension: "VK_KHR_cooperative_matrix",
			GatedBy: []string{"cooperativeMatrix"}},
		describe: describeCoopMatAlignment,
		pass:     bufferOOBPass,
		noClamp:  "a misaligned matrix has no aligned place to go to",
	},
	{
		// docs/decisions/shared-memory-race.md
		ID: CheckSharedMemoryRace,
		Codes: []RecordCode{
			{CodeSharedRaceRAW, "SHARED_RACE_RAW"},
			{CodeSharedRaceWAR, "SHARED_RACE_WAR"},
			{CodeSharedRaceWAW, "SHARED_RACE_WAW"},
		},
		Default: true,
		Title:   "Shared memory data race",
		Help: "Two invocations of one workgroup accessed the same shared (Workgroup) variable element with no barrier() between them, " +
			"at least one of them writing and not both atomically (read-after-write, write-after-read or write-after-write, both source " +
			"lines shown). The result depends on the GPU and the run. Put a barrier() between the two accesses, or make both atomic.",
		describe:  describeSharedRace,
		pass:      sharedRacePass,
		executes:  "a hazard is between two accesses that both happen; neither is skipped",
		otherSite: 1 + 2,
	},
	{
		// docs/decisions/barrier-divergence.md
		ID: CheckBarrierDivergence,
		Codes: []RecordCode{
			{CodeBarrierSubgroup, "BARRIER_SUBGROUP"},
			{CodeBarrierWorkgroup, "BARRIER_WORKGROUP"},
		},
		Default: true,
		Title:   "Barrier not reached by the whole workgroup",
		Help: "A barrier() (OpControlBarrier of Workgroup scope) was reached by some invocations of a workgroup but not all: it is in " +
			"control flow that differs between them, or some invocations returned before it. That is undefined behaviour and can hang the " +
			"GPU. Where the invocations that arrived can see it (part of a subgroup is missing), gpuav-dbg skipped the barrier for them.",
		skipWords: []string{" Where the invocations that arrived can see it (part of a subgroup is missing), gpuav-dbg skipped the barrier for them."},
		skipped:   "The invocations that arrived skipped the barrier.",
		describe:  describeBarrier,
		pass:      barrierPass,
		noClamp:   "a barrier has no operand to clamp",
	},
	{
		// On by default: a loop the analyses prove within the budget gets
		// nothing (pass_loop_budget.go, docs/decisions/loop-budget.md).
		ID:      CheckLoopBudget,
		Codes:   []RecordCode{{CodeLoopBudget, "LOOP_BUDGET"}},
		Default: true,
		Title:   "Runaway loop",
		Help: "An invocation ran a loop for more iterations in one entry than the loop budget (loop_budget_iterations, default 16777216): " +
			"the loop's bound came from data, or its exit is never reached, and the GPU would hang or be reset. gpuav-dbg reported it once per " +
			"invocation and loop and left the loop (with on_error=execute it kept looping). Loops whose trip count the analyses prove within the budget are not counted.",
		skipWords:        []string{" and left the loop (with on_error=execute it kept looping)"},
		outcomeInMessage: true,
		describe:         describeLoopBudget,
		pass:             loopBudgetPass,
		noClamp:          "a loop's iterations are not an index",
	},
}, commandChecks...), buildCopyChecks...)

// AllChecks lists every check id in registry order.
var AllChecks = checkIDs(func(*Check) bool { return true })

// DefaultChecks lists the checks on when nothing says otherwise.
var DefaultChecks = checkIDs(func(c *Check) bool { return c.Default })

func checkIDs(keep func(*Check) bool) []string {
	var ids []string
	for i := range Checks {
		if keep(&Checks[i]) {
			ids = append(ids, Checks[i].ID)
		}
	}
	return ids
}

// CheckByID returns the registry entry of a check id, or nil.
func CheckByID(id string) *Check {
	for i := range Checks {
		if Checks[i].ID == id {
			return &Checks[i]
		}
	}
	return nil
}

// checkOfCode returns the check a record code belongs to, or nil.
func checkOfCode(code CheckCode) *Check {
	for i := range Checks {
		if slices.ContainsFunc(Checks[i].Codes, func(r RecordCode) bool { return r.Code == code }) {
			return &Checks[i]
		}
	}
	return nil
}

// CheckID returns the check id a code belongs to.
func (c CheckCode) CheckID() string {
	if ch := checkOfCode(c); ch != nil {
		return ch.ID
	}
	return fmt.Sprintf("unknown_check_%d", uint32(c))
}
