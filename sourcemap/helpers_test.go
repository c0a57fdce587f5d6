package sourcemap

import (
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

func compile(t testing.TB, name string, flags ...string) []uint32 {
	return shadertest.Compile(t, "testdata", name, append(flags, "--target-env", "vulkan1.1")...)
}

// nthOp returns the index of the n-th (from 0) instruction with opcode op.
func nthOp(t testing.TB, words []uint32, op spirv.Opcode, n int) int {
	t.Helper()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range insts {
		if in.Opcode() == op {
			if n == 0 {
				return i
			}
			n--
		}
	}
	t.Fatalf("no %v", op)
	return -1
}

// storeThrough returns the index of the first OpStore in the function
// named fn (OpName, mangling dropped) whose pointer is an OpAccessChain
// into the variable named base.
func storeThrough(t testing.TB, words []uint32, fn, base string) int {
	t.Helper()
	_, insts, err := spirv.ParseInstructions(words)
	if err != nil {
		t.Fatal(err)
	}
	names := map[uint32]string{}
	chains := map[uint32]uint32{} // access chain result -> base
	inFn := false
	for i, in := range insts {
		w := in.Words
		switch in.Opcode() {
		case spirv.OpName:
			names[w[1]], _ = spirv.DecodeString(w[2:])
		case spirv.OpFunction:
			inFn = functionName(names[w[2]]) == fn
		case spirv.OpAccessChain:
			chains[w[2]] = w[3]
		case spirv.OpStore:
			if inFn && names[chains[w[1]]] == base {
				return i
			}
		}
	}
	t.Fatalf("no store through %s in %s", base, fn)
	return -1
}
