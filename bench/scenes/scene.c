/*
 * scene: the benchmark scenes of gpuav-dbg (docs/BENCHMARKS.md), one Vulkan app with a
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
 *   draw_indirect  the draw scene with each draw a vkCmdDrawIndexedIndirect
 *              of one command (10,000 indirect draws per frame), from one
 *              indirect buffer written once, indices 0..5 from an index
 *              buffer (the layer's pre-pass reads every command).
 *   hotloop    --variant masked|memory|... --workgroups 65536: one
 *              dispatch of workgroups x 64 invocations, each running 256
 *              iterations of two reads through a descriptor array of 2 storage
 *              buffers of 4 KB (shaders/hotloop_*.comp say how each variant
 *              gets its descriptor index; naive, hoisted, flag, masked_flag,
 *              masked_hoisted, guard, select, select_set1 (select with
 *              its failure buffer in a second set) and fold (select with
 *              its failures reported once after the loop) are hand-checked
 *              references, run with no layer, printing "bench: hand-errors
 *              N"; guard, the selects and fold take --bad-index, not --oob).
 *              math is the shader sanitizer's: each iteration divides by a
 *              divisor from idx (1..7) and takes pow, min and max of a
 *              float from bufs[1] (1..8); its --oob makes every 64th
 *              divisor 0 (undefined behaviour: run it only under a GPU-AV
 *              layer).
 *   reduce     --workgroups 65536: one dispatch of workgroups x 256
 *              invocations, each workgroup summing its 256 floats with a
 *              shared-memory tree reduction (barrier() between the 8 steps;
 *              shaders/reduce.comp): the shared_memory_race and
 *              barrier_divergence checks' cost; --oob drops the steps'
 *              barriers (shared-memory hazards, the negative control).
 *   pipeline   every pipeline of <spv>/corpus/corpus.txt (≥ 50 shaders):
 *              vkCreateShaderModule + vkCreate*Pipelines, no pipeline cache;
 *              specialization constant 0 changes every iteration so no driver
 *              cache can return an earlier result. --threads N spreads the
 *              corpus over N threads (entry i on thread i mod N), all
 *              starting together; an iteration is the time until the last
 *              is done. --cache FILE creates every pipeline with one
 *              VkPipelineCache, made from FILE's data when FILE exists and
 *              written to FILE (vkGetPipelineCacheData) at the end: the
 *              second run of the same command is the warm-cache run
 *              (iteration k has the same specialization constant in every
 *              run, so only a cache from an earlier process can hit).
 *              Each iteration also prints "bench: cpu iter|warmup I NS", the
 *              process's CPU time over it.
 *
 * Other flags:
 *   --spv DIR   compiled shaders (default: <dir of this binary>/spv)
 *   --layer-set pipeline scene: the pipeline layout gets a set 1 with the
 *               layer's bindings, so modules instrumented offline for set 1
 *               (bench/internal/instr) compile with no layer
 *   --oob       make the descriptor index out of bounds (negative control; run it
 *               only under a GPU-AV layer: it is undefined behaviour otherwise)
 *   --bad-index hotloop memory variants: only the descriptor indices read
 *               from memory go out of bounds (every 64th is 2), every buffer
 *               bound whole, and the results are checked as if each such
 *               iteration's reads were skipped (read zero); run it only under
 *               a GPU-AV layer or with a hand-checked variant
 *   --unwritten hotloop memory variant, with --bad-index: element 0 of the
 *               descriptor array is never written and no index from memory
 *               is 0 (the in-range ones are 1), so the layer's facts fail and
 *               its precise variant runs; run it only under a GPU-AV layer
 *
 * The hotloop scene checks after its runs that the descriptor array's
 * buffers hold what it wrote into them (a store a shader made to them, or
 * one a layer misplaced, fails the run).
 *
 * With BENCH_KHRONOS_GPUAV=1 the instance gets VkValidationFeaturesEXT: GPU-AV
 * on; core checks, shader validation, thread safety, object lifetimes, API
 * parameters and unique handles off.
 * With BENCH_ROBUSTNESS2=1 the device is created with VK_EXT_robustness2's
 * robustBufferAccess2 and robustImageAccess2 (and robustBufferAccess, which
 * the first needs) enabled: the driver's own robustness, to compare with
 * gpuav-dbg's robust-only mode; a device without them fails the run.
 *
 * It also prints "bench: device", "bench: driver", "bench: size", a result
 * check ("bench: check ok") and "bench: vk-errors <n>", the number of
 * ERROR-severity debug-utils messages it received (the first 20 are printed
 * too, as "[vk error] ID: MESSAGE").
 * Every failure prints "scene: ..." and exits 1; bad flags exit 2.
 */

#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capp.h"

const char capp_app_name[] = "scene";

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
    int bad_index; /* hotloop: --bad-index */
    int unwritten; /* hotloop: --unwritten */
    int indirect; /* draw_indirect: the draws are vkCmdDrawIndexedIndirect */
    uint32_t threads; /* pipeline: --threads */
    const char *cache; /* pipeline: --cache */
};

static void usage(FILE *f)
{
    fprintf(f, "usage: scene --scene dispatch|shader|draw|draw_indirect|hotloop|reduce|pipeline [--warmup N] [--iters N]\n"
               "             [--dispatches N] [--invocations N] [--loops N] [--draws N] [--sets N]\n"
               "             [--variant masked|memory|naive|hoisted|flag|masked_flag|masked_hoisted|guard|select]\n"
               "             [--workgroups N] [--spv DIR] [--oob] [--bad-index] [--unwritten]\n"
               "             [--layer-set] [--threads N] [--cache FILE]\n");
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
        capp_die("out of memory");
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
        .draws = 10000, .sets = 64, .workgroups = 65536, .variant = "masked", .threads = 1,
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
        } else if (!strcmp(a, "--bad-index")) {
            o.bad_index = 1;
        } else if (!strcmp(a, "--unwritten")) {
            o.unwritten = 1;
        } else if (!strcmp(a, "--layer-set")) {
            o.layer_set = 1;
        } else if (!strcmp(a, "--threads")) {
            o.threads = parse_u32(a, v, 1), i++;
            if (o.threads > 64)
                bad_usage("--threads is at most 64", NULL);
        } else if (!strcmp(a, "--cache")) {
            if (!v)
                bad_usage("missing value for", a);
            o.cache = v, i++;
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
    capp vk;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkDescriptorPool desc_pool;
    int stats; /* BENCH_STATS=1 and the driver has pipeline statistics */
};

/* stats_wanted says whether BENCH_STATS=1 asks for pipeline statistics. */
static int stats_wanted(void)
{
    const char *v = getenv("BENCH_STATS");
    return v && !strcmp(v, "1");
}


/* create_instance makes the instance, with GPU-AV on and the rest of the
 * Khronos layer off when BENCH_KHRONOS_GPUAV=1, and a messenger that prints
 * warnings and the first 20 errors and counts every error. */
static void create_instance(struct ctx *c)
{
    const char *khronos = getenv("BENCH_KHRONOS_GPUAV");
    int gpuav = khronos && !strcmp(khronos, "1");
    VkValidationFeatureEnableEXT enables[] = { VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT };
    VkValidationFeatureDisableEXT disables[] = {
        VK_VALIDATION_FEATURE_DISABLE_CORE_CHECKS_EXT,     VK_VALIDATION_FEATURE_DISABLE_SHADERS_EXT,
        VK_VALIDATION_FEATURE_DISABLE_THREAD_SAFETY_EXT,   VK_VALIDATION_FEATURE_DISABLE_OBJECT_LIFETIMES_EXT,
        VK_VALIDATION_FEATURE_DISABLE_API_PARAMETERS_EXT, VK_VALIDATION_FEATURE_DISABLE_UNIQUE_HANDLES_EXT,
    };
    VkValidationFeaturesEXT vf = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .enabledValidationFeatureCount = 1,
        .pEnabledValidationFeatures = enables,
        .disabledValidationFeatureCount = sizeof disables / sizeof disables[0],
        .pDisabledValidationFeatures = disables,
    };
    capp_create_instance(&c->vk, &(capp_instance_info){
        .app_name = "gpuav-dbg bench scene",
        .api_version = VK_API_VERSION_1_2,
        .next = gpuav ? &vf : NULL,
        .messenger = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messenger_types = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .print_errors = 20,
    });
    printf("bench: khronos-gpuav %s\n", gpuav ? "on" : "off");
}

/* robustness2 says whether BENCH_ROBUSTNESS2=1 asks for the driver's
 * robustness, and then fills *rob2 with both features on; it fails the run
 * when the device lacks VK_EXT_robustness2 or either feature. */
static int robustness2(struct ctx *c, VkPhysicalDeviceRobustness2FeaturesEXT *rob2)
{
    const char *v = getenv("BENCH_ROBUSTNESS2");
    if (!v || strcmp(v, "1")) {
        printf("bench: robustness2 off\n");
        return 0;
    }
    VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = rob2 };
    vkGetPhysicalDeviceFeatures2(c->vk.pd, &f2);
    if (!capp_has_device_extension(&c->vk, VK_EXT_ROBUSTNESS_2_EXTENSION_NAME) || !rob2->robustBufferAccess2 ||
        !rob2->robustImageAccess2 || !f2.features.robustBufferAccess)
        capp_die("BENCH_ROBUSTNESS2=1: the device lacks VK_EXT_robustness2's robustBufferAccess2 or robustImageAccess2");
    rob2->pNext = NULL;
    rob2->robustBufferAccess2 = rob2->robustImageAccess2 = VK_TRUE;
    rob2->nullDescriptor = VK_FALSE;
    printf("bench: robustness2 on\n");
    return 1;
}

static void create_device(struct ctx *c)
{
    VkPhysicalDeviceDriverProperties drv = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
    VkPhysicalDeviceProperties2 props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &drv };
    vkGetPhysicalDeviceProperties2(c->vk.pd, &props);
    printf("bench: device %s\n", props.properties.deviceName);
    printf("bench: driver %s %s (Vulkan %u.%u.%u)\n", drv.driverName, drv.driverInfo,
           VK_API_VERSION_MAJOR(props.properties.apiVersion), VK_API_VERSION_MINOR(props.properties.apiVersion),
           VK_API_VERSION_PATCH(props.properties.apiVersion));

    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c->vk.pd, &have);
    if (!have.shaderStorageBufferArrayDynamicIndexing || !have.shaderSampledImageArrayDynamicIndexing)
        capp_die("the device lacks dynamic indexing of storage buffer / sampled image arrays");
    /* The two store features are what both GPU-AV layers want for
     * instrumented vertex and fragment shaders; enable them when present. */
    VkPhysicalDeviceFeatures features = {
        .shaderStorageBufferArrayDynamicIndexing = VK_TRUE,
        .shaderSampledImageArrayDynamicIndexing = VK_TRUE,
        .fragmentStoresAndAtomics = have.fragmentStoresAndAtomics,
        .vertexPipelineStoresAndAtomics = have.vertexPipelineStoresAndAtomics,
        /* draw_indirect's commands carry the draw number in firstInstance. */
        .drawIndirectFirstInstance = have.drawIndirectFirstInstance,
    };
    VkPhysicalDeviceRobustness2FeaturesEXT rob2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT };
    const char *robust_exts[] = { VK_EXT_ROBUSTNESS_2_EXTENSION_NAME };
    int robust = robustness2(c, &rob2);
    features.robustBufferAccess = robust ? VK_TRUE : VK_FALSE;
    /* BENCH_STATS=1: the driver's statistics of the hot loop's pipeline
     * (VK_KHR_pipeline_executable_properties): registers, instructions. */
    VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR pexec = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        .pNext = robust ? &rob2 : NULL, .pipelineExecutableInfo = VK_TRUE
    };
    const char *stats_exts[] = { VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME };
    c->stats = !robust && stats_wanted() &&
               capp_has_device_extension(&c->vk, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    if (stats_wanted() && !c->stats)
        printf("bench: NOTICE: no pipeline statistics (no %s, or robustness2 on)\n",
               VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME);
    capp_create_device(&c->vk, &(capp_device_info){ .queue_flags = VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT,
                                                    .features = &features,
                                                    .next = c->stats ? (void *)&pexec : robust ? (void *)&rob2 : NULL,
                                                    .exts = c->stats ? stats_exts : robust ? robust_exts : NULL,
                                                    .nexts = (c->stats || robust) ? 1 : 0 });
    c->pool = capp_command_pool(&c->vk, 0);
    c->cmd = capp_command_buffer(&c->vk, c->pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
    c->fence = capp_fence(&c->vk);
}

static void create_desc_pool(struct ctx *c, uint32_t sets)
{
    VkDescriptorPoolSize sizes[] = {
        { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8 * sets },
        { VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 8 * sets },
        { VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2 * sets },
    };
    c->desc_pool = capp_descriptor_pool(&c->vk, sets, sizes, 3);
}

/* The scenes' buffers (capp_buffer_create) are host-visible and coherent:
 * kept simple, the scenes measure the layer, not the memory placement, and
 * every configuration uses the same ones. */

/* begin resets the command pool and begins the one command buffer. */
static void begin(const struct ctx *c)
{
    CHECK(vkResetCommandPool(c->vk.dev, c->pool, 0));
    capp_begin(c->cmd, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
}

/* begin_compute begins the command buffer with a compute pipeline and its
 * set 0 bound (the compute scenes). */
static void begin_compute(const struct ctx *c, VkPipeline pipe, VkPipelineLayout layout, VkDescriptorSet set)
{
    begin(c);
    vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
}

/* With BENCH_PHASES=1 in the environment the scenes also print where an
 * iteration's time went ("phase: ..." lines, which the harness ignores):
 * recording, vkQueueSubmit and the wait for the fence; per pipeline, the
 * module and pipeline creation times. */
static int g_phases = -1;
static capp_timing g_time; /* of the last submit_and_wait */

static int phases(void)
{
    if (g_phases < 0) {
        const char *v = getenv("BENCH_PHASES");
        g_phases = v && *v && strcmp(v, "0") != 0;
    }
    return g_phases;
}

/* submit_and_wait ends the command buffer, submits it and waits for it;
 * g_time gets the submit (vkEndCommandBuffer included) and the wait. */
static void submit_and_wait(const struct ctx *c)
{
    g_time = (capp_timing){ .start_ns = capp_now_ns() };
    CHECK(vkEndCommandBuffer(c->cmd));
    capp_submit_wait(&c->vk, 1, &c->cmd, c->fence, &g_time);
}

/* Textures: RGBA32F (sampleable everywhere, exact values), each cleared to
 * one colour, left in SHADER_READ_ONLY_OPTIMAL. */
static void fill_textures(const struct ctx *c, capp_image *tex, uint32_t n)
{
    begin(c);
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    for (uint32_t t = 0; t < n; t++) {
        capp_image_barrier(c->cmd, tex[t].image, (capp_layout_change){
            .from = VK_IMAGE_LAYOUT_UNDEFINED, .to = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            .dst_access = VK_ACCESS_TRANSFER_WRITE_BIT,
            .src_stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, .dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
        });
        float v = 0.125f * (float)(t + 1);
        VkClearColorValue col = { .float32 = { v, v, v, v } };
        vkCmdClearColorImage(c->cmd, tex[t].image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &col, 1, &range);
        capp_image_barrier(c->cmd, tex[t].image, (capp_layout_change){
            .from = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, .to = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            .src_access = VK_ACCESS_TRANSFER_WRITE_BIT, .dst_access = VK_ACCESS_SHADER_READ_BIT,
            .src_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
            .dst_stage = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
        });
    }
    submit_and_wait(c);
}

/* ---- shaders ------------------------------------------------------------------ */

struct spv {
    uint32_t *words;
    size_t size; /* bytes */
};

/* load_spv reads DIR/NAME.spv (make bench-apps builds them). */
static struct spv load_spv(const char *dir, const char *name)
{
    char path[8400];
    snprintf(path, sizeof path, "%s/%s.spv", dir, name);
    struct spv s;
    s.words = capp_read_spirv(path, &s.size);
    return s;
}

static VkShaderModule make_module(const struct ctx *c, struct spv s)
{
    return capp_shader_module(&c->vk, s.words, s.size);
}

/* print_stats prints the driver's statistics of each executable of pipe
 * ("stats: NAME EXECUTABLE: STATISTIC = VALUE"). */
static void print_stats(const struct ctx *c, VkPipeline pipe, const char *name)
{
    PFN_vkGetPipelineExecutablePropertiesKHR props =
        (PFN_vkGetPipelineExecutablePropertiesKHR)vkGetDeviceProcAddr(c->vk.dev, "vkGetPipelineExecutablePropertiesKHR");
    PFN_vkGetPipelineExecutableStatisticsKHR stats =
        (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(c->vk.dev, "vkGetPipelineExecutableStatisticsKHR");
    if (!props || !stats)
        return;
    VkPipelineExecutablePropertiesKHR ex[8];
    uint32_t n = 8;
    for (uint32_t i = 0; i < n; i++)
        ex[i] = (VkPipelineExecutablePropertiesKHR){ .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_PROPERTIES_KHR };
    VkPipelineInfoKHR pi = { .sType = VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, .pipeline = pipe };
    if (props(c->vk.dev, &pi, &n, ex) < 0)
        return;
    for (uint32_t i = 0; i < n; i++) {
        VkPipelineExecutableStatisticKHR st[32];
        uint32_t m = 32;
        for (uint32_t k = 0; k < m; k++)
            st[k] = (VkPipelineExecutableStatisticKHR){ .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR };
        VkPipelineExecutableInfoKHR ei = { .sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, .pipeline = pipe,
                                           .executableIndex = i };
        if (stats(c->vk.dev, &ei, &m, st) < 0)
            continue;
        for (uint32_t k = 0; k < m; k++) {
            printf("stats: %s %s: %s = ", name, ex[i].name, st[k].name);
            switch (st[k].format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: printf("%u\n", st[k].value.b32); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: printf("%lld\n", (long long)st[k].value.i64); break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: printf("%llu\n", (unsigned long long)st[k].value.u64); break;
            default: printf("%g\n", st[k].value.f64); break;
            }
        }
    }
}

/* compute_pipeline makes the compute pipeline of DIR/NAME.spv's main (its
 * module is gone once the pipeline is made). */
static VkPipeline compute_pipeline(const struct ctx *c, const char *dir, const char *name, VkPipelineLayout layout)
{
    struct spv s = load_spv(dir, name);
    VkShaderModule m = make_module(c, s);
    VkPipeline pipe = capp_compute_pipeline(&c->vk, layout, m,
                                            c->stats ? VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR : 0, NULL);
    if (c->stats)
        print_stats(c, pipe, name);
    vkDestroyShaderModule(c->vk.dev, m, NULL);
    free(s.words);
    return pipe;
}

/* make_graphics makes the scenes' graphics pipeline: vs and fs with spec,
 * triangle lists into a size x size target of rp, blending ONE + ONE. */
static VkPipeline make_graphics(const struct ctx *c, VkShaderModule vs, VkShaderModule fs, VkPipelineLayout layout,
                                VkRenderPass rp, uint32_t size, const VkSpecializationInfo *spec)
{
    VkPipelineShaderStageCreateInfo stages[2] = {
        capp_stage(VK_SHADER_STAGE_VERTEX_BIT, vs, spec),
        capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, fs, spec),
    };
    return capp_graphics_pipeline(&c->vk, &(capp_graphics_info){
        .stages = stages, .nstages = 2, .layout = layout, .render_pass = rp, .width = size, .height = size,
        .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .additive = 1,
    });
}

/* make_layout makes a pipeline layout of one set layout and pc_size bytes
 * of push constants. */
static VkPipelineLayout make_layout(const struct ctx *c, VkDescriptorSetLayout dsl, VkShaderStageFlags pc_stages,
                                    uint32_t pc_size)
{
    return capp_pipeline_layout(&c->vk, 1, &dsl, &(VkPushConstantRange){ pc_stages, 0, pc_size });
}

/* alloc_set allocates a set of dsl from the scene's pool. */
static VkDescriptorSet alloc_set(const struct ctx *c, VkDescriptorSetLayout dsl)
{
    return capp_descriptor_set(&c->vk, c->desc_pool, dsl);
}

static void report_iter(uint32_t i, uint32_t warmup, uint64_t ns)
{
    if (i >= warmup && phases() && g_time.submit_ns + g_time.wait_ns <= ns)
        printf("phase: iter %u record %llu submit %llu wait %llu\n", i - warmup,
               (unsigned long long)(ns - g_time.submit_ns - g_time.wait_ns), (unsigned long long)g_time.submit_ns,
               (unsigned long long)g_time.wait_ns);
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
    capp_buffer ins[ARRAY];
    for (uint32_t k = 0; k < ARRAY; k++) {
        ins[k] = capp_buffer_create(&c->vk, LOCAL * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        for (uint32_t i = 0; i < LOCAL; i++)
            ((uint32_t *)ins[k].map)[i] = k * 1000 + i;
    }
    capp_buffer out = capp_buffer_create(&c->vk, (VkDeviceSize)o->dispatches * LOCAL * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b[2] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ARRAY, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, b, 2);
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
    vkUpdateDescriptorSets(c->vk.dev, 2, w, 0, NULL);
    VkPipeline pipe = compute_pipeline(c, o->spv, "dispatch.comp", layout);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        memset(out.map, 0, out.size);
        uint64_t t0 = capp_now_ns();
        begin_compute(c, pipe, layout, set);
        for (uint32_t d = 0; d < o->dispatches; d++) {
            uint32_t pc[2] = { o->oob ? ARRAY : d % ARRAY, d * LOCAL };
            vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
            vkCmdDispatch(c->cmd, 1, 1, 1);
        }
        submit_and_wait(c);
        report_iter(it, o->warmup, capp_now_ns() - t0);
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
    vkDestroyPipeline(c->vk.dev, pipe, NULL);
    vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, dsl, NULL);
    for (uint32_t k = 0; k < ARRAY; k++)
        capp_buffer_destroy(&c->vk, &ins[k]);
    capp_buffer_destroy(&c->vk, &out);
}

/* ---- shader-heavy ----------------------------------------------------------------- */

#define SHADER_WORDS 4096 /* vec4s per buffer of bufs[] in shader.comp */
#define TEX 64            /* textures are TEX x TEX */

static void scene_shader(struct ctx *c, const struct options *o)
{
    printf("bench: size invocations=%u loops=%u\n", o->invocations, o->loops);
    create_desc_pool(c, 1);
    capp_buffer bufs[ARRAY];
    for (uint32_t k = 0; k < ARRAY; k++) {
        bufs[k] = capp_buffer_create(&c->vk, SHADER_WORDS * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        float *f = bufs[k].map;
        for (uint32_t j = 0; j < SHADER_WORDS; j++) {
            f[4 * j + 0] = (float)k;
            f[4 * j + 1] = (float)(j % 7);
            f[4 * j + 2] = 1.0f;
            f[4 * j + 3] = 0.0f;
        }
    }
    capp_buffer out = capp_buffer_create(&c->vk, (VkDeviceSize)o->invocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_image tex[ARRAY];
    for (uint32_t t = 0; t < ARRAY; t++)
        tex[t] = capp_image_create(&c->vk, TEX, TEX, VK_FORMAT_R32G32B32A32_SFLOAT,
                                   VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    fill_textures(c, tex, ARRAY);
    VkSampler sampler = capp_sampler(&c->vk, VK_SAMPLER_ADDRESS_MODE_REPEAT);

    VkDescriptorSetLayoutBinding b[3] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, ARRAY, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ARRAY, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, b, 3);
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
    vkUpdateDescriptorSets(c->vk.dev, 3, w, 0, NULL);
    VkPipeline pipe = compute_pipeline(c, o->spv, "shader.comp", layout);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        uint64_t t0 = capp_now_ns();
        begin_compute(c, pipe, layout, set);
        uint32_t pc[2] = { o->loops, o->oob ? ARRAY : 0 };
        vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
        vkCmdDispatch(c->cmd, o->invocations / LOCAL, 1, 1);
        submit_and_wait(c);
        report_iter(it, o->warmup, capp_now_ns() - t0);
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
    vkDestroyPipeline(c->vk.dev, pipe, NULL);
    vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, dsl, NULL);
    vkDestroySampler(c->vk.dev, sampler, NULL);
    for (uint32_t k = 0; k < ARRAY; k++) {
        capp_buffer_destroy(&c->vk, &bufs[k]);
        capp_image_destroy(&c->vk, &tex[k]);
    }
    capp_buffer_destroy(&c->vk, &out);
}

/* ---- draw-heavy ---------------------------------------------------------------------- */

#define TARGET 256
#define TARGET_FORMAT VK_FORMAT_R8G8B8A8_UNORM

static VkRenderPass make_render_pass(const struct ctx *c, VkImageLayout final_layout)
{
    return capp_render_pass(&c->vk, TARGET_FORMAT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, final_layout);
}

static void scene_draw(struct ctx *c, const struct options *o)
{
    printf("bench: size draws=%u sets=%u target=%ux%u\n", o->draws, o->sets, TARGET, TARGET);
    create_desc_pool(c, o->sets);
    capp_image tex[ARRAY];
    for (uint32_t t = 0; t < ARRAY; t++)
        tex[t] = capp_image_create(&c->vk, TEX, TEX, VK_FORMAT_R32G32B32A32_SFLOAT,
                                   VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    fill_textures(c, tex, ARRAY);
    VkSampler sampler = capp_sampler(&c->vk, VK_SAMPLER_ADDRESS_MODE_REPEAT);
    capp_image target = capp_image_create(&c->vk, TARGET, TARGET, TARGET_FORMAT,
                                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    capp_buffer readback = capp_buffer_create(&c->vk, TARGET * TARGET * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkRenderPass rp = make_render_pass(c, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkFramebuffer fb = capp_framebuffer(&c->vk, rp, &target);

    /* One tint per set, in a uniform buffer at 256-byte steps. */
    capp_buffer tints = capp_buffer_create(&c->vk, (VkDeviceSize)o->sets * 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b[2] = {
        { 0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, ARRAY, VK_SHADER_STAGE_FRAGMENT_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, b, 2);
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_FRAGMENT_BIT, 4);
    VkDescriptorSet *sets = calloc(o->sets, sizeof *sets);
    if (!sets)
        capp_die("out of memory");
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
        vkUpdateDescriptorSets(c->vk.dev, 2, w, 0, NULL);
    }
    struct spv vss = load_spv(o->spv, "draw.vert"), fss = load_spv(o->spv, "draw.frag");
    VkShaderModule vs = make_module(c, vss), fs = make_module(c, fss);
    VkPipeline pipe = make_graphics(c, vs, fs, layout, rp, TARGET, NULL);
    /* draw_indirect: command d is {6, 1, 0, 0, d} over indices 0..5: the
     * direct draw's vertices and instance. */
    capp_buffer indirect = {0}, indices = {0};
    if (o->indirect) {
        indirect = capp_buffer_create(&c->vk, (VkDeviceSize)o->draws * 20, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
        for (uint32_t d = 0; d < o->draws; d++)
            memcpy((uint32_t *)indirect.map + 5 * d, (uint32_t[5]){6, 1, 0, 0, d}, 20);
        indices = capp_buffer_create(&c->vk, 6 * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
        memcpy(indices.map, (uint32_t[6]){0, 1, 2, 3, 4, 5}, 24);
    }

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        uint64_t t0 = capp_now_ns();
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
        if (o->indirect)
            vkCmdBindIndexBuffer(c->cmd, indices.buf, 0, VK_INDEX_TYPE_UINT32);
        for (uint32_t d = 0; d < o->draws; d++) {
            vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &sets[d % o->sets], 0,
                                    NULL);
            uint32_t t = o->oob ? ARRAY : d % ARRAY;
            vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &t);
            if (o->indirect)
                vkCmdDrawIndexedIndirect(c->cmd, indirect.buf, (VkDeviceSize)d * 20, 1, 20);
            else
                vkCmdDraw(c->cmd, 6, 1, 0, d);
        }
        vkCmdEndRenderPass(c->cmd);
        VkBufferImageCopy copy = {
            .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 },
            .imageExtent = { TARGET, TARGET, 1 },
        };
        vkCmdCopyImageToBuffer(c->cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.buf, 1, &copy);
        submit_and_wait(c);
        report_iter(it, o->warmup, capp_now_ns() - t0);
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
    vkDestroyPipeline(c->vk.dev, pipe, NULL);
    vkDestroyShaderModule(c->vk.dev, vs, NULL);
    vkDestroyShaderModule(c->vk.dev, fs, NULL);
    vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, dsl, NULL);
    vkDestroyFramebuffer(c->vk.dev, fb, NULL);
    vkDestroyRenderPass(c->vk.dev, rp, NULL);
    vkDestroySampler(c->vk.dev, sampler, NULL);
    free(sets);
    capp_buffer_destroy(&c->vk, &tints);
    capp_buffer_destroy(&c->vk, &readback);
    if (indirect.buf) {
        capp_buffer_destroy(&c->vk, &indirect);
        capp_buffer_destroy(&c->vk, &indices);
    }
    capp_image_destroy(&c->vk, &target);
    for (uint32_t k = 0; k < ARRAY; k++)
        capp_image_destroy(&c->vk, &tex[k]);
}

/* ---- hot loop ------------------------------------------------------------------------ */

#define HOT_WORDS 1024 /* uints per buffer: 4 KB */
#define HOT_ITERS 256  /* the shaders' loop count */

/* hot_index is idx.k[j] (the memory variants' descriptor index); bad (--oob,
 * --bad-index) makes every 64th one 2, out of the array of 2; only1
 * (--unwritten) makes the others 1. */
static uint32_t hot_index(uint32_t j, int bad, int only1)
{
    return bad && j % 64 == 63 ? 2 : only1 ? 1 : (j / 3) & 1;
}

/* hot_want is what invocation g of workgroup w writes (uint arithmetic wraps
 * as in the shader; bufs[k].v[j] = k * 1000 + j); with bad indices, an
 * iteration whose index is out of bounds has its reads skipped (zero). */
/* hot_divisor is idx.k[j] of the math variant; bad (--oob) makes every
 * 64th 0. */
static uint32_t hot_divisor(uint32_t j, int bad)
{
    return bad && j % 64 == 63 ? 0 : j % 7 + 1;
}

/* hot_math_want is what invocation g of workgroup w of the math variant
 * writes: the divisions and remainders of x = bufs[0].v[...] (= its index)
 * by the divisors, plus the largest pow(a, 2.0) of a = bufs[1] (1..8): 64. */
static uint32_t hot_math_want(uint32_t g, uint32_t w, int bad)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < HOT_ITERS; i++) {
        uint32_t d = hot_divisor((w + i) & 1023, bad), x = (g * 7 + i) & 1023;
        if (d)
            acc += x / d + x % d;
    }
    return acc + 64;
}

static uint32_t hot_want(uint32_t g, uint32_t w, int masked, int bad, int only1)
{
    uint32_t acc = 0;
    for (uint32_t i = 0; i < HOT_ITERS; i++) {
        uint32_t k = masked ? (w + i) & 1 : hot_index((w + i) & 1023, bad, only1);
        if (k >= 2)
            continue;
        acc += (k * 1000 + ((g * 7 + i) & 1023)) * 3 + k * 1000 + ((g + i * 13) & 1023);
    }
    return acc;
}

static void scene_hotloop(struct ctx *c, const struct options *o)
{
    /* masked and memory, then the hand-checked references of each */
    static const char *variants[] = { "masked", "memory", "naive", "hoisted", "flag", "masked_flag", "masked_hoisted",
                                      "guard", "select", "select_set1", "fold", "math" };
    int v = -1;
    for (int i = 0; i < 12; i++)
        if (!strcmp(o->variant, variants[i]))
            v = i;
    if (v < 0)
        bad_usage("unknown --variant", o->variant);
    int masked = !strncmp(o->variant, "masked", 6);
    int math = v == 11;
    if (v >= 7 && !math && o->oob)
        bad_usage("--oob is undefined behaviour for this variant (it assumes every buffer bound whole): use --bad-index",
                  o->variant);
    int bad = o->oob || (o->bad_index && !masked);
    if (o->unwritten && (v != 1 || !o->bad_index || o->oob))
        bad_usage("--unwritten is for --variant memory with --bad-index, not", o->variant);
    uint32_t n = o->workgroups * LOCAL;
    printf("bench: size variant=%s workgroups=%u invocations=%u loops=%u\n", o->variant, o->workgroups, n, HOT_ITERS);
    create_desc_pool(c, 2); /* select_set1: a second set */
    capp_buffer bufs[2], idx = capp_buffer_create(&c->vk, HOT_WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t k = 0; k < 2; k++) {
        bufs[k] = capp_buffer_create(&c->vk, HOT_WORDS * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        for (uint32_t j = 0; j < HOT_WORDS; j++)
            ((uint32_t *)bufs[k].map)[j] = k * 1000 + j;
    }
    for (uint32_t j = 0; j < HOT_WORDS; j++)
        ((uint32_t *)idx.map)[j] = math ? hot_divisor(j, bad) : hot_index(j, bad, o->unwritten);
    if (math) /* bufs[1]: floats 1..8 */
        for (uint32_t j = 0; j < HOT_WORDS; j++)
            ((float *)bufs[1].map)[j] = (float)((j & 7) + 1);
    capp_buffer out = capp_buffer_create(&c->vk, (VkDeviceSize)n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer err = capp_buffer_create(&c->vk, 16 + 64 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b[4] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, b, 4), dsl1 = VK_NULL_HANDLE;
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_COMPUTE_BIT, 4);
    VkDescriptorSet set = alloc_set(c, dsl), set1 = VK_NULL_HANDLE;
    if (v == 9) { /* select_set1: the failure buffer alone in set 1 */
        VkDescriptorSetLayoutBinding eb = { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL };
        dsl1 = capp_set_layout(&c->vk, &eb, 1);
        set1 = alloc_set(c, dsl1);
        vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
        layout = capp_pipeline_layout(&c->vk, 2, (VkDescriptorSetLayout[2]){ dsl, dsl1 },
                                      &(VkPushConstantRange){ VK_SHADER_STAGE_COMPUTE_BIT, 0, 4 });
    }
    /* --oob binds only the first 2 KB of each buffer of the array. */
    VkDeviceSize range = o->oob && !math ? HOT_WORDS * 2 : VK_WHOLE_SIZE;
    VkDescriptorBufferInfo bi[5] = {
        { bufs[0].buf, 0, range }, { bufs[1].buf, 0, range }, { out.buf, 0, VK_WHOLE_SIZE },
        { idx.buf, 0, VK_WHOLE_SIZE }, { err.buf, 0, VK_WHOLE_SIZE },
    };
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < 4; i++)
        w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = i,
                                       .descriptorCount = i ? 1 : 2, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pBufferInfo = i ? &bi[i + 1] : bi };
    if (o->unwritten) /* element 1 only */
        w[0].dstArrayElement = 1, w[0].descriptorCount = 1, w[0].pBufferInfo = &bi[1];
    if (set1) /* binding 3's buffer as set 1's binding 0 */
        w[3].dstSet = set1, w[3].dstBinding = 0;
    vkUpdateDescriptorSets(c->vk.dev, 4, w, 0, NULL);
    char name[32];
    snprintf(name, sizeof name, "hotloop_%s.comp", o->variant);
    VkPipeline pipe = compute_pipeline(c, o->spv, name, layout);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        memset(err.map, 0, err.size);
        uint64_t t0 = capp_now_ns();
        begin_compute(c, pipe, layout, set);
        if (set1)
            vkCmdBindDescriptorSets(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 1, 1, &set1, 0, NULL);
        vkCmdDispatch(c->cmd, o->workgroups, 1, 1);
        submit_and_wait(c);
        report_iter(it, o->warmup, capp_now_ns() - t0);
    }
    if (v >= 2 && !math)
        printf("bench: hand-errors %u\n", *(const uint32_t *)err.map);
    if (!o->oob) {
        const uint32_t *got = out.map;
        for (uint32_t g = 0; g < n; g += n / 61 + 1) {
            uint32_t want = math ? hot_math_want(g, g / LOCAL, bad) : hot_want(g, g / LOCAL, masked, bad, o->unwritten);
            if (got[g] != want) {
                fprintf(stderr, "scene: invocation %u = %u, want %u\n", g, got[g], want);
                exit(1);
            }
        }
        for (uint32_t k = 0; k < (math ? 1 : 2); k++)
            for (uint32_t j = 0; j < HOT_WORDS; j++)
                if (((const uint32_t *)bufs[k].map)[j] != k * 1000 + j) {
                    fprintf(stderr, "scene: bufs[%u].v[%u] = %u, want %u\n", k, j, ((const uint32_t *)bufs[k].map)[j],
                            k * 1000 + j);
                    exit(1);
                }
        printf("bench: check ok\n");
    }
    vkDestroyPipeline(c->vk.dev, pipe, NULL);
    vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, dsl, NULL);
    if (dsl1)
        vkDestroyDescriptorSetLayout(c->vk.dev, dsl1, NULL);
    for (uint32_t k = 0; k < 2; k++)
        capp_buffer_destroy(&c->vk, &bufs[k]);
    capp_buffer_destroy(&c->vk, &idx);
    capp_buffer_destroy(&c->vk, &out);
    capp_buffer_destroy(&c->vk, &err);
}

/* ---- shared-memory reduction -------------------------------------------------------------- */

#define REDUCE_LOCAL 256

static void scene_reduce(struct ctx *c, const struct options *o)
{
    uint32_t n = o->workgroups * REDUCE_LOCAL;
    printf("bench: size workgroups=%u invocations=%u\n", o->workgroups, n);
    create_desc_pool(c, 1);
    capp_buffer in = capp_buffer_create(&c->vk, (VkDeviceSize)n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer out = capp_buffer_create(&c->vk, (VkDeviceSize)o->workgroups * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    float *f = in.map;
    for (uint32_t g = 0; g < n; g++)
        f[g] = (float)(g % 7);
    VkDescriptorSetLayoutBinding b[2] = {
        { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
        { 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL },
    };
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, b, 2);
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_COMPUTE_BIT, 4);
    VkDescriptorSet set = alloc_set(c, dsl);
    VkDescriptorBufferInfo bi[2] = { { in.buf, 0, VK_WHOLE_SIZE }, { out.buf, 0, VK_WHOLE_SIZE } };
    VkWriteDescriptorSet w[2];
    for (uint32_t i = 0; i < 2; i++)
        w[i] = (VkWriteDescriptorSet){ .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = i,
                                       .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                       .pBufferInfo = &bi[i] };
    vkUpdateDescriptorSets(c->vk.dev, 2, w, 0, NULL);
    VkPipeline pipe = compute_pipeline(c, o->spv, "reduce.comp", layout);
    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        memset(out.map, 0, out.size);
        uint64_t t0 = capp_now_ns();
        begin_compute(c, pipe, layout, set);
        uint32_t racy = o->oob;
        vkCmdPushConstants(c->cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof racy, &racy);
        vkCmdDispatch(c->cmd, o->workgroups, 1, 1);
        submit_and_wait(c);
        report_iter(it, o->warmup, capp_now_ns() - t0);
    }
    /* Every workgroup's sum, exact (integers below 2^24); --oob's racy
     * steps may sum anything. */
    const float *got = out.map;
    if (o->oob)
        goto done;
    for (uint32_t wg = 0; wg < o->workgroups; wg++) {
        uint32_t want = 0;
        for (uint32_t l = 0; l < REDUCE_LOCAL; l++)
            want += (wg * REDUCE_LOCAL + l) % 7;
        if (got[wg] != (float)want) {
            fprintf(stderr, "scene: workgroup %u = %g, want %u\n", wg, got[wg], want);
            exit(1);
        }
    }
    printf("bench: check ok\n");
done:
    vkDestroyPipeline(c->vk.dev, pipe, NULL);
    vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, dsl, NULL);
    capp_buffer_destroy(&c->vk, &in);
    capp_buffer_destroy(&c->vk, &out);
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
        capp_die("cannot open the corpus list (build it with make bench-apps): %s", path);
    char line[1024];
    uint32_t n = 0;
    while (fgets(line, sizeof line, f)) {
        char kind[16], x[256], y[256];
        if (line[0] == '#' || line[0] == '\n')
            continue;
        int got = sscanf(line, "%15s %255s %255s", kind, x, y);
        if (n == MAX_ENTRIES)
            capp_die("too many corpus entries: %s", path);
        if (got == 2 && !strcmp(kind, "comp")) {
            e[n] = (struct entry){ .graphics = 0, .a = load_spv(dir, x) };
        } else if (got == 3 && !strcmp(kind, "gfx")) {
            e[n] = (struct entry){ .graphics = 1, .a = load_spv(dir, x), .b = load_spv(dir, y) };
        } else {
            capp_die("bad corpus line: %s", line);
        }
        snprintf(e[n].name, sizeof e[n].name, "%.63s", x);
        n++;
    }
    fclose(f);
    return n;
}

/* pipeline_job is one thread's share of an iteration of the pipeline
 * scene: entries first, first + step, ... */
struct pipeline_job {
    struct ctx *c;
    const struct entry *e;
    uint32_t n, first, step;
    VkPipelineLayout layout;
    VkRenderPass rp;
    VkPipelineCache cache;
    const VkSpecializationInfo *spec;
    VkShaderModule *mods;
    VkPipeline *pipes;
    int phases; /* print the per-pipeline phase lines */
    pthread_barrier_t *start;
};

static void *pipeline_job_run(void *arg)
{
    struct pipeline_job *j = arg;
    struct ctx *c = j->c;
    if (j->start)
        pthread_barrier_wait(j->start);
    for (uint32_t i = j->first; i < j->n; i += j->step) {
        const struct entry *e = &j->e[i];
        uint64_t m0 = capp_now_ns();
        j->mods[2 * i] = make_module(c, e->a);
        if (e->graphics)
            j->mods[2 * i + 1] = make_module(c, e->b);
        uint64_t m1 = capp_now_ns();
        if (e->graphics) {
            VkPipelineShaderStageCreateInfo stages[2] = {
                capp_stage(VK_SHADER_STAGE_VERTEX_BIT, j->mods[2 * i], j->spec),
                capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, j->mods[2 * i + 1], j->spec),
            };
            j->pipes[i] = capp_graphics_pipeline(&c->vk, &(capp_graphics_info){
                .stages = stages, .nstages = 2, .layout = j->layout, .render_pass = j->rp, .width = TARGET,
                .height = TARGET, .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, .additive = 1,
                .cache = j->cache,
            });
        } else {
            VkComputePipelineCreateInfo ci = {
                .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
                .stage = capp_stage(VK_SHADER_STAGE_COMPUTE_BIT, j->mods[2 * i], j->spec),
                .layout = j->layout,
                .basePipelineIndex = -1,
            };
            CHECK(vkCreateComputePipelines(c->vk.dev, j->cache, 1, &ci, NULL, &j->pipes[i]));
        }
        if (j->phases)
            printf("phase: pipeline %u %s modules %llu pipeline %llu\n", i, e->name, (unsigned long long)(m1 - m0),
                   (unsigned long long)(capp_now_ns() - m1));
    }
    return NULL;
}

/* cpu_ns is the process's CPU time, every thread's. */
static uint64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* load_cache makes the --cache pipeline cache, from path's data when it
 * exists. */
static VkPipelineCache load_cache(const struct ctx *c, const char *path)
{
    void *data = NULL;
    size_t size = 0;
    FILE *f = fopen(path, "rb");
    if (f) {
        if (fseek(f, 0, SEEK_END) == 0) {
            long n = ftell(f);
            if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n)) != NULL &&
                fread(data, 1, (size_t)n, f) == (size_t)n)
                size = (size_t)n;
        }
        fclose(f);
    }
    VkPipelineCacheCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                     .initialDataSize = size, .pInitialData = size ? data : NULL };
    VkPipelineCache cache;
    CHECK(vkCreatePipelineCache(c->vk.dev, &ci, NULL, &cache));
    printf("bench: cache loaded %zu bytes\n", size);
    free(data);
    return cache;
}

/* save_cache writes the cache's data to path. */
static void save_cache(const struct ctx *c, VkPipelineCache cache, const char *path)
{
    size_t size = 0;
    CHECK(vkGetPipelineCacheData(c->vk.dev, cache, &size, NULL));
    void *data = malloc(size ? size : 1);
    if (!data)
        capp_die("out of memory");
    CHECK(vkGetPipelineCacheData(c->vk.dev, cache, &size, data));
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        capp_die("cannot write the pipeline cache: %s", path);
    printf("bench: cache saved %zu bytes\n", size);
    free(data);
}

static void scene_pipeline(struct ctx *c, const struct options *o)
{
    struct entry *e = calloc(MAX_ENTRIES, sizeof *e);
    if (!e)
        capp_die("out of memory");
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
    VkDescriptorSetLayout dsl = capp_set_layout(&c->vk, b, 3), lsl = VK_NULL_HANDLE;
    VkPipelineLayout layout = make_layout(c, dsl, VK_SHADER_STAGE_ALL, 16);
    if (o->layer_set) { /* the layer's set (gpuav/record.go, inputs.go) as set 1 */
        VkDescriptorSetLayoutBinding lb[4] = {
            { 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
            { 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
            { 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
            { 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL },
        };
        lsl = capp_set_layout(&c->vk, lb, 4);
        VkDescriptorSetLayout both[2] = { dsl, lsl };
        VkPushConstantRange pcr = { VK_SHADER_STAGE_ALL, 0, 16 };
        VkPipelineLayoutCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 2,
                                          .pSetLayouts = both, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr };
        vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
        CHECK(vkCreatePipelineLayout(c->vk.dev, &ci, NULL, &layout));
    }
    VkRenderPass rp = make_render_pass(c, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    VkShaderModule *mods = calloc(2 * n, sizeof *mods);
    VkPipeline *pipes = calloc(n, sizeof *pipes);
    if (!mods || !pipes)
        capp_die("out of memory");
    VkPipelineCache cache = o->cache ? load_cache(c, o->cache) : VK_NULL_HANDLE;
    uint32_t nt = o->threads;
    if (nt > 1)
        printf("bench: threads %u\n", nt);

    for (uint32_t it = 0; it < o->warmup + o->iters; it++) {
        uint32_t seed = it + 1;
        VkSpecializationMapEntry me = { 0, 0, 4 };
        VkSpecializationInfo spec = { 1, &me, 4, &seed };
        int ph = it + 1 == o->warmup + o->iters && phases();
        struct pipeline_job jobs[64];
        for (uint32_t t = 0; t < nt; t++)
            jobs[t] = (struct pipeline_job){ c, e, n, t, nt, layout, rp, cache, &spec, mods, pipes, ph, NULL };
        uint64_t t0, t1, c0 = cpu_ns();
        if (nt == 1) {
            t0 = capp_now_ns();
            pipeline_job_run(&jobs[0]);
            t1 = capp_now_ns();
        } else {
            /* The threads start together: the clock starts when the last
             * one is ready. */
            pthread_barrier_t start;
            pthread_barrier_init(&start, NULL, nt + 1);
            pthread_t th[64];
            for (uint32_t t = 0; t < nt; t++) {
                jobs[t].start = &start;
                if (pthread_create(&th[t], NULL, pipeline_job_run, &jobs[t]) != 0)
                    capp_die("cannot start a thread");
            }
            pthread_barrier_wait(&start);
            t0 = capp_now_ns();
            for (uint32_t t = 0; t < nt; t++)
                pthread_join(th[t], NULL);
            t1 = capp_now_ns();
            pthread_barrier_destroy(&start);
        }
        for (uint32_t i = 0; i < n; i++) {
            vkDestroyPipeline(c->vk.dev, pipes[i], NULL);
            vkDestroyShaderModule(c->vk.dev, mods[2 * i], NULL);
            if (e[i].graphics)
                vkDestroyShaderModule(c->vk.dev, mods[2 * i + 1], NULL);
        }
        /* The process's CPU time over the iteration: on a CPU driver, the
         * work itself, whatever else the machine runs. */
        printf("bench: cpu %s %u %llu\n", it < o->warmup ? "warmup" : "iter", it < o->warmup ? it : it - o->warmup,
               (unsigned long long)(cpu_ns() - c0));
        report_iter(it, o->warmup, t1 - t0);
    }
    if (cache) {
        save_cache(c, cache, o->cache);
        vkDestroyPipelineCache(c->vk.dev, cache, NULL);
    }
    printf("bench: check ok\n");
    vkDestroyRenderPass(c->vk.dev, rp, NULL);
    vkDestroyPipelineLayout(c->vk.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, dsl, NULL);
    if (lsl)
        vkDestroyDescriptorSetLayout(c->vk.dev, lsl, NULL);
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
    else if (!strcmp(o.scene, "draw_indirect"))
        run = scene_draw, o.indirect = 1;
    else if (!strcmp(o.scene, "hotloop"))
        run = scene_hotloop;
    else if (!strcmp(o.scene, "reduce"))
        run = scene_reduce;
    else if (!strcmp(o.scene, "pipeline"))
        run = scene_pipeline;
    else
        bad_usage("unknown scene", o.scene);
    printf("bench: scene %s\n", o.scene);

    struct ctx c = { 0 };
    create_instance(&c);
    create_device(&c);
    run(&c, &o);

    CHECK(vkDeviceWaitIdle(c.vk.dev));
    if (c.desc_pool)
        vkDestroyDescriptorPool(c.vk.dev, c.desc_pool, NULL);
    vkDestroyFence(c.vk.dev, c.fence, NULL);
    vkDestroyCommandPool(c.vk.dev, c.pool, NULL);
    capp_destroy(&c.vk);
    printf("bench: vk-errors %u\n", c.vk.vk_errors);
    printf("bench: done\n");
    return 0;
}
