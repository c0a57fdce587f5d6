package gpuav

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// localLoadsModule is a compute shader whose main loads its local
// variables around stores: %s is a scalar only loaded and stored, %v a
// vector also written through an access chain (so never numbered), and
// %p a scalar passed to a call (escaped).
const localLoadsModule = `
OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpName %main "main"
OpName %s1 "s1"
OpName %s2 "s2"
OpName %v1 "v1"
OpName %v2 "v2"
OpName %p1 "p1"
OpName %p2 "p2"
OpName %s3 "s3"
OpName %s4 "s4"
OpName %a1 "a1"
OpName %a2 "a2"
OpName %s5 "s5"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%v2uint = OpTypeVector %uint 2
%pu = OpTypePointer Function %uint
%pv = OpTypePointer Function %v2uint
%fnp = OpTypeFunction %void %pu
%u0 = OpConstant %uint 0
%u1 = OpConstant %uint 1
%vc = OpConstantComposite %v2uint %u0 %u1
%f = OpFunction %void None %fnp
%fp = OpFunctionParameter %pu
%fb = OpLabel
OpReturn
OpFunctionEnd
%main = OpFunction %void None %fn
%entry = OpLabel
%s = OpVariable %pu Function
%v = OpVariable %pv Function
%p = OpVariable %pu Function
OpStore %s %u0
%s1 = OpLoad %uint %s
%s2 = OpLoad %uint %s
%v1 = OpLoad %v2uint %v
%p1 = OpLoad %uint %p
%c = OpFunctionCall %void %f %p
%p2 = OpLoad %uint %p
%vx = OpAccessChain %pu %v %u0
OpStore %vx %u1
%v2 = OpLoad %v2uint %v
OpStore %s %u1
%s3 = OpLoad %uint %s
%s4 = OpLoad %uint %s
%a1 = OpIAdd %uint %s3 %u1
%a2 = OpIAdd %uint %s4 %u1
OpBranch %next
%next = OpLabel
%s5 = OpLoad %uint %s
OpReturn
OpFunctionEnd
`

// TestLocalLoads walks localLoadsModule's main as the descriptor pass does
// and checks which loads sameValues makes one value: loads of %s with no
// store between them in one block (and arithmetic on them), nothing of
// %v (written through an access chain) or %p (passed to a call), and no
// load across a store or into the next block.
func TestLocalLoads(t *testing.T) {
	m := assembleModule(t, localLoadsModule)
	var main *spirv.Function
	for _, f := range m.Functions {
		if m.FunctionName(f) == "main" {
			main = f
		}
	}
	if main == nil {
		t.Fatal("no main")
	}
	v := newSameValues(m)
	var l localLoads
	l.begin(m, main)
	ids := map[string]uint32{}
	for _, b := range main.Blocks {
		l.newBlock()
		for _, in := range b.Insts {
			l.see(v, in)
			if n := m.Name(in.ResultID()); n != "" {
				ids[n] = in.ResultID()
			}
		}
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"s1", "s2", true},  // no store between
		{"s3", "s4", true},  // after the same store
		{"a1", "a2", true},  // s3 + 1 and s4 + 1
		{"s2", "s3", false}, // a store between
		{"s4", "s5", false}, // another block
		{"v1", "v2", false}, // written through an access chain
		{"p1", "p2", false}, // passed to a call
	} {
		if got := v.canon(ids[tc.a]) == v.canon(ids[tc.b]); got != tc.same || ids[tc.a] == 0 || ids[tc.b] == 0 {
			t.Errorf("%s and %s one value: %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}

// assembleModule assembles SPIR-V assembly text with spirv-as and parses it.
func assembleModule(t *testing.T, text string) *spirv.Module {
	t.Helper()
	dir := t.TempDir()
	src, bin := filepath.Join(dir, "m.spvasm"), filepath.Join(dir, "m.spv")
	if err := os.WriteFile(src, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("spirv-as", "--preserve-numeric-ids", src, "-o", bin).CombinedOutput(); err != nil {
		t.Fatalf("spirv-as: %v\n%s", err, out)
	}
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	words, err := spirv.WordsFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestSameValuesIDPastBound: an operand word the grammar cannot read as an
// id (an OpIAdd with an extra word, which Parse's id check does not see)
// holding an id far past the bound numbers as itself without growing the
// table of keys to it (it grew 4 bytes per id unit: 16 GiB here).
func TestSameValuesIDPastBound(t *testing.T) {
	for _, extra := range []uint32{5, 0x10000000, 0xFFFFFFF0} {
		m := assembleModule(t, localLoadsModule)
		var add *spirv.Instruction
		m.Walk(func(in *spirv.Instruction) {
			if in.Opcode() == spirv.OpIAdd && add == nil {
				add = in
			}
		})
		add.Words = append(slices.Clone(add.Words), extra)
		add.Words[0] = uint32(len(add.Words))<<16 | uint32(spirv.OpIAdd)
		v := newSameValues(m)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		k := v.key(add.ResultID(), 0)
		runtime.ReadMemStats(&after)
		if k == 0 || len(v.keys) > int(m.Header.Bound) || after.TotalAlloc-before.TotalAlloc > 1<<16 {
			t.Errorf("extra operand %#x: key %d, %d keys for a bound of %d, %d bytes allocated", extra, k, len(v.keys), m.Header.Bound, after.TotalAlloc-before.TotalAlloc)
		}
	}
}
