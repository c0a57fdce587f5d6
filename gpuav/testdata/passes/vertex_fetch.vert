#version 450
// The vertex_fetch pass: every load of a vertex input (whole, a vector's
// component, a matrix column by a constant or a dynamic index) checks
// the index it was fetched with against the action's vertex table
// (gpuav_vertex_fetch_check, the table looked up once in the entry block);
// builtins are not vertex inputs.
// INSTRUMENT checks=vertex_fetch_oob
layout(location = 0) in vec4 pos;
layout(location = 1) in vec2 uv;
layout(location = 2) in mat4 model;
layout(location = 0) out vec2 out_uv;
layout(push_constant) uniform PC { int col; } pc;

void main() {
    vec4 p = pos;                         // EXPECT vertex_fetch_oob
    out_uv = vec2(uv.y, 0.0);             // EXPECT vertex_fetch_oob
    p += model[1];                        // EXPECT vertex_fetch_oob
    p += model[pc.col];                   // EXPECT vertex_fetch_oob
    gl_Position = p + vec4(float(gl_VertexIndex)); // EXPECT none
}
