// buffer_oob: a load, store or atomic through a uniform or storage buffer
// descriptor must stay inside the range bound to that descriptor. The
// range (VK_WHOLE_SIZE and dynamic offsets resolved) is the second word of
// the element in the descriptor state (binding GPUAV_DESC_STATE_BINDING,
// gpuav/inputs.go). Absent state, an unknown set or binding, an element
// that is unwritten or destroyed (other checks), or an unknown range: no
// report. Uses gpuav_desc_word (descriptor_state.glsl). The lookup is split
// so that instrumentation can hoist it: gpuav_buffer_binding (per binding)
// and gpuav_buffer_range (per element) run once per function where they
// can, gpuav_buffer_in_range at every access.

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

// gpuav_buffer_range returns (bound range, array length) of element index
// of a binding found by gpuav_buffer_binding. The range is 0xFFFFFFFF
// (every access passes) when nothing is known: unknown binding, index past
// the array, element unwritten or destroyed, or range unknown. Selects, no
// branch.
uvec2 gpuav_buffer_range(uvec2 bind_in, uint index_in) {
    uvec2 bind = bind_in;
    uint index = index_in;
    uint el = bind.x + min(index, max(bind.y, 1u) - 1u) * 2u;
    uint st = gpuav_desc_word(el);
    uint r = gpuav_desc_word(el + 1u);
    bool known = index < bind.y && st != 0u && st != GPUAV_DESC_DESTROYED;
    return uvec2(mix(0xFFFFFFFFu, r, known), bind.y);
}

// gpuav_buffer_in_range says whether the size bytes at byte offset off.x
// (off.y non-zero: the offset overflowed) fit in range; a range of
// 0xFFFFFFFF (unknown) holds everything.
bool gpuav_buffer_in_range(uvec2 off_in, uint size_in, uint range_in) {
    uvec2 off = off_in;
    uint size = size_in;
    uint range = range_in;
    uint o = off.y != 0u ? 0xFFFFFFFFu : off.x;
    return range == 0xFFFFFFFFu || (o <= range && size <= range - o);
}

// gpuav_report_buffer_oob writes the record of an access that failed
// gpuav_buffer_in_range: p0 set, p1 binding, p2 index, p3 byte offset
// (2^32-1 when it overflowed), p4 access size, p5 bound range, p6 flags
// (GPUAV_BUFFER_* bits) | array length << 8. rl is gpuav_buffer_range's
// (range, length).
void gpuav_report_buffer_oob(uint shader_id, uint inst, uvec4 stage, uint set, uint binding, uint index,
                             uvec2 off_in, uint size, uvec2 rl_in, uint flags_in) {
    uvec2 off = off_in;
    uvec2 rl = rl_in;
    uint flags = flags_in;
    uint o = off.y != 0u ? 0xFFFFFFFFu : off.x;
    uint len = min(rl.y, 0xFFFFFFu);
    gpuav_write_record(shader_id, inst, stage, GPUAV_CODE_BUFFER_OOB, set, binding, index, o, size, rl.x,
                       flags | (len << 8u));
}
