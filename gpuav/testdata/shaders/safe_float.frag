#version 450
// Float-derived indices (float_index.go): a conversion whose float operand
// has a known range is clamped to it, and the index is bounded by it.
// INSTRUMENT checks=descriptor_index_oob
// INSTRUMENT checks=descriptor_index_oob -Os
layout(set = 0, binding = 1) uniform sampler2D texs[4];
layout(push_constant) uniform PC { float x; float y; } pc;
layout(location = 0) in vec2 uvIn;
layout(location = 0) out vec4 color;

void main() {
    vec2 uv = uvIn;
    vec4 c = texture(texs[uint(fract(pc.x) * 3.0)], uv);   // EXPECT none
    c += texture(texs[uint(fract(pc.x) * 4.0)], uv);       // EXPECT descriptor_index_oob
    c += texture(texs[int(clamp(pc.y, 0.0, 3.0))], uv);    // EXPECT none
    c += texture(texs[int(clamp(pc.y, -1.0, 3.0))], uv);   // EXPECT descriptor_index_oob
    c += texture(texs[uint(min(pc.y, 3.5))], uv);          // EXPECT none
    c += texture(texs[uint(pc.y)], uv);                    // EXPECT descriptor_index_oob
    c += texture(texs[uint(floor(fract(pc.y) * 3.9))], uv); // EXPECT none
    uv = fract(uv * 1.5 + c.xy);
    c += texture(texs[uint(uv.x * 3.0)], uv);              // EXPECT none
    uv.x = pc.y;
    c += texture(texs[uint(uv.x * 3.0)], uv);              // EXPECT descriptor_index_oob
    c += texture(texs[uint(uv.y * 3.0 + 1.0)], uv);        // EXPECT descriptor_index_oob
    color = c;
}
