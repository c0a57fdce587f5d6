package gpuav

import (
	"fmt"
	"math"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/internal/shadertest"
	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestBoundFloatIndices checks the clamp each float-to-integer conversion
// of testdata/shaders/safe_float.frag gets, by source line (the accesses
// these make safe are its EXPECT lines, TestExpectations).
func TestBoundFloatIndices(t *testing.T) {
	want := map[int]string{
		13: "UMin 3",     // fract(x) * 3.0: [0, 3]
		14: "UMin 4",     // fract(x) * 4.0: fract may be 1.0
		15: "SClamp 0 3", // int(clamp(y, 0.0, 3.0))
		17: "UMin 3",     // min(y, 3.5): 3, whatever y is
		19: "UMin 3",     // floor(fract(y) * 3.9)
		21: "UMin 3",     // uv.x after uv = fract(...) in the block
	}
	// No clamp: 16 (clamp from -1: a negative int), 18 (y), 23 (uv.x after
	// uv.x = y), 24 (uv.y, after a store of y into uv.x).
	for _, flags := range [][]string{nil, {"-Os"}} {
		t.Run(fmt.Sprint(flags), func(t *testing.T) {
			words := shadertest.Compile(t, "testdata/shaders", "safe_float.frag", append([]string{"-g", "--target-env", "vulkan1.1"}, flags...)...)
			m, err := spirv.Parse(words)
			if err != nil {
				t.Fatal(err)
			}
			n := boundFloatIndices(m)
			got := clampsByLine(m)
			for line, w := range want {
				if got[line] != w {
					t.Errorf("line %d: clamp %q, want %q", line, got[line], w)
				}
			}
			for line, g := range got {
				if _, ok := want[line]; !ok {
					t.Errorf("line %d: clamp %q, want none", line, g)
				}
			}
			if n != len(want) {
				t.Errorf("boundFloatIndices = %d, want %d", n, len(want))
			}
			shadertest.Validate(t, m.Encode(), "vulkan1.1")
		})
	}
}

// clampsByLine describes the UMin and SClamp instructions that follow a
// conversion, by the OpLine in force.
func clampsByLine(m *spirv.Module) map[int]string {
	got := map[int]string{}
	for _, f := range m.Functions {
		for _, b := range f.Blocks {
			line := 0
			for i, in := range b.Insts {
				switch in.Opcode() {
				case spirv.OpLine:
					line = int(in.Words[2])
				case spirv.OpExtInst:
					if i == 0 || (b.Insts[i-1].Opcode() != spirv.OpConvertFToU && b.Insts[i-1].Opcode() != spirv.OpConvertFToS) ||
						b.Insts[i-1].ResultID() != in.Words[5] {
						continue
					}
					s := ""
					switch in.Words[4] {
					case glslUMin:
						s = "UMin"
					case glslSClamp:
						s = "SClamp"
					}
					for _, c := range in.Words[6:] {
						v, _ := m.ConstantValue(c)
						s += fmt.Sprint(" ", v)
					}
					got[line] = s
				}
			}
		}
	}
	return got
}

// TestFloatIntervals checks the interval arithmetic on its edges.
func TestFloatIntervals(t *testing.T) {
	tests := []struct {
		name string
		x, y interval
		op   spirv.Opcode
		ok   bool
		lo   float64 // the result's ends, before widening
		hi   float64
	}{
		{"mul", interval{0, 1}, interval{63, 63}, spirv.OpFMul, true, 0, 63},
		{"mul negative", interval{-2, 1}, interval{-3, 4}, spirv.OpFMul, true, -8, 6},
		{"add", interval{0, 1}, interval{1, 1}, spirv.OpFAdd, true, 1, 2},
		{"sub", interval{0, 1}, interval{0, 3}, spirv.OpFSub, true, -3, 1},
		{"div", interval{0, 6}, interval{2, 3}, spirv.OpFDiv, true, 0, 3},
		{"div negative", interval{1, 2}, interval{-4, -2}, spirv.OpFDiv, true, -1, -0.25},
		{"div by a range with zero", interval{1, 2}, interval{-1, 1}, spirv.OpFDiv, false, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &spirv.Module{}
			fr := &floatRanges{m: m, memo: map[uint32]*interval{1: &tc.x, 2: &tc.y}}
			r, ok := fr.arithmetic(tc.op, []uint32{1, 2})
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			w := interval{tc.lo, tc.hi}.widened()
			if r != w {
				t.Errorf("got [%v, %v], want [%v, %v]", r.lo, r.hi, w.lo, w.hi)
			}
			// Widening covers a float32 rounding of either end, and more.
			for _, end := range []float64{tc.lo, tc.hi} {
				f := float64(float32(end))
				up := float64(math.Nextafter32(float32(f), float32(math.Inf(1))))
				down := float64(math.Nextafter32(float32(f), float32(math.Inf(-1))))
				if up > r.hi && end == tc.hi || down < r.lo && end == tc.lo {
					t.Errorf("widened [%v, %v] misses a rounding of %v", r.lo, r.hi, end)
				}
			}
		})
	}
}
