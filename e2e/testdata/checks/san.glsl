// The shader sanitizer's cases (sanapp.c), shared by san.comp and
// san.frag: case pc.kase runs one operation, its operands from the push
// constants, and writes its result to outs for invocation x.
#extension GL_EXT_spirv_intrinsics : require
layout(set = 0, binding = 0, std430) buffer Out { uint u[4]; int i[4]; float f[4]; uint v[16]; } outs;
layout(set = 0, binding = 1) uniform sampler2D img;
layout(push_constant) uniform PC { uint kase; uint u0; int i0; int i1; float f0; float f1; uint n; } pc;
// OpImageGather with any component (GLSL only takes a constant 0..3).
spirv_instruction(id = 96) vec4 gatherAny(sampler2D s, vec2 uv, int comp);

void body(uint x) {
    switch (pc.kase) {
    case 0u:
        outs.u[x] = 100u / pc.u0;                          // EXPECT sanitizer_divide udiv
        break;
    case 1u:
        outs.i[x] = pc.i0 / pc.i1;                         // EXPECT sanitizer_divide sdiv
        break;
    case 2u:
        outs.i[x] = pc.i0 % pc.i1;                         // EXPECT sanitizer_divide smod
        break;
    case 3u: {
        uvec4 r = uvec4(9u, 10u, 11u, 12u) % uvec4(2u, 3u, pc.u0, 5u); // EXPECT sanitizer_divide umod
        outs.v[4u * x] = r.x;
        outs.v[4u * x + 1u] = r.y;
        outs.v[4u * x + 2u] = r.z;
        outs.v[4u * x + 3u] = r.w;
        break;
    }
    case 4u:
        outs.f[x] = mod(pc.f0, pc.f1);                     // EXPECT sanitizer_divide fmod
        break;
    case 5u:
    case 6u:
        outs.f[x] = pow(pc.f0, pc.f1);                     // EXPECT sanitizer_pow
        break;
    case 7u:
        outs.f[x] = atan(pc.f0, pc.f1);                    // EXPECT sanitizer_atan2
        break;
    case 8u:
        outs.f[x] = min(pc.f0, pc.f1);                     // EXPECT sanitizer_minmax min
        break;
    case 9u:
        outs.f[x] = clamp(pc.f0, pc.f1, 1.0);              // EXPECT sanitizer_minmax clamp
        break;
    case 10u: {
        uint acc = 0u;
        for (uint k = 0u; k < pc.n; k++) {
            acc += 1000u / (pc.u0 * (k + 1u));             // EXPECT sanitizer_divide loop
        }
        outs.u[x] = acc;
        break;
    }
    case 11u:
        outs.f[x] = gatherAny(img, vec2(0.5), 5).x;        // EXPECT sanitizer_gather
        break;
    case 12u:
        // A divisor the analyses prove non-zero: no check.
        outs.u[x] = 100u / (pc.u0 | 1u);
        break;
    }
}
