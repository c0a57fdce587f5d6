package gpuav

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// texelSite is what one guarded texel buffer access passes to the check
// functions: the descriptor, whether the index and coordinate are
// constants (and their values), and the report flags.
type texelSite struct {
	set, binding uint32
	index        int64 // -1: a dynamic index
	coord        int64 // -1: a dynamic coordinate
	flags        uint32
	guarded      spirv.Opcode // the first instruction of the guarded block
	access       spirv.Opcode // the guarded access
}

func (s texelSite) String() string {
	return fmt.Sprintf("(%d,%d) index %d coord %d flags %#x guards %v..%v", s.set, s.binding, s.index, s.coord, s.flags, s.guarded, s.access)
}

// texelSites lists, in module order, the texel checks of an instrumented
// module with what their guarded block holds.
func texelSites(t *testing.T, words []uint32) []texelSite {
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
	value := func(id uint32) int64 {
		if d := m.Def(id); d != nil && d.Opcode() == spirv.OpBitcast {
			id = d.Words[3]
		}
		if v, ok := m.ConstantValue(id); ok {
			return int64(v)
		}
		return -1
	}
	blocks := map[uint32]*spirv.Block{}
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			blocks[b.ID()] = b
		}
	}
	var sites []texelSite
	var flags []uint32
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for k, in := range b.Insts {
				if in.Opcode() != spirv.OpFunctionCall {
					continue
				}
				name := m.Name(in.Words[3])
				switch {
				case strings.HasPrefix(name, "gpuav_check_texel("):
					s := texelSite{set: konst(in.Words[4]), binding: konst(in.Words[5]), index: value(in.Words[6]), coord: value(in.Words[7])}
					// ... OpBranchConditional %ok %T %F ends the block.
					br := b.Insts[len(b.Insts)-1]
					if br.Opcode() != spirv.OpBranchConditional || k > len(b.Insts)-4 {
						t.Fatalf("check not followed by a branch")
					}
					tb := blocks[br.Words[2]]
					s.guarded = tb.Insts[0].Opcode()
					s.access = tb.Insts[len(tb.Insts)-2].Opcode()
					sites = append(sites, s)
				case strings.HasPrefix(name, "gpuav_report_texel_oob("):
					flags = append(flags, konst(in.Words[len(in.Words)-1]))
				}
			}
		}
	}
	if len(sites) != len(flags) {
		t.Fatalf("%d checks but %d reports", len(sites), len(flags))
	}
	for i := range sites {
		sites[i].flags = flags[i]
	}
	return sites
}

// TestInstrumentTexelBuffer: every texel buffer access of texel_buffer.comp
// (a uniform texel buffer fetch, a storage texel buffer load and store, an
// imageAtomicAdd, fetches from a sized and a runtime array) gets a check
// with its exact set, binding, index and coordinate; the atomic's texel
// pointer moves into the guarded block with it; the result passes
// spirv-val on every target.
func TestInstrumentTexelBuffer(t *testing.T) {
	const (
		u  = TexelUniform
		s  = TexelSigned
		w  = TexelWrite
		at = TexelWrite | TexelAtomic
	)
	want := []texelSite{
		{0, 0, 0, -1, u | s, spirv.OpImageFetch, spirv.OpImageFetch},         // texelFetch(utb, i)
		{0, 1, 0, -1, s, spirv.OpImageRead, spirv.OpImageRead},               // imageLoad(stb, i + 1)
		{0, 1, 0, -1, s | w, spirv.OpImageWrite, spirv.OpImageWrite},         // imageStore(stb, i + 2, ...)
		{0, 2, 0, -1, s | at, spirv.OpImageTexelPointer, spirv.OpAtomicIAdd}, // imageAtomicAdd(atb, int(o.k), 1u)
		{1, 0, -1, -1, u | s, spirv.OpImageFetch, spirv.OpImageFetch},        // texelFetch(arr[o.k & 3u], i)
		{1, 1, -1, 7, u | s, spirv.OpImageFetch, spirv.OpImageFetch},         // texelFetch(rt[o.k], 7)
	}
	for _, env := range []string{"vulkan1.1", "vulkan1.2", "vulkan1.3"} {
		t.Run(env, func(t *testing.T) {
			src := compile(t, "texel_buffer.comp", env)
			res, err := Instrument(src, Options{ShaderID: 5, DescriptorSet: 3, Checks: map[string]bool{CheckTexelBufferOOB: true}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			validate(t, res.Words, env)
			got := texelSites(t, res.Words)
			if res.ChecksAdded != len(want) || len(got) != len(want) {
				t.Fatalf("ChecksAdded %d, sites\n%v\nwant\n%v", res.ChecksAdded, got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("site %d: %v, want %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestInstrumentTexelBufferWithOthers: texel_buffer_oob on top of every
// other check (the descriptor checks guard the array accesses first) and
// with Options.Robust: valid modules, every texel access checked once,
// every record flagged TexelRobust. Shaders without texel buffers get no
// texel check.
func TestInstrumentTexelBufferWithOthers(t *testing.T) {
	tests := []struct {
		shader, env string
		texels      int
	}{
		{"texel_buffer.comp", "vulkan1.2", 6},
		{"texel_buffer.comp", "vulkan1.3", 6},
		{"oob_fragment.frag", "vulkan1.1", 0},
		{"runtime_array.comp", "vulkan1.2", 0},
		{"buffer_oob.comp", "vulkan1.3", 0},
	}
	for _, tt := range tests {
		t.Run(tt.shader+"/"+tt.env, func(t *testing.T) {
			w := compile(t, tt.shader, tt.env)
			without, err := Instrument(w, Options{ShaderID: 7, DescriptorSet: 7, Checks: allBut(CheckTexelBufferOOB)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Instrument(w, Options{ShaderID: 7, DescriptorSet: 7, Robust: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			validate(t, res.Words, tt.env)
			sites := texelSites(t, res.Words)
			if len(sites) != tt.texels || res.ChecksAdded != without.ChecksAdded+tt.texels {
				t.Errorf("%d texel checks, ChecksAdded %d (without texel_buffer_oob %d), want %d texel checks",
					len(sites), res.ChecksAdded, without.ChecksAdded, tt.texels)
			}
			for i, s := range sites {
				if s.flags&TexelRobust == 0 {
					t.Errorf("site %d: flags %#x without TexelRobust", i, s.flags)
				}
			}
		})
	}
}

// TestInstrumentTexelBufferOff: with the check off, texel_buffer.comp gets
// no texel check.
func TestInstrumentTexelBufferOff(t *testing.T) {
	res, err := Instrument(compile(t, "texel_buffer.comp", "vulkan1.2"), Options{Checks: allBut(CheckTexelBufferOOB)})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(texelSites(t, res.Words)); n != 0 {
		t.Errorf("%d texel checks with the check off", n)
	}
}

// TestDescribeTexelBufferOOB: the message, id, level and values of a
// texel_buffer_oob record, with a signed negative coordinate.
func TestDescribeTexelBufferOOB(t *testing.T) {
	tests := []struct {
		p       [RecordParams]uint32
		texel   int64
		msg     string
		warning bool
	}{
		{[RecordParams]uint32{0, 0, 0, 10, 8, TexelUniform | TexelSigned, 1}, 10,
			"(set = 0, binding = 0) Descriptor index 0 access out of bounds. Descriptor size is 8 texels and highest texel accessed was 10 (read of a uniform texel buffer).", false},
		{[RecordParams]uint32{1, 2, 3, 0xFFFFFFFF, 16, TexelWrite | TexelAtomic | TexelSigned, 4}, -1,
			"(set = 1, binding = 2) Descriptor index 3 access out of bounds. Descriptor size is 16 texels and highest texel accessed was -1 (atomic write of a storage texel buffer).", false},
		{[RecordParams]uint32{0, 1, 0, 0xFFFFFFFF, 16, TexelWrite | TexelRobust, 1}, 4294967295,
			"(set = 0, binding = 1) Descriptor index 0 access out of bounds. Descriptor size is 16 texels and highest texel accessed was 4294967295 (write of a storage texel buffer). The device enabled robustBufferAccess, so the access is defined (out-of-range reads return zero or in-range values, writes may be discarded), but it is probably not intended.", true},
	}
	for i, tt := range tests {
		d := Describe(CodeTexelBufferOOB, tt.p)
		if d.Check != CheckTexelBufferOOB || d.VUID("vkCmdDraw") != TexelVUID {
			t.Errorf("%d: check %q VUID %q", i, d.Check, d.VUID("vkCmdDraw"))
		}
		if d.Message != tt.msg {
			t.Errorf("%d: message\n%s\nwant\n%s", i, d.Message, tt.msg)
		}
		x := d.Texel
		if d.Warning != tt.warning || x == nil || x.Texel != tt.texel || x.Count != tt.p[4] || !d.HasDescriptor ||
			d.Set != tt.p[0] || d.Binding != tt.p[1] || d.Index != tt.p[2] || d.Length != tt.p[6] ||
			x.Write != (tt.p[5]&TexelWrite != 0) || x.Atomic != (tt.p[5]&TexelAtomic != 0) || x.Uniform != (tt.p[5]&TexelUniform != 0) {
			t.Errorf("%d: values %+v %+v", i, d, x)
		}
	}
}
