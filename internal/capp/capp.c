/* capp: the Vulkan bootstrap of the project's C apps (see capp.h). */
#define _POSIX_C_SOURCE 200809L
#include "capp.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- failures ------------------------------------------------------------ */

static char fail_prefix[256];

void capp_fail_prefix(const char *prefix)
{
    snprintf(fail_prefix, sizeof fail_prefix, "%s", prefix ? prefix : "");
}

void capp_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s%s: ", fail_prefix, capp_app_name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(1);
}

void capp_check(VkResult r, const char *expr)
{
    if (r != VK_SUCCESS)
        capp_die("%.*s failed: %d", (int)strcspn(expr, "("), expr, (int)r);
}

uint64_t capp_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

const char *capp_path(char *buf, size_t n, const char *dir, const char *name)
{
    if ((size_t)snprintf(buf, n, "%s/%s", dir, name) >= n)
        capp_die("path too long: %s/%s", dir, name);
    return buf;
}

void *capp_read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        capp_die("cannot open %s", path);
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    if (n < 0 || fseek(f, 0, SEEK_SET) != 0)
        capp_die("cannot read %s", path);
    void *buf = malloc(n ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        capp_die("cannot read %s", path);
    fclose(f);
    *size = (size_t)n;
    return buf;
}

uint32_t *capp_read_spirv(const char *path, size_t *size)
{
    uint32_t *words = capp_read_file(path, size);
    if (*size <= 20 || *size % 4 || words[0] != 0x07230203)
        capp_die("not a SPIR-V module: %s", path);
    return words;
}

/* ---- instance and device ----------------------------------------------------- */

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

/* on_message prints "[vk SEVERITY] ID: MESSAGE" (tests parse it) and
 * counts the errors; it never aborts the call that sent the message. */
static VKAPI_ATTR VkBool32 VKAPI_CALL on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT types,
                                                 const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)types;
    capp *c = user;
    if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
        c->vk_errors++;
        if (c->print_errors && c->vk_errors > c->print_errors)
            return VK_FALSE;
    }
    fprintf(stderr, "[vk %s] %s: %s\n", severity_name(severity), data->pMessageIdName ? data->pMessageIdName : "(none)",
            data->pMessage ? data->pMessage : "");
    fflush(stderr);
    return VK_FALSE;
}

int capp_has_instance_extension(const char *name)
{
    uint32_t n = 0;
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &n, NULL));
    VkExtensionProperties *e = calloc(n + 1, sizeof *e);
    if (!e)
        capp_die("out of memory");
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &n, e));
    int found = 0;
    for (uint32_t i = 0; i < n; i++)
        found |= !strcmp(e[i].extensionName, name);
    free(e);
    return found;
}

int capp_has_device_extension(const capp *c, const char *name)
{
    uint32_t n = 0;
    CHECK(vkEnumerateDeviceExtensionProperties(c->pd, NULL, &n, NULL));
    VkExtensionProperties *e = calloc(n + 1, sizeof *e);
    if (!e)
        capp_die("out of memory");
    CHECK(vkEnumerateDeviceExtensionProperties(c->pd, NULL, &n, e));
    int found = 0;
    for (uint32_t i = 0; i < n; i++)
        found |= !strcmp(e[i].extensionName, name);
    free(e);
    return found;
}

/* load_utils looks up the debug-utils functions the apps call, and creates
 * the messenger mci describes (when it has a callback). */
static void load_utils(capp *c, VkDebugUtilsMessengerCreateInfoEXT *mci)
{
#define LOAD(field, type, fn) c->field = (type)vkGetInstanceProcAddr(c->instance, fn)
    LOAD(set_name, PFN_vkSetDebugUtilsObjectNameEXT, "vkSetDebugUtilsObjectNameEXT");
    LOAD(begin_label, PFN_vkCmdBeginDebugUtilsLabelEXT, "vkCmdBeginDebugUtilsLabelEXT");
    LOAD(end_label, PFN_vkCmdEndDebugUtilsLabelEXT, "vkCmdEndDebugUtilsLabelEXT");
#undef LOAD
    if (!mci->pfnUserCallback)
        return;
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->instance, "vkCreateDebugUtilsMessengerEXT");
    if (!create)
        capp_die("VK_EXT_debug_utils is enabled but vkCreateDebugUtilsMessengerEXT is missing");
    mci->pNext = NULL;
    CHECK(create(c->instance, mci, NULL, &c->messenger));
}

void capp_create_instance(capp *c, const capp_instance_info *info)
{
    static const capp_instance_info none;
    if (!info)
        info = &none;
    memset(c, 0, sizeof *c);
    c->print_errors = info->print_errors;
    uint32_t loader = VK_API_VERSION_1_0;
    CHECK(vkEnumerateInstanceVersion(&loader));
    if (loader < VK_API_VERSION_1_1)
        capp_die("the Vulkan loader does not support Vulkan 1.1");
    c->have_utils = capp_has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .pNext = info->next,
        .messageSeverity = info->messenger,
        .messageType = info->messenger_types,
        .pfnUserCallback = on_message,
        .pUserData = c,
    };
    int messenger = c->have_utils && info->messenger;
    if (!messenger)
        mci.pfnUserCallback = NULL;
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = info->app_name ? info->app_name : capp_app_name,
        .apiVersion = info->api_version ? info->api_version : VK_API_VERSION_1_3,
    };
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        /* The messenger in pNext also hears vkCreateInstance and
         * vkDestroyInstance. */
        .pNext = messenger ? (const void *)&mci : info->next,
        .pApplicationInfo = &app,
        .enabledExtensionCount = c->have_utils ? 1 : 0,
        .ppEnabledExtensionNames = exts,
    };
    CHECK(vkCreateInstance(&ici, NULL, &c->instance));
    if (c->have_utils)
        load_utils(c, &mci);
    uint32_t n = 1;
    VkResult r = vkEnumeratePhysicalDevices(c->instance, &n, &c->pd);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0)
        capp_die("no Vulkan physical device");
    vkGetPhysicalDeviceProperties(c->pd, &c->props);
    vkGetPhysicalDeviceMemoryProperties(c->pd, &c->mem);
}

uint32_t capp_queue_family(const capp *c, VkQueueFlags want)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c->pd, &n, NULL);
    VkQueueFamilyProperties *qf = calloc(n + 1, sizeof *qf);
    if (!qf)
        capp_die("out of memory");
    vkGetPhysicalDeviceQueueFamilyProperties(c->pd, &n, qf);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < n && family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & want) == want && qf[i].queueCount > 0)
            family = i;
    free(qf);
    if (family == UINT32_MAX)
        capp_die("no %s%s%s queue", want & VK_QUEUE_GRAPHICS_BIT ? "graphics" : "",
                 (want & VK_QUEUE_GRAPHICS_BIT) && (want & VK_QUEUE_COMPUTE_BIT) ? "+" : "",
                 want & VK_QUEUE_COMPUTE_BIT ? "compute" : "");
    return family;
}

void capp_create_device(capp *c, const capp_device_info *info)
{
    c->family = capp_queue_family(c, info->queue_flags);
    const float prio[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    uint32_t count = info->queue_count ? info->queue_count : 1;
    if (count > 8)
        capp_die("more than 8 queues");
    VkDeviceQueueCreateInfo q[2] = {
        {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = c->family, .queueCount = count,
         .pQueuePriorities = prio},
    };
    if (info->extra_queues)
        q[1] = *info->extra_queues;
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = info->next,
        .queueCreateInfoCount = info->extra_queues ? 2 : 1,
        .pQueueCreateInfos = q,
        .enabledExtensionCount = info->nexts,
        .ppEnabledExtensionNames = info->exts,
        .pEnabledFeatures = info->features,
    };
    CHECK(vkCreateDevice(c->pd, &dci, NULL, &c->dev));
    vkGetDeviceQueue(c->dev, c->family, 0, &c->queue);
}

void capp_destroy(capp *c)
{
    if (c->dev)
        vkDestroyDevice(c->dev, NULL);
    if (c->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy =
            (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy)
            destroy(c->instance, c->messenger, NULL);
    }
    vkDestroyInstance(c->instance, NULL);
    c->dev = VK_NULL_HANDLE;
    c->instance = VK_NULL_HANDLE;
}

void capp_name(const capp *c, VkObjectType type, uint64_t handle, const char *name)
{
    if (!c->set_name)
        return;
    VkDebugUtilsObjectNameInfoEXT ni = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
        .objectType = type,
        .objectHandle = handle,
        .pObjectName = name,
    };
    CHECK(c->set_name(c->dev, &ni));
}

void capp_label(const capp *c, VkCommandBuffer cb, const char *name)
{
    if (!c->begin_label)
        return;
    VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = name};
    c->begin_label(cb, &l);
}

void capp_unlabel(const capp *c, VkCommandBuffer cb)
{
    if (c->end_label)
        c->end_label(cb);
}

/* ---- memory, buffers, images ------------------------------------------------ */

/* find_type returns the first type in bits with all of want, or
 * UINT32_MAX. */
static uint32_t find_type(const capp *c, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < c->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (c->mem.memoryTypes[i].propertyFlags & want) == want)
            return i;
    return UINT32_MAX;
}

uint32_t capp_memory_type(const capp *c, uint32_t bits, VkMemoryPropertyFlags want)
{
    uint32_t t = find_type(c, bits, want);
    if (t == UINT32_MAX)
        capp_die("no memory type");
    return t;
}

capp_buffer capp_buffer_create(const capp *c, VkDeviceSize size, VkBufferUsageFlags usage)
{
    capp_buffer b = {.size = size};
    int bda = (usage & VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT) != 0;
    VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size, .usage = usage};
    CHECK(vkCreateBuffer(c->dev, &bci, NULL, &b.buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(c->dev, b.buf, &req);
    VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .pNext = bda ? &flags : NULL,
        .allocationSize = req.size,
        .memoryTypeIndex = capp_memory_type(c, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
    };
    CHECK(vkAllocateMemory(c->dev, &mai, NULL, &b.mem));
    CHECK(vkBindBufferMemory(c->dev, b.buf, b.mem, 0));
    CHECK(vkMapMemory(c->dev, b.mem, 0, VK_WHOLE_SIZE, 0, &b.map));
    memset(b.map, 0, (size_t)size);
    if (bda) {
        VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b.buf};
        b.addr = vkGetBufferDeviceAddress(c->dev, &ai);
    }
    return b;
}

void capp_buffer_destroy(const capp *c, capp_buffer *b)
{
    if (b->buf)
        vkDestroyBuffer(c->dev, b->buf, NULL);
    if (b->mem)
        vkFreeMemory(c->dev, b->mem, NULL); /* unmaps it */
    *b = (capp_buffer){0};
}

capp_image capp_image_create(const capp *c, uint32_t width, uint32_t height, VkFormat format,
                             VkImageUsageFlags usage)
{
    capp_image im = {.format = format, .width = width, .height = height};
    VkImageCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
        .imageType = VK_IMAGE_TYPE_2D,
        .format = format,
        .extent = {width, height, 1},
        .mipLevels = 1,
        .arrayLayers = 1,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .tiling = VK_IMAGE_TILING_OPTIMAL,
        .usage = usage,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
    };
    CHECK(vkCreateImage(c->dev, &ici, NULL, &im.image));
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(c->dev, im.image, &req);
    uint32_t type = find_type(c, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    VkMemoryAllocateInfo mai = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
        .allocationSize = req.size,
        .memoryTypeIndex = type != UINT32_MAX ? type : capp_memory_type(c, req.memoryTypeBits, 0),
    };
    CHECK(vkAllocateMemory(c->dev, &mai, NULL, &im.mem));
    CHECK(vkBindImageMemory(c->dev, im.image, im.mem, 0));
    VkImageViewCreateInfo vci = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
        .image = im.image,
        .viewType = VK_IMAGE_VIEW_TYPE_2D,
        .format = format,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    CHECK(vkCreateImageView(c->dev, &vci, NULL, &im.view));
    return im;
}

void capp_image_destroy(const capp *c, capp_image *im)
{
    if (im->view)
        vkDestroyImageView(c->dev, im->view, NULL);
    if (im->image)
        vkDestroyImage(c->dev, im->image, NULL);
    if (im->mem)
        vkFreeMemory(c->dev, im->mem, NULL);
    *im = (capp_image){0};
}

void capp_image_barrier(VkCommandBuffer cb, VkImage image, capp_layout_change t)
{
    VkImageMemoryBarrier b = {
        .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
        .srcAccessMask = t.src_access,
        .dstAccessMask = t.dst_access,
        .oldLayout = t.from,
        .newLayout = t.to,
        .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .image = image,
        .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
    };
    vkCmdPipelineBarrier(cb, t.src_stage, t.dst_stage, 0, 0, NULL, 0, NULL, 1, &b);
}

void capp_begin_rendering(VkCommandBuffer cb, const capp_image *target, VkImageLayout layout)
{
    capp_begin_rendering2(cb, target, layout, 0);
}

void capp_begin_rendering2(VkCommandBuffer cb, const capp_image *target, VkImageLayout layout, VkRenderingFlags flags)
{
    capp_image_barrier(cb, target->image,
                       (capp_layout_change){.from = VK_IMAGE_LAYOUT_UNDEFINED, .to = layout,
                                            .dst_access = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                                            .src_stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
                                            .dst_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT});
    VkRenderingAttachmentInfo att = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
        .imageView = target->view,
        .imageLayout = layout,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
    };
    VkRenderingInfo ri = {
        .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
        .flags = flags,
        .renderArea = {{0, 0}, {target->width, target->height}},
        .layerCount = 1,
        .colorAttachmentCount = 1,
        .pColorAttachments = &att,
    };
    vkCmdBeginRendering(cb, &ri);
}

VkRenderPass capp_render_pass(const capp *c, VkFormat format, VkImageLayout layout, VkImageLayout final_layout)
{
    VkAttachmentDescription att = {
        .format = format,
        .samples = VK_SAMPLE_COUNT_1_BIT,
        .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
        .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
        .stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
        .stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE,
        .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
        .finalLayout = final_layout,
    };
    VkAttachmentReference ref = {0, layout};
    VkSubpassDescription sub = {
        .pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS,
        .colorAttachmentCount = 1,
        .pColorAttachments = &ref,
    };
    VkRenderPassCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
        .attachmentCount = 1,
        .pAttachments = &att,
        .subpassCount = 1,
        .pSubpasses = &sub,
    };
    VkRenderPass rp;
    CHECK(vkCreateRenderPass(c->dev, &ci, NULL, &rp));
    return rp;
}

VkFramebuffer capp_framebuffer(const capp *c, VkRenderPass rp, const capp_image *target)
{
    VkFramebufferCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO,
        .renderPass = rp,
        .attachmentCount = 1,
        .pAttachments = &target->view,
        .width = target->width,
        .height = target->height,
        .layers = 1,
    };
    VkFramebuffer fb;
    CHECK(vkCreateFramebuffer(c->dev, &ci, NULL, &fb));
    return fb;
}

VkSampler capp_sampler(const capp *c, VkSamplerAddressMode mode)
{
    VkSamplerCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO,
        .magFilter = VK_FILTER_NEAREST,
        .minFilter = VK_FILTER_NEAREST,
        .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = mode,
        .addressModeV = mode,
        .addressModeW = mode,
    };
    VkSampler s;
    CHECK(vkCreateSampler(c->dev, &ci, NULL, &s));
    return s;
}

/* ---- shaders, descriptors, pipelines ------------------------------------------ */

VkShaderModule capp_shader_module(const capp *c, const uint32_t *code, size_t size)
{
    VkShaderModuleCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                   .pCode = code};
    VkShaderModule m;
    CHECK(vkCreateShaderModule(c->dev, &ci, NULL, &m));
    return m;
}

VkShaderModule capp_shader_file(const capp *c, const char *path)
{
    size_t size;
    uint32_t *code = capp_read_spirv(path, &size);
    VkShaderModule m = capp_shader_module(c, code, size);
    free(code);
    return m;
}

VkPipelineShaderStageCreateInfo capp_stage(VkShaderStageFlagBits stage, VkShaderModule m,
                                           const VkSpecializationInfo *spec)
{
    return (VkPipelineShaderStageCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                             .stage = stage, .module = m, .pName = "main",
                                             .pSpecializationInfo = spec};
}

VkDescriptorSetLayout capp_set_layout(const capp *c, const VkDescriptorSetLayoutBinding *b, uint32_t n)
{
    VkDescriptorSetLayoutCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = n, .pBindings = b};
    VkDescriptorSetLayout l;
    CHECK(vkCreateDescriptorSetLayout(c->dev, &ci, NULL, &l));
    return l;
}

VkPipelineLayout capp_pipeline_layout(const capp *c, uint32_t n, const VkDescriptorSetLayout *sets,
                                      const VkPushConstantRange *pc)
{
    VkPipelineLayoutCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = n,
        .pSetLayouts = n ? sets : NULL,
        .pushConstantRangeCount = pc ? 1 : 0,
        .pPushConstantRanges = pc,
    };
    VkPipelineLayout l;
    CHECK(vkCreatePipelineLayout(c->dev, &ci, NULL, &l));
    return l;
}

VkDescriptorPool capp_descriptor_pool(const capp *c, uint32_t max_sets, const VkDescriptorPoolSize *sizes,
                                      uint32_t n)
{
    VkDescriptorPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = max_sets,
                                     .poolSizeCount = n, .pPoolSizes = sizes};
    VkDescriptorPool p;
    CHECK(vkCreateDescriptorPool(c->dev, &ci, NULL, &p));
    return p;
}

VkDescriptorSet capp_descriptor_set(const capp *c, VkDescriptorPool pool, VkDescriptorSetLayout dsl)
{
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = pool, .descriptorSetCount = 1, .pSetLayouts = &dsl};
    VkDescriptorSet s;
    CHECK(vkAllocateDescriptorSets(c->dev, &ai, &s));
    return s;
}

VkDescriptorSet capp_single_set(const capp *c, const VkDescriptorSetLayoutBinding *b, uint32_t n,
                                VkDescriptorSetLayout *dsl, VkDescriptorPool *pool)
{
    VkDescriptorPoolSize ps[8];
    if (n > 8)
        capp_die("more than 8 bindings");
    for (uint32_t i = 0; i < n; i++)
        ps[i] = (VkDescriptorPoolSize){b[i].descriptorType, b[i].descriptorCount};
    *dsl = capp_set_layout(c, b, n);
    *pool = capp_descriptor_pool(c, 1, ps, n);
    return capp_descriptor_set(c, *pool, *dsl);
}

void capp_write_buffers(const capp *c, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, uint32_t n,
                        const VkDescriptorBufferInfo *infos)
{
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = binding,
                              .descriptorCount = n, .descriptorType = type, .pBufferInfo = infos};
    vkUpdateDescriptorSets(c->dev, 1, &w, 0, NULL);
}

VkPipeline capp_compute_pipeline(const capp *c, VkPipelineLayout layout, VkShaderModule m,
                                 VkPipelineCreateFlags flags, const VkSpecializationInfo *spec)
{
    VkComputePipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .flags = flags,
        .stage = capp_stage(VK_SHADER_STAGE_COMPUTE_BIT, m, spec),
        .layout = layout,
        .basePipelineIndex = -1,
    };
    VkPipeline p;
    CHECK(vkCreateComputePipelines(c->dev, VK_NULL_HANDLE, 1, &ci, NULL, &p));
    return p;
}

void capp_fixed_state_init(capp_fixed_state *s, uint32_t width, uint32_t height, VkPrimitiveTopology topology)
{
    *s = (capp_fixed_state){
        .vi = {.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO},
        .ia = {.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, .topology = topology},
        .ts = {.sType = VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO},
        .vp = {0, 0, (float)width, (float)height, 0, 1},
        .sc = {{0, 0}, {width, height}},
        .rs = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
               .polygonMode = VK_POLYGON_MODE_FILL,
               .cullMode = VK_CULL_MODE_NONE,
               .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
               .lineWidth = 1},
        .ms = {.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
               .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT},
        .ds = {.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO},
        .cba = {.colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT | VK_COLOR_COMPONENT_B_BIT |
                                  VK_COLOR_COMPONENT_A_BIT},
    };
    s->vps = (VkPipelineViewportStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
                                                 .viewportCount = 1, .pViewports = &s->vp, .scissorCount = 1,
                                                 .pScissors = &s->sc};
    s->cb = (VkPipelineColorBlendStateCreateInfo){.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
                                                  .attachmentCount = 1, .pAttachments = &s->cba};
}

VkPipeline capp_graphics_pipeline(const capp *c, const capp_graphics_info *info)
{
    capp_fixed_state fx;
    capp_fixed_state_init(&fx, info->width, info->height, info->topology);
    fx.ts.patchControlPoints = info->patch_points;
    if (info->additive)
        fx.cba = (VkPipelineColorBlendAttachmentState){
            .blendEnable = VK_TRUE,
            .srcColorBlendFactor = VK_BLEND_FACTOR_ONE,
            .dstColorBlendFactor = VK_BLEND_FACTOR_ONE,
            .colorBlendOp = VK_BLEND_OP_ADD,
            .srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
            .dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE,
            .alphaBlendOp = VK_BLEND_OP_ADD,
            .colorWriteMask = fx.cba.colorWriteMask,
        };
    VkPipelineRenderingCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                         .colorAttachmentCount = 1, .pColorAttachmentFormats = &info->format};
    VkGraphicsPipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
        .pNext = info->render_pass ? NULL : &rci,
        .flags = info->flags,
        .stageCount = info->nstages,
        .pStages = info->stages,
        .pVertexInputState = info->mesh ? NULL : &fx.vi,
        .pInputAssemblyState = info->mesh ? NULL : &fx.ia,
        .pTessellationState = info->patch_points ? &fx.ts : NULL,
        .pViewportState = &fx.vps,
        .pRasterizationState = &fx.rs,
        .pMultisampleState = &fx.ms,
        .pColorBlendState = &fx.cb,
        .layout = info->layout,
        .renderPass = info->render_pass,
        .basePipelineIndex = -1,
    };
    VkPipeline p;
    CHECK(vkCreateGraphicsPipelines(c->dev, info->cache, 1, &ci, NULL, &p));
    return p;
}

/* ---- command buffers ---------------------------------------------------------- */

VkCommandPool capp_command_pool(const capp *c, VkCommandPoolCreateFlags flags)
{
    VkCommandPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .flags = flags,
                                  .queueFamilyIndex = c->family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(c->dev, &ci, NULL, &pool));
    return pool;
}

VkCommandBuffer capp_command_buffer(const capp *c, VkCommandPool pool, VkCommandBufferLevel level,
                                    const char *name)
{
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                      .level = level, .commandBufferCount = 1};
    VkCommandBuffer cb;
    CHECK(vkAllocateCommandBuffers(c->dev, &ai, &cb));
    if (name)
        capp_name(c, VK_OBJECT_TYPE_COMMAND_BUFFER, capp_handle(cb), name);
    return cb;
}

void capp_begin(VkCommandBuffer cb, VkCommandBufferUsageFlags flags)
{
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = flags};
    CHECK(vkBeginCommandBuffer(cb, &bi));
}

VkFence capp_fence(const capp *c)
{
    VkFenceCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence f;
    CHECK(vkCreateFence(c->dev, &ci, NULL, &f));
    return f;
}

void capp_submit_wait(const capp *c, uint32_t n, const VkCommandBuffer *cbs, VkFence fence, capp_timing *t)
{
    uint64_t t0 = t ? (t->start_ns ? t->start_ns : capp_now_ns()) : 0;
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = n, .pCommandBuffers = cbs};
    CHECK(vkQueueSubmit(c->queue, 1, &si, fence));
    uint64_t t1 = t ? capp_now_ns() : 0;
    if (fence)
        CHECK(vkWaitForFences(c->dev, 1, &fence, VK_TRUE, UINT64_MAX));
    else
        CHECK(vkQueueWaitIdle(c->queue));
    if (t) {
        t->submit_ns = t1 - t0;
        t->wait_ns = capp_now_ns() - t1;
    }
    if (fence)
        CHECK(vkResetFences(c->dev, 1, &fence));
}

void capp_end_and_run(const capp *c, VkCommandBuffer cb)
{
    CHECK(vkEndCommandBuffer(cb));
    VkFence f = capp_fence(c);
    capp_submit_wait(c, 1, &cb, f, NULL);
    vkDestroyFence(c->dev, f, NULL);
}
