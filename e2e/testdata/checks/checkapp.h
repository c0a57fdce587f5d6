/*
 * checkapp.h: what the check test apps of this directory share on top of
 * the project's C bootstrap (internal/capp/capp.h): their arguments, the
 * 1x1 target and the pipeline of the stage under test, recording one
 * invocation, and the one-triangle ray-tracing scene. Each app is one
 * translation unit with capp.c (internal/cbuild builds it), so everything
 * here is static (inline where an app may not use it).
 *
 * An app defines APP (its name, a string literal) before including this
 * file; every message reads "APP: ...". The app's Vulkan objects are in
 * the global capp `ca`. What is here:
 *   ca_args                --shaders DIR, --case NAME, --stage compute|vertex|fragment
 *   ca_create_stage_device a device for compute/vertex/fragment apps
 *   ca_module              a shader module from DIR/NAME (ca_destroy_modules)
 *   ca_pipeline_layout     one set layout (or none) and push constants
 *   ca_stage_pipeline      the compute pipeline of PREFIX.comp, or the point
 *                          pipeline of PREFIX.vert/PLAIN.vert and
 *                          PREFIX.frag/PLAIN.frag into a 1x1 image
 *                          (_spec: with specialization constants)
 *   ca_record_one          one dispatch or one point of a stage's pipeline
 *   ca_command_buffers, ca_name_cmd_pipeline, ca_submit_wait
 *   ca_teardown            wait, then destroy what every app made
 *   ca_make_scene          a BLAS of one triangle (or box) and its TLAS
 *   ca_shader_table        a ray-tracing pipeline's shader binding table
 */
#ifndef CHECKAPP_H
#define CHECKAPP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capp.h"

#ifndef APP
#error "define APP (the app's name) before including checkapp.h"
#endif

const char capp_app_name[] = APP;

/* ca is the app's instance, device and queue. */
static capp ca;

/* The stages ca_args knows. */
enum { CA_COMPUTE, CA_VERTEX, CA_FRAGMENT };

#define CA_MAX_MODULES 8
static VkShaderModule ca_modules[CA_MAX_MODULES];
static uint32_t ca_nmodules;

/* PROC declares pNAME, the device function NAME. */
#define PROC(name) PFN_##name p##name = (PFN_##name)vkGetDeviceProcAddr(ca.dev, #name)

/* ca_args reads --shaders DIR, --case NAME and --stage
 * compute|vertex|fragment into *dir, *kase and *stage; on anything else it
 * prints "APP: unknown stage|argument X" and returns 2, else 0. */
static inline int ca_args(int argc, char **argv, const char **dir, const char **kase, int *stage)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shaders") && i + 1 < argc)
            *dir = argv[++i];
        else if (!strcmp(argv[i], "--case") && i + 1 < argc)
            *kase = argv[++i];
        else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "compute"))
                *stage = CA_COMPUTE;
            else if (!strcmp(argv[i], "vertex"))
                *stage = CA_VERTEX;
            else if (!strcmp(argv[i], "fragment"))
                *stage = CA_FRAGMENT;
            else {
                fprintf(stderr, APP ": unknown stage %s\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, APP ": unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    return 0;
}

/* ca_create_device creates ca's device with one queue of the first family
 * that has all of want, the feature chain features (a
 * VkPhysicalDeviceFeatures2, or NULL) and the given extensions. */
static inline void ca_create_device(VkQueueFlags want, const void *features, const char *const *exts, uint32_t nexts)
{
    capp_create_device(&ca, &(capp_device_info){.queue_flags = want, .next = features, .exts = exts, .nexts = nexts});
}

/* ca_create_stage_device is ca_create_device for the apps that run their
 * access in a compute, vertex or fragment shader: a graphics+compute queue,
 * dynamicRendering, vertex and fragment stores and atomics,
 * robustBufferAccess when robust, and more (a feature struct chain, or
 * NULL) after those. */
static inline void ca_create_stage_device(VkBool32 robust, void *more, const char *const *exts, uint32_t nexts)
{
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = more,
        .dynamicRendering = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    f2.features.vertexPipelineStoresAndAtomics = VK_TRUE;
    f2.features.fragmentStoresAndAtomics = VK_TRUE;
    f2.features.robustBufferAccess = robust;
    ca_create_device(VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT, &f2, exts, nexts);
}

/* ca_module creates a shader module from the SPIR-V file DIR/NAME and
 * remembers it for ca_destroy_modules. */
static inline VkShaderModule ca_module(const char *dir, const char *name)
{
    char path[4096];
    if (ca_nmodules == CA_MAX_MODULES)
        capp_die("more than %d shader modules", CA_MAX_MODULES);
    VkShaderModule m = capp_shader_file(&ca, capp_path(path, sizeof path, dir, name));
    ca_modules[ca_nmodules++] = m;
    return m;
}

/* ca_destroy_modules destroys the modules ca_module created. */
static inline void ca_destroy_modules(void)
{
    for (uint32_t i = 0; i < ca_nmodules; i++)
        vkDestroyShaderModule(ca.dev, ca_modules[i], NULL);
    ca_nmodules = 0;
}

/* ca_pipeline_layout creates a pipeline layout of the set layout dsl
 * (none when VK_NULL_HANDLE) and pc_size bytes of push constants for
 * stages. */
static inline VkPipelineLayout ca_pipeline_layout(VkDescriptorSetLayout dsl, VkShaderStageFlags stages, uint32_t pc_size)
{
    VkPushConstantRange pcr = {.stageFlags = stages, .size = pc_size};
    return capp_pipeline_layout(&ca, dsl ? 1 : 0, &dsl, &pcr);
}

/* ca_stage_pipeline creates the pipeline of stage: for CA_COMPUTE the
 * compute pipeline of DIR/PREFIX.comp.spv (*t zeroed); else *t is a 1x1
 * R8G8B8A8_UNORM target and the pipeline draws points into it with
 * PREFIX.vert.spv for CA_VERTEX (PLAIN.vert.spv otherwise) and
 * PREFIX.frag.spv for CA_FRAGMENT (PLAIN.frag.spv otherwise): only the
 * stage under test runs the checked code. */
static inline VkPipeline ca_stage_pipeline_spec(int stage, const char *dir, const char *prefix, const char *plain,
                                                VkPipelineLayout layout, capp_image *t,
                                                const VkSpecializationInfo *spec)
{
    char name[256];
    memset(t, 0, sizeof *t);
    if (stage == CA_COMPUTE) {
        snprintf(name, sizeof name, "%s.comp.spv", prefix);
        return capp_compute_pipeline(&ca, layout, ca_module(dir, name), 0, spec);
    }
    *t = capp_image_create(&ca, 1, 1, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    snprintf(name, sizeof name, "%s.vert.spv", stage == CA_VERTEX ? prefix : plain);
    VkShaderModule vert = ca_module(dir, name);
    snprintf(name, sizeof name, "%s.frag.spv", stage == CA_FRAGMENT ? prefix : plain);
    VkShaderModule frag = ca_module(dir, name);
    VkPipelineShaderStageCreateInfo ss[2] = {capp_stage(VK_SHADER_STAGE_VERTEX_BIT, vert, spec),
                                             capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, frag, spec)};
    return capp_graphics_pipeline(&ca, &(capp_graphics_info){.stages = ss, .nstages = 2, .layout = layout,
                                                              .format = t->format, .width = 1, .height = 1,
                                                              .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST});
}

/* ca_stage_pipeline is ca_stage_pipeline_spec with no specialization. */
static inline VkPipeline ca_stage_pipeline(int stage, const char *dir, const char *prefix, const char *plain,
                                           VkPipelineLayout layout, capp_image *t)
{
    return ca_stage_pipeline_spec(stage, dir, prefix, plain, layout, t, NULL);
}

/* ca_record_one records into cmd, for stage, one invocation of pipe: the
 * pipeline bound, the set (when not VK_NULL_HANDLE, with ndyn dynamic
 * offsets dyn) bound, pc_size bytes of push constants pc for all stages,
 * then a 1x1x1 dispatch or, inside dynamic rendering into t, one point. */
static inline void ca_record_one(VkCommandBuffer cmd, int stage, const capp_image *t, VkPipeline pipe,
                          VkPipelineLayout layout, VkDescriptorSet set, uint32_t ndyn, const uint32_t *dyn,
                          const void *pc, uint32_t pc_size)
{
    capp_begin(cmd, 0);
    VkPipelineBindPoint bp = stage == CA_COMPUTE ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
    if (stage != CA_COMPUTE)
        capp_begin_rendering(cmd, t, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    vkCmdBindPipeline(cmd, bp, pipe);
    if (set)
        vkCmdBindDescriptorSets(cmd, bp, layout, 0, 1, &set, ndyn, dyn);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_ALL, 0, pc_size, pc);
    if (stage == CA_COMPUTE) {
        vkCmdDispatch(cmd, 1, 1, 1);
    } else {
        vkCmdDraw(cmd, 1, 1, 0, 0);
        vkCmdEndRendering(cmd);
    }
    CHECK(vkEndCommandBuffer(cmd));
}

/* ca_command_buffers creates a command pool of ca's family with flags and
 * allocates n primary command buffers from it into cbs. */
static inline VkCommandPool ca_command_buffers(VkCommandPoolCreateFlags flags, uint32_t n, VkCommandBuffer *cbs)
{
    VkCommandPool pool = capp_command_pool(&ca, flags);
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = n};
    CHECK(vkAllocateCommandBuffers(ca.dev, &cbai, cbs));
    return pool;
}

/* ca_name_cmd_pipeline names the command buffer and the pipeline. */
static inline void ca_name_cmd_pipeline(VkCommandBuffer cmd, const char *cmd_name, VkPipeline pipe, const char *pipe_name)
{
    capp_name(&ca, VK_OBJECT_TYPE_COMMAND_BUFFER, capp_handle(cmd), cmd_name);
    capp_name(&ca, VK_OBJECT_TYPE_PIPELINE, capp_handle(pipe), pipe_name);
}

/* ca_submit_wait submits cmd to ca's queue and waits for the queue to idle. */
static inline void ca_submit_wait(VkCommandBuffer cmd)
{
    capp_submit_wait(&ca, 1, &cmd, VK_NULL_HANDLE, NULL);
}

/* ca_teardown waits for the device to idle, then destroys pipe, the modules
 * of ca_module, layout, the command pool, the descriptor pool and set layout
 * and the target t (each one that is there). */
static inline void ca_teardown(VkPipeline pipe, VkPipelineLayout layout, VkCommandPool pool,
                               VkDescriptorPool dpool, VkDescriptorSetLayout dsl, capp_image *t)
{
    vkDeviceWaitIdle(ca.dev);
    vkDestroyPipeline(ca.dev, pipe, NULL);
    ca_destroy_modules();
    vkDestroyPipelineLayout(ca.dev, layout, NULL);
    vkDestroyCommandPool(ca.dev, pool, NULL);
    if (dpool)
        vkDestroyDescriptorPool(ca.dev, dpool, NULL);
    if (dsl)
        vkDestroyDescriptorSetLayout(ca.dev, dsl, NULL);
    if (t)
        capp_image_destroy(&ca, t);
}

/* ca_rt_buffer: host-visible, coherent, mapped, with a device address. */
static inline capp_buffer ca_rt_buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    return capp_buffer_create(&ca, size, usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
}

/* ca_build_as builds one acceleration structure of one geometry with count
 * primitives into cb (and a barrier after it). */
static inline VkAccelerationStructureKHR ca_build_as(VkCommandBuffer cb, VkAccelerationStructureTypeKHR type,
                                              const VkAccelerationStructureGeometryKHR *geom, uint32_t count,
                                              capp_buffer *storage, capp_buffer *scratch)
{
    PROC(vkGetAccelerationStructureBuildSizesKHR);
    PROC(vkCreateAccelerationStructureKHR);
    PROC(vkCmdBuildAccelerationStructuresKHR);
    VkAccelerationStructureBuildGeometryInfoKHR bi = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR, .type = type,
        .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR, .geometryCount = 1, .pGeometries = geom,
    };
    VkAccelerationStructureBuildSizesInfoKHR sizes = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
    pvkGetAccelerationStructureBuildSizesKHR(ca.dev, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &bi, &count,
                                             &sizes);
    *storage = ca_rt_buffer(sizes.accelerationStructureSize, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR);
    *scratch = ca_rt_buffer(sizes.buildScratchSize + 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkAccelerationStructureCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR, .buffer = storage->buf,
        .size = sizes.accelerationStructureSize, .type = type,
    };
    VkAccelerationStructureKHR as;
    CHECK(pvkCreateAccelerationStructureKHR(ca.dev, &ci, NULL, &as));
    bi.dstAccelerationStructure = as;
    bi.scratchData.deviceAddress = (scratch->addr + 255) & ~(VkDeviceAddress)255;
    VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = count};
    const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
    pvkCmdBuildAccelerationStructuresKHR(cb, 1, &bi, &ranges);
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
                          .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                         VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         0, 1, &mb, 0, NULL, 0, NULL);
    return as;
}

/* ca_scene is a TLAS of one instance of a one-geometry BLAS, and what it
 * is made of. */
typedef struct {
    VkAccelerationStructureKHR blas, tlas;
    capp_buffer geo, inst, blas_buf, blas_scratch, tlas_buf, tlas_scratch;
} ca_scene;

/* ca_make_scene builds, with cb, and waits for: one triangle in the plane
 * z = 5 around the z axis, (-1,-1,5) (1,-1,5) (0,1,5), or with box the
 * box (-1,-1,4)..(1,1,6) as an AABB; opaque or not; its one instance with
 * the given mask. */
static inline ca_scene ca_make_scene(VkCommandBuffer cb, int box, int opaque, uint32_t mask)
{
    ca_scene s;
    VkAccelerationStructureGeometryKHR bg = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR};
    if (box) {
        VkAabbPositionsKHR aabb = {-1, -1, 4, 1, 1, 6};
        s.geo = ca_rt_buffer(sizeof aabb, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
        memcpy(s.geo.map, &aabb, sizeof aabb);
        bg.geometryType = VK_GEOMETRY_TYPE_AABBS_KHR;
        bg.geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
            .data.deviceAddress = s.geo.addr, .stride = sizeof aabb};
    } else {
        float tri[9] = {-1, -1, 5, 1, -1, 5, 0, 1, 5};
        s.geo = ca_rt_buffer(sizeof tri, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
        memcpy(s.geo.map, tri, sizeof tri);
        bg.geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR;
        bg.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
            .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT, .vertexData.deviceAddress = s.geo.addr,
            .vertexStride = 3 * sizeof(float), .maxVertex = 2, .indexType = VK_INDEX_TYPE_NONE_KHR};
    }
    bg.flags = opaque ? VK_GEOMETRY_OPAQUE_BIT_KHR : VK_GEOMETRY_NO_DUPLICATE_ANY_HIT_INVOCATION_BIT_KHR;
    capp_begin(cb, 0);
    s.blas = ca_build_as(cb, VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &bg, 1, &s.blas_buf, &s.blas_scratch);
    PROC(vkGetAccelerationStructureDeviceAddressKHR);
    VkAccelerationStructureDeviceAddressInfoKHR dai = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR, .accelerationStructure = s.blas};
    VkAccelerationStructureInstanceKHR inst = {
        .transform.matrix = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}},
        .mask = mask,
        .flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR,
        .accelerationStructureReference = pvkGetAccelerationStructureDeviceAddressKHR(ca.dev, &dai),
    };
    s.inst = ca_rt_buffer(sizeof inst, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
    memcpy(s.inst.map, &inst, sizeof inst);
    VkAccelerationStructureGeometryKHR tg = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
        .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
        .geometry.instances = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
                               .data.deviceAddress = s.inst.addr},
    };
    s.tlas = ca_build_as(cb, VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &tg, 1, &s.tlas_buf, &s.tlas_scratch);
    CHECK(vkEndCommandBuffer(cb));
    ca_submit_wait(cb);
    return s;
}

/* ca_shader_table makes the shader binding table of a ray-tracing
 * pipeline's first ngroups (at most 4) groups, one group per
 * shaderGroupBaseAlignment, and points regions[g] at group g. */
static inline capp_buffer ca_shader_table(VkPipeline pipe, uint32_t ngroups, VkStridedDeviceAddressRegionKHR *const *regions)
{
    PROC(vkGetRayTracingShaderGroupHandlesKHR);
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR rtp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &rtp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);
    uint32_t hs = rtp.shaderGroupHandleSize, base = rtp.shaderGroupBaseAlignment;
    if (hs > 64 || hs > base || ngroups > 4)
        capp_die("shader group handles of %u bytes, aligned to %u", hs, base);
    uint8_t handles[4 * 64];
    CHECK(pvkGetRayTracingShaderGroupHandlesKHR(ca.dev, pipe, 0, ngroups, ngroups * hs, handles));
    capp_buffer sbt = ca_rt_buffer((VkDeviceSize)(ngroups + 1) * base, VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR);
    VkDeviceAddress at = (sbt.addr + base - 1) / base * base;
    for (uint32_t g = 0; g < ngroups; g++) {
        memcpy((uint8_t *)sbt.map + (at - sbt.addr) + g * base, handles + g * hs, hs);
        *regions[g] = (VkStridedDeviceAddressRegionKHR){.deviceAddress = at + g * base, .stride = base, .size = base};
    }
    return sbt;
}

#endif
