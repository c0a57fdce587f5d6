/*
 * device.h: the device owner (device.c), called by the loader face's
 * vkCreateDevice and vkDestroyDevice (dispatch.c).
 */
#ifndef GPUAVDBG_DEVICE_H
#define GPUAVDBG_DEVICE_H

#include "state.h"

/* gpuavdbg_patch_features and gpuavdbg_patch_extensions return the create
 * info to call down with: ci itself, or a copy (in *scratch, which the
 * caller frees) that also enables what instrumented shaders need (the
 * vertex and fragment store features and shaderInt64 where supported:
 * *int64; VK_KHR_storage_buffer_storage_class for a Vulkan 1.0 app, and
 * VK_KHR_push_descriptor with descriptor buffers: *missing names what the
 * device lacks). The app's structures are never written. */
const VkDeviceCreateInfo *gpuavdbg_patch_features(instance_data *inst, VkPhysicalDevice pd,
                                                  const VkDeviceCreateInfo *ci, void **scratch, uint32_t *int64);
const VkDeviceCreateInfo *gpuavdbg_patch_extensions(instance_data *inst, VkPhysicalDevice pd,
                                                    const VkDeviceCreateInfo *ci, void **scratch,
                                                    const char **missing);
/* gpuavdbg_device_extensions_enabled records on dd which of the extensions
 * the layer cares about the device was created with. */
void gpuavdbg_device_extensions_enabled(device_data *dd, const VkDeviceCreateInfo *ci);

/* The flow. gpuavdbg_device_init fills what the app's create info says and
 * the locks (gpuavdbg_device_fini undoes it when the device cannot be
 * registered); gpuavdbg_device_created sets up every room once the device
 * is registered, sends the Device message and never fails;
 * gpuavdbg_device_destroy tears every room down, destroys the device down
 * the chain and frees dd. */
void gpuavdbg_device_init(device_data *dd, const VkDeviceCreateInfo *ci);
void gpuavdbg_device_fini(device_data *dd);
void gpuavdbg_device_created(device_data *dd, const VkDeviceCreateInfo *ci);
void gpuavdbg_device_destroy(device_data *dd, VkDevice device, const VkAllocationCallbacks *alloc);

#endif
