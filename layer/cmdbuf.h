/*
 * cmdbuf.h: the command-buffer owner (cmdbuf.c): command buffers' life and
 * every vkCmd* command the layer intercepts; the rooms it calls hook into
 * it (docs/layer-map.md).
 */
#ifndef GPUAVDBG_CMDBUF_H
#define GPUAVDBG_CMDBUF_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_cmdbuf_intercept(const char *name);
/* gpuavdbg_cb_forget_device frees the state of every command buffer of a
 * device (vkDestroyDevice, the device owner). */
void gpuavdbg_cb_forget_device(device_data *dd);
/* gpuavdbg_cmd_name: an action command's Vulkan name (GPUAVDBG_CMDS,
 * state.h), or NULL; Go names records with it. */
const char *gpuavdbg_cmd_name(uint32_t cmd);

#endif
