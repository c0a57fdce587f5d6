package spirv

// The opcode, operand-kind and extended-instruction-set tables in
// tables_gen.go are generated from the Khronos grammar files that Debian's
// spirv-headers package installs (and the registry's spir-v.xml, for tool
// names). Regenerate them with `go generate ./spirv` after updating the
// grammar; the output is committed, so a build needs neither the generator
// nor the grammar. TestGeneratedUpToDate checks that the committed tables
// are what the installed grammar gives. internal/gen/supplement.json adds
// what older installed grammars lack (SPV_KHR_cooperative_matrix, which
// Debian 12's spirv-headers predate); gen merges only what the installed
// grammar does not already have.
//
// Names in the generated code:
//
//   - Opcodes are named as in the grammar (OpLoad). Of aliases sharing a
//     value (OpDecorateString, OpDecorateStringGOOGLE) all are constants, but
//     the table and Opcode.String hold the first in the grammar.
//   - Operand kinds are Kind<kind> (KindIdRef, KindImageOperands); the kinds
//     that extended instruction sets define are prefixed by the set
//     (KindShaderDebugInfoDebugInfoFlags, KindOpenCLDebugInfo100DebugInfoFlags).
//   - Every value or bit enum of the core grammar is a uint32 type named like
//     the kind, with constants <Kind><Enumerant>: DecorationBinding,
//     BuiltInFragCoord, Dim1D, and for bit enums the mask bits and the 0
//     value: SelectionControlNone (not SelectionControlMaskNone),
//     ImageOperandsBias, MemorySemanticsAcquire.
//   - Extended instruction numbers are uint32 constants for the sets the
//     project uses in code: GLSLstd450<Name>, ShaderDebugInfo<Name>
//     (NonSemantic.Shader.DebugInfo.100) and DebugPrintf<Name>.
//   - Sets are ExtInstSet<Name> variables, all listed in ExtInstSets.

//go:generate go run ./internal/gen -dir /usr/include/spirv/unified1 -out tables_gen.go
