package e2e

import (
	"reflect"
	"strings"
	"testing"
)

// buildApp is the app of acceleration_structure_build and depth_copy_range
// (testdata/checks/buildapp.c): a build or a copy per case, in the command
// buffer "build-cmd" inside the labels "frame" > "upload".
var buildApp = newCheckApp("buildapp")

// buildReport is the part of the JSON report the build and copy tests read.
type buildReport struct {
	Errors    []buildGroup `json:"errors"`
	Unchecked []struct {
		Kind   string `json:"kind"`
		Reason string `json:"reason"`
	} `json:"unchecked"`
	Notices []struct {
		Level string `json:"level"`
		Text  string `json:"text"`
	} `json:"notices"`
}

type buildGroup struct {
	Check         string               `json:"check"`
	Level         string               `json:"level"`
	VUID          string               `json:"vuid"`
	Message       string               `json:"message"`
	Count         int                  `json:"count"`
	Stage         string               `json:"stage"`
	Coords        map[string][]float64 `json:"coords"`
	Action        string               `json:"action"`
	ActionIndex   int                  `json:"action_index"`
	Submit        int                  `json:"submit"`
	Labels        []string             `json:"labels"`
	CommandBuffer struct {
		Name string `json:"name"`
	} `json:"command_buffer"`
	Accel *buildAccel `json:"acceleration_structure_build"`
	Depth *buildDepth `json:"depth_copy"`
}

type buildAccel struct {
	Info      uint32 `json:"info"`
	Geometry  uint32 `json:"geometry"`
	Primitive uint32 `json:"primitive"`
	Struct    string `json:"struct"`
	Field     string `json:"field"`
	Value     string `json:"value"`
	Reason    string `json:"reason"`
	Pointers  bool   `json:"array_of_pointers"`
	Skipped   bool   `json:"skipped"`
}

type buildDepth struct {
	Region  uint32    `json:"region"`
	Texel   [3]uint32 `json:"texel"`
	Layer   bool      `json:"layer"`
	Value   float64   `json:"value"`
	Outside uint32    `json:"outside"`
	Texels  uint32    `json:"texels"`
	Format  string    `json:"format"`
	Clamped bool      `json:"clamped"`
}

// refMsg is the start of an accelerationStructureReference message.
const refMsg = "The accelerationStructureReference of this instance is "

// TestBuildChecks: each bad instance or geometry of a build, and a depth
// copy of 1.5, is reported once with its VUID, its exact values, its
// build info, geometry and primitive (or region and texel), the action
// (#0 of "build-cmd", in "frame" > "upload", its submit); a bad instance
// is made inactive in the layer's copy (the app's buffer unchanged), a
// depth value clamped in the layer's copy of the region.
func TestBuildChecks(t *testing.T) {
	requireBuilds(t)
	inst := func(field string) *buildAccel {
		return &buildAccel{Struct: "VkAccelerationStructureInstanceKHR", Field: field, Primitive: 1, Skipped: true}
	}
	cases := []struct {
		kase, output string
		submit       int
		check, vuid  string
		action, msg  string
		coords       map[string][]float64
		accel        *buildAccel
		depth        *buildDepth
	}{
		{kase: "bogus", output: "instances-unchanged=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-vkCmdBuildAccelerationStructuresKHR-pInfos-03717", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    refMsg + "0x1234, which is not a multiple of 16 (remainder 4); it must be 0",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {1}},
			accel:  withRef(inst("accelerationStructureReference"), "0x1234", "misaligned")},
		{kase: "unknown", output: "instances-unchanged=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-vkCmdBuildAccelerationStructuresKHR-pInfos-12281", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    refMsg + "0x100000, which is not the device address of any acceleration structure the app created",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {1}},
			accel:  withRef(inst("accelerationStructureReference"), "0x100000", "unknown")},
		{kase: "destroyed", output: "instances-unchanged=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-vkCmdBuildAccelerationStructuresKHR-pInfos-12281", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    "which is the address of an acceleration structure destroyed before this submit",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {1}},
			accel:  withRef(inst("accelerationStructureReference"), "", "destroyed")},
		{kase: "self", output: "instances-unchanged=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-vkCmdBuildAccelerationStructuresKHR-pInfos-12281", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    "which is the address of the top-level acceleration structure this build writes",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {1}},
			accel:  withRef(inst("accelerationStructureReference"), "", "self")},
		{kase: "inst-nan", output: "instances-unchanged=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-VkTransformMatrixKHR-matrix-03799", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    "The transform of this instance holds NaN at matrix[1][2]: its first three columns do not define an invertible 3x3 matrix (the geometry has 2 instances).",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {1}},
			accel:  withRef(inst("transform.matrix[1][2]"), "NaN", "")},
		{kase: "aabb", output: "built=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-VkAabbPositionsKHR-minY-03547", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    "This AABB's minY (3) is greater than its maxY (1) (stride 24, the geometry has 3 AABBs). The build ran as recorded.",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {2}},
			accel:  &buildAccel{Struct: "VkAabbPositionsKHR", Field: "minY", Value: "3", Primitive: 2}},
		{kase: "transform", output: "built=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-VkTransformMatrixKHR-matrix-03799", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    "The triangle geometry's transformData holds NaN at matrix[0][3]: its first three columns do not define an invertible 3x3 matrix. The build ran as recorded.",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {0}},
			accel:  &buildAccel{Struct: "VkTransformMatrixKHR", Field: "matrix[0][3]", Value: "NaN"}},
		{kase: "index", output: "built=1", submit: 2, check: "acceleration_structure_build",
			vuid: "VUID-VkAccelerationStructureBuildRangeInfoKHR-maxVertex-10774", action: "vkCmdBuildAccelerationStructuresKHR",
			msg:    "Index 7 (at position 2 of the geometry's VK_INDEX_TYPE_UINT16 indices) + firstVertex 0 = 7 is above maxVertex 2. The build ran as recorded.",
			coords: map[string][]float64{"build_info": {0}, "geometry": {0}, "primitive": {0}},
			accel:  &buildAccel{Struct: "VkAccelerationStructureGeometryTrianglesDataKHR", Field: "indexData", Value: "7"}},
		{kase: "depth", output: "depth=1 0.5 0.5 0.5", submit: 1, check: "depth_copy_range",
			vuid: "VUID-vkCmdCopyBufferToImage-pRegions-07931", action: "vkCmdCopyBufferToImage",
			msg: "The source buffer holds 1.5 for the first texel of this region outside [0, 1] (1 of the region's 12 texels are " +
				"outside it, from bufferOffset 16), copied into the depth aspect of a VK_FORMAT_D32_SFLOAT image; " +
				"VK_EXT_depth_range_unrestricted is not enabled. gpuav-dbg copied the region from its own copy",
			coords: map[string][]float64{"region": {1}, "texel": {2, 1, 0}},
			depth: &buildDepth{Region: 1, Texel: [3]uint32{2, 1, 0}, Layer: true, Value: 1.5, Outside: 1, Texels: 12,
				Format: "VK_FORMAT_D32_SFLOAT", Clamped: true}},
		{kase: "depth2", output: "depth=1 0.5 0.5 0.5", submit: 1, check: "depth_copy_range",
			vuid: "VUID-VkCopyBufferToImageInfo2-pRegions-07931", action: "vkCmdCopyBufferToImage2",
			msg:    "The source buffer holds 1.5 for the first texel of this region outside [0, 1]",
			coords: map[string][]float64{"region": {1}, "texel": {2, 1, 0}},
			depth: &buildDepth{Region: 1, Texel: [3]uint32{2, 1, 0}, Layer: true, Value: 1.5, Outside: 1, Texels: 12,
				Format: "VK_FORMAT_D32_SFLOAT", Clamped: true}},
	}
	for _, c := range cases {
		t.Run(c.kase, func(t *testing.T) {
			t.Parallel()
			var r buildReport
			code, out := buildApp.runInto(t, &r, nil, nil, "--case", c.kase)
			if code != 1 {
				t.Errorf("exit %d, want 1 (errors found)\n%s", code, out)
			}
			if !strings.Contains(out, c.output+"\n") || (c.output != "built=1" && !strings.Contains(out, "unchanged=1\n")) {
				t.Errorf("app printed no %q (or its buffer changed):\n%s", c.output, out)
			}
			if len(r.Errors) != 1 {
				t.Fatalf("%d error groups, want 1: %+v\n%s", len(r.Errors), r.Errors, out)
			}
			g := r.Errors[0]
			if g.Check != c.check || g.VUID != c.vuid || g.Action != c.action || g.ActionIndex != 0 || g.Submit != c.submit ||
				g.Count != 1 || g.CommandBuffer.Name != "build-cmd" || !reflect.DeepEqual(g.Labels, []string{"frame", "upload"}) {
				t.Errorf("group %s %s %s #%d submit %d count %d cmd %q labels %q; want %s %s %s #0 submit %d count 1 "+
					"build-cmd [frame upload]", g.Check, g.VUID, g.Action, g.ActionIndex, g.Submit, g.Count,
					g.CommandBuffer.Name, g.Labels, c.check, c.vuid, c.action, c.submit)
			}
			if !strings.Contains(g.Message, c.msg) {
				t.Errorf("message %q\nwant it to hold %q", g.Message, c.msg)
			}
			if !reflect.DeepEqual(g.Coords, c.coords) {
				t.Errorf("coords %v, want %v", g.Coords, c.coords)
			}
			if c.accel != nil {
				got := *g.Accel
				if c.accel.Value == "" { // an address the test does not know: its form
					if !strings.HasPrefix(got.Value, "0x") {
						t.Errorf("value %q, want an address", got.Value)
					}
					got.Value = ""
				}
				if got != *c.accel {
					t.Errorf("values %+v, want %+v", got, *c.accel)
				}
			}
			if c.depth != nil && (g.Depth == nil || *g.Depth != *c.depth) {
				t.Errorf("values %+v, want %+v", g.Depth, *c.depth)
			}
		})
	}
}

func withRef(a *buildAccel, value, reason string) *buildAccel {
	a.Value, a.Reason = value, reason
	return a
}

// TestBuildChecksClean: a valid TLAS build (two live instances), BLAS
// builds of valid AABBs and triangles, and depth copies of values in
// [0, 1] report nothing, leave nothing unchecked and exit 0.
func TestBuildChecksClean(t *testing.T) {
	requireBuilds(t)
	for _, c := range []struct{ kase, output string }{
		{"clean", "instances-unchanged=1"},
		{"depth-clean", "depth=0.25 0.25 0.25 0.25"},
	} {
		t.Run(c.kase, func(t *testing.T) {
			t.Parallel()
			var r buildReport
			code, out := buildApp.runInto(t, &r, nil, nil, "--case", c.kase)
			if code != 0 || len(r.Errors) != 0 || len(r.Unchecked) != 0 {
				t.Errorf("exit %d, %d groups, unchecked %+v; want 0, none, none\n%s", code, len(r.Errors), r.Unchecked, out)
			}
			if !strings.Contains(out, c.output+"\n") {
				t.Errorf("app printed no %q:\n%s", c.output, out)
			}
		})
	}
}

// TestBuildChecksExecute: with on_error execute the bad instance and the
// depth value reach the build and the image as the app recorded them
// (lavapipe skips an instance whose reference is unknown to it; a depth of
// 1.5 is stored), reported with skipped / clamped false.
func TestBuildChecksExecute(t *testing.T) {
	requireBuilds(t)
	for _, c := range []struct{ kase, output string }{
		{"destroyed", "instances-unchanged=1"},
		{"depth", "depth=1.5 0.5 0.5 0.5"},
	} {
		t.Run(c.kase, func(t *testing.T) {
			t.Parallel()
			var r buildReport
			code, out := buildApp.runInto(t, &r, nil, []string{"--on-error", "execute"}, "--case", c.kase)
			if code != 1 || len(r.Errors) != 1 {
				t.Fatalf("exit %d, %d groups; want 1, 1\n%s", code, len(r.Errors), out)
			}
			g := r.Errors[0]
			if (g.Accel != nil && g.Accel.Skipped) || (g.Depth != nil && g.Depth.Clamped) ||
				strings.Contains(g.Message, "gpuav-dbg") {
				t.Errorf("group says the layer changed the command under execute: %+v", g)
			}
			if !strings.Contains(out, c.output+"\n") {
				t.Errorf("app printed no %q:\n%s", c.output, out)
			}
		})
	}
}

// TestBuildChecksOff: with the checks off nothing is reported and the
// depth reaches the image as recorded.
func TestBuildChecksOff(t *testing.T) {
	requireBuilds(t)
	var r buildReport
	flags := []string{"--check", "acceleration_structure_build=off", "--check", "depth_copy_range=off"}
	code, out := buildApp.runInto(t, &r, nil, flags, "--case", "depth")
	if code != 0 || len(r.Errors) != 0 || !strings.Contains(out, "depth=1.5 0.5 0.5 0.5\n") {
		t.Errorf("exit %d, %d groups; want 0, none, and the depth copied as recorded\n%s", code, len(r.Errors), out)
	}
}

// requireBuilds skips where the device lacks what buildapp's device
// enables (vulkaninfo: the NVIDIA H200 has no ray queries), for the depth
// copies' cases too.
func requireBuilds(t *testing.T) {
	t.Helper()
	for _, f := range []string{"accelerationStructure", "rayQuery"} {
		if !driverHas(t, f) {
			t.Skipf("the device has no %s (vulkaninfo): buildapp cannot create its device", f)
		}
	}
}
