/*
 * rqapp: the ray_query check's test app (C: never a second Go runtime in
 * the app). It builds a bottom-level acceleration structure holding one
 * triangle in the plane z = 5 around the z axis and a top-level one with one
 * instance of it, then casts the same ray from 4 invocations with ray
 * queries, in a compute shader (rq.comp, one workgroup of 4) or a
 * ray-generation shader (rq.rgen, vkCmdTraceRaysKHR 4x1x1).
 *
 *   rqapp --shaders DIR [--stage compute|raygen]
 *         [--ray OX OY OZ DX DY DZ TMIN TMAX] [--flags N]
 *
 * The ray's values are read with strtof, so "inf", "-inf" and "nan" work;
 * the default (0 0 0  0 0 1  0 10) hits the triangle. --flags sets the
 * Rayflags operand (strtoul, base 0: "0x300" works; default 1,
 * gl_RayFlagsOpaqueEXT); the shaders read it from the push constants. It prints
 * "hit=a b c d" (1 where the query committed a triangle, 0 where it found
 * nothing). Every VkResult is checked; a failure prints
 * "rqapp: <call> failed: <n>" and exits 1. Names: the command buffer is
 * "rq-cmd", the pipeline "rq-pipeline".
 */
#define APP "rqapp"
#include "checkapp.h"

int main(int argc, char **argv)
{
    const char *dir = ".";
    int raygen = 0;
    float ray[8] = {0, 0, 0, 0, 0, 1, 0, 10};
    uint32_t flags = 1; /* gl_RayFlagsOpaqueEXT */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shaders") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "raygen"))
                raygen = 1;
            else if (strcmp(argv[i], "compute")) {
                fprintf(stderr, "rqapp: unknown stage %s\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--ray") && i + 8 < argc) {
            for (int k = 0; k < 8; k++)
                ray[k] = strtof(argv[++i], NULL);
        } else if (!strcmp(argv[i], "--flags") && i + 1 < argc) {
            flags = (uint32_t)strtoul(argv[++i], NULL, 0);
        } else {
            fprintf(stderr, "rqapp: unknown argument %s\n", argv[i]);
            return 2;
        }
    }

    capp_create_instance(&ca, NULL);
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR rtf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR,
        .rayTracingPipeline = VK_TRUE,
    };
    VkPhysicalDeviceRayQueryFeaturesKHR rqf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR,
        .pNext = raygen ? &rtf : NULL,
        .rayQuery = VK_TRUE,
    };
    VkPhysicalDeviceAccelerationStructureFeaturesKHR asf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
        .pNext = &rqf,
        .accelerationStructure = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &asf,
        .bufferDeviceAddress = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    const char *exts[] = {VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                          VK_KHR_RAY_QUERY_EXTENSION_NAME, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME};
    ca_create_device(VK_QUEUE_COMPUTE_BIT, &f2, exts, raygen ? 4 : 3);

    VkCommandBuffer cbs[2];
    VkCommandPool pool = ca_command_buffers(0, 2, cbs);

    /* Acceleration structures: one triangle at z = 5, one instance. */
    ca_scene sc = ca_make_scene(cbs[0], 0, 1, 0xff);

    /* Descriptors: the TLAS and the output buffer. */
    capp_buffer out = ca_rt_buffer(4 * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (int i = 0; i < 4; i++)
        ((float *)out.map)[i] = -1;
    VkShaderStageFlags stage = raygen ? VK_SHADER_STAGE_RAYGEN_BIT_KHR : VK_SHADER_STAGE_COMPUTE_BIT;
    VkDescriptorSetLayoutBinding binds[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, .descriptorCount = 1,
         .stageFlags = stage},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1, .stageFlags = stage},
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

    VkPipelineLayout layout = ca_pipeline_layout(dsl, stage, 11 * sizeof(float));
    VkPipelineShaderStageCreateInfo ssci =
        capp_stage((VkShaderStageFlagBits)stage, ca_module(dir, raygen ? "rq.rgen.spv" : "rq.comp.spv"), NULL);
    VkPipeline pipe;
    VkPipelineBindPoint bp = raygen ? VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR : VK_PIPELINE_BIND_POINT_COMPUTE;
    capp_buffer sbt = {0};
    VkStridedDeviceAddressRegionKHR rgen_region = {0}, empty = {0};
    if (raygen) {
        PROC(vkCreateRayTracingPipelinesKHR);
        VkRayTracingShaderGroupCreateInfoKHR group = {
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
            .type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR,
            .generalShader = 0,
            .closestHitShader = VK_SHADER_UNUSED_KHR,
            .anyHitShader = VK_SHADER_UNUSED_KHR,
            .intersectionShader = VK_SHADER_UNUSED_KHR,
        };
        VkRayTracingPipelineCreateInfoKHR rtci = {
            .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
            .stageCount = 1, .pStages = &ssci, .groupCount = 1, .pGroups = &group,
            .maxPipelineRayRecursionDepth = 1, .layout = layout,
        };
        CHECK(pvkCreateRayTracingPipelinesKHR(ca.dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &rtci, NULL, &pipe));
        sbt = ca_shader_table(pipe, 1, (VkStridedDeviceAddressRegionKHR *[]){&rgen_region});
    } else {
        pipe = capp_compute_pipeline(&ca, layout, ssci.module, 0, NULL);
    }
    ca_name_cmd_pipeline(cbs[1], "rq-cmd", pipe, "rq-pipeline");

    float pc[11] = {ray[0], ray[1], ray[2], 0, ray[3], ray[4], ray[5], 0, ray[6], ray[7]};
    memcpy(&pc[10], &flags, sizeof flags);
    capp_begin(cbs[1], 0);
    vkCmdBindPipeline(cbs[1], bp, pipe);
    vkCmdBindDescriptorSets(cbs[1], bp, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cbs[1], layout, stage, 0, sizeof pc, pc);
    if (raygen) {
        PROC(vkCmdTraceRaysKHR);
        pvkCmdTraceRaysKHR(cbs[1], &rgen_region, &empty, &empty, &empty, 4, 1, 1);
    } else {
        vkCmdDispatch(cbs[1], 1, 1, 1);
    }
    CHECK(vkEndCommandBuffer(cbs[1]));
    ca_submit_wait(cbs[1]);
    const float *hit = out.map;
    printf("hit=%g %g %g %g\n", hit[0], hit[1], hit[2], hit[3]);
    fflush(stdout);
    /* Tear-down is left to process exit, except for the device-level
     * objects the layer tracks. */
    ca_teardown(pipe, layout, pool, dpool, dsl, NULL);
    (void)sbt;
    return 0;
}
