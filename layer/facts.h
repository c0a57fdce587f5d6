/*
 * facts.h: testing a fast variant's action facts on the CPU (facts.c;
 * docs/decisions/action-facts.md). A fact (layer.h, gpuav.Fact) says that
 * binding (set, binding) holds at least bound + the sum of coef times the
 * action's parameter over its terms; the parameters are a direct
 * dispatch's largest WorkgroupID and the push-constant words pushed so
 * far. Pure C: no Vulkan call, no Go (the C unit test links it alone,
 * ctest/).
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
uint64_t gpuavdbg_fact_end(const gpuavdbg_fact *f, const gpuavdbg_action_params *ap, const uint32_t *pc,
                           uint64_t pc_known);

/* gpuavdbg_action_facts_fail tests the action facts facts[act[k]] (k <
 * nact) against the floors of their bindings (floors[k]: found when the
 * sets were tested, or an index fact's length - 1). It returns the first
 * k whose bound exceeds its floor, with that bound in *need, or -1 when
 * every one holds or no invocation runs (an empty grid). */
int gpuavdbg_action_facts_fail(const gpuavdbg_fact *facts, const uint32_t *act, uint32_t nact, const uint32_t *floors,
                               const gpuavdbg_action_params *ap, const uint32_t *pc, uint64_t pc_known,
                               uint64_t *need);

#endif
