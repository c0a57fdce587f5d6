#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// The sanitizer over every width: 8-, 16- and 64-bit integers, float16
// and float64, scalars and vectors; a check inside a loop reports once
// after it.
// INSTRUMENT checks=sanitizer_divide,sanitizer_pow,sanitizer_atan2,sanitizer_minmax
// INSTRUMENT checks=sanitizer_divide,sanitizer_pow,sanitizer_atan2,sanitizer_minmax env=vulkan1.2
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B {
    int64_t l; uint64_t ul; i64vec2 lv; double d; dvec3 dv; uint n;
    int16_t s; uint16_t us; float16_t h; f16vec2 hv; i8vec4 cv;
    int64_t ol; uint64_t oul; i64vec2 olv; double od; dvec3 odv;
    int16_t os; uint16_t ous; float16_t oh; f16vec2 ohv; i8vec4 ocv;
} b;

void main() {
    b.ol = b.l / b.ol;                       // EXPECT sanitizer_divide
    b.oul = b.ul % b.oul;                    // EXPECT sanitizer_divide
    b.olv = b.lv / b.olv;                    // EXPECT sanitizer_divide
    b.od = mod(b.d, b.od);                   // EXPECT sanitizer_divide
    b.ohv = mod(b.hv, b.ohv);                // EXPECT sanitizer_divide
    b.os = b.s / b.os;                       // EXPECT sanitizer_divide
    b.ous = b.us % b.ous;                    // EXPECT sanitizer_divide
    b.oh = max(b.h, float16_t(2.0));         // EXPECT sanitizer_minmax
    b.ohv = min(b.hv, b.ohv);                // EXPECT sanitizer_minmax
    b.ocv = b.cv / b.ocv;                    // EXPECT sanitizer_divide
    b.odv = clamp(b.dv, b.odv, dvec3(1.0));  // EXPECT sanitizer_minmax
    uint acc = 0u;
    for (uint k = 0u; k < b.n; k++) {
        acc += 1000u / (b.n - k);            // EXPECT sanitizer_divide@loop
    }
    b.n = acc;
}
