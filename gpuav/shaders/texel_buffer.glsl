// texel_buffer_oob: a fetch, read, write or atomic on a uniform or storage
// texel buffer must use a coordinate below the texel count of the buffer
// view bound to that descriptor. The count is the second word of the
// element in the descriptor state (binding GPUAV_DESC_STATE_BINDING,
// gpuav/inputs.go; 0xFFFFFFFF when the layer does not know the view's
// format). Absent state, an unknown set or binding, a descriptor of
// another type, an index past the array (descriptor_index_oob), an
// element that is unwritten or destroyed (other checks), or an unknown
// count: no report. Uses gpuav_desc_binding_entry (buffer_oob.glsl).

// gpuav_check_texel returns (check code, texel count, array length): code
// 0 when texel coord (a signed coordinate passed as its bits: negative
// values are huge) of element index of (set, binding) is inside the view.
uvec3 gpuav_check_texel(uint set_in, uint binding_in, uint index_in, uint coord_in) {
    uint index = index_in;
    uint coord = coord_in;
    uint e = gpuav_desc_binding_entry(set_in, binding_in);
    if (e == 0u) {
        return uvec3(0u);
    }
    uint type = gpuav_desc_word(e);
    uint len = gpuav_desc_word(e + 1u);
    // VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, STORAGE_TEXEL_BUFFER
    if ((type != 4u && type != 5u) || index >= len) {
        return uvec3(0u, 0u, len);
    }
    uint el = gpuav_desc_word(e + 2u) + index * 2u;
    uint st = gpuav_desc_word(el);
    uint count = gpuav_desc_word(el + 1u);
    if (st == 0u || st == GPUAV_DESC_DESTROYED || count == 0xFFFFFFFFu) {
        return uvec3(0u, count, len);
    }
    if (coord >= count) {
        return uvec3(GPUAV_CODE_TEXEL_BUFFER_OOB, count, len);
    }
    return uvec3(0u, count, len);
}

// gpuav_report_texel_oob writes the record of a failed gpuav_check_texel:
// p0 set, p1 binding, p2 index, p3 texel coordinate (bits), p4 texel
// count, p5 flags (TexelWrite...), p6 array length. The dynamic values are
// the index, the coordinate, the count and the length; set, binding and
// flags are in the site table.
void gpuav_report_texel_oob(uint shader_id, uint site, uvec4 stage, uint set, uint binding, uint index,
                            uint coord, uvec3 result_in, uint flags) {
    uvec3 result = result_in;
    gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_TEXEL_BUFFER_OOB), stage, 4u,
                       uvec2(index, coord), uvec4(result.y, result.z, 0u, 0u), uvec3(0u));
}
