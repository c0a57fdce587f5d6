package gpuav

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

// CheckCode is word 8 of a record: which check failed. The codes and
// their parameters are listed with the check registry (checks.go).
type CheckCode uint32

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
