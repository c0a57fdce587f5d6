package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// texelPointerGuard is one descriptor_index_oob guard of an atomic through
// an OpImageTexelPointer: what its report passes and what its guarded
// block holds.
type texelPointerGuard struct {
	set, binding uint32
	index        spirv.Opcode // the instruction making the reported index
	length       uint32
	guarded      []spirv.Opcode // the guarded block, without its branch
}

// texelPointerGuards lists, in module order, the descriptor index guards
// of an instrumented module.
func texelPointerGuards(t *testing.T, words []uint32) []texelPointerGuard {
	t.Helper()
	m, err := spirv.Parse(words)
	if err != nil {
		t.Fatal(err)
	}
	konst := func(id uint32) uint32 {
		v, ok := m.ConstantValue(id)
		if !ok {
			t.Fatalf("%%%d is not a constant", id)
		}
		return v
	}
	blocks := map[uint32]*spirv.Block{}
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			blocks[b.ID()] = b
		}
	}
	var out []texelPointerGuard
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			br := b.Insts[len(b.Insts)-1]
			if br.Opcode() != spirv.OpBranchConditional {
				continue
			}
			fb, tb := blocks[br.Words[3]], blocks[br.Words[2]]
			for _, in := range fb.Insts {
				if in.Opcode() != spirv.OpFunctionCall || !strings.HasPrefix(m.Name(in.Words[3]), "gpuav_report_descriptor_index(") {
					continue
				}
				n := len(in.Words)
				g := texelPointerGuard{set: konst(in.Words[n-4]), binding: konst(in.Words[n-3]), length: konst(in.Words[n-1])}
				if d := m.Def(in.Words[n-2]); d != nil {
					g.index = d.Opcode()
				}
				for _, x := range tb.Insts[:len(tb.Insts)-1] {
					g.guarded = append(g.guarded, x.Opcode())
				}
				out = append(out, g)
			}
		}
	}
	return out
}

// TestInstrumentTexelPointerIndex: the atomics of texel_pointer_array.comp
// through OpImageTexelPointer into imgs[pc.i] (uimage2D[4]) and tbs[pc.j]
// (uimageBuffer[3], int index bitcast) are guarded by descriptor_index_oob
// with set 0, their binding and the array length, the texel pointer moved
// into the guarded block next to its atomic; imgs[2] needs no check. The
// result passes spirv-val on Vulkan 1.1-1.3, also with texel_buffer_oob on
// (its check of tbs[pc.j] nested inside the index guard).
func TestInstrumentTexelPointerIndex(t *testing.T) {
	want := []texelPointerGuard{
		{0, 0, spirv.OpLoad, 4, []spirv.Opcode{spirv.OpImageTexelPointer, spirv.OpAtomicIAdd}},
		{0, 1, spirv.OpBitcast, 3, []spirv.Opcode{spirv.OpImageTexelPointer, spirv.OpAtomicUMax}},
	}
	for _, env := range []string{"vulkan1.1", "vulkan1.2", "vulkan1.3"} {
		t.Run(env, func(t *testing.T) {
			src := compile(t, "texel_pointer_array.comp", env)
			res, err := Instrument(src, Options{ShaderID: 5, DescriptorSet: 3, Checks: map[string]bool{CheckDescriptorIndexOOB: true}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			validate(t, res.Words, env)
			got := texelPointerGuards(t, res.Words)
			if res.ChecksAdded != len(want) || len(got) != len(want) {
				t.Fatalf("ChecksAdded %d, guards\n%v\nwant\n%v", res.ChecksAdded, got, want)
			}
			for i := range got {
				if got[i].set != want[i].set || got[i].binding != want[i].binding || got[i].index != want[i].index ||
					got[i].length != want[i].length || strings.Join(opNames(got[i].guarded), " ") != strings.Join(opNames(want[i].guarded), " ") {
					t.Errorf("guard %d: %+v, want %+v", i, got[i], want[i])
				}
			}

			both, err := Instrument(src, Options{ShaderID: 5, DescriptorSet: 3, Checks: map[string]bool{CheckDescriptorIndexOOB: true, CheckTexelBufferOOB: true}})
			if err != nil {
				t.Fatal(err)
			}
			if len(both.Warnings) > 0 {
				t.Errorf("with texel_buffer_oob, warnings: %s", strings.Join(both.Warnings, "; "))
			}
			validate(t, both.Words, env)
			// The descriptor index from a push constant is decided at each
			// action: its access is cloned for the fast variant too, and
			// that clone's texel check is a site (4) that the precise
			// variant prunes.
			if n := len(texelSites(t, both.Words)); both.ChecksAdded != 4 || n != 1 {
				t.Errorf("with texel_buffer_oob: ChecksAdded %d, texel checks %d, want 4 and 1", both.ChecksAdded, n)
			}
		})
	}
}

func opNames(ops []spirv.Opcode) []string {
	s := make([]string, len(ops))
	for i, op := range ops {
		s[i] = op.String()
	}
	return s
}
