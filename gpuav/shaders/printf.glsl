// debugPrintfEXT: the printf pass (pass_printf.go) replaces each call with
// gpuav_printf_begin and one gpuav_printf_word(2|3|4) per argument (or
// argument component). The
// printf buffer's layout is printf.go's (package gpuav).

layout(set = 0, binding = GPUAV_PRINTF_BINDING, std430) buffer GpuavPrintf {
    uint written; // words claimed by atomicAdd, may exceed data.length()
    uint lost;    // lines that did not fit
    uint data[];
} gpuav_printf;

// gpuav_printf_begin claims room for a line of `words` words (header and
// arguments), writes its header and returns where its arguments go, or
// GPUAV_PRINTF_NO_ROOM (counted as lost) when the buffer is full; the
// first line that does not fit marks where the lines end with a size of 0.
// A line of 0 words is one the coordinate filter does not keep: nothing is
// claimed or written.
uint gpuav_printf_begin(uint shader_id, uint site, uint words, uvec4 stage) {
    if (words == 0u) {
        return GPUAV_PRINTF_NO_ROOM;
    }
    uint capacity = uint(gpuav_printf.data.length());
    uint pos = atomicAdd(gpuav_printf.written, words);
    if (pos >= capacity || capacity - pos < words) {
        if (pos < capacity) {
            gpuav_printf.data[pos] = 0u; // the end of the lines, for the decoder
        }
        atomicAdd(gpuav_printf.lost, 1u);
        return GPUAV_PRINTF_NO_ROOM;
    }
    uvec4 st = stage;
    gpuav_printf.data[pos] = words;
    gpuav_printf.data[pos + 1u] = shader_id;
    gpuav_printf.data[pos + 2u] = site;
    gpuav_printf.data[pos + 3u] = gpuav_action.index;
    gpuav_printf.data[pos + 4u] = st.x;
    gpuav_printf.data[pos + 5u] = st.y;
    gpuav_printf.data[pos + 6u] = st.z;
    gpuav_printf.data[pos + 7u] = st.w;
    return pos + GPUAV_PRINTF_LINE_HEADER_WORDS;
}

// gpuav_printf_word writes argument word i of the line whose arguments
// start at pos (gpuav_printf_begin's result); nothing when it had no room.
void gpuav_printf_word(uint pos, uint i, uint w) {
    if (pos != GPUAV_PRINTF_NO_ROOM) {
        gpuav_printf.data[pos + i] = w;
    }
}

// gpuav_printf_word2, 3 and 4 write argument words i to i+1, i+2 and i+3 (a
// vector's or a 64-bit number's bits); parameters are copied whole first,
// as the library generator asks.
void gpuav_printf_word2(uint pos, uint i, uvec2 w) {
    uvec2 v = w;
    if (pos != GPUAV_PRINTF_NO_ROOM) {
        gpuav_printf.data[pos + i] = v.x;
        gpuav_printf.data[pos + i + 1u] = v.y;
    }
}

void gpuav_printf_word3(uint pos, uint i, uvec3 w) {
    uvec3 v = w;
    gpuav_printf_word2(pos, i, v.xy);
    gpuav_printf_word(pos, i + 2u, v.z);
}

void gpuav_printf_word4(uint pos, uint i, uvec4 w) {
    uvec4 v = w;
    gpuav_printf_word2(pos, i, v.xy);
    gpuav_printf_word2(pos, i + 2u, v.zw);
}
