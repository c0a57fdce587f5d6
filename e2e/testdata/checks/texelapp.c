/*
 * texelapp: the texel_buffer_oob check's test app (C). One invocation (a
 * 1x1x1 dispatch of texel.comp, or one point drawn into a 1x1 image with
 * texel.vert or texel.frag doing the accesses) fetches texel `fetch` of a
 * uniform texel buffer (binding 0, R32_SFLOAT view), stores 7 to texel
 * `write` of a storage texel buffer (binding 1, R32_UINT view) when `store`
 * is set, adds 5 to its texel `atom` atomically, and stores the fetched
 * value and the atomic's old value in result.r[0..1] (binding 2).
 *
 *   texelapp --shaders DIR [--case fetch_oob|write_oob|atomic_oob|clean|robust]
 *            [--stage compute|vertex|fragment]
 *
 * Both texel buffers are 256-byte buffers (host-visible) holding 100+i
 * (floats) and 1000+i (uints) at texel i, seen through 32-byte views: 8
 * texels each. Defaults: fetch 3, atom 1, no store: clean prints value=103
 * old=1001.
 *   fetch_oob:  fetch 10 (value=0: the fetch is skipped).
 *   write_oob:  store to texel 8 (s8 stays 1008).
 *   atomic_oob: atom -1 (old=0: the atomic is skipped).
 *   robust:     write_oob on a device created with robustBufferAccess.
 * It prints "value=N", "old=N" and "s8=N" (the storage buffer's word 8 in
 * memory) after the submit. Every VkResult is checked; a failure prints
 * "texelapp: <call> failed: <n>" and exits 1. Names: the command buffer is
 * "texel-cmd", the pipeline "texel-pipeline".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#define CHECK(call)                                                                 \
    do {                                                                            \
        VkResult r_ = (call);                                                       \
        if (r_ != VK_SUCCESS) {                                                     \
            fprintf(stderr, "texelapp: %s failed: %d\n", #call, (int)r_);             \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static VkDevice dev;
static VkPhysicalDevice pd;

static uint32_t *read_file(const char *dir, const char *name, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "texelapp: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "texelapp: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static VkShaderModule modules[2];
static int nmodules;

static VkShaderModule module(const char *dir, const char *name)
{
    size_t size;
    uint32_t *code = read_file(dir, name, &size);
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                   .pCode = code};
    VkShaderModule m;
    CHECK(vkCreateShaderModule(dev, &ci, NULL, &m));
    free(code);
    modules[nmodules++] = m;
    return m;
}

static uint32_t find_memory(uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    fprintf(stderr, "texelapp: no memory type\n");
    exit(1);
}

typedef struct {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
} buffer;

/* make_buffer: host-visible, coherent, mapped, zeroed. */
static buffer make_buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    buffer b = {0};
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    CHECK(vkCreateBuffer(dev, &bci, NULL, &b.buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b.buf, &req);
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = find_memory(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
    };
    CHECK(vkAllocateMemory(dev, &mai, NULL, &b.mem));
    CHECK(vkBindBufferMemory(dev, b.buf, b.mem, 0));
    CHECK(vkMapMemory(dev, b.mem, 0, VK_WHOLE_SIZE, 0, &b.map));
    memset(b.map, 0, size);
    return b;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = 0; /* 0 compute, 1 vertex, 2 fragment */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shaders") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--case") && i + 1 < argc)
            kase = argv[++i];
        else if (!strcmp(argv[i], "--stage") && i + 1 < argc) {
            i++;
            if (!strcmp(argv[i], "compute"))
                stage = 0;
            else if (!strcmp(argv[i], "vertex"))
                stage = 1;
            else if (!strcmp(argv[i], "fragment"))
                stage = 2;
            else {
                fprintf(stderr, "texelapp: unknown stage %s\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "texelapp: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    struct {
        int32_t fetch, write, atom;
        uint32_t store;
    } pc = {3, 2, 1, 0};
    int robust = 0;
    if (!strcmp(kase, "fetch_oob"))
        pc.fetch = 10;
    else if (!strcmp(kase, "write_oob") || !strcmp(kase, "robust"))
        pc.write = 8, pc.store = 1, robust = !strcmp(kase, "robust");
    else if (!strcmp(kase, "atomic_oob"))
        pc.atom = -1;
    else if (strcmp(kase, "clean")) {
        fprintf(stderr, "texelapp: unknown case %s\n", kase);
        return 2;
    }

    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "texelapp",
                             .apiVersion = VK_API_VERSION_1_3};
    uint32_t next = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &next, NULL);
    VkExtensionProperties *iexts = calloc(next + 1, sizeof *iexts);
    vkEnumerateInstanceExtensionProperties(NULL, &next, iexts);
    int have_utils = 0;
    for (uint32_t i = 0; i < next; i++)
        if (!strcmp(iexts[i].extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            have_utils = 1;
    free(iexts);
    const char *inst_exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                .enabledExtensionCount = have_utils ? 1 : 0, .ppEnabledExtensionNames = inst_exts};
    VkInstance instance;
    CHECK(vkCreateInstance(&ici, NULL, &instance));
    uint32_t npd = 1;
    VkResult er = vkEnumeratePhysicalDevices(instance, &npd, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0) {
        fprintf(stderr, "texelapp: no physical device\n");
        return 1;
    }
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *qf = calloc(nq, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT)) ==
            (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT))
            family = i;
    free(qf);
    if (family == UINT32_MAX) {
        fprintf(stderr, "texelapp: no graphics+compute queue\n");
        return 1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                   .queueCount = 1, .pQueuePriorities = &prio};
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .dynamicRendering = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    f2.features.vertexPipelineStoresAndAtomics = VK_TRUE;
    f2.features.fragmentStoresAndAtomics = VK_TRUE;
    f2.features.robustBufferAccess = robust ? VK_TRUE : VK_FALSE;
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f2,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
    };
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);

    buffer ub = make_buffer(256, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
    buffer sb = make_buffer(256, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
    buffer result = make_buffer(16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t i = 0; i < 64; i++) {
        ((float *)ub.map)[i] = (float)(100 + i);
        ((uint32_t *)sb.map)[i] = 1000 + i;
    }
    VkBufferView views[2];
    VkBufferViewCreateInfo bvci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, .buffer = ub.buf,
                                   .format = VK_FORMAT_R32_SFLOAT, .offset = 0, .range = 32};
    CHECK(vkCreateBufferView(dev, &bvci, NULL, &views[0]));
    bvci.buffer = sb.buf, bvci.format = VK_FORMAT_R32_UINT;
    CHECK(vkCreateBufferView(dev, &bvci, NULL, &views[1]));

    VkDescriptorSetLayoutBinding lb[3] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
    };
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .bindingCount = 3, .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
    VkDescriptorPoolSize ps[3] = {{VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1},
                                  {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = 3, .pPoolSizes = ps};
    VkDescriptorPool dpool;
    CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dpool));
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = dpool, .descriptorSetCount = 1, .pSetLayouts = &dsl};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
    VkDescriptorBufferInfo rbi = {result.buf, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w[3];
    for (uint32_t i = 0; i < 3; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                      .dstBinding = i, .descriptorCount = 1, .descriptorType = lb[i].descriptorType,
                                      .pTexelBufferView = i < 2 ? &views[i] : NULL, .pBufferInfo = i == 2 ? &rbi : NULL};
    vkUpdateDescriptorSets(dev, 3, w, 0, NULL);

    VkShaderStageFlags stages = VK_SHADER_STAGE_ALL;
    VkPushConstantRange pcr = {.stageFlags = stages, .size = sizeof pc};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
    VkPipeline pipe;
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkDeviceMemory image_mem = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    if (stage == 0) {
        VkComputePipelineCreateInfo cpci = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                      .module = module(dir, "texel.comp.spv"), .pName = "main"},
            .layout = layout,
        };
        CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
    } else {
        VkImageCreateInfo imci = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D, .format = format,
            .extent = {1, 1, 1}, .mipLevels = 1, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
            .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
        };
        CHECK(vkCreateImage(dev, &imci, NULL, &image));
        VkMemoryRequirements req;
        vkGetImageMemoryRequirements(dev, image, &req);
        VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                    .memoryTypeIndex = find_memory(req.memoryTypeBits, 0)};
        CHECK(vkAllocateMemory(dev, &mai, NULL, &image_mem));
        CHECK(vkBindImageMemory(dev, image, image_mem, 0));
        VkImageViewCreateInfo vci = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = image, .viewType = VK_IMAGE_VIEW_TYPE_2D,
            .format = format, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        CHECK(vkCreateImageView(dev, &vci, NULL, &view));
        VkPipelineShaderStageCreateInfo ss[2] = {
            {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
             .module = module(dir, stage == 1 ? "texel.vert.spv" : "buf_plain.vert.spv"), .pName = "main"},
            {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
             .module = module(dir, stage == 2 ? "texel.frag.spv" : "buf_plain.frag.spv"), .pName = "main"},
        };
        VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
        VkPipelineInputAssemblyStateCreateInfo ia = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
            .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST};
        VkViewport vp = {0, 0, 1, 1, 0, 1};
        VkRect2D sc = {{0, 0}, {1, 1}};
        VkPipelineViewportStateCreateInfo vps = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                                 .viewportCount = 1, .pViewports = &vp, .scissorCount = 1,
                                                 .pScissors = &sc};
        VkPipelineRasterizationStateCreateInfo rs = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
            .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE, .lineWidth = 1};
        VkPipelineMultisampleStateCreateInfo ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
                                                   .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
        VkPipelineColorBlendAttachmentState cba = {.colorWriteMask = 0xf};
        VkPipelineColorBlendStateCreateInfo cb = {.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                  .attachmentCount = 1, .pAttachments = &cba};
        VkPipelineRenderingCreateInfo pri = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                             .colorAttachmentCount = 1, .pColorAttachmentFormats = &format};
        VkGraphicsPipelineCreateInfo gpci = {
            .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = &pri, .stageCount = 2,
            .pStages = ss, .pVertexInputState = &vi, .pInputAssemblyState = &ia, .pViewportState = &vps,
            .pRasterizationState = &rs, .pMultisampleState = &ms, .pColorBlendState = &cb, .layout = layout,
        };
        CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, NULL, &pipe));
    }

    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(dev, &cbai, &cmd));
    PFN_vkSetDebugUtilsObjectNameEXT set_name =
        have_utils ? (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(dev, "vkSetDebugUtilsObjectNameEXT") : NULL;
    if (set_name) {
        VkDebugUtilsObjectNameInfoEXT ni = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                            .objectType = VK_OBJECT_TYPE_COMMAND_BUFFER,
                                            .objectHandle = (uint64_t)(uintptr_t)cmd, .pObjectName = "texel-cmd"};
        set_name(dev, &ni);
        ni.objectType = VK_OBJECT_TYPE_PIPELINE;
        ni.objectHandle = (uint64_t)pipe;
        ni.pObjectName = "texel-pipeline";
        set_name(dev, &ni);
    }

    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cmd, &begin));
    if (stage == 0) {
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(cmd, layout, stages, 0, sizeof pc, &pc);
        vkCmdDispatch(cmd, 1, 1, 1);
    } else {
        VkImageMemoryBarrier ib = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = image, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
        };
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
                             0, NULL, 0, NULL, 1, &ib);
        VkRenderingAttachmentInfo att = {
            .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = view,
            .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
            .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        };
        VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = {{0, 0}, {1, 1}},
                              .layerCount = 1, .colorAttachmentCount = 1, .pColorAttachments = &att};
        vkCmdBeginRendering(cmd, &ri);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(cmd, layout, stages, 0, sizeof pc, &pc);
        vkCmdDraw(cmd, 1, 1, 0, 0);
        vkCmdEndRendering(cmd);
    }
    CHECK(vkEndCommandBuffer(cmd));
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    printf("old=%u\n", ((uint32_t *)result.map)[1]);
    printf("s8=%u\n", ((uint32_t *)sb.map)[8]);
    fflush(stdout);
    vkDeviceWaitIdle(dev);
    vkDestroyPipeline(dev, pipe, NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyCommandPool(dev, pool, NULL);
    if (view)
        vkDestroyImageView(dev, view, NULL);
    if (image)
        vkDestroyImage(dev, image, NULL);
    if (image_mem)
        vkFreeMemory(dev, image_mem, NULL);
    for (int i = 0; i < nmodules; i++)
        vkDestroyShaderModule(dev, modules[i], NULL);
    vkDestroyDescriptorPool(dev, dpool, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    vkDestroyBufferView(dev, views[0], NULL);
    vkDestroyBufferView(dev, views[1], NULL);
    buffer all[3] = {ub, sb, result};
    for (int i = 0; i < 3; i++) {
        vkDestroyBuffer(dev, all[i].buf, NULL);
        vkFreeMemory(dev, all[i].mem, NULL);
    }
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(instance, NULL);
    return 0;
}
