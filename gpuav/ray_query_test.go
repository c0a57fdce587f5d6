package gpuav

import (
	"math"
	"slices"
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
		// Rayflags: constant bad flags and flags from a push constant are
		// checked, constant valid flags with a constant valid ray are not.
		{"ray_query_flags.comp", "vulkan1.2", "-g", 2},
		{"ray_query_flags.comp", "vulkan1.3", "-gVS", 2},
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
			// the report names its site, whose table entry names it.
			m, err := spirv.Parse(res.Words)
			if err != nil {
				t.Fatal(err)
			}
			orig, _ := spirv.Parse(append([]uint32(nil), w...))
			var inits []uint32 // instruction indices of the initializes, in order
			for i, in := range orig.Instructions() {
				if in.Opcode() == spirv.OpRayQueryInitializeKHR {
					inits = append(inits, uint32(i))
				}
			}
			var named []uint32
			for _, f := range m.Functions {
				for _, b := range f.Blocks {
					for _, in := range b.Insts {
						if in.Opcode() == spirv.OpFunctionCall && m.Name(in.Words[3]) == "gpuav_report_ray_query(u1;u1;vu4;u1;u1;u1;vf3;f1;vf3;f1;" {
							if site, ok := m.ConstantValue(in.Words[5]); ok && int(site) < len(res.Sites) {
								named = append(named, uint32(res.Sites[site].Instruction))
							}
						}
					}
				}
			}
			// The checked initializes are the first ChecksAdded ones.
			found := len(named) > 0
			if len(named) != tt.checks || len(inits) < tt.checks || !slices.Equal(named, inits[:tt.checks]) {
				t.Errorf("reports name instructions %v, want the first %d of %v", named, tt.checks, inits)
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
		flags      uint32
	}{
		{v(0, 0, 0), 0, 10, v(0, 0, 1), 0, 0},
		{v(0, 0, 0), 0, inf, v(0, 0, 1), 0, 0},
		{v(0, 0, 0), 2, 2, v(0, 0, 1), 0, 0},
		{v(0, inf, 0), 0, 10, v(0, 0, 1), CodeRayQueryOriginNonFinite, 0},
		{v(nan, 0, 0), -1, 10, v(0, 0, nan), CodeRayQueryOriginNonFinite, 0},
		{v(0, 0, 0), 0, 10, v(0, 0, nan), CodeRayQueryDirectionNonFinite, 0},
		{v(0, 0, 0), 0, 10, v(-inf, 0, 1), CodeRayQueryDirectionNonFinite, 0},
		{v(0, 0, 0), nan, 10, v(0, 0, 1), CodeRayQueryTNaN, 0},
		{v(0, 0, 0), 0, nan, v(0, 0, 1), CodeRayQueryTNaN, 0},
		{v(0, 0, 0), -0.5, 10, v(0, 0, 1), CodeRayQueryNegativeTmin, 0},
		{v(0, 0, 0), 0, -1, v(0, 0, 1), CodeRayQueryNegativeTmax, 0},
		{v(0, 0, 0), 5, 1, v(0, 0, 1), CodeRayQueryTminGreaterThanTmax, 0},
		// Rayflags (06889, 06890, 06891), checked after the ray's values.
		{v(0, 0, 0), 0, 10, v(0, 0, 1), 0, 0x1 | 0x4 | 0x8 | 0x10 | 0x200},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), 0, 0x100 | 0x80},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), 0, 0x20 | 0x40 | 0x200},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQuerySkipTrianglesAndAABBs, 0x300},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQuerySkipTrianglesAndAABBs, 0x300 | 0x10 | 0x3},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQueryTriangleFlags, 0x100 | 0x10},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQueryTriangleFlags, 0x100 | 0x20},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQueryTriangleFlags, 0x10 | 0x20 | 0x1 | 0x2},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQueryOpaqueFlags, 0x1 | 0x2},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQueryOpaqueFlags, 0x40 | 0x80},
		{v(0, 0, 0), 0, 10, v(0, 0, 1), CodeRayQueryOpaqueFlags, 0x1 | 0x80 | 0x200},
		{v(0, 0, 0), -1, 10, v(0, 0, 1), CodeRayQueryNegativeTmin, 0x300},
	}
	for i, tt := range tests {
		if got := rayQueryCode(tt.flags, tt.o, tt.tmin, tt.d, tt.tmax); got != tt.want {
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
		{CodeRayQuerySkipTrianglesAndAABBs, [RecordParams]uint32{b(0), b(10), b(0), b(0), b(0), 0x301, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06889",
			"OpRayQueryInitializeKHR operand Rayflags 0x301 (OpaqueKHR|SkipTrianglesKHR|SkipAABBsKHR) contains both SkipTrianglesKHR and SkipAABBsKHR."},
		{CodeRayQueryTriangleFlags, [RecordParams]uint32{b(0), b(10), b(0), b(0), b(0), 0x110, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06890",
			"OpRayQueryInitializeKHR operand Rayflags 0x110 (CullBackFacingTrianglesKHR|SkipTrianglesKHR) contains more than one of SkipTrianglesKHR, CullBackFacingTrianglesKHR and CullFrontFacingTrianglesKHR."},
		{CodeRayQueryOpaqueFlags, [RecordParams]uint32{b(0), b(10), b(0), b(0), b(0), 0x1003, 0xff},
			"VUID-RuntimeSpirv-OpRayQueryInitializeKHR-06891",
			"OpRayQueryInitializeKHR operand Rayflags 0x1003 (OpaqueKHR|NoOpaqueKHR|0x1000) contains more than one of OpaqueKHR, NoOpaqueKHR, CullOpaqueKHR and CullNoOpaqueKHR."},
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
		// binding, the descriptor state checks'; its Proceed loop is
		// loop_budget's.
		checks[id] = id != CheckRayQuery && id != CheckBufferOOB && id != CheckDescriptorUninit && id != CheckDescriptorDestroyed &&
			id != CheckLoopBudget
	}
	res, err := Instrument(w, Options{ShaderID: 1, DescriptorSet: 7, Checks: checks})
	if err != nil || res.Instrumented || res.ChecksAdded != 0 || len(res.Words) != len(w) {
		t.Fatalf("err %v instrumented %v checks %d", err, res.Instrumented, res.ChecksAdded)
	}
}
