#version 450
// buffer_oob instrumentation: every access's byte offset and size come from
// the explicit layout (TestInstrumentBufferOOB lists them in this order).
layout(local_size_x = 1) in;

struct Item {
    vec3 pos;  // offset 0, 12 bytes
    float w;   // offset 12
    uint tag;  // offset 16
};              // std430 stride 32 (vec3 aligns the struct to 16)

layout(set = 0, binding = 0, std140) uniform Params {
    uint n;          // 0
    vec4 color;      // 16
    mat4 m;          // 32, column-major, MatrixStride 16
    float f[4];      // 96, ArrayStride 16 (std140)
    layout(row_major) mat3x2 rm; // 160, row-major: 2 rows, MatrixStride 16
} params;

layout(set = 0, binding = 1, std430) buffer Data {
    uint count;      // 0
    uint pad;        // 4
    uvec2 v;         // 8
    Item items[];    // 16, ArrayStride 32
} data;

layout(set = 1, binding = 2, std430) buffer Many {
    uint x[];        // ArrayStride 4
} many[3];

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint a = params.n;                 // off 0 size 4
    vec4 c = params.color;             // off 16 size 16
    vec4 col = params.m[i];            // off 32 + i*16 size 16
    float e = params.m[2][i];          // off 32+32 + i*4 size 4
    float g = params.f[i];             // off 96 + i*16 size 4
    vec2 r = params.rm[1];             // row-major column 1 of 2 rows: off 164, size (2-1)*16+4 = 20
    data.items[i].w = c.x + e + g + r.x + col.y; // off 16 + i*32 + 12 size 4 (write)
    data.v.y = a;                      // off 12 size 4 (write)
    atomicAdd(data.count, 1u);         // off 0 size 4 (atomic write)
    Item it = data.items[i + 1u];      // off 16 + (i+1)*32 size 20 (struct load)
    many[i].x[it.tag] = 7u;            // set 1 binding 2 index i, off tag*4 size 4
}
