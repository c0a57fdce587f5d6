#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// The address arrives as a uint64_t: the module declares Int64.
layout(local_size_x = 1) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Vec { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Mat { layout(row_major) mat2x3 rm; mat4 cm; };
layout(push_constant) uniform PC { uint64_t addr; uint64_t maddr; uint i; } pc;
void main() {
    Vec p = Vec(pc.addr);
    p.v[pc.i] = p.v[pc.i + 1u] * 2.0;           // load 16, store 16
    Mat m = Mat(pc.maddr);
    mat2x3 a = m.rm;                            // row-major 2x3: stride 16, 1*16+2*4 = 24 bytes
    m.cm[1] = vec4(a[0], a[1].x);               // column store 16
}
