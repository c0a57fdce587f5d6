package sourcemap

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// BenchmarkIndex is the one-time cost per module.
func BenchmarkIndex(b *testing.B) {
	w := compile(b, "with_include.frag", "-gVS")
	b.SetBytes(int64(4 * len(w)))
	for i := 0; i < b.N; i++ {
		New(w)
	}
}

// BenchmarkLookup maps an instruction to its line after the index is built
// (the target is 10 µs).
func BenchmarkLookup(b *testing.B) {
	w := compile(b, "with_include.frag", "-g")
	m := New(w)
	inst := nthOp(b, w, spirv.OpImageSampleImplicitLod, 0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.Lookup(inst).Line == 0 {
			b.Fatal("no line")
		}
	}
}

// BenchmarkLookupInlined is the heaviest source-map lookup: a -gVS module
// whose call was inlined twice (function name, two call sites, context).
func BenchmarkLookupInlined(b *testing.B) {
	w := module{shader: "inline.comp", flags: []string{"-gVS"}, inline: true}.build(b)
	m := New(w)
	inst := storeThrough(b, w, "main", "outs")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(m.Lookup(inst).InlinedAt) != 2 {
			b.Fatal("no call sites")
		}
	}
}

// BenchmarkLookupNoDebugInfo is case 6 after the first lookup (which
// builds the printer): the disassembled instruction.
func BenchmarkLookupNoDebugInfo(b *testing.B) {
	w := compile(b, "oob_compute.comp")
	m := New(w)
	inst := nthOp(b, w, spirv.OpStore, 1)
	m.Lookup(inst)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.Lookup(inst).Text == "" {
			b.Fatal("no text")
		}
	}
}
