/*
 * traceapp: the trace_ray check's test app (C: never a second Go runtime in
 * the app). A ray-tracing pipeline of trace.rgen, trace.rmiss and one hit
 * group (trace.rchit on the triangle in the plane z = 5 around the z axis,
 * or, with --stage rint, trace.rint and trace.rchit on the box
 * (-1,-1,4)..(1,1,6)), maxPipelineRayRecursionDepth 2, launched 4x1x1 with
 * vkCmdTraceRaysKHR; the ray under test is traced by the stage named:
 *
 *   traceapp --shaders DIR [--stage raygen|rchit|rmiss|rint]
 *            [--ray OX OY OZ DX DY DZ TMIN TMAX] [--flags N]
 *            [--sbt OFFSET STRIDE MISS] [--hit-kind K]
 *            [--pipeline skip-triangles|skip-aabbs]
 *
 *   raygen: the ray generation shader traces it;
 *   rchit:  the ray generation shader's ray hits the triangle, and the
 *           closest-hit shader traces it;
 *   rmiss:  the ray generation shader's ray misses (along -z), and the miss
 *           shader traces it;
 *   rint:   the ray generation shader's ray hits the box, and the
 *           intersection shader reports t = 5 with hit kind K (default 5).
 *
 * The ray's values are read with strtof ("inf", "-inf" and "nan" work);
 * the default (0 0 0  0 0 1  0 10) hits the triangle. --flags is Rayflags
 * (strtoul base 0, default 1: gl_RayFlagsOpaqueEXT), --sbt the SBT offset,
 * stride and miss index (default 0 0 0); --pipeline creates the pipeline
 * with VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR or
 * _SKIP_AABBS_BIT_KHR (a skip-triangles pipeline's ray misses the
 * triangle; it needs rayTraversalPrimitiveCulling). It prints "payload=a b c d", what
 * each launch's ray generation shader found in its payload: 7 where its
 * trace was not made, 1 for a hit, 2 for a miss, 1000 + the hit kind for a
 * hit on the box; in stages rchit and rmiss 10 + what the shader's own
 * trace left (110: not made, 11: a hit, 12: a miss). Every VkResult is
 * checked; a failure prints "traceapp: <call> failed: <n>" and exits 1. A
 * device without rayTracingPipeline or accelerationStructure prints
 * "unsupported" and exits 0.
 * Names: the command buffer is "trace-cmd", the pipeline "trace-pipeline".
 */
#define APP "traceapp"
#include "checkapp.h"

/* pc is trace.glsl's push-constant block. */
typedef struct {
    float origin[4], dir[4];
    float tmin, tmax;
    uint32_t flags, sbt_offset, sbt_stride, miss, stage, hit_kind;
} pc_block;

int main(int argc, char **argv)
{
    const char *dir = ".";
    pc_block pc = {.origin = {0, 0, 0, 0}, .dir = {0, 0, 1, 0}, .tmin = 0, .tmax = 10, .flags = 1, .hit_kind = 5};
    VkPipelineCreateFlags pflags = 0;
    static const char *const stages[] = {"raygen", "rchit", "rmiss", "rint"};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shaders") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
            i++;
            uint32_t s = 0;
            while (s < 4 && strcmp(argv[i], stages[s]))
                s++;
            if (s == 4) {
                fprintf(stderr, APP ": unknown stage %s\n", argv[i]);
                return 2;
            }
            pc.stage = s;
        } else if (!strcmp(argv[i], "--ray") && i + 8 < argc) {
            for (int k = 0; k < 3; k++)
                pc.origin[k] = strtof(argv[++i], NULL);
            for (int k = 0; k < 3; k++)
                pc.dir[k] = strtof(argv[++i], NULL);
            pc.tmin = strtof(argv[++i], NULL);
            pc.tmax = strtof(argv[++i], NULL);
        } else if (!strcmp(argv[i], "--flags") && i + 1 < argc) {
            pc.flags = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--sbt") && i + 3 < argc) {
            pc.sbt_offset = (uint32_t)strtoul(argv[++i], NULL, 0);
            pc.sbt_stride = (uint32_t)strtoul(argv[++i], NULL, 0);
            pc.miss = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else if (!strcmp(argv[i], "--pipeline") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "skip-triangles"))
                pflags = VK_PIPELINE_CREATE_RAY_TRACING_SKIP_TRIANGLES_BIT_KHR;
            else if (!strcmp(argv[i], "skip-aabbs"))
                pflags = VK_PIPELINE_CREATE_RAY_TRACING_SKIP_AABBS_BIT_KHR;
            else {
                fprintf(stderr, APP ": unknown pipeline flag %s\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--hit-kind") && i + 1 < argc) {
            pc.hit_kind = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, APP ": unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    int box = pc.stage == 3;

    capp_create_instance(&ca, NULL);
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR qrt = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR};
    VkPhysicalDeviceAccelerationStructureFeaturesKHR qas = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR, .pNext = &qrt};
    VkPhysicalDeviceFeatures2 q2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &qas};
    if (capp_has_device_extension(&ca, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME) &&
        capp_has_device_extension(&ca, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME))
        vkGetPhysicalDeviceFeatures2(ca.pd, &q2);
    if (!qrt.rayTracingPipeline || !qas.accelerationStructure) {
        printf("unsupported\n");
        return 0;
    }
    if (pflags && !qrt.rayTraversalPrimitiveCulling) {
        printf("unsupported\n"); /* the skip flags need it */
        return 0;
    }
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR rtf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR,
        .rayTracingPipeline = VK_TRUE,
        .rayTraversalPrimitiveCulling = pflags != 0,
    };
    VkPhysicalDeviceAccelerationStructureFeaturesKHR asf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
        .pNext = &rtf,
        .accelerationStructure = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &asf,
        .bufferDeviceAddress = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    const char *exts[] = {VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                          VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME};
    ca_create_device(VK_QUEUE_COMPUTE_BIT, &f2, exts, 3);

    VkCommandBuffer cbs[2];
    VkCommandPool pool = ca_command_buffers(0, 2, cbs);
    ca_scene sc = ca_make_scene(cbs[0], box, 1, 0xff);

    /* Descriptors: the TLAS and the output buffer. */
    capp_buffer out = ca_rt_buffer(4 * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    memset(out.map, 0, 4 * sizeof(uint32_t));
    VkShaderStageFlags rt = VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |
                            VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR;
    VkDescriptorSetLayoutBinding binds[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, .descriptorCount = 1,
         .stageFlags = rt},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1, .stageFlags = rt},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, binds, 2, &dsl, &dpool);
    VkWriteDescriptorSetAccelerationStructureKHR was = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
        .accelerationStructureCount = 1, .pAccelerationStructures = &sc.tlas};
    VkDescriptorBufferInfo dbi = {.buffer = out.buf, .range = VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &was, .dstSet = set, .dstBinding = 0,
         .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi},
    };
    vkUpdateDescriptorSets(ca.dev, 2, writes, 0, NULL);
    VkPipelineLayout layout = ca_pipeline_layout(dsl, rt, sizeof pc);

    /* Groups: 0 raygen, 1 miss, 2 the hit group. */
    VkPipelineShaderStageCreateInfo ss[4] = {
        capp_stage(VK_SHADER_STAGE_RAYGEN_BIT_KHR, ca_module(dir, "trace.rgen.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_MISS_BIT_KHR, ca_module(dir, "trace.rmiss.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR, ca_module(dir, "trace.rchit.spv"), NULL),
    };
    uint32_t nstages = 3;
    if (box)
        ss[nstages++] = capp_stage(VK_SHADER_STAGE_INTERSECTION_BIT_KHR, ca_module(dir, "trace.rint.spv"), NULL);
    VkRayTracingShaderGroupCreateInfoKHR general = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
        .type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR, .closestHitShader = VK_SHADER_UNUSED_KHR,
        .anyHitShader = VK_SHADER_UNUSED_KHR, .intersectionShader = VK_SHADER_UNUSED_KHR,
    };
    VkRayTracingShaderGroupCreateInfoKHR groups[3] = {general, general, general};
    groups[0].generalShader = 0;
    groups[1].generalShader = 1;
    groups[2].type = box ? VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR
                         : VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR;
    groups[2].generalShader = VK_SHADER_UNUSED_KHR;
    groups[2].closestHitShader = 2;
    groups[2].intersectionShader = box ? 3 : VK_SHADER_UNUSED_KHR;
    VkRayTracingPipelineCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR, .flags = pflags, .stageCount = nstages, .pStages = ss,
        .groupCount = 3, .pGroups = groups, .maxPipelineRayRecursionDepth = 2, .layout = layout,
    };
    PROC(vkCreateRayTracingPipelinesKHR);
    VkPipeline pipe;
    CHECK(pvkCreateRayTracingPipelinesKHR(ca.dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci, NULL, &pipe));
    VkStridedDeviceAddressRegionKHR rgen, miss, hit, call = {0};
    capp_buffer sbt = ca_shader_table(pipe, 3, (VkStridedDeviceAddressRegionKHR *[]){&rgen, &miss, &hit});
    ca_name_cmd_pipeline(cbs[1], "trace-cmd", pipe, "trace-pipeline");

    capp_begin(cbs[1], 0);
    vkCmdBindPipeline(cbs[1], VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pipe);
    vkCmdBindDescriptorSets(cbs[1], VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cbs[1], layout, rt, 0, sizeof pc, &pc);
    PROC(vkCmdTraceRaysKHR);
    pvkCmdTraceRaysKHR(cbs[1], &rgen, &miss, &hit, &call, 4, 1, 1);
    CHECK(vkEndCommandBuffer(cbs[1]));
    ca_submit_wait(cbs[1]);
    const uint32_t *p = out.map;
    printf("payload=%u %u %u %u\n", p[0], p[1], p[2], p[3]);
    fflush(stdout);
    /* Tear-down is left to process exit, except for the device-level
     * objects the layer tracks. */
    ca_teardown(pipe, layout, pool, dpool, dsl, NULL);
    (void)sbt;
    return 0;
}
