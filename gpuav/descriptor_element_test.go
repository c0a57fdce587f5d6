package gpuav

import (
	"slices"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// Two accesses through the same descriptor variable and index value in
// one block: the second branches on the first guard's result and reports
// nothing ("reuse" in testdata/shaders/same_index_*.comp's EXPECT
// comments, TestExpectations).

// TestElementChecks: with descriptor_uninitialized or _destroyed on, plain
// bindings and sized arrays get the element check: one gpuav_desc_binding
// lookup per binding (tex, texs, u) in the entry block, one
// gpuav_desc_element per (variable, index) in a block (tex twice: one;
// texs[1], texs[2], texs[pc.i]: three; u: one) with the checks operand and
// the shader's length, one report per element check. texs[pc.i] carries
// the index bit (1) when descriptor_index_oob is on, the constant indices
// do not (provably in bounds). With those two checks off only texs[pc.i]
// is guarded, by the inline compare.
func TestElementChecks(t *testing.T) {
	tests := []struct {
		name    string
		checks  map[string]bool
		added   int
		want    [][2]uint32 // gpuav_desc_element: (length, checks operand)
		inline  int         // inline index compares
		reports int
		// unsized: Options.SizedElementChecks off (the default): sized
		// arrays and plain bindings get only the index compare.
		unsized bool
	}{
		{"all", allBut(CheckBufferOOB), 6, [][2]uint32{{1, 6}, {3, 6}, {3, 6}, {3, 7}, {1, 6}}, 0, 5, false},
		{"uninit", map[string]bool{CheckDescriptorUninit: true}, 6, [][2]uint32{{1, 2}, {3, 2}, {3, 2}, {3, 2}, {1, 2}}, 0, 5, false},
		{"destroyed+oob", map[string]bool{CheckDescriptorDestroyed: true, CheckDescriptorIndexOOB: true}, 6,
			[][2]uint32{{1, 4}, {3, 4}, {3, 4}, {3, 5}, {1, 4}}, 0, 5, false},
		{"oob only", indexOnly, 1, nil, 1, 1, false},
		{"all, sized element checks off", allBut(CheckBufferOOB), 1, nil, 1, 1, true},
	}
	for _, env := range []string{"vulkan1.0", "vulkan1.3"} {
		w := compile(t, "element_checks.frag", env)
		for _, tt := range tests {
			t.Run(env+"/"+tt.name, func(t *testing.T) {
				res, err := Instrument(w, Options{ShaderID: 2, DescriptorSet: 7, Checks: tt.checks, SizedElementChecks: !tt.unsized})
				if err != nil {
					t.Fatal(err)
				}
				if res.ChecksAdded != tt.added || len(res.Warnings) > 0 {
					t.Fatalf("ChecksAdded = %d, want %d (warnings %q)", res.ChecksAdded, tt.added, res.Warnings)
				}
				validate(t, res.Words, env)
				m := parse(t, res.Words)
				var lookups [][2]uint32
				var elems [][2]uint32
				for _, f := range m.Functions {
					for bi, b := range f.Blocks {
						for _, in := range b.Insts {
							if in.Opcode() != spirv.OpFunctionCall {
								continue
							}
							switch name := m.Name(in.Words[3]); {
							case strings.HasPrefix(name, "gpuav_desc_binding("):
								if bi != 0 || !strings.HasPrefix(m.FunctionName(f), "main") {
									t.Errorf("binding lookup in block %d of %s, want main's entry", bi, m.FunctionName(f))
								}
								set, _ := m.ConstantValue(in.Words[4])
								binding, _ := m.ConstantValue(in.Words[5])
								lookups = append(lookups, [2]uint32{set, binding})
							case strings.HasPrefix(name, "gpuav_desc_element("):
								length, _ := m.ConstantValue(in.Words[6])
								checks, _ := m.ConstantValue(in.Words[7])
								elems = append(elems, [2]uint32{length, checks})
							}
						}
					}
				}
				wantLookups := [][2]uint32{{0, 0}, {0, 1}, {1, 2}}
				if tt.want == nil {
					wantLookups = nil
				}
				if !slices.Equal(lookups, wantLookups) {
					t.Errorf("binding lookups (set, binding) %v, want %v", lookups, wantLookups)
				}
				if !slices.Equal(elems, tt.want) {
					t.Errorf("element checks (length, checks) %v, want %v", elems, tt.want)
				}
				if got := countOps(t, res.Words, "OpULessThan"); got != tt.inline {
					t.Errorf("%d inline compares, want %d", got, tt.inline)
				}
				name := "gpuav_report_descriptor("
				if tt.want == nil {
					name = "gpuav_report_descriptor_index"
				}
				if got := reportCalls(t, res.Words, name); got != tt.reports {
					t.Errorf("%d calls of %s, want %d", got, name, tt.reports)
				}
			})
		}
	}
}

func parse(t *testing.T, words []uint32) *spirv.Module {
	t.Helper()
	m, err := spirv.Parse(append([]uint32(nil), words...))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// countOps counts the instructions of opcode op (its name) in the shader's
// own functions (not the linked gpuav_ library).
func countOps(t *testing.T, words []uint32, op string) int {
	t.Helper()
	m := parse(t, words)
	n := 0
	for _, f := range m.Functions {
		if strings.HasPrefix(m.FunctionName(f), "gpuav_") {
			continue
		}
		for _, b := range f.Blocks {
			for _, in := range b.Insts {
				if in.Opcode().String() == op {
					n++
				}
			}
		}
	}
	return n
}
