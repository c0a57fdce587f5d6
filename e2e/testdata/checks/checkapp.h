/*
 * checkapp.h: the Vulkan boilerplate the check test apps of this directory
 * share (C; each app is one translation unit, so everything here is static
 * inline and the e2e tests build an app with `gcc app.c -lvulkan` as before).
 *
 * An app defines APP (its name, a string literal) before including this
 * file; every message reads "APP: ...". What is here:
 *   CHECK(call)            exit 1 with "APP: <call> failed: <n>" unless VK_SUCCESS
 *   ca_args                --shaders DIR, --case NAME, --stage compute|vertex|fragment
 *   ca_create_instance     Vulkan 1.3, VK_EXT_debug_utils when the loader has it
 *   ca_create_device       one queue of a family with the wanted flags
 *   ca_create_stage_device the same for compute/vertex/fragment apps
 *   ca_find_memory, ca_make_buffer (host-visible, coherent, mapped, zeroed;
 *                          with its device address when the usage asks)
 *   ca_module              a shader module from DIR/NAME (ca_destroy_modules)
 *   ca_descriptor_set      a set layout, a pool for one set, and the set
 *   ca_pipeline_layout     one set layout (or none) and push constants
 *   ca_stage_pipeline      the compute pipeline of PREFIX.comp, or the point
 *                          pipeline of PREFIX.vert/PLAIN.vert and
 *                          PREFIX.frag/PLAIN.frag into a 1x1 image
 *   ca_begin_rendering     the image's barrier and vkCmdBeginRendering
 *   ca_record_one          one dispatch or one point of a stage's pipeline
 *   ca_command_buffers, ca_name, ca_submit_wait, ca_destroy_target
 */
#ifndef CHECKAPP_H
#define CHECKAPP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

#ifndef APP
#error "define APP (the app's name) before including checkapp.h"
#endif

#define CHECK(call)                                                                 \
    do {                                                                            \
        VkResult r_ = (call);                                                       \
        if (r_ != VK_SUCCESS) {                                                     \
            fprintf(stderr, APP ": %s failed: %d\n", #call, (int)r_);               \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

/* The stages ca_args knows. */
enum { CA_COMPUTE, CA_VERTEX, CA_FRAGMENT };

static VkInstance instance;
static VkPhysicalDevice pd;
static VkDevice dev;
static VkQueue queue;
static uint32_t family;
static int have_utils;

#define CA_MAX_MODULES 4
static VkShaderModule ca_modules[CA_MAX_MODULES];
static uint32_t ca_nmodules;

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

/* ca_create_instance creates a Vulkan 1.3 instance named APP, with
 * VK_EXT_debug_utils when the loader has it (for the object names), and
 * takes its first physical device; it exits 1 when there is none. */
static inline void ca_create_instance(void)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = APP,
                             .apiVersion = VK_API_VERSION_1_3};
    uint32_t next = 0;
    vkEnumerateInstanceExtensionProperties(NULL, &next, NULL);
    VkExtensionProperties *iexts = calloc(next + 1, sizeof *iexts);
    vkEnumerateInstanceExtensionProperties(NULL, &next, iexts);
    for (uint32_t i = 0; i < next; i++)
        if (!strcmp(iexts[i].extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            have_utils = 1;
    free(iexts);
    const char *inst_exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                .enabledExtensionCount = have_utils ? 1 : 0, .ppEnabledExtensionNames = inst_exts};
    CHECK(vkCreateInstance(&ici, NULL, &instance));
    uint32_t npd = 1;
    VkResult er = vkEnumeratePhysicalDevices(instance, &npd, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0) {
        fprintf(stderr, APP ": no physical device\n");
        exit(1);
    }
}

/* ca_create_device creates dev with one queue (queue) of the first family
 * that has all of want, the feature chain features (a
 * VkPhysicalDeviceFeatures2, or NULL) and the given extensions; it exits 1
 * with "APP: no compute queue" ("graphics+compute") when no family fits. */
static inline void ca_create_device(VkQueueFlags want, const void *features, const char *const *exts, uint32_t nexts)
{
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *qf = calloc(nq, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & want) == want)
            family = i;
    free(qf);
    if (family == UINT32_MAX) {
        fprintf(stderr, APP ": no %s queue\n", want & VK_QUEUE_GRAPHICS_BIT ? "graphics+compute" : "compute");
        exit(1);
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                   .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = features,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
        .enabledExtensionCount = nexts,
        .ppEnabledExtensionNames = exts,
    };
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
    vkGetDeviceQueue(dev, family, 0, &queue);
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

/* ca_destroy_device destroys dev and instance. */
static inline void ca_destroy_device(void)
{
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(instance, NULL);
}

/* ca_find_memory returns the first memory type in bits with all of want;
 * it exits 1 when there is none. */
static inline uint32_t ca_find_memory(uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    fprintf(stderr, APP ": no memory type\n");
    exit(1);
}

/* buffer is a buffer with its own memory, mapped; addr is its device
 * address (0 without VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT). */
typedef struct {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
    VkDeviceAddress addr;
} buffer;

/* ca_make_buffer: host-visible, coherent, mapped, zeroed; with
 * VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT in usage its memory is
 * allocated for device addresses and addr is set. */
static inline buffer ca_make_buffer(VkDeviceSize size, VkBufferUsageFlags usage)
{
    buffer b = {0};
    int bda = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0;
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    CHECK(vkCreateBuffer(dev, &bci, NULL, &b.buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b.buf, &req);
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = bda ? &flags : NULL,
        .allocationSize = req.size,
        .memoryTypeIndex = ca_find_memory(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
    };
    CHECK(vkAllocateMemory(dev, &mai, NULL, &b.mem));
    CHECK(vkBindBufferMemory(dev, b.buf, b.mem, 0));
    CHECK(vkMapMemory(dev, b.mem, 0, VK_WHOLE_SIZE, 0, &b.map));
    memset(b.map, 0, size);
    if (bda) {
        VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b.buf};
        b.addr = vkGetBufferDeviceAddress(dev, &ai);
    }
    return b;
}

/* ca_read_file reads DIR/NAME whole; it exits 1 when it cannot. */
static inline uint32_t *ca_read_file(const char *dir, const char *name, size_t *size)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, APP ": cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, APP ": cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* ca_module creates a shader module from the SPIR-V file DIR/NAME and
 * remembers it for ca_destroy_modules. */
static inline VkShaderModule ca_module(const char *dir, const char *name)
{
    size_t size;
    uint32_t *code = ca_read_file(dir, name, &size);
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                   .pCode = code};
    VkShaderModule m;
    CHECK(vkCreateShaderModule(dev, &ci, NULL, &m));
    free(code);
    if (ca_nmodules == CA_MAX_MODULES) {
        fprintf(stderr, APP ": more than %d shader modules\n", CA_MAX_MODULES);
        exit(1);
    }
    ca_modules[ca_nmodules++] = m;
    return m;
}

/* ca_destroy_modules destroys the modules ca_module created. */
static inline void ca_destroy_modules(void)
{
    for (uint32_t i = 0; i < ca_nmodules; i++)
        vkDestroyShaderModule(dev, ca_modules[i], NULL);
    ca_nmodules = 0;
}

/* ca_descriptor_set creates the set layout *dsl of the n (at most 8)
 * bindings lb, a pool *pool for one set of it, and that set. */
static inline VkDescriptorSet ca_descriptor_set(const VkDescriptorSetLayoutBinding *lb, uint32_t n,
                                                VkDescriptorSetLayout *dsl, VkDescriptorPool *pool)
{
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .bindingCount = n, .pBindings = lb};
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, dsl));
    VkDescriptorPoolSize ps[8];
    if (n > 8) {
        fprintf(stderr, APP ": more than 8 bindings\n");
        exit(1);
    }
    for (uint32_t i = 0; i < n; i++)
        ps[i] = (VkDescriptorPoolSize){lb[i].descriptorType, lb[i].descriptorCount};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = n, .pPoolSizes = ps};
    CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, pool));
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = *pool, .descriptorSetCount = 1, .pSetLayouts = dsl};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
    return set;
}

/* ca_pipeline_layout creates a pipeline layout of the set layout dsl
 * (none when VK_NULL_HANDLE) and pc_size bytes of push constants for
 * stages. */
static inline VkPipelineLayout ca_pipeline_layout(VkDescriptorSetLayout dsl, VkShaderStageFlags stages, uint32_t pc_size)
{
    VkPushConstantRange pcr = {.stageFlags = stages, .size = pc_size};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                       .setLayoutCount = dsl ? 1 : 0, .pSetLayouts = dsl ? &dsl : NULL,
                                       .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
    return layout;
}

/* ca_compute_pipeline creates the compute pipeline of module's main. */
static inline VkPipeline ca_compute_pipeline(VkPipelineLayout layout, VkShaderModule module)
{
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module, .pName = "main"},
        .layout = layout,
    };
    VkPipeline pipe;
    CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
    return pipe;
}

/* target is the 1x1 color image the graphics stages draw into (all
 * VK_NULL_HANDLE for compute). */
typedef struct {
    VkImage image;
    VkImageView view;
    VkDeviceMemory mem;
    VkFormat format;
} target;

/* ca_make_target creates a 1x1 R8G8B8A8_UNORM color attachment. */
static inline target ca_make_target(void)
{
    target t = {.format = VK_FORMAT_R8G8B8A8_UNORM};
    VkImageCreateInfo imci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D, .format = t.format,
        .extent = {1, 1, 1}, .mipLevels = 1, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
    };
    CHECK(vkCreateImage(dev, &imci, NULL, &t.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, t.image, &req);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                .memoryTypeIndex = ca_find_memory(req.memoryTypeBits, 0)};
    CHECK(vkAllocateMemory(dev, &mai, NULL, &t.mem));
    CHECK(vkBindImageMemory(dev, t.image, t.mem, 0));
    VkImageViewCreateInfo vci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = t.image, .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = t.format, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    CHECK(vkCreateImageView(dev, &vci, NULL, &t.view));
    return t;
}

/* ca_destroy_target destroys what ca_make_target created, if anything. */
static inline void ca_destroy_target(target t)
{
    if (t.view)
        vkDestroyImageView(dev, t.view, NULL);
    if (t.image)
        vkDestroyImage(dev, t.image, NULL);
    if (t.mem)
        vkFreeMemory(dev, t.mem, NULL);
}

/* ca_point_pipeline creates a graphics pipeline (dynamic rendering into
 * format) that draws points with vert and frag, no vertex input. */
static inline VkPipeline ca_point_pipeline(VkPipelineLayout layout, VkShaderModule vert, VkShaderModule frag,
                                           VkFormat format)
{
    VkPipelineShaderStageCreateInfo ss[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
         .module = vert, .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = frag, .pName = "main"},
    };
    VkPipelineVertexInputStateCreateInfo vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
                                                 .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST};
    VkViewport vp = {0, 0, 1, 1, 0, 1};
    VkRect2D sc = {{0, 0}, {1, 1}};
    VkPipelineViewportStateCreateInfo vps = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                             .viewportCount = 1, .pViewports = &vp, .scissorCount = 1,
                                             .pScissors = &sc};
    VkPipelineRasterizationStateCreateInfo rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
                                                 .polygonMode = VK_POLYGON_MODE_FILL, .cullMode = VK_CULL_MODE_NONE,
                                                 .lineWidth = 1};
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
    VkPipeline pipe;
    CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, NULL, &pipe));
    return pipe;
}

/* ca_stage_pipeline creates the pipeline of stage: for CA_COMPUTE the
 * compute pipeline of DIR/PREFIX.comp.spv (*t zeroed); else *t =
 * ca_make_target() and the point pipeline whose vertex shader is
 * PREFIX.vert.spv for CA_VERTEX (PLAIN.vert.spv otherwise) and whose
 * fragment shader is PREFIX.frag.spv for CA_FRAGMENT (PLAIN.frag.spv
 * otherwise): only the stage under test runs the checked code. */
static inline VkPipeline ca_stage_pipeline(int stage, const char *dir, const char *prefix, const char *plain,
                                           VkPipelineLayout layout, target *t)
{
    char name[256];
    memset(t, 0, sizeof *t);
    if (stage == CA_COMPUTE) {
        snprintf(name, sizeof name, "%s.comp.spv", prefix);
        return ca_compute_pipeline(layout, ca_module(dir, name));
    }
    *t = ca_make_target();
    snprintf(name, sizeof name, "%s.vert.spv", stage == CA_VERTEX ? prefix : plain);
    VkShaderModule vert = ca_module(dir, name);
    snprintf(name, sizeof name, "%s.frag.spv", stage == CA_FRAGMENT ? prefix : plain);
    VkShaderModule frag = ca_module(dir, name);
    return ca_point_pipeline(layout, vert, frag, t->format);
}

/* ca_begin_rendering records the barrier of t's image into
 * COLOR_ATTACHMENT_OPTIMAL and begins dynamic rendering into it (cleared). */
static inline void ca_begin_rendering(VkCommandBuffer cmd, target t)
{
    VkImageMemoryBarrier ib = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = t.image, .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                         NULL, 0, NULL, 1, &ib);
    VkRenderingAttachmentInfo att = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = t.view,
        .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    };
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = {{0, 0}, {1, 1}},
                          .layerCount = 1, .colorAttachmentCount = 1, .pColorAttachments = &att};
    vkCmdBeginRendering(cmd, &ri);
}

/* ca_record_one records into cmd, for stage, one invocation of pipe: the
 * pipeline bound, the set (when not VK_NULL_HANDLE, with ndyn dynamic
 * offsets dyn) bound, pc_size bytes of push constants pc for all stages,
 * then a 1x1x1 dispatch or, inside dynamic rendering into t, one point. */
static inline void ca_record_one(VkCommandBuffer cmd, int stage, target t, VkPipeline pipe, VkPipelineLayout layout,
                                 VkDescriptorSet set, uint32_t ndyn, const uint32_t *dyn, const void *pc,
                                 uint32_t pc_size)
{
    VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    CHECK(vkBeginCommandBuffer(cmd, &begin));
    VkPipelineBindPoint bp = stage == CA_COMPUTE ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
    if (stage != CA_COMPUTE)
        ca_begin_rendering(cmd, t);
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

/* ca_command_buffers creates a command pool of family with flags and
 * allocates n primary command buffers from it into cbs. */
static inline VkCommandPool ca_command_buffers(VkCommandPoolCreateFlags flags, uint32_t n, VkCommandBuffer *cbs)
{
    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = flags,
                                    .queueFamilyIndex = family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = n};
    CHECK(vkAllocateCommandBuffers(dev, &cbai, cbs));
    return pool;
}

/* ca_name gives the object a debug-utils name (nothing without
 * VK_EXT_debug_utils). */
static inline void ca_name(VkObjectType type, uint64_t handle, const char *name)
{
    if (!have_utils)
        return;
    PFN_vkSetDebugUtilsObjectNameEXT set_name =
        (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(dev, "vkSetDebugUtilsObjectNameEXT");
    if (!set_name)
        return;
    VkDebugUtilsObjectNameInfoEXT ni = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                        .objectType = type, .objectHandle = handle, .pObjectName = name};
    set_name(dev, &ni);
}

/* ca_name_cmd_pipeline names the command buffer and the pipeline. */
static inline void ca_name_cmd_pipeline(VkCommandBuffer cmd, const char *cmd_name, VkPipeline pipe,
                                        const char *pipe_name)
{
    ca_name(VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)cmd, cmd_name);
    ca_name(VK_OBJECT_TYPE_PIPELINE, (uint64_t)pipe, pipe_name);
}

/* ca_submit_wait submits cmd to queue and waits for the queue to idle. */
static inline void ca_submit_wait(VkCommandBuffer cmd)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
    CHECK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    CHECK(vkQueueWaitIdle(queue));
}

#endif
