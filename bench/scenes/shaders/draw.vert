#version 450
// draw-heavy scene: draw number gl_InstanceIndex (firstInstance) covers one
// cell of a 100 x 100 grid with a quad (6 vertices, no vertex buffer).
layout(set = 0, binding = 1) uniform Tint { vec4 tint; } u;
layout(location = 0) out vec2 uv;
layout(location = 1) out vec4 color;

void main() {
    uint cell = uint(gl_InstanceIndex) % 10000u;
    vec2 corner = vec2(float(cell % 100u), float(cell / 100u)) / 50.0 - 1.0;
    uint v = uint(gl_VertexIndex);
    vec2 q = vec2((v == 1u || v == 2u || v == 4u) ? 1.0 : 0.0,
                  (v == 2u || v == 4u || v == 5u) ? 1.0 : 0.0);
    uv = q;
    color = u.tint;
    gl_Position = vec4(corner + q / 50.0, 0.0, 1.0);
}
