package gpuav

// A layer record is a record the layer writes itself, not an instrumented
// shader: on the CPU while the app records a command (index_buffer_oob,
// vertex_fetch_oob, the count parameters of indirect_command), or in its
// compute pre-pass over indirect buffers. It is LayerRecordWords words:
//
//	| word  | meaning                                                 |
//	|-------|---------------------------------------------------------|
//	| 0     | action index inside the command buffer                  |
//	| 1     | check code (CheckCode)                                  |
//	| 2     | stage: ModelCommand, or ModelVertex for a vertex fetch   |
//	| 3-5   | stage words: the draw index within the command (multi-   |
//	|       | draws) for ModelCommand; vertex and instance index       |
//	| 6-12  | the check's first LayerParams parameters (p7 is 0)       |
//
// The layer hands them to Go next to the output buffer, in two arrays: the
// records made on the CPU (no header), and the pre-pass's output, which
// starts with the output buffer's header (words written, records dropped).
// They decode to Records with shader id 0 and, in place of an
// instruction, the record's site within its command (LayerSite): records of
// one action group apart by it, as a shader's group apart by instruction.
const (
	LayerRecordWords = 13

	LayerActionWord = 0
	LayerCodeWord   = 1
	LayerStageWord  = 2
	LayerStage0Word = 3
	LayerParam0Word = 6
	// LayerParams is the number of parameters a layer record holds: the
	// first of RecordParams (the last, what a clamp found, is a shader's).
	LayerParams = LayerRecordWords - LayerParam0Word
)

// LayerConstants lists the layer-record layout by the names the generated
// C header and the pre-pass GLSL use (see PrepassConstants).
var LayerConstants = []Constant{
	{"LAYER_RECORD_WORDS", LayerRecordWords},
	{"LAYER_ACTION_WORD", LayerActionWord},
	{"LAYER_CODE_WORD", LayerCodeWord},
	{"LAYER_STAGE_WORD", LayerStageWord},
	{"LAYER_STAGE0_WORD", LayerStage0Word},
	{"LAYER_PARAM0_WORD", LayerParam0Word},
	{"MODEL_COMMAND", ModelCommand},
}

// Constant is a named layout constant shared with C and GLSL.
type Constant struct {
	Name  string
	Value uint32
}

// DecodeLayerRecords decodes whole layer records (no header); a trailing
// partial record is ignored. It never panics.
func DecodeLayerRecords(words []uint32) []Record {
	var out []Record
	for off := 0; off+LayerRecordWords <= len(words); off += LayerRecordWords {
		out = append(out, layerRecord(words[off:off+LayerRecordWords]))
	}
	return out
}

// DecodeLayerOutput decodes the pre-pass's output: its header (words
// written, records dropped: PrepassHeaderWords), then layer records.
// Records claimed but not written (code 0) are skipped, as Decode skips
// them. It never panics: a short buffer yields no records.
func DecodeLayerOutput(buf []uint32) Output {
	var out Output
	if len(buf) < PrepassHeaderWords {
		return out
	}
	out.Dropped = buf[1]
	data := buf[PrepassHeaderWords:]
	written := min(int64(buf[0]), int64(len(data)))
	for off := 0; off+LayerRecordWords <= int(written); off += LayerRecordWords {
		if r := data[off : off+LayerRecordWords]; r[LayerCodeWord] != 0 {
			out.Records = append(out.Records, layerRecord(r))
		}
	}
	return out
}

func layerRecord(r []uint32) Record {
	rec := Record{ActionIndex: r[LayerActionWord], Code: CheckCode(r[LayerCodeWord]), Stage: r[LayerStageWord]}
	copy(rec.StageWords[:], r[LayerStage0Word:LayerStage0Word+3])
	copy(rec.Params[:], r[LayerParam0Word:LayerParam0Word+LayerParams])
	rec.Instruction = LayerSite(rec.Code, rec.Params)
	return rec
}

// LayerSite is what a layer record has in place of an instruction: its
// check code in the high 16 bits and, in the low 16, what tells its
// records apart within one command (the attribute location of a vertex
// fetch, the field of a group count or trace rays command, which count
// runs past the buffer); the draws of a multi-draw share a site and are
// told apart by their coordinates.
func LayerSite(code CheckCode, p [RecordParams]uint32) uint32 {
	var sub uint32
	switch code {
	case CodeVertexFetchOOB:
		sub = p[0]
	case CodeIndirectGroupCount, CodeIndirectTraceRays:
		sub = p[0]
	case CodeIndirectBufferOverrun:
		sub = p[5] & 0xff
	case CodeAccelReference:
		sub = p[2] & 0xff
	case CodeAccelAABB:
		sub = p[0]
	case CodeDepthCopyRange:
		sub = p[6]
	}
	return uint32(code)<<16 | sub&0xffff
}
