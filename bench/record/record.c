/*
 * record: what recording one vkCmdDraw of an instrumented pipeline costs,
 * and one submit-and-wait round trip (C, with internal/capp). Run it with
 * and without a layer and compare (bench/record_test.go does, as
 * BenchmarkDrawRecording; bench/measure/ has the NVIDIA runs).
 *
 *   record [--spv DIR] [--draws N] [--bind-per-draw [--sets N] | --push-per-draw] [--indirect | --dispatch]
 *
 * DIR (default: <dir of this binary>/spv/record) holds oob_compute.comp.spv,
 * fullscreen.vert.spv and oob_store.frag.spv (bench.mk compiles them from
 * examples/demo/shaders and layer/testdata/shaders): shaders that index
 * outs[idx], an array of 2 storage buffers, so a GPU-AV layer instruments
 * them. It records --draws N (default 100000) vkCmdDraw of 3 vertices in
 * one dynamic-rendering instance into a 4x4 target, five times, and prints
 *
 *   ns_per_draw=X        the best of the five recordings, per draw
 *   us_submit_to_wait=Y  vkQueueSubmit to the return of vkWaitForFences of
 *                        one in-bounds dispatch, the mean of 50 rounds (a
 *                        layer reads its records inside the wait)
 *
 * With --bind-per-draw each draw follows a vkCmdBindDescriptorSets of set
 * 0 (the same set each time; with --sets N, N sets written alike and bound
 * round robin, as the draw scene does, so that a layer sees the bound
 * sets change at every draw); with --push-per-draw, a vkCmdPushConstants
 * of 4 bytes. With --indirect each draw is a vkCmdDrawIndirect of one
 * command (the same, in an indirect buffer) and the time includes the
 * vkCmdEndRendering after the draws (where a layer may record its work
 * over the render pass's indirect draws). With --dispatch each draw is a
 * vkCmdDispatch of one workgroup of the compute pipeline instead, outside
 * any render pass (binds and pushes at the compute bind point): the
 * dispatch-heavy scene's loop. Failures print "record: ..." and exit 1;
 * bad flags exit 2.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capp.h"

const char capp_app_name[] = "record";

static const VkPushConstantRange PC = {VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};

typedef struct scene {
    capp_buffer bufs[2];
    VkDescriptorSetLayout dsl;
    VkDescriptorPool pool, set_pool;
    VkDescriptorSet set, *sets; /* sets: nsets sets written as set is */
    uint32_t nsets;
    VkPipelineLayout layout;
    VkPipeline comp, draw;
    capp_image target;
    capp_buffer indirect; /* one VkDrawIndirectCommand {3, 1, 0, 0} */
} scene;

/* make_scene makes the set of the two buffers, the compute pipeline and
 * the graphics pipeline (dynamic rendering into the 4x4 target). */
static void make_scene(const capp *c, scene *s, const char *dir, uint32_t nsets)
{
    char path[4096];
    for (int i = 0; i < 2; i++)
        s->bufs[i] = capp_buffer_create(c, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 2, .stageFlags = PC.stageFlags};
    s->set = capp_single_set(c, &b, 1, &s->dsl, &s->pool);
    VkDescriptorBufferInfo dbi[2] = {{s->bufs[0].buf, 0, VK_WHOLE_SIZE}, {s->bufs[1].buf, 0, VK_WHOLE_SIZE}};
    capp_write_buffers(c, s->set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, dbi);
    s->nsets = nsets;
    s->sets = calloc(nsets, sizeof *s->sets);
    if (!s->sets)
        capp_die("out of memory");
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2 * nsets};
    s->set_pool = capp_descriptor_pool(c, nsets, &ps, 1);
    for (uint32_t i = 0; i < nsets; i++) {
        s->sets[i] = capp_descriptor_set(c, s->set_pool, s->dsl);
        capp_write_buffers(c, s->sets[i], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, dbi);
    }
    s->layout = capp_pipeline_layout(c, 1, &s->dsl, &PC);
    VkShaderModule cm = capp_shader_file(c, capp_path(path, sizeof path, dir, "oob_compute.comp.spv"));
    VkShaderModule vm = capp_shader_file(c, capp_path(path, sizeof path, dir, "fullscreen.vert.spv"));
    VkShaderModule fm = capp_shader_file(c, capp_path(path, sizeof path, dir, "oob_store.frag.spv"));
    s->comp = capp_compute_pipeline(c, s->layout, cm, 0, NULL);
    s->target = capp_image_create(c, 4, 4, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkPipelineShaderStageCreateInfo stages[2] = {capp_stage(VK_SHADER_STAGE_VERTEX_BIT, vm, NULL),
                                                 capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, fm, NULL)};
    s->draw = capp_graphics_pipeline(c, &(capp_graphics_info){.stages = stages, .nstages = 2, .layout = s->layout,
                                                              .format = s->target.format, .width = 4, .height = 4,
                                                              .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST});
    vkDestroyShaderModule(c->dev, cm, NULL);
    vkDestroyShaderModule(c->dev, vm, NULL);
    vkDestroyShaderModule(c->dev, fm, NULL);
    s->indirect = capp_buffer_create(c, 16, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    memcpy(s->indirect.map, (uint32_t[4]){3, 1, 0, 0}, 16);
}

static void free_scene(const capp *c, scene *s)
{
    vkDestroyPipeline(c->dev, s->draw, NULL);
    vkDestroyPipeline(c->dev, s->comp, NULL);
    vkDestroyPipelineLayout(c->dev, s->layout, NULL);
    vkDestroyDescriptorPool(c->dev, s->pool, NULL);
    vkDestroyDescriptorPool(c->dev, s->set_pool, NULL);
    free(s->sets);
    vkDestroyDescriptorSetLayout(c->dev, s->dsl, NULL);
    capp_image_destroy(c, &s->target);
    for (int i = 0; i < 2; i++)
        capp_buffer_destroy(c, &s->bufs[i]);
    capp_buffer_destroy(c, &s->indirect);
}

/* draws_ns records draws draws into cb five times and returns the best
 * recording's nanoseconds. */
static uint64_t draws_ns(const scene *s, VkCommandBuffer cb, uint32_t draws, int bind, int push, int indirect,
                         int dispatch)
{
    uint64_t best = UINT64_MAX;
    uint32_t idx = 0;
    VkPipelineBindPoint bp = dispatch ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
    for (int rep = 0; rep < 5; rep++) {
        capp_begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        if (!dispatch)
            capp_begin_rendering(cb, &s->target, VK_IMAGE_LAYOUT_GENERAL);
        vkCmdBindPipeline(cb, bp, dispatch ? s->comp : s->draw);
        vkCmdBindDescriptorSets(cb, bp, s->layout, 0, 1, &s->set, 0, NULL);
        vkCmdPushConstants(cb, s->layout, PC.stageFlags, 0, 4, &idx);
        uint64_t t0 = capp_now_ns();
        for (uint32_t i = 0; i < draws; i++) {
            if (bind)
                vkCmdBindDescriptorSets(cb, bp, s->layout, 0, 1, &s->sets[i % s->nsets], 0, NULL);
            if (push)
                vkCmdPushConstants(cb, s->layout, PC.stageFlags, 0, 4, &idx);
            if (dispatch)
                vkCmdDispatch(cb, 1, 1, 1);
            else if (indirect)
                vkCmdDrawIndirect(cb, s->indirect.buf, 0, 1, 16);
            else
                vkCmdDraw(cb, 3, 1, 0, 0);
        }
        if (indirect)
            vkCmdEndRendering(cb);
        uint64_t t = capp_now_ns() - t0;
        if (!indirect && !dispatch)
            vkCmdEndRendering(cb);
        CHECK(vkEndCommandBuffer(cb));
        if (t < best)
            best = t;
    }
    return best;
}

/* submit_us returns the mean microseconds of 50 submit-and-wait rounds of
 * one in-bounds dispatch recorded into cb: the cost of reading records,
 * not of reporting them. */
static double submit_us(const capp *c, const scene *s, VkCommandBuffer cb)
{
    uint32_t idx = 1;
    capp_begin(cb, 0);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->comp);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, s->layout, 0, 1, &s->set, 0, NULL);
    vkCmdPushConstants(cb, s->layout, PC.stageFlags, 0, 4, &idx);
    vkCmdDispatch(cb, 1, 1, 1);
    CHECK(vkEndCommandBuffer(cb));
    VkFence f = capp_fence(c);
    const int rounds = 50;
    uint64_t sum = 0;
    for (int i = 0; i < rounds; i++) {
        uint64_t t0 = capp_now_ns();
        capp_submit_wait(c, 1, &cb, f, NULL);
        sum += capp_now_ns() - t0;
    }
    vkDestroyFence(c->dev, f, NULL);
    return (double)sum / 1e3 / rounds;
}

static void usage_exit(const char *why, const char *arg)
{
    fprintf(stderr, "record: %s%s%s\nusage: record [--spv DIR] [--draws N] [--bind-per-draw [--sets N] | --push-per-draw] [--indirect | --dispatch]\n",
            why, arg ? ": " : "", arg ? arg : "");
    exit(2);
}

int main(int argc, char **argv)
{
    char dir[4096];
    const char *slash = strrchr(argv[0], '/');
    snprintf(dir, sizeof dir, "%.*s/spv/record", slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
    uint32_t draws = 100000, nsets = 1;
    int bind = 0, push = 0, indirect = 0, dispatch = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--spv") && i + 1 < argc) {
            snprintf(dir, sizeof dir, "%s", argv[++i]);
        } else if (!strcmp(argv[i], "--draws") && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || n == 0 || n > UINT32_MAX)
                usage_exit("bad number", argv[i]);
            draws = (uint32_t)n;
        } else if (!strcmp(argv[i], "--sets") && i + 1 < argc) {
            char *end;
            unsigned long n = strtoul(argv[++i], &end, 10);
            if (*end || n == 0 || n > 4096)
                usage_exit("bad number of sets (1 to 4096)", argv[i]);
            nsets = (uint32_t)n;
        } else if (!strcmp(argv[i], "--bind-per-draw")) {
            bind = 1;
        } else if (!strcmp(argv[i], "--push-per-draw")) {
            push = 1;
        } else if (!strcmp(argv[i], "--indirect")) {
            indirect = 1;
        } else if (!strcmp(argv[i], "--dispatch")) {
            dispatch = 1;
        } else {
            usage_exit("unknown argument", argv[i]);
        }
    }
    if (bind && push)
        usage_exit("--bind-per-draw and --push-per-draw are exclusive", NULL);
    if (indirect && dispatch)
        usage_exit("--indirect and --dispatch are exclusive", NULL);
    capp c;
    capp_create_instance(&c, NULL);
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    f2.features.fragmentStoresAndAtomics = VK_TRUE;
    capp_create_device(&c, &(capp_device_info){.queue_flags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT,
                                               .next = &f2});
    scene s;
    if (nsets > 1 && !bind)
        usage_exit("--sets needs --bind-per-draw", NULL);
    make_scene(&c, &s, dir, nsets);
    VkCommandPool pool = capp_command_pool(&c, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
    VkCommandBuffer cb = capp_command_buffer(&c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "record-cmd");
    printf("ns_per_draw=%.2f\n", (double)draws_ns(&s, cb, draws, bind, push, indirect, dispatch) / draws);
    printf("us_submit_to_wait=%.1f\n", submit_us(&c, &s, cb));
    vkDestroyCommandPool(c.dev, pool, NULL);
    free_scene(&c, &s);
    capp_destroy(&c);
    return 0;
}
