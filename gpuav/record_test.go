package gpuav

import (
	"reflect"
	"testing"
)

// record builds one output-buffer record: shader, site and code, the stage
// words, the action and the dynamic values.
func record(shader, site uint32, code CheckCode, stage [3]uint32, action uint32, dyn ...uint32) []uint32 {
	r := make([]uint32, RecordWords)
	r[RecordShaderIDWord] = shader
	r[RecordSiteWord] = site | uint32(code)<<RecordSiteBits
	copy(r[RecordStage0Word:], stage[:])
	r[RecordActionWord] = action
	for i, v := range dyn {
		r[recordDynamicWords[i]] = v
	}
	return r
}

// TestDecode: records expand into the parameters of the first format, the
// static ones from the site table, the dynamic ones where the site says
// (buffer_oob's length above its flags, and p7 where the site clamps); a record of an unknown shader or
// site, or whose code is not one of its site's checks, is malformed; an
// unwritten record (shader 0) is skipped; the last record, the sink, is
// never read; what did not fit is written minus the capacity (every record
// but the sink) plus the failures beyond one of the folded records that
// did not fit (header word 1); a folded record's count is word 15, any
// other record's 1.
func TestDecode(t *testing.T) {
	buffer := bufferRecord(bufferAccess{set: 1, binding: 2, size: 16, flags: BufferWrite}, true)
	sites := []Site{
		{ID: 0, Instruction: 40, Checks: []string{CheckDescriptorIndexOOB}, Record: dynamicRecord([RecordParams]uint32{0, 3}, -1, -1, 0, 1)},
		{ID: 1, Instruction: 41, Checks: []string{CheckBufferOOB, CheckDescriptorUninit}, Record: buffer},
		{ID: 2, Instruction: 42, Checks: []string{CheckRayQuery}, Record: dynamicRecord([RecordParams]uint32{}, 0, 1, 2, 3, 4, 5, 6)},
		{ID: 3, Instruction: 43}, // reuses a guard: reports nothing
	}
	table := func(id uint32) ([]Site, uint32, bool) { return sites, 4, id == 7 }
	st := [3]uint32{5, 6, 0}
	recs := [][]uint32{
		record(7, 0, CodeDescriptorIndexOOB, st, 2, 9, 4),
		record(7, 1, CodeBufferOOB, st, 3, 1, 256, 64, 8, 60),
		record(7, 1, CodeDescriptorUninitialized, st, 3, 1, 8, 0, 0, uint32(CodeDescriptorUninitialized)),
		record(7, 2, CodeRayQueryNegativeTmin, st, 0, 10, 11, 12, 13, 14, 15, 16),
		record(0, 0, 0, [3]uint32{}, 0),                   // claimed, never written
		record(8, 0, CodeDescriptorIndexOOB, st, 0, 1, 1), // unknown shader
		record(7, 9, CodeDescriptorIndexOOB, st, 0, 1, 1), // unknown site
		record(7, 0, CodeBufferOOB, st, 0, 1, 1),          // not its site's check
		record(7, 3, CodeDescriptorIndexOOB, st, 0, 1, 1), // a site that reports nothing
		record(7, 0, CodeDescriptorIndexOOB, st, 1, 5, 4), // folded: 5 failures from index 5
	}
	recs[len(recs)-1][RecordCountWord] = 5
	buf := []uint32{uint32(len(recs)) + 3, 6, 0, 0}
	for _, r := range recs {
		buf = append(buf, r...)
	}
	// The sink: what claims past the capacity wrote; never read.
	buf = append(buf, record(7, 0, CodeDescriptorIndexOOB, st, 9, 99, 99)...)
	want := []Record{
		{ShaderID: 7, Instruction: 40, Stage: 4, StageWords: st, ActionIndex: 2, Code: CodeDescriptorIndexOOB,
			Params: [RecordParams]uint32{0, 3, 9, 4}, Count: 1},
		{ShaderID: 7, Instruction: 41, Stage: 4, StageWords: st, ActionIndex: 3, Code: CodeBufferOOB,
			Params: [RecordParams]uint32{1, 2, 1, 256, 16, 64, BufferWrite | 8<<BufferFlagBits, 60}, Count: 1},
		{ShaderID: 7, Instruction: 41, Stage: 4, StageWords: st, ActionIndex: 3, Code: CodeDescriptorUninitialized,
			Params: [RecordParams]uint32{1, 2, 1, 8, 16, 0, BufferWrite, uint32(CodeDescriptorUninitialized)}, Count: 1},
		{ShaderID: 7, Instruction: 42, Stage: 4, StageWords: st, Code: CodeRayQueryNegativeTmin,
			Params: [RecordParams]uint32{10, 11, 12, 13, 14, 15, 16}, Count: 1},
		{ShaderID: 7, Instruction: 40, Stage: 4, StageWords: st, ActionIndex: 1, Code: CodeDescriptorIndexOOB,
			Params: [RecordParams]uint32{0, 3, 5, 4}, Count: 5},
	}
	out := Decode(buf, table)
	if !reflect.DeepEqual(out.Records, want) {
		t.Errorf("records\n%+v\nwant\n%+v", out.Records, want)
	}
	if out.Malformed != 4 || out.Dropped != 3+6 {
		t.Errorf("malformed %d, dropped %d; want 4, 9", out.Malformed, out.Dropped)
	}
	if d := Decode(buf[:len(buf)-RecordWords], table); d.Dropped != 4+6 || len(d.Records) != 4 {
		t.Errorf("a buffer one record shorter: dropped %d, %d records; want 10, 4", d.Dropped, len(d.Records))
	}
	if d := Decode(buf[:3], table); len(d.Records) != 0 || d.Dropped != 0 {
		t.Errorf("a short buffer: %+v", d)
	}
}

// FuzzDecode: any buffer decodes without panicking, and never yields more
// records than the buffer holds.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 1})
	sites := []Site{{Checks: []string{CheckDescriptorIndexOOB}, Record: dynamicRecord([RecordParams]uint32{}, -1, -1, 0, 1)}}
	table := func(id uint32) ([]Site, uint32, bool) { return sites, 5, id == 7 }
	f.Fuzz(func(t *testing.T, b []byte) {
		buf := make([]uint32, len(b)/4)
		for i := range buf {
			buf[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
		}
		out := Decode(buf, table)
		if len(buf) >= OutputHeaderWords && len(out.Records) > (len(buf)-OutputHeaderWords)/RecordWords {
			t.Fatalf("%d records from %d words", len(out.Records), len(buf))
		}
	})
}
