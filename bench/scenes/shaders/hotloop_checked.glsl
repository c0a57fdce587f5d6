// Hand-written checks shared by the hot-loop scene's reference variants
// (hotloop_naive, _hoisted, _flag, _masked_hoisted, _masked_flag), which run
// with no layer: what a layer's instrumentation of hotloop_memory.comp and
// hotloop_masked.comp could cost at best.
// Lengths come from OpArrayLength (.length()); a failed check skips the
// access and takes the one-atomic failure path: one atomicAdd claims a
// slot, the record is written only when the slot exists, and the overflow
// is what the final count says (written > number of slots).
layout(local_size_x = 64) in;

layout(set = 0, binding = 0) readonly buffer B { uint v[]; } bufs[2];
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 2) readonly buffer Idx { uint k[]; } idx;
layout(set = 0, binding = 3) buffer Err { uint written; uint pad0; uint pad1; uint pad2; uvec4 rec[]; } err;

void fail(uint site, uint a, uint b) {
    uint s = atomicAdd(err.written, 1u);
    if (s < uint(err.rec.length())) {
        err.rec[s] = uvec4(site, a, b, gl_GlobalInvocationID.x);
    }
}

// checked_loop is the loop with every access tested.
uint checked_loop(uint g, uint w) {
    uint acc = 0u;
    for (uint i = 0u; i < 256u; i++) {
        uint j = (w + i) & 1023u;
        uint k = 0u;
        if (j < uint(idx.k.length())) {
            k = idx.k[j];
        } else {
            fail(1u, j, 0u);
        }
        if (k >= 2u) {
            fail(2u, k, i);
            continue;
        }
        uint a = (g * 7u + i) & 1023u;
        uint b = (g + i * 13u) & 1023u;
        uint n = uint(bufs[k].v.length());
        uint x = 0u;
        uint y = 0u;
        if (a < n) {
            x = bufs[k].v[a];
        } else {
            fail(3u, k, a);
        }
        if (b < n) {
            y = bufs[k].v[b];
        } else {
            fail(4u, k, b);
        }
        acc += x * 3u + y;
    }
    return acc;
}

// read_checked reads bufs[k].v[j] when j is below the element's length,
// else takes the failure path (site) and yields 0.
uint read_checked(uint site, uint k, uint j) {
    if (j < uint(bufs[k].v.length())) {
        return bufs[k].v[j];
    }
    fail(site, k, j);
    return 0u;
}

// range_fact is the per-binding fact a layer can hoist: every element of
// bufs holds the largest offset the loops can reach (1023 words).
bool range_fact() {
    return min(uint(bufs[0].v.length()), uint(bufs[1].v.length())) >= 1024u;
}

void store_result(uint g, uint acc) {
    if (g < uint(o.length())) {
        o[g] = acc;
    } else {
        fail(5u, g, 0u);
    }
}
