#version 460
// One invocation prints every conversion GL_EXT_debug_printf has, from
// push-constant values (not folded by the compiler) and constants. Each
// call's comment lists the argument words the shader writes for it
// (i: int, u: uint, f: float, u64: a 64-bit value as two words, low first).
#extension GL_EXT_debug_printf : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require
layout(local_size_x = 1) in;
layout(push_constant) uniform PC {
    int neg;       // -135
    uint u;        // 256
    float pi;      // 3.1415
    float tiny;    // 0.00001234
    uint64_t big;  // 0x2000000000000001
    double d;      // 1.5
} pc;

void main() {
    debugPrintfEXT("Here are two float values %f, %f", 1.0, pc.pi);                        // WORDS f:1 f:3.1415
    debugPrintfEXT("Here's a smaller float value %1.2f", pc.pi);                           // WORDS f:3.1415
    debugPrintfEXT("Here's an integer %i with text before and after it", pc.neg);          // WORDS i:-135
    debugPrintfEXT("Here's an integer in octal %o and hex 0x%x", pc.u, pc.u);              // WORDS u:256 u:256
    debugPrintfEXT("%d is a negative integer", pc.neg);                                    // WORDS i:-135
    debugPrintfEXT("Here's a vector of floats %1.2v4f", vec4(1.2, 2.2, 3.2, 4.2));         // WORDS f:1.2 f:2.2 f:3.2 f:4.2
    debugPrintfEXT("Here's a float in sn %e", pc.pi);                                      // WORDS f:3.1415
    debugPrintfEXT("Here's a float in sn %1.2e", pc.pi);                                   // WORDS f:3.1415
    debugPrintfEXT("Here's a float in shortest %g", pc.pi);                                // WORDS f:3.1415
    debugPrintfEXT("Here's a float in hex %1.9a", pc.pi);                                  // WORDS f:3.1415
    debugPrintfEXT("First printf with a %% and no value");                                 // WORDS
    debugPrintfEXT("%d %i %u %x %X %o", pc.neg, pc.neg, pc.u, pc.u + 4000u, pc.u + 4000u, 8u); // WORDS i:-135 i:-135 u:256 u:4256 u:4256 u:8
    debugPrintfEXT("%f %F %e %E %g %G %a %A", pc.tiny, pc.pi, pc.tiny, pc.pi, pc.tiny, pc.pi * 1e6, -pc.pi, pc.pi); // WORDS f:0.00001234 f:3.1415 f:0.00001234 f:3.1415 f:0.00001234 f:3141500 f:-3.1415 f:3.1415
    debugPrintfEXT("[%5d][%-5d][%05d][%+d][% d][%.3d][%#x][%#o]", pc.neg, 42, pc.neg, 42, 42, 7, pc.u, 8u); // WORDS i:-135 i:42 i:-135 i:42 i:42 i:7 u:256 u:8
    debugPrintfEXT("[%8.3f][%-10.2e][%08.3f][%.0f][%#.0f][%+.1g]", pc.pi, pc.tiny, -pc.pi, 2.5, 2.5, pc.tiny); // WORDS f:3.1415 f:0.00001234 f:-3.1415 f:2.5 f:2.5 f:0.00001234
    debugPrintfEXT("inf %f, nan %f, -inf %E", uintBitsToFloat(0x7f800000u), uintBitsToFloat(0x7fc00000u), -uintBitsToFloat(0x7f800000u + pc.u * 0u)); // WORDS u:0x7f800000 u:0x7fc00000 u:0xff800000
    debugPrintfEXT("ivec2 %v2d ivec3 %v3i uvec4 %v4u", ivec2(pc.neg, 1), ivec3(-1, 0, 1), uvec4(pc.u, 1u, 2u, 3u)); // WORDS i:-135 i:1 i:-1 i:0 i:1 u:256 u:1 u:2 u:3
    debugPrintfEXT("hex vector %v3x and %#v2X", uvec3(255u, 256u, 4095u), uvec2(171u, 0u)); // WORDS u:255 u:256 u:4095 u:171 u:0
    debugPrintfEXT("vec2 %v2f vec3 %.3v3e vec4 %v4g", vec2(pc.pi, 0.5), vec3(pc.tiny, 1.0, -2.0), vec4(0.1, 100000.0, 1e6, pc.tiny)); // WORDS f:3.1415 f:0.5 f:0.00001234 f:1 f:-2 f:0.1 f:100000 f:1000000 f:0.00001234
    debugPrintfEXT("bool %u and bvec2 %v2u", pc.neg < 0, bvec2(pc.u == 0u, true));        // WORDS u:1 u:0 u:1
    debugPrintfEXT("Here's an unsigned long 0x%ul", pc.big);                               // WORDS u64:0x2000000000000001
    debugPrintfEXT("Here's a vector of ul %v4ul", u64vec4(pc.big, pc.big - 1ul, 16ul, 15ul)); // WORDS u64:0x2000000000000001 u64:0x2000000000000000 u64:16 u64:15
    debugPrintfEXT("Unsigned long as decimal %lu and as hex 0x%lx", pc.big, pc.big);       // WORDS u64:0x2000000000000001 u64:0x2000000000000001
    debugPrintfEXT("signed 64-bit %lu", int64_t(pc.neg));                                  // WORDS u64:0xffffffffffffff79
    debugPrintfEXT("a double is two words: %f %f", pc.d);                                  // WORDS u64:0x3ff8000000000000
    debugPrintfEXT("long conversions of 32-bit values: %ld %lX %hd %hhu", pc.neg, pc.u, 70000, pc.neg); // WORDS i:-135 u:256 i:70000 i:-135
    debugPrintfEXT("ends with a newline %d\n", 1);                                         // WORDS i:1
}
