#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_buffer_reference : require
// coopapp's device-address shader: one DIMxDIM float accumulator loaded
// row-major through the buffer reference src, the element and stride from
// the push constants, and stored row-major through dst. Prebuilt as
// coop.comp is (coop_bda.comp.dim8.spv, coop_bda.comp.dim16.spv):
//   glslangValidator -g --target-env vulkan1.3 -DDIM=8 -o coop_bda.comp.dim8.spv coop_bda.comp
//   glslangValidator -g --target-env vulkan1.3 -DDIM=16 -o coop_bda.comp.dim16.spv coop_bda.comp
layout(local_size_x = 32) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(push_constant) uniform PC { Floats src; Floats dst; uint element; uint stride; } pc;

void main() {
    coopmat<float, gl_ScopeSubgroup, DIM, DIM, gl_MatrixUseAccumulator> m;
    coopMatLoad(m, pc.src.v, pc.element, pc.stride, gl_CooperativeMatrixLayoutRowMajor);  // EXPECT bda_oob load
    coopMatStore(m, pc.dst.v, 0, DIM, gl_CooperativeMatrixLayoutRowMajor);                // EXPECT bda_oob store
}
