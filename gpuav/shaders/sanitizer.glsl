// sanitizer: the shader sanitizer's report (gpuav/pass_sanitizer.go). The
// checks themselves are inline compares the pass emits (a division's
// divisor against 0, pow's base against 0, min/max operands against NaN,
// a gather's component against 3); only the failure path calls this.

// gpuav_sanitizer_code is the record code of a sanitizer kind (the pass's
// sanKind order, a division's overflow after the others): a constant at
// each call, which the driver folds.
uint gpuav_sanitizer_code(uint kind) {
    uint k = kind;
    uint code = GPUAV_CODE_SANITIZER_DIVIDE_ZERO;
    if (k == 1u) {
        code = GPUAV_CODE_SANITIZER_FDIVIDE_ZERO;
    } else if (k == 2u) {
        code = GPUAV_CODE_SANITIZER_POW;
    } else if (k == 3u) {
        code = GPUAV_CODE_SANITIZER_ATAN2;
    } else if (k == 4u) {
        code = GPUAV_CODE_SANITIZER_MINMAX;
    } else if (k == 5u) {
        code = GPUAV_CODE_SANITIZER_GATHER;
    } else if (k == 6u) {
        code = GPUAV_CODE_SANITIZER_DIVIDE_OVERFLOW;
    }
    return code;
}

// gpuav_report_sanitizer writes the record: p0/p1, p2/p3 and p4/p5 the
// bits of up to three operands of the failing lane (low, high word), p6
// the lane and the NaN operands' bits (lane | mask << 8). p7 (the
// operation and its operand type) is in the site table. kind says which
// check failed (gpuav_sanitizer_code; a division chooses between zero and
// overflow in the shader).
void gpuav_report_sanitizer(uint shader_id, uint site, uvec4 stage, uint kind, uvec2 a, uvec2 b, uvec2 c, uint lane) {
    uvec2 x = a;
    uvec2 y = b;
    uvec2 z = c;
    gpuav_write_record(shader_id, gpuav_site_code(site, gpuav_sanitizer_code(kind)), stage, 7u, x, uvec4(y, z),
                       uvec3(lane, 0u, 0u));
}
