// descriptor_uninitialized and descriptor_destroyed on sized arrays and
// plain (non-arrayed) bindings. The lookup is split like buffer_oob's so
// that instrumentation can hoist it: gpuav_desc_binding runs once per
// function and binding (in the entry block), gpuav_desc_element at every
// access. Uses gpuav_desc_word (descriptor_state.glsl) and
// gpuav_desc_binding_entry (buffer_oob.glsl); reports through
// gpuav_report_descriptor.

// gpuav_desc_binding returns (word offset of the element states, array
// length in the state, element stride in words) of (set, binding) for the
// current action, or (0, 0, 0) when nothing is known: absent state,
// unknown set or binding, or a type whose elements the layer does not
// track one by one (inline uniform blocks, whose bytes count as written).
uvec3 gpuav_desc_binding(uint set_in, uint binding_in) {
    uint e = gpuav_desc_binding_entry(set_in, binding_in);
    if (e == 0u) {
        return uvec3(0u);
    }
    uint type = gpuav_desc_word(e);
    // VK_DESCRIPTOR_TYPE_SAMPLER .. INPUT_ATTACHMENT only.
    if (type > 10u) {
        return uvec3(0u);
    }
    uint stride = (type >= 4u && type <= 9u) ? 2u : 1u;
    return uvec3(gpuav_desc_word(e + 2u), gpuav_desc_word(e + 1u), stride);
}

// gpuav_desc_element returns (check code, array length) for element index
// of a binding found by gpuav_desc_binding, the shader's array length
// length_in (1 for a plain binding) and the checks bits of
// gpuav_check_descriptor: code 0 when the access may go ahead. The length
// is the smaller of the shader's and the state's (a variable-count binding
// may hold fewer descriptors than the shader declares). Selects, no
// branch (it is inlined at every access).
uvec2 gpuav_desc_element(uvec3 bind_in, uint index_in, uint length_in, uint checks_in) {
    uvec3 bind = bind_in;
    uint index = index_in;
    uint len0 = length_in;
    uint checks = checks_in;
    bool tracked = bind.z != 0u;
    uint len = mix(len0, bind.y, tracked && bind.y < len0);
    uint st = gpuav_desc_word(bind.x + min(index, max(len, 1u) - 1u) * bind.z);
    uint code = mix(0u, GPUAV_CODE_DESCRIPTOR_DESTROYED, tracked && st == GPUAV_DESC_DESTROYED && (checks & 4u) != 0u);
    code = mix(code, GPUAV_CODE_DESCRIPTOR_UNINIT, tracked && st == 0u && (checks & 2u) != 0u);
    uint oob = mix(0u, GPUAV_CODE_DESCRIPTOR_INDEX_OOB, (checks & 1u) != 0u);
    return uvec2(mix(code, oob, index >= len), len);
}
