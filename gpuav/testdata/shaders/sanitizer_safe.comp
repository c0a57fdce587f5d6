#version 450
// The sanitizer's analyses: divisors proved non-zero (and, for signed
// divisions, not -1 or a dividend not the minimum value) and pow, atan2,
// min and max operands proved safe get no check; their unsafe twins do.
// INSTRUMENT checks=sanitizer_divide,sanitizer_pow,sanitizer_atan2,sanitizer_minmax
// INSTRUMENT checks=all,-buffer_oob
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer B { uint u; uint n; int i; float f; float g; uint ou; int oi; float of; } b;
layout(push_constant) uniform PC { uint k; } pc;

void main() {
    uint u = b.u;
    int i = b.i;
    b.ou = 100u / (u | 1u);                  // EXPECT none
    b.ou = 100u / max(u, 1u);                // EXPECT none
    b.ou = 100u / clamp(u, 1u, 64u);         // EXPECT none
    b.ou = 100u / clamp(u, 1u, b.n | 1u);    // EXPECT none
    b.ou = 100u / clamp(u, 1u, b.n);         // EXPECT sanitizer_divide
    b.ou = 100u / ((u & 255u) + 1u);         // EXPECT none
    b.ou = 100u / (u + 1u);                  // EXPECT sanitizer_divide
    b.ou = 100u % (pc.k | 4u);               // EXPECT none
    b.oi = 100 / max(i, 1);                  // EXPECT none
    b.oi = 100 / clamp(i, 1, 8);             // EXPECT none
    b.oi = i / ((i & 15) | 1);               // EXPECT none
    b.oi = i / (i | 1);                      // EXPECT sanitizer_divide
    b.oi = (i & 255) / -1;                   // EXPECT none
    b.oi = i / int(u);                       // EXPECT sanitizer_divide
    if (u != 0u) {
        b.ou = 7u / u;                       // EXPECT none
    }
    if (u > 3u) {
        b.ou = 7u % u;                       // EXPECT none
    }
    if (i > 0) {
        b.oi = i / i;                        // EXPECT none
    }
    b.of = mod(b.f, 2.5);                    // EXPECT none
    b.of = mod(b.f, b.g);                    // EXPECT sanitizer_divide
    b.of = pow(abs(b.f), 2.0);               // EXPECT none
    b.of = pow(max(b.f, 0.0), b.g);          // EXPECT sanitizer_minmax sanitizer_pow
    b.of = pow(max(b.f, 0.5), b.g);          // EXPECT sanitizer_minmax
    b.of = pow(b.f * b.f, 3.0);              // EXPECT none
    b.of = pow(2.0, b.g);                    // EXPECT none
    b.of = atan(b.f, 1.0);                   // EXPECT none
    b.of = atan(b.f, b.g);                   // EXPECT sanitizer_atan2
    b.of = min(float(u), 1.0);               // EXPECT none
    b.of = max(b.f, 1.0);                    // EXPECT sanitizer_minmax
    b.of = clamp(float(i), 0.0, 1.0);        // EXPECT none
}
