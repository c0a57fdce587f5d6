// buffer_oob: a load, store or atomic through a uniform or storage buffer
// descriptor must stay inside the range bound to that descriptor. The
// range (VK_WHOLE_SIZE and dynamic offsets resolved) is the second word of
// the element in the descriptor state (binding GPUAV_DESC_STATE_BINDING,
// gpuav/inputs.go). Absent state, an unknown set or binding, an element
// that is unwritten or destroyed (other checks), or an unknown range: no
// report from this check (the element checks report those). Uses
// gpuav_desc_word (descriptor_state.glsl). gpuav_buffer_binding (per
// binding) and gpuav_binding_fact (per binding with bounded accesses) run
// once per function, in its entry block; gpuav_buffer_check at an access.

// gpuav_buffer_offset_add adds index * stride to a byte offset. acc is
// (offset, overflow): overflow becomes non-zero when the sum no longer
// fits in 32 bits, and the check then treats the offset as 2^32-1.
uvec2 gpuav_buffer_offset_add(uvec2 acc_in, uint index_in, uint stride_in) {
    uvec2 acc = acc_in;
    uint index = index_in;
    uint stride = stride_in;
    uint hi;
    uint lo;
    umulExtended(index, stride, hi, lo);
    uint carry;
    uint sum = uaddCarry(acc.x, lo, carry);
    return uvec2(sum, acc.y | hi | carry);
}

// gpuav_desc_binding_entry returns the word offset of (set, binding)'s
// entry in the current action's descriptor state, or 0 when unknown.
uint gpuav_desc_binding_entry(uint set_in, uint binding_in) {
    uint set = set_in;
    uint binding = binding_in;
    if (gpuav_desc_word(GPUAV_INPUT_VALID_WORD) == 0u) {
        return 0u;
    }
    uint a = gpuav_action.index;
    if (a >= gpuav_desc_word(GPUAV_INPUT_COUNT_WORD)) {
        return 0u;
    }
    uint bs = gpuav_desc_word(GPUAV_INPUT_HEADER_WORDS + a);
    if (bs == 0u || set >= gpuav_desc_word(bs)) {
        return 0u;
    }
    uint blk = gpuav_desc_word(bs + 1u + set);
    if (blk == 0u || binding >= gpuav_desc_word(blk)) {
        return 0u;
    }
    uint e = blk + 1u + binding * GPUAV_DESC_BINDING_WORDS;
    if (gpuav_desc_word(e) == GPUAV_DESC_TYPE_UNUSED) {
        return 0u;
    }
    return e;
}

// gpuav_buffer_binding returns (word offset of the element states, array
// length) of (set, binding) when it is a uniform or storage buffer binding
// of the current action, else (0, 0). It is the part of the lookup that
// does not depend on the array index: instrumentation calls it once per
// function and binding, in the function's entry block.
uvec2 gpuav_buffer_binding(uint set_in, uint binding_in) {
    uint e = gpuav_desc_binding_entry(set_in, binding_in);
    if (e == 0u) {
        return uvec2(0u);
    }
    uint type = gpuav_desc_word(e);
    // VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER .. STORAGE_BUFFER_DYNAMIC
    if (type < 6u || type > 9u) {
        return uvec2(0u);
    }
    return uvec2(gpuav_desc_word(e + 2u), gpuav_desc_word(e + 1u));
}

// gpuav_binding_fact says whether what the instrumentation decided once for
// a whole binding holds in the current action (docs/decisions/cheap-checks.md):
// the binding is known, holds at least length elements, and its floor
// (gpuav/inputs.go: a buffer binding's smallest range, or 1 when every
// element of another binding is written and alive) is at least bound. It
// runs once per function and binding, in the entry block.
bool gpuav_binding_fact(uint set_in, uint binding_in, uint length_in, uint bound_in) {
    uint length = length_in;
    uint bound = bound_in;
    uint e = gpuav_desc_binding_entry(set_in, binding_in);
    uint n = gpuav_desc_word(e + 1u);
    uint floor = gpuav_desc_word(e + 3u);
    return (e != 0u) && (n >= length) && (floor >= bound);
}

// gpuav_buffer_check checks one access through element index of a binding
// found by gpuav_buffer_binding: the size bytes at byte offset off.x (off.y
// non-zero: the offset overflowed, and reads as 2^32-1). It returns (code,
// range): code 0 when the access may go ahead, else
// GPUAV_CODE_DESCRIPTOR_INDEX_OOB (the index is past the binding's
// elements), _UNINIT or _DESTROYED (the element's state), each only when its
// bit is set in checks (gpuav_check_descriptor's bits), or
// GPUAV_CODE_BUFFER_OOB (past the element's bound range; a range of
// 0xFFFFFFFF is unknown and holds everything). An unknown binding reports
// nothing. Selects, no branch: it is inlined at every access.
uvec2 gpuav_buffer_check(uvec2 bind_in, uint index_in, uvec2 off_in, uint size_in, uint checks_in) {
    uvec2 bind = bind_in;
    uint index = index_in;
    uvec2 off = off_in;
    uint size = size_in;
    uint checks = checks_in;
    uint el = bind.x + min(index, max(bind.y, 1u) - 1u) * 2u;
    uint st = gpuav_desc_word(el);
    uint r = gpuav_desc_word(el + 1u);
    uint o = mix(off.x, 0xFFFFFFFFu, off.y != 0u);
    bool past = (r != 0xFFFFFFFFu) && ((o > r) || (size > r - o));
    uint code = mix(0u, GPUAV_CODE_BUFFER_OOB, past);
    code = mix(code, mix(0u, GPUAV_CODE_DESCRIPTOR_UNINIT, (checks & 2u) != 0u), st == 0u);
    code = mix(code, mix(0u, GPUAV_CODE_DESCRIPTOR_DESTROYED, (checks & 4u) != 0u), st == GPUAV_DESC_DESTROYED);
    code = mix(code, mix(0u, GPUAV_CODE_DESCRIPTOR_INDEX_OOB, (checks & 1u) != 0u), index >= bind.y);
    return uvec2(mix(0u, code, bind.x != 0u), r);
}

// gpuav_report_buffer_check writes the record of an access that failed
// gpuav_buffer_check (cr is its (code, range)): for GPUAV_CODE_BUFFER_OOB p0
// set, p1 binding, p2 index, p3 byte offset (2^32-1 when it overflowed), p4
// access size, p5 bound range, p6 flags (GPUAV_BUFFER_* bits) | the
// binding's length << 8; for the descriptor codes p0 set, p1 binding, p2
// index, p3 the binding's length. p7 is what a clamp found (clamp_in: the
// byte offset the clamped access used, 0xFFFFFFFF when there was none, or
// the code of a failed descriptor check; the site table holds it only where
// the site clamps). The dynamic values are the index, p3, the range, the
// length and p7; set, binding, size and flags are in the site table.
void gpuav_report_buffer_check(uint shader_id, uint site, uvec4 stage, uvec2 cr_in, uint set, uint binding,
                               uint index, uvec2 off_in, uint size, uint length_in, uint flags_in, uint clamp_in) {
    uvec2 cr = cr_in;
    uvec2 off = off_in;
    uint length = length_in;
    uint clamp = clamp_in;
    uint o = mix(off.x, 0xFFFFFFFFu, off.y != 0u);
    uint p3 = mix(length, o, cr.x == GPUAV_CODE_BUFFER_OOB);
    gpuav_write_record(shader_id, gpuav_site_code(site, cr.x), stage, 5u, uvec2(index, p3),
                       uvec4(cr.y, min(length, 0xFFFFFFu), clamp, 0u), uvec3(0u));
}

// gpuav_coopmat_span returns the bytes a cooperative-matrix load or store
// touches from its pointer: major_less1 * stride * pointee + minor_bytes
// (major_less1: the strided dimension's count less one; stride in elements
// of the pointer's pointee type, pointee bytes each; minor_bytes: one
// contiguous row or column), or 0xFFFFFFFF when that does not fit 32 bits
// (no bound range is that large, so the check fails).
uint gpuav_coopmat_span(uint major_less1_in, uint stride_in, uint pointee_in, uint minor_bytes_in) {
    uint major_less1 = major_less1_in;
    uint stride = stride_in;
    uint pointee = pointee_in;
    uint minor_bytes = minor_bytes_in;
    uint hi1;
    uint lo1;
    umulExtended(stride, pointee, hi1, lo1);
    uint hi2;
    uint lo2;
    umulExtended(lo1, major_less1, hi2, lo2);
    uint carry;
    uint span = uaddCarry(lo2, minor_bytes, carry);
    bool over = ((hi1 != 0u) && (major_less1 != 0u)) || (hi2 != 0u) || (carry != 0u);
    return mix(span, 0xFFFFFFFFu, over);
}

// gpuav_coopmat_misaligned checks a cooperative-matrix load's or store's
// Pointer and Stride against align, the lesser of 16 and one row's or
// column's bytes (VUID-RuntimeSpirv-OpCooperativeMatrixLoadKHR-08986): off
// is the pointer's byte offset, stride in elements of pointee bytes. It
// returns 0 when both are multiples of align, else bit 1 for the pointer,
// bit 2 for the stride.
uint gpuav_coopmat_misaligned(uint off_in, uint stride_in, uint pointee_in, uint align_in) {
    uint off = off_in;
    uint stride = stride_in;
    uint pointee = pointee_in;
    uint align = align_in;
    uint bytes = stride * pointee;
    return mix(0u, 1u, (off % align) != 0u) | mix(0u, 2u, (bytes % align) != 0u);
}

// gpuav_report_buffer_span is gpuav_report_buffer_check for a
// cooperative-matrix load or store, whose size is known only at run time
// (gpuav_coopmat_span): cr.x non-zero, the same record with the size a
// sixth dynamic value (p4) and p7 0xFFFFFFFF (no clamp); cr.x zero (in
// bounds, or buffer_oob off), the GPUAV_CODE_COOPMAT_ALIGNMENT record: p3
// the pointer's byte offset, p4 the size, p5 the stride in bytes, p7 the
// alignment | gpuav_coopmat_misaligned's bits << 16.
void gpuav_report_buffer_span(uint shader_id, uint site, uvec4 stage, uvec2 cr_in, uint set, uint binding,
                              uint index, uvec2 off_in, uint size_in, uint length_in, uint flags_in, uint stride_bytes_in,
                              uint align_in, uint misaligned_in) {
    uvec2 cr = cr_in;
    uvec2 off = off_in;
    uint size = size_in;
    uint length = length_in;
    uint stride_bytes = stride_bytes_in;
    uint align = align_in;
    uint misaligned = misaligned_in;
    uint o = mix(off.x, 0xFFFFFFFFu, off.y != 0u);
    if (cr.x != 0u) {
        uint p3 = mix(length, o, cr.x == GPUAV_CODE_BUFFER_OOB);
        gpuav_write_record(shader_id, gpuav_site_code(site, cr.x), stage, 6u, uvec2(index, p3),
                           uvec4(cr.y, min(length, 0xFFFFFFu), 0xFFFFFFFFu, size), uvec3(0u));
    } else {
        gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_COOPMAT_ALIGNMENT), stage, 6u, uvec2(index, o),
                           uvec4(stride_bytes, min(length, 0xFFFFFFu), align | (misaligned << 16u), size), uvec3(0u));
    }
}
