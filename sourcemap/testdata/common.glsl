// helper included by with_include.frag
vec4 fetch(uint i) {
    return texture(tex[i], vec2(0.5));
}
