#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
#extension GL_EXT_buffer_reference : require
// The bda pass on cooperative-matrix loads and stores through buffer
// references: the span (gpuav_coopmat_span) from the address against the
// address table (gpuav_bda_check), and with cooperative_matrix_alignment
// on, the address and the stride in bytes against the lesser of 16 and one
// row's or column's bytes, in one guard. Built by a newer glslang than
// Debian 12's (see cooperative_matrix.comp) as
//   glslangValidator -g --target-env vulkan1.3 -o cooperative_matrix_bda.comp.vulkan1.3.spv cooperative_matrix_bda.comp
// INSTRUMENT checks=bda_oob,cooperative_matrix_alignment env=vulkan1.3 prebuilt
layout(local_size_x = 32) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Tiles { vec4 v[]; };
layout(push_constant) uniform PC { Tiles src; Tiles dst; uint element; uint stride; } pc;
coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> m;

void main() {
    coopMatLoad(m, pc.src.v, pc.element, pc.stride, gl_CooperativeMatrixLayoutRowMajor);   // EXPECT bda_oob+cooperative_matrix_alignment
    coopMatStore(m, pc.dst.v, 0, 4, gl_CooperativeMatrixLayoutColumnMajor);               // EXPECT bda_oob+cooperative_matrix_alignment
}
