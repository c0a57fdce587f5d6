// vertex_fetch_oob in the vertex shader: a vertex input loaded at location
// l was fetched with the vertex index (vertex-rate binding) or the
// instance index (instance-rate) of this invocation; the fetch stayed
// inside the bound vertex buffer when that index is below the limit in
// this action's vertex table, which the layer writes into the descriptor
// state (binding GPUAV_DESC_STATE_BINDING, after the per-action table;
// gpuav/inputs.go). No table (absent state, an action the layer checked on
// the CPU): nothing is reported.

// gpuav_vertex_table returns the word offset of this action's vertex
// table, or 0 when it has none. The pass calls it once, in the entry
// block of each function with a checked load.
uint gpuav_vertex_table() {
    uint a = gpuav_action.index;
    uint count = gpuav_desc_word(GPUAV_INPUT_COUNT_WORD);
    uint t = gpuav_desc_word(GPUAV_INPUT_HEADER_WORDS + count + a);
    bool ok = gpuav_desc_word(GPUAV_INPUT_VALID_WORD) != 0u && a < count;
    return mix(0u, t, ok);
}

// gpuav_vertex_entry returns the word offset of location loc's entry in
// vertex table t, or 0 when the table has none.
uint gpuav_vertex_entry(uint t_in, uint loc_in) {
    uint t = t_in;
    uint loc = loc_in;
    bool ok = t != 0u && loc < gpuav_desc_word(t);
    return mix(0u, t + 1u + loc * GPUAV_VERTEX_ENTRY_WORDS, ok);
}

// gpuav_vertex_index is the index location entry e fetched with, from the
// record's stage words (model, VertexIndex, InstanceIndex, 0).
uint gpuav_vertex_index(uint e_in, uvec4 stage) {
    uint e = e_in;
    uvec4 st = stage;
    return mix(st.y, st.z, gpuav_desc_word(e + GPUAV_VERTEX_RATE) != 0u);
}

// gpuav_vertex_fetch_check returns the first location of [loc, loc + n)
// whose attribute was fetched past the end of its vertex buffer, or
// 0xFFFFFFFF when none was (or nothing is known).
uint gpuav_vertex_fetch_check(uint t_in, uint loc_in, uint n_in, uvec4 stage) {
    uint t = t_in;
    uint loc = loc_in;
    uint n = n_in;
    uvec4 st = stage;
    if (t == 0u) {
        return 0xFFFFFFFFu;
    }
    for (uint i = 0u; i < n; i++) {
        uint e = gpuav_vertex_entry(t, loc + i);
        uint limit = mix(GPUAV_VERTEX_NO_LIMIT, gpuav_desc_word(e + GPUAV_VERTEX_LIMIT), e != 0u);
        if (limit != GPUAV_VERTEX_NO_LIMIT && gpuav_vertex_index(e, st) >= limit) {
            return loc + i;
        }
    }
    return 0xFFFFFFFFu;
}

// gpuav_report_vertex_fetch writes the record of location loc's fetch:
// every parameter is a dynamic value (p0 location, p1 binding, p2 the
// first byte read, saturated, p3 bytes read, p4 the end of the bound
// range, p5 the index, p6 flags with the stride in bits 16-31); the site
// table adds the flags the pass knows (found in the shader, skipped).
void gpuav_report_vertex_fetch(uint shader_id, uint site, uvec4 stage, uint t_in, uint loc_in) {
    uint t = t_in;
    uint loc = loc_in;
    uvec4 st = stage;
    uint e = gpuav_vertex_entry(t, loc);
    uint idx = gpuav_vertex_index(e, st);
    uint stride = gpuav_desc_word(e + GPUAV_VERTEX_STRIDE);
    uint hi;
    uint lo;
    umulExtended(idx, stride, hi, lo);
    uint carry;
    uint first = uaddCarry(lo, gpuav_desc_word(e + GPUAV_VERTEX_BASE), carry);
    first = mix(first, 0xFFFFFFFFu, hi != 0u || carry != 0u);
    uint flags = gpuav_desc_word(e + GPUAV_VERTEX_FLAGS) | (min(stride, 0xFFFFu) << 16u);
    gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_VERTEX_FETCH_OOB), stage, 7u,
                       uvec2(loc, gpuav_desc_word(e + GPUAV_VERTEX_BINDING)),
                       uvec4(first, gpuav_desc_word(e + GPUAV_VERTEX_SIZE), gpuav_desc_word(e + GPUAV_VERTEX_END), idx),
                       uvec3(flags, 0u, 0u));
}
