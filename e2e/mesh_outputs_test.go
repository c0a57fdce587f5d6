package e2e

import (
	"slices"
	"strings"
	"testing"
)

// TestMeshOutputs: meshapp's SetMeshOutputsEXT counts over the mesh
// shader's max_vertices (3) and max_primitives (1) on lavapipe: one group
// of the 8 invocations (2 workgroups of 4) with the VUID of the count that
// is over (the vertices' when both are), both counts and both maxima, the
// line of mesh.mesh; the counts are clamped to the maxima, so the
// triangle is drawn (the pixel is white). Counts at exactly the maxima,
// and under them, report nothing.
func TestMeshOutputs(t *testing.T) {
	if !driverHas(t, "meshShader") {
		t.Skip("the device has no meshShader (vulkaninfo)")
	}
	tests := []struct {
		kase, vuid, message string
		vertices, prims     uint32
	}{
		{"vertices", "VUID-RuntimeSpirv-MeshEXT-07332",
			"OpSetMeshOutputsEXT: the Vertex Count (5) is greater than OutputVertices (max_vertices = 3).", 5, 1},
		{"primitives", "VUID-RuntimeSpirv-MeshEXT-07333",
			"OpSetMeshOutputsEXT: the Primitive Count (4) is greater than OutputPrimitivesEXT (max_primitives = 1).", 3, 4},
		{"both", "VUID-RuntimeSpirv-MeshEXT-07332",
			"OpSetMeshOutputsEXT: the Vertex Count (6) is greater than OutputVertices (max_vertices = 3), and the Primitive Count (2) is greater than OutputPrimitivesEXT (max_primitives = 1).", 6, 2},
	}
	at := expectAt(t, "mesh.mesh", "mesh_outputs")
	for _, tc := range tests {
		t.Run(tc.kase, func(t *testing.T) {
			code, r, out := meshApp.run(t, nil, nil, "--case", tc.kase)
			requireOneGroup(t, code, r, out)
			e := r.Errors[0]
			if e.Check != "mesh_outputs" || e.VUID != tc.vuid || e.Count != 8 || e.Stage != "mesh" ||
				e.Action != "vkCmdDrawMeshTasksEXT" || e.ActionIndex != 0 || e.CommandBuffer.Name != "mesh-cmd" ||
				e.Pipeline.Name != "mesh-pipeline" {
				t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d cb %q pipeline %q",
					e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name)
			}
			if !strings.HasPrefix(e.Message, "mesh_outputs: "+tc.message+" The counts were clamped to the maxima. "+tc.vuid+".") {
				t.Errorf("message %q, want %q", e.Message, tc.message)
			}
			if m := e.Mesh; m == nil || m.VertexCount != tc.vertices || m.PrimitiveCount != tc.prims || m.MaxVertices != 3 || m.MaxPrimitives != 1 {
				t.Errorf("mesh %+v, want %d, %d of 3, 1", e.Mesh, tc.vertices, tc.prims)
			}
			var xs []float64
			for _, s := range e.Samples {
				if c := s["global_invocation_id"]; len(c) == 3 && c[1] == 0 && c[2] == 0 {
					xs = append(xs, c[0])
				}
			}
			slices.Sort(xs)
			if !slices.Equal(xs, []float64{0, 1, 2, 3}) && !slices.Equal(xs, []float64{0, 1, 2, 3, 4, 5, 6, 7}) {
				t.Errorf("samples %v, want global invocation ids from (0,0,0) up", e.Samples)
			}
			if e.Source.File != "mesh.mesh" || e.Source.Line != at.line || e.Source.Text != at.text {
				t.Errorf("source %+v, want mesh.mesh:%d %q", e.Source, at.line, at.text)
			}
			if e.Outcome == nil || e.Outcome.Access != "clamped" {
				t.Errorf("outcome %+v, want clamped", e.Outcome)
			}
			requireLines(t, out, []string{"pixel=255,255,255,255"})
		})
	}
	t.Run("limits", func(t *testing.T) {
		meshApp.runClean(t, nil, "pixel=255,255,255,255", "counts at exactly the maxima draw the triangle", "--case", "limits")
	})
	t.Run("fewer", func(t *testing.T) {
		meshApp.runClean(t, nil, "pixel=0,0,0,0", "no primitive draws nothing", "--case", "fewer")
	})
}

// TestMeshTaskPayload: meshapp's payload.mesh reads its task payload in a
// pipeline with no task shader on lavapipe: one group of the 8
// invocations with VUID-RuntimeSpirv-MeshEXT-12380 and the line of the
// read; the read yields 0 (skip), so no primitive is drawn (black pixel).
// After payload.task, which writes the payload, nothing is reported and
// the triangle is drawn.
func TestMeshTaskPayload(t *testing.T) {
	if !driverHas(t, "meshShader") {
		t.Skip("the device has no meshShader (vulkaninfo)")
	}
	const vuid = "VUID-RuntimeSpirv-MeshEXT-12380"
	at := expectAt(t, "payload.mesh", "mesh_task_payload")
	code, r, out := meshApp.run(t, nil, nil, "--case", "payload")
	requireOneGroup(t, code, r, out)
	e := r.Errors[0]
	if e.Check != "mesh_task_payload" || e.VUID != vuid || e.Count != 8 || e.Stage != "mesh" ||
		e.Action != "vkCmdDrawMeshTasksEXT" || e.ActionIndex != 0 || e.CommandBuffer.Name != "mesh-cmd" ||
		e.Pipeline.Name != "mesh-pipeline" {
		t.Errorf("group: check %q vuid %q count %d stage %q action %q #%d cb %q pipeline %q",
			e.Check, e.VUID, e.Count, e.Stage, e.Action, e.ActionIndex, e.CommandBuffer.Name, e.Pipeline.Name)
	}
	const message = "mesh_task_payload: The mesh shader read its task payload (a TaskPayloadWorkgroupEXT variable), but the pipeline " +
		"has no task shader to write it: the value is undefined. The read yielded zero. " + vuid + "."
	if !strings.HasPrefix(e.Message, message) {
		t.Errorf("message %q\nwant it to start with %q", e.Message, message)
	}
	if e.Source.File != "payload.mesh" || e.Source.Line != at.line || e.Source.Text != at.text {
		t.Errorf("source %+v, want payload.mesh:%d %q", e.Source, at.line, at.text)
	}
	if e.Outcome == nil || e.Outcome.Access != "skipped" {
		t.Errorf("outcome %+v, want skipped", e.Outcome)
	}
	requireLines(t, out, []string{"pixel=0,0,0,0"})
	t.Run("with_task_shader", func(t *testing.T) {
		if !driverHas(t, "taskShader") {
			t.Skip("the device has no taskShader (vulkaninfo)")
		}
		meshApp.runClean(t, nil, "pixel=255,255,255,255", "the task shader wrote the payload", "--case", "payload-task")
	})
}
