// Package spirv holds SPIR-V modules as data: parsing and encoding words,
// opcode and operand tables generated from the Khronos grammar, a module
// model (logical-layout sections, types and constants, functions and blocks,
// decorations, entry points), id allocation and a printer.
//
// It knows nothing of GPU-assisted validation: passes that instrument a
// module live in package gpuav and use this package's model.
package spirv
