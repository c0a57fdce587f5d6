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

/* make_buffer: host-visible, coherent, mapped, with a device address. */
static buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    return ca_make_buffer(size, usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
}

#define PROC(name) PFN_##name p##name = (PFN_##name)vkGetDeviceProcAddr(dev, #name)

/* build_as builds one acceleration structure from one geometry, recording
 * the build into cb. */
static VkAccelerationStructureKHR build_as(VkCommandBuffer cb, VkAccelerationStructureTypeKHR type,
                                           const VkAccelerationStructureGeometryKHR *geom, uint32_t count,
                                           buffer *storage, buffer *scratch)
{
    PROC(vkGetAccelerationStructureBuildSizesKHR);
    PROC(vkCreateAccelerationStructureKHR);
    PROC(vkCmdBuildAccelerationStructuresKHR);
    VkAccelerationStructureBuildGeometryInfoKHR bi = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
        .type = type,
        .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
        .geometryCount = 1,
        .pGeometries = geom,
    };
    VkAccelerationStructureBuildSizesInfoKHR sizes = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
    pvkGetAccelerationStructureBuildSizesKHR(dev, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &bi, &count, &sizes);
    *storage = make_buffer(sizes.accelerationStructureSize, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR);
    *scratch = make_buffer(sizes.buildScratchSize + 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkAccelerationStructureCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR,
        .buffer = storage->buf,
        .size = sizes.accelerationStructureSize,
        .type = type,
    };
    VkAccelerationStructureKHR as;
    CHECK(pvkCreateAccelerationStructureKHR(dev, &ci, NULL, &as));
    bi.dstAccelerationStructure = as;
    bi.scratchData.deviceAddress = (scratch->addr + 255) & ~(VkDeviceAddress)255;
    VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = count};
    const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
    pvkCmdBuildAccelerationStructuresKHR(cb, 1, &bi, &ranges);
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_WRITE_BIT_KHR,
        .dstAccessMask = VK_ACCESS_ACCELERATION_STRUCTURE_READ_BIT_KHR,
    };
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR,
                         VK_PIPELINE_STAGE_ACCELERATION_STRUCTURE_BUILD_BIT_KHR | VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
                         0, 1, &mb, 0, NULL, 0, NULL);
    return as;
}

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

    ca_create_instance();
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
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};

    /* Acceleration structures: one triangle at z = 5, one instance. */
    buffer verts = make_buffer(9 * sizeof(float), VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
    float tri[9] = {-1, -1, 5, 1, -1, 5, 0, 1, 5};
    memcpy(verts.map, tri, sizeof tri);
    VkAccelerationStructureGeometryKHR bg = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
        .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR,
        .geometry.triangles = {
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
            .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT,
            .vertexData.deviceAddress = verts.addr,
            .vertexStride = 3 * sizeof(float),
            .maxVertex = 2,
            .indexType = VK_INDEX_TYPE_NONE_KHR,
        },
        .flags = VK_GEOMETRY_OPAQUE_BIT_KHR,
    };
    buffer blas_buf, blas_scratch, tlas_buf, tlas_scratch;
    CHECK(vkBeginCommandBuffer(cbs[0], &begin));
    VkAccelerationStructureKHR blas =
        build_as(cbs[0], VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &bg, 1, &blas_buf, &blas_scratch);
    PROC(vkGetAccelerationStructureDeviceAddressKHR);
    VkAccelerationStructureDeviceAddressInfoKHR dai = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR, .accelerationStructure = blas};
    buffer inst = make_buffer(sizeof(VkAccelerationStructureInstanceKHR),
                              VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
    VkAccelerationStructureInstanceKHR instance0 = {
        .transform.matrix = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}},
        .mask = 0xff,
        .flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR,
        .accelerationStructureReference = pvkGetAccelerationStructureDeviceAddressKHR(dev, &dai),
    };
    memcpy(inst.map, &instance0, sizeof instance0);
    VkAccelerationStructureGeometryKHR tg = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
        .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
        .geometry.instances = {
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
            .data.deviceAddress = inst.addr,
        },
    };
    VkAccelerationStructureKHR tlas =
        build_as(cbs[0], VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &tg, 1, &tlas_buf, &tlas_scratch);
    CHECK(vkEndCommandBuffer(cbs[0]));
    ca_submit_wait(cbs[0]);

    /* Descriptors: the TLAS and the output buffer. */
    buffer out = make_buffer(4 * sizeof(float), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
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
    VkDescriptorSet set = ca_descriptor_set(binds, 2, &dsl, &dpool);
    VkWriteDescriptorSetAccelerationStructureKHR was = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR,
        .accelerationStructureCount = 1, .pAccelerationStructures = &tlas};
    VkDescriptorBufferInfo dbi = {.buffer = out.buf, .range = VK_WHOLE_SIZE};
    VkWriteDescriptorSet writes[2] = {
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .pNext = &was, .dstSet = set, .dstBinding = 0,
         .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR},
        {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1, .descriptorCount = 1,
         .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi},
    };
    vkUpdateDescriptorSets(dev, 2, writes, 0, NULL);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, stage, 11 * sizeof(float));
    VkPipelineShaderStageCreateInfo ssci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = stage,
        .module = ca_module(dir, raygen ? "rq.rgen.spv" : "rq.comp.spv"), .pName = "main"};
    VkPipeline pipe;
    VkPipelineBindPoint bp = raygen ? VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR : VK_PIPELINE_BIND_POINT_COMPUTE;
    buffer sbt = {0};
    VkStridedDeviceAddressRegionKHR rgen_region = {0}, empty = {0};
    if (raygen) {
        PROC(vkCreateRayTracingPipelinesKHR);
        PROC(vkGetRayTracingShaderGroupHandlesKHR);
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
        CHECK(pvkCreateRayTracingPipelinesKHR(dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &rtci, NULL, &pipe));
        VkPhysicalDeviceRayTracingPipelinePropertiesKHR rtp = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &rtp};
        vkGetPhysicalDeviceProperties2(pd, &p2);
        uint32_t hs = rtp.shaderGroupHandleSize, base = rtp.shaderGroupBaseAlignment;
        sbt = make_buffer(2 * base, VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR);
        VkDeviceAddress at = (sbt.addr + base - 1) / base * base;
        uint8_t handle[256];
        CHECK(pvkGetRayTracingShaderGroupHandlesKHR(dev, pipe, 0, 1, hs, handle));
        memcpy((uint8_t *)sbt.map + (at - sbt.addr), handle, hs);
        rgen_region.deviceAddress = at;
        rgen_region.stride = (hs + base - 1) / base * base;
        rgen_region.size = rgen_region.stride;
    } else {
        VkComputePipelineCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, .stage = ssci,
                                            .layout = layout};
        CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
    }
    ca_name_cmd_pipeline(cbs[1], "rq-cmd", pipe, "rq-pipeline");

    float pc[11] = {ray[0], ray[1], ray[2], 0, ray[3], ray[4], ray[5], 0, ray[6], ray[7]};
    memcpy(&pc[10], &flags, sizeof flags);
    CHECK(vkBeginCommandBuffer(cbs[1], &begin));
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
    vkDeviceWaitIdle(dev);
    vkDestroyPipeline(dev, pipe, NULL);
    ca_destroy_modules();
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorPool(dev, dpool, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    vkDestroyCommandPool(dev, pool, NULL);
    (void)sbt;
    return 0;
}
