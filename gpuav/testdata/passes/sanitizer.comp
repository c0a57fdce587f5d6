#version 450
#extension GL_EXT_spirv_intrinsics : require
// The sanitizer pass: an operation whose operands may make it undefined
// gets an inline test, a report out of line and, under skip, a defined
// result (0 in the failing lanes; NMin/NMax/NClamp for a NaN operand); one
// whose operands the analyses prove safe gets nothing. A gather's
// component outside 0..3 reports each time it runs.
// INSTRUMENT checks=sanitizer_divide,sanitizer_pow,sanitizer_atan2,sanitizer_minmax,sanitizer_gather
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint u; int i; float f; float g; uvec4 uv; vec4 fv; uint ou; int oi; float of; uvec4 ouv; vec4 ofv; } b;
layout(set = 0, binding = 1) uniform sampler2D s;
spirv_instruction(id = 96) vec4 gatherAny(sampler2D s, vec2 uv, int comp);

void main() {
    b.ou = 100u / b.u;                       // EXPECT sanitizer_divide
    b.oi = b.i % 7;                          // EXPECT none
    b.oi = b.i / -1;                         // EXPECT sanitizer_divide
    b.oi = 7 / b.i;                          // EXPECT sanitizer_divide
    b.ouv = uvec4(9u) % b.uv;                // EXPECT sanitizer_divide
    b.of = mod(b.f, b.g);                    // EXPECT sanitizer_divide
    b.of = pow(b.f, b.g);                    // EXPECT sanitizer_pow
    b.of = atan(b.f, b.g);                   // EXPECT sanitizer_atan2
    b.of = min(b.f, 1.0);                    // EXPECT sanitizer_minmax
    b.ofv = clamp(b.fv, 0.0, b.g);           // EXPECT sanitizer_minmax
    b.ofv = gatherAny(s, vec2(0.5), 5);      // EXPECT sanitizer_gather
    b.ou = b.u / 4u;                         // EXPECT none
    b.ofv = textureGather(s, vec2(0.5), 3);  // EXPECT none
}
