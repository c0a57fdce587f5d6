/*
 * multi: the layer tests' second Vulkan app, one mode per scenario. Its
 * shaders write through outs[idx], an array of 2 storage buffers, with idx
 * from a push constant: idx >= 2 is out of bounds. Each action gets its own
 * idx, so the test can tell the records of every action apart.
 *
 *   multi --mode MODE --comp FILE [--vert FILE --frag FILE] [options]
 *
 * Modes (compute shader: 4 invocations per dispatch):
 *   multi-cb      one submit of 3 primaries (2 VkSubmitInfos), idx 2, 3, 4
 *   resubmit      one command buffer (idx 3) submitted --submits N times;
 *                 --no-fence: without the app's fence (vkQueueWaitIdle)
 *   secondary     a primary with an in-bounds dispatch, then
 *                 vkCmdExecuteCommands of a secondary dispatching idx 5
 *   simultaneous  a SIMULTANEOUS_USE command buffer (idx 3) submitted twice,
 *                 the first held pending by a timeline semaphore
 *   threads       8 threads, each its own pool and command buffer (idx
 *                 2 + thread), re-recorded and submitted --submits N times
 *   messenger     idx 3 with a messenger from vkCreateInstance's pNext and
 *                 one from vkCreateDebugUtilsMessengerEXT; callbacks print
 *                 "callback A|B severity=... id=... objects=... name0=..."
 *   loop          --loops N times: instance, device, pipeline, one dispatch
 *                 (idx 3), destroy; prints the resident set size after loop
 *                 10, loop N/2 and the last: rss_kb_first, _mid, _last,
 *                 the same for open fds (fds_*) and threads (threads_*);
 *                 a failing call prints "multi: loop I: multi: CALL failed: R"
 *   clean         multi-cb with idx 0 and 1 only
 *   cache         a VkPipelineCache (initial data from --cache-in FILE, if
 *                 given) used to create the compute pipeline (cmd-0 then
 *                 dispatches idx 6); prints "cache_empty_bytes=E
 *                 cache_bytes=N merged_bytes=M" (an empty cache, the
 *                 cache after the pipeline, an empty cache merged with it)
 *                 and writes the cache data to --cache-out FILE
 *   appsettings   --app-setting KEY=0|1 (repeatable: a VkLayerSettingEXT of
 *                 type BOOL32 for this layer in vkCreateInstance's pNext),
 *                 --disable-shaders (VkValidationFeaturesEXT with
 *                 DISABLE_SHADERS); prints maxBoundDescriptorSets=N and
 *                 maxBoundDescriptorSets2=N (...Properties2), then
 *                 cmd-0 dispatches idx 3
 *   push          Vulkan 1.4 + VK_KHR_push_descriptor + maintenance6: 9
 *                 dispatches on cmd-0, one per way of providing set 0 (see
 *                 mode_push), each a descriptor_uninitialized on element
 *                 1, 0, 1...
 *   dispatches    cmd-0 in "compute": vkCmdDispatch (idx 2),
 *                 vkCmdDispatchIndirect of 2,1,1 groups (idx 3),
 *                 vkCmdDispatchBase with base group 1,0,0 ("base-compute",
 *                 idx 4): actions 0..2 (see mode_dispatches)
 *                 (--base-comp SPV: "base-compute" from SPV, default --comp)
 *   dispatches-readback  the same commands in bounds: prints the elements
 *                 of buffer 0 that vkCmdDispatchBase (base 1,0,0) wrote,
 *                 alone ("base_alone: 4 5 6 7" per the spec) and after
 *                 the other two ("base_after_indirect: ...")
 *   rebind        cmd-0 in "compute": 4100 in-bounds dispatches, each after
 *                 the app binds set 0 again, then set 0 bound with an
 *                 incompatible layout and again with the pipeline's, and a
 *                 dispatch with idx 4 (see mode_rebind)
 *   queues        2 queues named "queue-a" and "queue-b" (the second queue of
 *                 the graphics+compute family, else another compute
 *                 family): "cmd-a" (idx 3) submitted to queue-a, "cmd-b"
 *                 (idx 4) to queue-b, each with its own fence; with fewer
 *                 than 2 usable queues prints "unsupported queues", exits 0
 *   inline        VK_KHR_maintenance5: the compute pipeline is created with
 *                 no module, its code in a VkShaderModuleCreateInfo chained
 *                 after a VkDebugUtilsObjectNameInfoEXT ("inline-comp") in
 *                 the stage's pNext; cmd-0 dispatches idx 6
 * Modes (graphics, a 4x4 target: 16 fragments per draw):
 *   render        in "frame" > "dynamic" (vkCmdBeginRendering): vkCmdDraw,
 *                 DrawIndexed, DrawIndirect, DrawIndexedIndirect,
 *                 DrawIndirectCount, DrawIndexedIndirectCount with idx 2..7
 *                 (actions 0..5); in "frame" > "renderpass"
 *                 (vkCmdBeginRenderPass): vkCmdDraw with idx 8 (action 6)
 *   gpl           VK_EXT_graphics_pipeline_library: vertex-input,
 *                 pre-rasterization (--vert, module "gpl-vert"),
 *                 fragment-shader (--frag, module "gpl-frag") and
 *                 fragment-output libraries linked into "gpl-pipeline"; in
 *                 "frame" (vkCmdBeginRendering) vkCmdDraw with idx 3
 *                 (action 0)
 *   bench         --draws N vkCmdDraw in one render pass instance, timed;
 *                 prints ns_per_draw (best of 5 recordings); with
 *                 --bind-per-draw each draw follows a vkCmdBindDescriptorSets
 *                 of set 0 (the same set each time), with --push-per-draw a
 *                 vkCmdPushConstants of 4 bytes
 * Modes (VK_EXT_shader_object, compute shader object "oob-shader"):
 *   shaderobj     cmd-0 in "compute": the shader object with idx 3, the
 *                 pipeline with idx 4, the shader object with idx 5
 *                 (actions 0..2); then vkGetShaderBinaryDataEXT (prints
 *                 binary_bytes=N) and two shaders created from that binary
 *                 (prints binary_create=R for each)
 *   shaderobj-clean     the same with idx 0, 1, 0
 *   shaderobj-conflict  the shader made with min(maxBoundDescriptorSets, 33) set layouts (the set the
 *                 layer needs on lavapipe), idx 3, 1, 3
 *   shaderobj-render  (graphics, needs --vert/--frag) in "frame"
 *                 (vkCmdBeginRendering): vkCmdDraw with the vertex and
 *                 fragment shader objects "so-vert", "so-frag" and every
 *                 state dynamic, idx 3 (action 0); then "dyn-pipeline"
 *                 bound, idx 4 (action 1)
 *
 * Names: command buffers "cmd-N" (threads: "thread-N"), compute pipeline
 * "oob-compute", graphics "dyn-pipeline" / "rp-pipeline", the queue
 * "main-queue". Every VkResult is checked: a failure prints
 * "multi: <call> failed: <n>" and exits 1.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <dirent.h>

#include <vulkan/vulkan.h>

#include "../shaderobj.h" /* VK_EXT_shader_object for older headers */
#include "../vk14.h"      /* VK_EXT_layer_settings, maintenance6, 1.4 names */

static long g_loop = -1; /* mode loop: the iteration running, for failures */

#define CHECK(call)                                                                 \
    do {                                                                            \
        VkResult r_ = (call);                                                       \
        if (r_ != VK_SUCCESS) {                                                     \
            if (g_loop >= 0)                                                        \
                fprintf(stderr, "multi: loop %ld: ", g_loop);                       \
            fprintf(stderr, "multi: %s failed: %d\n", #call, (int)r_);              \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static const char *g_comp, *g_vert, *g_frag;
static const char *g_base_comp; /* --base-comp: the SPIR-V of "base-compute" (default --comp) */
static const char *g_cache_in, *g_cache_out;
static int g_maint5; /* enable VK_KHR_maintenance5 (mode inline) */
static int g_shaderobj; /* enable VK_EXT_shader_object (modes shaderobj*) */
static int g_push;      /* Vulkan 1.4, VK_KHR_push_descriptor + maintenance6 (mode push) */
static int g_gpl;       /* VK_EXT_graphics_pipeline_library (mode gpl) */
static int g_queues;    /* a second queue (mode queues) */
static const void *g_instance_next; /* extra vkCreateInstance pNext (mode appsettings) */

static uint32_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "multi: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "multi: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

/* ---- context ---------------------------------------------------------------- */

typedef struct ctx {
    VkInstance instance;
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    uint32_t family;
    VkQueue queue2;   /* mode queues: the second queue */
    uint32_t family2; /* and its family */
    VkBuffer bufs[2];
    VkDeviceMemory mems[2];
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    VkPipeline comp;
    PFN_vkSetDebugUtilsObjectNameEXT set_name;
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label;
    PFN_vkCmdEndDebugUtilsLabelEXT end_label;
} ctx;

static void name(ctx *c, VkObjectType type, uint64_t handle, const char *n)
{
    if (!c->set_name)
        return;
    VkDebugUtilsObjectNameInfoEXT ni = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = n,
    };
    CHECK(c->set_name(c->dev, &ni));
}

static void label(ctx *c, VkCommandBuffer cb, const char *n)
{
    if (!c->begin_label)
        return;
    VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = n};
    c->begin_label(cb, &l);
}

static void unlabel(ctx *c, VkCommandBuffer cb)
{
    if (c->end_label)
        c->end_label(cb);
}

static uint32_t find_memory(ctx *c, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(c->pd, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    fprintf(stderr, "multi: no memory type\n");
    exit(1);
}

static void make_buffer(ctx *c, VkDeviceSize size, VkBufferUsageFlags usage, VkBuffer *buf, VkDeviceMemory *mem,
                        const void *data)
{
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    CHECK(vkCreateBuffer(c->dev, &bci, NULL, buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(c->dev, *buf, &req);
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = find_memory(c, req.memoryTypeBits,
                                       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
    };
    CHECK(vkAllocateMemory(c->dev, &mai, NULL, mem));
    CHECK(vkBindBufferMemory(c->dev, *buf, *mem, 0));
    void *p;
    CHECK(vkMapMemory(c->dev, *mem, 0, VK_WHOLE_SIZE, 0, &p));
    memset(p, 0, size);
    if (data)
        memcpy(p, data, size);
    vkUnmapMemory(c->dev, *mem);
}

static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                 VkDebugUtilsMessageTypeFlagsEXT type,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *d, void *user)
{
    (void)type;
    printf("callback %s severity=0x%x id=%s objects=%u name0=%s: %s\n", (const char *)user, (unsigned)sev,
           d->pMessageIdName ? d->pMessageIdName : "", d->objectCount,
           d->objectCount > 0 && d->pObjects[0].pObjectName ? d->pObjects[0].pObjectName : "-", d->pMessage);
    fflush(stdout);
    return VK_FALSE;
}

/* ctx_init makes the instance (with a messenger in pNext when messenger),
 * the device with one queue, the buffers, the set and the compute
 * pipeline. */
static void ctx_init(ctx *c, int messenger, int graphics)
{
    memset(c, 0, sizeof *c);
    uint32_t next = 0;
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &next, NULL));
    VkExtensionProperties *exts = calloc(next, sizeof *exts);
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &next, exts));
    int have_utils = 0;
    for (uint32_t i = 0; i < next; i++)
        if (!strcmp(exts[i].extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            have_utils = 1;
    free(exts);
    if (messenger && !have_utils) {
        fprintf(stderr, "multi: no VK_EXT_debug_utils\n");
        exit(1);
    }
    const char *inst_exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = "A",
    };
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "multi",
                             .apiVersion = g_push ? VK_MAKE_API_VERSION(0, 1, 4, 0) : VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = messenger ? (const void *)&mci : g_instance_next,
        .pApplicationInfo = &app,
        .enabledExtensionCount = have_utils ? 1 : 0,
        .ppEnabledExtensionNames = inst_exts,
    };
    CHECK(vkCreateInstance(&ici, NULL, &c->instance));
    if (have_utils) {
        c->set_name = (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(c->instance, "vkSetDebugUtilsObjectNameEXT");
        c->begin_label = (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(c->instance, "vkCmdBeginDebugUtilsLabelEXT");
        c->end_label = (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(c->instance, "vkCmdEndDebugUtilsLabelEXT");
    }
    uint32_t npd = 1;
    VkResult er = vkEnumeratePhysicalDevices(c->instance, &npd, &c->pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0) {
        fprintf(stderr, "multi: no physical device\n");
        exit(1);
    }
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c->pd, &nq, NULL);
    VkQueueFamilyProperties *qf = calloc(nq, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(c->pd, &nq, qf);
    c->family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && c->family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && (qf[i].queueFlags & VK_QUEUE_GRAPHICS_BIT))
            c->family = i;
    if (c->family == UINT32_MAX) {
        fprintf(stderr, "multi: no graphics+compute queue\n");
        exit(1);
    }
    /* mode queues: the second queue of c->family, else queue 0 of another
     * compute family. */
    uint32_t nqci = 1, index2 = 0;
    c->family2 = UINT32_MAX;
    if (g_queues) {
        if (qf[c->family].queueCount >= 2) {
            c->family2 = c->family;
            index2 = 1;
        }
        for (uint32_t i = 0; i < nq && c->family2 == UINT32_MAX; i++)
            if (i != c->family && (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[i].queueCount > 0) {
                c->family2 = i;
                nqci = 2;
            }
    }
    free(qf);
    if (g_queues && c->family2 == UINT32_MAX) {
        printf("unsupported queues\n");
        vkDestroyInstance(c->instance, NULL);
        exit(0);
    }
    float prio[2] = {1.0f, 1.0f};
    VkDeviceQueueCreateInfo qcis[2] = {
        {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = c->family,
         .queueCount = g_queues && nqci == 1 ? 2 : 1, .pQueuePriorities = prio},
        {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = c->family2, .queueCount = 1,
         .pQueuePriorities = prio},
    };
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &f13, .drawIndirectCount = VK_TRUE, .timelineSemaphore = VK_TRUE};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    f2.features.fragmentStoresAndAtomics = graphics ? VK_TRUE : VK_FALSE;
    /* VK_KHR_maintenance5, spelled out: the system headers (1.3.239)
     * predate it. */
    struct {
        VkStructureType sType;
        void *pNext;
        VkBool32 maintenance5;
    } m5 = {.sType = (VkStructureType)1000470000, .maintenance5 = VK_TRUE};
    VkPhysicalDeviceShaderObjectFeaturesEXT so = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT,
                                                  .shaderObject = VK_TRUE};
    const char *dev_exts[] = {g_shaderobj ? VK_EXT_SHADER_OBJECT_EXTENSION_NAME : "VK_KHR_maintenance5"};
    if (g_maint5)
        f13.pNext = &m5;
    if (g_shaderobj)
        f13.pNext = &so;
    VkPhysicalDeviceMaintenance6FeaturesKHR m6 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR,
                                                  .maintenance6 = VK_TRUE};
    const char *push_exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, VK_KHR_MAINTENANCE_6_EXTENSION_NAME};
    if (g_push)
        f13.pNext = &m6;
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2, .queueCreateInfoCount = nqci,
                              .pQueueCreateInfos = qcis, .enabledExtensionCount = g_maint5 || g_shaderobj ? 1 : 0,
                              .ppEnabledExtensionNames = dev_exts};
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gplf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT,
        .graphicsPipelineLibrary = VK_TRUE};
    const char *gpl_exts[] = {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME};
    if (g_gpl) {
        f13.pNext = &gplf;
        dci.enabledExtensionCount = 2;
        dci.ppEnabledExtensionNames = gpl_exts;
    }
    if (g_push) {
        f12.runtimeDescriptorArray = VK_TRUE; /* push_runtime.comp */
        dci.enabledExtensionCount = 2;
        dci.ppEnabledExtensionNames = push_exts;
    }
    CHECK(vkCreateDevice(c->pd, &dci, NULL, &c->dev));
    vkGetDeviceQueue(c->dev, c->family, 0, &c->queue);
    name(c, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)c->queue, g_queues ? "queue-a" : "main-queue");
    if (g_queues) {
        vkGetDeviceQueue(c->dev, c->family2, index2, &c->queue2);
        name(c, VK_OBJECT_TYPE_QUEUE, (uint64_t)(uintptr_t)c->queue2, "queue-b");
    }

    for (int i = 0; i < 2; i++)
        make_buffer(c, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &c->bufs[i], &c->mems[i], NULL);
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 2,
                                      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT};
    VkDescriptorSetLayoutCreateInfo dlci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .bindingCount = 1, .pBindings = &b};
    CHECK(vkCreateDescriptorSetLayout(c->dev, &dlci, NULL, &c->dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &c->dsl, .pushConstantRangeCount = 1,
                                       .pPushConstantRanges = &pcr};
    CHECK(vkCreatePipelineLayout(c->dev, &plci, NULL, &c->layout));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = 1, .pPoolSizes = &ps};
    CHECK(vkCreateDescriptorPool(c->dev, &dpci, NULL, &c->dpool));
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = c->dpool, .descriptorSetCount = 1, .pSetLayouts = &c->dsl};
    CHECK(vkAllocateDescriptorSets(c->dev, &dsai, &c->set));
    VkDescriptorBufferInfo dbi[2] = {{c->bufs[0], 0, VK_WHOLE_SIZE}, {c->bufs[1], 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = c->set, .descriptorCount = 2,
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = dbi};
    vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);

    size_t size;
    uint32_t *code = read_file(g_comp, &size);
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                     .pCode = code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(c->dev, &smci, NULL, &module));
    free(code);
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module, .pName = "main"},
        .layout = c->layout,
    };
    CHECK(vkCreateComputePipelines(c->dev, VK_NULL_HANDLE, 1, &cpci, NULL, &c->comp));
    vkDestroyShaderModule(c->dev, module, NULL);
    name(c, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->comp, "oob-compute");
}

static void ctx_free(ctx *c)
{
    vkDestroyPipeline(c->dev, c->comp, NULL);
    vkDestroyDescriptorPool(c->dev, c->dpool, NULL);
    vkDestroyPipelineLayout(c->dev, c->layout, NULL);
    vkDestroyDescriptorSetLayout(c->dev, c->dsl, NULL);
    for (int i = 0; i < 2; i++) {
        vkDestroyBuffer(c->dev, c->bufs[i], NULL);
        vkFreeMemory(c->dev, c->mems[i], NULL);
    }
    vkDestroyDevice(c->dev, NULL);
    vkDestroyInstance(c->instance, NULL);
}

static VkCommandPool make_pool(ctx *c)
{
    VkCommandPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = c->family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(c->dev, &ci, NULL, &pool));
    return pool;
}

static VkCommandBuffer make_cb(ctx *c, VkCommandPool pool, VkCommandBufferLevel level, const char *n)
{
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                      .level = level, .commandBufferCount = 1};
    VkCommandBuffer cb;
    CHECK(vkAllocateCommandBuffers(c->dev, &ai, &cb));
    name(c, VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)cb, n);
    return cb;
}

static void begin(VkCommandBuffer cb, VkCommandBufferUsageFlags flags)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = flags};
    CHECK(vkBeginCommandBuffer(cb, &bi));
}

/* dispatch records one 4-invocation dispatch with idx, in label "compute". */
static void dispatch(ctx *c, VkCommandBuffer cb, uint32_t idx)
{
    label(c, cb, "compute");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &idx);
    vkCmdDispatch(cb, 1, 1, 1);
    unlabel(c, cb);
}

static VkFence make_fence(ctx *c)
{
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence f;
    CHECK(vkCreateFence(c->dev, &fci, NULL, &f));
    return f;
}

static void submit_wait(ctx *c, uint32_t n, const VkCommandBuffer *cbs, VkFence fence)
{
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = n, .pCommandBuffers = cbs};
    CHECK(vkQueueSubmit(c->queue, 1, &si, fence));
    if (fence) {
        CHECK(vkWaitForFences(c->dev, 1, &fence, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(c->dev, 1, &fence));
    } else {
        CHECK(vkQueueWaitIdle(c->queue));
    }
}

/* end_and_run ends cb, submits it with a fence of its own and waits. */
static void end_and_run(ctx *c, VkCommandBuffer cb)
{
    CHECK(vkEndCommandBuffer(cb));
    VkFence f = make_fence(c);
    submit_wait(c, 1, &cb, f);
    vkDestroyFence(c->dev, f, NULL);
}

static long rss_kb(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &pages, &rss) != 2) {
        fprintf(stderr, "multi: cannot read /proc/self/statm\n");
        exit(1);
    }
    fclose(f);
    return rss * 4;
}

/* ---- compute modes -------------------------------------------------------------- */

static void mode_multi_cb(ctx *c, int clean)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cbs[3];
    for (uint32_t i = 0; i < 3; i++) {
        char n[16];
        snprintf(n, sizeof n, "cmd-%u", i);
        cbs[i] = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, n);
        begin(cbs[i], 0);
        dispatch(c, cbs[i], clean ? i % 2 : 2 + i);
        CHECK(vkEndCommandBuffer(cbs[i]));
    }
    VkSubmitInfo si[2] = {
        {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 2, .pCommandBuffers = cbs},
        {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = cbs + 2},
    };
    VkFence f = make_fence(c);
    CHECK(vkQueueSubmit(c->queue, 2, si, f));
    CHECK(vkWaitForFences(c->dev, 1, &f, VK_TRUE, UINT64_MAX));
    vkDestroyFence(c->dev, f, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);
}

/* mode_queues: "cmd-a" (idx 3) on queue-a, "cmd-b" (idx 4) on queue-b,
 * each from a pool of its queue's family, both submitted, then waited. */
static void mode_queues(ctx *c)
{
    VkCommandPool pools[2] = {make_pool(c), VK_NULL_HANDLE};
    VkCommandPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = c->family2};
    CHECK(vkCreateCommandPool(c->dev, &ci, NULL, &pools[1]));
    VkQueue queues[2] = {c->queue, c->queue2};
    const char *names[2] = {"cmd-a", "cmd-b"};
    VkCommandBuffer cbs[2];
    VkFence fences[2];
    for (int i = 0; i < 2; i++) {
        cbs[i] = make_cb(c, pools[i], VK_COMMAND_BUFFER_LEVEL_PRIMARY, names[i]);
        begin(cbs[i], 0);
        dispatch(c, cbs[i], 3 + (uint32_t)i);
        CHECK(vkEndCommandBuffer(cbs[i]));
        fences[i] = make_fence(c);
    }
    for (int i = 0; i < 2; i++) {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cbs[i]};
        CHECK(vkQueueSubmit(queues[i], 1, &si, fences[i]));
    }
    CHECK(vkWaitForFences(c->dev, 2, fences, VK_TRUE, UINT64_MAX));
    for (int i = 0; i < 2; i++) {
        vkDestroyFence(c->dev, fences[i], NULL);
        vkDestroyCommandPool(c->dev, pools[i], NULL);
    }
}

static void mode_resubmit(ctx *c, uint32_t submits, int no_fence)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, 0);
    dispatch(c, cb, 3);
    CHECK(vkEndCommandBuffer(cb));
    VkFence f = no_fence ? VK_NULL_HANDLE : make_fence(c);
    for (uint32_t s = 0; s < submits; s++)
        submit_wait(c, 1, &cb, f);
    if (f)
        vkDestroyFence(c->dev, f, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);
}

static void mode_secondary(ctx *c)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    VkCommandBuffer sec = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY, "cmd-secondary");
    VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo sbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .pInheritanceInfo = &inh};
    CHECK(vkBeginCommandBuffer(sec, &sbi));
    dispatch(c, sec, 5);
    CHECK(vkEndCommandBuffer(sec));
    begin(cb, 0);
    dispatch(c, cb, 0); /* action 0 of the primary, in bounds */
    vkCmdExecuteCommands(cb, 1, &sec);
    end_and_run(c, cb);
    vkDestroyCommandPool(c->dev, pool, NULL);
}

/* make_comp replaces the compute pipeline by one made with cache, its
 * code given inline (maintenance5) when inl. */
static void make_comp(ctx *c, VkPipelineCache cache, int inl)
{
    vkDestroyPipeline(c->dev, c->comp, NULL);
    size_t size;
    uint32_t *code = read_file(g_comp, &size);
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                     .pCode = code};
    VkDebugUtilsObjectNameInfoEXT ni = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, .pNext = &smci,
                                        .objectType = VK_OBJECT_TYPE_SHADER_MODULE, .pObjectName = "inline-comp"};
    VkShaderModule module = VK_NULL_HANDLE;
    if (!inl)
        CHECK(vkCreateShaderModule(c->dev, &smci, NULL, &module));
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .pNext = inl ? &ni : NULL,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = module, .pName = "main"},
        .layout = c->layout,
    };
    CHECK(vkCreateComputePipelines(c->dev, cache, 1, &cpci, NULL, &c->comp));
    if (module)
        vkDestroyShaderModule(c->dev, module, NULL);
    free(code);
    name(c, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)c->comp, "oob-compute");
}

/* one_dispatch records idx on a new cmd-0 and runs it. */
static void one_dispatch(ctx *c, uint32_t idx)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, 0);
    dispatch(c, cb, idx);
    end_and_run(c, cb);
    vkDestroyCommandPool(c->dev, pool, NULL);
}

static size_t cache_size(ctx *c, VkPipelineCache cache)
{
    size_t n = 0;
    CHECK(vkGetPipelineCacheData(c->dev, cache, &n, NULL));
    return n;
}

static void mode_cache(ctx *c)
{
    VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache empty, merged, cache;
    CHECK(vkCreatePipelineCache(c->dev, &ci, NULL, &empty));
    CHECK(vkCreatePipelineCache(c->dev, &ci, NULL, &merged));
    size_t nin = 0;
    uint32_t *in = g_cache_in ? read_file(g_cache_in, &nin) : NULL;
    ci.initialDataSize = nin;
    ci.pInitialData = in;
    CHECK(vkCreatePipelineCache(c->dev, &ci, NULL, &cache));
    free(in);
    make_comp(c, cache, 0);
    CHECK(vkMergePipelineCaches(c->dev, merged, 1, &cache));
    size_t n = cache_size(c, cache);
    void *data = malloc(n ? n : 1);
    CHECK(vkGetPipelineCacheData(c->dev, cache, &n, data));
    if (g_cache_out) {
        FILE *f = fopen(g_cache_out, "wb");
        if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
            fprintf(stderr, "multi: cannot write %s\n", g_cache_out);
            exit(1);
        }
    }
    free(data);
    printf("cache_empty_bytes=%zu cache_bytes=%zu merged_bytes=%zu\n", cache_size(c, empty), n,
           cache_size(c, merged));
    one_dispatch(c, 6);
    vkDestroyPipelineCache(c->dev, cache, NULL);
    vkDestroyPipelineCache(c->dev, merged, NULL);
    vkDestroyPipelineCache(c->dev, empty, NULL);
}

static void mode_simultaneous(ctx *c)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
    dispatch(c, cb, 3);
    CHECK(vkEndCommandBuffer(cb));
    VkSemaphoreTypeCreateInfo tci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                     .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &tci};
    VkSemaphore sem;
    CHECK(vkCreateSemaphore(c->dev, &sci, NULL, &sem));
    uint64_t one = 1;
    VkTimelineSemaphoreSubmitInfo tsi = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                         .waitSemaphoreValueCount = 1, .pWaitSemaphoreValues = &one};
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo held = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tsi, .waitSemaphoreCount = 1,
                         .pWaitSemaphores = &sem, .pWaitDstStageMask = &stage, .commandBufferCount = 1,
                         .pCommandBuffers = &cb};
    CHECK(vkQueueSubmit(c->queue, 1, &held, VK_NULL_HANDLE));
    VkFence f = make_fence(c);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    CHECK(vkQueueSubmit(c->queue, 1, &si, f));
    VkSemaphoreSignalInfo ssi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = sem, .value = 1};
    CHECK(vkSignalSemaphore(c->dev, &ssi));
    CHECK(vkWaitForFences(c->dev, 1, &f, VK_TRUE, UINT64_MAX));
    CHECK(vkQueueWaitIdle(c->queue));
    vkDestroyFence(c->dev, f, NULL);
    vkDestroySemaphore(c->dev, sem, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);
}

typedef struct worker {
    ctx *c;
    uint32_t index, submits;
    pthread_mutex_t *queue_lock;
    pthread_barrier_t *done; /* no pool is destroyed before all are done: no handle is reused */
} worker;

static void *work(void *p)
{
    worker *w = p;
    ctx *c = w->c;
    VkCommandPool pool = make_pool(c);
    char n[16];
    snprintf(n, sizeof n, "thread-%u", w->index);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, n);
    VkFence f = make_fence(c);
    for (uint32_t s = 0; s < w->submits; s++) {
        /* Re-recorded each time: vkBeginCommandBuffer resets it. */
        begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        dispatch(c, cb, 2 + w->index);
        CHECK(vkEndCommandBuffer(cb));
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
        pthread_mutex_lock(w->queue_lock); /* the queue is externally synchronized */
        VkResult r = vkQueueSubmit(c->queue, 1, &si, f);
        pthread_mutex_unlock(w->queue_lock);
        CHECK(r);
        CHECK(vkWaitForFences(c->dev, 1, &f, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(c->dev, 1, &f));
    }
    pthread_barrier_wait(w->done);
    vkDestroyFence(c->dev, f, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);
    return NULL;
}

static void mode_threads(ctx *c, uint32_t submits)
{
    enum { N = 8 };
    pthread_t th[N];
    worker w[N];
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_barrier_t done;
    pthread_barrier_init(&done, NULL, N);
    for (uint32_t i = 0; i < N; i++) {
        w[i] = (worker){c, i, submits, &lock, &done};
        if (pthread_create(&th[i], NULL, work, &w[i]) != 0) {
            fprintf(stderr, "multi: pthread_create failed\n");
            exit(1);
        }
    }
    for (uint32_t i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    pthread_barrier_destroy(&done);
}

static void mode_messenger(ctx *c)
{
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->instance, "vkCreateDebugUtilsMessengerEXT");
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->instance, "vkDestroyDebugUtilsMessengerEXT");
    if (!create || !destroy) {
        fprintf(stderr, "multi: no vkCreateDebugUtilsMessengerEXT\n");
        exit(1);
    }
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = "B",
    };
    VkDebugUtilsMessengerEXT m;
    CHECK(create(c->instance, &mci, NULL, &m));
    mode_resubmit(c, 1, 0);
    destroy(c->instance, m, NULL);
    mode_resubmit(c, 1, 0); /* only A hears of this one */
}

/* open_fds counts the process's open file descriptors. */
static long open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    long n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n - 1; /* the directory's own */
}

/* threads counts the process's threads (/proc/self/status). */
static long threads(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long n = -1;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "Threads:", 8))
            n = atol(line + 8);
    if (f)
        fclose(f);
    return n;
}

static void mode_loop(uint32_t loops)
{
    long first = 0, mid = 0, last = 0, fds[3] = {0}, thr[3] = {0};
    for (uint32_t i = 0; i < loops; i++) {
        g_loop = i; /* a failing call names its iteration */
        ctx c;
        ctx_init(&c, 0, 0);
        mode_resubmit(&c, 1, 0);
        ctx_free(&c);
        if (i == 9) {
            first = rss_kb();
            fds[0] = open_fds();
            thr[0] = threads();
        }
        if (i == loops / 2) {
            mid = rss_kb();
            fds[1] = open_fds();
            thr[1] = threads();
        }
        last = rss_kb();
        fds[2] = open_fds();
        thr[2] = threads();
    }
    g_loop = -1;
    printf("rss_kb_first=%ld\nrss_kb_mid=%ld\nrss_kb_last=%ld\n", first, mid, last);
    printf("fds_first=%ld\nfds_mid=%ld\nfds_last=%ld\n", fds[0], fds[1], fds[2]);
    printf("threads_first=%ld\nthreads_mid=%ld\nthreads_last=%ld\n", thr[0], thr[1], thr[2]);
}

/* ---- settings from the app (VK_EXT_layer_settings, VkValidationFeaturesEXT) ---- */

/* mode_appsettings prints maxBoundDescriptorSets as the app sees it, then
 * dispatches idx 3 on cmd-0. */
static void mode_appsettings(ctx *c)
{
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(c->pd, &props);
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    vkGetPhysicalDeviceProperties2(c->pd, &p2);
    printf("maxBoundDescriptorSets=%u\nmaxBoundDescriptorSets2=%u\n", props.limits.maxBoundDescriptorSets,
           p2.properties.limits.maxBoundDescriptorSets);
    one_dispatch(c, 3);
}

/* ---- the dispatch commands ---------------------------------------------------- */

/* mode_dispatches records, on cmd-0 in "compute", one action per dispatch
 * command, each out of bounds with its own idx:
 *   action 0  vkCmdDispatch(1,1,1), "oob-compute", idx 2: x 0..3
 *   action 1  vkCmdDispatchIndirect at offset 16 of a buffer holding
 *             {0,0,0,0, 2,1,1}, "oob-compute", idx 3: x 0..7
 *   action 2  vkCmdDispatchBase(base 1,0,0; 1,1,1), "base-compute" (made
 *             with VK_PIPELINE_CREATE_DISPATCH_BASE_BIT), idx 4: x 4..7
 * (the storage buffers hold 16 uints: x 0..7 are in bounds of them). The
 * indirect dispatch comes before the based one: lavapipe (Mesa 25) keeps
 * the base group of a vkCmdDispatchBase for a following
 * vkCmdDispatchIndirect (x 4..11 instead of 0..7), a driver bug. */
/* make_base_pipeline creates "base-compute": the compute shader with
 * VK_PIPELINE_CREATE_DISPATCH_BASE_BIT, for vkCmdDispatchBase. */
static VkPipeline make_base_pipeline(ctx *c)
{
    size_t size;
    uint32_t *code = read_file(g_base_comp ? g_base_comp : g_comp, &size);
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                     .pCode = code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(c->dev, &smci, NULL, &module));
    free(code);
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module, .pName = "main"},
        .layout = c->layout,
    };
    VkPipeline base;
    CHECK(vkCreateComputePipelines(c->dev, VK_NULL_HANDLE, 1, &cpci, NULL, &base));
    vkDestroyShaderModule(c->dev, module, NULL);
    name(c, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)base, "base-compute");
    return base;
}

/* record_dispatches records the three dispatch commands of mode_dispatches
 * with the given idx each (see there), in label "compute". */
static void record_dispatches(ctx *c, VkCommandBuffer cb, VkPipeline base, VkBuffer ibuf, const uint32_t idx[3])
{
    label(c, cb, "compute");
    VkShaderStageFlags pcs = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    vkCmdPushConstants(cb, c->layout, pcs, 0, 4, &idx[0]);
    vkCmdDispatch(cb, 1, 1, 1);
    vkCmdPushConstants(cb, c->layout, pcs, 0, 4, &idx[1]);
    vkCmdDispatchIndirect(cb, ibuf, 16);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, base);
    vkCmdPushConstants(cb, c->layout, pcs, 0, 4, &idx[2]);
    vkCmdDispatchBase(cb, 1, 0, 0, 1, 1, 1);
    unlabel(c, cb);
}

/* print_written prints "WHAT: i i ..." for the elements of storage buffer
 * b that a dispatch wrote (v[i] = 3i; the buffer was filled with ~0), then
 * fills it with ~0 again. WHAT NULL: only the filling. */
static void print_written(ctx *c, uint32_t b, const char *what)
{
    uint32_t *p;
    CHECK(vkMapMemory(c->dev, c->mems[b], 0, VK_WHOLE_SIZE, 0, (void **)&p));
    if (what) {
        printf("%s:", what);
        for (uint32_t i = 0; i < 16; i++)
            if (p[i] != ~0u)
                printf(" %u", i);
        printf("\n");
    }
    memset(p, 0xff, 64);
    vkUnmapMemory(c->dev, c->mems[b]);
}

static void mode_dispatches(ctx *c, int readback)
{
    VkPipeline base = make_base_pipeline(c);
    const uint32_t args[7] = {0, 0, 0, 0, 2, 1, 1};
    VkBuffer ibuf;
    VkDeviceMemory imem;
    make_buffer(c, sizeof args, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &ibuf, &imem, args);

    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    VkFence f = make_fence(c);
    if (!readback) {
        begin(cb, 0);
        record_dispatches(c, cb, base, ibuf, (const uint32_t[3]){2, 3, 4});
        CHECK(vkEndCommandBuffer(cb));
        submit_wait(c, 1, &cb, f);
    } else {
        /* In bounds: the based dispatch alone, then after the others
         * (which write buffer 1), each writing buffer 0. */
        print_written(c, 0, NULL);
        print_written(c, 1, NULL);
        VkShaderStageFlags pcs = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
        uint32_t zero = 0;
        begin(cb, 0);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, base);
        vkCmdPushConstants(cb, c->layout, pcs, 0, 4, &zero);
        vkCmdDispatchBase(cb, 1, 0, 0, 1, 1, 1);
        CHECK(vkEndCommandBuffer(cb));
        submit_wait(c, 1, &cb, f);
        print_written(c, 0, "base_alone");
        CHECK(vkResetCommandBuffer(cb, 0));
        begin(cb, 0);
        record_dispatches(c, cb, base, ibuf, (const uint32_t[3]){1, 1, 0});
        CHECK(vkEndCommandBuffer(cb));
        submit_wait(c, 1, &cb, f);
        print_written(c, 0, "base_after_indirect");
        print_written(c, 1, "dispatch_and_indirect");
    }
    vkDestroyFence(c->dev, f, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);
    vkDestroyBuffer(c->dev, ibuf, NULL);
    vkFreeMemory(c->dev, imem, NULL);
    vkDestroyPipeline(c->dev, base, NULL);
}

/* ---- binds that keep or disturb the layer's set ---------------------------------- */

/* mode_rebind records, on cmd-0 in "compute", 4100 in-bounds dispatches of
 * "oob-compute" (idx 0 and 1 in turn), each after the app binds set 0
 * again with the pipeline's layout: past the last action slot (4095) the
 * layer's set stays bound. Then set 0 is bound with "other-layout" (one
 * storage buffer: not compatible for set 0, so every higher set is
 * disturbed), set 0 again with the pipeline's layout, and a dispatch with
 * idx 4 (action 4100, reported as the last action slot, 4095): the layer
 * must bind its set again for it. */
static void mode_rebind(ctx *c)
{
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayoutCreateInfo dlci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .bindingCount = 1, .pBindings = &b};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(c->dev, &dlci, NULL, &dsl));
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &dsl};
    VkPipelineLayout other;
    CHECK(vkCreatePipelineLayout(c->dev, &plci, NULL, &other));
    name(c, VK_OBJECT_TYPE_PIPELINE_LAYOUT, (uint64_t)(uintptr_t)other, "other-layout");
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = 1, .pPoolSizes = &ps};
    VkDescriptorPool pool;
    CHECK(vkCreateDescriptorPool(c->dev, &dpci, NULL, &pool));
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &dsl};
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(c->dev, &dsai, &set));
    VkDescriptorBufferInfo dbi = {c->bufs[0], 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 1,
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi};
    vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);

    VkCommandPool cpool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    VkShaderStageFlags pcs = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    begin(cb, 0);
    label(c, cb, "compute");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    for (uint32_t i = 0; i < 4100; i++) {
        uint32_t idx = i % 2;
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
        vkCmdPushConstants(cb, c->layout, pcs, 0, 4, &idx);
        vkCmdDispatch(cb, 1, 1, 1);
    }
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, other, 0, 1, &set, 0, NULL);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    uint32_t idx = 4;
    vkCmdPushConstants(cb, c->layout, pcs, 0, 4, &idx);
    vkCmdDispatch(cb, 1, 1, 1);
    unlabel(c, cb);
    end_and_run(c, cb);
    vkDestroyCommandPool(c->dev, cpool, NULL);
    vkDestroyDescriptorPool(c->dev, pool, NULL);
    vkDestroyPipelineLayout(c->dev, other, NULL);
    vkDestroyDescriptorSetLayout(c->dev, dsl, NULL);
}

/* ---- push descriptors: Vulkan 1.4 and VK_KHR_maintenance6 entry points --------- */

/* mode_push records, on cmd-0 in "compute", 9 dispatches of "push-compute"
 * (a push-descriptor layout) and "oob-compute", each after one way of
 * providing set 0 that writes (or binds a set with) only element e of the
 * 2-element array, e alternating 0, 1, 0...; the dispatch reads element
 * 1 - e, never written: a descriptor_uninitialized record per action that
 * the layer can only report if it followed that entry point (else it
 * still sees the previous action's set, whose other element is written).
 * Actions: 0 vkCmdPushDescriptorSetKHR, 1 vkCmdPushDescriptorSet,
 * 2 vkCmdPushDescriptorSet2KHR, 3 vkCmdPushDescriptorSet2,
 * 4 vkCmdPushDescriptorSetWithTemplate, 5 ...WithTemplate2KHR,
 * 6 ...WithTemplate2, 7 vkCmdBindDescriptorSets2KHR, 8 vkCmdBindDescriptorSets2. */
static void mode_push(ctx *c)
{
#define LOAD(T, n)                                                   \
    T n = (T)vkGetDeviceProcAddr(c->dev, "vk" #n);                   \
    if (!n) {                                                        \
        fprintf(stderr, "multi: no vk" #n "\n");                     \
        exit(1);                                                     \
    }
    LOAD(PFN_vkCmdPushDescriptorSetKHR, CmdPushDescriptorSetKHR)
    LOAD(PFN_vkCmdPushDescriptorSet, CmdPushDescriptorSet)
    LOAD(PFN_vkCmdPushDescriptorSet2KHR, CmdPushDescriptorSet2KHR)
    LOAD(PFN_vkCmdPushDescriptorSet2, CmdPushDescriptorSet2)
    LOAD(PFN_vkCmdPushDescriptorSetWithTemplate, CmdPushDescriptorSetWithTemplate)
    LOAD(PFN_vkCmdPushDescriptorSetWithTemplate2KHR, CmdPushDescriptorSetWithTemplate2KHR)
    LOAD(PFN_vkCmdPushDescriptorSetWithTemplate2, CmdPushDescriptorSetWithTemplate2)
    LOAD(PFN_vkCmdBindDescriptorSets2KHR, CmdBindDescriptorSets2KHR)
    LOAD(PFN_vkCmdBindDescriptorSets2, CmdBindDescriptorSets2)
#undef LOAD
    const VkShaderStageFlags stages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 2, .stageFlags = stages};
    VkDescriptorSetLayoutCreateInfo dlci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                            .bindingCount = 1, .pBindings = &b};
    VkDescriptorSetLayout pdsl;
    CHECK(vkCreateDescriptorSetLayout(c->dev, &dlci, NULL, &pdsl));
    VkPushConstantRange pcr = {stages, 0, 4};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &pdsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr};
    VkPipelineLayout pl;
    CHECK(vkCreatePipelineLayout(c->dev, &plci, NULL, &pl));
    size_t size;
    uint32_t *code = read_file(g_comp, &size);
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                     .pCode = code};
    VkShaderModule module;
    CHECK(vkCreateShaderModule(c->dev, &smci, NULL, &module));
    free(code);
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = module, .pName = "main"},
        .layout = pl,
    };
    VkPipeline pp;
    CHECK(vkCreateComputePipelines(c->dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pp));
    vkDestroyShaderModule(c->dev, module, NULL);
    name(c, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)pp, "push-compute");

    /* Two sets of the app's layout: set e has only element e written. */
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 2,
                                       .poolSizeCount = 1, .pPoolSizes = &ps};
    VkDescriptorPool dpool;
    CHECK(vkCreateDescriptorPool(c->dev, &dpci, NULL, &dpool));
    VkDescriptorSetLayout two[2] = {c->dsl, c->dsl};
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = dpool, .descriptorSetCount = 2, .pSetLayouts = two};
    VkDescriptorSet sets[2];
    CHECK(vkAllocateDescriptorSets(c->dev, &dsai, sets));
    VkDescriptorBufferInfo dbi[2] = {{c->bufs[0], 0, VK_WHOLE_SIZE}, {c->bufs[1], 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[2];
    for (uint32_t e = 0; e < 2; e++) {
        w[e] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[e],
                                      .dstArrayElement = e, .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi[e]};
    }
    vkUpdateDescriptorSets(c->dev, 2, w, 0, NULL);
    for (uint32_t e = 0; e < 2; e++)
        w[e].dstSet = VK_NULL_HANDLE; /* the same writes, pushed */

    VkDescriptorUpdateTemplate tmpl[2];
    for (uint32_t e = 0; e < 2; e++) {
        VkDescriptorUpdateTemplateEntry ent = {.dstBinding = 0, .dstArrayElement = e, .descriptorCount = 1,
                                               .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .offset = 0,
                                               .stride = sizeof(VkDescriptorBufferInfo)};
        VkDescriptorUpdateTemplateCreateInfo tci = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO, .descriptorUpdateEntryCount = 1,
            .pDescriptorUpdateEntries = &ent, .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
            .pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE, .pipelineLayout = pl, .set = 0};
        CHECK(vkCreateDescriptorUpdateTemplate(c->dev, &tci, NULL, &tmpl[e]));
    }

    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, 0);
    label(c, cb, "compute");
    for (uint32_t a = 0; a < 9; a++) {
        uint32_t e = a % 2, idx = 1 - e;
        VkPipelineLayout layout = a < 7 ? pl : c->layout;
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, a < 7 ? pp : c->comp);
        VkPushDescriptorSetInfoKHR pi = {.sType = VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_INFO_KHR,
                                         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .layout = pl, .set = 0,
                                         .descriptorWriteCount = 1, .pDescriptorWrites = &w[e]};
        VkPushDescriptorSetWithTemplateInfoKHR ti = {
            .sType = VK_STRUCTURE_TYPE_PUSH_DESCRIPTOR_SET_WITH_TEMPLATE_INFO_KHR,
            .descriptorUpdateTemplate = tmpl[e], .layout = pl, .set = 0, .pData = &dbi[e]};
        VkBindDescriptorSetsInfoKHR bi = {.sType = VK_STRUCTURE_TYPE_BIND_DESCRIPTOR_SETS_INFO_KHR,
                                          .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .layout = c->layout,
                                          .firstSet = 0, .descriptorSetCount = 1, .pDescriptorSets = &sets[e]};
        switch (a) {
        case 0: CmdPushDescriptorSetKHR(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &w[e]); break;
        case 1: CmdPushDescriptorSet(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &w[e]); break;
        case 2: CmdPushDescriptorSet2KHR(cb, &pi); break;
        case 3: CmdPushDescriptorSet2(cb, &pi); break;
        case 4: CmdPushDescriptorSetWithTemplate(cb, tmpl[e], pl, 0, &dbi[e]); break;
        case 5: CmdPushDescriptorSetWithTemplate2KHR(cb, &ti); break;
        case 6: CmdPushDescriptorSetWithTemplate2(cb, &ti); break;
        case 7: CmdBindDescriptorSets2KHR(cb, &bi); break;
        case 8: CmdBindDescriptorSets2(cb, &bi); break;
        }
        vkCmdPushConstants(cb, layout, stages, 0, 4, &idx);
        vkCmdDispatch(cb, 1, 1, 1);
    }
    unlabel(c, cb);
    end_and_run(c, cb);
    vkDestroyCommandPool(c->dev, pool, NULL);
    for (uint32_t e = 0; e < 2; e++)
        vkDestroyDescriptorUpdateTemplate(c->dev, tmpl[e], NULL);
    vkDestroyDescriptorPool(c->dev, dpool, NULL);
    vkDestroyPipeline(c->dev, pp, NULL);
    vkDestroyPipelineLayout(c->dev, pl, NULL);
    vkDestroyDescriptorSetLayout(c->dev, pdsl, NULL);
}

/* ---- shader objects (VK_EXT_shader_object) -------------------------------------- */

typedef struct so_fns {
    PFN_vkCreateShadersEXT create;
    PFN_vkDestroyShaderEXT destroy;
    PFN_vkGetShaderBinaryDataEXT binary;
    PFN_vkCmdBindShadersEXT bind;
} so_fns;

static so_fns so_load(ctx *c)
{
    so_fns f = {
        .create = (PFN_vkCreateShadersEXT)vkGetDeviceProcAddr(c->dev, "vkCreateShadersEXT"),
        .destroy = (PFN_vkDestroyShaderEXT)vkGetDeviceProcAddr(c->dev, "vkDestroyShaderEXT"),
        .binary = (PFN_vkGetShaderBinaryDataEXT)vkGetDeviceProcAddr(c->dev, "vkGetShaderBinaryDataEXT"),
        .bind = (PFN_vkCmdBindShadersEXT)vkGetDeviceProcAddr(c->dev, "vkCmdBindShadersEXT"),
    };
    if (!f.create || !f.destroy || !f.binary || !f.bind) {
        fprintf(stderr, "multi: no VK_EXT_shader_object entry points\n");
        exit(1);
    }
    return f;
}

/* so_compute makes a compute shader object of --comp with nsets set
 * layouts (all the app's), the push-constant range of the app's layout. */
static VkShaderEXT so_compute(ctx *c, const so_fns *f, uint32_t nsets, const char *n)
{
    size_t size;
    uint32_t *code = read_file(g_comp, &size);
    VkDescriptorSetLayout sets[33];
    for (uint32_t i = 0; i < nsets; i++)
        sets[i] = c->dsl;
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
    VkShaderCreateInfoEXT ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT,
        .stage = VK_SHADER_STAGE_COMPUTE_BIT,
        .codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT,
        .codeSize = size,
        .pCode = code,
        .pName = "main",
        .setLayoutCount = nsets,
        .pSetLayouts = sets,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VkShaderEXT s;
    CHECK(f->create(c->dev, 1, &ci, NULL, &s));
    free(code);
    name(c, VK_OBJECT_TYPE_SHADER_EXT, (uint64_t)s, n);
    return s;
}

/* so_dispatch records one 4-invocation dispatch with idx, the shader
 * object s bound (or the compute pipeline, with s VK_NULL_HANDLE). */
static void so_dispatch(ctx *c, const so_fns *f, VkCommandBuffer cb, VkShaderEXT s, uint32_t idx)
{
    VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
    if (s)
        f->bind(cb, 1, &stage, &s);
    else
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &idx);
    vkCmdDispatch(cb, 1, 1, 1);
}

/* mode_shaderobj: cmd-0, in label "compute", dispatches with the shader
 * object "oob-shader" (idx[0]), the pipeline "oob-compute" (idx[1]), the
 * shader object again (idx[2]). nsets: the shader's set-layout count.
 * Then it reads the shader's binary data, prints binary_bytes=N, and
 * creates two shaders from it (binary code) in two calls. */
static void mode_shaderobj(ctx *c, uint32_t nsets, const uint32_t idx[3])
{
    so_fns f = so_load(c);
    VkShaderEXT s = so_compute(c, &f, nsets, "oob-shader");
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, 0);
    label(c, cb, "compute");
    so_dispatch(c, &f, cb, s, idx[0]);
    so_dispatch(c, &f, cb, VK_NULL_HANDLE, idx[1]);
    so_dispatch(c, &f, cb, s, idx[2]);
    unlabel(c, cb);
    CHECK(vkEndCommandBuffer(cb));
    VkFence fence = make_fence(c);
    submit_wait(c, 1, &cb, fence);
    vkDestroyFence(c->dev, fence, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);

    size_t size = 0;
    CHECK(f.binary(c->dev, s, &size, NULL));
    void *data = malloc(size ? size : 1);
    if (!data) {
        fprintf(stderr, "multi: out of memory\n");
        exit(1);
    }
    CHECK(f.binary(c->dev, s, &size, data));
    printf("binary_bytes=%zu\n", size);
    VkDescriptorSetLayout sets[33];
    for (uint32_t i = 0; i < nsets; i++)
        sets[i] = c->dsl;
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
    for (int k = 0; k < 2; k++) {
        VkShaderCreateInfoEXT bci = {
            .sType = VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .codeType = VK_SHADER_CODE_TYPE_BINARY_EXT,
            .codeSize = size,
            .pCode = data,
            .pName = "main",
            .setLayoutCount = nsets,
            .pSetLayouts = sets,
            .pushConstantRangeCount = 1,
            .pPushConstantRanges = &pcr,
        };
        VkShaderEXT b = VK_NULL_HANDLE;
        VkResult r = f.create(c->dev, 1, &bci, NULL, &b);
        printf("binary_create=%d\n", (int)r);
        if (b)
            f.destroy(c->dev, b, NULL);
    }
    free(data);
    f.destroy(c->dev, s, NULL);
}

/* ---- graphics modes ----------------------------------------------------------- */

typedef struct gfx {
    VkImage image;
    VkDeviceMemory image_mem;
    VkImageView view;
    VkRenderPass pass;
    VkFramebuffer fb;
    VkPipeline dyn, rp;
    VkBuffer index, indirect, indexed_indirect, count;
    VkDeviceMemory index_mem, indirect_mem, indexed_indirect_mem, count_mem;
} gfx;

static VkShaderModule load_module(ctx *c, const char *path)
{
    size_t size;
    uint32_t *code = read_file(path, &size);
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size, .pCode = code};
    VkShaderModule m;
    CHECK(vkCreateShaderModule(c->dev, &ci, NULL, &m));
    free(code);
    return m;
}

/* fixed_state is the fixed-function state of the test pipelines: no
 * vertex input, triangle lists, a 4x4 viewport, no culling, one sample, no
 * depth test, one colour attachment written without blending. */
typedef struct fixed_state {
    VkPipelineVertexInputStateCreateInfo vi;
    VkPipelineInputAssemblyStateCreateInfo ia;
    VkViewport vp;
    VkRect2D sc;
    VkPipelineViewportStateCreateInfo vps;
    VkPipelineRasterizationStateCreateInfo rs;
    VkPipelineMultisampleStateCreateInfo ms;
    VkPipelineDepthStencilStateCreateInfo ds;
    VkPipelineColorBlendAttachmentState cba;
    VkPipelineColorBlendStateCreateInfo cb;
} fixed_state;

/* fixed_state_init fills *s in place (its structures point into it). */
static void fixed_state_init(fixed_state *s)
{
    *s = (fixed_state){
        .vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO},
        .ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
               .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST},
        .vp = {0, 0, 4, 4, 0, 1},
        .sc = {{0, 0}, {4, 4}},
        .rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, .cullMode = VK_CULL_MODE_NONE,
               .lineWidth = 1},
        .ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
               .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT},
        .ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO},
        .cba = {.colorWriteMask = 0xf},
    };
    s->vps = (VkPipelineViewportStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                                 .viewportCount = 1, .pViewports = &s->vp, .scissorCount = 1,
                                                 .pScissors = &s->sc};
    s->cb = (VkPipelineColorBlendStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                  .attachmentCount = 1, .pAttachments = &s->cba};
}

static VkPipeline make_gfx_pipeline(ctx *c, VkRenderPass pass, const char *n)
{
    VkShaderModule vs = load_module(c, g_vert), fs = load_module(c, g_frag);
    VkPipelineShaderStageCreateInfo stages[2] = {
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs,
         .pName = "main"},
        {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
         .module = fs, .pName = "main"},
    };
    fixed_state fx;
    fixed_state_init(&fx);
    VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                         .colorAttachmentCount = 1, .pColorAttachmentFormats = &fmt};
    VkGraphicsPipelineCreateInfo gci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = pass ? NULL : &rci,
        .stageCount = 2,
        .pStages = stages,
        .pVertexInputState = &fx.vi,
        .pInputAssemblyState = &fx.ia,
        .pViewportState = &fx.vps,
        .pRasterizationState = &fx.rs,
        .pMultisampleState = &fx.ms,
        .pColorBlendState = &fx.cb,
        .layout = c->layout,
        .renderPass = pass,
    };
    VkPipeline p;
    CHECK(vkCreateGraphicsPipelines(c->dev, VK_NULL_HANDLE, 1, &gci, NULL, &p));
    vkDestroyShaderModule(c->dev, vs, NULL);
    vkDestroyShaderModule(c->dev, fs, NULL);
    name(c, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)p, n);
    return p;
}

static void gfx_init(ctx *c, gfx *g)
{
    memset(g, 0, sizeof *g);
    VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D,
                             .format = VK_FORMAT_R8G8B8A8_UNORM, .extent = {4, 4, 1}, .mipLevels = 1,
                             .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT, .tiling = VK_IMAGE_TILING_OPTIMAL,
                             .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT};
    CHECK(vkCreateImage(c->dev, &ici, NULL, &g->image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(c->dev, g->image, &req);
    VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                .memoryTypeIndex = find_memory(c, req.memoryTypeBits, 0)};
    CHECK(vkAllocateMemory(c->dev, &mai, NULL, &g->image_mem));
    CHECK(vkBindImageMemory(c->dev, g->image, g->image_mem, 0));
    VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = g->image,
                                 .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                 .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    CHECK(vkCreateImageView(c->dev, &vci, NULL, &g->view));
    VkAttachmentDescription ad = {.format = VK_FORMAT_R8G8B8A8_UNORM, .samples = VK_SAMPLE_COUNT_1_BIT,
                                  .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR, .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
                                  .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                  .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                                  .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED, .finalLayout = VK_IMAGE_LAYOUT_GENERAL};
    VkAttachmentReference ar = {0, VK_IMAGE_LAYOUT_GENERAL};
    VkSubpassDescription sd = {.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS, .colorAttachmentCount = 1,
                               .pColorAttachments = &ar};
    VkRenderPassCreateInfo rpci = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO, .attachmentCount = 1,
                                   .pAttachments = &ad, .subpassCount = 1, .pSubpasses = &sd};
    CHECK(vkCreateRenderPass(c->dev, &rpci, NULL, &g->pass));
    VkFramebufferCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, .renderPass = g->pass,
                                   .attachmentCount = 1, .pAttachments = &g->view, .width = 4, .height = 4,
                                   .layers = 1};
    CHECK(vkCreateFramebuffer(c->dev, &fci, NULL, &g->fb));
    g->dyn = make_gfx_pipeline(c, VK_NULL_HANDLE, "dyn-pipeline");
    g->rp = make_gfx_pipeline(c, g->pass, "rp-pipeline");
    uint32_t idx[3] = {0, 1, 2};
    VkDrawIndirectCommand di = {3, 1, 0, 0};
    VkDrawIndexedIndirectCommand dii = {3, 1, 0, 0, 0};
    uint32_t count = 1;
    make_buffer(c, sizeof idx, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &g->index, &g->index_mem, idx);
    make_buffer(c, sizeof di, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &g->indirect, &g->indirect_mem, &di);
    make_buffer(c, sizeof dii, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &g->indexed_indirect, &g->indexed_indirect_mem,
                &dii);
    make_buffer(c, sizeof count, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &g->count, &g->count_mem, &count);
}

static void gfx_free(ctx *c, gfx *g)
{
    vkDestroyPipeline(c->dev, g->dyn, NULL);
    vkDestroyPipeline(c->dev, g->rp, NULL);
    vkDestroyFramebuffer(c->dev, g->fb, NULL);
    vkDestroyRenderPass(c->dev, g->pass, NULL);
    vkDestroyImageView(c->dev, g->view, NULL);
    vkDestroyImage(c->dev, g->image, NULL);
    vkFreeMemory(c->dev, g->image_mem, NULL);
    VkBuffer bs[4] = {g->index, g->indirect, g->indexed_indirect, g->count};
    VkDeviceMemory ms[4] = {g->index_mem, g->indirect_mem, g->indexed_indirect_mem, g->count_mem};
    for (int i = 0; i < 4; i++) {
        vkDestroyBuffer(c->dev, bs[i], NULL);
        vkFreeMemory(c->dev, ms[i], NULL);
    }
}

static void push(ctx *c, VkCommandBuffer cb, uint32_t idx)
{
    vkCmdPushConstants(cb, c->layout, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &idx);
}

static void begin_dynamic(ctx *c, gfx *g, VkCommandBuffer cb)
{
    VkImageMemoryBarrier ib = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
                               .dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = g->image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0,
                         NULL, 0, NULL, 1, &ib);
    VkRenderingAttachmentInfo att = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO, .imageView = g->view,
                                     .imageLayout = VK_IMAGE_LAYOUT_GENERAL, .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO, .renderArea = {{0, 0}, {4, 4}}, .layerCount = 1,
                          .colorAttachmentCount = 1, .pColorAttachments = &att};
    vkCmdBeginRendering(cb, &ri);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, g->dyn);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set, 0, NULL);
    (void)c;
}

static void mode_render(ctx *c)
{
    gfx g;
    gfx_init(c, &g);
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, 0);
    label(c, cb, "frame");
    label(c, cb, "dynamic");
    begin_dynamic(c, &g, cb);
    vkCmdBindIndexBuffer(cb, g.index, 0, VK_INDEX_TYPE_UINT32);
    push(c, cb, 2);
    vkCmdDraw(cb, 3, 1, 0, 0);
    push(c, cb, 3);
    vkCmdDrawIndexed(cb, 3, 1, 0, 0, 0);
    push(c, cb, 4);
    vkCmdDrawIndirect(cb, g.indirect, 0, 1, sizeof(VkDrawIndirectCommand));
    push(c, cb, 5);
    vkCmdDrawIndexedIndirect(cb, g.indexed_indirect, 0, 1, sizeof(VkDrawIndexedIndirectCommand));
    push(c, cb, 6);
    vkCmdDrawIndirectCount(cb, g.indirect, 0, g.count, 0, 1, sizeof(VkDrawIndirectCommand));
    push(c, cb, 7);
    vkCmdDrawIndexedIndirectCount(cb, g.indexed_indirect, 0, g.count, 0, 1, sizeof(VkDrawIndexedIndirectCommand));
    vkCmdEndRendering(cb);
    unlabel(c, cb);
    label(c, cb, "renderpass");
    VkClearValue clear = {0};
    VkRenderPassBeginInfo rbi = {.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO, .renderPass = g.pass,
                                 .framebuffer = g.fb, .renderArea = {{0, 0}, {4, 4}}, .clearValueCount = 1,
                                 .pClearValues = &clear};
    vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, g.rp);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set, 0, NULL);
    push(c, cb, 8);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRenderPass(cb);
    unlabel(c, cb);
    unlabel(c, cb);
    end_and_run(c, cb);
    vkDestroyCommandPool(c->dev, pool, NULL);
    gfx_free(c, &g);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* so_graphics makes a shader object of path for stage, with the app's set
 * layout and push-constant range. */
static VkShaderEXT so_graphics(ctx *c, const so_fns *f, const char *path, VkShaderStageFlagBits stage,
                               VkShaderStageFlags next, const char *n)
{
    size_t size;
    uint32_t *code = read_file(path, &size);
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
    VkShaderCreateInfoEXT ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT,
        .stage = stage,
        .nextStage = next,
        .codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT,
        .codeSize = size,
        .pCode = code,
        .pName = "main",
        .setLayoutCount = 1,
        .pSetLayouts = &c->dsl,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VkShaderEXT s;
    CHECK(f->create(c->dev, 1, &ci, NULL, &s));
    free(code);
    name(c, VK_OBJECT_TYPE_SHADER_EXT, (uint64_t)s, n);
    return s;
}

#define DEV_FN(fn) PFN_vk##fn fn = (PFN_vk##fn)vkGetDeviceProcAddr(c->dev, "vk" #fn)

/* mode_shaderobj_render: cmd-0, in "frame" (vkCmdBeginRendering), draws
 * with the vertex and fragment shader objects "so-vert", "so-frag" and
 * every state dynamic, idx 3 (action 0), then with "dyn-pipeline", idx 4
 * (action 1). */
static void mode_shaderobj_render(ctx *c)
{
    gfx g;
    gfx_init(c, &g);
    so_fns f = so_load(c);
    VkShaderEXT vs = so_graphics(c, &f, g_vert, VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT, "so-vert");
    VkShaderEXT fs = so_graphics(c, &f, g_frag, VK_SHADER_STAGE_FRAGMENT_BIT, 0, "so-frag");
    DEV_FN(CmdSetVertexInputEXT);
    DEV_FN(CmdSetPolygonModeEXT);
    DEV_FN(CmdSetRasterizationSamplesEXT);
    DEV_FN(CmdSetSampleMaskEXT);
    DEV_FN(CmdSetAlphaToCoverageEnableEXT);
    DEV_FN(CmdSetColorBlendEnableEXT);
    DEV_FN(CmdSetColorWriteMaskEXT);
    DEV_FN(CmdSetLogicOpEnableEXT);
    DEV_FN(CmdSetDepthClampEnableEXT);
    if (!CmdSetVertexInputEXT || !CmdSetPolygonModeEXT || !CmdSetRasterizationSamplesEXT || !CmdSetSampleMaskEXT ||
        !CmdSetAlphaToCoverageEnableEXT || !CmdSetColorBlendEnableEXT || !CmdSetColorWriteMaskEXT ||
        !CmdSetLogicOpEnableEXT || !CmdSetDepthClampEnableEXT) {
        fprintf(stderr, "multi: no dynamic state entry points\n");
        exit(1);
    }
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, 0);
    label(c, cb, "frame");
    begin_dynamic(c, &g, cb); /* binds dyn-pipeline and the set */
    VkShaderStageFlagBits stages[2] = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT};
    VkShaderEXT shaders[2] = {vs, fs};
    f.bind(cb, 2, stages, shaders);
    VkViewport vp = {0, 0, 4, 4, 0, 1};
    VkRect2D sc = {{0, 0}, {4, 4}};
    vkCmdSetViewportWithCount(cb, 1, &vp);
    vkCmdSetScissorWithCount(cb, 1, &sc);
    vkCmdSetRasterizerDiscardEnable(cb, VK_FALSE);
    vkCmdSetCullMode(cb, VK_CULL_MODE_NONE);
    vkCmdSetFrontFace(cb, VK_FRONT_FACE_COUNTER_CLOCKWISE);
    vkCmdSetDepthTestEnable(cb, VK_FALSE);
    vkCmdSetDepthWriteEnable(cb, VK_FALSE);
    vkCmdSetDepthCompareOp(cb, VK_COMPARE_OP_ALWAYS);
    vkCmdSetDepthBiasEnable(cb, VK_FALSE);
    vkCmdSetDepthBoundsTestEnable(cb, VK_FALSE);
    vkCmdSetStencilTestEnable(cb, VK_FALSE);
    vkCmdSetPrimitiveTopology(cb, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
    vkCmdSetPrimitiveRestartEnable(cb, VK_FALSE);
    CmdSetVertexInputEXT(cb, 0, NULL, 0, NULL);
    CmdSetPolygonModeEXT(cb, VK_POLYGON_MODE_FILL);
    CmdSetRasterizationSamplesEXT(cb, VK_SAMPLE_COUNT_1_BIT);
    VkSampleMask mask = ~0u;
    CmdSetSampleMaskEXT(cb, VK_SAMPLE_COUNT_1_BIT, &mask);
    CmdSetAlphaToCoverageEnableEXT(cb, VK_FALSE);
    VkBool32 blend = VK_FALSE;
    CmdSetColorBlendEnableEXT(cb, 0, 1, &blend);
    VkColorComponentFlags wm = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                               VK_COLOR_COMPONENT_A_BIT;
    CmdSetColorWriteMaskEXT(cb, 0, 1, &wm);
    CmdSetLogicOpEnableEXT(cb, VK_FALSE);
    CmdSetDepthClampEnableEXT(cb, VK_FALSE);
    push(c, cb, 3);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, g.dyn);
    push(c, cb, 4);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    unlabel(c, cb);
    CHECK(vkEndCommandBuffer(cb));
    VkFence fence = make_fence(c);
    submit_wait(c, 1, &cb, fence);
    vkDestroyFence(c->dev, fence, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);
    f.destroy(c->dev, vs, NULL);
    f.destroy(c->dev, fs, NULL);
    gfx_free(c, &g);
}

/* gpl_library creates one graphics pipeline library of the given parts. */
static VkPipeline gpl_library(ctx *c, VkGraphicsPipelineLibraryFlagsEXT parts, VkGraphicsPipelineCreateInfo gci)
{
    VkFormat fmt = VK_FORMAT_R8G8B8A8_UNORM;
    VkPipelineRenderingCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                         .colorAttachmentCount = 1, .pColorAttachmentFormats = &fmt};
    VkGraphicsPipelineLibraryCreateInfoEXT lci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_LIBRARY_CREATE_INFO_EXT,
                                                  .flags = parts};
    /* The attachment formats belong to the fragment output interface. */
    if (parts & VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT)
        lci.pNext = &rci;
    gci.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO;
    gci.pNext = &lci;
    gci.flags = VK_PIPELINE_CREATE_LIBRARY_BIT_KHR;
    VkPipeline p;
    CHECK(vkCreateGraphicsPipelines(c->dev, VK_NULL_HANDLE, 1, &gci, NULL, &p));
    return p;
}

static void mode_gpl(ctx *c)
{
    gfx g;
    gfx_init(c, &g);
    VkShaderModule vs = load_module(c, g_vert), fs = load_module(c, g_frag);
    name(c, VK_OBJECT_TYPE_SHADER_MODULE, (uint64_t)vs, "gpl-vert");
    name(c, VK_OBJECT_TYPE_SHADER_MODULE, (uint64_t)fs, "gpl-frag");
    VkPipelineShaderStageCreateInfo vst = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                           .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"};
    VkPipelineShaderStageCreateInfo fst = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                           .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main"};
    fixed_state fx;
    fixed_state_init(&fx);
    VkPipeline libs[4] = {
        gpl_library(c, VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT,
                    (VkGraphicsPipelineCreateInfo){.pVertexInputState = &fx.vi, .pInputAssemblyState = &fx.ia}),
        gpl_library(c, VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT,
                    (VkGraphicsPipelineCreateInfo){.stageCount = 1, .pStages = &vst, .pViewportState = &fx.vps,
                                                   .pRasterizationState = &fx.rs, .layout = c->layout}),
        gpl_library(c, VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT,
                    (VkGraphicsPipelineCreateInfo){.stageCount = 1, .pStages = &fst, .pMultisampleState = &fx.ms,
                                                   .pDepthStencilState = &fx.ds, .layout = c->layout}),
        gpl_library(c, VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT,
                    (VkGraphicsPipelineCreateInfo){.pMultisampleState = &fx.ms, .pColorBlendState = &fx.cb}),
    };
    vkDestroyShaderModule(c->dev, vs, NULL);
    vkDestroyShaderModule(c->dev, fs, NULL);
    VkPipelineLibraryCreateInfoKHR link = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
                                           .libraryCount = 4, .pLibraries = libs};
    VkGraphicsPipelineCreateInfo gci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = &link,
                                        .layout = c->layout};
    VkPipeline linked;
    CHECK(vkCreateGraphicsPipelines(c->dev, VK_NULL_HANDLE, 1, &gci, NULL, &linked));
    name(c, VK_OBJECT_TYPE_PIPELINE, (uint64_t)(uintptr_t)linked, "gpl-pipeline");

    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    begin(cb, 0);
    label(c, cb, "frame");
    begin_dynamic(c, &g, cb);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, linked);
    push(c, cb, 3);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    unlabel(c, cb);
    end_and_run(c, cb);
    vkDestroyCommandPool(c->dev, pool, NULL);
    vkDestroyPipeline(c->dev, linked, NULL);
    for (int i = 0; i < 4; i++)
        vkDestroyPipeline(c->dev, libs[i], NULL);
    gfx_free(c, &g);
}

static void mode_bench(ctx *c, uint32_t draws, int bind_per_draw, int push_per_draw)
{
    gfx g;
    gfx_init(c, &g);
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    double best = 1e30;
    for (int rep = 0; rep < 5; rep++) {
        begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        begin_dynamic(c, &g, cb);
        push(c, cb, 0);
        double t0 = now_s();
        for (uint32_t i = 0; i < draws; i++) {
            if (bind_per_draw)
                vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set, 0, NULL);
            if (push_per_draw)
                push(c, cb, 0);
            vkCmdDraw(cb, 3, 1, 0, 0);
        }
        double t = now_s() - t0;
        vkCmdEndRendering(cb);
        CHECK(vkEndCommandBuffer(cb));
        if (t < best)
            best = t;
    }
    printf("ns_per_draw=%.2f\n", best * 1e9 / draws);
    /* Submit-to-records latency as the app sees it: vkQueueSubmit to the
     * return of vkWaitForFences (the layer reads the records inside it). */
    begin(cb, 0);
    dispatch(c, cb, 1); /* in bounds: the cost of reading, not of reporting */
    CHECK(vkEndCommandBuffer(cb));
    VkFence f = make_fence(c);
    double sum = 0;
    const int rounds = 50;
    for (int i = 0; i < rounds; i++) {
        double t0 = now_s();
        submit_wait(c, 1, &cb, f);
        sum += now_s() - t0;
    }
    printf("us_submit_to_wait=%.1f\n", sum * 1e6 / rounds);
    vkDestroyFence(c->dev, f, NULL);
    vkDestroyCommandPool(c->dev, pool, NULL);
    gfx_free(c, &g);
}

int main(int argc, char **argv)
{
    const char *mode = NULL;
    uint32_t submits = 1, loops = 100, draws = 100000;
    int no_fence = 0, bind_per_draw = 0, push_per_draw = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mode") && i + 1 < argc)
            mode = argv[++i];
        else if (!strcmp(argv[i], "--comp") && i + 1 < argc)
            g_comp = argv[++i];
        else if (!strcmp(argv[i], "--base-comp") && i + 1 < argc)
            g_base_comp = argv[++i];
        else if (!strcmp(argv[i], "--vert") && i + 1 < argc)
            g_vert = argv[++i];
        else if (!strcmp(argv[i], "--frag") && i + 1 < argc)
            g_frag = argv[++i];
        else if (!strcmp(argv[i], "--submits") && i + 1 < argc)
            submits = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--loops") && i + 1 < argc)
            loops = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--draws") && i + 1 < argc)
            draws = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--bind-per-draw"))
            bind_per_draw = 1;
        else if (!strcmp(argv[i], "--push-per-draw"))
            push_per_draw = 1;
        else if (!strcmp(argv[i], "--cache-in") && i + 1 < argc)
            g_cache_in = argv[++i];
        else if (!strcmp(argv[i], "--cache-out") && i + 1 < argc)
            g_cache_out = argv[++i];
        else if (!strcmp(argv[i], "--no-fence"))
            no_fence = 1;
        else if (!strcmp(argv[i], "--app-setting") && i + 1 < argc)
            i++; /* read below */
        else if (!strcmp(argv[i], "--disable-shaders"))
            ;
        else {
            fprintf(stderr, "multi: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    int graphics = mode && (!strcmp(mode, "render") || !strcmp(mode, "bench") || !strcmp(mode, "shaderobj-render") ||
                            !strcmp(mode, "gpl"));
    if (!mode || !g_comp || (graphics && (!g_vert || !g_frag))) {
        fprintf(stderr, "multi: --mode and --comp (and --vert/--frag for graphics) are required\n");
        return 2;
    }
    if (!strcmp(mode, "loop")) {
        mode_loop(loops);
        printf("multi: done\n");
        return 0;
    }
    ctx c;
    g_maint5 = !strcmp(mode, "inline");
    g_shaderobj = !strncmp(mode, "shaderobj", 9);
    g_push = !strcmp(mode, "push");
    g_gpl = !strcmp(mode, "gpl");
    g_queues = !strcmp(mode, "queues");
    /* mode appsettings: --app-setting KEY=0|1 (VkLayerSettingEXT, BOOL32),
     * --disable-shaders (VkValidationFeaturesEXT DISABLE_SHADERS). */
    VkLayerSettingEXT app_settings[16];
    VkBool32 app_values[16];
    uint32_t napp = 0;
    int disable_shaders = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--app-setting") && i + 1 < argc && napp < 16) {
            char *kv = argv[++i], *eq = strchr(kv, '=');
            if (!eq) {
                fprintf(stderr, "multi: --app-setting wants KEY=0|1\n");
                return 2;
            }
            *eq = 0;
            app_values[napp] = atoi(eq + 1) != 0;
            app_settings[napp] = (VkLayerSettingEXT){.pLayerName = "VK_LAYER_GPUAVDBG_validation", .pSettingName = kv,
                                                     .type = VK_LAYER_SETTING_TYPE_BOOL32_EXT, .valueCount = 1,
                                                     .pValues = &app_values[napp]};
            napp++;
        } else if (!strcmp(argv[i], "--disable-shaders"))
            disable_shaders = 1;
    }
    VkValidationFeatureDisableEXT disables[] = {VK_VALIDATION_FEATURE_DISABLE_SHADERS_EXT};
    VkValidationFeaturesEXT vfeat = {.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
                                     .disabledValidationFeatureCount = 1, .pDisabledValidationFeatures = disables};
    VkLayerSettingsCreateInfoEXT lsci = {.sType = VK_STRUCTURE_TYPE_LAYER_SETTINGS_CREATE_INFO_EXT,
                                         .pNext = disable_shaders ? &vfeat : NULL, .settingCount = napp,
                                         .pSettings = app_settings};
    if (napp)
        g_instance_next = &lsci;
    else if (disable_shaders)
        g_instance_next = &vfeat;
    ctx_init(&c, !strcmp(mode, "messenger"), graphics);
    if (!strcmp(mode, "multi-cb"))
        mode_multi_cb(&c, 0);
    else if (!strcmp(mode, "clean"))
        mode_multi_cb(&c, 1);
    else if (!strcmp(mode, "resubmit"))
        mode_resubmit(&c, submits, no_fence);
    else if (!strcmp(mode, "queues"))
        mode_queues(&c);
    else if (!strcmp(mode, "secondary"))
        mode_secondary(&c);
    else if (!strcmp(mode, "cache"))
        mode_cache(&c);
    else if (!strcmp(mode, "inline")) {
        make_comp(&c, VK_NULL_HANDLE, 1);
        one_dispatch(&c, 6);
    }
    else if (!strcmp(mode, "shaderobj"))
        mode_shaderobj(&c, 1, (const uint32_t[3]){3, 4, 5});
    else if (!strcmp(mode, "shaderobj-clean"))
        mode_shaderobj(&c, 1, (const uint32_t[3]){0, 1, 0});
    else if (!strcmp(mode, "shaderobj-render"))
        mode_shaderobj_render(&c);
    else if (!strcmp(mode, "shaderobj-conflict")) {
        /* As many set layouts as reach the layer's set: min(max, 33). */
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(c.pd, &props);
        uint32_t n = props.limits.maxBoundDescriptorSets < 33 ? props.limits.maxBoundDescriptorSets : 33;
        mode_shaderobj(&c, n, (const uint32_t[3]){3, 1, 3});
    }
    else if (!strcmp(mode, "simultaneous"))
        mode_simultaneous(&c);
    else if (!strcmp(mode, "appsettings"))
        mode_appsettings(&c);
    else if (!strcmp(mode, "dispatches"))
        mode_dispatches(&c, 0);
    else if (!strcmp(mode, "dispatches-readback"))
        mode_dispatches(&c, 1);
    else if (!strcmp(mode, "push"))
        mode_push(&c);
    else if (!strcmp(mode, "rebind"))
        mode_rebind(&c);
    else if (!strcmp(mode, "gpl"))
        mode_gpl(&c);
    else if (!strcmp(mode, "threads"))
        mode_threads(&c, submits);
    else if (!strcmp(mode, "messenger"))
        mode_messenger(&c);
    else if (!strcmp(mode, "render"))
        mode_render(&c);
    else if (!strcmp(mode, "bench"))
        mode_bench(&c, draws, bind_per_draw, push_per_draw);
    else {
        fprintf(stderr, "multi: unknown mode %s\n", mode);
        return 2;
    }
    ctx_free(&c);
    printf("multi: done\n");
    return 0;
}
