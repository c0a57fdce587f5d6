package gpuav

import (
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestRuntimeArrayChecks: accesses through runtime descriptor arrays call
// gpuav_check_descriptor with their exact set, binding, length 0 and the
// enabled checks; the module passes spirv-val; with the three descriptor
// checks off, nothing is added.
func TestRuntimeArrayChecks(t *testing.T) {
	tests := []struct {
		name   string
		checks map[string]bool
		want   [][3]uint32 // set, binding, checks operand per call
		plain  int         // guarded accesses of the plain binding outb (element checks)
	}{
		{"all", allBut(CheckBufferOOB), [][3]uint32{{0, 3, 7}, {1, 5, 7}}, 3},
		{"oob only", map[string]bool{CheckDescriptorIndexOOB: true}, [][3]uint32{{0, 3, 1}, {1, 5, 1}}, 0},
		{"uninit only", map[string]bool{CheckDescriptorUninit: true}, [][3]uint32{{0, 3, 2}, {1, 5, 2}}, 3},
		{"off", map[string]bool{CheckRayQuery: true}, nil, 0},
	}
	for _, env := range []string{"vulkan1.1", "vulkan1.2", "vulkan1.3"} {
		w := compile(t, "runtime_array.comp", env)
		for _, tt := range tests {
			t.Run(env+"/"+tt.name, func(t *testing.T) {
				res, err := Instrument(w, Options{ShaderID: 9, DescriptorSet: 7, Checks: tt.checks, SizedElementChecks: true})
				if err != nil {
					t.Fatal(err)
				}
				if res.ChecksAdded != len(tt.want)+tt.plain {
					t.Fatalf("ChecksAdded = %d, want %d (warnings %q)", res.ChecksAdded, len(tt.want)+tt.plain, res.Warnings)
				}
				if len(tt.want) == 0 {
					return
				}
				validate(t, res.Words, env)
				got := checkCalls(t, res.Words)
				if len(got) != len(tt.want) {
					t.Fatalf("calls %v, want %v", got, tt.want)
				}
				for i := range got {
					if got[i] != tt.want[i] {
						t.Errorf("call %d: (set, binding, checks) = %v, want %v", i, got[i], tt.want[i])
					}
				}
			})
		}
	}
}

// checkCalls returns (set, binding, checks) of every call of
// gpuav_check_descriptor, in module order.
func checkCalls(t *testing.T, words []uint32) [][3]uint32 {
	t.Helper()
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		t.Fatal(err)
	}
	var fn uint32
	for _, f := range m.Functions {
		if strings.HasPrefix(m.FunctionName(f), "gpuav_check_descriptor") {
			fn = f.ID()
		}
	}
	if fn == 0 {
		var names []string
		for _, f := range m.Functions {
			names = append(names, m.FunctionName(f))
		}
		t.Fatalf("gpuav_check_descriptor not linked; functions %q", names)
	}
	var out [][3]uint32
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode() != spirv.OpFunctionCall || in.Words[3] != fn {
					continue
				}
				set, _ := m.ConstantValue(in.Words[4])
				binding, _ := m.ConstantValue(in.Words[5])
				length, _ := m.ConstantValue(in.Words[7])
				checks, _ := m.ConstantValue(in.Words[8])
				if length != 0 {
					t.Errorf("length operand %d, want 0 for a runtime array", length)
				}
				out = append(out, [3]uint32{set, binding, checks})
			}
		}
	}
	return out
}

func TestDescribeDescriptorState(t *testing.T) {
	tests := []struct {
		code    CheckCode
		p       [RecordParams]uint32
		check   string
		message string
	}{
		{CodeDescriptorUninitialized, [RecordParams]uint32{0, 3, 5, 8}, CheckDescriptorUninit,
			"(set = 0, binding = 3) Descriptor index 5 is uninitialized (never written)."},
		{CodeDescriptorDestroyed, [RecordParams]uint32{1, 2, 0, 4}, CheckDescriptorDestroyed,
			"(set = 1, binding = 2) Descriptor index 0 references a resource that was destroyed."},
		{CodeDescriptorIndexOOB, [RecordParams]uint32{0, 3, 9, 8}, CheckDescriptorIndexOOB,
			"(set = 0, binding = 3) Index of 9 used to index descriptor array of length 8."},
	}
	for _, tt := range tests {
		d := Describe(tt.code, tt.p)
		if d.Check != tt.check || d.Message != tt.message || !d.HasDescriptor || d.Set != tt.p[0] ||
			d.Binding != tt.p[1] || d.Index != tt.p[2] || d.Length != tt.p[3] {
			t.Errorf("Describe(%d) = %+v", tt.code, d)
		}
		want := "None-08114"
		if tt.code == CodeDescriptorIndexOOB {
			want = "None-10068"
		}
		if d.VUIDSuffix != want {
			t.Errorf("Describe(%d) VUID suffix %q, want %q", tt.code, d.VUIDSuffix, want)
		}
	}
}
