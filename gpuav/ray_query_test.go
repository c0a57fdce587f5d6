package gpuav

import (
	"math"
	"strings"
	"testing"

	"github.com/gpuav-dbg/gpuav-dbg/spirv"
)

// TestInstrumentRayQueryValid: every non-constant OpRayQueryInitializeKHR
// gets a check, the constant valid one none, and the result passes
// spirv-val for the module's own environment, with and without
// NonSemantic debug info.
func TestInstrumentRayQueryValid(t *testing.T) {
	tests := []struct {
		shader, env, debug string
		checks             int
	}{
		{"ray_query.comp", "vulkan1.2", "-g", 1},
		{"ray_query.comp", "vulkan1.3", "-g", 1},
		{"ray_query.comp", "vulkan1.3", "-gVS", 1},
		{"ray_query.comp", "spirv1.4", "-g", 1},
		{"ray_query.rgen", "vulkan1.2", "-g", 1},
		{"ray_query.rgen", "vulkan1.3", "-gVS", 1},
	}
	for _, tt := range tests {
		t.Run(tt.shader+"/"+tt.env+tt.debug, func(t *testing.T) {
			env := tt.env
			flags := []string{"--target-env", env}
			if env == "spirv1.4" {
				flags = append(flags, "-V")
			}
			w := compileFlags(t, tt.shader, tt.debug, flags...)
			res, err := Instrument(w, Options{ShaderID: 5, DescriptorSet: 7, Checks: map[string]bool{CheckRayQuery: true}})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %s", strings.Join(res.Warnings, "; "))
			}
			if res.ChecksAdded != tt.checks {
				t.Errorf("ChecksAdded = %d, want %d", res.ChecksAdded, tt.checks)
			}
			if env == "spirv1.4" {
				env = "vulkan1.2"
			}
			validate(t, res.Words, env)
			// The initialize keeps its original instruction index, and
			// the report names it.
			m, err := spirv.Parse(res.Words)
			if err != nil {
				t.Fatal(err)
			}
			orig, _ := spirv.Parse(append([]uint32(nil), w...))
			want := -1
			for i, in := range orig.Instructions() {
				if in.Opcode() == spirv.OpRayQueryInitializeKHR {
					want = i
					break
				}
			}
			found := false
			for _, f := range m.Functions {
				for _, b := range f.Blocks {
					for _, in := range b.Insts {
						if in.Opcode() == spirv.OpFunctionCall && m.Name(in.Words[3]) == "gpuav_report_ray_query(u1;u1;vu4;u1;u1;u1;vf3;f1;vf3;f1;" {
							found = true
							if got := m.Def(in.Words[5]); got == nil || got.Words[3] != uint32(want) {
								t.Errorf("report names instruction %v, want %d", got, want)
							}
						}
					}
				}
			}
			if !found {
				t.Errorf("no call to gpuav_report_ray_query")
			}
		})
	}
}

// TestRayQueryCode is the host twin of the GLSL check, used for constant
// operands: one code per rule, the first broken rule wins.
func TestRayQueryCode(t *testing.T) {
	nan := float32(math.NaN())
	inf := float32(math.Inf(1))
	v := func(x ...float32) []float32 { return x }
	tests := []struct {
		o          []float32
		tmin, tmax float32
		d          []float32
		want       CheckCode
	}{
		{v(0, 0, 0), 0, 10, v(0, 0, 1), 0},
		{v(0, 0, 0), 0, inf, v(0, 0, 1), 0},
		{v(0, 0, 0), 2, 2, v(0, 0, 1), 0},
		{v(0, inf, 0), 0, 10, v(0, 0, 1), CodeRayQueryOriginNonFinite},
		{v(nan, 0, 0), -1, 10, v(0, 0, nan), CodeRayQueryOriginNonFinite},
		{v(0, 0, 0), 0, 10, v(0, 0, nan), CodeRayQueryDirectionNonFinite},
		{v(0, 0, 0), 0, 10, v(-inf, 0, 1), CodeRayQueryDirectionNonFinite},
		{v(0, 0, 0), nan, 10, v(0, 0, 1), CodeRayQueryTNaN},
		{v(0, 0, 0), 0, nan, v(0, 0, 1), CodeRayQueryTNaN},
		{v(0, 0, 0), -0.5, 10, v(0, 0, 1), CodeRayQueryNegativeTmin},
		{v(0, 0, 0), 0, -1, v(0, 0, 1), CodeRayQueryNegativeTmax},
		{v(0, 0, 0), 5, 1, v(0, 0, 1), CodeRayQueryTminGreaterThanTmax},
	}
	for i, tt := range tests {
		if got := rayQueryCode(tt.o, tt.tmin, tt.d, tt.tmax); got != tt.want {
			t.Errorf("%d: code %d, want %d", i, got, tt.want)
		}
	}
}

// TestDescribeRayQuery: each code names its VUID and the values.
func TestDescribeRayQuery(t *testing.T) {
	b := math.Float32bits
	tests := []struct {
		code CheckCode
		p    [RecordParams]uint32
		vuid string
		msg  string
	}{
		{CodeRayQueryTminGreaterThanTmax, [RecordParams]uint32{b(5), b(1), b(0), b(0), b(0), 1, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06350",
			"OpRayQueryInitializeKHR operand RayTmin (5) is greater than RayTmax (1)."},
		{CodeRayQueryNegativeTmin, [RecordParams]uint32{b(-0.5), b(10), b(0), b(0), b(0), 0, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349",
			"OpRayQueryInitializeKHR operand RayTmin (-0.5) is negative."},
		{CodeRayQueryNegativeTmax, [RecordParams]uint32{b(0), b(-1), b(0), b(0), b(0), 0, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06349",
			"OpRayQueryInitializeKHR operand RayTmax (-1) is negative."},
		{CodeRayQueryOriginNonFinite, [RecordParams]uint32{b(0), b(10), b(1), b(float32(math.Inf(1))), b(3), 0, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348",
			"OpRayQueryInitializeKHR operand RayOrigin (1, +Inf, 3) is not finite."},
		{CodeRayQueryDirectionNonFinite, [RecordParams]uint32{b(0), b(10), b(0), b(float32(math.NaN())), b(1), 0, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06348",
			"OpRayQueryInitializeKHR operand RayDirection (0, NaN, 1) is not finite."},
		{CodeRayQueryTNaN, [RecordParams]uint32{b(float32(math.NaN())), b(10), b(0), b(0), b(0), 0, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06351",
			"OpRayQueryInitializeKHR operands RayTmin (NaN) and RayTmax (10) must not be NaN."},
	}
	for _, tt := range tests {
		d := Describe(tt.code, tt.p)
		if d.Check != CheckRayQuery || d.VUID("vkCmdDispatch") != tt.vuid || d.Message != tt.msg {
			t.Errorf("code %d: check %q vuid %q message %q\nwant vuid %q message %q", tt.code, d.Check, d.VUID("vkCmdDispatch"), d.Message, tt.vuid, tt.msg)
		}
		if d.Ray == nil || d.Ray.Tmin != math.Float32frombits(tt.p[0]) && !math.IsNaN(float64(d.Ray.Tmin)) {
			t.Errorf("code %d: ray values %+v", tt.code, d.Ray)
		}
	}
}

// TestRayQueryCheckOff: with ray_query off (the other checks on) a module
// whose only checkable instructions are ray query initializes is unchanged.
func TestRayQueryCheckOff(t *testing.T) {
	w := compileFlags(t, "ray_query.comp", "-g", "--target-env", "vulkan1.2")
	checks := map[string]bool{}
	for _, id := range AllChecks {
		// The shader's buffer store is buffer_oob's and, through a plain
		// binding, the descriptor state checks'.
		checks[id] = id != CheckRayQuery && id != CheckBufferOOB && id != CheckDescriptorUninit && id != CheckDescriptorDestroyed
	}
	res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7, Checks: checks})
	if err != nil || res.Instrumented || res.ChecksAdded != 0 || len(res.Words) != len(w) {
		t.Fatalf("err %v instrumented %v checks %d", err, res.Instrumented, res.ChecksAdded)
	}
}
