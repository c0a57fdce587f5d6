package gpuav

import (
	"reflect"
	"testing"
)

// TestDescribeCommandChecks: each command check record describes with its
// exact values, VUID (by action where it depends on it) and message.
func TestDescribeCommandChecks(t *testing.T) {
	tests := []struct {
		name    string
		code    CheckCode
		p       [RecordParams]uint32
		action  string
		vuid    string
		message string
		warning bool
		values  any
	}{
		{"index on the CPU, skipped", CodeIndexBufferOOB, [RecordParams]uint32{3, 6, 4, 8, 32, IndexSkipped, 6}, "vkCmdDrawIndexed",
			"VUID-vkCmdDrawIndexed-robustBufferAccess2-07825",
			"The draw reads indices 3 to 8 (firstIndex 3, indexCount 6), but the bound index buffer holds 6 (VK_INDEX_TYPE_UINT32 " +
				"from offset 8 to byte 32): indexSize × (firstIndex + indexCount) + offset = 44 > 32. gpuav-dbg skipped the draw.",
			false, &IndexValues{FirstIndex: 3, IndexCount: 6, IndexSize: 4, Offset: 8, End: 32, Available: 6, Skipped: true}},
		{"index of an indirect command, robust", CodeIndexBufferOOB, [RecordParams]uint32{0, 4, 2, 0, 6, IndexIndirect | IndexRobust, 3},
			"vkCmdDrawIndexedIndirect", "VUID-VkDrawIndexedIndirectCommand-robustBufferAccess2-08798",
			"The VkDrawIndexedIndirectCommand reads indices 0 to 3 (firstIndex 0, indexCount 4), but the bound index buffer holds 3 " +
				"(VK_INDEX_TYPE_UINT16 from offset 0 to byte 6): indexSize × (firstIndex + indexCount) + offset = 8 > 6. The device " +
				"enabled robustBufferAccess2, so the reads past the end return zero indices, but that is probably not intended.",
			true, &IndexValues{IndexCount: 4, IndexSize: 2, End: 6, Available: 3, Indirect: true, Robust: true}},
		{"vertex, instance rate", CodeVertexFetchOOB, [RecordParams]uint32{2, 1, 96, 12, 100, 8, VertexInstanceRate | 12<<VertexStrideShift},
			"vkCmdDraw", "VUID-vkCmdDraw-None-02721",
			"Vertex attribute at location 2 (binding 1, instance rate, stride 12) fetched bytes 96 to 107 for instance index 8, " +
				"past the end of the bound vertex buffer range (byte 100).",
			false, &VertexValues{Location: 2, Binding: 1, First: 96, Size: 12, End: 100, Index: 8, InstanceRate: true, Stride: 12}},
		{"vertex in the shader, read zeros", CodeVertexFetchOOB, [RecordParams]uint32{0, 0, 48, 16, 48, 3, VertexInShader | VertexSkipped | 16<<VertexStrideShift},
			"vkCmdDrawIndexedIndirect", "VUID-vkCmdDrawIndexedIndirect-None-02721",
			"Vertex attribute at location 0 (binding 0, vertex rate, stride 16) fetched bytes 48 to 63 for vertex index 3, " +
				"past the end of the bound vertex buffer range (byte 48). gpuav-dbg made the attribute read zeros.",
			false, &VertexValues{First: 48, Size: 16, End: 48, Index: 3, Stride: 16, Skipped: true}},
		{"vertex in the shader, executed", CodeVertexFetchOOB, [RecordParams]uint32{1, 2, 40, 8, 44, 5, VertexInShader | 8<<VertexStrideShift},
			"vkCmdDrawIndexed", "VUID-vkCmdDrawIndexed-None-02721",
			"Vertex attribute at location 1 (binding 2, vertex rate, stride 8) fetched bytes 40 to 47 for vertex index 5, " +
				"past the end of the bound vertex buffer range (byte 44).",
			false, &VertexValues{Location: 1, Binding: 2, First: 40, Size: 8, End: 44, Index: 5, Stride: 8}},
		{"vertex in the shader, robust", CodeVertexFetchOOB,
			[RecordParams]uint32{0, 0, 48, 16, 48, 3, VertexInShader | VertexSkipped | VertexRobust | VertexInstanceRate | 16<<VertexStrideShift},
			"vkCmdDrawIndirect", "VUID-vkCmdDrawIndirect-None-02721",
			"Vertex attribute at location 0 (binding 0, instance rate, stride 16) fetched bytes 48 to 63 for instance index 3, " +
				"past the end of the bound vertex buffer range (byte 48). The device enabled robustBufferAccess, so the fetch is " +
				"defined (it reads zero or values from inside the buffer), but that is probably not intended.",
			true, &VertexValues{First: 48, Size: 16, End: 48, Index: 3, InstanceRate: true, Stride: 16, Skipped: true, Robust: true}},
		{"first instance, indexed", CodeIndirectFirstInstance, [RecordParams]uint32{7, 1}, "vkCmdDrawIndexedIndirectCount",
			"VUID-VkDrawIndexedIndirectCommand-firstInstance-00554",
			"The firstInstance member of the VkDrawIndexedIndirectCommand structure is 7, but the drawIndirectFirstInstance feature is not enabled.",
			false, &IndirectValues{Struct: "VkDrawIndexedIndirectCommand", Field: "firstInstance", Value: 7}},
		{"dispatch y, zeroed", CodeIndirectGroupCount, [RecordParams]uint32{FieldY | GroupKindCompute<<8 | GroupSkipped, 70000, 0, 65535, 1, 70000, 1},
			"vkCmdDispatchIndirect", "VUID-VkDispatchIndirectCommand-y-00418",
			"The y member of the VkDispatchIndirectCommand structure is 70000, above maxComputeWorkGroupCount[1] (65535). " +
				"The command was (1, 70000, 1). gpuav-dbg dispatched no groups.",
			false, &IndirectValues{Struct: "VkDispatchIndirectCommand", Field: "y", Value: 70000, Limit: 65535, Groups: &[3]uint32{1, 70000, 1}, Skipped: true}},
		{"task total past 2^32", CodeIndirectGroupCount, [RecordParams]uint32{FieldTotal | GroupKindTask<<8, 1, 1, 4194304, 65536, 65536, 1},
			"vkCmdDrawMeshTasksIndirectEXT", "VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07325",
			"The groupCountX × groupCountY × groupCountZ member of the VkDrawMeshTasksIndirectCommandEXT structure is 4294967297, " +
				"above maxTaskWorkGroupTotalCount (4194304).",
			false, &IndirectValues{Struct: "VkDrawMeshTasksIndirectCommandEXT", Field: "groupCountX × groupCountY × groupCountZ",
				Value: 1<<32 + 1, Limit: 4194304, Groups: &[3]uint32{65536, 65536, 1}}},
		{"count above the limit", CodeIndirectDrawCount, [RecordParams]uint32{9, 8, 20, IndirectSkipped}, "vkCmdDrawIndirectCount",
			"VUID-vkCmdDrawIndirectCount-countBuffer-02717",
			"The count buffer holds 9, above maxDrawIndirectCount (8); maxDrawCount is 20. gpuav-dbg drew at most 8.",
			false, &IndirectValues{Field: "count", Value: 9, Limit: 8, Skipped: true}},
		{"one command past the end", CodeIndirectBufferOverrun, [RecordParams]uint32{1, 20, 8, 20, 24, OverrunCountBuffer, 0},
			"vkCmdDrawIndexedIndirectCount", "VUID-vkCmdDrawIndexedIndirectCount-countBuffer-03153",
			"The count in the count buffer is 1: stride × (count - 1) + offset + size = 20 × 0 + 8 + 20 = 28 is past the end of " +
				"the 24-byte indirect buffer, which holds 0 such commands.",
			false, &IndirectValues{Field: "count", Value: 1, Count: 1, Stride: 20, Offset: 8, CommandSize: 20, BufferSize: 24}},
		{"mesh drawCount clamped", CodeIndirectBufferOverrun, [RecordParams]uint32{4, 12, 0, 12, 36, OverrunDrawCount | IndirectSkipped<<8, 3},
			"vkCmdDrawMeshTasksIndirectEXT", "VUID-vkCmdDrawMeshTasksIndirectEXT-drawCount-07090",
			"The drawCount parameter is 4: stride × (count - 1) + offset + size = 12 × 3 + 0 + 12 = 48 is past the end of the " +
				"36-byte indirect buffer, which holds 3 such commands. gpuav-dbg executed only the 3 that fit.",
			false, &IndirectValues{Field: "drawCount", Value: 4, Limit: 3, Count: 4, Stride: 12, CommandSize: 12, BufferSize: 36, Fit: 3, Skipped: true}},
		{"trace rays 2 height", CodeIndirectTraceRays, [RecordParams]uint32{FieldY | TraceRays2, 70000, 0, 65535, 1, 70000, 1},
			"vkCmdTraceRaysIndirect2KHR", "VUID-VkTraceRaysIndirectCommand2KHR-height-03639",
			"The height of the VkTraceRaysIndirectCommand2KHR structure is 70000, above maxComputeWorkGroupCount[1] × " +
				"maxComputeWorkGroupSize[1] (65535). The command was 1 × 70000 × 1; gpuav-dbg traced no rays.",
			false, &IndirectValues{Struct: "VkTraceRaysIndirectCommand2KHR", Field: "height", Value: 70000, Limit: 65535,
				Groups: &[3]uint32{1, 70000, 1}, Skipped: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Describe(tt.code, tt.p)
			if got := d.VUID(tt.action); got != tt.vuid {
				t.Errorf("VUID(%s) = %q, want %q", tt.action, got, tt.vuid)
			}
			if d.Message != tt.message || d.Warning != tt.warning {
				t.Errorf("message (warning %v)\n%s\nwant (warning %v)\n%s", d.Warning, d.Message, tt.warning, tt.message)
			}
			var got any
			switch {
			case d.IndexBuffer != nil:
				got = d.IndexBuffer
			case d.Vertex != nil:
				got = d.Vertex
			case d.Indirect != nil:
				got = d.Indirect
			}
			if !reflect.DeepEqual(got, tt.values) {
				t.Errorf("values %+v, want %+v", got, tt.values)
			}
		})
	}
}

// TestDecodeLayerRecords: CPU records and the pre-pass's output decode to
// records with shader id 0, their stage, action and site; the output's
// written word bounds it, claimed-but-unwritten records are skipped and
// the dropped count carried.
func TestDecodeLayerRecords(t *testing.T) {
	rec := func(action uint32, code CheckCode, stage uint32, w0 uint32, p ...uint32) []uint32 {
		r := make([]uint32, LayerRecordWords)
		r[LayerActionWord], r[LayerCodeWord], r[LayerStageWord], r[LayerStage0Word] = action, uint32(code), stage, w0
		copy(r[LayerParam0Word:], p)
		return r
	}
	cpu := append(rec(3, CodeVertexFetchOOB, ModelVertex, 9, 2, 0, 48, 16, 48, 3, 0), rec(4, CodeIndexBufferOOB, ModelCommand, 1)...)
	got := DecodeLayerRecords(append(cpu, 1, 2, 3)) // a partial record after them is ignored
	want := []Record{
		{ActionIndex: 3, Code: CodeVertexFetchOOB, Stage: ModelVertex, StageWords: [3]uint32{9}, Params: [RecordParams]uint32{2, 0, 48, 16, 48, 3, 0},
			Instruction: uint32(CodeVertexFetchOOB)<<16 | 2},
		{ActionIndex: 4, Code: CodeIndexBufferOOB, Stage: ModelCommand, StageWords: [3]uint32{1}, Instruction: uint32(CodeIndexBufferOOB) << 16},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("DecodeLayerRecords:\n%+v\nwant\n%+v", got, want)
	}

	out := []uint32{3 * LayerRecordWords, 5, 0, 0}
	out = append(out, rec(1, CodeIndirectBufferOverrun, ModelCommand, 0, 5, 16, 0, 16, 32, OverrunCountBuffer, 2)...)
	out = append(out, make([]uint32, LayerRecordWords)...) // claimed, not written
	out = append(out, rec(2, CodeIndirectGroupCount, ModelCommand, 7, FieldZ)...)
	out = append(out, rec(9, CodeIndirectFirstInstance, ModelCommand, 0, 1)...) // past written
	o := DecodeLayerOutput(out)
	if o.Dropped != 5 || len(o.Records) != 2 || o.Records[0].Instruction != uint32(CodeIndirectBufferOverrun)<<16|OverrunCountBuffer ||
		o.Records[1].ActionIndex != 2 || o.Records[1].StageWords[0] != 7 || o.Records[1].Instruction != uint32(CodeIndirectGroupCount)<<16|FieldZ {
		t.Errorf("DecodeLayerOutput: %+v", o)
	}
	if o := DecodeLayerOutput([]uint32{1}); len(o.Records) != 0 || o.Dropped != 0 {
		t.Errorf("short buffer: %+v", o)
	}
}

// FuzzDecodeLayerOutput: the pre-pass output is GPU memory; decoding and
// describing whatever is in it never panics.
func FuzzDecodeLayerOutput(f *testing.F) {
	f.Add([]byte{26, 0, 0, 0, 1, 0, 0, 0}, uint32(13))
	f.Fuzz(func(t *testing.T, b []byte, written uint32) {
		words := make([]uint32, OutputHeaderWords+len(b)/4)
		words[OutputWrittenWord] = written
		for i := 0; i+3 < len(b); i += 4 {
			words[OutputHeaderWords+i/4] = uint32(b[i]) | uint32(b[i+1])<<8 | uint32(b[i+2])<<16 | uint32(b[i+3])<<24
		}
		for _, r := range DecodeLayerOutput(words).Records {
			d := Describe(r.Code, r.Params)
			_ = d.VUID("vkCmdDrawIndirectCount")
		}
	})
}
