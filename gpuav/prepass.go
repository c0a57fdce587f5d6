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
}
