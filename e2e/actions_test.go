package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndirectActions: the indirect forms of the mesh-task and ray-tracing
// actions (stageapp --action) are attributed by name, with the invocation
// coordinates of the direct form (the indirect buffers hold the same
// sizes): one descriptor_index_oob of index 4 per run.
func TestIndirectActions(t *testing.T) {
	for _, tc := range []struct {
		stage, action, feature, reported string
		actionFeature                    string // the action's own feature, if any
	}{
		{"task", "indirect", "taskShader", "vkCmdDrawMeshTasksIndirectEXT", ""},
		{"mesh", "indirect", "meshShader", "vkCmdDrawMeshTasksIndirectEXT", ""},
		{"mesh", "indirect-count", "meshShader", "vkCmdDrawMeshTasksIndirectCountEXT", ""},
		{"rchit", "indirect", "rayTracingPipeline", "vkCmdTraceRaysIndirectKHR", ""},
		{"rmiss", "indirect", "rayTracingPipeline", "vkCmdTraceRaysIndirectKHR", ""},
		{"rchit", "indirect2", "rayTracingPipeline", "vkCmdTraceRaysIndirect2KHR", "rayTracingPipelineTraceRaysIndirect2"},
		{"rmiss", "indirect2", "rayTracingPipeline", "vkCmdTraceRaysIndirect2KHR", "rayTracingPipelineTraceRaysIndirect2"},
	} {
		t.Run(tc.stage+"/"+tc.action, func(t *testing.T) {
			requireStage(t, tc.stage, tc.feature)
			var st *struct {
				stage  string
				coords map[string][]float64
			}
			for _, s := range extraStages {
				if s.arg == tc.stage {
					st = &struct {
						stage  string
						coords map[string][]float64
					}{s.stage, s.coords}
				}
			}
			if st == nil {
				t.Fatalf("no stage %s in extraStages", tc.stage)
			}
			code, r, out := stageApp.run(t, nil, nil, "--stage", tc.stage, "--action", tc.action)
			if tc.actionFeature != "" && code == 0 && strings.Contains(out, "unsupported "+tc.stage+"\n") {
				if driverHas(t, tc.actionFeature) {
					t.Fatalf("stageapp says the device lacks --action %s, but vulkaninfo reports %s = true",
						tc.action, tc.actionFeature)
				}
				t.Skipf("the driver does not have %s (vulkaninfo: no %s = true)", tc.action, tc.actionFeature)
			}
			if code != 1 {
				t.Fatalf("exit code %d, want 1\n%s", code, out)
			}
			if !strings.Contains(out, "value=1 102\n") {
				t.Errorf("the checked load must be skipped (value=1 102); app printed:\n%s", out)
			}
			if len(r.Errors) != 1 {
				t.Fatalf("%d error groups, want 1\n%s", len(r.Errors), out)
			}
			e := r.Errors[0]
			submit := 1
			if strings.HasPrefix(tc.reported, "vkCmdTraceRays") {
				submit = 2 // submit 1 builds the acceleration structures
			}
			vuid := "VUID-" + tc.reported + "-None-10068"
			if e.Check != "descriptor_index_oob" || e.VUID != vuid || e.Count != 1 || e.Stage != st.stage ||
				e.Action != tc.reported || e.ActionIndex != 0 || e.Submit != submit ||
				e.CommandBuffer.Name != "stage-cmd" || e.Pipeline.Name != "stage-pipeline" {
				t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d submit %d cb %q pipeline %q; "+
					"want descriptor_index_oob %s 1 %s %s #0 submit %d stage-cmd stage-pipeline",
					e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.Submit, e.CommandBuffer.Name,
					e.Pipeline.Name, vuid, st.stage, tc.reported, submit)
			}
			if d := e.Descriptor; d == nil || d.Set != 0 || d.Binding != 1 || d.Index != 4 || d.ArrayLength != 4 {
				t.Errorf("descriptor %+v, want set 0 binding 1 index 4 array_length 4", d)
			}
			if fmt.Sprint(e.Coords) != fmt.Sprint(st.coords) {
				t.Errorf("coords %v, want %v", e.Coords, st.coords)
			}
		})
	}
}
