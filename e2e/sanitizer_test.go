package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sanitizerCase is one of sanapp's cases: the group it must report, with
// every value, and the line the app prints afterwards (the result under
// the default on_error, skip).
type sanitizerCase struct {
	kase, check, vuid, message string
	words                      []string // the EXPECT line's words in san.glsl
	op, typ                    string
	components, lane           int // lane -1: a scalar
	operands                   string
	count, loop                int // count per invocation (compute runs four)
	out                        string
}

// sanitizerOptIn switches the sanitizer's opt-in checks on (pow, min/max:
// off by default, docs/decisions/shader-sanitizer.md).
var sanitizerOptIn = []string{"--check", "sanitizer_pow=on", "--check", "sanitizer_minmax=on"}

var sanitizerCases = []sanitizerCase{
	{kase: "udiv", check: "sanitizer_divide", vuid: "SPIRV-Sanitizer-Divide-By-Zero", words: []string{"udiv"},
		message: "Integer divide by zero. Operand 2 of OpUDiv is zero (dividend 100, divisor 0).",
		op:      "OpUDiv", typ: "uint32", lane: -1, operands: `dividend=100 divisor=0`, count: 1, out: "u=0 0 0 0"},
	{kase: "sdiv", check: "sanitizer_divide", vuid: "gpuav-dbg-Sanitizer-Divide-Overflow", words: []string{"sdiv"},
		message: "Signed integer overflow. OpSDiv divides the minimum int32 value by -1 (dividend -2147483648, divisor -1): the result does not fit.",
		op:      "OpSDiv", typ: "int32", lane: -1, operands: `dividend=-2147483648 divisor=-1`, count: 1, out: "i=0 0 0 0"},
	{kase: "smod", check: "sanitizer_divide", vuid: "SPIRV-Sanitizer-Divide-By-Zero", words: []string{"smod"},
		message: "Integer divide by zero. Operand 2 of OpSMod is zero (dividend -7, divisor 0).",
		op:      "OpSMod", typ: "int32", lane: -1, operands: `dividend=-7 divisor=0`, count: 1, out: "i=0 0 0 0"},
	// Lane 2 of four: the other lanes are computed (9 % 2, 10 % 3, 12 % 5).
	{kase: "umod", check: "sanitizer_divide", vuid: "SPIRV-Sanitizer-Divide-By-Zero", words: []string{"umod"},
		message: "Integer divide by zero. Operand 2 of OpUMod is zero in lane 2 of a 4-component vector (dividend 11, divisor 0).",
		op:      "OpUMod", typ: "uint32", components: 4, lane: 2, operands: `dividend=11 divisor=0`, count: 1,
		out: "v=1 1 0 2 1 1 0 2 1 1 0 2 1 1 0 2"},
	{kase: "fmod", check: "sanitizer_divide", vuid: "SPIRV-Sanitizer-Divide-By-Zero", words: []string{"fmod"},
		message: "Float divide by zero. Operand 2 of OpFMod is zero (dividend 5.5, divisor 0). The result value is undefined.",
		op:      "OpFMod", typ: "float32", lane: -1, operands: `dividend=5.5 divisor=0`, count: 1, out: "f=0 0 0 0"},
	{kase: "pow_neg", check: "sanitizer_pow", vuid: "SPIRV-Sanitizer-Pow",
		message: "Pow (pow(x, y)) with x < 0 (x -2, y 0.5). The result value is undefined.",
		op:      "Pow", typ: "float32", lane: -1, operands: `x=-2 y=0.5`, count: 1, out: "f=0 0 0 0"},
	{kase: "pow_zero", check: "sanitizer_pow", vuid: "SPIRV-Sanitizer-Pow",
		message: "Pow (pow(x, y)) with x == 0 and y <= 0 (x 0, y -1). The result value is undefined.",
		op:      "Pow", typ: "float32", lane: -1, operands: `x=0 y=-1`, count: 1, out: "f=0 0 0 0"},
	{kase: "atan2", check: "sanitizer_atan2", vuid: "SPIRV-Sanitizer-Atan2",
		message: "Atan2 (atan(y, x)) with y == 0 and x == 0 (y 0, x 0). The result value is undefined.",
		op:      "Atan2", typ: "float32", lane: -1, operands: `y=0 x=0`, count: 1, out: "f=0 0 0 0"},
	// NMin instead: the other operand, 1.
	{kase: "min_nan", check: "sanitizer_minmax", vuid: "SPIRV-Sanitizer-Fminmax", words: []string{"min"},
		message: "FMin (min(x, y)) with a NaN operand: x is NaN (x NaN, y 1). Which operand is the result is undefined.",
		op:      "FMin", typ: "float32", lane: -1, operands: `x="NaN"! y=1`, count: 1, out: "f=1 1 1 1"},
	// NClamp(0.5, NaN, 1) = NMin(NMax(0.5, NaN), 1) = 0.5.
	{kase: "clamp_nan", check: "sanitizer_minmax", vuid: "SPIRV-Sanitizer-Fminmax", words: []string{"clamp"},
		message: "FClamp (clamp(x, minVal, maxVal)) with a NaN operand: minVal is NaN (x 0.5, minVal NaN, maxVal 1). Which operand is the result is undefined.",
		op:      "FClamp", typ: "float32", lane: -1, operands: `x=0.5 minVal="NaN"! maxVal=1`, count: 1, out: "f=0.5 0.5 0.5 0.5"},
	// Three iterations fail per invocation: one record after the loop,
	// the last failure's values; each division yields 0.
	{kase: "loop", check: "sanitizer_divide", vuid: "SPIRV-Sanitizer-Divide-By-Zero", words: []string{"loop"},
		message: "Integer divide by zero. Operand 2 of OpUDiv is zero (dividend 1000, divisor 0).",
		op:      "OpUDiv", typ: "uint32", lane: -1, operands: `dividend=1000 divisor=0`, count: 3, loop: 3, out: "u=0 0 0 0"},
	// Component 0 instead of 5: the image's red, 0.2.
	{kase: "gather", check: "sanitizer_gather", vuid: "SPIRV-Sanitizer-Image-Gather",
		message: "OpImageGather has a component value of 5, but it must be 0, 1, 2, or 3.",
		op:      "OpImageGather", lane: -1, operands: `component=5`, count: 1, out: "f=0.2 0.2 0.2 0.2"},
}

// sanitizerSkipped is what each sanitizer check's message says a failed
// operation did under on_error skip.
var sanitizerSkipped = map[string]string{
	"sanitizer_divide": "The failing lanes yielded 0.",
	"sanitizer_pow":    "The failing lanes yielded 0.",
	"sanitizer_atan2":  "The failing lanes yielded 0.",
	"sanitizer_minmax": "NMin, NMax or NClamp was computed instead: the operand that is not NaN won.",
	"sanitizer_gather": "The gather read component 0 instead.",
}

// TestShaderSanitizer runs each of sanapp's cases in a compute shader
// (four invocations) and a fragment shader (one) on lavapipe: one group
// with the Khronos layer's id, the message with every operand, the
// operands in the report, the count, the coordinates and the line of
// san.glsl; the result is what skip defines (0 in the failing lanes,
// NMin/NMax/NClamp, component 0). The clean run of every operation with
// valid operands, and a divisor proved non-zero, report nothing. The
// opt-in checks (pow, min/max) are on for these runs, and off (silent) by
// default.
func TestShaderSanitizer(t *testing.T) {
	for _, stage := range []string{"compute", "fragment"} {
		invocations, coordKey := 4, "global_invocation_id"
		action := "vkCmdDispatch"
		if stage == "fragment" {
			invocations, coordKey, action = 1, "frag_coord", "vkCmdDraw"
		}
		for _, tc := range sanitizerCases {
			t.Run(stage+"/"+tc.kase, func(t *testing.T) {
				code, r, out := sanApp.run(t, nil, sanitizerOptIn, "--stage", stage, "--case", tc.kase)
				requireOneGroup(t, code, r, out)
				e := r.Errors[0]
				if e.Check != tc.check || e.VUID != tc.vuid || e.Count != tc.count*invocations || e.Loop != tc.loop ||
					e.Stage != stage || e.Action != action || e.ActionIndex != 0 || e.CommandBuffer.Name != "san-cmd" ||
					e.Pipeline.Name != "san-pipeline" || e.Level != "error" {
					t.Errorf("group: check %q vuid %q count %d loop %d stage %q action %q #%d cb %q pipeline %q level %q",
						e.Check, e.VUID, e.Count, e.Loop, e.Stage, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name, e.Level)
				}
				msg := tc.message + " " + sanitizerSkipped[tc.check]
				if tc.loop > 1 {
					msg += fmt.Sprintf(" The invocation failed %d times in this loop; the values are its last failure's.", tc.loop)
				}
				if !strings.HasPrefix(e.Message, tc.check+": "+msg+" "+tc.vuid+".") {
					t.Errorf("message %q, want %q", e.Message, tc.message)
				}
				s := e.Sanitizer
				if s == nil {
					t.Fatalf("no sanitizer values")
				}
				var ops []string
				for _, o := range s.Operands {
					v := o.Name + "=" + string(o.Value)
					if o.NaN {
						v += "!"
					}
					ops = append(ops, v)
				}
				lane := -1
				if s.Lane != nil {
					lane = *s.Lane
				}
				if s.Op != tc.op || s.Type != tc.typ || s.Components != tc.components || lane != tc.lane ||
					strings.Join(ops, " ") != tc.operands {
					t.Errorf("sanitizer: op %s type %s components %d lane %d operands %s; want %s %s %d %d %s",
						s.Op, s.Type, s.Components, lane, strings.Join(ops, " "), tc.op, tc.typ, tc.components, tc.lane, tc.operands)
				}
				var xs []string
				for _, smp := range e.Samples {
					xs = append(xs, fmt.Sprint(smp[coordKey]))
				}
				want := "[[0 0 0] [1 0 0] [2 0 0] [3 0 0]]"
				if stage == "fragment" {
					want = "[[0.5 0.5]]"
				}
				if got := "[" + strings.Join(slices.Sorted(slices.Values(xs)), " ") + "]"; got != want {
					t.Errorf("samples %s, want %s", got, want)
				}
				at := expectAt(t, "san.glsl", tc.check, tc.words...)
				if e.Source.File != "./san.glsl" || e.Source.Line != at.line || e.Source.Text != at.text {
					t.Errorf("source %+v, want ./san.glsl:%d %q", e.Source, at.line, at.text)
				}
				if e.Outcome == nil || e.Outcome.Access != "skipped" {
					t.Errorf("outcome %+v, want skipped", e.Outcome)
				}
				wantOut := tc.out
				if stage == "fragment" {
					// One fragment writes element 0 of each array.
					f := strings.Fields(strings.SplitN(tc.out, "=", 2)[1])
					prefix := strings.SplitN(tc.out, "=", 2)[0]
					if prefix == "v" {
						wantOut = "v=" + strings.Join(append(f[:4], "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0"), " ")
					} else {
						wantOut = prefix + "=" + f[0] + " 0 0 0"
					}
				}
				requireLines(t, out, []string{wantOut})
			})
		}
		t.Run(stage+"/clean", func(t *testing.T) {
			code, r, out := sanApp.run(t, nil, sanitizerOptIn, "--stage", stage, "--case", "clean")
			requireSilent(t, code, r, out)
		})
		t.Run(stage+"/nonzero", func(t *testing.T) {
			code, r, out := sanApp.run(t, nil, sanitizerOptIn, "--stage", stage, "--case", "nonzero")
			requireSilent(t, code, r, out)
		})
	}
	// By default pow and min/max are not checked: the same cases are
	// silent and compute what the driver computes.
	for _, kase := range []string{"pow_neg", "min_nan"} {
		t.Run("default/"+kase, func(t *testing.T) {
			code, r, out := sanApp.run(t, nil, nil, "--case", kase)
			requireSilent(t, code, r, out)
		})
	}
}
