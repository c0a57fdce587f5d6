/*
 * descapp: the descriptor-state checks' test app (C): descriptor_index_oob
 * on a runtime (bindless) array, descriptor_uninitialized and
 * descriptor_destroyed. A shader reads data[pc.index].v[0] from a runtime
 * array of storage buffers (set 0, binding 1; descriptor indexing with
 * PARTIALLY_BOUND, and VARIABLE_DESCRIPTOR_COUNT where the case says) and
 * stores it + 1 into result.v[0] (set 0, binding 0). Element i is a
 * 16-byte buffer whose v[0] is 100 + i (elements past 15 share buffer 0).
 * One invocation does the access: a 1x1x1 dispatch (desc.comp), one point
 * drawn into a 1x1 image (desc.vert, or desc.frag: one fragment at
 * (0.5, 0.5)).
 *
 *   descapp --shaders DIR [--case CASE] [--stage compute|vertex|fragment]
 *
 * Cases (binding 1's layout count / variable count; elements written;
 * pc.index):
 *   clean           8 / 4, 0..3 written, index 1 (value=102)
 *   runtime_oob     4 (no variable count), 0..3, index 5
 *   variable_count  16 / 6, 0..5, index 6
 *   uninitialized   8 / 4, 0, 1, 3 written, index 2
 *   destroyed       8 / 4, 0..3 written, then element 3's buffer is
 *                   destroyed (before recording: PARTIALLY_BOUND makes the
 *                   set legal as long as element 3 is not used), index 3
 *   many_sets       three sets 8 / 4; the third lacks element 2; three
 *                   actions, one per set, index 2: only action 2 is bad
 *   growth          20000 / 20000, 0..19998 written, index 19999 (the
 *                   state is larger than the layer's first 64 KiB buffer):
 *                   recorded and submitted twice (prints "submit=1",
 *                   "submit=2")
 *   push            a push-descriptor layout (8 elements, no set):
 *                   vkCmdPushDescriptorSetKHR writes 0, 1, 3; index 2
 *   push_template   the same through vkCmdPushDescriptorSetWithTemplateKHR
 *   push_clean      vkCmdPushDescriptorSetKHR writes 0..3; index 1
 * It prints "value=N" (result[0]) after the (last) submit. Every VkResult
 * is checked; a failure prints "descapp: <call> failed: <n>" and exits 1.
 * Names: the command buffer is "desc-cmd", the pipeline "desc-pipeline".
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
            fprintf(stderr, "descapp: %s failed: %d\n", #call, (int)r_);            \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static VkDevice dev;
static VkPhysicalDevice pd;
static VkShaderModule modules[2]; /* destroyed at the end */
static uint32_t nmodules;

static uint32_t *read_file(const char *dir, const char *name, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "descapp: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "descapp: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

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
    fprintf(stderr, "descapp: no memory type\n");
    exit(1);
}

typedef struct {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
} buffer;

/* make_buffer: a host-visible, coherent, mapped, zeroed storage buffer. */
static buffer make_buffer(VkDeviceSize size)
{
    buffer b = {0};
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
                              .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
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

#define NBUF 16

typedef struct {
    const char *name;
    uint32_t layout_count, variable; /* variable: 0 = no VARIABLE_DESCRIPTOR_COUNT */
    uint32_t written;                /* elements 0..written-1 are written ... */
    uint32_t skip;                   /* ... except this one (UINT32_MAX: none) */
    uint32_t destroy;                /* element whose buffer is destroyed (UINT32_MAX: none) */
    uint32_t index;
    uint32_t nsets;                  /* sets, one action each; only the last has `skip` unwritten */
    int submits;
    int push; /* 1: vkCmdPushDescriptorSetKHR, 2: with a template */
} test_case;

static const test_case cases[] = {
    {"clean", 8, 4, 4, UINT32_MAX, UINT32_MAX, 1, 1, 1},
    {"runtime_oob", 4, 0, 4, UINT32_MAX, UINT32_MAX, 5, 1, 1},
    {"variable_count", 16, 6, 6, UINT32_MAX, UINT32_MAX, 6, 1, 1},
    {"uninitialized", 8, 4, 4, 2, UINT32_MAX, 2, 1, 1},
    {"destroyed", 8, 4, 4, UINT32_MAX, 3, 3, 1, 1},
    {"many_sets", 8, 4, 4, 2, UINT32_MAX, 2, 3, 1},
    {"growth", 20000, 20000, 20000, 19999, UINT32_MAX, 19999, 1, 2},
    {"push", 8, 0, 4, 2, UINT32_MAX, 2, 1, 1, 1},
    {"push_template", 8, 0, 4, 2, UINT32_MAX, 2, 1, 1, 2},
    {"push_clean", 8, 0, 4, UINT32_MAX, UINT32_MAX, 1, 1, 1, 1},
};

/* make_writes fills w with the writes of set `set`: binding 0 (the result,
 * infos[0]) and binding 1 in runs of written elements (infos[1 + i]),
 * leaving out element `skip`; returns their number. */
static uint32_t make_writes(VkWriteDescriptorSet *w, VkDescriptorSet set, const VkDescriptorBufferInfo *infos,
                            uint32_t written, uint32_t skip)
{
    uint32_t n = 0;
    w[n++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                    .dstBinding = 0, .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = infos};
    uint32_t start = 0;
    for (uint32_t i = 0; i <= written; i++) {
        if (i == written || i == skip) {
            if (i > start)
                w[n++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                                .dstBinding = 1, .dstArrayElement = start,
                                                .descriptorCount = i - start,
                                                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                .pBufferInfo = infos + 1 + start};
            start = i + 1;
        }
    }
    return n;
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
                fprintf(stderr, "descapp: unknown stage %s\n", argv[i]);
                return 2;
            }
        } else {
            fprintf(stderr, "descapp: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    const test_case *tc = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (!strcmp(cases[i].name, kase))
            tc = &cases[i];
    if (!tc) {
        fprintf(stderr, "descapp: unknown case %s\n", kase);
        return 2;
    }

    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "descapp",
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
        fprintf(stderr, "descapp: no physical device\n");
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
        fprintf(stderr, "descapp: no graphics+compute queue\n");
        return 1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                   .queueCount = 1, .pQueuePriorities = &prio};
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .dynamicRendering = VK_TRUE,
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .pNext = &f13,
        .descriptorIndexing = VK_TRUE,
        .runtimeDescriptorArray = VK_TRUE,
        .descriptorBindingPartiallyBound = VK_TRUE,
        .descriptorBindingVariableDescriptorCount = VK_TRUE,
        .shaderStorageBufferArrayNonUniformIndexing = VK_TRUE,
        .shaderSampledImageArrayNonUniformIndexing = VK_TRUE,
    };
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    f2.features.vertexPipelineStoresAndAtomics = VK_TRUE;
    f2.features.fragmentStoresAndAtomics = VK_TRUE;
    const char *dev_exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f2,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
        .enabledExtensionCount = tc->push ? 1 : 0,
        .ppEnabledExtensionNames = dev_exts,
    };
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);

    /* Buffers: result, and one per element (v[0] = 100 + i). */
    buffer result = make_buffer(16);
    buffer data[NBUF];
    for (uint32_t i = 0; i < NBUF; i++) {
        data[i] = make_buffer(16);
        ((uint32_t *)data[i].map)[0] = 100 + i;
    }

    /* The set layout: binding 0 the result, binding 1 the runtime array. */
    VkShaderStageFlags stages = VK_SHADER_STAGE_ALL;
    VkDescriptorSetLayoutBinding lb[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1, .stageFlags = stages},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = tc->layout_count,
         .stageFlags = stages},
    };
    VkDescriptorBindingFlags bflags[2] = {
        0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
               (tc->variable ? VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT : 0)};
    VkDescriptorSetLayoutBindingFlagsCreateInfo bfci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, .bindingCount = 2,
        .pBindingFlags = bflags};
    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .pNext = &bfci,
        .flags = tc->push ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0, .bindingCount = 2,
        .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
    uint32_t per_set = 1 + (tc->variable ? tc->variable : tc->layout_count);
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, per_set * tc->nsets};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                       .maxSets = tc->nsets, .poolSizeCount = 1, .pPoolSizes = &ps};
    VkDescriptorPool dpool = VK_NULL_HANDLE;
    if (!tc->push)
        CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dpool));
    VkDescriptorSet sets[3] = {0};
    uint32_t nelems = tc->variable ? tc->variable : tc->layout_count;
    VkDescriptorBufferInfo *infos = calloc(1 + nelems, sizeof *infos);
    VkWriteDescriptorSet *writes = calloc(2 + nelems, sizeof *writes);
    infos[0] = (VkDescriptorBufferInfo){result.buf, 0, VK_WHOLE_SIZE};
    for (uint32_t i = 0; i < tc->written && i < nelems; i++)
        infos[1 + i] = (VkDescriptorBufferInfo){data[i < NBUF ? i : 0].buf, 0, VK_WHOLE_SIZE};
    uint32_t npush = 0;
    for (uint32_t s = 0; s < tc->nsets; s++) {
        uint32_t skip = s + 1 == tc->nsets ? tc->skip : UINT32_MAX;
        if (tc->push) {
            npush = make_writes(writes, VK_NULL_HANDLE, infos, tc->written, skip);
            break;
        }
        VkDescriptorSetVariableDescriptorCountAllocateInfo vc = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO,
            .descriptorSetCount = 1, .pDescriptorCounts = &tc->variable};
        VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                            .pNext = tc->variable ? &vc : NULL, .descriptorPool = dpool,
                                            .descriptorSetCount = 1, .pSetLayouts = &dsl};
        CHECK(vkAllocateDescriptorSets(dev, &dsai, &sets[s]));
        uint32_t n = make_writes(writes, sets[s], infos, tc->written, skip);
        vkUpdateDescriptorSets(dev, n, writes, 0, NULL);
    }
    if (!tc->push)
        free(infos); /* pushes read it while recording */
    if (tc->destroy != UINT32_MAX) {
        /* The memory stays allocated: only the buffer is gone. */
        vkDestroyBuffer(dev, data[tc->destroy].buf, NULL);
        data[tc->destroy].buf = VK_NULL_HANDLE;
    }

    VkPushConstantRange pcr = {.stageFlags = stages, .size = 4};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                       .setLayoutCount = 1, .pSetLayouts = &dsl,
                                       .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
    PFN_vkCmdPushDescriptorSetKHR push =
        (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetKHR");
    PFN_vkCmdPushDescriptorSetWithTemplateKHR push_tmpl =
        (PFN_vkCmdPushDescriptorSetWithTemplateKHR)vkGetDeviceProcAddr(dev, "vkCmdPushDescriptorSetWithTemplateKHR");
    VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
    if (tc->push == 2) {
        /* One entry per write, reading infos. */
        VkDescriptorUpdateTemplateEntry *ent = calloc(npush, sizeof *ent);
        for (uint32_t i = 0; i < npush; i++)
            ent[i] = (VkDescriptorUpdateTemplateEntry){
                .dstBinding = writes[i].dstBinding, .dstArrayElement = writes[i].dstArrayElement,
                .descriptorCount = writes[i].descriptorCount, .descriptorType = writes[i].descriptorType,
                .offset = (size_t)(writes[i].pBufferInfo - infos) * sizeof *infos, .stride = sizeof *infos};
        VkDescriptorUpdateTemplateCreateInfo tci = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO, .descriptorUpdateEntryCount = npush,
            .pDescriptorUpdateEntries = ent, .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
            .pipelineBindPoint = stage == 0 ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS,
            .pipelineLayout = layout, .set = 0};
        CHECK(vkCreateDescriptorUpdateTemplate(dev, &tci, NULL, &tmpl));
        free(ent);
    }
    VkPipeline pipe;
    VkImage image = VK_NULL_HANDLE;
    VkImageView view = VK_NULL_HANDLE;
    VkDeviceMemory image_mem = VK_NULL_HANDLE;
    VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
    if (stage == 0) {
        VkComputePipelineCreateInfo cpci = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                      .module = module(dir, "desc.comp.spv"), .pName = "main"},
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
             .module = module(dir, stage == 1 ? "desc.vert.spv" : "desc_plain.vert.spv"), .pName = "main"},
            {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
             .module = module(dir, stage == 2 ? "desc.frag.spv" : "desc_plain.frag.spv"), .pName = "main"},
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

    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = family};
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
                                            .objectHandle = (uint64_t)(uintptr_t)cmd, .pObjectName = "desc-cmd"};
        set_name(dev, &ni);
        ni.objectType = VK_OBJECT_TYPE_PIPELINE;
        ni.objectHandle = (uint64_t)pipe;
        ni.pObjectName = "desc-pipeline";
        set_name(dev, &ni);
    }

    uint32_t index = tc->index;
    for (int sub = 1; sub <= tc->submits; sub++) {
        VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK(vkBeginCommandBuffer(cmd, &begin));
        VkPipelineBindPoint bp = stage == 0 ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
        if (stage != 0) {
            VkImageMemoryBarrier ib = {
                .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                .image = image, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
            };
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                 0, 0, NULL, 0, NULL, 1, &ib);
            VkRenderingAttachmentInfo att = {
                .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = view,
                .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
            };
            VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = {{0, 0}, {1, 1}},
                                  .layerCount = 1, .colorAttachmentCount = 1, .pColorAttachments = &att};
            vkCmdBeginRendering(cmd, &ri);
        }
        vkCmdBindPipeline(cmd, bp, pipe);
        vkCmdPushConstants(cmd, layout, stages, 0, sizeof index, &index);
        for (uint32_t s = 0; s < tc->nsets; s++) {
            if (tc->push == 1)
                push(cmd, bp, layout, 0, npush, writes);
            else if (tc->push == 2)
                push_tmpl(cmd, tmpl, layout, 0, infos);
            else
                vkCmdBindDescriptorSets(cmd, bp, layout, 0, 1, &sets[s], 0, NULL);
            if (stage == 0)
                vkCmdDispatch(cmd, 1, 1, 1);
            else
                vkCmdDraw(cmd, 1, 1, 0, 0);
        }
        if (stage != 0)
            vkCmdEndRendering(cmd);
        CHECK(vkEndCommandBuffer(cmd));
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
        CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
        CHECK(vkQueueWaitIdle(queue));
        if (tc->submits > 1)
            printf("submit=%d\n", sub);
    }
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    fflush(stdout);
    vkDeviceWaitIdle(dev);
    vkDestroyPipeline(dev, pipe, NULL);
    for (uint32_t i = 0; i < nmodules; i++)
        vkDestroyShaderModule(dev, modules[i], NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyCommandPool(dev, pool, NULL);
    if (dpool)
        vkDestroyDescriptorPool(dev, dpool, NULL);
    if (tmpl)
        vkDestroyDescriptorUpdateTemplate(dev, tmpl, NULL);
    if (tc->push)
        free(infos);
    free(writes);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    if (view)
        vkDestroyImageView(dev, view, NULL);
    if (image)
        vkDestroyImage(dev, image, NULL);
    if (image_mem)
        vkFreeMemory(dev, image_mem, NULL);
    for (uint32_t i = 0; i < NBUF; i++) {
        if (data[i].buf)
            vkDestroyBuffer(dev, data[i].buf, NULL);
        vkFreeMemory(dev, data[i].mem, NULL);
    }
    vkDestroyBuffer(dev, result.buf, NULL);
    vkFreeMemory(dev, result.mem, NULL);
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(instance, NULL);
    return 0;
}
