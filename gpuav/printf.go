package gpuav

// The printf buffer is a storage buffer of its own per command buffer,
// bound at binding PrintfBinding of the layer's descriptor set; it does not
// share the error records' format:
//
//	struct GpuavPrintf {
//	    uint written; // words claimed by atomicAdd, may exceed len(data)
//	    uint lost;    // lines that did not fit
//	    uint data[];  // lines, each of its own length
//	};
//
// A line is PrintfLineHeaderWords words, then its call's argument words
// (PrintfSite.Words of them, as package printf reads them):
//
//	| word | meaning                                               |
//	|------|-------------------------------------------------------|
//	| 0    | the line's size in words (header included)            |
//	| 1    | shader id                                             |
//	| 2    | site: the call's PrintfSite.ID in its module          |
//	| 3    | action index inside the command buffer                |
//	| 4    | stage: the SPIR-V ExecutionModel value                |
//	| 5-7  | stage-specific words (record.go's table)              |
//	| 8... | argument words                                        |
const (
	PrintfBinding = 5

	// PrintfHeaderWords is the number of words before data[].
	PrintfHeaderWords = 2
	// PrintfWrittenWord and PrintfLostWord index the header.
	PrintfWrittenWord = 0
	PrintfLostWord    = 1

	// PrintfLineHeaderWords is the size of a line's header.
	PrintfLineHeaderWords = 8
	// PrintfNoRoom is what gpuav_printf_begin returns for a line that did
	// not fit.
	PrintfNoRoom = 0xFFFFFFFF
)

// The printf buffer's size per command buffer: the setting's default and
// bounds, in bytes (options.PrintfBufferBytes).
const (
	DefaultPrintfBufferBytes = 64 << 10
	MinPrintfBufferBytes     = 1 << 10
	MaxPrintfBufferBytes     = 1 << 30
)

// PrintfLine is one decoded line, in the raw terms of the shader: the
// session formats it with its call's format string.
type PrintfLine struct {
	ShaderID    uint32
	Site        uint32 // PrintfSite.ID
	ActionIndex uint32
	Stage       uint32 // SPIR-V ExecutionModel
	StageWords  [3]uint32
	// Args are the argument words; they alias the buffer.
	Args []uint32
}

// PrintfOutput is what DecodePrintf found in one printf buffer.
type PrintfOutput struct {
	// Lines counts the lines read.
	Lines int
	// Lost counts the lines the shaders had no room for.
	Lost uint32
	// Skipped counts the words the decoder could not read: from a line
	// whose size word is too small or runs past the words written to the
	// end (the lines after it cannot be found). Zero in a sound buffer.
	Skipped int
}

// DecodePrintf reads the lines of a printf buffer (the whole buffer,
// header included, as words) and calls each with every line, in buffer
// order; a line's Args alias buf. It never panics.
func DecodePrintf(buf []uint32, each func(*PrintfLine)) PrintfOutput {
	var out PrintfOutput
	if len(buf) < PrintfHeaderWords {
		return out
	}
	out.Lost = buf[PrintfLostWord]
	data := buf[PrintfHeaderWords:]
	written := uint64(buf[PrintfWrittenWord])
	if written > uint64(len(data)) {
		// The lines that did not fit claimed words too; the first of them
		// wrote a size of 0 where it would have started.
		written = uint64(len(data))
	}
	for off := 0; off < int(written); {
		size := int(data[off])
		if size == 0 && buf[PrintfWrittenWord] > uint32(len(data)) {
			break
		}
		if size < PrintfLineHeaderWords || size > int(written)-off {
			out.Skipped = int(written) - off
			break
		}
		l := data[off : off+size]
		line := PrintfLine{ShaderID: l[1], Site: l[2], ActionIndex: l[3], Stage: l[4],
			StageWords: [3]uint32{l[5], l[6], l[7]}, Args: l[PrintfLineHeaderWords:size:size]}
		each(&line)
		out.Lines++
		off += size
	}
	return out
}
