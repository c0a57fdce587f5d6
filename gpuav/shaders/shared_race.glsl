// shared_memory_race: hazards between the invocations of one workgroup on
// workgroup (shared) memory, found with a shadow in shared memory
// (docs/decisions/shared-memory-race.md). The pass (pass_shared_race.go)
// numbers every scalar of the module's Workgroup variables (a slot) and
// gives each slot three shadow words: W, the last write; R, the first read;
// R2, a read by an invocation other than R's. Each holds a tag:
//
//	bits 20-31 the epoch: the workgroup barriers the invocation passed, + 1
//	           (1..4094; 0 is "never", the cleared shadow)
//	bit  19    the access was atomic
//	bits 9-18  the invocation's local index (gl_LocalInvocationIndex)
//	bits 0-8   the access's number among the module's checked accesses
//	           (Site.RaceTag; 511: one past the first 510)
//
// A tag of the invocation's own epoch was written after the last barrier
// both passed, so the two accesses are unordered: a hazard unless both are
// atomic or both reads. A tag of another epoch is stale and never compared,
// so the shadow needs no clearing but at the start and when the epoch wraps.
// The array's length is a placeholder: the pass sets it to 3 words per slot
// of the module after linking.
shared uint gpuav_race_shadow[4099];

// The invocation's epoch and local index (Private).
uint gpuav_race_epoch;
uint gpuav_race_lid;

// gpuav_race_begin clears the shadow (words words) and starts epoch 1;
// the pass calls it at the start of the entry point, where every
// invocation of the workgroup runs it.
void gpuav_race_begin(uint words, uint lid, uint wgsize) {
    uint n = words;
    uint me = lid;
    uint step = wgsize;
    for (uint i = me; i < n; i += step) {
        gpuav_race_shadow[i] = 0u;
    }
    gpuav_race_epoch = 1u;
    gpuav_race_lid = me;
    barrier();
}

// gpuav_race_barrier starts the next epoch; the pass calls it after every
// OpControlBarrier of Workgroup execution scope. At the wrap the shadow is
// cleared between two barriers of its own, so that no tag of an old epoch
// can read as one of the new epochs.
void gpuav_race_barrier(uint words, uint wgsize) {
    uint n = words;
    uint step = wgsize;
    uint e = gpuav_race_epoch + 1u;
    if (e >= 4095u) {
        barrier();
        for (uint i = gpuav_race_lid; i < n; i += step) {
            gpuav_race_shadow[i] = 0u;
        }
        barrier();
        e = 1u;
    }
    gpuav_race_epoch = e;
}

// gpuav_race_hazard reports whether tag t (of another access) and the
// access of invocation me with atomic bit a are a hazard in epoch e.
bool gpuav_race_hazard(uint t, uint e, uint me, uint a) {
    return (t >> 20u) == e && ((t >> 9u) & 1023u) != me && (a & (t >> 19u) & 1u) == 0u;
}

// gpuav_race_access checks n slots from slot (those below end; base is
// the variable's first slot) for the access at site: info holds the
// access's number (bits 0-8), 1 << 16 for a write, 1 << 17 for an atomic.
// wgxy is the workgroup size, x | y << 16, for the record. The first
// hazard found is reported:
// p1 the slot in the variable (slot - base), p2 the other access's number,
// p3 the local indices (this invocation's | the other's << 16), p4 wgxy,
// p5 bit 0 this access atomic, bit 1 the other atomic.
void gpuav_race_access(uint shader_id, uint site, uvec4 stage, uint info, uint slot, uint n, uint base, uint end,
                       uint wgxy) {
    uint me = gpuav_race_lid;
    uint inf = info;
    uint first = slot;
    uint count = n;
    uint last = end;
    if (me >= 1024u) {
        return; // the tag has no room for its index: unchecked
    }
    uint e = gpuav_race_epoch;
    uint a = (inf >> 17u) & 1u;
    uint tag = (e << 20u) | (a << 19u) | (me << 9u) | (inf & 511u);
    uint code = 0u;
    uint other = 0u;
    uint at = 0u;
    for (uint k = 0u; k < count && code == 0u; k++) {
        uint s = first + k;
        if (s >= last) {
            break;
        }
        uint w = s * 3u;
        if ((inf & 65536u) != 0u) {
            uint old = atomicExchange(gpuav_race_shadow[w], tag);
            uint r = atomicLoad(gpuav_race_shadow[w + 1u], gl_ScopeWorkgroup, 0, 0);
            uint r2 = atomicLoad(gpuav_race_shadow[w + 2u], gl_ScopeWorkgroup, 0, 0);
            if (gpuav_race_hazard(old, e, me, a)) {
                code = GPUAV_CODE_SHARED_RACE_WAW;
                other = old;
            } else if (gpuav_race_hazard(r, e, me, a)) {
                code = GPUAV_CODE_SHARED_RACE_WAR;
                other = r;
            } else if (gpuav_race_hazard(r2, e, me, a)) {
                code = GPUAV_CODE_SHARED_RACE_WAR;
                other = r2;
            }
        } else {
            uint wr = atomicLoad(gpuav_race_shadow[w], gl_ScopeWorkgroup, 0, 0);
            if (gpuav_race_hazard(wr, e, me, a)) {
                code = GPUAV_CODE_SHARED_RACE_RAW;
                other = wr;
            }
            // Readers: R keeps the epoch's first; a reader other than it
            // goes to R2, so that a later write by either finds the other.
            uint r = atomicLoad(gpuav_race_shadow[w + 1u], gl_ScopeWorkgroup, 0, 0);
            if ((r >> 20u) != e) {
                uint was = atomicCompSwap(gpuav_race_shadow[w + 1u], r, tag);
                r = was == r ? tag : was;
            }
            if ((r >> 20u) == e && ((r >> 9u) & 1023u) != me) {
                uint r2 = atomicLoad(gpuav_race_shadow[w + 2u], gl_ScopeWorkgroup, 0, 0);
                if ((r2 >> 20u) != e) {
                    atomicStore(gpuav_race_shadow[w + 2u], tag, gl_ScopeWorkgroup, 0, 0);
                }
            }
        }
        at = s;
    }
    if (code != 0u) {
        uint flags = a | (((other >> 19u) & 1u) << 1u);
        gpuav_write_record(shader_id, gpuav_site_code(site, code), stage, 5u,
                           uvec2(at - base, other & 511u),
                           uvec4(me | (((other >> 9u) & 1023u) << 16u), wgxy, flags, 0u), uvec3(0u));
    }
}
