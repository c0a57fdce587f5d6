package gpuav

import (
	"math"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestDescribeSanitizer: each sanitizer code's message, id and values
// from a record's parameters, for every operand type the pass records
// (narrow values are recorded widened to 32 bits, 64-bit ones as two
// words).
func TestDescribeSanitizer(t *testing.T) {
	kind := func(op, width uint32, float bool, n uint32) uint32 {
		k := op | width<<SanitizerWidthShift | n<<SanitizerComponentsShift
		if float {
			k |= SanitizerFloat
		}
		return k
	}
	f32 := math.Float32bits
	f64 := func(x float64) (uint32, uint32) { b := math.Float64bits(x); return uint32(b), uint32(b >> 32) }
	nanLo, nanHi := f64(math.NaN())
	tests := []struct {
		name string
		code CheckCode
		p    [RecordParams]uint32
		id   string
		msg  string
		typ  string
	}{
		{"udiv", CodeSanitizerDivideByZero, [8]uint32{100, 0, 0, 0, 0, 0, 0, kind(uint32(spirv.OpUDiv), 32, false, 0)},
			"SPIRV-Sanitizer-Divide-By-Zero", "Integer divide by zero. Operand 2 of OpUDiv is zero (dividend 100, divisor 0).", "uint32"},
		{"srem int64 lane 1", CodeSanitizerDivideByZero,
			[8]uint32{0xfffffff6, 0xffffffff, 0, 0, 0, 0, 1, kind(uint32(spirv.OpSRem), 64, false, 2)},
			"SPIRV-Sanitizer-Divide-By-Zero",
			"Integer divide by zero. Operand 2 of OpSRem is zero in lane 1 of a 2-component vector (dividend -10, divisor 0).", "int64"},
		{"sdiv int16 overflow", CodeSanitizerDivideOverflow,
			[8]uint32{0xffff8000, 0, 0xffffffff, 0, 0, 0, 0, kind(uint32(spirv.OpSDiv), 16, false, 0)},
			"gpuav-dbg-Sanitizer-Divide-Overflow",
			"Signed integer overflow. OpSDiv divides the minimum int16 value by -1 (dividend -32768, divisor -1): the result does not fit.", "int16"},
		{"umod uint64", CodeSanitizerDivideByZero, [8]uint32{5, 1, 0, 0, 0, 0, 0, kind(uint32(spirv.OpUMod), 64, false, 0)},
			"SPIRV-Sanitizer-Divide-By-Zero", "Integer divide by zero. Operand 2 of OpUMod is zero (dividend 4294967301, divisor 0).", "uint64"},
		{"frem", CodeSanitizerFloatDivideByZero, [8]uint32{f32(-2.5), 0, 0x80000000, 0, 0, 0, 0, kind(uint32(spirv.OpFRem), 32, true, 0)},
			"SPIRV-Sanitizer-Divide-By-Zero",
			"Float divide by zero. Operand 2 of OpFRem is zero (dividend -2.5, divisor -0). The result value is undefined.", "float32"},
		{"pow float16 lane 3", CodeSanitizerPow, [8]uint32{f32(-0.5), 0, f32(2), 0, 0, 0, 3, kind(glslPow, 16, true, 4)},
			"SPIRV-Sanitizer-Pow",
			"Pow (pow(x, y)) with x < 0 in lane 3 of a 4-component vector (x -0.5, y 2). The result value is undefined.", "float16"},
		{"pow zero", CodeSanitizerPow, [8]uint32{0, 0, f32(-1), 0, 0, 0, 0, kind(glslPow, 32, true, 0)},
			"SPIRV-Sanitizer-Pow", "Pow (pow(x, y)) with x == 0 and y <= 0 (x 0, y -1). The result value is undefined.", "float32"},
		{"atan2", CodeSanitizerAtan2, [8]uint32{0, 0, 0x80000000, 0, 0, 0, 0, kind(glslAtan2, 32, true, 0)},
			"SPIRV-Sanitizer-Atan2", "Atan2 (atan(y, x)) with y == 0 and x == 0 (y 0, x -0). The result value is undefined.", "float32"},
		{"fmax double both NaN", CodeSanitizerMinMaxNaN,
			[8]uint32{nanLo, nanHi, nanLo, nanHi, 0, 0, 3 << SanitizerNaNShift, kind(glslFMax, 64, true, 0)},
			"SPIRV-Sanitizer-Fminmax",
			"FMax (max(x, y)) with a NaN operand: x and y are NaN (x NaN, y NaN). Which operand is the result is undefined.", "float64"},
		{"fclamp maxVal", CodeSanitizerMinMaxNaN,
			[8]uint32{f32(3), 0, f32(0), 0, 0x7fc00000, 0, 2 | 4<<SanitizerNaNShift, kind(glslFClamp, 32, true, 3)},
			"SPIRV-Sanitizer-Fminmax",
			"FClamp (clamp(x, minVal, maxVal)) with a NaN operand: maxVal is NaN in lane 2 of a 3-component vector (x 3, minVal 0, maxVal NaN). Which operand is the result is undefined.", "float32"},
		{"gather", CodeSanitizerImageGather, [8]uint32{0xffffffff, 0, 0, 0, 0, 0, 0, uint32(spirv.OpImageGather)},
			"SPIRV-Sanitizer-Image-Gather", "OpImageGather has a component value of -1, but it must be 0, 1, 2, or 3.", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := Describe(tc.code, tc.p)
			if d.VUID("vkCmdDispatch") != tc.id || d.Message != tc.msg || d.Sanitizer == nil || d.Sanitizer.Type != tc.typ {
				t.Errorf("got %q %q %+v\nwant %q %q type %q", d.VUID("vkCmdDispatch"), d.Message, d.Sanitizer, tc.id, tc.msg, tc.typ)
			}
		})
	}
}

// TestSanitizerOnError: what a failed sanitizer check did, by behaviour.
func TestSanitizerOnError(t *testing.T) {
	var p [RecordParams]uint32
	for _, tc := range []struct {
		code   CheckCode
		v      OnError
		access string
		to     uint32
		reason string
	}{
		{CodeSanitizerDivideByZero, OnErrorSkip, AccessSkipped, 0, ""},
		{CodeSanitizerDivideByZero, OnErrorClamp, AccessClamped, 1, ""},
		{CodeSanitizerDivideOverflow, OnErrorClamp, AccessClamped, 1, ""},
		{CodeSanitizerFloatDivideByZero, OnErrorClamp, AccessSkipped, 0, "clamp has no meaning here (a float divisor has no range to clamp into)"},
		{CodeSanitizerPow, OnErrorClamp, AccessSkipped, 0, "clamp has no meaning here (pow's operands have no range to clamp into)"},
		{CodeSanitizerMinMaxNaN, OnErrorExecute, AccessExecuted, 0, ""},
		{CodeSanitizerImageGather, OnErrorClamp, AccessClamped, 3, ""},
	} {
		o := FailedAccess(tc.v, tc.code, p)
		if o.Access != tc.access || o.ClampedTo != tc.to || o.Reason != tc.reason {
			t.Errorf("%s %s: %+v, want %s %d %q", tc.code.CheckID(), tc.v, o, tc.access, tc.to, tc.reason)
		}
	}
}
