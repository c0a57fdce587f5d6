/*
 * facts.h: testing a fast variant's action facts on the CPU
 * (docs/decisions/action-facts.md). A fact (layer.h, gpuav.Fact) says that
 * binding (set, binding) holds at least bound + the sum of coef times the
 * action's parameter over its terms; the parameters are a direct
 * dispatch's largest WorkgroupID and the push-constant words pushed so
 * far. Pure C, inline (variants.c tests them before an action whose
 * grid or pushed words changed: no call on that path): no Vulkan call, no
 * Go (the C unit test includes it alone, ctest/).
 */
#ifndef GPUAVDBG_FACTS_H
#define GPUAVDBG_FACTS_H

#include <stdint.h>

#include "state.h"

/* gpuavdbg_fact_end is action fact f's bound at the action's parameters
 * ap and the pushed words pc (bit i of pc_known: word i was pushed), or
 * UINT64_MAX when a parameter is not known or the bound reaches
 * GPUAVDBG_ACTION_LIMIT (the shader's 32-bit arithmetic may have wrapped
 * there). */
static inline uint64_t gpuavdbg_fact_end(const gpuavdbg_fact *f, const gpuavdbg_action_params *ap,
                                         const uint32_t *pc, uint64_t pc_known)
{
    uint64_t end = f->bound;
    for (uint32_t k = 0; k < GPUAVDBG_FACT_TERMS; k++) {
        uint64_t c = f->terms[k].coef, v;
        uint32_t p = f->terms[k].param, w = p - GPUAVDBG_PARAM_PC;
        if (!c)
            continue;
        if (p - GPUAVDBG_PARAM_WG_X <= 2 && ap->known)
            v = ap->wg_max[p - GPUAVDBG_PARAM_WG_X];
        else if (p >= GPUAVDBG_PARAM_PC && w < GPUAVDBG_PC_WORDS && (pc_known >> w & 1))
            v = pc[w];
        else
            return UINT64_MAX; /* not known at this action */
        if (c >= GPUAVDBG_ACTION_LIMIT || v >= GPUAVDBG_ACTION_LIMIT)
            return UINT64_MAX;
        end += c * v; /* each below 2^31: no overflow */
        if (end >= GPUAVDBG_ACTION_LIMIT)
            return UINT64_MAX;
    }
    return end;
}

/* gpuavdbg_action_facts_fail tests the action facts facts[act[k]] (k <
 * nact) against the floors of their bindings (floors[k]: found when the
 * sets were tested, or an index fact's length - 1). It returns the first
 * k whose bound exceeds its floor, with that bound in *need, or -1 when
 * every one holds or no invocation runs (an empty grid). */
static inline int gpuavdbg_action_facts_fail(const gpuavdbg_fact *facts, const uint32_t *act, uint32_t nact,
                                             const uint32_t *floors, const gpuavdbg_action_params *ap,
                                             const uint32_t *pc, uint64_t pc_known, uint64_t *need)
{
    if (ap->known && ap->empty)
        return -1; /* no invocation runs */
    for (uint32_t k = 0; k < nact; k++) {
        uint64_t end = gpuavdbg_fact_end(&facts[act[k]], ap, pc, pc_known);
        if (end > floors[k]) {
            *need = end;
            return (int)k;
        }
    }
    return -1;
}

#endif
