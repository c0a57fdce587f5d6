/*
 * scene: the benchmark scenes of gpuav-dbg (issue #7), one Vulkan app with a
 * --scene flag. Each scene does a fixed amount of work per iteration, runs
 * --warmup iterations, then --iters timed ones, and prints one line per
 * iteration:
 *
 *   bench: iter <n> <nanoseconds>          (n from 0; warm-up lines say "warmup")
 *
 * Scenes (defaults are the sizes, meant for a real GPU):
 *   dispatch   --dispatches 1000: small compute dispatches per submit, each
 *              reading ins[idx] (descriptor-indexed storage buffer); the time is
 *              recording + submit + wait.
 *   shader     --invocations 1048576 --loops 1024: one dispatch whose every
 *              invocation does `loops` descriptor-indexed SSBO reads and as many
 *              descriptor-indexed sampled-image reads.
 *   draw       --draws 10000: quads per frame into a 256x256 offscreen target,
 *              a descriptor set bound per draw (--sets 64 of them, round robin),
 *              a textured fragment shader indexing tex[draw % 4].
 *   hotloop    --variant masked|memory|... --workgroups 65536: one
 *              dispatch of workgroups x 64 invocations, each running 256
 *              iterations of two reads through a descriptor array of 2 storage
 *              buffers of 4 KB (shaders/hotloop_*.comp say how each variant
 *              gets its descriptor index; naive, hoisted, flag, masked_flag and
 *              masked_hoisted are hand-checked references, run with no layer,
 *              printing "bench: hand-errors N").
 *   pipeline   every pipeline of <spv>/corpus/corpus.txt (≥ 50 shaders):
 *              vkCreateShaderModule + vkCreate*Pipelines, no pipeline cache;
 *              specialization constant 0 changes every iteration so no driver
 *              cache can return an earlier result.
 *
 * Other flags:
 *   --spv DIR   compiled shaders (default: <dir of this binary>/spv)
 *   --layer-set pipeline scene: the pipeline layout gets a set 1 with the
 *               layer's bindings, so modules instrumented offline for set 1
 *               (bench/internal/instr) compile with no layer (bench/exp)
 *   --oob       make the descriptor index out of bounds (negative control; run it
 *               only under a GPU-AV layer: it is undefined behaviour otherwise)
 *
 * With BENCH_KHRONOS_GPUAV=1 the instance gets VkValidationFeaturesEXT: GPU-AV
 * on; core checks, shader validation, thread safety, object lifetimes, API
 * parameters and unique handles off.
 *
 * It also prints "bench: device", "bench: driver", "bench: size", a result
 * check ("bench: check ok") and "bench: vk-errors <n>", the number of
 * ERROR-severity debug-utils messages it received (every one is printed too).
 * Every failure prints "scene: ..." and exits 1; bad flags exit 2.
 */

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

static void die(const char *msg, const char *arg)
{
    fprintf(stderr, "scene: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
    exit(1);
}

static void check_result(VkResult r, const char *expr)
{
    if (r == VK_SUCCESS)
        return;
    fprintf(stderr, "scene: %.*s failed: %d\n", (int)strcspn(expr, "("), expr, (int)r);
    exit(1);
}
#define CHECK(call) check_result((call), #call)

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- options ----------------------------------------------------------------- */

struct options {
    const char *scene;
    const char *spv;
    uint32_t warmup, iters;
    uint32_t dispatches;
    uint32_t invocations, loops;
    uint32_t draws, sets;
    uint32_t workgroups;
    const char *variant;
    int oob, layer_set;
};

static void usage(FILE *f)
{
    fprintf(f, "usage: scene --scene dispatch|shader|draw|hotloop|pipeline [--warmup N] [--iters N]\n"
               "             [--dispatches N] [--invocations N] [--loops N] [--draws N] [--sets N]\n"
               "             [--variant masked|memory|naive|hoisted|flag|masked_flag|masked_hoisted]\n"
               "             [--workgroups N] [--spv DIR] [--oob]\n"
               "             [--layer-set]\n");
}

static void bad_usage(const char *why, const char *arg)
{
    fprintf(stderr, "scene: %s%s%s\n", why, arg ? ": " : "", arg ? arg : "");
    usage(stderr);
    exit(2);
}

static uint32_t parse_u32(const char *flag, const char *s, uint32_t min)
{
    if (!s)
        bad_usage("missing value for", flag);
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 0);
    if (*s == '\0' || *s == '-' || *end != '\0' || v > UINT32_MAX || v < min)
        bad_usage("bad number", s);
    return (uint32_t)v;
}

static char *default_spv_dir(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    size_t n = slash ? (size_t)(slash - argv0) : 1;
    char *d = malloc(n + 5);
    if (!d)
        die("out of memory", NULL);
    if (slash)
        memcpy(d, argv0, n);
    else
        d[0] = '.';
    strcpy(d + n, "/spv");
    return d;
}

static struct options parse_options(int argc, char **argv)
{
    struct options o = {
        .warmup = 2, .iters = 10, .dispatches = 1000, .invocations = 1u << 20, .loops = 1024,
        .draws = 10000, .sets = 64, .workgroups = 65536, .variant = "masked",
    };
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--scene")) {
            if (!v)
                bad_usage("missing value for", a);
            o.scene = v, i++;
        } else if (!strcmp(a, "--spv")) {
            if (!v)
                bad_usage("missing value for", a);
            o.spv = v, i++;
        } else if (!strcmp(a, "--warmup")) {
            o.warmup = parse_u32(a, v, 0), i++;
        } else if (!strcmp(a, "--iters")) {
            o.iters = parse_u32(a, v, 1), i++;
        } else if (!strcmp(a, "--dispatches")) {
            o.dispatches = parse_u32(a, v, 1), i++;
        } else if (!strcmp(a, "--invocations")) {
            o.invocations = parse_u32(a, v, 64), i++;
        } else if (!strcmp(a, "--loops")) {
            o.loops = parse_u32(a, v, 1), i++;
        } else if (!strcmp(a, "--draws")) {
            o.draws = parse_u32(a, v, 1), i++;
        } else if (!strcmp(a, "--sets")) {
            o.sets = parse_u32(a, v, 1), i++;
        } else if (!strcmp(a, "--workgroups")) {
            o.workgroups = parse_u32(a, v, 1), i++;
        } else if (!strcmp(a, "--variant")) {
            if (!v)
                bad_usage("missing value for", a);
            o.variant = v, i++;
        } else if (!strcmp(a, "--oob")) {
            o.oob = 1;
        } else if (!strcmp(a, "--layer-set")) {
            o.layer_set = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else {
            bad_usage("unknown flag", a);
        }
    }
    if (!o.scene)
        bad_usage("--scene is required", NULL);
    if (o.invocations % 64)
        bad_usage("--invocations must be a multiple of 64", NULL);
    if (o.dispatches > (1u << 24))
        bad_usage("--dispatches is at most 16777216", NULL);
    if (!o.spv)
        o.spv = default_spv_dir(argv[0]);
    return o;
}

/* ---- device ------------------------------------------------------------------- */

struct ctx {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice phys;
    VkPhysicalDeviceMemoryProperties mem_props;
    uint32_t queue_family;
    VkDevice device;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkDescriptorPool desc_pool;
};

static unsigned vk_errors;

static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT types,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *data,
                                                     void *user)
{
    (void)types;
    (void)user;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        vk_errors++;
        if (vk_errors <= 20)
            fprintf(stderr, "[vk error] %s: %s\n", data->pMessageIdName ? data->pMessageIdName : "(none)",
                    data->pMessage ? data->pMessage : "");
    } else {
        fprintf(stderr, "[vk warning] %s: %s\n", data->pMessageIdName ? data->pMessageIdName : "(none)",
                data->pMessage ? data->pMessage : "");
    }
    return VK_FALSE;
}

static int has_extension(const char *name)
{
    uint32_t n = 0;
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &n, NULL));
    VkExtensionProperties *exts = calloc(n ? n : 1, sizeof *exts);
    if (!exts)
        die("out of memory", NULL);
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &n, exts));
    int found = 0;
    for (uint32_t i = 0; i < n; i++)
        found |= !strcmp(exts[i].extensionName, name);
    free(exts);
    return found;
}

static void create_instance(struct ctx *c)
{
    int debug_utils = has_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    const char *khronos = getenv("BENCH_KHRONOS_GPUAV");
    int gpuav = khronos && !strcmp(khronos, "1");

    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = debug_callback,
    };
    VkValidationFeatureEnableEXT enables[] = { VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT };
    VkValidationFeatureDisableEXT disables[] = {
        VK_VALIDATION_FEATURE_DISABLE_CORE_CHECKS_EXT,     VK_VALIDATION_FEATURE_DISABLE_SHADERS_EXT,
        VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT,   VK_VALIDATION_FEATURE_DISABLE_OBJECT_LIFETIMES_EXT,
        VK_VALIDATION_FEATURE_DISABLE_API_PARAMETERS_EXT, VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT,
    };
    VkValidationFeaturesEXT vf = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .pNext = debug_utils ? &mci : NULL,
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
        .disabledValidationFeatureCount = sizeof disables / sizeof disables[0],
        .pDisabledValidationFeatures = disables,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpuav-dbg bench scene",
        .apiVersion = VK_API_VERSION_1_2,
    };
    const char *ext_names[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = gpuav ? (void *)&vf : debug_utils ? (void *)&mci : NULL,
        .pApplicationInfo = &app,
        .enabledExtensionCount = debug_utils ? 1 : 0,
        .ppEnabledExtensionNames = debug_utils ? ext_names : NULL,
    };
    CHECK(vkCreateInstance(&ici, NULL, &c->instance));
    if (debug_utils) {
        PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(c->instance, "vkCreateDebugUtilsMessengerEXT");
        if (!create)
            die("VK_EXT_debug_utils is enabled but vkCreateDebugUtilsMessengerEXT is missing", NULL);
        CHECK(create(c->instance, &mci, NULL, &c->messenger));
    }
    printf("bench: khronos-gpuav %s\n", gpuav ? "on" : "off");
}

static void create_device(struct ctx *c)
{
    uint32_t n = 0;
    CHECK(vkEnumeratePhysicalDevices(c->instance, &n, NULL));
    if (n == 0)
        die("no Vulkan physical device", NULL);
    VkPhysicalDevice devs[16];
    if (n > 16)
        n = 16;
    VkResult r = vkEnumeratePhysicalDevices(c->instance, &n, devs);
    if (r != VK_SUCCESS && r != VK_INCOMPLETE)
        check_result(r, "vkEnumeratePhysicalDevices");
    c->phys = devs[0];

    VkPhysicalDeviceDriverProperties drv = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
    VkPhysicalDeviceProperties2 props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &drv };
    vkGetPhysicalDeviceProperties2(c->phys, &props);
    printf("bench: device %s\n", props.properties.deviceName);
    printf("bench: driver %s %s (Vulkan %u.%u.%u)\n", drv.driverName, drv.driverInfo,
           VK_API_VERSION_MAJOR(props.properties.apiVersion), VK_API_VERSION_MINOR(props.properties.apiVersion),
           VK_API_VERSION_PATCH(props.properties.apiVersion));
    vkGetPhysicalDeviceMemoryProperties(c->phys, &c->mem_props);

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c->phys, &qn, NULL);
    VkQueueFamilyProperties qf[32];
    if (qn > 32)
        qn = 32;
    vkGetPhysicalDeviceQueueFamilyProperties(c->phys, &qn, qf);
    c->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < qn; i++) {
        VkQueueFlags want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
        if ((qf[i].queueFlags & want) == want) {
            c->queue_family = i;
            break;
        }
    }
    if (c->queue_family == UINT32_MAX)
        die("no queue family with graphics and compute", NULL);

    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->phys, &have);
    if (!have.shaderStorageBufferArrayDynamicIndexing || !have.shaderSampledImageArrayDynamicIndexing)
        die("the device lacks dynamic indexing of storage buffer / sampled image arrays", NULL);
    /* The two store features are what both GPU-AV layers want for
     * instrumented vertex and fragment shaders; enable them when present. */
    VkPhysicalDeviceFeatures features = {
        .shaderStorageBufferArrayDynamicIndexing = VK_TRUE,
        .shaderSampledImageArrayDynamicIndexing = VK_TRUE,
        .fragmentStoresAndAtomics = have.fragmentStoresAndAtomics,
        .vertexPipelineStoresAndAtomics = have.vertexPipelineStoresAndAtomics,
    };
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = c->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
        .pEnabledFeatures = &features,
    };
    CHECK(vkCreateDevice(c->phys, &dci, NULL, &c->device));
    vkGetDeviceQueue(c->device, c->queue_family, 0, &c->queue);

    VkCommandPoolCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = c->queue_family,
    };
    CHECK(vkCreateCommandPool(c->device, &cpci, NULL, &c->pool));
    VkCommandBufferAllocateInfo cbai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    CHECK(vkAllocateCommandBuffers(c->device, &cbai, &c->cmd));
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    CHECK(vkCreateFence(c->device, &fci, NULL, &c->fence));
}

static void create_desc_pool(struct ctx *c, uint32_t sets)
{
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8 * sets },
        { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8 * sets },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2 * sets },
    };
    VkDescriptorPoolCreateInfo dpci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = sets,
        .poolSizeCount = 3,
        .pPoolSizes = sizes,
    };
    CHECK(vkCreateDescriptorPool(c->device, &dpci, NULL, &c->desc_pool));
}

static uint32_t find_memory_type(const struct ctx *c, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < c->mem_props.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (c->mem_props.memoryTypes[i].propertyFlags & want) == want)
            return i;
    die("no suitable memory type", NULL);
    return 0;
}

static VkDeviceMemory alloc_memory(const struct ctx *c, VkMemoryRequirements req, VkMemoryPropertyFlags want)
{
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = find_memory_type(c, req.memoryTypeBits, want),
    };
    VkDeviceMemory mem;
    CHECK(vkAllocateMemory(c->device, &mai, NULL, &mem));
    return mem;
}

/* A host-visible, coherent buffer (kept simple: the scenes measure the layer,
 * not the memory placement, and every configuration uses the same one). */
struct buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
    VkDeviceSize size;
};

static struct buffer make_buffer(const struct ctx *c, VkDeviceSize size, VkBufferUsageFlags usage)
{
    struct buffer b = { .size = size };
    VkBufferCreateInfo bci = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
        .size = size,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    CHECK(vkCreateBuffer(c->device, &bci, NULL, &b.buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(c->device, b.buf, &req);
    b.mem = alloc_memory(c, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
    CHECK(vkBindBufferMemory(c->device, b.buf, b.mem, 0));
    CHECK(vkMapMemory(c->device, b.mem, 0, VK_WHOLE_SIZE, 0, &b.map));
    return b;
}

static void free_buffer(const struct ctx *c, struct buffer *b)
{
    vkUnmapMemory(c->device, b->mem);
    vkDestroyBuffer(c->device, b->buf, NULL);
    vkFreeMemory(c->device, b->mem, NULL);
}

struct image {
    VkImage img;
    VkDeviceMemory mem;
    VkImageView view;
};

static struct image make_image(const struct ctx *c, uint32_t w, uint32_t h, VkFormat format, VkImageUsageFlags usage)
{
    struct image im;
    VkImageCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = { w, h, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    CHECK(vkCreateImage(c->device, &ici, NULL, &im.img));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(c->device, im.img, &req);
    im.mem = alloc_memory(c, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    CHECK(vkBindImageMemory(c->device, im.img, im.mem, 0));
    VkImageViewCreateInfo ivci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = im.img,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    CHECK(vkCreateImageView(c->device, &ivci, NULL, &im.view));
    return im;
}

static void free_image(const struct ctx *c, struct image *im)
{
    vkDestroyImageView(c->device, im->view, NULL);
    vkDestroyImage(c->device, im->img, NULL);
    vkFreeMemory(c->device, im->mem, NULL);
}

static void begin(const struct ctx *c)
{
    CHECK(vkResetCommandPool(c->device, c->pool, 0));
    VkCommandBufferBeginInfo cbbi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    CHECK(vkBeginCommandBuffer(c->cmd, &cbbi));
}

/* With BENCH_PHASES=1 in the environment the scenes also print where an
 * iteration's time went ("phase: ..." lines, which the harness ignores):
 * recording, vkQueueSubmit and the wait for the fence; per pipeline, the
 * module and pipeline creation times. */
static int g_phases = -1;
static uint64_t g_submit_ns, g_wait_ns;

static int phases(void)
{
    if (g_phases < 0) {
        const char *v = getenv("BENCH_PHASES");
        g_phases = v && *v && strcmp(v, "0") != 0;
    }
    return g_phases;
}

static void submit_and_wait(const struct ctx *c)
{
    uint64_t t0 = now_ns();
    CHECK(vkEndCommandBuffer(c->cmd));
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &c->cmd,
    };
    CHECK(vkQueueSubmit(c->queue, 1, &si, c->fence));
    uint64_t t1 = now_ns();
    CHECK(vkWaitForFences(c->device, 1, &c->fence, VK_TRUE, UINT64_MAX));
    g_submit_ns = t1 - t0;
    g_wait_ns = now_ns() - t1;
    CHECK(vkResetFences(c->device, 1, &c->fence));
}

/* Textures: RGBA32F (sampleable everywhere, exact values), each cleared to
 * one colour, left in SHADER_READ_ONLY_OPTIMAL. */
static void fill_textures(const struct ctx *c, struct image *tex, uint32_t n)
{
    begin(c);
    for (uint32_t t = 0; t < n; t++) {
        VkImageMemoryBarrier b = {
            .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
            .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
            .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
            .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
            .image = tex[t].img,
            .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
        };
        vkCmdPipelineBarrier(c->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL,
                             0, NULL, 1, &b);
        float v = 0.125f * (float)(t + 1);
        VkClearColorValue col = { .float32 = { v, v, v, v } };
        vkCmdClearColorImage(c->cmd, tex[t].img, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &col, 1,
                             &b.subresourceRange);
        b.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
        b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
        b.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
        b.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
        vkCmdPipelineBarrier(c->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, NULL,
                             0, NULL, 1, &b);
    }
    submit_and_wait(c);
}

static VkSampler make_sampler(const struct ctx *c)
{
    VkSamplerCreateInfo sci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_NEAREST,
        .minFilter = VK_FILTER_NEAREST,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_REPEAT,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT,
    };
    VkSampler s;
    CHECK(vkCreateSampler(c->device, &sci, NULL, &s));
    return s;
}

/* ---- shaders ------------------------------------------------------------------ */

struct spv {
    uint32_t *words;
    size_t size; /* bytes */
};

static struct spv load_spv(const char *dir, const char *name)
{
    char path[8400];
    snprintf(path, sizeof path, "%s/%s.spv", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        die("cannot open shader (build it with make bench-apps)", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    if (n <= 20 || n % 4)
        die("not a SPIR-V module", path);
    struct spv s = { malloc((size_t)n), (size_t)n };
    if (!s.words || fread(s.words, 1, (size_t)n, f) != (size_t)n)
        die("cannot read shader", path);
    fclose(f);
    if (s.words[0] != 0x07230203)
        die("not a SPIR-V module", path);
    return s;
}

static VkShaderModule make_module(const struct ctx *c, struct spv s)
{
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = s.size,
        .pCode = s.words,
    };
    VkShaderModule m;
    CHECK(vkCreateShaderModule(c->device, &smci, NULL, &m));
    return m;
}

static VkPipeline make_compute(const struct ctx *c, VkShaderModule m, VkPipelineLayout layout,
                               const VkSpecializationInfo *spec)
{
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = m, .pName = "main",
                   .pSpecializationInfo = spec },
        .layout = layout,
        .basePipelineIndex = -1,
    };
    VkPipeline p;
    CHECK(vkCreateComputePipelines(c->device, VK_NULL_HANDLE, 1, &cpci, NULL, &p));
    return p;
}

static VkPipeline make_graphics(const struct ctx *c, VkShaderModule vs, VkShaderModule fs, VkPipelineLayout layout,
                                VkRenderPass rp, uint32_t size, const VkSpecializationInfo *spec)
{
    VkPipelineShaderStageCreateInfo stages[2] = {
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_VERTEX_BIT,
          .module = vs, .pName = "main", .pSpecializationInfo = spec },
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
          .module = fs, .pName = "main", .pSpecializationInfo = spec },
    };
    VkPipelineVertexInputStateCreateInfo vi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO };
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkViewport viewport = { 0.0f, 0.0f, (float)size, (float)size, 0.0f, 1.0f };
    VkRect2D scissor = { { 0, 0 }, { size, size } };
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1, .pViewports = &viewport, .scissorCount = 1, .pScissors = &scissor,
    };
    VkPipelineRasterizationStateCreateInfo rs = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
        .polygonMode = VK_POLYGON_MODE_FILL,
        .cullMode = VK_CULL_MODE_NONE,
        .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
        .lineWidth = 1.0f,
    };
    VkPipelineMultisampleStateCreateInfo ms = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
        .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
    };
    VkPipelineColorBlendAttachmentState ba = {
        .blendEnable = VK_TRUE,
        .srcColorBlendFactor = VK_BLEND_FACTOR_ONE,
        .dstColorBlendFactor = VK_BLEND_FACTOR_ONE,
        .colorBlendOp = VK_BLEND_OP_ADD,
        .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
        .dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
        .alphaBlendOp = VK_BLEND_OP_ADD,
        .colorWriteMask = 0xf,
    };
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1, .pAttachments = &ba,
    };
    VkGraphicsPipelineCreateInfo gpci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = 2, .pStages = stages,
        .pVertexInputState = &vi, .pInputAssemblyState = &ia, .pViewportState = &vp,
        .pRasterizationState = &rs, .pMultisampleState = &ms, .pColorBlendState = &cb,
        .layout = layout, .renderPass = rp, .basePipelineIndex = -1,
    };
    VkPipeline p;
    CHECK(vkCreateGraphicsPipelines(c->device, VK_NULL_HANDLE, 1, &gpci, NULL, &p));
    return p;
}

static VkDescriptorSetLayout make_set_layout(const struct ctx *c, const VkDescriptorSetLayoutBinding *b, uint32_t n)
{
    VkDescriptorSetLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = n,
        .pBindings = b,
    };
    VkDescriptorSetLayout l;
    CHECK(vkCreateDescriptorSetLayout(c->device, &ci, NULL, &l));
    return l;
}

static VkPipelineLayout make_layout(const struct ctx *c, VkDescriptorSetLayout dsl, VkShaderStageFlags pc_stages,
                                    uint32_t pc_size)
{
    VkPushConstantRange pcr = { pc_stages, 0, pc_size };
    VkPipelineLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &dsl,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VkPipelineLayout l;
    CHECK(vkCreatePipelineLayout(c->device, &ci, NULL, &l));
    return l;
}

static VkDescriptorSet alloc_set(const struct ctx *c, VkDescriptorSetLayout dsl)
{
    VkDescriptorSetAllocateInfo ai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = c->desc_pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &dsl,
    };
    VkDescriptorSet s;
    CHECK(vkAllocateDescriptorSets(c->device, &ai, &s));
    return s;
}

static void report_iter(uint32_t i, uint32_t warmup, uint64_t ns)
{
    if (i >= warmup && phases() && g_submit_ns + g_wait_ns <= ns)
        printf("phase: iter %u record %llu submit %llu wait %llu\n", i - warmup,
               (unsigned long long)(ns - g_submit_ns - g_wait_ns), (unsigned long long)g_submit_ns,
               (unsigned long long)g_wait_ns);
    if (i < warmup)
        printf("bench: warmup %u %llu\n", i, (unsigned long long)ns);
    else
        printf("bench: iter %u %llu\n", i - warmup, (unsigned long long)ns);
}

/* ---- dispatch-heavy ------------------------------------------------------------- */

#define ARRAY 4    /* every descriptor array in the scenes has 4 elements */
#define LOCAL 64   /* local_size_x of the compute scenes */

static void scene_dispatch(struct ctx *c, const struct options *o)
{
    printf("bench: size dispatches=%u\n", o->dispatches);
    create_desc_pool(c, 1);
    struct buffer ins[ARRAY];
    for (uint32_t k = 0; k < ARRAY; k++) {
        ins[k] = make_buffer(c, LOCAL * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        for (uint32_t i = 0; i < LOCAL; i++)
            ((uint32_t *)ins[k].map)[i] = k * 1000 + i;
    }
    struct buffer out = make_buffer(c, (VkDeviceSize)o->dispatches * LOCAL * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b[2] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ARRAY, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = make_set_layout(c, b, 2);
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_COMPUTE_BIT, 8);
    VkDescriptorSet set = alloc_set(c, dsl);
    VkDescriptorBufferInfo bi[ARRAY + 1];
    for (uint32_t k = 0; k < ARRAY; k++)
        bi[k] = (VkDescriptorBufferInfo){ ins[k].buf, 0, VK_WHOLE_SIZE };
    bi[ARRAY] = (VkDescriptorBufferInfo){ out.buf, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet w[2] = {
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0, .descriptorCount = ARRAY,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = bi },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1, .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[ARRAY] },
    };
    vkUpdateDescriptorSets(c->device, 2, w, 0, NULL);
    struct spv s = load_spv(o->spv, "dispatch.comp");
    VkShaderModule m = make_module(c, s);
    VkPipeline pipe = make_compute(c, m, layout, NULL);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        memset(out.map, 0, out.size);
        uint64_t t0 = now_ns();
        begin(c);
        vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
        vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
        for (uint32_t d = 0; d < o->dispatches; d++) {
            uint32_t pc[2] = { o->oob ? ARRAY : d % ARRAY, d * LOCAL };
            vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
            vkCmdDispatch(c->cmd, 1, 1, 1);
        }
        submit_and_wait(c);
        report_iter(it, o->warmup, now_ns() - t0);
    }
    if (!o->oob) {
        const uint32_t *v = out.map;
        for (uint32_t d = 0; d < o->dispatches; d++)
            for (uint32_t i = 0; i < LOCAL; i++) {
                uint32_t k = d % ARRAY, want = (k * 1000 + i) * 3 + k;
                if (v[d * LOCAL + i] != want) {
                    fprintf(stderr, "scene: dispatch %u word %u = %u, want %u\n", d, i, v[d * LOCAL + i], want);
                    exit(1);
                }
            }
        printf("bench: check ok\n");
    }
    vkDestroyPipeline(c->device, pipe, NULL);
    vkDestroyShaderModule(c->device, m, NULL);
    vkDestroyPipelineLayout(c->device, layout, NULL);
    vkDestroyDescriptorSetLayout(c->device, dsl, NULL);
    for (uint32_t k = 0; k < ARRAY; k++)
        free_buffer(c, &ins[k]);
    free_buffer(c, &out);
}

/* ---- shader-heavy ----------------------------------------------------------------- */

#define SHADER_WORDS 4096 /* vec4s per buffer of bufs[] in shader.comp */
#define TEX 64            /* textures are TEX x TEX */

static void scene_shader(struct ctx *c, const struct options *o)
{
    printf("bench: size invocations=%u loops=%u\n", o->invocations, o->loops);
    create_desc_pool(c, 1);
    struct buffer bufs[ARRAY];
    for (uint32_t k = 0; k < ARRAY; k++) {
        bufs[k] = make_buffer(c, SHADER_WORDS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        float *f = bufs[k].map;
        for (uint32_t j = 0; j < SHADER_WORDS; j++) {
            f[4 * j + 0] = (float)k;
            f[4 * j + 1] = (float)(j % 7);
            f[4 * j + 2] = 1.0f;
            f[4 * j + 3] = 0.0f;
        }
    }
    struct buffer out = make_buffer(c, (VkDeviceSize)o->invocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct image tex[ARRAY];
    for (uint32_t t = 0; t < ARRAY; t++)
        tex[t] = make_image(c, TEX, TEX, VK_FORMAT_R32G32B32A32_SFLOAT,
                            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    fill_textures(c, tex, ARRAY);
    VkSampler sampler = make_sampler(c);

    VkDescriptorSetLayoutBinding b[3] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ARRAY, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ARRAY, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = make_set_layout(c, b, 3);
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_COMPUTE_BIT, 8);
    VkDescriptorSet set = alloc_set(c, dsl);
    VkDescriptorBufferInfo bi[ARRAY + 1];
    VkDescriptorImageInfo ii[ARRAY];
    for (uint32_t k = 0; k < ARRAY; k++) {
        bi[k] = (VkDescriptorBufferInfo){ bufs[k].buf, 0, VK_WHOLE_SIZE };
        ii[k] = (VkDescriptorImageInfo){ sampler, tex[k].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    }
    bi[ARRAY] = (VkDescriptorBufferInfo){ out.buf, 0, VK_WHOLE_SIZE };
    VkWriteDescriptorSet w[3] = {
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0, .descriptorCount = ARRAY,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = bi },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1, .descriptorCount = ARRAY,
          .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, .pImageInfo = ii },
        { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 2, .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &bi[ARRAY] },
    };
    vkUpdateDescriptorSets(c->device, 3, w, 0, NULL);
    struct spv s = load_spv(o->spv, "shader.comp");
    VkShaderModule m = make_module(c, s);
    VkPipeline pipe = make_compute(c, m, layout, NULL);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        uint64_t t0 = now_ns();
        begin(c);
        vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
        vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
        uint32_t pc[2] = { o->loops, o->oob ? ARRAY : 0 };
        vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
        vkCmdDispatch(c->cmd, o->invocations / LOCAL, 1, 1);
        submit_and_wait(c);
        report_iter(it, o->warmup, now_ns() - t0);
    }
    if (!o->oob) {
        /* The same sums on the CPU, for a spread of invocations. All terms are
         * small integers or multiples of 1/8: float sums are exact. */
        const float *f = out.map;
        for (uint32_t g = 0; g < o->invocations; g += o->invocations / 61 + 1) {
            float want[4] = { 0, 0, 0, 0 };
            for (uint32_t i = 0; i < o->loops; i++) {
                uint32_t k = (g + i) & 3u, j = (g * 7u + i) & 4095u;
                float t = 0.125f * (float)((k ^ 1u) + 1);
                want[0] += (float)k + t;
                want[1] += (float)(j % 7) + t;
                want[2] += 1.0f + t;
                want[3] += t;
            }
            for (int q = 0; q < 4; q++)
                if (fabsf(f[4 * g + q] - want[q]) > 1e-3f * fabsf(want[q]) + 1e-3f) {
                    fprintf(stderr, "scene: invocation %u component %d = %g, want %g\n", g, q, f[4 * g + q], want[q]);
                    exit(1);
                }
        }
        printf("bench: check ok\n");
    }
    vkDestroyPipeline(c->device, pipe, NULL);
    vkDestroyShaderModule(c->device, m, NULL);
    vkDestroyPipelineLayout(c->device, layout, NULL);
    vkDestroyDescriptorSetLayout(c->device, dsl, NULL);
    vkDestroySampler(c->device, sampler, NULL);
    for (uint32_t k = 0; k < ARRAY; k++) {
        free_buffer(c, &bufs[k]);
        free_image(c, &tex[k]);
    }
    free_buffer(c, &out);
}

/* ---- draw-heavy ---------------------------------------------------------------------- */

#define TARGET 256
#define TARGET_FORMAT VK_FORMAT_R8G8B8A8_UNORM

static VkRenderPass make_render_pass(const struct ctx *c, VkImageLayout final_layout)
{
    VkAttachmentDescription att = {
        .format = TARGET_FORMAT,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = final_layout,
    };
    VkAttachmentReference ref = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &ref,
    };
    VkRenderPassCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = 1, .pAttachments = &att, .subpassCount = 1, .pSubpasses = &sub,
    };
    VkRenderPass rp;
    CHECK(vkCreateRenderPass(c->device, &ci, NULL, &rp));
    return rp;
}

static void scene_draw(struct ctx *c, const struct options *o)
{
    printf("bench: size draws=%u sets=%u target=%ux%u\n", o->draws, o->sets, TARGET, TARGET);
    create_desc_pool(c, o->sets);
    struct image tex[ARRAY];
    for (uint32_t t = 0; t < ARRAY; t++)
        tex[t] = make_image(c, TEX, TEX, VK_FORMAT_R32G32B32A32_SFLOAT,
                            VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    fill_textures(c, tex, ARRAY);
    VkSampler sampler = make_sampler(c);
    struct image target = make_image(c, TARGET, TARGET, TARGET_FORMAT,
                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    struct buffer readback = make_buffer(c, TARGET * TARGET * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkRenderPass rp = make_render_pass(c, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkFramebufferCreateInfo fbci = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = rp, .attachmentCount = 1, .pAttachments = &target.view,
        .width = TARGET, .height = TARGET, .layers = 1,
    };
    VkFramebuffer fb;
    CHECK(vkCreateFramebuffer(c->device, &fbci, NULL, &fb));

    /* One tint per set, in a uniform buffer at 256-byte steps. */
    struct buffer tints = make_buffer(c, (VkDeviceSize)o->sets * 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b[2] = {
        { 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ARRAY, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = make_set_layout(c, b, 2);
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_FRAGMENT_BIT, 4);
    VkDescriptorSet *sets = calloc(o->sets, sizeof *sets);
    if (!sets)
        die("out of memory", NULL);
    VkDescriptorImageInfo ii[ARRAY];
    for (uint32_t k = 0; k < ARRAY; k++)
        ii[k] = (VkDescriptorImageInfo){ sampler, tex[k].view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    for (uint32_t s = 0; s < o->sets; s++) {
        float *tint = (float *)((char *)tints.map + 256 * s);
        tint[0] = tint[1] = tint[2] = tint[3] = 1.0f / (float)(1 + s % 8);
        sets[s] = alloc_set(c, dsl);
        VkDescriptorBufferInfo bi = { tints.buf, 256 * (VkDeviceSize)s, 16 };
        VkWriteDescriptorSet w[2] = {
            { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[s], .dstBinding = 0,
              .descriptorCount = ARRAY, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, .pImageInfo = ii },
            { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[s], .dstBinding = 1,
              .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, .pBufferInfo = &bi },
        };
        vkUpdateDescriptorSets(c->device, 2, w, 0, NULL);
    }
    struct spv vss = load_spv(o->spv, "draw.vert"), fss = load_spv(o->spv, "draw.frag");
    VkShaderModule vs = make_module(c, vss), fs = make_module(c, fss);
    VkPipeline pipe = make_graphics(c, vs, fs, layout, rp, TARGET, NULL);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        uint64_t t0 = now_ns();
        begin(c);
        VkClearValue clear = { .color = { .float32 = { 0, 0, 0, 0 } } };
        VkRenderPassBeginInfo rpbi = {
            .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
            .renderPass = rp, .framebuffer = fb,
            .renderArea = { { 0, 0 }, { TARGET, TARGET } },
            .clearValueCount = 1, .pClearValues = &clear,
        };
        vkCmdBeginRenderPass(c->cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
        vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
        for (uint32_t d = 0; d < o->draws; d++) {
            vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &sets[d % o->sets], 0,
                                    NULL);
            uint32_t t = o->oob ? ARRAY : d % ARRAY;
            vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &t);
            vkCmdDraw(c->cmd, 6, 1, 0, d);
        }
        vkCmdEndRenderPass(c->cmd);
        VkBufferImageCopy copy = {
            .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
            .imageExtent = { TARGET, TARGET, 1 },
        };
        vkCmdCopyImageToBuffer(c->cmd, target.img, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buf, 1, &copy);
        submit_and_wait(c);
        report_iter(it, o->warmup, now_ns() - t0);
    }
    if (!o->oob) {
        /* Cell 0 (draw 0, set 0: tint 1, texture 0: 0.125) starts at pixel
         * (0,0); additive blending of draws that land on the same cell. */
        const uint8_t *px = readback.map;
        float want = 0;
        for (uint32_t d = 0; d < o->draws; d += 10000)
            want += (1.0f / (float)(1 + (d % o->sets) % 8)) * 0.125f * (float)(d % ARRAY + 1);
        int want8 = (int)lrintf(fminf(want, 1.0f) * 255.0f);
        if (abs((int)px[0] - want8) > 2) {
            fprintf(stderr, "scene: pixel (0,0) = %u, want %d\n", px[0], want8);
            exit(1);
        }
        printf("bench: check ok\n");
    }
    vkDestroyPipeline(c->device, pipe, NULL);
    vkDestroyShaderModule(c->device, vs, NULL);
    vkDestroyShaderModule(c->device, fs, NULL);
    vkDestroyPipelineLayout(c->device, layout, NULL);
    vkDestroyDescriptorSetLayout(c->device, dsl, NULL);
    vkDestroyFramebuffer(c->device, fb, NULL);
    vkDestroyRenderPass(c->device, rp, NULL);
    vkDestroySampler(c->device, sampler, NULL);
    free(sets);
    free_buffer(c, &tints);
    free_buffer(c, &readback);
    free_image(c, &target);
    for (uint32_t k = 0; k < ARRAY; k++)
        free_image(c, &tex[k]);
}

/* ---- hot loop ------------------------------------------------------------------------ */

#define HOT_WORDS 1024 /* uints per buffer: 4 KB */
#define HOT_ITERS 256  /* the shaders' loop count */

/* hot_index is idx.k[j] (the memory variants' descriptor index); --oob makes
 * every 64th one 2, out of the array of 2. */
static uint32_t hot_index(uint32_t j, int oob)
{
    return oob && j % 64 == 63 ? 2 : (j / 3) & 1;
}

/* hot_want is what invocation g of workgroup w writes (uint arithmetic wraps
 * as in the shader; bufs[k].v[j] = k * 1000 + j). */
static uint32_t hot_want(uint32_t g, uint32_t w, int masked)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < HOT_ITERS; i++) {
        uint32_t k = masked ? (w + i) & 1 : hot_index((w + i) & 1023, 0);
        acc += (k * 1000 + ((g * 7 + i) & 1023)) * 3 + k * 1000 + ((g + i * 13) & 1023);
    }
    return acc;
}

static void scene_hotloop(struct ctx *c, const struct options *o)
{
    /* masked and memory, then the hand-checked references of each */
    static const char *variants[] = { "masked", "memory", "naive", "hoisted", "flag", "masked_flag", "masked_hoisted" };
    int v = -1;
    for (int i = 0; i < 7; i++)
        if (!strcmp(o->variant, variants[i]))
            v = i;
    if (v < 0)
        bad_usage("unknown --variant", o->variant);
    int masked = !strncmp(o->variant, "masked", 6);
    uint32_t n = o->workgroups * LOCAL;
    printf("bench: size variant=%s workgroups=%u invocations=%u loops=%u\n", o->variant, o->workgroups, n, HOT_ITERS);
    create_desc_pool(c, 1);
    struct buffer bufs[2], idx = make_buffer(c, HOT_WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t k = 0; k < 2; k++) {
        bufs[k] = make_buffer(c, HOT_WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        for (uint32_t j = 0; j < HOT_WORDS; j++)
            ((uint32_t *)bufs[k].map)[j] = k * 1000 + j;
    }
    for (uint32_t j = 0; j < HOT_WORDS; j++)
        ((uint32_t *)idx.map)[j] = hot_index(j, o->oob);
    struct buffer out = make_buffer(c, (VkDeviceSize)n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    struct buffer err = make_buffer(c, 16 + 64 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b[4] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = make_set_layout(c, b, 4);
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_COMPUTE_BIT, 4);
    VkDescriptorSet set = alloc_set(c, dsl);
    /* --oob binds only the first 2 KB of each buffer of the array. */
    VkDeviceSize range = o->oob ? HOT_WORDS * 2 : VK_WHOLE_SIZE;
    VkDescriptorBufferInfo bi[5] = {
        { bufs[0].buf, 0, range }, { bufs[1].buf, 0, range }, { out.buf, 0, VK_WHOLE_SIZE },
        { idx.buf, 0, VK_WHOLE_SIZE }, { err.buf, 0, VK_WHOLE_SIZE },
    };
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < 4; i++)
        w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = i,
                                       .descriptorCount = i ? 1 : 2, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pBufferInfo = i ? &bi[i + 1] : bi };
    vkUpdateDescriptorSets(c->device, 4, w, 0, NULL);
    char name[32];
    snprintf(name, sizeof name, "hotloop_%s.comp", o->variant);
    struct spv s = load_spv(o->spv, name);
    VkShaderModule m = make_module(c, s);
    VkPipeline pipe = make_compute(c, m, layout, NULL);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        memset(err.map, 0, err.size);
        uint64_t t0 = now_ns();
        begin(c);
        vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
        vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
        vkCmdDispatch(c->cmd, o->workgroups, 1, 1);
        submit_and_wait(c);
        report_iter(it, o->warmup, now_ns() - t0);
    }
    if (v >= 2)
        printf("bench: hand-errors %u\n", *(const uint32_t *)err.map);
    if (!o->oob) {
        const uint32_t *got = out.map;
        for (uint32_t g = 0; g < n; g += n / 61 + 1) {
            uint32_t want = hot_want(g, g / LOCAL, masked);
            if (got[g] != want) {
                fprintf(stderr, "scene: invocation %u = %u, want %u\n", g, got[g], want);
                exit(1);
            }
        }
        printf("bench: check ok\n");
    }
    vkDestroyPipeline(c->device, pipe, NULL);
    vkDestroyShaderModule(c->device, m, NULL);
    free(s.words);
    vkDestroyPipelineLayout(c->device, layout, NULL);
    vkDestroyDescriptorSetLayout(c->device, dsl, NULL);
    for (uint32_t k = 0; k < 2; k++)
        free_buffer(c, &bufs[k]);
    free_buffer(c, &idx);
    free_buffer(c, &out);
    free_buffer(c, &err);
}

/* ---- pipeline creation ------------------------------------------------------------------ */

#define MAX_ENTRIES 256

struct entry {
    char name[64]; /* the first shader's file name */
    int graphics;
    struct spv a, b; /* compute: a; graphics: a = vertex, b = fragment */
};

static uint32_t load_corpus(const char *spv, struct entry *e)
{
    char dir[4096], path[4200];
    snprintf(dir, sizeof dir, "%s/corpus", spv);
    snprintf(path, sizeof path, "%s/corpus.txt", dir);
    FILE *f = fopen(path, "r");
    if (!f)
        die("cannot open the corpus list (build it with make bench-apps)", path);
    char line[1024];
    uint32_t n = 0;
    while (fgets(line, sizeof line, f)) {
        char kind[16], x[256], y[256];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int got = sscanf(line, "%15s %255s %255s", kind, x, y);
        if (n == MAX_ENTRIES)
            die("too many corpus entries", path);
        if (got == 2 && !strcmp(kind, "comp")) {
            e[n] = (struct entry){ .graphics = 0, .a = load_spv(dir, x) };
        } else if (got == 3 && !strcmp(kind, "gfx")) {
            e[n] = (struct entry){ .graphics = 1, .a = load_spv(dir, x), .b = load_spv(dir, y) };
        } else {
            die("bad corpus line", line);
        }
        snprintf(e[n].name, sizeof e[n].name, "%.63s", x);
        n++;
    }
    fclose(f);
    return n;
}

static void scene_pipeline(struct ctx *c, const struct options *o)
{
    struct entry *e = calloc(MAX_ENTRIES, sizeof *e);
    if (!e)
        die("out of memory", NULL);
    uint32_t n = load_corpus(o->spv, e), shaders = 0;
    size_t bytes = 0;
    for (uint32_t i = 0; i < n; i++) {
        shaders += e[i].graphics ? 2 : 1;
        bytes += e[i].a.size + e[i].b.size;
    }
    printf("bench: size pipelines=%u shaders=%u spirv-bytes=%zu\n", n, shaders, bytes);

    VkDescriptorSetLayoutBinding b[3] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ARRAY, VK_SHADER_STAGE_ALL, NULL },
        { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ARRAY, VK_SHADER_STAGE_ALL, NULL },
        { 2, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
    };
    VkDescriptorSetLayout dsl = make_set_layout(c, b, 3), lsl = VK_NULL_HANDLE;
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_ALL, 16);
    if (o->layer_set) { /* the layer's set (gpuav/record.go, inputs.go) as set 1 */
        VkDescriptorSetLayoutBinding lb[4] = {
            { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
            { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
            { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
            { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
        };
        lsl = make_set_layout(c, lb, 4);
        VkDescriptorSetLayout both[2] = { dsl, lsl };
        VkPushConstantRange pcr = { VK_SHADER_STAGE_ALL, 0, 16 };
        VkPipelineLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 2,
                                          .pSetLayouts = both, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr };
        vkDestroyPipelineLayout(c->device, layout, NULL);
        CHECK(vkCreatePipelineLayout(c->device, &ci, NULL, &layout));
    }
    VkRenderPass rp = make_render_pass(c, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    VkShaderModule *mods = calloc(2 * n, sizeof *mods);
    VkPipeline *pipes = calloc(n, sizeof *pipes);
    if (!mods || !pipes)
        die("out of memory", NULL);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        uint32_t seed = it + 1;
        VkSpecializationMapEntry me = { 0, 0, 4 };
        VkSpecializationInfo spec = { 1, &me, 4, &seed };
        uint64_t t0 = now_ns();
        for (uint32_t i = 0; i < n; i++) {
            uint64_t m0 = now_ns();
            mods[2 * i] = make_module(c, e[i].a);
            if (e[i].graphics)
                mods[2 * i + 1] = make_module(c, e[i].b);
            uint64_t m1 = now_ns();
            if (e[i].graphics)
                pipes[i] = make_graphics(c, mods[2 * i], mods[2 * i + 1], layout, rp, TARGET, &spec);
            else
                pipes[i] = make_compute(c, mods[2 * i], layout, &spec);
            if (it + 1 == o->warmup + o->iters && phases())
                printf("phase: pipeline %u %s modules %llu pipeline %llu\n", i, e[i].name,
                       (unsigned long long)(m1 - m0), (unsigned long long)(now_ns() - m1));
        }
        uint64_t t1 = now_ns();
        for (uint32_t i = 0; i < n; i++) {
            vkDestroyPipeline(c->device, pipes[i], NULL);
            vkDestroyShaderModule(c->device, mods[2 * i], NULL);
            if (e[i].graphics)
                vkDestroyShaderModule(c->device, mods[2 * i + 1], NULL);
        }
        report_iter(it, o->warmup, t1 - t0);
    }
    printf("bench: check ok\n");
    vkDestroyRenderPass(c->device, rp, NULL);
    vkDestroyPipelineLayout(c->device, layout, NULL);
    vkDestroyDescriptorSetLayout(c->device, dsl, NULL);
    if (lsl)
        vkDestroyDescriptorSetLayout(c->device, lsl, NULL);
    for (uint32_t i = 0; i < n; i++) {
        free(e[i].a.words);
        free(e[i].b.words);
    }
    free(e);
    free(mods);
    free(pipes);
}

/* ---- main ------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    struct options o = parse_options(argc, argv);
    setvbuf(stdout, NULL, _IOLBF, 0);
    void (*run)(struct ctx *, const struct options *) = NULL;
    if (!strcmp(o.scene, "dispatch"))
        run = scene_dispatch;
    else if (!strcmp(o.scene, "shader"))
        run = scene_shader;
    else if (!strcmp(o.scene, "draw"))
        run = scene_draw;
    else if (!strcmp(o.scene, "hotloop"))
        run = scene_hotloop;
    else if (!strcmp(o.scene, "pipeline"))
        run = scene_pipeline;
    else
        bad_usage("unknown scene", o.scene);
    printf("bench: scene %s\n", o.scene);

    struct ctx c = { 0 };
    create_instance(&c);
    create_device(&c);
    run(&c, &o);

    CHECK(vkDeviceWaitIdle(c.device));
    if (c.desc_pool)
        vkDestroyDescriptorPool(c.device, c.desc_pool, NULL);
    vkDestroyFence(c.device, c.fence, NULL);
    vkDestroyCommandPool(c.device, c.pool, NULL);
    vkDestroyDevice(c.device, NULL);
    if (c.messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(c.instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy)
            destroy(c.instance, c.messenger, NULL);
    }
    vkDestroyInstance(c.instance, NULL);
    printf("bench: vk-errors %u\n", vk_errors);
    printf("bench: done\n");
    return 0;
}
