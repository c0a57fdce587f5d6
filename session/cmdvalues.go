package session

import (
	"fmt"

	"github.com/gpuav-dbg/gpuav-dbg/gpuav"
)

// where names the group's site: its shader and instruction, or for a
// layer record (no shader) the layer's site within the command
// (gpuav.LayerSite), stable across runs.
func (g *ErrorGroup) where() string { return where(g.Shader.ID, g.Instruction) }

func where(shader, instruction uint32) string {
	if shader == 0 {
		return fmt.Sprintf("layer site %d", instruction)
	}
	return fmt.Sprintf("shader %d instruction %d", shader, instruction)
}

// IndexBuffer is an index_buffer_oob error: an indexed draw whose
// firstIndex + indexCount runs past its bound index buffer.
type IndexBuffer struct {
	FirstIndex uint32 `json:"first_index"`
	IndexCount uint32 `json:"index_count"`
	// IndexSize is bytes per index; Offset the index buffer's bind offset;
	// End the end of the bound range in bytes; Available the indices it
	// holds.
	IndexSize uint32 `json:"index_size"`
	Offset    uint32 `json:"offset"`
	End       uint32 `json:"end"`
	Available uint32 `json:"available"`
	// Indirect says the counts came from a VkDrawIndexedIndirectCommand
	// (the group's draw_index coordinate says which).
	Indirect bool `json:"indirect,omitempty"`
	// Skipped says gpuav-dbg did not let the draw execute.
	Skipped bool `json:"skipped"`
	Robust  bool `json:"robust,omitempty"`
}

// VertexFetch is a vertex_fetch_oob error: a vertex attribute fetched
// past the end of its bound vertex buffer (the group's coordinates are
// the vertex and instance index).
type VertexFetch struct {
	Location uint32 `json:"location"`
	Binding  uint32 `json:"binding"`
	// First is the first byte read (from the buffer's start), Size the
	// bytes read, End the end of the bound range.
	First uint32 `json:"first_byte"`
	Size  uint32 `json:"size"`
	End   uint32 `json:"end"`
	// Index is the vertex or instance index of the fetch (Rate says which).
	Index   uint32 `json:"index"`
	Rate    string `json:"rate"`
	Stride  uint32 `json:"stride"`
	Skipped bool   `json:"skipped"`
	Robust  bool   `json:"robust,omitempty"`
}

// Indirect is an indirect_command error: the field of an indirect command
// (or a count parameter) at fault, its value and its limit.
type Indirect struct {
	// Struct is the command structure ("VkDispatchIndirectCommand"), or
	// "" for a parameter of the call.
	Struct string `json:"struct,omitempty"`
	Field  string `json:"field"`
	Value  uint64 `json:"value"`
	Limit  uint64 `json:"limit,omitempty"`
	// Groups are a group-count or trace-rays command's three values.
	Groups *[3]uint32 `json:"groups,omitempty"`
	// Count, Stride, Offset, CommandSize, BufferSize and Fit: a command
	// range past the end of its buffer (Fit commands fit).
	Count       uint32 `json:"count,omitempty"`
	Stride      uint32 `json:"stride,omitempty"`
	Offset      uint32 `json:"offset,omitempty"`
	CommandSize uint32 `json:"command_size,omitempty"`
	BufferSize  uint32 `json:"buffer_size,omitempty"`
	Fit         uint32 `json:"fit,omitempty"`
	// Skipped says gpuav-dbg made the command harmless before it ran.
	Skipped bool `json:"skipped"`
}

func indexBufferOf(v *gpuav.IndexValues) *IndexBuffer {
	if v == nil {
		return nil
	}
	return &IndexBuffer{FirstIndex: v.FirstIndex, IndexCount: v.IndexCount, IndexSize: v.IndexSize, Offset: v.Offset,
		End: v.End, Available: v.Available, Indirect: v.Indirect, Skipped: v.Skipped, Robust: v.Robust}
}

func vertexFetchOf(v *gpuav.VertexValues) *VertexFetch {
	if v == nil {
		return nil
	}
	rate := "vertex"
	if v.InstanceRate {
		rate = "instance"
	}
	return &VertexFetch{Location: v.Location, Binding: v.Binding, First: v.First, Size: v.Size, End: v.End,
		Index: v.Index, Rate: rate, Stride: v.Stride, Skipped: v.Skipped, Robust: v.Robust}
}

func indirectOf(v *gpuav.IndirectValues) *Indirect {
	if v == nil {
		return nil
	}
	return &Indirect{Struct: v.Struct, Field: v.Field, Value: v.Value, Limit: v.Limit, Groups: v.Groups,
		Count: v.Count, Stride: v.Stride, Offset: v.Offset, CommandSize: v.CommandSize, BufferSize: v.BufferSize,
		Fit: v.Fit, Skipped: v.Skipped}
}
