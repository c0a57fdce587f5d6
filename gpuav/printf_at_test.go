package gpuav

import (
	"math"
	"slices"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestStageCoordsOf: the filter's map of each stage's words names the keys
// EachStageCoord decodes, in its order, from the same words, as floats
// where it decodes floats.
func TestStageCoordsOf(t *testing.T) {
	w := [3]uint32{0x3f800001, 0x40000003, 0x40400005}
	for model := uint32(0); model <= ModelCallable; model++ {
		var got []stageCoord
		EachStageCoord(model, w, func(key string, n int, v [3]float64) {
			first := 0
			for _, c := range got {
				first += c.n
			}
			float := v[0] == float64(math.Float32frombits(w[first]))
			for i := range n {
				if want := float64(w[first+i]); float {
					want = float64(math.Float32frombits(w[first+i]))
					if v[i] != want {
						t.Errorf("model %d %s[%d] = %v, want %v", model, key, i, v[i], want)
					}
				} else if v[i] != want {
					t.Errorf("model %d %s[%d] = %v, want %v", model, key, i, v[i], want)
				}
			}
			got = append(got, stageCoord{key, first, n, float})
		})
		if want := stageCoordsOf(model); !slices.Equal(got, want) && !(want == nil && got[0].key == "words") {
			t.Errorf("model %d: EachStageCoord %+v, stageCoordsOf %+v", model, got, want)
		}
	}
}

// TestPrintfAtStageTests: the comparisons a filter makes on each stage's
// words: a pixel's integer parts, a frag_coord's exact float bits, an
// invocation's three integers; none for a stage it does not name; no line
// at all for a value no word holds.
func TestPrintfAtStageTests(t *testing.T) {
	tests := []struct {
		filter   string
		model    uint32
		want     []wordTest
		possible bool
	}{
		{"", ModelFragment, nil, true},
		{"pixel=12,7", ModelFragment, []wordTest{{0, 12, true}, {1, 7, true}}, true},
		{"pixel=12,7", ModelGLCompute, nil, true},
		{"frag_coord=12.5,7.5", ModelFragment, []wordTest{{0, math.Float32bits(12.5), false}, {1, math.Float32bits(7.5), false}}, true},
		{"frag_coord=0.1,7.5", ModelFragment, nil, false},
		{"invocation=3,1,0 pixel=1,1", ModelGLCompute, []wordTest{{0, 3, false}, {1, 1, false}, {2, 0, false}}, true},
		{"invocation=3,1,0", ModelMeshEXT, []wordTest{{0, 3, false}, {1, 1, false}, {2, 0, false}}, true},
		{"invocation=3.5,1,0", ModelGLCompute, nil, false},
		{"invocation=-1,1,0", ModelGLCompute, nil, false},
		{"vertex=5 instance=2", ModelVertex, []wordTest{{0, 5, false}, {1, 2, false}}, true},
		{"instance=2", ModelVertex, []wordTest{{1, 2, false}}, true},
		{"primitive=9", ModelTessellationEvaluation, []wordTest{{0, 9, false}}, true},
		{"primitive=9", ModelGeometry, []wordTest{{0, 9, false}}, true},
		{"launch=4,5,6", ModelClosestHit, []wordTest{{0, 4, false}, {1, 5, false}, {2, 6, false}}, true},
		{"launch=4,5,6", ModelFragment, nil, true},
	}
	for _, tc := range tests {
		f, err := ParsePrintfAt(tc.filter)
		if err != nil {
			t.Fatalf("%q: %v", tc.filter, err)
		}
		got, possible := f.stageTests(tc.model)
		if !slices.Equal(got, tc.want) || possible != tc.possible {
			t.Errorf("%q on model %d: %+v %v, want %+v %v", tc.filter, tc.model, got, possible, tc.want, tc.possible)
		}
	}
}

// TestPrintfAtInPass: a filter naming the shader's stage adds its
// comparisons and a select of the line's size to each call, and the module
// validates; one naming another stage leaves the module as without a
// filter; one no invocation passes makes every call's size 0.
func TestPrintfAtInPass(t *testing.T) {
	frag := shadertest.Compile(t, "../e2e/testdata/checks", "printf.frag", "-g", "--target-env", "vulkan1.2")
	instr := func(filter string) []uint32 {
		t.Helper()
		at, err := ParsePrintfAt(filter)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Instrument(frag, Options{ShaderID: 7, DescriptorSet: 3, Checks: map[string]bool{}, Printf: true, PrintfAt: at})
		if err != nil || len(res.Printf) != 1 {
			t.Fatalf("%q: %d sites, %v", filter, len(res.Printf), err)
		}
		checkNoPrintf(t, res.Words, "vulkan1.2")
		return res.Words
	}
	count := func(words []uint32, op spirv.Opcode) int {
		m, err := spirv.Parse(words)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		m.Walk(func(in *spirv.Instruction) {
			if in.Opcode() == op {
				n++
			}
		})
		return n
	}
	plain := instr("")
	pixel := instr("pixel=12,7")
	if d := count(pixel, spirv.OpConvertFToU) - count(plain, spirv.OpConvertFToU); d != 2 {
		t.Errorf("pixel=12,7 adds %d OpConvertFToU, want 2", d)
	}
	if d := count(pixel, spirv.OpSelect) - count(plain, spirv.OpSelect); d != 1 {
		t.Errorf("pixel=12,7 adds %d OpSelect, want 1", d)
	}
	if other := instr("invocation=1,2,3 vertex=4"); !slices.Equal(other, plain) {
		t.Errorf("a filter of other stages changed the fragment shader's instrumentation")
	}
	// gpuav_printf_begin is the only call of four arguments: its third
	// is the line's size.
	m, err := spirv.Parse(instr("frag_coord=0.1,0.5"))
	if err != nil {
		t.Fatal(err)
	}
	begins := 0
	m.Walk(func(in *spirv.Instruction) {
		if in.Opcode() == spirv.OpFunctionCall && len(in.Words) == 8 {
			begins++
			if v, ok := m.ConstantValue(in.Words[6]); !ok || v != 0 {
				t.Errorf("a filter no pixel passes: the line's size is %d (constant %v), want 0", v, ok)
			}
		}
	})
	if begins != 1 {
		t.Errorf("%d calls of gpuav_printf_begin, want 1", begins)
	}
}
