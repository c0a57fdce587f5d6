/*
 * facts.c: the action facts tested on the CPU (facts.h). variants.c calls
 * it before an action whose pipeline has a fast variant with action facts,
 * when the grid or the pushed words changed.
 */
#include "facts.h"

uint64_t gpuavdbg_fact_end(const gpuavdbg_fact *f, const gpuavdbg_action_params *ap, const uint32_t *pc,
                           uint64_t pc_known)
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

int gpuavdbg_action_facts_fail(const gpuavdbg_fact *facts, const uint32_t *act, uint32_t nact, const uint32_t *floors,
                               const gpuavdbg_action_params *ap, const uint32_t *pc, uint64_t pc_known,
                               uint64_t *need)
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
