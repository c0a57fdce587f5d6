/*
 * capp: the Vulkan bootstrap of the project's C apps (the demo, the
 * benchmark apps, the layer's and the end-to-end suite's test apps). They
 * are C because the layer is a Go runtime inside the app, and a process
 * holds one Go runtime (docs/decisions/two-go-runtimes.md).
 *
 * Build an app as `cc -Iinternal/capp APP.c internal/capp/capp.c -lvulkan`
 * (internal/cbuild does it for the Go tests; examples.mk and bench.mk for
 * make). Every app defines its name, which starts every failure message:
 *
 *   const char capp_app_name[] = "multi";
 *
 * Failures print "NAME: WHAT" to stderr and exit 1: a VkResult other than
 * VK_SUCCESS ("NAME: vkCreateDevice failed: -7", through CHECK), a missing
 * file, device, queue or memory type. What is here:
 *
 *   capp_create_instance   an instance (API version, extra pNext, and an
 *                          optional debug-utils messenger that prints and
 *                          counts messages), its first physical device
 *   capp_create_device     one family's queues (and another's), features
 *   capp_buffer_create     host-visible, coherent, mapped, zeroed buffers
 *                          (with a device address when the usage asks)
 *   capp_image_create      2D images with a view; barriers, render passes,
 *                          framebuffers, dynamic rendering, samplers
 *   capp_shader_*          shader modules from SPIR-V in memory or a file
 *   capp_set_layout ...    descriptor set layouts, pools, sets, writes;
 *                          pipeline layouts; compute and graphics pipelines
 *   capp_command_*         command pools and buffers, begin, submit and
 *                          wait (with a fence or vkQueueWaitIdle)
 *   capp_name, capp_label  debug-utils names and labels (nothing without
 *                          VK_EXT_debug_utils)
 */
#ifndef CAPP_H
#define CAPP_H

#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan.h>

/* capp_app_name is the app's name; each app defines it. */
extern const char capp_app_name[];

/* ---- failures ------------------------------------------------------------ */

/* capp_check exits 1 with "NAME: FUNCTION failed: R" unless r is
 * VK_SUCCESS; FUNCTION is expr up to its first '('. */
void capp_check(VkResult r, const char *expr);
#define CHECK(call) capp_check((call), #call)

/* capp_die prints "NAME: " and the formatted message, and exits 1. */
void capp_die(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2), noreturn))
#endif
    ;

/* capp_fail_prefix sets text printed before every failure message from
 * now on (NULL: none), e.g. the iteration of a loop. */
void capp_fail_prefix(const char *prefix);

/* capp_handle is a Vulkan handle as debug utils want it. */
#define capp_handle(h) ((uint64_t)(uintptr_t)(h))

/* capp_now_ns is CLOCK_MONOTONIC in nanoseconds. */
uint64_t capp_now_ns(void);

/* capp_read_file reads a file whole (*size: bytes). */
void *capp_read_file(const char *path, size_t *size);

/* capp_read_spirv reads a SPIR-V module whole (*size: bytes); it fails
 * unless the file holds a SPIR-V module. */
uint32_t *capp_read_spirv(const char *path, size_t *size);

/* capp_path joins DIR/NAME into buf (of n bytes) and returns buf. */
const char *capp_path(char *buf, size_t n, const char *dir, const char *name);

/* ---- instance and device ----------------------------------------------------- */

/* capp is one app's Vulkan instance and device. */
typedef struct capp {
    VkInstance instance;
    VkDebugUtilsMessengerEXT messenger;
    VkPhysicalDevice pd;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    VkDevice dev;
    VkQueue queue;   /* queue 0 of family */
    uint32_t family; /* the family capp_create_device chose */
    int have_utils;  /* VK_EXT_debug_utils is enabled */
    /* The messenger's count of ERROR-severity messages, and how many of
     * them it prints (0: all). */
    unsigned vk_errors, print_errors;
    PFN_vkSetDebugUtilsObjectNameEXT set_name;
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label;
    PFN_vkCmdEndDebugUtilsLabelEXT end_label;
} capp;

/* capp_instance_info says how to create the instance. Zero is a Vulkan
 * 1.3 instance named capp_app_name with no messenger. */
typedef struct capp_instance_info {
    const char *app_name;
    uint32_t api_version;
    const void *next; /* more of VkInstanceCreateInfo's pNext chain */
    /* Non-zero: a debug-utils messenger for these severities and types
     * (chained into vkCreateInstance's pNext, then created), which prints
     * every message to stderr as "[vk SEVERITY] ID: MESSAGE" and counts
     * the errors in capp.vk_errors. */
    VkDebugUtilsMessageSeverityFlagsEXT messenger;
    VkDebugUtilsMessageTypeFlagsEXT messenger_types;
    unsigned print_errors; /* print only the first N errors (0: all) */
} capp_instance_info;

/* capp_has_instance_extension reports whether the loader offers it. */
int capp_has_instance_extension(const char *name);

/* capp_has_device_extension reports whether c's physical device has it. */
int capp_has_device_extension(const capp *c, const char *name);

/* capp_create_instance zeroes *c, creates the instance (with
 * VK_EXT_debug_utils when the loader has it), and takes the first physical
 * device, its properties and memory properties. */
void capp_create_instance(capp *c, const capp_instance_info *info);

/* capp_queue_family returns the first queue family with all of want; it
 * fails when there is none. */
uint32_t capp_queue_family(const capp *c, VkQueueFlags want);

/* capp_device_info says how to create the device. */
typedef struct capp_device_info {
    VkQueueFlags queue_flags; /* the family: the first with all of these */
    uint32_t queue_count;     /* its queues (0: 1) */
    const VkDeviceQueueCreateInfo *extra_queues; /* another family's, or NULL */
    const void *next;         /* VkDeviceCreateInfo's pNext (features) */
    const VkPhysicalDeviceFeatures *features; /* pEnabledFeatures, or NULL */
    const char *const *exts;
    uint32_t nexts;
} capp_device_info;

/* capp_create_device creates c->dev and gets c->queue. */
void capp_create_device(capp *c, const capp_device_info *info);

/* capp_destroy destroys the device, the messenger and the instance. */
void capp_destroy(capp *c);

/* capp_name gives an object a debug-utils name. */
void capp_name(const capp *c, VkObjectType type, uint64_t handle, const char *name);

/* capp_label begins a debug-utils label in cb; capp_unlabel ends it. */
void capp_label(const capp *c, VkCommandBuffer cb, const char *name);
void capp_unlabel(const capp *c, VkCommandBuffer cb);

/* ---- memory, buffers, images ------------------------------------------------ */

/* capp_memory_type returns the first type in bits with all of want; it
 * fails when there is none. */
uint32_t capp_memory_type(const capp *c, uint32_t bits, VkMemoryPropertyFlags want);

/* capp_buffer is a buffer with memory of its own, mapped; addr is its
 * device address (0 without VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT). */
typedef struct capp_buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
    VkDeviceAddress addr;
    VkDeviceSize size;
} capp_buffer;

/* capp_buffer_create makes a host-visible, coherent buffer, mapped and
 * zeroed; with VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT its memory is
 * allocated for device addresses and addr is set. */
capp_buffer capp_buffer_create(const capp *c, VkDeviceSize size, VkBufferUsageFlags usage);

/* capp_buffer_destroy destroys the buffer (unless the app already did
 * and set buf to VK_NULL_HANDLE) and frees its memory. */
void capp_buffer_destroy(const capp *c, capp_buffer *b);

/* capp_image is a 2D image of one level and layer, with its memory
 * (device-local where the image allows it) and a view. */
typedef struct capp_image {
    VkImage image;
    VkDeviceMemory mem;
    VkImageView view;
    VkFormat format;
    uint32_t width, height;
} capp_image;

capp_image capp_image_create(const capp *c, uint32_t width, uint32_t height, VkFormat format,
                             VkImageUsageFlags usage);

/* capp_image_destroy destroys what capp_image_create made (nothing for a
 * zeroed capp_image). */
void capp_image_destroy(const capp *c, capp_image *im);

/* capp_layout_change is one image layout transition. */
typedef struct capp_layout_change {
    VkImageLayout from, to;
    VkAccessFlags src_access, dst_access;
    VkPipelineStageFlags src_stage, dst_stage;
} capp_layout_change;

/* capp_image_barrier records the transition of image's colour aspect. */
void capp_image_barrier(VkCommandBuffer cb, VkImage image, capp_layout_change t);

/* capp_begin_rendering moves target to layout (from UNDEFINED) and begins
 * dynamic rendering into it, cleared, over all of it; capp_begin_rendering2
 * with VkRenderingInfo flags (VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT...). */
void capp_begin_rendering(VkCommandBuffer cb, const capp_image *target, VkImageLayout layout);
void capp_begin_rendering2(VkCommandBuffer cb, const capp_image *target, VkImageLayout layout, VkRenderingFlags flags);

/* capp_render_pass makes a render pass of one subpass writing one colour
 * attachment of format (cleared, stored) in layout, left in final_layout. */
VkRenderPass capp_render_pass(const capp *c, VkFormat format, VkImageLayout layout, VkImageLayout final_layout);

/* capp_framebuffer makes a framebuffer of rp over all of target. */
VkFramebuffer capp_framebuffer(const capp *c, VkRenderPass rp, const capp_image *target);

/* capp_sampler makes a nearest-neighbour sampler with one address mode. */
VkSampler capp_sampler(const capp *c, VkSamplerAddressMode mode);

/* ---- shaders, descriptors, pipelines ------------------------------------------ */

VkShaderModule capp_shader_module(const capp *c, const uint32_t *code, size_t size);

/* capp_shader_file makes a shader module from a SPIR-V file. */
VkShaderModule capp_shader_file(const capp *c, const char *path);

/* capp_stage is a shader stage's create info (entry point "main"). */
VkPipelineShaderStageCreateInfo capp_stage(VkShaderStageFlagBits stage, VkShaderModule m,
                                           const VkSpecializationInfo *spec);

VkDescriptorSetLayout capp_set_layout(const capp *c, const VkDescriptorSetLayoutBinding *b, uint32_t n);

/* capp_pipeline_layout makes a pipeline layout of n set layouts and the
 * push-constant range pc (NULL: none). */
VkPipelineLayout capp_pipeline_layout(const capp *c, uint32_t n, const VkDescriptorSetLayout *sets,
                                      const VkPushConstantRange *pc);

/* capp_descriptor_pool makes a pool for max_sets sets of the n sizes. */
VkDescriptorPool capp_descriptor_pool(const capp *c, uint32_t max_sets, const VkDescriptorPoolSize *sizes,
                                      uint32_t n);

/* capp_descriptor_set allocates one set of dsl from pool. */
VkDescriptorSet capp_descriptor_set(const capp *c, VkDescriptorPool pool, VkDescriptorSetLayout dsl);

/* capp_single_set makes the set layout *dsl of the n (at most 8) bindings
 * b, a pool *pool for one set of it, and that set. */
VkDescriptorSet capp_single_set(const capp *c, const VkDescriptorSetLayoutBinding *b, uint32_t n,
                                VkDescriptorSetLayout *dsl, VkDescriptorPool *pool);

/* capp_write_buffers points n elements of binding, from element 0, at
 * infos. */
void capp_write_buffers(const capp *c, VkDescriptorSet set, uint32_t binding, VkDescriptorType type, uint32_t n,
                        const VkDescriptorBufferInfo *infos);

/* capp_compute_pipeline makes the compute pipeline of m's main. */
VkPipeline capp_compute_pipeline(const capp *c, VkPipelineLayout layout, VkShaderModule m,
                                 VkPipelineCreateFlags flags, const VkSpecializationInfo *spec);

/* capp_fixed_state is the fixed-function state of the apps' graphics
 * pipelines: no vertex input, one topology, one viewport and scissor over
 * the target, no culling, one sample, no depth test, one colour
 * attachment written without blending. */
typedef struct capp_fixed_state {
    VkPipelineVertexInputStateCreateInfo vi;
    VkPipelineInputAssemblyStateCreateInfo ia;
    VkPipelineTessellationStateCreateInfo ts;
    VkViewport vp;
    VkRect2D sc;
    VkPipelineViewportStateCreateInfo vps;
    VkPipelineRasterizationStateCreateInfo rs;
    VkPipelineMultisampleStateCreateInfo ms;
    VkPipelineDepthStencilStateCreateInfo ds;
    VkPipelineColorBlendAttachmentState cba;
    VkPipelineColorBlendStateCreateInfo cb;
} capp_fixed_state;

/* capp_fixed_state_init fills *s in place (its structures point into it)
 * for a width x height target. */
void capp_fixed_state_init(capp_fixed_state *s, uint32_t width, uint32_t height, VkPrimitiveTopology topology);

/* capp_graphics_info says what capp_graphics_pipeline makes. */
typedef struct capp_graphics_info {
    const VkPipelineShaderStageCreateInfo *stages;
    uint32_t nstages;
    VkPipelineLayout layout;
    VkRenderPass render_pass; /* VK_NULL_HANDLE: dynamic rendering */
    VkFormat format;          /* dynamic rendering's one colour attachment */
    uint32_t width, height;   /* the viewport */
    VkPrimitiveTopology topology;
    uint32_t patch_points; /* > 0: tessellation, patches of this many points */
    int mesh;              /* task/mesh shaders: no vertex input or assembly */
    int additive;          /* blend ONE + ONE instead of writing */
    VkPipelineCreateFlags flags;
    VkPipelineCache cache; /* the pipeline cache to create it with (VK_NULL_HANDLE: none) */
} capp_graphics_info;

VkPipeline capp_graphics_pipeline(const capp *c, const capp_graphics_info *info);

/* ---- command buffers ---------------------------------------------------------- */

/* capp_command_pool makes a command pool of c->family. */
VkCommandPool capp_command_pool(const capp *c, VkCommandPoolCreateFlags flags);

/* capp_command_buffer allocates one command buffer, named name (when not
 * NULL). */
VkCommandBuffer capp_command_buffer(const capp *c, VkCommandPool pool, VkCommandBufferLevel level,
                                    const char *name);

/* capp_begin begins cb with flags. */
void capp_begin(VkCommandBuffer cb, VkCommandBufferUsageFlags flags);

VkFence capp_fence(const capp *c);

/* capp_timing is where capp_submit_wait's time went: the submit (from
 * start_ns when the caller set it, else from the call) to the return of
 * vkQueueSubmit, then the wait. */
typedef struct capp_timing {
    uint64_t start_ns;
    uint64_t submit_ns, wait_ns;
} capp_timing;

/* capp_submit_wait submits n command buffers in one VkSubmitInfo to
 * c->queue and waits: for fence, which it then resets, or with
 * vkQueueWaitIdle when fence is VK_NULL_HANDLE. With t, it times them. */
void capp_submit_wait(const capp *c, uint32_t n, const VkCommandBuffer *cbs, VkFence fence, capp_timing *t);

/* capp_end_and_run ends cb, submits it with a fence of its own and waits. */
void capp_end_and_run(const capp *c, VkCommandBuffer cb);

#endif
