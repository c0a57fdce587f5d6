package spirv

// The opcode, operand-kind and extended-instruction-set tables in
// tables_gen.go are generated from the Khronos grammar files that Debian's
// spirv-headers package installs. Regenerate them with `go generate
// ./spirv` after updating the grammar; the output is committed, so a build
// needs neither the generator nor the grammar.

//go:generate go run ./internal/gen -dir /usr/include/spirv/unified1 -out tables_gen.go
