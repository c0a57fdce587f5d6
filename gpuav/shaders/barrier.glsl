// barrier_divergence: a workgroup barrier (OpControlBarrier of Workgroup
// execution scope) that not every invocation of the workgroup reaches
// (docs/decisions/barrier-divergence.md). The pass (pass_barrier.go)
// calls gpuav_bar_begin at the start of the entry point, gpuav_bar_exit
// before each of its returns, and around every workgroup barrier
// gpuav_bar_arrive (before: is the invocation's subgroup all here?) and
// gpuav_bar_depart (after: did the whole workgroup arrive?).

// The lowest (barriers passed << 16 | local index) of the invocations that
// returned, and the arrivals at barrier instance k in gpuav_bar_arrived[k % 3]
// (reset at instance k - 1, read after instance k: three counters keep a
// reset from meeting a read).
shared uint gpuav_bar_exited;
shared uint gpuav_bar_arrived[3];

// The invocation's barriers passed, local index, its subgroup at the start
// (a ballot), lid - lane when its subgroup's lanes are consecutive local
// indices (else 0xFFFFFFFF), and whether it was the first to arrive at the
// barrier it is at.
uint gpuav_bar_count;
uint gpuav_bar_lid;
uvec4 gpuav_bar_entry;
uint gpuav_bar_base;
bool gpuav_bar_first;

void gpuav_bar_begin(uint lid, uvec4 entry, uint base) {
    uint me = lid;
    if (me == 0u) {
        gpuav_bar_exited = 0xFFFFFFFFu;
        gpuav_bar_arrived[0] = 0u;
        gpuav_bar_arrived[1] = 0u;
        gpuav_bar_arrived[2] = 0u;
    }
    gpuav_bar_count = 0u;
    gpuav_bar_lid = me;
    gpuav_bar_entry = entry;
    gpuav_bar_base = base;
    barrier();
}

// gpuav_bar_exit records a return of the entry point.
void gpuav_bar_exit() {
    atomicMin(gpuav_bar_exited, (min(gpuav_bar_count, 65535u) << 16u) | min(gpuav_bar_lid, 65535u));
}

// gpuav_bar_lsb is the lowest set bit of a ballot, 0xFFFFFFFF for none.
uint gpuav_bar_lsb(uvec4 m) {
    uvec4 v = m;
    for (uint i = 0u; i < 4u; i++) {
        if (v[i] != 0u) {
            return i * 32u + uint(findLSB(v[i]));
        }
    }
    return 0xFFFFFFFFu;
}

// gpuav_bar_popcount counts a ballot's bits.
uint gpuav_bar_popcount(uvec4 m) {
    uvec4 v = m;
    ivec4 n = bitCount(v);
    return uint(n.x + n.y + n.z + n.w);
}

// gpuav_bar_arrive runs before a workgroup barrier with the ballot of the
// invocations of the subgroup that are here and the invocation's lane.
// When some of the subgroup's invocations at the start are not here, the
// lowest lane here reports BARRIER_SUBGROUP (p0 the subgroup's invocations
// here, p1 at the start, p2 the local index of the lowest missing one or
// 0xFFFFFFFF, p3 the barriers the invocation passed before, p4 wgxy, p5 1
// when the barrier is skipped), and with skip set it returns false: these
// invocations do not wait at a barrier that cannot complete as written.
bool gpuav_bar_arrive(uint shader_id, uint site, uvec4 stage, uvec4 here, uint lane, uint skip, uint wgxy) {
    uvec4 h = here;
    uvec4 e = gpuav_bar_entry;
    uint k = gpuav_bar_count;
    uvec4 missing = e & ~h;
    if (any(notEqual(missing, uvec4(0u)))) {
        if (lane == gpuav_bar_lsb(h)) {
            uint m = gpuav_bar_lsb(missing);
            uint who = gpuav_bar_base == 0xFFFFFFFFu ? 0xFFFFFFFFu : gpuav_bar_base + m;
            gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_BARRIER_SUBGROUP), stage, 6u,
                               uvec2(gpuav_bar_popcount(h), gpuav_bar_popcount(e)),
                               uvec4(who, k, wgxy, skip), uvec3(0u));
        }
        if (skip != 0u) {
            gpuav_bar_first = false;
            return false;
        }
    }
    // One atomic per subgroup: the lowest lane here counts the lanes here
    // (every invocation, one each, without a ballot).
    uint n = gpuav_bar_popcount(h);
    gpuav_bar_first = false;
    if (n == 0u || lane == gpuav_bar_lsb(h)) {
        gpuav_bar_first = atomicAdd(gpuav_bar_arrived[k % 3u], max(n, 1u)) == 0u;
        atomicStore(gpuav_bar_arrived[(k + 1u) % 3u], 0u, gl_ScopeWorkgroup, 0, 0);
    }
    return true;
}

// gpuav_bar_depart runs after a workgroup barrier (wgsize 0: its semantics
// do not order the counters, so it only counts): the first invocation to
// arrive reports BARRIER_WORKGROUP when fewer than wgsize arrived (p0
// arrived, p1 wgsize, p2 the local index of the first invocation that
// returned before the barrier or 0xFFFFFFFF, p3 the barriers passed before,
// p4 wgxy).
void gpuav_bar_depart(uint shader_id, uint site, uvec4 stage, uint wgsize, uint wgxy) {
    uint k = gpuav_bar_count;
    uint n = wgsize;
    gpuav_bar_count = k + 1u;
    if (n == 0u || !gpuav_bar_first) {
        return;
    }
    uint got = atomicLoad(gpuav_bar_arrived[k % 3u], gl_ScopeWorkgroup, 0, 0);
    if (got < n) {
        uint ex = atomicLoad(gpuav_bar_exited, gl_ScopeWorkgroup, 0, 0);
        uint who = (ex >> 16u) <= k ? ex & 65535u : 0xFFFFFFFFu;
        gpuav_write_record(shader_id, gpuav_site_code(site, GPUAV_CODE_BARRIER_WORKGROUP), stage, 6u, uvec2(got, n),
                           uvec4(who, k, wgxy, 0u), uvec3(0u));
    }
}
