#version 450
// The buffer_oob pass: every load, store and atomic through a uniform or
// storage buffer gets its byte offset (constant parts folded, dynamic ones
// added by gpuav_buffer_offset_add) checked against its element by
// gpuav_buffer_check, the binding looked up once per function in the entry
// block. params.n, params.color.x and data.count have bounded offsets: their
// checks run only when their binding's fact (gpuav_binding_fact, in the entry
// block: params up to byte 20, data up to byte 4) does not hold.
// INSTRUMENT checks=buffer_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std140) uniform Params { uint n; vec4 color; } params;
layout(set = 0, binding = 1, std430) buffer Data { uint count; uint v[]; } data;
layout(set = 1, binding = 2, std430) buffer Many { uint x[]; } many[3];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = params.n;                    // EXPECT buffer_oob
    data.v[i] = n + uint(params.color.x); // EXPECT buffer_oob*2
    atomicAdd(data.count, 1u);            // EXPECT buffer_oob
    many[i % 3u].x[n] = 7u;               // EXPECT buffer_oob
}
