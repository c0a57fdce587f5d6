// bda_oob: loads, stores and atomics through PhysicalStorageBuffer pointers
// must stay inside a buffer whose device address the app obtained. The
// layer writes the address table (binding GPUAV_ADDRESS_BINDING) before
// each submit: word 0 valid, word 1 count, then sorted (address lo, hi,
// size lo, hi) entries. Addresses are (lo, hi) pairs: no Int64 needed.

layout(set = 0, binding = GPUAV_ADDRESS_BINDING, std430) readonly buffer GpuavAddresses {
    uint valid;
    uint count;
    uint entries[];
} gpuav_addresses;

// gpuav_u64_le reports a <= b for (lo, hi) pairs.
bool gpuav_u64_le(uvec2 x, uvec2 y) {
    uvec2 a = x;
    uvec2 b = y;
    return a.y < b.y || (a.y == b.y && a.x <= b.x);
}

// gpuav_u64_add adds with carry; an overflow saturates to 2^64-1.
uvec2 gpuav_u64_add(uvec2 x, uvec2 y) {
    uvec2 a = x;
    uvec2 b = y;
    uint carry;
    uint lo = uaddCarry(a.x, b.x, carry);
    uint c2;
    uint hi = uaddCarry(a.y, b.y, c2);
    uint c3;
    hi = uaddCarry(hi, carry, c3);
    if (c2 + c3 != 0u) {
        return uvec2(0xFFFFFFFFu, 0xFFFFFFFFu);
    }
    return uvec2(lo, hi);
}

// gpuav_bda_below returns the index of the last entry whose address is <=
// addr, or -1 when there is none (binary search).
int gpuav_bda_below(uvec2 addr) {
    uvec2 a = addr;
    int lo = 0;
    int hi = int(gpuav_addresses.count) - 1;
    int found = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        uint e = GPUAV_INPUT_HEADER_WORDS + uint(mid) * GPUAV_ADDRESS_ENTRY_WORDS - 2u;
        uvec2 start = uvec2(gpuav_addresses.entries[e], gpuav_addresses.entries[e + 1u]);
        if (gpuav_u64_le(start, a)) {
            found = mid;
            lo = mid + 1;
        } else {
            hi = mid - 1;
        }
    }
    return found;
}

// gpuav_bda_check returns 0 when [addr, addr+size) lies inside one buffer
// of the table, or when the table is absent for this submit; else
// GPUAV_CODE_BDA_OOB.
uint gpuav_bda_check(uvec2 addr, uint size) {
    if (gpuav_addresses.valid == 0u) {
        return 0u;
    }
    uvec2 a = addr;
    int i = gpuav_bda_below(a);
    if (i < 0) {
        return GPUAV_CODE_BDA_OOB;
    }
    uint e = GPUAV_INPUT_HEADER_WORDS + uint(i) * GPUAV_ADDRESS_ENTRY_WORDS - 2u;
    uvec2 start = uvec2(gpuav_addresses.entries[e], gpuav_addresses.entries[e + 1u]);
    uvec2 bsize = uvec2(gpuav_addresses.entries[e + 2u], gpuav_addresses.entries[e + 3u]);
    uvec2 end = gpuav_u64_add(start, bsize);
    uvec2 last = gpuav_u64_add(a, uvec2(size, 0u));
    if (gpuav_u64_le(last, end)) {
        return 0u;
    }
    return GPUAV_CODE_BDA_OOB;
}

// gpuav_report_bda writes the record: p0/p1 address lo/hi, p2 access size,
// p3 flags (GPUAV_BDA_* bits), p4/p5 the nearest buffer's address below
// (or the first buffer's) lo/hi and p6 its size (saturated to 32 bits).
// Every parameter is a dynamic value but the size (p2), which is in the
// site table.
void gpuav_report_bda(uint shader_id, uint site, uvec4 stage, uvec2 addr, uint size, uint flags) {
    uvec2 a = addr;
    uint f = flags;
    uint p4 = 0u;
    uint p5 = 0u;
    uint p6 = 0u;
    if (gpuav_addresses.valid != 0u && gpuav_addresses.count != 0u) {
        int i = gpuav_bda_below(a);
        if (i < 0) {
            i = 0;
        }
        uint e = GPUAV_INPUT_HEADER_WORDS + uint(i) * GPUAV_ADDRESS_ENTRY_WORDS - 2u;
        p4 = gpuav_addresses.entries[e];
        p5 = gpuav_addresses.entries[e + 1u];
        p6 = gpuav_addresses.entries[e + 3u] != 0u ? 0xFFFFFFFFu : gpuav_addresses.entries[e + 2u];
        f = f | GPUAV_BDA_NEAREST;
    }
    gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_BDA_OOB), stage, 6u, a, uvec4(f, p4, p5, p6),
                       uvec3(0u));
}

// gpuav_report_bda_access is the report of an access both bda_oob (oob:
// gpuav_bda_check's code, 0 when it passed or was not made) and
// bda_alignment check: the out-of-bounds record when the address is out of
// bounds, else the alignment record: p0/p1 the address, p2 the access size
// (in the site table), p3 the flags, p4 the Aligned operand.
void gpuav_report_bda_access(uint shader_id, uint site, uvec4 stage, uvec2 addr, uint size, uint flags, uint align,
                             uint oob) {
    uvec2 a = addr;
    if (oob != 0u) {
        gpuav_report_bda(shader_id, site, stage, a, size, flags);
    } else {
        gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_BDA_ALIGNMENT), stage, 6u, a,
                           uvec4(flags, align, 0u, 0u), uvec3(0u));
    }
}

// gpuav_report_bda_span is the report of a cooperative-matrix load or
// store through a device address, whose size (the bytes its rows or
// columns span, gpuav_coopmat_span) is known at run time: oob non-zero
// (gpuav_bda_check's code), gpuav_report_bda's record with the size a
// seventh dynamic value (p2); else the GPUAV_CODE_COOPMAT_ALIGNMENT_BDA
// record: p0/p1 the address, p2 the size, p3 the flags, p4 the stride in
// bytes, p5 the alignment | gpuav_coopmat_misaligned's bits << 16.
void gpuav_report_bda_span(uint shader_id, uint site, uvec4 stage, uvec2 addr, uint size_in, uint flags, uint oob,
                           uint stride_bytes, uint align, uint misaligned) {
    uvec2 a = addr;
    uint size = size_in;
    uint f = flags;
    if (oob != 0u) {
        uint p4 = 0u;
        uint p5 = 0u;
        uint p6 = 0u;
        if (gpuav_addresses.valid != 0u && gpuav_addresses.count != 0u) {
            int i = gpuav_bda_below(a);
            if (i < 0) {
                i = 0;
            }
            uint e = GPUAV_INPUT_HEADER_WORDS + uint(i) * GPUAV_ADDRESS_ENTRY_WORDS - 2u;
            p4 = gpuav_addresses.entries[e];
            p5 = gpuav_addresses.entries[e + 1u];
            p6 = gpuav_addresses.entries[e + 3u] != 0u ? 0xFFFFFFFFu : gpuav_addresses.entries[e + 2u];
            f = f | GPUAV_BDA_NEAREST;
        }
        gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_BDA_OOB), stage, 7u, a, uvec4(f, p4, p5, p6),
                           uvec3(size, 0u, 0u));
    } else {
        gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_COOPMAT_ALIGNMENT_BDA), stage, 7u, a,
                           uvec4(f, stride_bytes, align | (misaligned << 16u), 0u), uvec3(size, 0u, 0u));
    }
}
