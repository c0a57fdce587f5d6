package gpuav

// The pre-pass buffer: one more input buffer of the layer's descriptor
// set (binding PrepassBinding, compute only), one per command buffer,
// host-visible. The layer writes the device's limits and one job per
// checked indirect command into it while the app records, copies the
// app's indirect (and count) buffers into its data region with
// vkCmdCopyBuffer, and runs the pre-pass compute shader (prepass/
// indirect.comp) over the jobs: before a vkCmdDispatchIndirect or
// vkCmdTraceRaysIndirect*(the command then reads the layer's checked copy),
// and after the render pass for indirect draws. The shader writes layer
// records (layerrecord.go) after the header at PrepassHeaderWord.
//
//	| words                      | meaning                                        |
//	|----------------------------|------------------------------------------------|
//	| 0 .. PrepassLimitWords-1   | the device's limits (PrepassLimit*)            |
//	| PrepassHeaderWord ..+3     | output header: words written, records dropped  |
//	| PrepassRecordWord ..       | PrepassRecords layer records                   |
//	| PrepassJobWord ..          | jobs, PrepassJobWords each, from the front     |
//	| .. end                     | copied commands, allocated from the back       |
const (
	PrepassBinding = 4

	PrepassLimitWords = 20
	PrepassHeaderWord = PrepassLimitWords
	// PrepassHeaderWords is the pre-pass output's header: words written
	// (claimed, may pass the records' end), records dropped, two unused.
	PrepassHeaderWords = 4
	PrepassRecordWord  = PrepassHeaderWord + PrepassHeaderWords
	PrepassRecords     = 256
	PrepassJobWord     = PrepassRecordWord + PrepassRecords*LayerRecordWords
	PrepassJobWords    = 16
	// PrepassLocalSize is the pre-pass's workgroup size: one workgroup
	// per job, its invocations over the job's commands.
	PrepassLocalSize = 64
)

// The limits block (words from 0).
const (
	PrepassLimitComputeCount  = 0  // maxComputeWorkGroupCount[0..2]
	PrepassLimitDrawCount     = 3  // maxDrawIndirectCount
	PrepassLimitTaskCount     = 4  // maxTaskWorkGroupCount[0..2], then maxTaskWorkGroupTotalCount
	PrepassLimitMeshCount     = 8  // maxMeshWorkGroupCount[0..2], then maxMeshWorkGroupTotalCount
	PrepassLimitRayInvocation = 12 // maxRayDispatchInvocationCount
	PrepassLimitRayDims       = 13 // maxComputeWorkGroupCount[i] × maxComputeWorkGroupSize[i], saturated
	PrepassLimitFeatures      = 16 // PrepassFeature* bits
)

// PrepassFeatureFirstInstance: the app enabled drawIndirectFirstInstance.
const PrepassFeatureFirstInstance = 1

// A job (PrepassJobWords words):
//
//	| word | meaning                                                        |
//	|------|----------------------------------------------------------------|
//	| 0    | action index                                                   |
//	| 1    | kind (PrepassKind*) | PrepassFlag* bits                         |
//	| 2    | word offset of the first copied command                        |
//	| 3    | commands copied                                                |
//	| 4    | stride in words                                                |
//	| 5    | word offset of the copied count (count forms)                  |
//	| 6    | the call's maxDrawCount (count forms)                          |
//	| 7    | commands that fit in the app's buffer from its offset          |
//	| 8    | the app's buffer size, 9 its offset, 10 its stride in bytes     |
//	| 11   | indices in the bound index buffer (indexed draws)              |
//	| 12   | index size in bytes, 13 the index buffer's bind offset,         |
//	| 14   | the end of its bound range (bytes)                             |
//	| 15   | reserved                                                       |
const (
	PrepassJobAction   = 0
	PrepassJobKind     = 1
	PrepassJobSrc      = 2
	PrepassJobCount    = 3
	PrepassJobStride   = 4
	PrepassJobCountSrc = 5
	PrepassJobMaxDraw  = 6
	PrepassJobFit      = 7
	PrepassJobBufSize  = 8
	PrepassJobOffset   = 9
	PrepassJobStrideB  = 10
	PrepassJobIndices  = 11
	PrepassJobIdxSize  = 12
	PrepassJobIdxOff   = 13
	PrepassJobIdxEnd   = 14
)

// Job kinds (the low byte of word 1) and flags.
const (
	PrepassKindDraw        = 1
	PrepassKindDrawIndexed = 2
	PrepassKindMesh        = 3
	PrepassKindDispatch    = 4
	PrepassKindTraceRays   = 5
	PrepassKindTraceRays2  = 6

	// PrepassFlagCount: a count form (word 5 holds the copied count).
	PrepassFlagCount = 1 << 8
	// PrepassFlagTask: the bound pipeline has a task shader.
	PrepassFlagTask = 1 << 9
	// PrepassFlagSafe: zero the copied command when a check fails (the
	// action then reads the copy).
	PrepassFlagSafe = 1 << 10
	// PrepassFlagIndirect: indirect_command is on (else the job is there
	// for index_buffer_oob alone).
	PrepassFlagIndirect = 1 << 11

	// PrepassKindDepth: a buffer-to-image copy region into a depth aspect
	// (depth_copy_range, indirect.comp); its bytes copied at word 2.
	PrepassKindDepth = 7
	// Acceleration-structure build jobs (acceleration_structure_build), run
	// by the pre-pass's second shader (accel.comp), which reads the app's
	// memory through device addresses: a geometry's instances, AABBs, its
	// triangles' transform, its indices.
	PrepassKindInstances = 8
	PrepassKindAABBs     = 9
	PrepassKindTransform = 10
	PrepassKindIndices   = 11
	// PrepassFlagPointers: the instances are an array of pointers.
	PrepassFlagPointers = 1 << 12
	// PrepassFlagUpdate: the build is an update.
	PrepassFlagUpdate = 1 << 13
)

// A depth copy job's words (after action, kind and source):
//
//	| word | meaning                                                        |
//	|------|----------------------------------------------------------------|
//	| 3..5 | the region's width, height and depth (or layer count)          |
//	| 6, 7 | the buffer's row length (texels) and image height (rows)       |
//	| 8    | the region's index                                             |
//	| 9..11| its imageOffset x, y and z (or baseArrayLayer)                 |
//	| 12   | the image's VkFormat, 13 bufferOffset, 14 DepthLayer/DepthCopy2 |
const (
	PrepassDepthWidth     = 3
	PrepassDepthHeight    = 4
	PrepassDepthDepth     = 5
	PrepassDepthRowLength = 6
	PrepassDepthRows      = 7
	PrepassDepthRegion    = 8
	PrepassDepthX         = 9
	PrepassDepthY         = 10
	PrepassDepthZ         = 11
	PrepassDepthFormat    = 12
	PrepassDepthOffset    = 13
	PrepassDepthFlags     = 14
)

// A build job's words (after action and kind):
//
//	| word  | meaning                                                       |
//	|-------|---------------------------------------------------------------|
//	| 2     | the word of the live acceleration structure table (instances) |
//	| 3     | the geometry's primitives (instances, AABBs, triangles)       |
//	| 4, 5  | the app's data address, low and high (offsets applied)        |
//	| 6, 7  | the layer's copy of the instances (on_error skip), or 0       |
//	| 8, 9  | the info and geometry index                                   |
//	| 10    | the AABB stride in bytes; the VkIndexType of indices          |
//	| 11,12 | the address of the acceleration structure the info builds      |
//	| 13,14 | the command's built addresses: word and count (instances);     |
//	|       | firstVertex and maxVertex (indices)                            |
//
// The live table: its entry count, 1 when the layer wrote it at submit
// (0: it did not fit, references are not looked up), two unused words, then
// four words per acceleration structure the app created, sorted by
// address: address low, high, PrepassAS* flags, unused.
const (
	PrepassBuildTable     = 2
	PrepassBuildCount     = 3
	PrepassBuildAddr      = 4
	PrepassBuildCopy      = 6
	PrepassBuildInfo      = 8
	PrepassBuildGeometry  = 9
	PrepassBuildStride    = 10
	PrepassBuildDst       = 11
	PrepassBuildDstList   = 13
	PrepassBuildDstCount  = 14
	PrepassBuildFirstVert = 13
	PrepassBuildMaxVertex = 14

	PrepassTableHeaderWords = 4
	PrepassTableEntryWords  = 4

	PrepassASBottom       = 1 // a bottom-level acceleration structure
	PrepassASTop          = 2 // a top-level one
	PrepassASGeneric      = 3 // VK_ACCELERATION_STRUCTURE_TYPE_GENERIC_KHR: not checked for its level
	PrepassASDestroyed    = 16
	PrepassASBufferGone   = 32
	PrepassASTypeMask     = 3
	PrepassBuildLocalSize = 64
	// PrepassBuildGroupsMax bounds the workgroups per build job (the y of
	// the dispatch): 64 × 256 invocations share a geometry's primitives.
	PrepassBuildGroupsMax = 256
)

// PrepassConstants lists the constants above (and the command check
// codes) by the names the generated C header (layer/prepass_gen.h,
// GPUAVDBG_ prefix) and the pre-pass GLSL (-D, GPUAV_ prefix) use.
var PrepassConstants = []Constant{
	{"PREPASS_BINDING", PrepassBinding},
	{"PREPASS_LIMIT_WORDS", PrepassLimitWords},
	{"PREPASS_HEADER_WORD", PrepassHeaderWord},
	{"PREPASS_RECORD_WORD", PrepassRecordWord},
	{"PREPASS_RECORDS", PrepassRecords},
	{"PREPASS_JOB_WORD", PrepassJobWord},
	{"PREPASS_JOB_WORDS", PrepassJobWords},
	{"PREPASS_LOCAL_SIZE", PrepassLocalSize},
	{"PREPASS_LIMIT_COMPUTE_COUNT", PrepassLimitComputeCount},
	{"PREPASS_LIMIT_DRAW_COUNT", PrepassLimitDrawCount},
	{"PREPASS_LIMIT_TASK_COUNT", PrepassLimitTaskCount},
	{"PREPASS_LIMIT_MESH_COUNT", PrepassLimitMeshCount},
	{"PREPASS_LIMIT_RAY_INVOCATION", PrepassLimitRayInvocation},
	{"PREPASS_LIMIT_RAY_DIMS", PrepassLimitRayDims},
	{"PREPASS_LIMIT_FEATURES", PrepassLimitFeatures},
	{"PREPASS_FEATURE_FIRST_INSTANCE", PrepassFeatureFirstInstance},
	{"PREPASS_JOB_ACTION", PrepassJobAction},
	{"PREPASS_JOB_KIND", PrepassJobKind},
	{"PREPASS_JOB_SRC", PrepassJobSrc},
	{"PREPASS_JOB_COUNT", PrepassJobCount},
	{"PREPASS_JOB_STRIDE", PrepassJobStride},
	{"PREPASS_JOB_COUNT_SRC", PrepassJobCountSrc},
	{"PREPASS_JOB_MAX_DRAW", PrepassJobMaxDraw},
	{"PREPASS_JOB_FIT", PrepassJobFit},
	{"PREPASS_JOB_BUF_SIZE", PrepassJobBufSize},
	{"PREPASS_JOB_OFFSET", PrepassJobOffset},
	{"PREPASS_JOB_STRIDE_BYTES", PrepassJobStrideB},
	{"PREPASS_JOB_INDICES", PrepassJobIndices},
	{"PREPASS_JOB_IDX_SIZE", PrepassJobIdxSize},
	{"PREPASS_JOB_IDX_OFFSET", PrepassJobIdxOff},
	{"PREPASS_JOB_IDX_END", PrepassJobIdxEnd},
	{"PREPASS_KIND_DRAW", PrepassKindDraw},
	{"PREPASS_KIND_DRAW_INDEXED", PrepassKindDrawIndexed},
	{"PREPASS_KIND_MESH", PrepassKindMesh},
	{"PREPASS_KIND_DISPATCH", PrepassKindDispatch},
	{"PREPASS_KIND_TRACE_RAYS", PrepassKindTraceRays},
	{"PREPASS_KIND_TRACE_RAYS2", PrepassKindTraceRays2},
	{"PREPASS_FLAG_COUNT", PrepassFlagCount},
	{"PREPASS_FLAG_TASK", PrepassFlagTask},
	{"PREPASS_FLAG_SAFE", PrepassFlagSafe},
	{"PREPASS_FLAG_INDIRECT", PrepassFlagIndirect},
	{"CODE_INDEX_BUFFER_OOB", uint32(CodeIndexBufferOOB)},
	{"CODE_VERTEX_FETCH_OOB", uint32(CodeVertexFetchOOB)},
	{"CODE_INDIRECT_FIRST_INSTANCE", uint32(CodeIndirectFirstInstance)},
	{"CODE_INDIRECT_GROUP_COUNT", uint32(CodeIndirectGroupCount)},
	{"CODE_INDIRECT_DRAW_COUNT", uint32(CodeIndirectDrawCount)},
	{"CODE_INDIRECT_BUFFER_OVERRUN", uint32(CodeIndirectBufferOverrun)},
	{"CODE_INDIRECT_TRACE_RAYS", uint32(CodeIndirectTraceRays)},
	{"INDEX_INDIRECT", IndexIndirect},
	{"INDEX_SKIPPED", IndexSkipped},
	{"INDEX_ROBUST", IndexRobust},
	{"VERTEX_INSTANCE_RATE", VertexInstanceRate},
	{"VERTEX_SKIPPED", VertexSkipped},
	{"VERTEX_ROBUST", VertexRobust},
	{"VERTEX_STRIDE_SHIFT", VertexStrideShift},
	{"FIELD_TOTAL", FieldTotal},
	{"TRACE_RAYS2", TraceRays2},
	{"GROUP_KIND_COMPUTE", GroupKindCompute},
	{"GROUP_KIND_TASK", GroupKindTask},
	{"GROUP_KIND_MESH", GroupKindMesh},
	{"GROUP_SKIPPED", GroupSkipped},
	{"OVERRUN_DRAW_COUNT", OverrunDrawCount},
	{"OVERRUN_MAX_DRAW_COUNT", OverrunMaxDrawCount},
	{"OVERRUN_COUNT_BUFFER", OverrunCountBuffer},
	{"OVERRUN_OFFSET", OverrunOffset},
	{"INDIRECT_SKIPPED", IndirectSkipped},
	{"PREPASS_HEADER_WORDS", PrepassHeaderWords},
	{"PREPASS_KIND_DEPTH", PrepassKindDepth},
	{"PREPASS_KIND_INSTANCES", PrepassKindInstances},
	{"PREPASS_KIND_AABBS", PrepassKindAABBs},
	{"PREPASS_KIND_TRANSFORM", PrepassKindTransform},
	{"PREPASS_KIND_INDICES", PrepassKindIndices},
	{"PREPASS_FLAG_POINTERS", PrepassFlagPointers},
	{"PREPASS_FLAG_UPDATE", PrepassFlagUpdate},
	{"PREPASS_DEPTH_WIDTH", PrepassDepthWidth},
	{"PREPASS_DEPTH_HEIGHT", PrepassDepthHeight},
	{"PREPASS_DEPTH_DEPTH", PrepassDepthDepth},
	{"PREPASS_DEPTH_ROW_LENGTH", PrepassDepthRowLength},
	{"PREPASS_DEPTH_ROWS", PrepassDepthRows},
	{"PREPASS_DEPTH_REGION", PrepassDepthRegion},
	{"PREPASS_DEPTH_X", PrepassDepthX},
	{"PREPASS_DEPTH_Y", PrepassDepthY},
	{"PREPASS_DEPTH_Z", PrepassDepthZ},
	{"PREPASS_DEPTH_FORMAT", PrepassDepthFormat},
	{"PREPASS_DEPTH_OFFSET", PrepassDepthOffset},
	{"PREPASS_DEPTH_FLAGS", PrepassDepthFlags},
	{"PREPASS_BUILD_TABLE", PrepassBuildTable},
	{"PREPASS_BUILD_COUNT", PrepassBuildCount},
	{"PREPASS_BUILD_ADDR", PrepassBuildAddr},
	{"PREPASS_BUILD_COPY", PrepassBuildCopy},
	{"PREPASS_BUILD_INFO", PrepassBuildInfo},
	{"PREPASS_BUILD_GEOMETRY", PrepassBuildGeometry},
	{"PREPASS_BUILD_STRIDE", PrepassBuildStride},
	{"PREPASS_BUILD_DST", PrepassBuildDst},
	{"PREPASS_BUILD_DST_LIST", PrepassBuildDstList},
	{"PREPASS_BUILD_DST_COUNT", PrepassBuildDstCount},
	{"PREPASS_BUILD_FIRST_VERTEX", PrepassBuildFirstVert},
	{"PREPASS_BUILD_MAX_VERTEX", PrepassBuildMaxVertex},
	{"PREPASS_TABLE_HEADER_WORDS", PrepassTableHeaderWords},
	{"PREPASS_TABLE_ENTRY_WORDS", PrepassTableEntryWords},
	{"PREPASS_AS_BOTTOM", PrepassASBottom},
	{"PREPASS_AS_TOP", PrepassASTop},
	{"PREPASS_AS_GENERIC", PrepassASGeneric},
	{"PREPASS_AS_DESTROYED", PrepassASDestroyed},
	{"PREPASS_AS_BUFFER_GONE", PrepassASBufferGone},
	{"PREPASS_AS_TYPE_MASK", PrepassASTypeMask},
	{"PREPASS_BUILD_LOCAL_SIZE", PrepassBuildLocalSize},
	{"PREPASS_BUILD_GROUPS_MAX", PrepassBuildGroupsMax},
	{"CODE_ACCEL_REFERENCE", uint32(CodeAccelReference)},
	{"CODE_ACCEL_INSTANCE_TRANSFORM", uint32(CodeAccelInstanceTransform)},
	{"CODE_ACCEL_AABB", uint32(CodeAccelAABB)},
	{"CODE_ACCEL_TRANSFORM", uint32(CodeAccelTransform)},
	{"CODE_ACCEL_INDEX", uint32(CodeAccelIndex)},
	{"CODE_DEPTH_COPY_RANGE", uint32(CodeDepthCopyRange)},
	{"MODEL_BUILD", ModelBuild},
	{"MODEL_COPY", ModelCopy},
	{"REF_UNKNOWN", RefUnknown},
	{"REF_DESTROYED", RefDestroyed},
	{"REF_NOT_BOTTOM", RefNotBottom},
	{"REF_SELF", RefSelf},
	{"REF_OTHER_DST", RefOtherDst},
	{"REF_MISALIGNED", RefMisaligned},
	{"REF_BUFFER_GONE", RefBufferGone},
	{"ACCEL_SKIPPED", AccelSkipped},
	{"ACCEL_POINTERS", AccelPointers},
	{"ACCEL_UPDATE", AccelUpdate},
	{"DEPTH_CLAMPED", DepthClamped},
	{"DEPTH_LAYER", DepthLayer},
	{"DEPTH_COPY2", DepthCopy2},
}
