package gpuav

import "slices"

// RecordFormatVersion is the version of the record and buffer layouts below.
// It travels in the wire protocol's hello so a decoder can refuse records it
// does not understand. Version 2: a record carries a site id and the
// dynamic values only; the static ones are in the module's site table.
// Version 3: a folded record (a site in a loop, reported once after it)
// carries its count of failures in word 15, and header word 1 counts the
// failures beyond one of the folded records that did not fit.
const RecordFormatVersion = 3

// The output buffer is one storage buffer per command buffer, bound at
// binding OutputBinding of the layer's descriptor set:
//
//	struct GpuavOutput {
//	    uint written;   // records claimed by atomicAdd, may exceed the capacity
//	    uint folded_dropped; // failures beyond one of folded records that did not fit
//	    uint reserved1;
//	    uint reserved2;
//	    uint data[];    // records, RecordWords words each
//	};
//
// A check that fails claims a record with one atomicAdd on written; a
// claim past the capacity, all the records but the last, writes the last
// record, a sink Decode never reads. The records that did not fit are
// written minus the capacity, exactly (up to 2^32 claims per submission);
// a folded record that did not fit adds the failures it stood for beyond
// one to folded_dropped, so the failures lost are exact too.
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
	// OutputWrittenWord and OutputFoldedDroppedWord index the header.
	OutputWrittenWord       = 0
	OutputFoldedDroppedWord = 1
)

// A record is RecordWords words, four uvec4s; a site writes the third and
// fourth only when it has more than two and six dynamic values:
//
//	| word  | meaning                                                    |
//	|-------|------------------------------------------------------------|
//	| 0     | shader id, given by the layer when it instrumented the module (0: not written) |
//	| 1     | site (Site.ID, bits 0-23) and check code (CheckCode, bits 24-31) |
//	| 2, 3  | dynamic values 0 and 1                                      |
//	| 4-6   | stage-specific words (see StageWords)                      |
//	| 7     | action index inside the command buffer                     |
//	| 8-11  | dynamic values 2-5                                          |
//	| 12-14 | dynamic values 6-8                                          |
//	| 15    | a folded record's count of failures (0: one failure)        |
//
// The site's SiteRecord says which check parameter each dynamic value is,
// and holds the static ones (set, binding, access size, flags...): Decode
// puts them back together into a Record.
//
// A site inside a loop reports once after the loop (folded, Site.Loop):
// the record holds the values of the invocation's last failure there and,
// in word 15, how many accesses failed (docs/decisions/loop-failures-folded.md).
// Every other record leaves word 15 0, as the layer zeroes the records
// after each submission.
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

	RecordShaderIDWord = 0
	RecordSiteWord     = 1
	RecordStage0Word   = 4
	RecordActionWord   = 7
	RecordCountWord    = 15
	// RecordParams is the number of check parameters of a Record.
	RecordParams = 8
	// RecordDynamic is the number of dynamic values a record holds.
	RecordDynamic = 9
	// RecordSiteBits is the width of the site id in word 1.
	RecordSiteBits = 24
)

// recordDynamicWords are the words of the dynamic values, in order.
var recordDynamicWords = [RecordDynamic]int{2, 3, 8, 9, 10, 11, 12, 13, 14}

// SiteRecord is the static part of a site's records: the check parameters
// the shader does not write, and where the ones it writes go.
type SiteRecord struct {
	// Params are the static parameters (0 where a dynamic value goes).
	Params [RecordParams]uint32
	// Dynamic gives, for each parameter, the dynamic value (1 + its index)
	// that is ORed into it shifted left by Shift; 0 for a static one.
	Dynamic [RecordParams]uint8
	Shift   [RecordParams]uint8
}

// dynamicRecord returns a SiteRecord whose parameter i is dynamic value
// order[i] (-1: static, from params).
func dynamicRecord(params [RecordParams]uint32, order ...int) SiteRecord {
	r := SiteRecord{Params: params}
	for i, d := range order {
		if d >= 0 {
			r.Dynamic[i] = uint8(d + 1)
		}
	}
	return r
}

// expand fills in a record's parameters from its dynamic values.
func (r SiteRecord) expand(dyn [RecordDynamic]uint32) [RecordParams]uint32 {
	p := r.Params
	for i, d := range r.Dynamic {
		if d > 0 && int(d) <= RecordDynamic {
			p[i] |= dyn[d-1] << r.Shift[i]
		}
	}
	return p
}

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
	// Count is how many failed accesses the record stands for: 1, or a
	// folded record's count (its values are the last failure's).
	Count uint32
}

// Output is what Decode found in one output buffer.
type Output struct {
	Records []Record
	// Dropped counts the failed accesses whose records the shaders could
	// not write because the buffer was full: one per record, and a
	// folded record's failures beyond one.
	Dropped uint32
	// Malformed counts records whose shader or site the decoder did not
	// know (or whose site table says another check), which it skipped.
	Malformed int
}

// SiteTable gives a shader's sites (Result.Sites) and its stage (the
// execution model of its entry points), or false for a shader it does not
// know.
type SiteTable func(shaderID uint32) (sites []Site, stage uint32, ok bool)

// Decode reads the records of an output buffer (the whole buffer, header
// included, as words), expanding each with its site's static values. It
// never panics: a short buffer yields no records.
func Decode(buf []uint32, table SiteTable) Output {
	var out Output
	if len(buf) < OutputHeaderWords {
		return out
	}
	data := buf[OutputHeaderWords:]
	capacity := uint32(max(len(data)/RecordWords-1, 0)) // the last record is the sink
	written := buf[OutputWrittenWord]
	if written > capacity {
		out.Dropped = written - capacity
		written = capacity
	}
	if extra := buf[OutputFoldedDroppedWord]; out.Dropped > 0 {
		out.Dropped += min(extra, ^uint32(0)-out.Dropped)
	}
	for i := 0; i < int(written); i++ {
		r := data[i*RecordWords : (i+1)*RecordWords]
		if r[RecordShaderIDWord] == 0 {
			// Claimed but not written; can happen only if a shader was
			// interrupted. Skip it.
			continue
		}
		rec, ok := decodeRecord(r, table)
		if !ok {
			out.Malformed++
			continue
		}
		out.Records = append(out.Records, rec)
	}
	return out
}

// decodeRecord expands one record, false when its site is unknown.
func decodeRecord(r []uint32, table SiteTable) (Record, bool) {
	sites, stage, ok := table(r[RecordShaderIDWord])
	id := r[RecordSiteWord] & (1<<RecordSiteBits - 1)
	if !ok || int(id) >= len(sites) {
		return Record{}, false
	}
	site := sites[id]
	rec := Record{
		ShaderID:    r[RecordShaderIDWord],
		Instruction: uint32(site.Instruction),
		Stage:       stage,
		ActionIndex: r[RecordActionWord],
		Code:        CheckCode(r[RecordSiteWord] >> RecordSiteBits),
	}
	if !slices.Contains(site.Checks, rec.Code.CheckID()) {
		return Record{}, false
	}
	var dyn [RecordDynamic]uint32
	for i, w := range recordDynamicWords {
		dyn[i] = r[w]
	}
	copy(rec.StageWords[:], r[RecordStage0Word:RecordStage0Word+3])
	rec.Count = max(r[RecordCountWord], 1)
	rec.Params = site.Record.expand(dyn)
	if c := checkOfCode(rec.Code); c != nil && c.otherSite > 0 {
		rec.Params[c.otherSite-1] = tagInstruction(sites, rec.Params[c.otherSite-1])
	}
	return rec, true
}

// tagInstruction returns the instruction of the site with RaceTag tag, or
// NoInstruction.
func tagInstruction(sites []Site, tag uint32) uint32 {
	if tag == 0 || tag >= raceTagUnknown {
		return NoInstruction
	}
	for i := range sites {
		if uint32(sites[i].RaceTag) == tag {
			return uint32(sites[i].Instruction)
		}
	}
	return NoInstruction
}
