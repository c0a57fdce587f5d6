#version 450
// descriptor_index_oob test shader: atomics through OpImageTexelPointer on
// elements of sized arrays of storage images and storage texel buffers.
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D imgs[4];
layout(set = 0, binding = 1, r32ui) uniform uimageBuffer tbs[3];
layout(push_constant) uniform PC { uint i; int j; } pc;
layout(set = 0, binding = 2, std430) buffer Out { uint a; uint b; } o;
void main() {
    o.a = imageAtomicAdd(imgs[pc.i], ivec2(0), 1u);
    o.b = imageAtomicMax(tbs[pc.j], 5, 9u);
    imageAtomicAdd(imgs[2], ivec2(1, 0), 1u); // constant, in bounds: no check
}
