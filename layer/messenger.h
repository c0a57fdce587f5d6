/*
 * messenger.h: the app's debug-utils messengers (messenger.c); the layer's
 * messages reach them through gpuavdbg_emit (layer.h, called by Go).
 */
#ifndef GPUAVDBG_MESSENGER_H
#define GPUAVDBG_MESSENGER_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_messenger_intercept(const char *name);
/* The messengers chained to vkCreateInstance, and forgetting them with
 * their instance (the loader face's vkCreateInstance, vkDestroyInstance). */
void gpuavdbg_messengers_from_create_info(const void *instance_key, const VkInstanceCreateInfo *ci);
void gpuavdbg_messengers_forget_instance(const void *instance_key);

#endif
