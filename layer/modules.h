/*
 * modules.h: shader modules made from the words Go keeps, and the pipeline
 * stage structures the layer copies (modules.c).
 */
#ifndef GPUAVDBG_MODULES_H
#define GPUAVDBG_MODULES_H

#include "state.h"

/* gpuavdbg_module_from_go returns a module (the caller destroys it) of the
 * words Go keeps for module: its original words when it is instrumented,
 * or with precise its precise variant's when it is deferred;
 * VK_NULL_HANDLE when there are none (keep module) or the driver refuses
 * them (reported). gpuavdbg_precise_module is the precise one. */
VkShaderModule gpuavdbg_module_from_go(device_data *dd, VkShaderModule module, int precise);
VkShaderModule gpuavdbg_precise_module(device_data *dd, VkShaderModule module);

/* gpuavdbg_stage_pnext_size is the size of a structure the layer knows in
 * a pipeline stage's pNext chain, or 0 when unknown. */
size_t gpuavdbg_stage_pnext_size(VkStructureType t);

/* gpuavdbg_chain_append appends the copied structure c, its pNext cleared,
 * to the chain *head .. *tail. */
static inline void gpuavdbg_chain_append(VkBaseOutStructure **head, VkBaseOutStructure **tail, VkBaseOutStructure *c)
{
    c->pNext = NULL;
    if (*tail)
        (*tail)->pNext = c;
    else
        *head = c;
    *tail = c;
}

#endif
