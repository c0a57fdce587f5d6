// Package largeshader generates large compute shaders for the
// instrumentation benchmarks (gpuav.BenchmarkInstrumentLarge) and for the
// pipeline-creation timing app (gpuav/testdata/pipetime), so both measure
// the same modules.
package largeshader

import (
	"fmt"
	"strings"
)

// Source returns a GLSL compute shader of n helper functions, each with a
// loop, arithmetic and a dynamically indexed access to a sized array of 4
// storage buffers (set 0, binding 1), and every fourth with a ray query on
// the acceleration structure at set 0, binding 0. Push constants: uint idx,
// float t (8 bytes). Compile it with --target-env vulkan1.2 or later.
func Source(n int) string {
	var s strings.Builder
	s.WriteString(`#version 460
#extension GL_EXT_ray_query : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 1, std430) buffer Buf { float v[]; } bufs[4];
layout(push_constant) uniform PC { uint idx; float t; } pc;
`)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&s, "float f%d(float x) {\n    float acc = x;\n", i)
		fmt.Fprintf(&s, "    for (int k = 0; k < %d; k++) { acc = acc * 1.0001 + sin(acc + float(k)); }\n", 2+i%5)
		fmt.Fprintf(&s, "    acc += bufs[(pc.idx + %du) & 7u].v[gl_GlobalInvocationID.x + %du];\n", i, i)
		if i%4 == 0 {
			s.WriteString("    rayQueryEXT q;\n    rayQueryInitializeEXT(q, tlas, 0, 0xff, vec3(acc), pc.t, vec3(0.0, 0.0, 1.0), 10.0);\n")
			s.WriteString("    if (rayQueryProceedEXT(q)) acc += 1.0;\n")
		}
		s.WriteString("    return acc;\n}\n")
	}
	s.WriteString("void main() {\n    float a = float(gl_GlobalInvocationID.x);\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&s, "    a = f%d(a);\n", i)
	}
	s.WriteString("    bufs[0].v[gl_GlobalInvocationID.x] = a;\n}\n")
	return s.String()
}
