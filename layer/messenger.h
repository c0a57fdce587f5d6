/*
 * messenger.h: the app's debug-utils messengers (messenger.c); the layer's
 * messages reach them through gpuavdbg_emit (below, called by Go).
 */
#ifndef GPUAVDBG_MESSENGER_H
#define GPUAVDBG_MESSENGER_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_messenger_intercept(const char *name);
/* The messengers chained to vkCreateInstance (they hear the layer only
 * during vkCreateInstance and vkDestroyInstance, as the spec has it: from
 * gpuavdbg_messengers_from_create_info until gpuavdbg_messengers_in_call(key,
 * 0) at the end of vkCreateInstance, and again from
 * gpuavdbg_messengers_in_call(key, 1) in vkDestroyInstance), and
 * forgetting them with their instance (the loader face's vkCreateInstance,
 * vkDestroyInstance). */
void gpuavdbg_messengers_from_create_info(const void *instance_key, const VkInstanceCreateInfo *ci);
void gpuavdbg_messengers_in_call(const void *instance_key, int in_call);
void gpuavdbg_messengers_forget_instance(const void *instance_key);
/* Go's side (messenger.go): how many messengers the app has, and one
 * message to each of them, outside the Go lock. */
int gpuavdbg_messenger_count(void);
void gpuavdbg_emit(uint32_t severity, uint32_t type, const char *id_name, int32_t id, const char *text,
                   uint32_t nobj, const uint64_t *objects, const uint32_t *object_types, char **names);

#endif
