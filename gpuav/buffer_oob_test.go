package gpuav

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// bufSite is what one guarded buffer access passes to the check
// functions: the descriptor, the constant part of the offset, the strides
// of its dynamic parts (in order), the access size and the report flags.
type bufSite struct {
	set, binding uint32
	off          uint32
	strides      []uint32
	size, flags  uint32
}

func (s bufSite) String() string {
	return fmt.Sprintf("(%d,%d) off %d strides %v size %d flags %#x", s.set, s.binding, s.off, s.strides, s.size, s.flags)
}

// bufSites lists, in module order, the buffer checks of an instrumented
// module, reading the offset expression back from its instructions.
func bufSites(t *testing.T, words []uint32) []bufSite {
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
	var sites []bufSite
	checks := 0
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() != spirv.OpFunctionCall {
					continue
				}
				name := m.Name(in.Words[3])
				switch {
				case strings.HasPrefix(name, "gpuav_buffer_check("):
					checks++
				case strings.HasPrefix(name, "gpuav_report_buffer_check("):
					// shader, inst, stage, (code, range), set, binding, index, offset, size, length, flags
					s := bufSite{set: konst(in.Words[8]), binding: konst(in.Words[9]), size: konst(in.Words[12]),
						flags: konst(in.Words[14])}
					off := m.Def(in.Words[11])
					for off.Opcode() == spirv.OpFunctionCall {
						s.strides = append([]uint32{konst(off.Words[6])}, s.strides...)
						off = m.Def(off.Words[4])
					}
					if off.Opcode() != spirv.OpCompositeConstruct || konst(off.Words[4]) != 0 {
						t.Fatalf("offset starts with %v", off.Opcode())
					}
					s.off = konst(off.Words[3])
					sites = append(sites, s)
				}
			}
		}
	}
	if len(sites) != checks {
		t.Fatalf("%d checks but %d reports", checks, len(sites))
	}
	return sites
}

// TestInstrumentBufferOOB: every buffer access gets a check with the exact
// constant offset, dynamic strides and size of its layout (UBO std140,
// SSBO std430, struct members, vectors, column- and row-major matrices,
// runtime arrays of structs, arrays of blocks), and the result passes
// spirv-val on every target.
func TestInstrumentBufferOOB(t *testing.T) {
	const (
		u  = BufferUniform
		w  = BufferWrite
		at = BufferWrite | BufferAtomic
	)
	want := []bufSite{
		{0, 0, 0, nil, 4, u},            // params.n
		{0, 0, 16, nil, 16, u},          // params.color
		{0, 0, 32, []uint32{16}, 16, u}, // params.m[i]
		{0, 0, 64, []uint32{4}, 4, u},   // params.m[2][i]
		{0, 0, 96, []uint32{16}, 4, u},  // params.f[i]
		{0, 0, 164, nil, 20, u},         // params.rm[1], row-major
		{0, 1, 28, []uint32{32}, 4, w},  // data.items[i].w =
		{0, 1, 12, nil, 4, w},           // data.v.y =
		{0, 1, 0, nil, 4, at},           // atomicAdd(data.count)
		{0, 1, 16, []uint32{32}, 20, 0}, // data.items[i+1]
		{1, 2, 0, []uint32{4}, 4, w},    // many[i].x[tag] =
	}
	for _, env := range []string{"vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"} {
		t.Run(env, func(t *testing.T) {
			src := compile(t, "buffer_oob.comp", env)
			res, err := Instrument(src, Options{ShaderID: 5, DescriptorSet: 3, Checks: map[string]bool{CheckBufferOOB: true}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			validate(t, res.Words, env)
			got := bufSites(t, res.Words)
			if res.ChecksAdded != len(want) || len(got) != len(want) {
				t.Fatalf("ChecksAdded %d, sites\n%v\nwant\n%v", res.ChecksAdded, got, want)
			}
			for i := range got {
				if g, x := got[i], want[i]; g.set != x.set || g.binding != x.binding || g.off != x.off ||
					!slices.Equal(g.strides, x.strides) || g.size != x.size || g.flags != x.flags {
					t.Errorf("site %d: %v, want %v", i, g, x)
				}
			}
		})
	}
}

// TestInstrumentBufferOOBRobust: with Options.Robust every record carries
// BufferRobust.
func TestInstrumentBufferOOBRobust(t *testing.T) {
	src := compile(t, "buffer_oob.comp", "vulkan1.2")
	res, err := Instrument(src, Options{Robust: true, Checks: map[string]bool{CheckBufferOOB: true}})
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range bufSites(t, res.Words) {
		if s.flags&BufferRobust == 0 {
			t.Errorf("site %d: flags %#x without BufferRobust", i, s.flags)
		}
	}
}

// allBut returns every check on except the given ones.
func allBut(ids ...string) map[string]bool {
	m := map[string]bool{}
	for _, id := range AllChecks {
		m[id] = !slices.Contains(ids, id)
	}
	return m
}

// TestInstrumentBufferOOBWithOthers: buffer_oob on top of every other
// check yields valid modules, one buffer check per buffer access left
// after the descriptor checks (which clone the access they guard) in the
// precise variant. A descriptor guard whose index is decided at each
// action (a push constant: docs/decisions/action-facts.md) clones its
// access once more, for the fast variant, where the index is not
// checked: buffer_oob guards that clone too (fast: sites counted in
// ChecksAdded that the precise variant prunes).
func TestInstrumentBufferOOBWithOthers(t *testing.T) {
	tests := []struct {
		shader, env   string
		buffers, fast int // buffer checks
	}{
		{"oob_compute.comp", "vulkan1.0", 1, 1},
		{"oob_compute.comp", "vulkan1.3", 1, 1},
		{"oob_fragment.frag", "vulkan1.1", 0, 0}, // samplers only
		{"indexed_vertex.vert", "vulkan1.1", 2, 2},
		{"const_index.comp", "vulkan1.1", 2, 1},
		{"runtime_array.comp", "vulkan1.2", 4, 0},
		{"buffer_oob.comp", "vulkan1.3", 11, 1},
	}
	for _, tt := range tests {
		t.Run(tt.shader+"/"+tt.env, func(t *testing.T) {
			w := compile(t, tt.shader, tt.env)
			without, err := Instrument(w, Options{ShaderID: 7, DescriptorSet: 7, Checks: allBut(CheckBufferOOB)})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Instrument(w, Options{ShaderID: 7, DescriptorSet: 7})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			validate(t, res.Words, tt.env)
			if n := len(bufSites(t, res.Words)); n != tt.buffers || res.ChecksAdded != without.ChecksAdded+tt.buffers+tt.fast {
				t.Errorf("%d buffer checks, ChecksAdded %d (without buffer_oob %d), want %d buffer checks and %d more sites",
					n, res.ChecksAdded, without.ChecksAdded, tt.buffers, tt.fast)
			}
		})
	}
}

// TestDescribeBufferOOB: the message, VUID, level and values of a
// buffer_oob record.
func TestDescribeBufferOOB(t *testing.T) {
	tests := []struct {
		p       [RecordParams]uint32
		action  string
		vuid    string
		msg     string
		warning bool
	}{
		{[RecordParams]uint32{0, 1, 0, 16, 4, 4, BufferUniform | 1<<8}, "vkCmdDraw", "VUID-vkCmdDraw-uniformBuffers-06935",
			"(set = 0, binding = 1) Descriptor index 0 access out of bounds. Descriptor size is 4 and highest byte accessed was 19 (4-byte read at offset 16 of a uniform buffer).", false},
		{[RecordParams]uint32{2, 3, 5, 256, 16, 64, BufferWrite | 8<<8}, "vkCmdDispatch", "VUID-vkCmdDispatch-storageBuffers-06936",
			"(set = 2, binding = 3) Descriptor index 5 access out of bounds. Descriptor size is 64 and highest byte accessed was 271 (16-byte write at offset 256 of a storage buffer).", false},
		{[RecordParams]uint32{0, 0, 0, 0xFFFFFFFF, 4, 32, BufferWrite | BufferAtomic | BufferRobust | 1<<8}, "vkCmdDispatch", "VUID-vkCmdDispatch-storageBuffers-06936",
			"(set = 0, binding = 0) Descriptor index 0 access out of bounds. Descriptor size is 32 and highest byte accessed was 4294967298 (4-byte atomic write at an offset past 2^32 bytes of a storage buffer). The device enabled robustBufferAccess, so the access is defined (out-of-range reads return zero or in-range values, writes may be discarded), but it is probably not intended.", true},
	}
	for i, tt := range tests {
		d := Describe(CodeBufferOOB, tt.p)
		if d.Check != CheckBufferOOB || d.VUID(tt.action) != tt.vuid {
			t.Errorf("%d: check %q VUID %q, want %q", i, d.Check, d.VUID(tt.action), tt.vuid)
		}
		if d.Message != tt.msg {
			t.Errorf("%d: message\n%s\nwant\n%s", i, d.Message, tt.msg)
		}
		if d.Warning != tt.warning {
			t.Errorf("%d: warning %v", i, d.Warning)
		}
		b := d.Buffer
		if b == nil || b.Offset != tt.p[3] || b.Size != tt.p[4] || b.Range != tt.p[5] || !d.HasDescriptor ||
			d.Set != tt.p[0] || d.Binding != tt.p[1] || d.Index != tt.p[2] || d.Length != tt.p[6]>>8 {
			t.Errorf("%d: values %+v %+v", i, d, b)
		}
	}
}

// bufferLookups counts the per-binding lookups and the per-access checks
// of an instrumented module, and lists its facts as (set, binding, length,
// bound), function by function.
func bufferLookups(t *testing.T, words []uint32) (bindings, checks int, facts [][4]uint32) {
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
	for _, f := range m.Functions {
		for bi, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() != spirv.OpFunctionCall {
					continue
				}
				switch name := m.Name(in.Words[3]); {
				case strings.HasPrefix(name, "gpuav_buffer_binding("):
					bindings++
				case strings.HasPrefix(name, "gpuav_buffer_check("):
					checks++
				case strings.HasPrefix(name, "gpuav_binding_fact("):
					if bi != 0 {
						t.Errorf("a fact outside the entry block")
					}
					facts = append(facts, [4]uint32{konst(in.Words[4]), konst(in.Words[5]), konst(in.Words[6]), konst(in.Words[7])})
				}
			}
		}
	}
	return bindings, checks, facts
}

// TestInstrumentBufferOOBHoist: the per-binding lookups sit in the entry
// blocks, once per function and binding: main's 40 reads of u, b[i & 3u]
// and out_ (3), helper's u (1). Every access keeps its check (45); none is
// in a loop, so none runs behind a fact (straight-line code keeps one plain
// check per access: fewer blocks for the driver to compile).
func TestInstrumentBufferOOBHoist(t *testing.T) {
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		t.Run(env, func(t *testing.T) {
			src := compile(t, "buffer_oob_hoist.comp", env)
			for _, checks := range []map[string]bool{{CheckBufferOOB: true}, nil} {
				res, err := Instrument(src, Options{ShaderID: 5, DescriptorSet: 3, Checks: checks, SizedElementChecks: true})
				if err != nil {
					t.Fatal(err)
				}
				validate(t, res.Words, env)
				bindings, n, facts := bufferLookups(t, res.Words)
				if bindings != 4 || n != 45 || len(bufSites(t, res.Words)) != 45 || len(facts) != 0 {
					t.Errorf("checks %v: %d binding lookups, %d checks, facts %v; want 4, 45, none", checks, bindings, n, facts)
				}
			}
		})
	}
}

// TestInstrumentBufferOOBFacts: the bounded accesses in a loop run behind
// their binding's fact, one per binding in the entry block with the
// largest end the function's bounded accesses reach: u up to byte 528
// (u.v[i * 4u]: the loop's compare bounds i by 7, but the analysis bounds
// i * 4u through i's value, 8 after its last increment; u.v[g & 31u]
// reaches 512), b up to 32 (b[i & 3u].x[i], a load and a store, i ≤ 7),
// as many elements as the shader declares (1 and 4).
// u.v[0] outside the loop and out_.o[g] (g unbounded) have none. Every
// access keeps its check (6).
func TestInstrumentBufferOOBFacts(t *testing.T) {
	want := [][4]uint32{{0, 0, 1, 528}, {0, 1, 4, 32}}
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		t.Run(env, func(t *testing.T) {
			src := compile(t, "buffer_oob_fact.comp", env)
			res, err := Instrument(src, Options{ShaderID: 5, DescriptorSet: 3, SizedElementChecks: true})
			if err != nil {
				t.Fatal(err)
			}
			validate(t, res.Words, env)
			_, n, facts := bufferLookups(t, res.Words)
			slices.SortFunc(facts, func(a, b [4]uint32) int { return int(a[1]) - int(b[1]) })
			if n != 6 || !slices.Equal(facts, want) {
				t.Errorf("%d checks, facts %v; want 6, %v", n, facts, want)
			}
			if got := countOps(t, res.Words, "OpSelectionMerge"); got < 4*2+2 {
				t.Errorf("%d selections, want a fact and a check for each of the 4 accesses behind facts, and 2 plain checks", got)
			}
		})
	}
}
