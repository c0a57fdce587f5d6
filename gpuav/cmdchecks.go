package gpuav

import (
	"fmt"
	"math"
)

// Command checks look at what an action command reads besides its
// shaders' descriptors: the index buffer, the vertex buffers and the
// parameters of indirect commands. The layer checks them itself, on the
// CPU when the values are parameters of the call and in a compute pre-pass
// of its own when they are in a buffer; neither has an app shader
// instruction, so their records carry shader id 0 and the command's own
// stage (ModelCommand, or the vertex stage for a vertex fetch), and reach
// the session as layer records (layerrecord.go).
// docs/decisions/command-checks.md says why each runs where it does.

// Command check ids.
const (
	CheckIndexBufferOOB  = "index_buffer_oob"
	CheckVertexFetchOOB  = "vertex_fetch_oob"
	CheckIndirectCommand = "indirect_command"
)

// Command check codes and their parameters.
const (
	// CodeIndexBufferOOB: p0 firstIndex, p1 indexCount, p2 index size in
	// bytes, p3 the index buffer's bind offset, p4 the end of the bound
	// range in bytes (offset + size; 32 bits, saturated), p5 flags
	// (Index* bits), p6 the indices the bound range holds.
	CodeIndexBufferOOB CheckCode = 16
	// CodeVertexFetchOOB: p0 attribute location, p1 binding, p2 the first
	// byte read (from the buffer's start), p3 bytes read, p4 the end of
	// the bound range in bytes (bind offset + size), p5 the vertex or
	// instance index the fetch used, p6 flags (Vertex* bits) with the
	// binding's stride in bits 16-31.
	CodeVertexFetchOOB CheckCode = 17
	// CodeIndirectFirstInstance: p0 firstInstance, p1 1 for a
	// VkDrawIndexedIndirectCommand.
	CodeIndirectFirstInstance CheckCode = 18
	// CodeIndirectGroupCount: p0 the field (Field*) | the kind of limit
	// (GroupKind*) << 8 | GroupSkipped, p1/p2 the value low/high (the
	// product for FieldTotal), p3 the limit, p4..p6 the command's x, y and
	// z.
	CodeIndirectGroupCount CheckCode = 19
	// CodeIndirectDrawCount: p0 the count in the count buffer, p1
	// maxDrawIndirectCount, p2 the call's maxDrawCount, p3 flags
	// (Indirect* bits).
	CodeIndirectDrawCount CheckCode = 20
	// CodeIndirectBufferOverrun: p0 the number of commands, p1 stride, p2
	// offset, p3 the command structure's size, p4 the buffer's size (both
	// saturated to 32 bits), p5 which count (Overrun*) | Indirect* flags
	// << 8, p6 the commands that fit.
	CodeIndirectBufferOverrun CheckCode = 21
	// CodeIndirectTraceRays: p0 the field (Field*) | TraceRays2, p1/p2 the
	// value low/high (the product for FieldTotal), p3 the limit
	// (saturated), p4 width, p5 height, p6 depth.
	CodeIndirectTraceRays CheckCode = 22
)

// ModelCommand is the stage of a record about a command itself (no
// shader ran it): its stage words are the command's index within a
// multi-draw, 0, 0.
const ModelCommand = 0x40000000

// Flags of CodeIndexBufferOOB's p5.
const (
	// IndexIndirect: the counts came from a VkDrawIndexedIndirectCommand
	// (the record's draw index says which).
	IndexIndirect = 1 << 0
	// IndexSkipped: the layer did not let the draw execute.
	IndexSkipped = 1 << 1
	// IndexRobust: the app enabled robustBufferAccess2, under which the
	// access is defined.
	IndexRobust = 1 << 2
)

// Flags of CodeVertexFetchOOB's p6 (low 16 bits).
const (
	VertexInstanceRate = 1 << 0
	VertexSkipped      = 1 << 1
	// VertexRobust: the app enabled robustBufferAccess(2), under which
	// the fetch is defined.
	VertexRobust      = 1 << 2
	VertexStrideShift = 16
)

// Fields of an indirect command that CodeIndirectGroupCount and
// CodeIndirectTraceRays name.
const (
	FieldX     = 0 // groupCountX, x or width
	FieldY     = 1
	FieldZ     = 2
	FieldTotal = 3 // the product of the three
)

// GroupSkipped (in CodeIndirectGroupCount p0): the layer zeroed the
// dispatch before it ran.
const GroupSkipped = 1 << 16

// TraceRays2 (in CodeIndirectTraceRays p0): the command is a
// VkTraceRaysIndirectCommand2KHR.
const TraceRays2 = 1 << 8

// Kinds of group-count limit (CodeIndirectGroupCount p0 >> 8).
const (
	GroupKindCompute = 0 // VkDispatchIndirectCommand, maxComputeWorkGroupCount
	GroupKindTask    = 1 // a task shader's maxTaskWorkGroupCount / TotalCount
	GroupKindMesh    = 2 // a mesh shader's maxMeshWorkGroupCount / TotalCount
)

// Which count CodeIndirectBufferOverrun is about (p5 & 0xff).
const (
	OverrunDrawCount    = 0 // the drawCount parameter
	OverrunMaxDrawCount = 1 // the maxDrawCount parameter of a count draw
	OverrunCountBuffer  = 2 // the count in the count buffer
	OverrunOffset       = 3 // a single command at offset (vkCmdDispatchIndirect)
)

// Flags of indirect_command records (CodeIndirectDrawCount p3,
// CodeIndirectBufferOverrun p5 >> 8).
const (
	// IndirectSkipped: the layer made the command harmless (clamped its
	// count, or zeroed its layer-owned copy) before the GPU executed it.
	IndirectSkipped = 1 << 0
)

// IndexValues describe an indexed draw that reads past its index buffer.
type IndexValues struct {
	FirstIndex, IndexCount uint32
	IndexSize              uint32 // bytes per index
	Offset                 uint32 // the index buffer's bind offset
	End                    uint32 // the end of the bound range in bytes
	Available              uint32 // indices in the bound range
	Indirect, Skipped      bool
	Robust                 bool
}

// VertexValues describe a vertex attribute fetched past the end of its
// vertex buffer.
type VertexValues struct {
	Location, Binding uint32
	// First is the first byte read, from the buffer's start; Size the
	// bytes read; End the end of the bound range.
	First, Size, End uint32
	Index            uint32 // the vertex or instance index of the fetch
	InstanceRate     bool
	Stride           uint32
	Skipped, Robust  bool
}

// IndirectValues describe a bad indirect command.
type IndirectValues struct {
	// Struct is the command structure ("VkDrawIndirectCommand"), or ""
	// when the record is about the call's parameters.
	Struct string
	// Field is the member or parameter at fault and Value its value; Limit
	// is what it must not exceed (0 with no limit, e.g. firstInstance).
	Field string
	Value uint64
	Limit uint64
	// Count, Stride, Offset, CommandSize, BufferSize and Fit describe a
	// command range past the end of its buffer.
	Count, Stride, CommandSize, Fit uint32
	Offset, BufferSize              uint32
	// Groups are a group count command's x, y, z (or width, height, depth).
	Groups  *[3]uint32
	Skipped bool
}

// registry entries of the command checks (appended to Checks).
var commandChecks = []Check{
	{
		ID:      CheckIndexBufferOOB,
		Codes:   []RecordCode{{CodeIndexBufferOOB, "INDEX_BUFFER_OOB"}},
		Default: true,
		Command: true,
		Title:   "Index buffer read out of bounds",
		Help: "An indexed draw's firstIndex + indexCount runs past the end of the bound index buffer (vkCmdDrawIndexed, vkCmdDrawMultiIndexedEXT " +
			"on the CPU; the commands of vkCmdDrawIndexedIndirect(Count) in the layer's pre-pass). gpuav-dbg skips a draw it finds on the CPU.",
		skipWords: []string{" gpuav-dbg skips a draw it finds on the CPU."},
		describe:  describeIndexBuffer,
	},
	{
		ID:      CheckVertexFetchOOB,
		Codes:   []RecordCode{{CodeVertexFetchOOB, "VERTEX_FETCH_OOB"}},
		Default: true,
		Command: true,
		Title:   "Vertex attribute fetched out of bounds",
		Help: "A draw fetches a vertex attribute past the end of its bound vertex buffer: the vertex or instance index times the binding's " +
			"stride, plus the attribute's offset and size, is past the bound range. Checked on the CPU where the indices are parameters " +
			"(vkCmdDraw, vkCmdDrawMultiEXT, and the instances of indexed draws: gpuav-dbg skips the draw), in the vertex shader for indexed " +
			"and indirect draws (the attribute reads zeros).",
		skipWords: []string{": gpuav-dbg skips the draw", " (the attribute reads zeros)"},
		Device:    DeviceRequirement{VertexOnly: true},
		describe:  describeVertexFetch,
		// Where the vertex indices are in GPU memory the vertex shader
		// checks its inputs: a pass as well as the layer's work.
		pass:    vertexFetchPass,
		noClamp: "the vertex stage fetched the attribute before the shader ran; the shader cannot fetch another vertex's",
	},
	{
		ID:      CheckIndirectCommand,
		Codes:   indirectCodes,
		Default: true,
		Command: true,
		Title:   "Invalid indirect command",
		Help: "The parameters of an indirect draw, dispatch or trace rays, read on the GPU before the command runs: firstInstance without " +
			"drawIndirectFirstInstance, group counts and ray dimensions above the device's limits, a count buffer above maxDrawIndirectCount, " +
			"commands past the end of the indirect buffer. gpuav-dbg zeroes a bad dispatch or trace rays and clamps draw counts to the buffer.",
		skipWords: []string{" gpuav-dbg zeroes a bad dispatch or trace rays and clamps draw counts to the buffer."},
		describe:  describeIndirect,
	},
}

var indirectCodes = []RecordCode{
	{CodeIndirectFirstInstance, "INDIRECT_FIRST_INSTANCE"},
	{CodeIndirectGroupCount, "INDIRECT_GROUP_COUNT"},
	{CodeIndirectDrawCount, "INDIRECT_DRAW_COUNT"},
	{CodeIndirectBufferOverrun, "INDIRECT_BUFFER_OVERRUN"},
	{CodeIndirectTraceRays, "INDIRECT_TRACE_RAYS"},
}

// indexTypeName names an index size.
func indexTypeName(size uint32) string {
	switch size {
	case 1:
		return "VK_INDEX_TYPE_UINT8"
	case 2:
		return "VK_INDEX_TYPE_UINT16"
	}
	return "VK_INDEX_TYPE_UINT32"
}

// describeIndexBuffer fills in an index_buffer_oob error.
func describeIndexBuffer(d *Description, _ CheckCode, p [RecordParams]uint32) {
	v := &IndexValues{FirstIndex: p[0], IndexCount: p[1], IndexSize: p[2], Offset: p[3], End: p[4], Available: p[6],
		Indirect: p[5]&IndexIndirect != 0, Skipped: p[5]&IndexSkipped != 0, Robust: p[5]&IndexRobust != 0}
	d.IndexBuffer = v
	d.VUIDSuffix = "robustBufferAccess2-07825"
	what := "The draw"
	if v.Indirect {
		d.FullVUID = "VUID-VkDrawIndexedIndirectCommand-robustBufferAccess2-08798"
		what = "The VkDrawIndexedIndirectCommand"
	}
	need := uint64(v.IndexSize)*(uint64(v.FirstIndex)+uint64(v.IndexCount)) + uint64(v.Offset)
	d.Message = fmt.Sprintf("%s reads indices %d to %d (firstIndex %d, indexCount %d), but the bound index buffer holds %d "+
		"(%s from offset %d to byte %d): indexSize × (firstIndex + indexCount) + offset = %d > %d.",
		what, v.FirstIndex, uint64(v.FirstIndex)+uint64(v.IndexCount)-1, v.FirstIndex, v.IndexCount, v.Available,
		indexTypeName(v.IndexSize), v.Offset, v.End, need, v.End)
	outcome(d, v.Robust, v.Skipped, "robustBufferAccess2, so the reads past the end return zero indices")
}

// outcome ends a CPU-found draw's message: a warning under robust access
// (robust says what it defines), or the draw skipped.
func outcome(d *Description, robust, skipped bool, defined string) {
	switch {
	case robust:
		d.Warning = true
		d.Message += " The device enabled " + defined + ", but that is probably not intended."
	case skipped:
		d.Message += " gpuav-dbg skipped the draw."
	}
}

// describeVertexFetch fills in a vertex_fetch_oob error.
func describeVertexFetch(d *Description, _ CheckCode, p [RecordParams]uint32) {
	v := &VertexValues{Location: p[0], Binding: p[1], First: p[2], Size: p[3], End: p[4], Index: p[5],
		InstanceRate: p[6]&VertexInstanceRate != 0, Skipped: p[6]&VertexSkipped != 0, Robust: p[6]&VertexRobust != 0,
		Stride: p[6] >> VertexStrideShift}
	d.Vertex = v
	d.VUIDSuffix = "None-02721"
	rate, idx := "vertex", "vertex index"
	if v.InstanceRate {
		rate, idx = "instance", "instance index"
	}
	d.Message = fmt.Sprintf("Vertex attribute at location %d (binding %d, %s rate, stride %d) fetched bytes %d to %d for %s %d, "+
		"past the end of the bound vertex buffer range (byte %d).",
		v.Location, v.Binding, rate, v.Stride, v.First, uint64(v.First)+uint64(v.Size)-1, idx, v.Index, v.End)
	if p[6]&VertexInShader != 0 && !v.Robust {
		// Found in the vertex shader: the draw ran; skipped, the load
		// read zeros.
		if v.Skipped {
			d.Message += " gpuav-dbg made the attribute read zeros."
		}
		return
	}
	outcome(d, v.Robust, v.Skipped, "robustBufferAccess, so the fetch is defined (it reads zero or values from inside the buffer)")
}

// describeIndirect fills in an indirect_command error.
func describeIndirect(d *Description, code CheckCode, p [RecordParams]uint32) {
	v := &IndirectValues{}
	d.Indirect = v
	switch code {
	case CodeIndirectFirstInstance:
		v.Struct, v.Field, v.Value = "VkDrawIndirectCommand", "firstInstance", uint64(p[0])
		d.FullVUID = "VUID-VkDrawIndirectCommand-firstInstance-00501"
		if p[1] == 1 {
			v.Struct = "VkDrawIndexedIndirectCommand"
			d.FullVUID = "VUID-VkDrawIndexedIndirectCommand-firstInstance-00554"
		}
		d.Message = fmt.Sprintf("The firstInstance member of the %s structure is %d, but the drawIndirectFirstInstance feature is not enabled.",
			v.Struct, p[0])
	case CodeIndirectGroupCount:
		describeGroupCount(d, v, p)
	case CodeIndirectDrawCount:
		v.Field, v.Value, v.Limit, v.Skipped = "count", uint64(p[0]), uint64(p[1]), p[3]&IndirectSkipped != 0
		d.VUIDSuffix = "countBuffer-02717"
		d.Message = fmt.Sprintf("The count buffer holds %d, above maxDrawIndirectCount (%d); maxDrawCount is %d.", p[0], p[1], p[2])
		if v.Skipped {
			d.Message += fmt.Sprintf(" gpuav-dbg drew at most %d.", p[1])
		}
	case CodeIndirectBufferOverrun:
		describeOverrun(d, v, p)
	case CodeIndirectTraceRays:
		describeTraceRays(d, v, p)
	}
}

// groupCountVUIDs are the VUIDs of the group count limits, by kind and
// field.
var groupCountVUIDs = [3][4]string{
	GroupKindCompute: {"VUID-VkDispatchIndirectCommand-x-00417", "VUID-VkDispatchIndirectCommand-y-00418",
		"VUID-VkDispatchIndirectCommand-z-00419", ""},
	GroupKindTask: {"VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07322", "VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07323",
		"VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07324", "VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07325"},
	GroupKindMesh: {"VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07326", "VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07327",
		"VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07328", "VUID-VkDrawMeshTasksIndirectCommandEXT-TaskEXT-07329"},
}

func describeGroupCount(d *Description, v *IndirectValues, p [RecordParams]uint32) {
	field, kind := p[0]&0xff, p[0]>>8&0xff
	if field > FieldTotal || kind > GroupKindMesh {
		d.Message = fmt.Sprintf("group count record with field %d, kind %d", field, kind)
		return
	}
	v.Value, v.Limit, v.Groups = uint64(p[1])|uint64(p[2])<<32, uint64(p[3]), &[3]uint32{p[4], p[5], p[6]}
	d.FullVUID = groupCountVUIDs[kind][field]
	v.Struct = "VkDrawMeshTasksIndirectCommandEXT"
	names := [4]string{"groupCountX", "groupCountY", "groupCountZ", "groupCountX × groupCountY × groupCountZ"}
	limit := [3]string{"maxComputeWorkGroupCount", "maxTaskWorkGroupCount", "maxMeshWorkGroupCount"}[kind]
	if field == FieldTotal {
		limit = [3]string{"", "maxTaskWorkGroupTotalCount", "maxMeshWorkGroupTotalCount"}[kind]
	} else {
		limit += fmt.Sprintf("[%d]", field)
	}
	if kind == GroupKindCompute {
		v.Struct = "VkDispatchIndirectCommand"
		names = [4]string{"x", "y", "z", "x × y × z"}
	}
	v.Field = names[field]
	d.Message = fmt.Sprintf("The %s member of the %s structure is %d, above %s (%d).", v.Field, v.Struct, v.Value, limit, v.Limit)
	if kind == GroupKindCompute {
		d.Message += fmt.Sprintf(" The command was (%d, %d, %d).", p[4], p[5], p[6])
	}
	if v.Skipped = p[0]&GroupSkipped != 0; v.Skipped {
		d.Message += " gpuav-dbg dispatched no groups."
	}
}

// overrunVUIDs are the VUIDs of command ranges past the end of the
// indirect buffer: by action, for drawCount/count 1 and above 1, and for
// maxDrawCount.
var overrunVUIDs = map[string][3]string{
	"vkCmdDrawIndirect":                  {"drawCount-00487", "drawCount-00488", ""},
	"vkCmdDrawIndexedIndirect":           {"drawCount-00539", "drawCount-00540", ""},
	"vkCmdDrawMeshTasksIndirectEXT":      {"drawCount-07089", "drawCount-07090", ""},
	"vkCmdDrawIndirectCount":             {"countBuffer-03121", "countBuffer-03122", "maxDrawCount-03111"},
	"vkCmdDrawIndexedIndirectCount":      {"countBuffer-03153", "countBuffer-03154", "maxDrawCount-03143"},
	"vkCmdDrawMeshTasksIndirectCountEXT": {"countBuffer-07098", "countBuffer-07099", "maxDrawCount-07097"},
	"vkCmdDispatchIndirect":              {"offset-00407", "offset-00407", ""},
}

func describeOverrun(d *Description, v *IndirectValues, p [RecordParams]uint32) {
	which, flags := min(p[5]&0xff, OverrunOffset), p[5]>>8
	v.Count, v.Stride, v.Offset, v.CommandSize, v.BufferSize, v.Fit = p[0], p[1], p[2], p[3], p[4], p[6]
	v.Skipped = flags&IndirectSkipped != 0
	v.Value, v.Limit = uint64(p[0]), uint64(p[6])
	v.Field = [4]string{"drawCount", "maxDrawCount", "count", "offset"}[which]
	end := uint64(p[1])*(uint64(max(p[0], 1))-1) + uint64(p[2]) + uint64(p[3])
	d.vuid = func(action string) string {
		vs, ok := overrunVUIDs[action]
		if !ok {
			return ""
		}
		s := vs[1]
		switch {
		case which == OverrunMaxDrawCount:
			s = vs[2]
		case p[0] <= 1:
			s = vs[0]
		}
		if s == "" {
			return ""
		}
		return "VUID-" + action + "-" + s
	}
	switch which {
	case OverrunOffset:
		v.Value, v.Limit = uint64(p[2]), uint64(p[4])
		d.Message = fmt.Sprintf("The %d-byte command at offset %d is past the end of the %d-byte indirect buffer.", p[3], p[2], p[4])
	default:
		what := map[uint32]string{OverrunDrawCount: "drawCount", OverrunMaxDrawCount: "maxDrawCount",
			OverrunCountBuffer: "The count in the count buffer"}[which]
		if which != OverrunCountBuffer {
			what = "The " + what + " parameter"
		}
		d.Message = fmt.Sprintf("%s is %d: stride × (count - 1) + offset + size = %d × %d + %d + %d = %d is past the end of the %d-byte "+
			"indirect buffer, which holds %d such commands.", what, p[0], p[1], max(p[0], 1)-1, p[2], p[3], end, p[4], p[6])
	}
	if v.Skipped {
		if which == OverrunOffset {
			d.Message += " gpuav-dbg skipped the command."
		} else {
			d.Message += fmt.Sprintf(" gpuav-dbg executed only the %d that fit.", p[6])
		}
	}
}

func describeTraceRays(d *Description, v *IndirectValues, p [RecordParams]uint32) {
	field := min(p[0]&0xff, FieldTotal)
	v.Struct = "VkTraceRaysIndirectCommandKHR"
	if p[0]&TraceRays2 != 0 {
		v.Struct = "VkTraceRaysIndirectCommand2KHR"
	}
	v.Field = [4]string{"width", "height", "depth", "width × height × depth"}[field]
	v.Value, v.Limit, v.Groups, v.Skipped = uint64(p[1])|uint64(p[2])<<32, uint64(p[3]), &[3]uint32{p[4], p[5], p[6]}, true
	limit := fmt.Sprintf("maxComputeWorkGroupCount[%d] × maxComputeWorkGroupSize[%d]", field, field)
	if field == FieldTotal {
		limit = "maxRayDispatchInvocationCount"
	}
	d.FullVUID = "VUID-" + v.Struct + "-" + [4]string{"width-03638", "height-03639", "depth-03640", "width-03641"}[field]
	d.Message = fmt.Sprintf("The %s of the %s structure is %d, above %s (%d). The command was %d × %d × %d; gpuav-dbg traced no rays.",
		v.Field, v.Struct, v.Value, limit, min(v.Limit, math.MaxUint32), p[4], p[5], p[6])
}
