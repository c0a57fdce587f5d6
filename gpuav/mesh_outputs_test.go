package gpuav

import "testing"

// TestDescribeMeshOutputs: the VUID of the count that is over (the
// vertices' when both are), the message with every count and maximum.
func TestDescribeMeshOutputs(t *testing.T) {
	for _, tc := range []struct {
		code CheckCode
		p    [RecordParams]uint32
		vuid string
		msg  string
	}{
		{CodeMeshVertices, [8]uint32{257, 2, 256, 128}, "VUID-RuntimeSpirv-MeshEXT-07332",
			"OpSetMeshOutputsEXT: the Vertex Count (257) is greater than OutputVertices (max_vertices = 256)."},
		{CodeMeshPrimitives, [8]uint32{3, 4294967295, 3, 1}, "VUID-RuntimeSpirv-MeshEXT-07333",
			"OpSetMeshOutputsEXT: the Primitive Count (4294967295) is greater than OutputPrimitivesEXT (max_primitives = 1)."},
		{CodeMeshVertices, [8]uint32{6, 2, 3, 1}, "VUID-RuntimeSpirv-MeshEXT-07332",
			"OpSetMeshOutputsEXT: the Vertex Count (6) is greater than OutputVertices (max_vertices = 3), and the Primitive Count (2) is greater than OutputPrimitivesEXT (max_primitives = 1)."},
	} {
		d := Describe(tc.code, tc.p)
		m := d.Mesh
		if d.VUID("vkCmdDrawMeshTasksEXT") != tc.vuid || d.Message != tc.msg || m == nil || m.VertexCount != tc.p[0] ||
			m.PrimitiveCount != tc.p[1] || m.MaxVertices != tc.p[2] || m.MaxPrimitives != tc.p[3] {
			t.Errorf("%v: %q %q %+v", tc.p, d.VUID("vkCmdDrawMeshTasksEXT"), d.Message, m)
		}
	}
	for _, v := range []OnError{OnErrorSkip, OnErrorClamp} {
		if o := FailedAccess(v, CodeMeshVertices, [RecordParams]uint32{}); o.Access != AccessClamped {
			t.Errorf("%s: %+v, want clamped", v, o)
		}
	}
}

// TestDescribeMeshTaskPayload: a task payload read with no task shader
// names -12380 and the undefined value, whatever the record holds.
func TestDescribeMeshTaskPayload(t *testing.T) {
	for _, p := range [][RecordParams]uint32{{}, {TaskPayloadRead}} {
		d := Describe(CodeMeshTaskPayload, p)
		const msg = "The mesh shader read its task payload (a TaskPayloadWorkgroupEXT variable), but the pipeline has no task shader " +
			"to write it: the value is undefined."
		if d.FullVUID != "VUID-RuntimeSpirv-MeshEXT-12380" || d.Message != msg || d.Warning {
			t.Errorf("%v: %+v", p, d)
		}
	}
}
