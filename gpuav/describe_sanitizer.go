package gpuav

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// SanitizerValues are the operands of a failed sanitizer check, as the
// shader computed them in the failing lane.
type SanitizerValues struct {
	// Op names the operation as SPIR-V does: "OpSDiv", "OpFMod", "Pow",
	// "Atan2", "FMin", "FClamp", "OpImageGather".
	Op string
	// Type is the operands' scalar type: "int32", "uint16", "float32"...
	// ("" for a gather's component).
	Type string
	// Components is the size of a vector operation (0: a scalar); Lane
	// the first failing lane of a vector.
	Components, Lane int
	// Operands are the checked operands, in the instruction's order.
	Operands []SanitizerOperand
}

// SanitizerOperand is one operand of a failed sanitizer check.
type SanitizerOperand struct {
	// Name is the operand's name in the specification: "dividend",
	// "divisor", "x", "y", "minVal", "maxVal", "component".
	Name string
	// Value is its exact value in decimal ("-2147483648", "0.5"), or
	// "NaN", "+Inf", "-Inf"; Float says it is a float.
	Value string
	Float bool
	// NaN says it is the NaN operand of a min, max or clamp.
	NaN bool
}

// SanitizerIDs are the ids the Khronos layer reports the sanitizer's
// errors under (layers/gpuav), by code; the signed overflow of a division
// is ours (the Khronos layer does not check it).
var SanitizerIDs = map[CheckCode]string{
	CodeSanitizerDivideByZero:      "SPIRV-Sanitizer-Divide-By-Zero",
	CodeSanitizerDivideOverflow:    "gpuav-dbg-Sanitizer-Divide-Overflow",
	CodeSanitizerFloatDivideByZero: "SPIRV-Sanitizer-Divide-By-Zero",
	CodeSanitizerPow:               "SPIRV-Sanitizer-Pow",
	CodeSanitizerAtan2:             "SPIRV-Sanitizer-Atan2",
	CodeSanitizerMinMaxNaN:         "SPIRV-Sanitizer-Fminmax",
	CodeSanitizerImageGather:       "SPIRV-Sanitizer-Image-Gather",
}

// sanitizerOpNames name the GLSL.std.450 instructions the sanitizer checks.
var sanitizerOpNames = map[uint32]string{glslPow: "Pow", glslAtan2: "Atan2", glslFMin: "FMin", glslFMax: "FMax", glslFClamp: "FClamp"}

// describeSanitizer fills in a sanitizer error: the Khronos layer's id
// and wording, with the operands' values and the lane.
func describeSanitizer(d *Description, code CheckCode, p [RecordParams]uint32) {
	op := p[7] & 0xffff
	width := p[7] >> SanitizerWidthShift & 0xff
	float := p[7]&SanitizerFloat != 0
	n := int(p[7] >> SanitizerComponentsShift & 7)
	v := &SanitizerValues{Components: n, Lane: int(p[6] & 0xff)}
	d.Sanitizer = v
	d.FullVUID = SanitizerIDs[code]
	if code == CodeSanitizerImageGather {
		v.Op = spirv.Opcode(op).String()
		v.Lane = 0
		v.Operands = []SanitizerOperand{{Name: "component", Value: strconv.Itoa(int(int32(p[0])))}}
		d.Message = fmt.Sprintf("%s has a component value of %d, but it must be 0, 1, 2, or 3.", v.Op, int32(p[0]))
		return
	}
	signed := false
	switch spirv.Opcode(op) {
	case spirv.OpSDiv, spirv.OpSMod, spirv.OpSRem:
		signed = true
	}
	if name, ok := sanitizerOpNames[op]; ok && code != CodeSanitizerDivideByZero && code != CodeSanitizerDivideOverflow &&
		code != CodeSanitizerFloatDivideByZero {
		v.Op = name
	} else {
		v.Op = spirv.Opcode(op).String()
	}
	switch {
	case float:
		v.Type = fmt.Sprintf("float%d", width)
	case signed:
		v.Type = fmt.Sprintf("int%d", width)
	default:
		v.Type = fmt.Sprintf("uint%d", width)
	}
	names := map[CheckCode][]string{
		CodeSanitizerDivideByZero: {"dividend", "divisor"}, CodeSanitizerDivideOverflow: {"dividend", "divisor"},
		CodeSanitizerFloatDivideByZero: {"dividend", "divisor"}, CodeSanitizerPow: {"x", "y"}, CodeSanitizerAtan2: {"y", "x"},
	}[code]
	if code == CodeSanitizerMinMaxNaN {
		names = []string{"x", "y"}
		if op == glslFClamp {
			names = []string{"x", "minVal", "maxVal"}
		}
	}
	for i, name := range names {
		lo, hi := p[2*i], p[2*i+1]
		o := SanitizerOperand{Name: name, Float: float, Value: sanitizerValue(lo, hi, width, float, signed)}
		o.NaN = code == CodeSanitizerMinMaxNaN && p[6]>>(SanitizerNaNShift+i)&1 != 0
		v.Operands = append(v.Operands, o)
	}
	lane := ""
	if n > 0 {
		lane = fmt.Sprintf(" in lane %d of a %d-component vector", v.Lane, n)
	}
	vals := v.operandList()
	switch code {
	case CodeSanitizerDivideByZero:
		d.Message = fmt.Sprintf("Integer divide by zero. Operand 2 of %s is zero%s (%s).", v.Op, lane, vals)
	case CodeSanitizerDivideOverflow:
		d.Message = fmt.Sprintf("Signed integer overflow. %s divides the minimum %s value by -1%s (%s): the result does not fit.",
			v.Op, v.Type, lane, vals)
	case CodeSanitizerFloatDivideByZero:
		d.Message = fmt.Sprintf("Float divide by zero. Operand 2 of %s is zero%s (%s). The result value is undefined.", v.Op, lane, vals)
	case CodeSanitizerPow:
		why := "x < 0"
		if x := v.Operands[0].Value; x == "0" || x == "-0" {
			why = "x == 0 and y <= 0"
		}
		d.Message = fmt.Sprintf("Pow (pow(x, y)) with %s%s (%s). The result value is undefined.", why, lane, vals)
	case CodeSanitizerAtan2:
		d.Message = fmt.Sprintf("Atan2 (atan(y, x)) with y == 0 and x == 0%s (%s). The result value is undefined.", lane, vals)
	case CodeSanitizerMinMaxNaN:
		var nan []string
		for _, o := range v.Operands {
			if o.NaN {
				nan = append(nan, o.Name)
			}
		}
		verb := "is"
		if len(nan) > 1 {
			verb = "are"
		}
		call := map[uint32]string{glslFMin: "min(x, y)", glslFMax: "max(x, y)", glslFClamp: "clamp(x, minVal, maxVal)"}[op]
		d.Message = fmt.Sprintf("%s (%s) with a NaN operand: %s %s NaN%s (%s). Which operand is the result is undefined.",
			v.Op, call, strings.Join(nan, " and "), verb, lane, vals)
	}
}

// operandList is "dividend 100, divisor 0".
func (v *SanitizerValues) operandList() string {
	parts := make([]string, len(v.Operands))
	for i, o := range v.Operands {
		parts[i] = o.Name + " " + o.Value
	}
	return strings.Join(parts, ", ")
}

// sanitizerValue formats an operand's bits exactly.
func sanitizerValue(lo, hi, width uint32, float, signed bool) string {
	switch {
	case float && width == 64:
		return fmtFloat64(math.Float64frombits(uint64(lo) | uint64(hi)<<32))
	case float:
		return fmtFloat(math.Float32frombits(lo))
	case width == 64 && signed:
		return strconv.FormatInt(int64(uint64(lo)|uint64(hi)<<32), 10)
	case width == 64:
		return strconv.FormatUint(uint64(lo)|uint64(hi)<<32, 10)
	case signed:
		return strconv.FormatInt(int64(int32(lo)), 10)
	}
	return strconv.FormatUint(uint64(lo), 10)
}

// fmtFloat64 writes a float64 the shortest way that reads back exactly.
func fmtFloat64(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
