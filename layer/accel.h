/*
 * accel.h: acceleration structures and the acceleration_structure_build
 * check (accel.c; docs/decisions/build-and-copy-checks.md). The room keeps
 * the device's table of acceleration structures (address, level, buffer,
 * alive) from vkCreate/DestroyAccelerationStructureKHR and
 * vkGetAccelerationStructureDeviceAddressKHR, which it intercepts; the
 * command-buffer owner (cmdbuf.c) calls its hook before each build, which
 * adds the build's jobs to the pre-pass (prepass.h) and runs its builds'
 * shader; submit.c writes the table into the pre-pass buffer before each
 * submit.
 */
#ifndef GPUAVDBG_ACCEL_H
#define GPUAVDBG_ACCEL_H

#include "state.h"

PFN_vkVoidFunction gpuavdbg_accel_intercept(const char *name);

/* The device owner's hooks (device.c): the check's settings (checks:
 * GPUAVDBG_CC_* bits) and the app's features; it returns the pre-pass
 * shaders the check needs (GPUAVDBG_PREPASS_WANT_ACCEL, or 0). Freed with
 * the device, after the pre-pass's teardown. */
int gpuavdbg_accel_device_created(device_data *dd, const VkDeviceCreateInfo *ci, uint32_t checks);
void gpuavdbg_accel_device_destroyed(device_data *dd);

/* What a checked build calls down with instead of the app's infos and
 * ranges: copies in which each instance geometry the layer copied reads
 * its copy (data.deviceAddress, primitiveOffset 0). */
typedef struct accel_patch {
    VkAccelerationStructureBuildGeometryInfoKHR *infos;
    VkAccelerationStructureGeometryKHR *geoms;
    const VkAccelerationStructureGeometryKHR **pgeoms;
    VkAccelerationStructureBuildRangeInfoKHR *ranges;
    const VkAccelerationStructureBuildRangeInfoKHR **pranges;
} accel_patch;

/* gpuavdbg_accel_build, before vkCmdBuildAccelerationStructuresKHR's
 * action (index action) is recorded: its jobs and the pre-pass that checks
 * them. It returns 1 when the build must read the layer's copies (*p then
 * holds what to call down with; gpuavdbg_accel_patch_free frees it). */
int gpuavdbg_accel_build(cb_state *cs, uint32_t action, uint32_t n, const VkAccelerationStructureBuildGeometryInfoKHR *infos,
                         const VkAccelerationStructureBuildRangeInfoKHR *const *ranges, accel_patch *p);
void gpuavdbg_accel_patch_free(accel_patch *p);
/* gpuavdbg_accel_build_indirect: vkCmdBuildAccelerationStructuresIndirectKHR
 * is not checked (said once per device). */
void gpuavdbg_accel_build_indirect(cb_state *cs);
/* The command buffer's reset and free. */
void gpuavdbg_accel_reset(cb_state *cs);
void gpuavdbg_accel_free(cb_state *cs);

/* submit.c, before a submit of cs (no earlier submission uses its
 * buffers): the table of acceleration structures as they are now, into the
 * pre-pass buffer where the recording's builds look references up. */
void gpuavdbg_accel_write_table(device_data *dd, cb_state *cs);

#endif
