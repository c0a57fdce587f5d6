package gpuav

import "fmt"

// RecordFormatVersion is the version of the record and buffer layouts below.
// It travels in the wire protocol's hello so a decoder can refuse records it
// does not understand.
const RecordFormatVersion = 1

// The output buffer is one storage buffer per command buffer, bound at
// binding OutputBinding of the layer's descriptor set:
//
//	struct GpuavOutput {
//	    uint written;   // words claimed by atomicAdd, may exceed len(data)
//	    uint dropped;   // records that did not fit
//	    uint reserved0;
//	    uint reserved1;
//	    uint data[];    // records, RecordWords words each
//	};
//
// The action buffer is a uniform buffer at binding ActionBinding: before
// every draw, dispatch or trace-rays command the layer binds a set whose
// binding ActionBinding is that action's slot of it, whose first word is
// the action index (the command's position among the actions of its command
// buffer, from 0).
const (
	OutputBinding = 0
	ActionBinding = 1

	// OutputHeaderWords is the number of words before data[].
	OutputHeaderWords = 4
	// OutputWrittenWord and OutputDroppedWord index the header.
	OutputWrittenWord = 0
	OutputDroppedWord = 1
)

// A record is RecordWords words:
//
//	| word | meaning                                                    |
//	|------|------------------------------------------------------------|
//	| 0    | record size in words (RecordWords)                         |
//	| 1    | shader id, given by the layer when it instrumented the module |
//	| 2    | instruction index in the original module                   |
//	| 3    | stage: the SPIR-V ExecutionModel value                     |
//	| 4-6  | stage-specific words (see StageWords)                      |
//	| 7    | action index inside the command buffer                     |
//	| 8    | check code (CheckCode)                                     |
//	| 9-15 | check-specific parameters (see CheckCode)                  |
//
// Stage-specific words, as in the Khronos design (floats stored as bits):
//
//	| stage            | word 4            | word 5            | word 6      |
//	|------------------|-------------------|-------------------|-------------|
//	| vertex           | VertexIndex       | InstanceIndex     | 0           |
//	| tess control     | InvocationId      | PrimitiveId       | 0           |
//	| tess eval        | PrimitiveId       | TessCoord.u bits  | TessCoord.v bits |
//	| geometry         | PrimitiveId       | InvocationId      | 0           |
//	| fragment         | FragCoord.x bits  | FragCoord.y bits  | 0           |
//	| compute/task/mesh| GlobalInvocationId.x | .y             | .z          |
//	| ray tracing      | LaunchId.x        | .y                | .z          |
const (
	RecordWords = 16

	RecordSizeWord        = 0
	RecordShaderIDWord    = 1
	RecordInstructionWord = 2
	RecordStageWord       = 3
	RecordStage0Word      = 4
	RecordActionWord      = 7
	RecordCheckWord       = 8
	RecordParam0Word      = 9
	RecordParams          = RecordWords - RecordParam0Word
)

// CheckCode is word 8 of a record: which check failed.
type CheckCode uint32

// Check codes and their parameters (words 9.. of the record).
const (
	// CodeDescriptorIndexOOB: p0 set, p1 binding, p2 index, p3 array length.
	CodeDescriptorIndexOOB CheckCode = 1
	// CodeDescriptorUninitialized: p0 set, p1 binding, p2 index.
	CodeDescriptorUninitialized CheckCode = 2
	// CodeDescriptorDestroyed: p0 set, p1 binding, p2 index.
	CodeDescriptorDestroyed CheckCode = 3
	// CodeBufferOOB: p0 set, p1 binding, p2 index, p3 offset, p4 access size, p5 bound range.
	CodeBufferOOB CheckCode = 4
	// CodeTexelBufferOOB: p0 set, p1 binding, p2 index, p3 texel coordinate
	// (bits), p4 texel count, p5 flags (Texel* bits), p6 array length.
	CodeTexelBufferOOB CheckCode = 5
	// CodeBDAOOB: p0/p1 address low/high, p2 access size.
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
)

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
)

// AllChecks lists every check id in a stable order.
var AllChecks = []string{
	CheckDescriptorIndexOOB, CheckDescriptorUninit, CheckDescriptorDestroyed,
	CheckBufferOOB, CheckTexelBufferOOB, CheckBDAOOB, CheckRayQuery,
}

// ImplementedChecks lists the checks the instrumentation can add today.
// The others are accepted in settings but have no pass yet.
var ImplementedChecks = []string{CheckDescriptorIndexOOB, CheckDescriptorUninit, CheckDescriptorDestroyed, CheckBufferOOB, CheckTexelBufferOOB, CheckRayQuery, CheckBDAOOB}

// DefaultChecks are the checks on when nothing says otherwise: every
// implemented check but buffer_oob, which checks every uniform and storage
// buffer access and so multiplies pipeline compile time (30-100x on
// lavapipe for check-dense shaders, docs/BENCHMARKS.md) until its failure
// path is made cheap. Switch it on with --check buffer_oob=on.
var DefaultChecks = []string{CheckDescriptorIndexOOB, CheckDescriptorUninit, CheckDescriptorDestroyed, CheckTexelBufferOOB, CheckRayQuery, CheckBDAOOB}

// CheckID returns the check id a code belongs to.
func (c CheckCode) CheckID() string {
	switch c {
	case CodeDescriptorIndexOOB:
		return CheckDescriptorIndexOOB
	case CodeDescriptorUninitialized:
		return CheckDescriptorUninit
	case CodeDescriptorDestroyed:
		return CheckDescriptorDestroyed
	case CodeBufferOOB:
		return CheckBufferOOB
	case CodeTexelBufferOOB:
		return CheckTexelBufferOOB
	case CodeBDAOOB:
		return CheckBDAOOB
	case CodeRayQueryTminGreaterThanTmax, CodeRayQueryNegativeTmin, CodeRayQueryOriginNonFinite,
		CodeRayQueryDirectionNonFinite, CodeRayQueryTNaN, CodeRayQueryNegativeTmax,
		CodeRayQuerySkipTrianglesAndAABBs, CodeRayQueryTriangleFlags, CodeRayQueryOpaqueFlags:
		return CheckRayQuery
	}
	return fmt.Sprintf("unknown_check_%d", uint32(c))
}

// Record is one decoded error record, still in the raw terms of the shader:
// the session resolves shader ids, actions and source lines.
type Record struct {
	ShaderID    uint32
	Instruction uint32
	Stage       uint32 // SPIR-V ExecutionModel
	StageWords  [3]uint32
	ActionIndex uint32
	Code        CheckCode
	Params      [RecordParams]uint32
}

// Output is what Decode found in one output buffer.
type Output struct {
	Records []Record
	// Dropped counts records the shaders could not write because the
	// buffer was full.
	Dropped uint32
	// Malformed counts records with a size word other than RecordWords,
	// which the decoder skipped.
	Malformed int
}

// Decode reads the records of an output buffer (the whole buffer, header
// included, as words). It never panics: a short buffer yields no records.
func Decode(buf []uint32) Output {
	var out Output
	if len(buf) < OutputHeaderWords {
		return out
	}
	out.Dropped = buf[OutputDroppedWord]
	data := buf[OutputHeaderWords:]
	written := int(buf[OutputWrittenWord])
	if written > len(data) || written < 0 {
		written = len(data)
	}
	for off := 0; off+RecordWords <= written; off += RecordWords {
		r := data[off : off+RecordWords]
		if r[RecordSizeWord] == 0 {
			// Claimed but not yet written; can happen only if a shader
			// was interrupted. Skip it.
			continue
		}
		if r[RecordSizeWord] != RecordWords {
			out.Malformed++
			continue
		}
		rec := Record{
			ShaderID:    r[RecordShaderIDWord],
			Instruction: r[RecordInstructionWord],
			Stage:       r[RecordStageWord],
			ActionIndex: r[RecordActionWord],
			Code:        CheckCode(r[RecordCheckWord]),
		}
		copy(rec.StageWords[:], r[RecordStage0Word:RecordStage0Word+3])
		copy(rec.Params[:], r[RecordParam0Word:])
		out.Records = append(out.Records, rec)
	}
	return out
}
