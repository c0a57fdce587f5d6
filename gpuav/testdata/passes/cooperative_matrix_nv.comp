#version 450 core
#extension GL_KHR_memory_scope_semantics : enable
#extension GL_NV_cooperative_matrix : enable
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : enable
// The buffer_oob pass on SPV_NV_cooperative_matrix's loads and stores (the
// same span and alignment as the KHR ones: the NV instructions' stride is
// also in elements of the pointer's pointee type, their layout a bool).
// INSTRUMENT checks=buffer_oob,cooperative_matrix_alignment env=vulkan1.1
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer In { uint stride; float data[]; } inb;
layout(set = 0, binding = 1) buffer Out { float data[]; } outb;

void main() {
    fcoopmatNV<32, gl_ScopeSubgroup, 16, 8> m;
    uint stride = inb.stride;                            // EXPECT buffer_oob
    coopMatLoadNV(m, inb.data, 4, stride, false);        // EXPECT buffer_oob+cooperative_matrix_alignment
    coopMatStoreNV(m, outb.data, 0, 16, true);           // EXPECT buffer_oob+cooperative_matrix_alignment
}
