#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
// coopapp's shader: one DIMxDIM float accumulator loaded row-major from
// binding 0 (floats) and stored column-major to binding 1 (vec4s), the
// elements and strides from the push constants. Debian 12's glslang 12
// predates GL_KHR_cooperative_matrix: coop.comp.dim8.spv and
// coop.comp.dim16.spv are built by a newer one (khronos-sid's, Debian sid's
// glslang 16.6) as
//   glslangValidator -g --target-env vulkan1.3 -DDIM=8 -o coop.comp.dim8.spv coop.comp
//   glslangValidator -g --target-env vulkan1.3 -DDIM=16 -o coop.comp.dim16.spv coop.comp
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { float data[]; } inb;
layout(set = 0, binding = 1) buffer Out { vec4 data[]; } outb;
layout(push_constant) uniform PC { uint element; uint stride; uint out_element; uint out_stride; } pc;

void main() {
    coopmat<float, gl_ScopeSubgroup, DIM, DIM, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, inb.data, pc.element, pc.stride, gl_CooperativeMatrixLayoutRowMajor);               // EXPECT buffer_oob load
    coopMatStore(m, outb.data, pc.out_element, pc.out_stride, gl_CooperativeMatrixLayoutColumnMajor);  // EXPECT buffer_oob store
}
