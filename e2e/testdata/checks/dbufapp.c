/*
 * dbufapp: descriptors in a descriptor buffer (VK_EXT_descriptor_buffer).
 * A compute pipeline made with VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT
 * runs dbuf.comp once: result.v[0] = data[pc.index].v[0] + 1, data[4] an
 * array of storage buffers (data[i].v[0] = 100 + i). The set layout
 * (binding 0 the result, binding 1 data[4]) is a descriptor-buffer layout;
 * its descriptors are written with vkGetDescriptorEXT into a host-visible
 * descriptor buffer, bound with vkCmdBindDescriptorBuffersEXT and
 * vkCmdSetDescriptorBufferOffsetsEXT.
 *
 *   dbufapp --shaders DIR [--case CASE] [--frames N] [--loops N] [--groups N]
 *
 *   clean        index 1: prints value=102
 *   oob          index 5 (of 4): the layer skips the load, value=1
 *   two_actions  two dispatches, index 1 then 6: the second is bad
 *   indirect     index 1 through vkCmdDispatchIndirect {1, 1, 1}: value=102
 *   destroyed    index 2, data[2]'s buffer destroyed (its memory kept) after
 *                its descriptor was written: the layer skips the load, value=1
 *   garbage      index 1, but data[3]'s descriptor holds bytes no
 *                vkGetDescriptorEXT returned (0xAB): value=102
 *
 * The ubo cases run dbuf_ubo.comp (--groups workgroups of 64, default 1):
 * set 0 binding 0 the result, set 1 binding 0 a storage buffer Other
 * (w = 1000) and binding 1 a uniform buffer Params of 8 uvec4
 * (v[i] = (10 + i, 1, 0, 0)) bound with a range of 64 bytes (4 of them),
 * the two sets at offsets 0 and 256*k of one descriptor buffer; result.v[0]
 * = params.v[pc.index].x + other.w, plus `loops` in-range reads of
 * params.v[i & 3].y:
 *
 *   ubo_clean    index 1: value=1011
 *   ubo_oob      index 4, 64 bytes past the 64-byte range: the layer skips
 *                the load, value=1000
 *   ubo_two_sets index 2 in two dispatches: set 1 at 256*k, then at a second
 *                copy of set 1 whose Params descriptor has a range of 32:
 *                the second read (offset 32) is past it, value=1000
 *   ubo_rewrite  index 1, but after recording and before the submit the app
 *                writes Params' descriptor again with a range of 16 (the
 *                read at 16 is then past it): value=1011 or 1000 (the
 *                driver's own bounds check)
 *   ubo_staged   index 4, the descriptor buffer written by vkCmdUpdateBuffer
 *                (its memory non-host-visible where the device has such a
 *                type, and never mapped; it prints staged_memory=device-only
 *                or host-visible): the layer cannot read it, and the load
 *                runs (value=1014, or 1000 where the driver's own bounds
 *                check reads 0, as lavapipe's does)
 *
 * The texel cases run dbuf_texel.comp: set 1 binding 0 a uniform texel
 * buffer (R32_SFLOAT, texels 10, 11, ... of a 64-byte buffer) bound with a
 * range of 16 bytes (4 texels); result.v[0] = texelFetch(utb, index) + 1000:
 *
 *   texel_clean  index 1: value=1011
 *   texel_oob    index 4 (of 4 texels): the layer skips the fetch, value=1000
 *
 * With --stage vertex the ubo cases (but ubo_two_sets) read in a vertex
 * shader instead (dbuf_ubo.vert, one point drawn with vkCmdDraw into a 1x1
 * target: action 0 is the draw).
 *
 * With --frames N (ubo_clean) the command buffer is recorded, submitted and
 * waited for N times after a first warm-up frame, and it prints
 * "frame_ns=T", the mean time of one frame.
 *
 * It prints "unsupported" and exits 0 where the device has no
 * descriptorBuffer; "value=N" after the submit. Names: the command buffer
 * is "dbuf-cmd", the pipeline "dbuf-pipeline".
 */
#define _POSIX_C_SOURCE 200809L
#define APP "dbufapp"
#include <time.h>

#include "checkapp.h"

#define NDATA 4

static uint32_t frames, loops, groups = 1;

static int ubo_case(const char *dir, const char *kase, int stage);
static int texel_case(const char *dir, const char *kase);

/* bench_args takes --frames, --loops and --groups out of argv. */
static int bench_args(int *argc, char **argv)
{
    int n = 1;
    for (int i = 1; i < *argc; i++) {
        uint32_t *v = !strcmp(argv[i], "--frames") ? &frames
                      : !strcmp(argv[i], "--loops") ? &loops
                      : !strcmp(argv[i], "--groups") ? &groups
                                                      : NULL;
        if (v && i + 1 < *argc)
            *v = (uint32_t)strtoul(argv[++i], NULL, 10);
        else
            argv[n++] = argv[i];
    }
    *argc = n;
    return groups == 0;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (bench_args(&argc, argv) || ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    uint32_t indices[2] = {1, UINT32_MAX};
    int ubo = !strncmp(kase, "ubo_", 4), texel = !strncmp(kase, "texel_", 6);
    if (!strcmp(kase, "oob"))
        indices[0] = 5;
    else if (!strcmp(kase, "destroyed"))
        indices[0] = 2;
    else if (!strcmp(kase, "two_actions"))
        indices[1] = 6;
    else if (strcmp(kase, "clean") && strcmp(kase, "indirect") && strcmp(kase, "garbage") && strcmp(kase, "destroyed") &&
             strcmp(kase, "ubo_clean") && strcmp(kase, "ubo_oob") && strcmp(kase, "ubo_staged") &&
             strcmp(kase, "ubo_two_sets") && strcmp(kase, "ubo_rewrite") && strcmp(kase, "texel_clean") &&
             strcmp(kase, "texel_oob")) {
        fprintf(stderr, APP ": unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    if (!capp_has_device_extension(&ca, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME)) {
        printf("unsupported\n");
        return 0;
    }
    VkPhysicalDeviceDescriptorBufferFeaturesEXT fdb = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &fdb};
    vkGetPhysicalDeviceFeatures2(ca.pd, &q);
    if (!fdb.descriptorBuffer) {
        printf("unsupported\n");
        return 0;
    }
    fdb = (VkPhysicalDeviceDescriptorBufferFeaturesEXT){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT, .descriptorBuffer = VK_TRUE};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &fdb, .bufferDeviceAddress = VK_TRUE};
    const char *exts[] = {VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME};
    ca_create_stage_device(VK_FALSE, &f12, exts, 1);
    if (ubo)
        return ubo_case(dir, kase, stage);
    if (texel)
        return texel_case(dir, kase);
    PROC(vkGetDescriptorSetLayoutSizeEXT);
    PROC(vkGetDescriptorSetLayoutBindingOffsetEXT);
    PROC(vkGetDescriptorEXT);
    PROC(vkCmdBindDescriptorBuffersEXT);
    PROC(vkCmdSetDescriptorBufferOffsetsEXT);
    VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &dbp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);

    VkBufferUsageFlags su = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    capp_buffer result = capp_buffer_create(&ca, 16, su);
    capp_buffer data[NDATA];
    for (uint32_t i = 0; i < NDATA; i++) {
        data[i] = capp_buffer_create(&ca, 16, su);
        ((uint32_t *)data[i].map)[0] = 100 + i;
    }

    VkDescriptorSetLayoutBinding lb[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = NDATA,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
    };
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
                                             .bindingCount = 2, .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl));
    VkDeviceSize size, off0, off1;
    pvkGetDescriptorSetLayoutSizeEXT(ca.dev, dsl, &size);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl, 0, &off0);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl, 1, &off1);

    /* The descriptor buffer: one set's descriptors at offset 0. */
    VkDeviceSize align = dbp.descriptorBufferOffsetAlignment ? dbp.descriptorBufferOffsetAlignment : 1;
    capp_buffer db = capp_buffer_create(&ca, (size + align - 1) / align * align,
                                        VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
                                            VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    size_t dsize = dbp.storageBufferDescriptorSize;
    VkDescriptorAddressInfoEXT ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                                     .address = result.addr, .range = 16};
    VkDescriptorGetInfoEXT gi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
                                 .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .data.pStorageBuffer = &ai};
    pvkGetDescriptorEXT(ca.dev, &gi, dsize, (char *)db.map + off0);
    for (uint32_t i = 0; i < NDATA; i++) {
        ai.address = data[i].addr;
        pvkGetDescriptorEXT(ca.dev, &gi, dsize, (char *)db.map + off1 + i * dsize);
    }
    if (!strcmp(kase, "garbage"))
        memset((char *)db.map + off1 + (NDATA - 1) * dsize, 0xAB, dsize);
    if (!strcmp(kase, "destroyed")) {
        vkDestroyBuffer(ca.dev, data[2].buf, NULL);
        data[2].buf = VK_NULL_HANDLE; /* capp_buffer_destroy frees only its memory */
    }

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_COMPUTE_BIT, 4);
    VkPipeline pipe = capp_compute_pipeline(&ca, layout, ca_module(dir, "dbuf.comp.spv"),
                                            VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, NULL);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "dbuf-cmd", pipe, "dbuf-pipeline");

    capp_buffer indirect = {0};
    if (!strcmp(kase, "indirect")) {
        indirect = capp_buffer_create(&ca, 12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
        memcpy(indirect.map, (uint32_t[3]){1, 1, 1}, 12);
    }
    capp_begin(cmd, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    VkDescriptorBufferBindingInfoEXT bi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
                                           .address = db.addr,
                                           .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT};
    pvkCmdBindDescriptorBuffersEXT(cmd, 1, &bi);
    uint32_t buffer_index = 0;
    VkDeviceSize offset = 0;
    pvkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &buffer_index, &offset);
    for (int a = 0; a < 2 && indices[a] != UINT32_MAX; a++) {
        if (a > 0) {
            /* Both dispatches write the same value: the second after the
             * first (the H100 ran them out of order without this). */
            VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &mb, 0, NULL, 0, NULL);
        }
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &indices[a]);
        if (indirect.buf)
            vkCmdDispatchIndirect(cmd, indirect.buf, 0);
        else
            vkCmdDispatch(cmd, 1, 1, 1);
    }
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    fflush(stdout);

    ca_teardown(pipe, layout, pool, VK_NULL_HANDLE, dsl, NULL);
    capp_buffer_destroy(&ca, &db);
    if (indirect.buf)
        capp_buffer_destroy(&ca, &indirect);
    for (uint32_t i = 0; i < NDATA; i++)
        capp_buffer_destroy(&ca, &data[i]);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}

/* ---- the uniform-buffer cases ------------------------------------------------------ */

/* staged_buffer makes a descriptor buffer of size bytes that the app never
 * maps: its memory of a type without HOST_VISIBLE where the device has one
 * (it is then written by the GPU only). */
static capp_buffer staged_buffer(VkDeviceSize size)
{
    capp_buffer b = {.size = size};
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                              .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
                                       VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT};
    CHECK(vkCreateBuffer(ca.dev, &bci, NULL, &b.buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(ca.dev, b.buf, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(ca.pd, &mp);
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && !(mp.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT))
            type = i;
    printf("staged_memory=%s\n", type == UINT32_MAX ? "host-visible" : "device-only");
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if (req.memoryTypeBits & (1u << i))
            type = i;
    VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                       .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &flags,
                                .allocationSize = req.size, .memoryTypeIndex = type};
    CHECK(vkAllocateMemory(ca.dev, &mai, NULL, &b.mem));
    CHECK(vkBindBufferMemory(ca.dev, b.buf, b.mem, 0));
    VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b.buf};
    b.addr = vkGetBufferDeviceAddress(ca.dev, &ai);
    return b;
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int ubo_case(const char *dir, const char *kase, int stage)
{
    int gfx = stage == CA_VERTEX;
    VkPipelineBindPoint bp = gfx ? VK_PIPELINE_BIND_POINT_GRAPHICS : VK_PIPELINE_BIND_POINT_COMPUTE;
    VkShaderStageFlags stages = gfx ? VK_SHADER_STAGE_VERTEX_BIT : VK_SHADER_STAGE_COMPUTE_BIT;
    int staged = !strcmp(kase, "ubo_staged");
    int two = !strcmp(kase, "ubo_two_sets");
    int rewrite = !strcmp(kase, "ubo_rewrite");
    uint32_t index = two ? 2 : strcmp(kase, "ubo_clean") && !rewrite ? 4 : 1;
    PROC(vkGetDescriptorSetLayoutSizeEXT);
    PROC(vkGetDescriptorSetLayoutBindingOffsetEXT);
    PROC(vkGetDescriptorEXT);
    PROC(vkCmdBindDescriptorBuffersEXT);
    PROC(vkCmdSetDescriptorBufferOffsetsEXT);
    VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &dbp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);

    VkBufferUsageFlags sda = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    capp_buffer result = capp_buffer_create(&ca, (VkDeviceSize)groups * 64 * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | sda);
    capp_buffer other = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | sda);
    capp_buffer params = capp_buffer_create(&ca, 128, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | sda);
    ((uint32_t *)other.map)[0] = 1000;
    for (uint32_t i = 0; i < 8; i++) {
        ((uint32_t *)params.map)[4 * i] = 10 + i;
        ((uint32_t *)params.map)[4 * i + 1] = 1;
    }

    VkDescriptorSetLayoutBinding b0 = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .descriptorCount = 1, .stageFlags = stages};
    VkDescriptorSetLayoutBinding b1[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = stages},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .descriptorCount = 1,
         .stageFlags = stages},
    };
    VkDescriptorSetLayout dsl[2];
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
                                             .bindingCount = 1, .pBindings = &b0};
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl[0]));
    dslci.bindingCount = 2;
    dslci.pBindings = b1;
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl[1]));
    VkDeviceSize size0, size1, off0, off10, off11;
    pvkGetDescriptorSetLayoutSizeEXT(ca.dev, dsl[0], &size0);
    pvkGetDescriptorSetLayoutSizeEXT(ca.dev, dsl[1], &size1);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl[0], 0, &off0);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl[1], 0, &off10);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl[1], 1, &off11);

    /* Set 0 at 0, set 1 at the next multiple of 256 (and of the alignment). */
    VkDeviceSize align = dbp.descriptorBufferOffsetAlignment ? dbp.descriptorBufferOffsetAlignment : 1;
    VkDeviceSize step = align > 256 ? align : 256;
    VkDeviceSize set1 = (size0 + step - 1) / step * step;
    VkDeviceSize set1b = set1 + (size1 + step - 1) / step * step; /* ubo_two_sets' second set 1 */
    VkDeviceSize dbsize = ((two ? set1b : set1) + size1 + 3) / 4 * 4;
    unsigned char *bytes = calloc(1, (size_t)dbsize);
    VkDescriptorAddressInfoEXT ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                                     .address = result.addr, .range = result.size};
    VkDescriptorGetInfoEXT gi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
                                 .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .data.pStorageBuffer = &ai};
    pvkGetDescriptorEXT(ca.dev, &gi, dbp.storageBufferDescriptorSize, bytes + off0);
    ai = (VkDescriptorAddressInfoEXT){.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                                      .address = other.addr, .range = 16};
    pvkGetDescriptorEXT(ca.dev, &gi, dbp.storageBufferDescriptorSize, bytes + set1 + off10);
    ai = (VkDescriptorAddressInfoEXT){.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                                      .address = params.addr, .range = 64};
    gi = (VkDescriptorGetInfoEXT){.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
                                  .type = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .data.pUniformBuffer = &ai};
    pvkGetDescriptorEXT(ca.dev, &gi, dbp.uniformBufferDescriptorSize, bytes + set1 + off11);
    if (two) {
        memcpy(bytes + set1b, bytes + set1, (size_t)size1);
        ai.range = 32;
        pvkGetDescriptorEXT(ca.dev, &gi, dbp.uniformBufferDescriptorSize, bytes + set1b + off11);
    }

    capp_buffer db;
    if (staged) {
        db = staged_buffer(dbsize);
    } else {
        db = capp_buffer_create(&ca, dbsize, VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT | sda);
        memcpy(db.map, bytes, (size_t)dbsize);
    }

    VkPushConstantRange pcr = {.stageFlags = stages, .size = 8};
    VkPipelineLayout layout = capp_pipeline_layout(&ca, 2, dsl, &pcr);
    capp_image t = {0};
    VkPipeline pipe;
    if (gfx) {
        /* One point, as Sascha Willems' sample reads its uniforms in the
         * vertex shader. */
        t = capp_image_create(&ca, 1, 1, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
        VkPipelineShaderStageCreateInfo ss[2] = {
            capp_stage(VK_SHADER_STAGE_VERTEX_BIT, ca_module(dir, "dbuf_ubo.vert.spv"), NULL),
            capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, ca_module(dir, "buf_plain.frag.spv"), NULL)};
        pipe = capp_graphics_pipeline(&ca, &(capp_graphics_info){.stages = ss, .nstages = 2, .layout = layout,
                                                                  .format = t.format, .width = 1, .height = 1,
                                                                  .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST,
                                                                  .flags = VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT});
    } else {
        pipe = capp_compute_pipeline(&ca, layout, ca_module(dir, "dbuf_ubo.comp.spv"),
                                     VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, NULL);
    }
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "dbuf-cmd", pipe, "dbuf-pipeline");

    uint64_t total = 0;
    for (uint32_t f = 0; f <= frames; f++) {
        uint64_t t0 = now_ns();
        capp_begin(cmd, 0);
        if (staged && f == 0) {
            /* The descriptors reach the buffer on the GPU, from the bytes
             * vkGetDescriptorEXT wrote into the app's memory. */
            for (VkDeviceSize at = 0; at < dbsize; at += 65536)
                vkCmdUpdateBuffer(cmd, db.buf, at, dbsize - at < 65536 ? dbsize - at : 65536, bytes + at);
            VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT};
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb,
                                 0, NULL, 0, NULL);
        }
        if (gfx)
            capp_begin_rendering(cmd, &t, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        vkCmdBindPipeline(cmd, bp, pipe);
        VkDescriptorBufferBindingInfoEXT bi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
                                               .address = db.addr,
                                               .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT};
        pvkCmdBindDescriptorBuffersEXT(cmd, 1, &bi);
        uint32_t buffer_index[2] = {0, 0};
        VkDeviceSize offsets[2] = {0, set1};
        pvkCmdSetDescriptorBufferOffsetsEXT(cmd, bp, layout, 0, 2, buffer_index, offsets);
        uint32_t pc[2] = {index, loops};
        vkCmdPushConstants(cmd, layout, stages, 0, 8, pc);
        if (gfx) {
            vkCmdDraw(cmd, 1, 1, 0, 0);
            vkCmdEndRendering(cmd);
        } else {
            vkCmdDispatch(cmd, groups, 1, 1);
        }
        if (two && !gfx) {
            VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &mb, 0, NULL, 0, NULL);
            pvkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 1, buffer_index,
                                                &set1b);
            vkCmdDispatch(cmd, groups, 1, 1);
        }
        CHECK(vkEndCommandBuffer(cmd));
        if (rewrite) {
            ai.range = 16;
            pvkGetDescriptorEXT(ca.dev, &gi, dbp.uniformBufferDescriptorSize, (char *)db.map + set1 + off11);
        }
        ca_submit_wait(cmd);
        if (f > 0)
            total += now_ns() - t0;
    }
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    if (frames)
        printf("frame_ns=%llu\n", (unsigned long long)(total / frames));
    fflush(stdout);

    ca_teardown(pipe, layout, pool, VK_NULL_HANDLE, dsl[0], gfx ? &t : NULL);
    vkDestroyDescriptorSetLayout(ca.dev, dsl[1], NULL);
    capp_buffer_destroy(&ca, &db);
    capp_buffer_destroy(&ca, &params);
    capp_buffer_destroy(&ca, &other);
    capp_buffer_destroy(&ca, &result);
    free(bytes);
    capp_destroy(&ca);
    return 0;
}

/* ---- the texel-buffer cases --------------------------------------------------------- */

static int texel_case(const char *dir, const char *kase)
{
    int32_t fetch = strcmp(kase, "texel_oob") ? 1 : 4;
    PROC(vkGetDescriptorSetLayoutSizeEXT);
    PROC(vkGetDescriptorSetLayoutBindingOffsetEXT);
    PROC(vkGetDescriptorEXT);
    PROC(vkCmdBindDescriptorBuffersEXT);
    PROC(vkCmdSetDescriptorBufferOffsetsEXT);
    VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &dbp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);

    VkBufferUsageFlags sda = VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    capp_buffer result = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | sda);
    capp_buffer texels = capp_buffer_create(&ca, 64, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | sda);
    for (uint32_t i = 0; i < 16; i++)
        ((float *)texels.map)[i] = 10.0f + (float)i;

    VkDescriptorSetLayoutBinding b0 = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutBinding b1 = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER,
                                       .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayout dsl[2];
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
                                             .bindingCount = 1, .pBindings = &b0};
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl[0]));
    dslci.pBindings = &b1;
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl[1]));
    VkDeviceSize size0, size1, off0, off1;
    pvkGetDescriptorSetLayoutSizeEXT(ca.dev, dsl[0], &size0);
    pvkGetDescriptorSetLayoutSizeEXT(ca.dev, dsl[1], &size1);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl[0], 0, &off0);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl[1], 0, &off1);
    VkDeviceSize align = dbp.descriptorBufferOffsetAlignment ? dbp.descriptorBufferOffsetAlignment : 1;
    VkDeviceSize step = align > 256 ? align : 256;
    VkDeviceSize set1 = (size0 + step - 1) / step * step;
    capp_buffer db = capp_buffer_create(&ca, set1 + size1, VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT | sda);
    VkDescriptorAddressInfoEXT ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                                     .address = result.addr, .range = 16};
    VkDescriptorGetInfoEXT gi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
                                 .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .data.pStorageBuffer = &ai};
    pvkGetDescriptorEXT(ca.dev, &gi, dbp.storageBufferDescriptorSize, (char *)db.map + off0);
    ai = (VkDescriptorAddressInfoEXT){.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                                      .address = texels.addr, .range = 16, .format = VK_FORMAT_R32_SFLOAT};
    gi = (VkDescriptorGetInfoEXT){.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
                                  .type = VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, .data.pUniformTexelBuffer = &ai};
    pvkGetDescriptorEXT(ca.dev, &gi, dbp.uniformTexelBufferDescriptorSize, (char *)db.map + set1 + off1);

    VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = 4};
    VkPipelineLayout layout = capp_pipeline_layout(&ca, 2, dsl, &pcr);
    VkPipeline pipe = capp_compute_pipeline(&ca, layout, ca_module(dir, "dbuf_texel.comp.spv"),
                                            VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, NULL);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "dbuf-cmd", pipe, "dbuf-pipeline");
    capp_begin(cmd, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    VkDescriptorBufferBindingInfoEXT bi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
                                           .address = db.addr,
                                           .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT};
    pvkCmdBindDescriptorBuffersEXT(cmd, 1, &bi);
    uint32_t buffer_index[2] = {0, 0};
    VkDeviceSize offsets[2] = {0, set1};
    pvkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 2, buffer_index, offsets);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &fetch);
    vkCmdDispatch(cmd, 1, 1, 1);
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    fflush(stdout);

    ca_teardown(pipe, layout, pool, VK_NULL_HANDLE, dsl[0], NULL);
    vkDestroyDescriptorSetLayout(ca.dev, dsl[1], NULL);
    capp_buffer_destroy(&ca, &db);
    capp_buffer_destroy(&ca, &texels);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
