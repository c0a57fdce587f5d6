#version 450 core
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_KHR_cooperative_matrix : enable
// The buffer_oob pass on cooperative-matrix loads and stores: the bytes a
// matrix covers, (major - 1) * stride * the pointee's bytes + one row or
// column, from the pointer's byte offset (gpuav_coopmat_span), checked as
// one access, and where cooperative_matrix_alignment is on, the pointer's
// offset and the stride in bytes against the lesser of 16 and one row's or
// column's bytes (gpuav_coopmat_misaligned) in the same guard; inside a
// loop, the report is folded into one after it. Through shared memory
// they are left unchecked, with a warning. Debian 12's glslang 12 predates
// GL_KHR_cooperative_matrix: the module is
// cooperative_matrix.comp.vulkan1.3.spv, built by a newer glslang (Debian
// sid's 16.6, khronos-sid's setup.sh) as
//   glslangValidator -g --target-env vulkan1.3 -o cooperative_matrix.comp.vulkan1.3.spv cooperative_matrix.comp
// INSTRUMENT checks=buffer_oob,cooperative_matrix_alignment env=vulkan1.3 prebuilt
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { uint stride; uint element; float data[]; } inb;
layout(set = 0, binding = 1) buffer Out { uvec4 tiles[]; } outb;
coopmat<float, gl_ScopeSubgroup, 16, 8, gl_MatrixUseAccumulator> m;
shared float tile[16 * 8];

void main() {
    uint stride = inb.stride;                                                        // EXPECT buffer_oob
    uint element = inb.element;                                                      // EXPECT buffer_oob
    coopMatLoad(m, inb.data, element, stride, gl_CooperativeMatrixLayoutRowMajor);   // EXPECT buffer_oob+cooperative_matrix_alignment
    coopMatStore(m, outb.tiles, 2, 4, gl_CooperativeMatrixLayoutColumnMajor);        // EXPECT buffer_oob+cooperative_matrix_alignment
    coopMatStore(m, tile, 0, 8, gl_CooperativeMatrixLayoutRowMajor);                 // EXPECT unchecked
    for (uint k = 0u; k < element; k++) {
        coopMatLoad(m, inb.data, k * 8u, stride, gl_CooperativeMatrixLayoutRowMajor);  // EXPECT buffer_oob+cooperative_matrix_alignment@loop
    }
    coopMatStore(m, outb.tiles, 0, 2, gl_CooperativeMatrixLayoutRowMajor);           // EXPECT buffer_oob+cooperative_matrix_alignment
}
