// descriptor_index_oob on runtime arrays, descriptor_uninitialized and
// descriptor_destroyed: they read the descriptor state the layer writes
// before each submit (binding GPUAV_DESC_STATE_BINDING, gpuav/inputs.go).
// Absent state (word 0 is 0), an unknown set or binding: nothing is known,
// nothing is reported (except a sized array's own length).

layout(set = 0, binding = GPUAV_DESC_STATE_BINDING, std430) readonly buffer GpuavDescState {
    uint words[];
} gpuav_desc;

// gpuav_desc_word reads one word of the state, 0 past its end. It reads a
// clamped index and selects, with no branch: it is inlined into every
// access's check, and branches there are most of what a check costs the
// driver to compile (docs/decisions/cheap-checks.md).
uint gpuav_desc_word(uint at) {
    uint i = at;
    uint n = uint(gpuav_desc.words.length());
    uint w = gpuav_desc.words[min(i, max(n, 1u) - 1u)];
    return mix(0u, w, i < n);
}

// gpuav_check_descriptor returns (check code, array length): code 0 when
// the access through element `index` of (set, binding) may go ahead.
// length is the shader's array length (0 for a runtime array); checks has
// bit 0 for descriptor_index_oob, bit 1 descriptor_uninitialized, bit 2
// descriptor_destroyed.
uvec2 gpuav_check_descriptor(uint set_in, uint binding_in, uint index_in, uint length_in, uint checks_in) {
    uint set = set_in;
    uint binding = binding_in;
    uint index = index_in;
    uint len = length_in;
    uint checks = checks_in;
    uint e = 0u;
    if (gpuav_desc_word(GPUAV_INPUT_VALID_WORD) != 0u) {
        uint a = gpuav_action.index;
        if (a < gpuav_desc_word(GPUAV_INPUT_COUNT_WORD)) {
            uint bs = gpuav_desc_word(GPUAV_INPUT_HEADER_WORDS + a);
            if (bs != 0u && set < gpuav_desc_word(bs)) {
                uint blk = gpuav_desc_word(bs + 1u + set);
                if (blk != 0u && binding < gpuav_desc_word(blk)) {
                    e = blk + 1u + binding * GPUAV_DESC_BINDING_WORDS;
                    if (gpuav_desc_word(e) == GPUAV_DESC_TYPE_UNUSED) {
                        e = 0u;
                    }
                }
            }
        }
    }
    if (e != 0u) {
        uint l = gpuav_desc_word(e + 1u);
        if (len == 0u || l < len) {
            len = l;
        }
    } else if (len == 0u) {
        return uvec2(0u, 0u);
    }
    if (index >= len) {
        if ((checks & 1u) != 0u) {
            return uvec2(GPUAV_CODE_DESCRIPTOR_INDEX_OOB, len);
        }
        return uvec2(0u, len);
    }
    if (e != 0u) {
        uint type = gpuav_desc_word(e);
        uint stride = (type >= 4u && type <= 9u) ? 2u : 1u;
        uint st = gpuav_desc_word(gpuav_desc_word(e + 2u) + index * stride);
        if (st == 0u && (checks & 2u) != 0u) {
            return uvec2(GPUAV_CODE_DESCRIPTOR_UNINIT, len);
        }
        if (st == GPUAV_DESC_DESTROYED && (checks & 4u) != 0u) {
            return uvec2(GPUAV_CODE_DESCRIPTOR_DESTROYED, len);
        }
    }
    return uvec2(0u, len);
}

// gpuav_report_descriptor writes the record of a failed
// gpuav_check_descriptor: p0 set, p1 binding, p2 index, p3 array length,
// p7 the code the element a clamp went to failed with (clamp_in: 0 when
// it went ahead; the site table holds it only where the site clamps).
// Dynamic values: the index, the length and the clamp's code (p2, p3, p7).
void gpuav_report_descriptor(uint shader_id, uint site, uvec4 stage, uint code,
                             uint set, uint binding, uint index, uint length, uint clamp_in) {
    uint clamp = clamp_in;
    gpuav_write_record(shader_id, gpuav_site_code(site, code), stage, 3u, uvec2(index, length),
                       uvec4(clamp, 0u, 0u, 0u), uvec3(0u));
}
