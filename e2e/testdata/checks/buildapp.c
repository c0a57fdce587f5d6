/*
 * buildapp: the test app of acceleration_structure_build and
 * depth_copy_range (C: never a second Go runtime in the app). Each case
 * records its command into the command buffer "build-cmd" inside the label
 * "frame" > "upload" and submits it once (the scene's BLAS is built before,
 * in another command buffer):
 *
 *   buildapp --case NAME
 *
 *   clean      a TLAS of two instances of a live triangle BLAS
 *   bogus      the same, instance 1's reference 0x1234
 *   unknown    instance 1's reference 0x100000 (aligned, no such structure)
 *   destroyed  instance 1 references a BLAS destroyed before the recording
 *   self       instance 1 references the TLAS being built
 *   inst-nan   instance 1's transform matrix[1][2] is NaN
 *   aabb       a BLAS of 3 AABBs, AABB 2 has minY 3 > maxY 1
 *   transform  a triangle BLAS whose transformData holds NaN at matrix[0][3]
 *   index      a triangle BLAS whose indices 0 1 7 (maxVertex 2): index 7
 *   depth      a 4x4 VK_FORMAT_D32_SFLOAT image from a buffer holding 0.5
 *              everywhere but 1.5 at texel (2, 1) (region 1 of 2: rows 1-3)
 *   depth2     the same with vkCmdCopyBufferToImage2
 *   depth-clean  0.25 everywhere
 *
 * It prints "instances-unchanged=1" for the TLAS cases when the app's
 * instance buffer holds after the build what the app wrote, "built=1" for
 * the BLAS cases, "depth=a b c d" (texel (2, 1) and three others, read back
 * through a copy to a buffer) and "source-unchanged=1" for the depth
 * cases. Every VkResult is checked.
 */
#define APP "buildapp"
#include "checkapp.h"

static VkCommandBuffer cbs[2];

/* the triangle BLAS of the scene, built in cbs[0] */
static ca_scene sc;

static void begin_labels(VkCommandBuffer cb)
{
    PROC(vkCmdBeginDebugUtilsLabelEXT);
    VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "frame"};
    if (pvkCmdBeginDebugUtilsLabelEXT) {
        pvkCmdBeginDebugUtilsLabelEXT(cb, &l);
        l.pLabelName = "upload";
        pvkCmdBeginDebugUtilsLabelEXT(cb, &l);
    }
}

static void end_labels(VkCommandBuffer cb)
{
    PROC(vkCmdEndDebugUtilsLabelEXT);
    if (pvkCmdEndDebugUtilsLabelEXT) {
        pvkCmdEndDebugUtilsLabelEXT(cb);
        pvkCmdEndDebugUtilsLabelEXT(cb);
    }
}

static void name_cmd(VkCommandBuffer cb)
{
    PROC(vkSetDebugUtilsObjectNameEXT);
    VkDebugUtilsObjectNameInfoEXT ni = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                        .objectType = VK_OBJECT_TYPE_COMMAND_BUFFER,
                                        .objectHandle = (uint64_t)(uintptr_t)cb, .pObjectName = "build-cmd"};
    if (pvkSetDebugUtilsObjectNameEXT)
        CHECK(pvkSetDebugUtilsObjectNameEXT(ca.dev, &ni));
}

static uint64_t as_address(VkAccelerationStructureKHR as)
{
    PROC(vkGetAccelerationStructureDeviceAddressKHR);
    VkAccelerationStructureDeviceAddressInfoKHR dai = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR, .accelerationStructure = as};
    return pvkGetAccelerationStructureDeviceAddressKHR(ca.dev, &dai);
}

/* tlas_case builds, in cbs[1], a TLAS of two instances of the scene's BLAS,
 * instance 1 spoiled as kase says. */
static void tlas_case(const char *kase)
{
    PROC(vkGetAccelerationStructureBuildSizesKHR);
    PROC(vkCreateAccelerationStructureKHR);
    PROC(vkDestroyAccelerationStructureKHR);
    PROC(vkCmdBuildAccelerationStructuresKHR);
    VkAccelerationStructureInstanceKHR inst[2] = {{
        .transform.matrix = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}},
        .mask = 0xff,
        .flags = VK_GEOMETRY_INSTANCE_TRIANGLE_FACING_CULL_DISABLE_BIT_KHR,
        .accelerationStructureReference = as_address(sc.blas),
    }};
    inst[1] = inst[0];
    inst[1].transform.matrix[0][3] = 10; /* out of the way of the ray */
    capp_buffer ib = ca_rt_buffer(sizeof inst, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
    VkAccelerationStructureGeometryKHR tg = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
        .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
        .geometry.instances = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR,
                               .data.deviceAddress = ib.addr},
    };
    VkAccelerationStructureBuildGeometryInfoKHR bi = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
        .type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
        .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR, .geometryCount = 1, .pGeometries = &tg,
    };
    uint32_t count = 2;
    VkAccelerationStructureBuildSizesInfoKHR sizes = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
    pvkGetAccelerationStructureBuildSizesKHR(ca.dev, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &bi, &count, &sizes);
    capp_buffer storage = ca_rt_buffer(sizes.accelerationStructureSize, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR);
    capp_buffer scratch = ca_rt_buffer(sizes.buildScratchSize + 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkAccelerationStructureCreateInfoKHR ci = {
        .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR, .buffer = storage.buf,
        .size = sizes.accelerationStructureSize, .type = VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR,
    };
    VkAccelerationStructureKHR tlas;
    CHECK(pvkCreateAccelerationStructureKHR(ca.dev, &ci, NULL, &tlas));
    if (!strcmp(kase, "bogus"))
        inst[1].accelerationStructureReference = 0x1234;
    else if (!strcmp(kase, "unknown"))
        inst[1].accelerationStructureReference = 0x100000;
    else if (!strcmp(kase, "self"))
        inst[1].accelerationStructureReference = as_address(tlas);
    else if (!strcmp(kase, "inst-nan"))
        inst[1].transform.matrix[1][2] = __builtin_nanf("");
    else if (!strcmp(kase, "destroyed")) {
        /* a second BLAS of the same triangle, destroyed once its address
         * is known */
        VkAccelerationStructureGeometryKHR bg = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR,
                                                 .geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR};
        bg.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
            .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT, .vertexData.deviceAddress = sc.geo.addr,
            .vertexStride = 3 * sizeof(float), .maxVertex = 2, .indexType = VK_INDEX_TYPE_NONE_KHR};
        VkAccelerationStructureBuildGeometryInfoKHR bbi = {
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR,
            .type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
            .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR, .geometryCount = 1, .pGeometries = &bg,
        };
        uint32_t one = 1;
        VkAccelerationStructureBuildSizesInfoKHR bs = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR};
        pvkGetAccelerationStructureBuildSizesKHR(ca.dev, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &bbi, &one, &bs);
        capp_buffer bst = ca_rt_buffer(bs.accelerationStructureSize, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR);
        VkAccelerationStructureCreateInfoKHR bci = {
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR, .buffer = bst.buf,
            .size = bs.accelerationStructureSize, .type = VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR,
        };
        VkAccelerationStructureKHR gone;
        CHECK(pvkCreateAccelerationStructureKHR(ca.dev, &bci, NULL, &gone));
        inst[1].accelerationStructureReference = as_address(gone);
        pvkDestroyAccelerationStructureKHR(ca.dev, gone, NULL);
    }
    memcpy(ib.map, inst, sizeof inst);
    bi.dstAccelerationStructure = tlas;
    bi.scratchData.deviceAddress = (scratch.addr + 255) & ~(VkDeviceAddress)255;
    VkAccelerationStructureBuildRangeInfoKHR range = {.primitiveCount = count};
    const VkAccelerationStructureBuildRangeInfoKHR *ranges = &range;
    name_cmd(cbs[1]);
    capp_begin(cbs[1], 0);
    begin_labels(cbs[1]);
    pvkCmdBuildAccelerationStructuresKHR(cbs[1], 1, &bi, &ranges);
    end_labels(cbs[1]);
    CHECK(vkEndCommandBuffer(cbs[1]));
    ca_submit_wait(cbs[1]);
    /* The app's buffer is as it wrote it. */
    VkAccelerationStructureInstanceKHR after[2];
    memcpy(after, ib.map, sizeof after);
    printf("instances-unchanged=%d\n", !memcmp(after, inst, sizeof inst));
    pvkDestroyAccelerationStructureKHR(ca.dev, tlas, NULL);
}

/* blas_case builds, in cbs[1], a BLAS spoiled as kase says. */
static void blas_case(const char *kase)
{
    VkAccelerationStructureGeometryKHR bg = {.sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR};
    uint32_t count = 1;
    capp_buffer data = {0}, extra = {0};
    if (!strcmp(kase, "aabb")) {
        VkAabbPositionsKHR aabbs[3] = {{-1, -1, 4, 1, 1, 6}, {2, 2, 4, 3, 3, 6}, {-1, 3, 4, 1, 1, 6}};
        data = ca_rt_buffer(sizeof aabbs, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
        memcpy(data.map, aabbs, sizeof aabbs);
        bg.geometryType = VK_GEOMETRY_TYPE_AABBS_KHR;
        bg.geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
            .data.deviceAddress = data.addr, .stride = sizeof aabbs[0]};
        count = 3;
    } else {
        bg.geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR;
        bg.geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){
            .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
            .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT, .vertexData.deviceAddress = sc.geo.addr,
            .vertexStride = 3 * sizeof(float), .maxVertex = 2, .indexType = VK_INDEX_TYPE_NONE_KHR};
        if (!strcmp(kase, "transform")) {
            VkTransformMatrixKHR m = {.matrix = {{1, 0, 0, __builtin_nanf("")}, {0, 1, 0, 0}, {0, 0, 1, 0}}};
            data = ca_rt_buffer(sizeof m, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
            memcpy(data.map, &m, sizeof m);
            bg.geometry.triangles.transformData.deviceAddress = data.addr;
        } else { /* index */
            uint16_t idx[4] = {0, 1, 7, 0};
            extra = ca_rt_buffer(sizeof idx, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR);
            memcpy(extra.map, idx, sizeof idx);
            bg.geometry.triangles.indexType = VK_INDEX_TYPE_UINT16;
            bg.geometry.triangles.indexData.deviceAddress = extra.addr;
        }
    }
    name_cmd(cbs[1]);
    capp_begin(cbs[1], 0);
    begin_labels(cbs[1]);
    capp_buffer st, scr;
    ca_build_as(cbs[1], VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, &bg, count, &st, &scr);
    end_labels(cbs[1]);
    CHECK(vkEndCommandBuffer(cbs[1]));
    ca_submit_wait(cbs[1]);
    printf("built=1\n");
}

/* depth_case copies a 4x4 D32_SFLOAT image from a buffer in two regions
 * (rows 0 and 1-3) and reads four texels back. */
static void depth_case(const char *kase)
{
    capp_buffer src = capp_buffer_create(&ca, 16 * sizeof(float), VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    float *v = src.map;
    for (int i = 0; i < 16; i++)
        v[i] = !strcmp(kase, "depth-clean") ? 0.25f : 0.5f;
    if (strcmp(kase, "depth-clean"))
        v[1 * 4 + 2] = 1.5f;
    capp_buffer back = capp_buffer_create(&ca, 16 * sizeof(float), VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkImageCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D, .format = VK_FORMAT_D32_SFLOAT,
        .extent = {4, 4, 1}, .mipLevels = 1, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    VkImage img;
    CHECK(vkCreateImage(ca.dev, &ici, NULL, &img));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(ca.dev, img, &req);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                .memoryTypeIndex = capp_memory_type(&ca, req.memoryTypeBits, 0)};
    VkDeviceMemory mem;
    CHECK(vkAllocateMemory(ca.dev, &mai, NULL, &mem));
    CHECK(vkBindImageMemory(ca.dev, img, mem, 0));
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
    name_cmd(cbs[1]);
    capp_begin(cbs[1], 0);
    begin_labels(cbs[1]);
    VkImageMemoryBarrier b = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                              .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                              .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                              .image = img, .subresourceRange = range};
    vkCmdPipelineBarrier(cbs[1], VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL,
                         1, &b);
    VkBufferImageCopy regions[2] = {
        {.bufferOffset = 0, .imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, .imageExtent = {4, 1, 1}},
        {.bufferOffset = 16, .imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, .imageOffset = {0, 1, 0},
         .imageExtent = {4, 3, 1}},
    };
    if (!strcmp(kase, "depth2")) {
        PROC(vkCmdCopyBufferToImage2);
        VkBufferImageCopy2 r2[2];
        for (int i = 0; i < 2; i++)
            r2[i] = (VkBufferImageCopy2){.sType = VK_STRUCTURE_TYPE_BUFFER_IMAGE_COPY_2,
                                         .bufferOffset = regions[i].bufferOffset,
                                         .imageSubresource = regions[i].imageSubresource,
                                         .imageOffset = regions[i].imageOffset, .imageExtent = regions[i].imageExtent};
        VkCopyBufferToImageInfo2 info = {.sType = VK_STRUCTURE_TYPE_COPY_BUFFER_TO_IMAGE_INFO_2, .srcBuffer = src.buf,
                                         .dstImage = img, .dstImageLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                                         .regionCount = 2, .pRegions = r2};
        pvkCmdCopyBufferToImage2(cbs[1], &info);
    } else {
        vkCmdCopyBufferToImage(cbs[1], src.buf, img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 2, regions);
    }
    b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
    b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
    vkCmdPipelineBarrier(cbs[1], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1,
                         &b);
    VkBufferImageCopy all = {.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1}, .imageExtent = {4, 4, 1}};
    vkCmdCopyImageToBuffer(cbs[1], img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, back.buf, 1, &all);
    VkMemoryBarrier hb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cbs[1], VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &hb, 0, NULL, 0, NULL);
    end_labels(cbs[1]);
    CHECK(vkEndCommandBuffer(cbs[1]));
    ca_submit_wait(cbs[1]);
    const float *r = back.map;
    printf("depth=%g %g %g %g\n", r[1 * 4 + 2], r[0], r[5], r[15]);
    printf("source-unchanged=%d\n", v[1 * 4 + 2] == (strcmp(kase, "depth-clean") ? 1.5f : 0.25f));
    vkDeviceWaitIdle(ca.dev);
    vkDestroyImage(ca.dev, img, NULL);
    vkFreeMemory(ca.dev, mem, NULL);
}

int main(int argc, char **argv)
{
    const char *dir = ".", *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    capp_create_instance(&ca, NULL);
    /* rayQuery: vkGetAccelerationStructureBuildSizesKHR needs it (or
     * rayTracingPipeline). */
    VkPhysicalDeviceRayQueryFeaturesKHR rqf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR,
        .rayQuery = VK_TRUE,
    };
    VkPhysicalDeviceAccelerationStructureFeaturesKHR asf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR,
        .pNext = &rqf,
        .accelerationStructure = VK_TRUE,
    };
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &asf,
                                            .synchronization2 = VK_TRUE};
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &f13,
        .bufferDeviceAddress = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    const char *exts[] = {VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                          VK_KHR_RAY_QUERY_EXTENSION_NAME};
    ca_create_device(VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT, &f2, exts, 3);
    VkCommandPool pool = ca_command_buffers(0, 2, cbs);
    if (!strncmp(kase, "depth", 5)) {
        depth_case(kase);
    } else {
        sc = ca_make_scene(cbs[0], 0, 1, 0xff);
        if (!strcmp(kase, "aabb") || !strcmp(kase, "transform") || !strcmp(kase, "index"))
            blas_case(kase);
        else
            tlas_case(kase);
    }
    fflush(stdout);
    ca_teardown(VK_NULL_HANDLE, VK_NULL_HANDLE, pool, VK_NULL_HANDLE, VK_NULL_HANDLE, NULL);
    return 0;
}
