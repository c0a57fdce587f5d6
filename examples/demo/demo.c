/*
 * demo: a small, self-contained Vulkan 1.1 app that indexes descriptor arrays
 * out of bounds, so that GPU-assisted validation (ours, or the Khronos
 * validation layer's GPU-AV) has something to catch.
 *
 *   1. Compute: shaders/oob_compute.comp writes through outs[pc.idx], an array
 *      of 2 storage buffers (set 0, binding 0). The default idx = 3 is out of
 *      bounds. The offending access is on LINE 9 of oob_compute.comp:
 *          9:    outs[pc.idx].v[i] = i * 3u;
 *      vkCmdDispatch(1,1,1) with local_size_x = 4 runs 4 invocations, so 4
 *      out-of-bounds records are expected (global invocation id x = 0..3).
 *
 *   2. Graphics, offscreen: one full-screen triangle into an 8x8 RGBA8 color
 *      attachment. shaders/oob_fragment.frag (modelled on the cube.frag of the
 *      Khronos GPU-AV design document) samples tex[pc.tex_ind], an array of 6
 *      combined image samplers (set 0, binding 0). The default tex_ind = 6 is
 *      one past the end. The offending access is on LINE 9 of oob_fragment.frag:
 *          9:    uFragColor = light * texture(tex[pc.tex_ind], texcoord.xy);
 *      The triangle covers all 8x8 pixels: 64 fragments, 64 records expected.
 *
 * Compute and graphics are recorded in separate command buffers ("compute-cmd"
 * and "draw-cmd") and submitted separately, each waited on with a fence.
 *
 * Flags:
 *   --compute-only     run only the compute part
 *   --graphics-only    run only the graphics part
 *   --clean            use in-bounds indices (idx = 1, tex_ind = 5)
 *   --index N          compute descriptor index (default 3; 1 with --clean)
 *   --tex-index N      fragment descriptor index (default 6; 5 with --clean)
 *   --verbose          also print INFO/VERBOSE debug messages (loader chatter)
 *
 * Out-of-bounds descriptor indexing is undefined behaviour: without a
 * validation layer that guards the access, a driver may crash or corrupt
 * memory. Run the default mode under a GPU-AV layer; --clean runs anywhere.
 *
 * With VK_EXT_debug_utils available, every debug message the messenger gets
 * (WARNING and ERROR; all severities with --verbose) is printed to stderr as
 * "[vk <severity>] <pMessageIdName>: <pMessage>". pMessage may span lines.
 *
 * Every VkResult is checked: on failure the app prints
 * "demo: <call> failed: <VkResult number>" to stderr and exits 1.
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vulkan/vulkan.h>

/* SPIR-V compiled by examples/examples.mk into build/shaders/ (-g: the module
 * carries OpSource text and OpLine, with file names "oob_compute.comp" etc.). */
#include "oob_compute.comp.h"  /* oob_compute_spv[]  */
#include "fullscreen.vert.h"   /* fullscreen_spv[]   */
#include "oob_fragment.frag.h" /* oob_fragment_spv[] */

#define COMPUTE_BUFFERS 2      /* outs[2] in oob_compute.comp */
#define COMPUTE_WORDS 16       /* uints per storage buffer */
#define COMPUTE_LOCAL_SIZE 4   /* local_size_x in oob_compute.comp */
#define TEXTURES 6             /* tex[6] in oob_fragment.frag */
#define TEX_SIZE 4             /* the sampled image is TEX_SIZE x TEX_SIZE */
#define TARGET_SIZE 8          /* the color attachment is 8x8 */
#define TARGET_FORMAT VK_FORMAT_R8G8B8A8_UNORM
#define FRAG_PC_OFFSET 16      /* layout(offset = 16) uint tex_ind */

/* ---- error handling ------------------------------------------------------ */

/* Print "demo: <call> failed: <n>" where <call> is the function name (the
 * text of the expression up to its first '('), then exit 1. */
static void check_result(VkResult r, const char *expr)
{
    if (r == VK_SUCCESS)
        return;
    fprintf(stderr, "demo: %.*s failed: %d\n", (int)strcspn(expr, "("), expr, (int)r);
    exit(1);
}
#define CHECK(call) check_result((call), #call)

static void die(const char *msg)
{
    fprintf(stderr, "demo: %s\n", msg);
    exit(1);
}

/* ---- debug utils ----------------------------------------------------------- */

/* Extension functions, NULL when VK_EXT_debug_utils is not available. */
static PFN_vkCreateDebugUtilsMessengerEXT pfnCreateDebugUtilsMessenger;
static PFN_vkDestroyDebugUtilsMessengerEXT pfnDestroyDebugUtilsMessenger;
static PFN_vkSetDebugUtilsObjectNameEXT pfnSetDebugUtilsObjectName;
static PFN_vkCmdBeginDebugUtilsLabelEXT pfnCmdBeginDebugUtilsLabel;
static PFN_vkCmdEndDebugUtilsLabelEXT pfnCmdEndDebugUtilsLabel;

static const char *severity_name(VkDebugUtilsMessageSeverityFlagBitsEXT s)
{
    if (s & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
        return "error";
    if (s & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT)
        return "warning";
    if (s & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT)
        return "info";
    return "verbose";
}

/* Prints every message as "[vk <severity>] <pMessageIdName>: <pMessage>".
 * Tests parse this format: keep it on one line prefix, message as given. */
static VKAPI_ATTR VkBool32 VKAPI_CALL debug_callback(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity,
    VkDebugUtilsMessageTypeFlagsEXT types,
    const VkDebugUtilsMessengerCallbackDataEXT *data,
    void *user)
{
    (void)types;
    (void)user;
    fprintf(stderr, "[vk %s] %s: %s\n", severity_name(severity),
            data->pMessageIdName ? data->pMessageIdName : "(none)",
            data->pMessage ? data->pMessage : "");
    fflush(stderr);
    return VK_FALSE; /* never abort the call that triggered the message */
}

static void set_name(VkDevice dev, VkObjectType type, uint64_t handle, const char *name)
{
    if (!pfnSetDebugUtilsObjectName)
        return;
    VkDebugUtilsObjectNameInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    check_result(pfnSetDebugUtilsObjectName(dev, &info), "vkSetDebugUtilsObjectNameEXT");
}
/* Non-dispatchable handles are uint64_t or pointers depending on the
 * platform; dispatchable ones are pointers. Cast through uintptr_t for both. */
#define NAME(dev, type, obj, name) set_name((dev), (type), (uint64_t)(uintptr_t)(obj), (name))

static void begin_label(VkCommandBuffer cmd, const char *name)
{
    if (!pfnCmdBeginDebugUtilsLabel)
        return;
    VkDebugUtilsLabelEXT label = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT,
        .pLabelName = name,
    };
    pfnCmdBeginDebugUtilsLabel(cmd, &label);
}

static void end_label(VkCommandBuffer cmd)
{
    if (pfnCmdEndDebugUtilsLabel)
        pfnCmdEndDebugUtilsLabel(cmd);
}

/* ---- options --------------------------------------------------------------- */

struct options {
    int run_compute;
    int run_graphics;
    int verbose;      /* also print INFO and VERBOSE debug messages */
    uint32_t idx;     /* compute push constant */
    uint32_t tex_ind; /* fragment push constant */
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: demo [--compute-only | --graphics-only] [--clean] [--index N] [--tex-index N] [--verbose]\n"
            "  --compute-only   run only the compute dispatch\n"
            "  --graphics-only  run only the draw\n"
            "  --clean          in-bounds indices (idx=1, tex_ind=5): nothing to report\n"
            "  --index N        compute descriptor index into outs[2] (default 3)\n"
            "  --tex-index N    fragment descriptor index into tex[6] (default 6)\n"
            "  --verbose        also print INFO and VERBOSE debug messages (loader chatter)\n");
}

static void bad_usage(const char *why, const char *arg)
{
    fprintf(stderr, "demo: %s%s%s\n", why, arg ? ": " : "", arg ? arg : "");
    usage(stderr);
    exit(2);
}

static uint32_t parse_u32(const char *flag, const char *s)
{
    if (!s)
        bad_usage("missing value for", flag);
    char *end = NULL;
    unsigned long long v = strtoull(s, &end, 0);
    if (*s == '\0' || *s == '-' || *end != '\0' || v > UINT32_MAX)
        bad_usage("bad number", s);
    return (uint32_t)v;
}

static struct options parse_options(int argc, char **argv)
{
    struct options o = { .run_compute = 1, .run_graphics = 1 };
    int compute_only = 0, graphics_only = 0, clean = 0;
    int have_idx = 0, have_tex = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--compute-only")) {
            compute_only = 1;
        } else if (!strcmp(a, "--graphics-only")) {
            graphics_only = 1;
        } else if (!strcmp(a, "--verbose")) {
            o.verbose = 1;
        } else if (!strcmp(a, "--clean")) {
            clean = 1;
        } else if (!strcmp(a, "--index")) {
            o.idx = parse_u32(a, i + 1 < argc ? argv[++i] : NULL);
            have_idx = 1;
        } else if (!strcmp(a, "--tex-index")) {
            o.tex_ind = parse_u32(a, i + 1 < argc ? argv[++i] : NULL);
            have_tex = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else {
            bad_usage("unknown flag", a);
        }
    }
    if (compute_only && graphics_only)
        bad_usage("--compute-only and --graphics-only are exclusive", NULL);
    if (compute_only)
        o.run_graphics = 0;
    if (graphics_only)
        o.run_compute = 0;
    /* An explicit --index / --tex-index wins over --clean, in any order. */
    if (!have_idx)
        o.idx = clean ? 1 : 3;
    if (!have_tex)
        o.tex_ind = clean ? 5 : 6;
    return o;
}

/* ---- device objects shared by both parts ---------------------------------- */

struct ctx {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice phys;
    VkPhysicalDeviceMemoryProperties mem_props;
    uint32_t queue_family;
    VkDevice device;
    VkQueue queue;
    VkCommandPool cmd_pool;
    VkDescriptorPool desc_pool;
    VkFence fence;
    /* Both command buffers live until the end, so they have distinct handles
     * (a freed-then-allocated buffer may reuse the same one). */
    VkCommandBuffer compute_cmd; /* "compute-cmd" */
    VkCommandBuffer draw_cmd;    /* "draw-cmd"    */
};

static int has_extension(const VkExtensionProperties *exts, uint32_t n, const char *name)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(exts[i].extensionName, name))
            return 1;
    return 0;
}

static void create_instance(struct ctx *c, int verbose)
{
    uint32_t api = VK_API_VERSION_1_0;
    CHECK(vkEnumerateInstanceVersion(&api));
    if (api < VK_API_VERSION_1_1)
        die("the Vulkan loader does not support Vulkan 1.1");

    uint32_t n = 0;
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &n, NULL));
    VkExtensionProperties *exts = calloc(n ? n : 1, sizeof *exts);
    if (!exts)
        die("out of memory");
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &n, exts));
    int debug_utils = has_extension(exts, n, VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    free(exts);

    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        /* Warnings and errors (GPU-AV reports are errors); --verbose adds
         * INFO and VERBOSE, which the loader alone fills with ~90 lines. */
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                           (verbose ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT |
                                      VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT : 0),
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = debug_callback,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "gpuav-dbg demo",
        .applicationVersion = 1,
        .pEngineName = "none",
        .engineVersion = 1,
        /* GPU-AV in the Khronos layer needs at least Vulkan 1.1. */
        .apiVersion = VK_API_VERSION_1_1,
    };
    const char *ext_names[] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        /* Chaining the messenger info also reports messages emitted during
         * vkCreateInstance/vkDestroyInstance. */
        .pNext = debug_utils ? &mci : NULL,
        .pApplicationInfo = &app,
        .enabledExtensionCount = debug_utils ? 1 : 0,
        .ppEnabledExtensionNames = debug_utils ? ext_names : NULL,
    };
    CHECK(vkCreateInstance(&ici, NULL, &c->instance));

    if (debug_utils) {
        /* The debug utils entry points are instance-level: look them up with
         * vkGetInstanceProcAddr so the loader dispatches them correctly. */
        pfnCreateDebugUtilsMessenger = (PFN_vkCreateDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(c->instance, "vkCreateDebugUtilsMessengerEXT");
        pfnDestroyDebugUtilsMessenger = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(c->instance, "vkDestroyDebugUtilsMessengerEXT");
        pfnSetDebugUtilsObjectName = (PFN_vkSetDebugUtilsObjectNameEXT)
            vkGetInstanceProcAddr(c->instance, "vkSetDebugUtilsObjectNameEXT");
        pfnCmdBeginDebugUtilsLabel = (PFN_vkCmdBeginDebugUtilsLabelEXT)
            vkGetInstanceProcAddr(c->instance, "vkCmdBeginDebugUtilsLabelEXT");
        pfnCmdEndDebugUtilsLabel = (PFN_vkCmdEndDebugUtilsLabelEXT)
            vkGetInstanceProcAddr(c->instance, "vkCmdEndDebugUtilsLabelEXT");
        if (!pfnCreateDebugUtilsMessenger || !pfnDestroyDebugUtilsMessenger)
            die("VK_EXT_debug_utils is enabled but its functions are missing");
        CHECK(pfnCreateDebugUtilsMessenger(c->instance, &mci, NULL, &c->messenger));
    }
}

static VkCommandBuffer alloc_cmd(const struct ctx *c, const char *name)
{
    VkCommandBufferAllocateInfo cbai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = c->cmd_pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cmd;
    CHECK(vkAllocateCommandBuffers(c->device, &cbai, &cmd));
    NAME(c->device, VK_OBJECT_TYPE_COMMAND_BUFFER, cmd, name);
    return cmd;
}

static void create_device(struct ctx *c)
{
    uint32_t n = 0;
    CHECK(vkEnumeratePhysicalDevices(c->instance, &n, NULL));
    if (n == 0)
        die("no Vulkan physical device");
    VkPhysicalDevice *devs = calloc(n, sizeof *devs);
    if (!devs)
        die("out of memory");
    /* VK_INCOMPLETE is impossible here (n is the full count), keep CHECK. */
    CHECK(vkEnumeratePhysicalDevices(c->instance, &n, devs));
    c->phys = devs[0];
    free(devs);

    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(c->phys, &props);
    printf("demo: device %s (Vulkan %u.%u.%u)\n", props.deviceName,
           VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion),
           VK_API_VERSION_PATCH(props.apiVersion));
    if (props.apiVersion < VK_API_VERSION_1_1)
        die("the device does not support Vulkan 1.1");
    vkGetPhysicalDeviceMemoryProperties(c->phys, &c->mem_props);

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c->phys, &nq, NULL);
    VkQueueFamilyProperties *qf = calloc(nq ? nq : 1, sizeof *qf);
    if (!qf)
        die("out of memory");
    vkGetPhysicalDeviceQueueFamilyProperties(c->phys, &nq, qf);
    const VkQueueFlags want = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT;
    c->queue_family = UINT32_MAX;
    for (uint32_t i = 0; i < nq; i++) {
        if ((qf[i].queueFlags & want) == want && qf[i].queueCount > 0) {
            c->queue_family = i;
            break;
        }
    }
    free(qf);
    if (c->queue_family == UINT32_MAX)
        die("no queue family with graphics and compute");

    /* Both shaders index a descriptor array with a push constant, i.e. with a
     * dynamically uniform (not constant) expression. Core Vulkan allows that
     * only with these two features; nothing else is enabled. The arrays are
     * sized in the shaders, so descriptor indexing is not needed. */
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->phys, &have);
    if (!have.shaderStorageBufferArrayDynamicIndexing)
        die("device lacks shaderStorageBufferArrayDynamicIndexing");
    if (!have.shaderSampledImageArrayDynamicIndexing)
        die("device lacks shaderSampledImageArrayDynamicIndexing");
    VkPhysicalDeviceFeatures features = {
        .shaderStorageBufferArrayDynamicIndexing = VK_TRUE,
        .shaderSampledImageArrayDynamicIndexing = VK_TRUE,
    };

    const float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = c->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
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
    CHECK(vkCreateCommandPool(c->device, &cpci, NULL, &c->cmd_pool));

    /* One pool for both parts: one set of 2 storage buffers, one set of 6
     * combined image samplers. */
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, COMPUTE_BUFFERS },
        { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, TEXTURES },
    };
    VkDescriptorPoolCreateInfo dpci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 2,
        .poolSizeCount = 2,
        .pPoolSizes = sizes,
    };
    CHECK(vkCreateDescriptorPool(c->device, &dpci, NULL, &c->desc_pool));

    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    CHECK(vkCreateFence(c->device, &fci, NULL, &c->fence));

    c->compute_cmd = alloc_cmd(c, "compute-cmd");
    c->draw_cmd = alloc_cmd(c, "draw-cmd");
}

/* Pick a memory type allowed by `bits` with all of `want`; fall back to any
 * allowed type when `want` cannot be met and `strict` is 0. */
static uint32_t find_memory_type(const struct ctx *c, uint32_t bits, VkMemoryPropertyFlags want, int strict)
{
    for (uint32_t i = 0; i < c->mem_props.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (c->mem_props.memoryTypes[i].propertyFlags & want) == want)
            return i;
    if (!strict)
        for (uint32_t i = 0; i < c->mem_props.memoryTypeCount; i++)
            if (bits & (1u << i))
                return i;
    die("no suitable memory type");
    return 0;
}

static VkDeviceMemory alloc_memory(const struct ctx *c, VkMemoryRequirements req,
                                   VkMemoryPropertyFlags want, int strict)
{
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = find_memory_type(c, req.memoryTypeBits, want, strict),
    };
    VkDeviceMemory mem;
    CHECK(vkAllocateMemory(c->device, &mai, NULL, &mem));
    return mem;
}

static VkShaderModule create_shader(const struct ctx *c, const uint32_t *code, size_t size,
                                    const char *name)
{
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = size,
        .pCode = code,
    };
    VkShaderModule m;
    CHECK(vkCreateShaderModule(c->device, &smci, NULL, &m));
    NAME(c->device, VK_OBJECT_TYPE_SHADER_MODULE, m, name);
    return m;
}

/* Submit one command buffer, wait for it on the fence, reset the fence. */
static void submit_and_wait(const struct ctx *c, VkCommandBuffer cmd)
{
    VkSubmitInfo si = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
        .commandBufferCount = 1,
        .pCommandBuffers = &cmd,
    };
    CHECK(vkQueueSubmit(c->queue, 1, &si, c->fence));
    CHECK(vkWaitForFences(c->device, 1, &c->fence, VK_TRUE, UINT64_MAX));
    CHECK(vkResetFences(c->device, 1, &c->fence));
}

/* ---- compute ------------------------------------------------------------------ */

static void run_compute(const struct ctx *c, uint32_t idx)
{
    VkDevice dev = c->device;
    const VkDeviceSize size = COMPUTE_WORDS * sizeof(uint32_t);

    /* Two host-visible storage buffers of 16 uints, zeroed. */
    VkBuffer bufs[COMPUTE_BUFFERS];
    VkDeviceMemory mems[COMPUTE_BUFFERS];
    for (int b = 0; b < COMPUTE_BUFFERS; b++) {
        VkBufferCreateInfo bci = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
            .size = size,
            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
            .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        };
        CHECK(vkCreateBuffer(dev, &bci, NULL, &bufs[b]));
        NAME(dev, VK_OBJECT_TYPE_BUFFER, bufs[b], b == 0 ? "outs[0]" : "outs[1]");
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(dev, bufs[b], &req);
        mems[b] = alloc_memory(c, req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 1);
        CHECK(vkBindBufferMemory(dev, bufs[b], mems[b], 0));
        void *p;
        CHECK(vkMapMemory(dev, mems[b], 0, VK_WHOLE_SIZE, 0, &p));
        memset(p, 0, (size_t)size);
        vkUnmapMemory(dev, mems[b]); /* coherent: no flush needed */
    }

    /* set 0, binding 0: an array of 2 storage buffers (outs[2]). */
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = COMPUTE_BUFFERS,
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &binding,
    };
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));

    /* push_constant { uint idx; } at offset 0, 4 bytes, compute stage. */
    VkPushConstantRange pcr = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
        .offset = 0,
        .size = sizeof(uint32_t),
    };
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &dsl,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));

    VkDescriptorSetAllocateInfo dsai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = c->desc_pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &dsl,
    };
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
    VkDescriptorBufferInfo infos[COMPUTE_BUFFERS];
    for (int b = 0; b < COMPUTE_BUFFERS; b++)
        infos[b] = (VkDescriptorBufferInfo){ .buffer = bufs[b], .offset = 0, .range = VK_WHOLE_SIZE };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 0,
        .dstArrayElement = 0,
        .descriptorCount = COMPUTE_BUFFERS,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = infos,
    };
    vkUpdateDescriptorSets(dev, 1, &write, 0, NULL);

    VkShaderModule cs = create_shader(c, oob_compute_spv, sizeof oob_compute_spv, "oob_compute.comp");
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = cs,
            .pName = "main",
        },
        .layout = layout,
        .basePipelineIndex = -1,
    };
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline));
    NAME(dev, VK_OBJECT_TYPE_PIPELINE, pipeline, "oob-compute-pipeline");

    VkCommandBuffer cmd = c->compute_cmd;
    VkCommandBufferBeginInfo cbbi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    CHECK(vkBeginCommandBuffer(cmd, &cbbi));
    begin_label(cmd, "compute pass");
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof idx, &idx);
    /* One workgroup of 4 invocations: outs[idx].v[0..3] = 0, 3, 6, 9. */
    vkCmdDispatch(cmd, 1, 1, 1);
    end_label(cmd);
    /* Make the shader writes visible to the host read below. */
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT,
                         0, 1, &mb, 0, NULL, 0, NULL);
    CHECK(vkEndCommandBuffer(cmd));

    submit_and_wait(c, cmd);
    printf("demo: compute dispatched idx=%u\n", idx);

    /* Only an in-bounds index wrote anything we can look at. */
    if (idx < COMPUTE_BUFFERS) {
        uint32_t *p;
        CHECK(vkMapMemory(dev, mems[idx], 0, VK_WHOLE_SIZE, 0, (void **)&p));
        printf("demo: compute outs[%u].v[0..3] = %u %u %u %u\n", idx, p[0], p[1], p[2], p[3]);
        vkUnmapMemory(dev, mems[idx]);
    }

    vkDestroyPipeline(dev, pipeline, NULL);
    vkDestroyShaderModule(dev, cs, NULL);
    /* The pool was not created with FREE_DESCRIPTOR_SET_BIT: its sets go with
     * vkDestroyDescriptorPool at the end. */
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    for (int b = 0; b < COMPUTE_BUFFERS; b++) {
        vkDestroyBuffer(dev, bufs[b], NULL);
        vkFreeMemory(dev, mems[b], NULL);
    }
}

/* ---- graphics ---------------------------------------------------------------- */

static void create_image(const struct ctx *c, uint32_t w, uint32_t h, VkImageUsageFlags usage,
                         const char *name, VkImage *img, VkDeviceMemory *mem, VkImageView *view)
{
    VkDevice dev = c->device;
    VkImageCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = TARGET_FORMAT,
        .extent = { w, h, 1 },
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    CHECK(vkCreateImage(dev, &ici, NULL, img));
    NAME(dev, VK_OBJECT_TYPE_IMAGE, *img, name);
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, *img, &req);
    *mem = alloc_memory(c, req, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
    CHECK(vkBindImageMemory(dev, *img, *mem, 0));
    VkImageViewCreateInfo ivci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = *img,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = TARGET_FORMAT,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    CHECK(vkCreateImageView(dev, &ivci, NULL, view));
}

static void run_graphics(const struct ctx *c, uint32_t tex_ind)
{
    VkDevice dev = c->device;

    /* The one sampled image behind all 6 descriptors, and the color target.
     * R8G8B8A8_UNORM supports both uses on every Vulkan device. */
    VkImage tex, target;
    VkDeviceMemory tex_mem, target_mem;
    VkImageView tex_view, target_view;
    create_image(c, TEX_SIZE, TEX_SIZE, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                 "texture", &tex, &tex_mem, &tex_view);
    create_image(c, TARGET_SIZE, TARGET_SIZE, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT,
                 "color-target", &target, &target_mem, &target_view);

    VkSamplerCreateInfo sci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_NEAREST,
        .minFilter = VK_FILTER_NEAREST,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
        .maxLod = 0.0f,
    };
    VkSampler sampler;
    CHECK(vkCreateSampler(dev, &sci, NULL, &sampler));

    /* Render pass: one color attachment, cleared then stored. */
    VkAttachmentDescription att = {
        .format = TARGET_FORMAT,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
    };
    VkAttachmentReference ref = { 0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL };
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &ref,
    };
    VkRenderPassCreateInfo rpci = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &att,
        .subpassCount = 1,
        .pSubpasses = &sub,
    };
    VkRenderPass rp;
    CHECK(vkCreateRenderPass(dev, &rpci, NULL, &rp));
    VkFramebufferCreateInfo fbci = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = rp,
        .attachmentCount = 1,
        .pAttachments = &target_view,
        .width = TARGET_SIZE,
        .height = TARGET_SIZE,
        .layers = 1,
    };
    VkFramebuffer fb;
    CHECK(vkCreateFramebuffer(dev, &fbci, NULL, &fb));

    /* set 0, binding 0: 6 combined image samplers (tex[6]). */
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .descriptorCount = TEXTURES,
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &binding,
    };
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));

    /* push_constant { layout(offset = 16) uint tex_ind; }: bytes 16..19,
     * fragment stage only (the vertex shader has no push constants). */
    VkPushConstantRange pcr = {
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
        .offset = FRAG_PC_OFFSET,
        .size = sizeof(uint32_t),
    };
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = 1,
        .pSetLayouts = &dsl,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));

    VkDescriptorSetAllocateInfo dsai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = c->desc_pool,
        .descriptorSetCount = 1,
        .pSetLayouts = &dsl,
    };
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
    VkDescriptorImageInfo infos[TEXTURES];
    for (int i = 0; i < TEXTURES; i++)
        infos[i] = (VkDescriptorImageInfo){
            .sampler = sampler,
            .imageView = tex_view,
            .imageLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        };
    VkWriteDescriptorSet write = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 0,
        .dstArrayElement = 0,
        .descriptorCount = TEXTURES,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .pImageInfo = infos,
    };
    vkUpdateDescriptorSets(dev, 1, &write, 0, NULL);

    VkShaderModule vs = create_shader(c, fullscreen_spv, sizeof fullscreen_spv, "fullscreen.vert");
    VkShaderModule fs = create_shader(c, oob_fragment_spv, sizeof oob_fragment_spv, "oob_fragment.frag");
    VkPipelineShaderStageCreateInfo stages[2] = {
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
          .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main" },
        { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
          .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main" },
    };
    /* No vertex buffers: positions come from gl_VertexIndex. */
    VkPipelineVertexInputStateCreateInfo vi = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
    };
    VkPipelineInputAssemblyStateCreateInfo ia = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    };
    VkViewport viewport = { 0.0f, 0.0f, (float)TARGET_SIZE, (float)TARGET_SIZE, 0.0f, 1.0f };
    VkRect2D scissor = { { 0, 0 }, { TARGET_SIZE, TARGET_SIZE } };
    VkPipelineViewportStateCreateInfo vp = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
        .viewportCount = 1,
        .pViewports = &viewport,
        .scissorCount = 1,
        .pScissors = &scissor,
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
    VkPipelineColorBlendAttachmentState blend_att = {
        .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                          VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT,
    };
    VkPipelineColorBlendStateCreateInfo cb = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &blend_att,
    };
    VkGraphicsPipelineCreateInfo gpci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .stageCount = 2,
        .pStages = stages,
        .pVertexInputState = &vi,
        .pInputAssemblyState = &ia,
        .pViewportState = &vp,
        .pRasterizationState = &rs,
        .pMultisampleState = &ms,
        .pColorBlendState = &cb,
        .layout = layout,
        .renderPass = rp,
        .subpass = 0,
        .basePipelineIndex = -1,
    };
    VkPipeline pipeline;
    CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, NULL, &pipeline));
    NAME(dev, VK_OBJECT_TYPE_PIPELINE, pipeline, "oob-draw-pipeline");

    VkCommandBuffer cmd = c->draw_cmd;
    VkCommandBufferBeginInfo cbbi = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
    };
    CHECK(vkBeginCommandBuffer(cmd, &cbbi));

    /* Fill the texture: UNDEFINED -> TRANSFER_DST, clear, -> SHADER_READ_ONLY. */
    VkImageMemoryBarrier to_dst = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = 0,
        .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = tex,
        .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 },
    };
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         0, 0, NULL, 0, NULL, 1, &to_dst);
    VkClearColorValue tex_color = { .float32 = { 0.25f, 0.5f, 0.75f, 1.0f } };
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(cmd, tex, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &tex_color, 1, &range);
    VkImageMemoryBarrier to_read = to_dst;
    to_read.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_read.dstAccessMask = VK_ACCESS_SHADER_READ_BIT;
    to_read.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
    to_read.newLayout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                         0, 0, NULL, 0, NULL, 1, &to_read);

    VkClearValue clear = { .color = { .float32 = { 0.0f, 0.0f, 0.0f, 1.0f } } };
    VkRenderPassBeginInfo rpbi = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
        .renderPass = rp,
        .framebuffer = fb,
        .renderArea = { { 0, 0 }, { TARGET_SIZE, TARGET_SIZE } },
        .clearValueCount = 1,
        .pClearValues = &clear,
    };
    vkCmdBeginRenderPass(cmd, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, FRAG_PC_OFFSET, sizeof tex_ind, &tex_ind);
    begin_label(cmd, "draw pass");
    /* One triangle covering all 8x8 pixels: 64 fragment invocations. */
    vkCmdDraw(cmd, 3, 1, 0, 0);
    end_label(cmd);
    vkCmdEndRenderPass(cmd);
    CHECK(vkEndCommandBuffer(cmd));

    submit_and_wait(c, cmd);
    printf("demo: draw done tex_ind=%u\n", tex_ind);

    vkDestroyPipeline(dev, pipeline, NULL);
    vkDestroyShaderModule(dev, fs, NULL);
    vkDestroyShaderModule(dev, vs, NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    vkDestroyFramebuffer(dev, fb, NULL);
    vkDestroyRenderPass(dev, rp, NULL);
    vkDestroySampler(dev, sampler, NULL);
    vkDestroyImageView(dev, target_view, NULL);
    vkDestroyImage(dev, target, NULL);
    vkFreeMemory(dev, target_mem, NULL);
    vkDestroyImageView(dev, tex_view, NULL);
    vkDestroyImage(dev, tex, NULL);
    vkFreeMemory(dev, tex_mem, NULL);
}

/* ---- main ------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    struct options o = parse_options(argc, argv);
    /* Keep stdout lines in order with the layer's stderr output. */
    setvbuf(stdout, NULL, _IOLBF, 0);

    struct ctx c = { 0 };
    create_instance(&c, o.verbose);
    create_device(&c);

    if (o.run_compute)
        run_compute(&c, o.idx);
    if (o.run_graphics)
        run_graphics(&c, o.tex_ind);

    CHECK(vkDeviceWaitIdle(c.device));
    VkCommandBuffer cmds[2] = { c.compute_cmd, c.draw_cmd };
    vkFreeCommandBuffers(c.device, c.cmd_pool, 2, cmds);
    vkDestroyFence(c.device, c.fence, NULL);
    vkDestroyDescriptorPool(c.device, c.desc_pool, NULL);
    vkDestroyCommandPool(c.device, c.cmd_pool, NULL);
    vkDestroyDevice(c.device, NULL);
    if (c.messenger != VK_NULL_HANDLE)
        pfnDestroyDebugUtilsMessenger(c.instance, c.messenger, NULL);
    vkDestroyInstance(c.instance, NULL);
    printf("demo: done\n");
    return 0;
}
