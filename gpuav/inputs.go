package gpuav

// Input buffers: two more storage buffers in the layer's descriptor set,
// one of each per command buffer, host-visible, written by the layer right
// before each submit and read (never written) by the check functions.
//
// Both start with the same two-word header:
//
//	| word | meaning                                                     |
//	|------|-------------------------------------------------------------|
//	| 0    | valid: 0 = absent (the check functions report nothing)      |
//	| 1    | count (action entries for binding 2, addresses for binding 3) |
//
// Binding DescStateBinding, the descriptor state (word offsets are from the
// start of the buffer; an offset of 0 means "none/unknown"):
//
//	| words                         | meaning                                        |
//	|-------------------------------|------------------------------------------------|
//	| 2 .. 2+count-1                | per action slot: offset of its bound-sets entry |
//	| bound-sets entry: 0           | N, the number of set indices                    |
//	|   1 .. N                      | per set index: offset of its set state block    |
//	| set state block: 0            | B, the number of bindings (highest + 1)         |
//	|   1+4b .. 4+4b                | binding b: descriptor type (VkDescriptorType,   |
//	|                               | DescTypeUnused when absent), array length        |
//	|                               | (variable count resolved), offset of elements,  |
//	|                               | floor (below)                                   |
//	| element                       | DescElemWords(type) words: resource id (0 never |
//	|                               | written, DescDestroyed destroyed); for buffers   |
//	|                               | the bound range in bytes (dynamic offsets       |
//	|                               | applied), for texel buffers the texel count     |
//
// A binding's floor summarises its elements for checks decided once per
// binding (docs/decisions/cheap-checks.md): for uniform and storage
// buffers the smallest bound range over the elements, an unwritten or
// destroyed element counting as 0; for other types 1 when every element is
// written and alive, else 0.
//
// Set state blocks are shared between the actions that bind the same set
// (with the same dynamic offsets) in one submit.
//
// After the per-action table, count more words: per action slot, the
// offset of its vertex table (0: none), which vertex_fetch_oob's check in
// the vertex shader reads (pass_vertex_fetch.go). The layer writes one for
// the draws whose vertex indices it cannot see (indexed and indirect
// draws); a draw it checks on the CPU has none. A vertex table:
//
//	| words                         | meaning                                         |
//	|-------------------------------|-------------------------------------------------|
//	| 0                             | N, the number of locations (highest + 1)        |
//	| 1+8l .. 8+8l                  | location l: VertexEntryWords words (below)      |
//
// A location's entry: the fetch index limit (an index at or past it
// fetches past the buffer; VertexNoLimit: not checked in the shader), the
// first byte index 0 fetches (bind offset + attribute offset), the end of
// the bound range, the binding's stride, the binding, the attribute's
// size in bytes, the record's Vertex* flags, and 1 when the binding is
// instance-rate (the index is then the instance index).
//
// Binding AddressBinding, the device-address table: after the header, count
// entries sorted by address, AddressEntryWords words each: address low,
// address high, size low, size high, of the live buffers whose device
// address the app asked for.
const (
	DescStateBinding = 2
	AddressBinding   = 3

	InputValidWord   = 0
	InputCountWord   = 1
	InputHeaderWords = 2

	// InputInitialBytes is the size of each input buffer of a new unit.
	InputInitialBytes = 64 * 1024

	// DescBindingWords is the size of one binding's entry in a set block.
	DescBindingWords = 4
	// DescTypeUnused marks a binding number the set layout does not have.
	DescTypeUnused = 0xFFFFFFFF
	// DescDestroyed is the element state of a descriptor whose resource
	// was destroyed.
	DescDestroyed = 0xFFFFFFFF

	AddressEntryWords = 4

	// VertexEntryWords is the size of one location's entry in a vertex
	// table, and Vertex* its words.
	VertexEntryWords = 8
	VertexLimit      = 0
	VertexBase       = 1
	VertexEnd        = 2
	VertexStride     = 3
	VertexBinding    = 4
	VertexSize       = 5
	VertexFlags      = 6
	VertexRate       = 7
	// VertexNoLimit is the limit of a location the shader does not check.
	VertexNoLimit = 0xFFFFFFFF
)

// DescElemWords returns the words one element of a binding of the given
// VkDescriptorType occupies in the descriptor state: 2 for buffers (id,
// range) and texel buffers (id, texel count), 1 otherwise.
func DescElemWords(vkType uint32) uint32 {
	switch vkType {
	case 4, 5, 6, 7, 8, 9: // texel buffers, uniform/storage (dynamic) buffers
		return 2
	}
	return 1
}

// InputConstants lists the constants above by the names the generated C
// header (layer/inputs_gen.h, GPUAVDBG_ prefix) and the GLSL (-D, GPUAV_
// prefix) use.
var InputConstants = []Constant{
	{"DESC_STATE_BINDING", DescStateBinding},
	{"ADDRESS_BINDING", AddressBinding},
	{"INPUT_VALID_WORD", InputValidWord},
	{"INPUT_COUNT_WORD", InputCountWord},
	{"INPUT_HEADER_WORDS", InputHeaderWords},
	{"INPUT_INITIAL_BYTES", InputInitialBytes},
	{"DESC_BINDING_WORDS", DescBindingWords},
	{"DESC_TYPE_UNUSED", DescTypeUnused},
	{"DESC_DESTROYED", DescDestroyed},
	{"ADDRESS_ENTRY_WORDS", AddressEntryWords},
	{"VERTEX_ENTRY_WORDS", VertexEntryWords},
	{"VERTEX_LIMIT", VertexLimit},
	{"VERTEX_BASE", VertexBase},
	{"VERTEX_END", VertexEnd},
	{"VERTEX_STRIDE", VertexStride},
	{"VERTEX_BINDING", VertexBinding},
	{"VERTEX_SIZE", VertexSize},
	{"VERTEX_FLAGS", VertexFlags},
	{"VERTEX_RATE", VertexRate},
	{"VERTEX_NO_LIMIT", VertexNoLimit},
	// The printf buffer (printf.go).
	{"PRINTF_BINDING", PrintfBinding},
	{"PRINTF_HEADER_WORDS", PrintfHeaderWords},
	{"PRINTF_LINE_HEADER_WORDS", PrintfLineHeaderWords},
	{"PRINTF_NO_ROOM", PrintfNoRoom},
}
