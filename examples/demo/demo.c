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

#include "capp.h"

/* SPIR-V compiled by examples/examples.mk into build/shaders/ (-g: the module
 * carries OpSource text and OpLine, with file names "oob_compute.comp" etc.). */
#include "oob_compute.comp.h"  /* oob_compute_spv[]  */
#include "fullscreen.vert.h"   /* fullscreen_spv[]   */
#include "oob_fragment.frag.h" /* oob_fragment_spv[] */

#define COMPUTE_BUFFERS 2      /* outs[2] in oob_compute.comp */
#define COMPUTE_WORDS 16       /* uints per storage buffer */
#define TEXTURES 6             /* tex[6] in oob_fragment.frag */
#define TEX_SIZE 4             /* the sampled image is TEX_SIZE x TEX_SIZE */
#define TARGET_SIZE 8          /* the color attachment is 8x8 */
#define TARGET_FORMAT VK_FORMAT_R8G8B8A8_UNORM
#define FRAG_PC_OFFSET 16      /* layout(offset = 16) uint tex_ind */

const char capp_app_name[] = "demo";

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
    capp vk;
    VkCommandPool cmd_pool;
    VkDescriptorPool desc_pool;
    VkFence fence;
    /* Both command buffers live until the end, so they have distinct handles
     * (a freed-then-allocated buffer may reuse the same one). */
    VkCommandBuffer compute_cmd; /* "compute-cmd" */
    VkCommandBuffer draw_cmd;    /* "draw-cmd"    */
};

/* create_instance makes a Vulkan 1.1 instance (GPU-AV in the Khronos layer
 * needs 1.1) whose messenger prints warnings and errors, and with --verbose
 * INFO and VERBOSE messages too (the loader alone fills ~90 lines). */
static void create_instance(struct ctx *c, int verbose)
{
    capp_create_instance(&c->vk, &(capp_instance_info){
        .app_name = "gpuav-dbg demo",
        .api_version = VK_API_VERSION_1_1,
        .messenger = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT |
                     (verbose ? VK_DEBUG_UTILS_MESSAGE_SEVERITY_VERBOSE_BIT_EXT |
                                    VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT
                              : 0),
        .messenger_types = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
    });
}

static void create_device(struct ctx *c)
{
    const VkPhysicalDeviceProperties *props = &c->vk.props;
    printf("demo: device %s (Vulkan %u.%u.%u)\n", props->deviceName,
           VK_API_VERSION_MAJOR(props->apiVersion), VK_API_VERSION_MINOR(props->apiVersion),
           VK_API_VERSION_PATCH(props->apiVersion));
    if (props->apiVersion < VK_API_VERSION_1_1)
        capp_die("the device does not support Vulkan 1.1");

    /* Both shaders index a descriptor array with a push constant, i.e. with a
     * dynamically uniform (not constant) expression. Core Vulkan allows that
     * only with these two features; nothing else is enabled. The arrays are
     * sized in the shaders, so descriptor indexing is not needed. */
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->vk.pd, &have);
    if (!have.shaderStorageBufferArrayDynamicIndexing)
        capp_die("device lacks shaderStorageBufferArrayDynamicIndexing");
    if (!have.shaderSampledImageArrayDynamicIndexing)
        capp_die("device lacks shaderSampledImageArrayDynamicIndexing");
    VkPhysicalDeviceFeatures features = {
        .shaderStorageBufferArrayDynamicIndexing = VK_TRUE,
        .shaderSampledImageArrayDynamicIndexing = VK_TRUE,
    };
    capp_create_device(&c->vk, &(capp_device_info){.queue_flags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT,
                                                   .features = &features});
    c->cmd_pool = capp_command_pool(&c->vk, 0);

    /* One pool for both parts: one set of 2 storage buffers, one set of 6
     * combined image samplers. */
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, COMPUTE_BUFFERS },
        { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, TEXTURES },
    };
    c->desc_pool = capp_descriptor_pool(&c->vk, 2, sizes, 2);
    c->fence = capp_fence(&c->vk);
    c->compute_cmd = capp_command_buffer(&c->vk, c->cmd_pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "compute-cmd");
    c->draw_cmd = capp_command_buffer(&c->vk, c->cmd_pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "draw-cmd");
}

/* name gives obj a debug-utils name (nothing without VK_EXT_debug_utils). */
#define NAME(c, type, obj, name) capp_name(&(c)->vk, (type), capp_handle(obj), (name))

static VkShaderModule create_shader(const struct ctx *c, const uint32_t *code, size_t size, const char *name)
{
    VkShaderModule m = capp_shader_module(&c->vk, code, size);
    NAME(c, VK_OBJECT_TYPE_SHADER_MODULE, m, name);
    return m;
}

/* Submit one command buffer, wait for it on the fence, reset the fence. */
static void submit_and_wait(const struct ctx *c, VkCommandBuffer cmd)
{
    capp_submit_wait(&c->vk, 1, &cmd, c->fence, NULL);
}

/* ---- compute ------------------------------------------------------------------ */

static void run_compute(const struct ctx *c, uint32_t idx)
{
    VkDevice dev = c->vk.dev;

    /* Two host-visible storage buffers of 16 uints, zeroed. */
    capp_buffer bufs[COMPUTE_BUFFERS];
    VkDescriptorBufferInfo infos[COMPUTE_BUFFERS];
    for (int b = 0; b < COMPUTE_BUFFERS; b++) {
        bufs[b] = capp_buffer_create(&c->vk, COMPUTE_WORDS * sizeof(uint32_t), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        NAME(c, VK_OBJECT_TYPE_BUFFER, bufs[b].buf, b == 0 ? "outs[0]" : "outs[1]");
        infos[b] = (VkDescriptorBufferInfo){ .buffer = bufs[b].buf, .offset = 0, .range = VK_WHOLE_SIZE };
    }

    /* set 0, binding 0: an array of 2 storage buffers (outs[2]); the push
     * constant { uint idx; } at offset 0, 4 bytes, compute stage. */
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = COMPUTE_BUFFERS,
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, &binding, 1);
    VkPushConstantRange pcr = { .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .offset = 0, .size = sizeof(uint32_t) };
    VkPipelineLayout layout = capp_pipeline_layout(&c->vk, 1, &dsl, &pcr);
    VkDescriptorSet set = capp_descriptor_set(&c->vk, c->desc_pool, dsl);
    capp_write_buffers(&c->vk, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, COMPUTE_BUFFERS, infos);

    VkShaderModule cs = create_shader(c, oob_compute_spv, sizeof oob_compute_spv, "oob_compute.comp");
    VkPipeline pipeline = capp_compute_pipeline(&c->vk, layout, cs, 0, NULL);
    NAME(c, VK_OBJECT_TYPE_PIPELINE, pipeline, "oob-compute-pipeline");

    VkCommandBuffer cmd = c->compute_cmd;
    capp_begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    capp_label(&c->vk, cmd, "compute pass");
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof idx, &idx);
    /* One workgroup of 4 invocations: outs[idx].v[0..3] = 0, 3, 6, 9. */
    vkCmdDispatch(cmd, 1, 1, 1);
    capp_unlabel(&c->vk, cmd);
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
        const uint32_t *p = bufs[idx].map;
        printf("demo: compute outs[%u].v[0..3] = %u %u %u %u\n", idx, p[0], p[1], p[2], p[3]);
    }

    vkDestroyPipeline(dev, pipeline, NULL);
    vkDestroyShaderModule(dev, cs, NULL);
    /* The pool was not created with FREE_DESCRIPTOR_SET_BIT: its sets go with
     * vkDestroyDescriptorPool at the end. */
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    for (int b = 0; b < COMPUTE_BUFFERS; b++)
        capp_buffer_destroy(&c->vk, &bufs[b]);
}

/* ---- graphics ---------------------------------------------------------------- */

/* record_draw records the texture's fill (UNDEFINED -> TRANSFER_DST,
 * cleared, -> SHADER_READ_ONLY) and the draw into cmd. */
static void record_draw(const struct ctx *c, VkCommandBuffer cmd, VkImage tex, VkRenderPass rp, VkFramebuffer fb,
                        VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet set, uint32_t tex_ind)
{
    capp_begin(cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    capp_image_barrier(cmd, tex, (capp_layout_change){
        .from = VK_IMAGE_LAYOUT_UNDEFINED, .to = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .dst_access = VK_ACCESS_TRANSFER_WRITE_BIT,
        .src_stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, .dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
    });
    VkClearColorValue tex_color = { .float32 = { 0.25f, 0.5f, 0.75f, 1.0f } };
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(cmd, tex, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &tex_color, 1, &range);
    capp_image_barrier(cmd, tex, (capp_layout_change){
        .from = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, .to = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        .src_access = VK_ACCESS_TRANSFER_WRITE_BIT, .dst_access = VK_ACCESS_SHADER_READ_BIT,
        .src_stage = VK_PIPELINE_STAGE_TRANSFER_BIT, .dst_stage = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
    });

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
    capp_label(&c->vk, cmd, "draw pass");
    /* One triangle covering all 8x8 pixels: 64 fragment invocations. */
    vkCmdDraw(cmd, 3, 1, 0, 0);
    capp_unlabel(&c->vk, cmd);
    vkCmdEndRenderPass(cmd);
    CHECK(vkEndCommandBuffer(cmd));
}

static void run_graphics(const struct ctx *c, uint32_t tex_ind)
{
    VkDevice dev = c->vk.dev;

    /* The one sampled image behind all 6 descriptors, and the color target.
     * R8G8B8A8_UNORM supports both uses on every Vulkan device. */
    capp_image tex = capp_image_create(&c->vk, TEX_SIZE, TEX_SIZE, TARGET_FORMAT,
                                       VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    NAME(c, VK_OBJECT_TYPE_IMAGE, tex.image, "texture");
    capp_image target = capp_image_create(&c->vk, TARGET_SIZE, TARGET_SIZE, TARGET_FORMAT,
                                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    NAME(c, VK_OBJECT_TYPE_IMAGE, target.image, "color-target");
    VkSampler sampler = capp_sampler(&c->vk, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);

    /* Render pass: one color attachment, cleared then stored. */
    VkRenderPass rp = capp_render_pass(&c->vk, TARGET_FORMAT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                       VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    VkFramebuffer fb = capp_framebuffer(&c->vk, rp, &target);

    /* set 0, binding 0: 6 combined image samplers (tex[6]); the push
     * constant { layout(offset = 16) uint tex_ind; }: bytes 16..19,
     * fragment stage only (the vertex shader has no push constants). */
    VkDescriptorSetLayoutBinding binding = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        .descriptorCount = TEXTURES,
        .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT,
    };
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, &binding, 1);
    VkPushConstantRange pcr = { .stageFlags = VK_SHADER_STAGE_FRAGMENT_BIT, .offset = FRAG_PC_OFFSET,
                                .size = sizeof(uint32_t) };
    VkPipelineLayout layout = capp_pipeline_layout(&c->vk, 1, &dsl, &pcr);
    VkDescriptorSet set = capp_descriptor_set(&c->vk, c->desc_pool, dsl);
    VkDescriptorImageInfo infos[TEXTURES];
    for (int i = 0; i < TEXTURES; i++)
        infos[i] = (VkDescriptorImageInfo){
            .sampler = sampler,
            .imageView = tex.view,
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

    /* No vertex buffers: positions come from gl_VertexIndex. */
    VkShaderModule vs = create_shader(c, fullscreen_spv, sizeof fullscreen_spv, "fullscreen.vert");
    VkShaderModule fs = create_shader(c, oob_fragment_spv, sizeof oob_fragment_spv, "oob_fragment.frag");
    VkPipelineShaderStageCreateInfo stages[2] = {
        capp_stage(VK_SHADER_STAGE_VERTEX_BIT, vs, NULL),
        capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, fs, NULL),
    };
    VkPipeline pipeline = capp_graphics_pipeline(&c->vk, &(capp_graphics_info){
        .stages = stages, .nstages = 2, .layout = layout, .render_pass = rp,
        .width = TARGET_SIZE, .height = TARGET_SIZE, .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
    });
    NAME(c, VK_OBJECT_TYPE_PIPELINE, pipeline, "oob-draw-pipeline");

    record_draw(c, c->draw_cmd, tex.image, rp, fb, pipeline, layout, set, tex_ind);
    submit_and_wait(c, c->draw_cmd);
    printf("demo: draw done tex_ind=%u\n", tex_ind);

    vkDestroyPipeline(dev, pipeline, NULL);
    vkDestroyShaderModule(dev, fs, NULL);
    vkDestroyShaderModule(dev, vs, NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    vkDestroyFramebuffer(dev, fb, NULL);
    vkDestroyRenderPass(dev, rp, NULL);
    vkDestroySampler(dev, sampler, NULL);
    capp_image_destroy(&c->vk, &target);
    capp_image_destroy(&c->vk, &tex);
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

    CHECK(vkDeviceWaitIdle(c.vk.dev));
    VkCommandBuffer cmds[2] = { c.compute_cmd, c.draw_cmd };
    vkFreeCommandBuffers(c.vk.dev, c.cmd_pool, 2, cmds);
    vkDestroyFence(c.vk.dev, c.fence, NULL);
    vkDestroyDescriptorPool(c.vk.dev, c.desc_pool, NULL);
    vkDestroyCommandPool(c.vk.dev, c.cmd_pool, NULL);
    capp_destroy(&c.vk);
    printf("demo: done\n");
    return 0;
}
