/*
 * shaderobj.h: VK_EXT_shader_object (shaderobj.c; the extension's own
 * declarations for older headers are in vk_shader_object.h).
 */
#ifndef GPUAVDBG_SHADEROBJ_H
#define GPUAVDBG_SHADEROBJ_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_shaderobj_intercept(const char *name);
/* gpuavdbg_shaderobj_teardown destroys the layer's pipeline layouts for
 * shader objects and forgets the shaders (vkDestroyDevice). */
void gpuavdbg_shaderobj_teardown(device_data *dd);
/* gpuavdbg_shaderobj_layout: the layer's pipeline layout of the first
 * instrumented shader of a bind point's shaders (GPUAVDBG_SO_STAGES of
 * them), with which the layer's set is bound; VK_NULL_HANDLE when none is
 * instrumented (the command-buffer owner's vkCmdBindShadersEXT). */
VkPipelineLayout gpuavdbg_shaderobj_layout(device_data *dd, const VkShaderEXT *shaders);

#endif
