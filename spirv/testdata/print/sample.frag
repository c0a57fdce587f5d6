#version 450
// A fragment shader sampling an array of combined image samplers.
#extension GL_EXT_nonuniform_qualifier : require

layout(set = 0, binding = 1) uniform sampler2D textures[];
layout(set = 0, binding = 0) uniform Params {
    vec4 tint;
    ivec2 offset;
    uint index;
} params;

layout(location = 0) in vec2 uv;
layout(location = 1) flat in uint material;
layout(location = 0) out vec4 color;

void main() {
    vec4 c = texture(textures[nonuniformEXT(material)], uv);
    c += textureLodOffset(textures[params.index], uv, 0.0, ivec2(1, -1));
    c += texelFetch(textures[0], ivec2(gl_FragCoord.xy), 0);
    if (c.a < 0.01) {
        discard;
    }
    color = c * params.tint + vec4(gl_FrontFacing ? 1.0 : 0.0);
}
