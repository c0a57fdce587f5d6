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
 *   slots         cmd-0 in "compute": 200 dispatches, each after the app
 *                 binds set 0 again, in bounds but actions 63, 64 and 130
 *                 (idx 4): the layer's sets for the action slots on both
 *                 sides of the sets it makes 64 at a time (see mode_slots)
 *   queues        2 queues named "queue-a" and "queue-b" (the second queue of
 *                 the graphics+compute family, else another compute
 *                 family): "cmd-a" (idx 3) submitted to queue-a, "cmd-b"
 *                 (idx 4) to queue-b, each with its own fence; with fewer
 *                 than 2 usable queues prints "unsupported queues", exits 0
 *   reuse         rounds, each: a compute pipeline "pipe-R" (of --reuse-comp,
 *                 default --comp) and a command buffer "cmd-R" made, one
 *                 dispatch with idx 2 + R in "compute" submitted and waited
 *                 for, then the command buffer freed and the pipeline
 *                 destroyed, so that the driver may give a later round's the
 *                 same handles; prints "round R: pipeline=0x... cb=0x...";
 *                 stops after the first round from R=2 on whose pipeline has an
 *                 earlier round's handle, or after 32
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
 *   suspend       a dynamic render pass suspended in "cmd-a" and resumed in
 *                 "cmd-b", one submit of both: cmd-a draws idx 2 (action
 *                 0); cmd-b draws idx 3 (action 0) in the resumed pass,
 *                 then dispatches idx 4 (action 1) after it
 *   gpl           VK_EXT_graphics_pipeline_library: vertex-input,
 *                 pre-rasterization (--vert, module "gpl-vert"),
 *                 fragment-shader (--frag, module "gpl-frag") and
 *                 fragment-output libraries linked into "gpl-pipeline"; in
 *                 "frame" (vkCmdBeginRendering) vkCmdDraw with idx 3
 *                 (action 0)
 * Modes (VK_EXT_shader_object, compute shader object "oob-shader"):
 *   shaderobj     cmd-0 in "compute": the shader object with idx 3, the
 *                 pipeline with idx 4, the shader object with idx 5
 *                 (actions 0..2); then vkGetShaderBinaryDataEXT (prints
 *                 binary_bytes=N) and two shaders created from that binary
 *                 (prints binary_create=R for each); each one made
 *                 dispatches in "cmd-binary" with idx 1 (prints
 *                 binary_values=outs[1]), then with the first idx
 *   shaderobj-clean     the same with idx 0, 1, 0
 *   shaderobj-bad  one vkCreateShadersEXT of the compute shader with codeSize 2 bytes short
 *                 (not SPIR-V words); prints shaderobj_bad=VkResult
 *   shaderobj-foreign  --binary-out FILE: writes the compute shader object's
 *                 binary data (run it without the layer); --binary-in FILE:
 *                 a shader object from that binary, prints binary_create=R,
 *                 runs it in "cmd-binary" with idx 1, 0 (binary_values=...)
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

#include <dirent.h>

#include "capp.h"
#include "../shaderobj.h" /* VK_EXT_shader_object for older headers */
#include "../vk14.h"      /* VK_EXT_layer_settings, maintenance6, 1.4 names */

const char capp_app_name[] = "multi";

static const char *g_comp, *g_vert, *g_frag;
static const char *g_base_comp; /* --base-comp: the SPIR-V of "base-compute" (default --comp) */
static const char *g_reuse_comp; /* --reuse-comp: mode reuse's compute shader (default --comp) */
static const char *g_binary_in, *g_binary_out; /* mode shaderobj-foreign */
static const char *g_cache_in, *g_cache_out;
static int g_maint5; /* enable VK_KHR_maintenance5 (mode inline) */
static int g_shaderobj; /* enable VK_EXT_shader_object (modes shaderobj*) */
static int g_push;      /* Vulkan 1.4, VK_KHR_push_descriptor + maintenance6 (mode push) */
static int g_gpl;       /* VK_EXT_graphics_pipeline_library (mode gpl) */
static int g_queues;    /* a second queue (mode queues) */
static const void *g_instance_next; /* extra vkCreateInstance pNext (mode appsettings) */

/* The push constant (idx) of every pipeline here, for both stages. */
#define PC_STAGES (VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT)
static const VkPushConstantRange PC_RANGE = {PC_STAGES, 0, 4};

/* ---- context ---------------------------------------------------------------- */

typedef struct ctx {
    capp vk;
    VkQueue queue2;   /* mode queues: the second queue */
    uint32_t family2; /* and its family */
    capp_buffer bufs[2];
    VkDescriptorSetLayout dsl;
    VkPipelineLayout layout;
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    VkPipeline comp;
} ctx;

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

/* create_instance makes the instance, with messenger "A" in its pNext when
 * messenger (mode messenger). */
static void create_instance(ctx *c, int messenger)
{
    if (messenger && !capp_has_instance_extension(VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
        capp_die("no VK_EXT_debug_utils");
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
        .pfnUserCallback = on_message,
        .pUserData = "A",
    };
    capp_create_instance(&c->vk, &(capp_instance_info){
                                     .api_version = g_push ? VK_MAKE_API_VERSION(0, 1, 4, 0) : VK_API_VERSION_1_3,
                                     .next = messenger ? (const void *)&mci : g_instance_next,
                                 });
}

/* second_queue picks mode queues' second queue: the second queue of the
 * graphics+compute family, else queue 0 of another compute family. It
 * returns 0 when there is none. */
static int second_queue(ctx *c, uint32_t family, uint32_t *index2)
{
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(c->vk.pd, &nq, NULL);
    VkQueueFamilyProperties *qf = calloc(nq + 1, sizeof *qf);
    if (!qf)
        capp_die("out of memory");
    vkGetPhysicalDeviceQueueFamilyProperties(c->vk.pd, &nq, qf);
    c->family2 = UINT32_MAX;
    *index2 = 0;
    if (qf[family].queueCount >= 2) {
        c->family2 = family;
        *index2 = 1;
    }
    for (uint32_t i = 0; i < nq && c->family2 == UINT32_MAX; i++)
        if (i != family && (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[i].queueCount > 0)
            c->family2 = i;
    free(qf);
    return c->family2 != UINT32_MAX;
}

/* create_device makes the device with the features and extensions of the
 * mode, and one queue (two with g_queues). */
static void create_device(ctx *c, int graphics)
{
    const VkQueueFlags want = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT;
    uint32_t family = capp_queue_family(&c->vk, want), index2 = 0;
    if (g_queues && !second_queue(c, family, &index2)) {
        printf("unsupported queues\n");
        vkDestroyInstance(c->vk.instance, NULL);
        exit(0);
    }
    const float prio = 1.0f;
    VkDeviceQueueCreateInfo other = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                     .queueFamilyIndex = c->family2, .queueCount = 1, .pQueuePriorities = &prio};
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
    VkPhysicalDeviceMaintenance6FeaturesKHR m6 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_6_FEATURES_KHR,
                                                  .maintenance6 = VK_TRUE};
    VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gplf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT,
        .graphicsPipelineLibrary = VK_TRUE};
    const char *one[] = {g_shaderobj ? VK_EXT_SHADER_OBJECT_EXTENSION_NAME : "VK_KHR_maintenance5"};
    const char *push_exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, VK_KHR_MAINTENANCE_6_EXTENSION_NAME};
    const char *gpl_exts[] = {VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME};
    capp_device_info di = {.queue_flags = want, .queue_count = g_queues && c->family2 == family ? 2 : 1,
                           .extra_queues = g_queues && index2 == 0 ? &other : NULL, .next = &f2};
    if (g_maint5 || g_shaderobj) {
        f13.pNext = g_maint5 ? (void *)&m5 : (void *)&so;
        di.exts = one, di.nexts = 1;
    }
    if (g_gpl) {
        f13.pNext = &gplf;
        di.exts = gpl_exts, di.nexts = 2;
    }
    if (g_push) {
        f13.pNext = &m6;
        f12.runtimeDescriptorArray = VK_TRUE; /* push_runtime.comp */
        di.exts = push_exts, di.nexts = 2;
    }
    capp_create_device(&c->vk, &di);
    capp_name(&c->vk, VK_OBJECT_TYPE_QUEUE, capp_handle(c->vk.queue), g_queues ? "queue-a" : "main-queue");
    if (g_queues) {
        vkGetDeviceQueue(c->vk.dev, c->family2, index2, &c->queue2);
        capp_name(&c->vk, VK_OBJECT_TYPE_QUEUE, capp_handle(c->queue2), "queue-b");
    }
}

/* ctx_init makes the instance (with a messenger in pNext when messenger),
 * the device, the buffers, the set and the compute pipeline. */
static void ctx_init(ctx *c, int messenger, int graphics)
{
    memset(c, 0, sizeof *c);
    create_instance(c, messenger);
    create_device(c, graphics);
    for (int i = 0; i < 2; i++)
        c->bufs[i] = capp_buffer_create(&c->vk, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 2, .stageFlags = PC_STAGES};
    c->set = capp_single_set(&c->vk, &b, 1, &c->dsl, &c->dpool);
    c->layout = capp_pipeline_layout(&c->vk, 1, &c->dsl, &PC_RANGE);
    VkDescriptorBufferInfo dbi[2] = {{c->bufs[0].buf, 0, VK_WHOLE_SIZE}, {c->bufs[1].buf, 0, VK_WHOLE_SIZE}};
    capp_write_buffers(&c->vk, c->set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, dbi);
    VkShaderModule module = capp_shader_file(&c->vk, g_comp);
    c->comp = capp_compute_pipeline(&c->vk, c->layout, module, 0, NULL);
    vkDestroyShaderModule(c->vk.dev, module, NULL);
    capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(c->comp), "oob-compute");
}

static void ctx_free(ctx *c)
{
    vkDestroyPipeline(c->vk.dev, c->comp, NULL);
    vkDestroyDescriptorPool(c->vk.dev, c->dpool, NULL);
    vkDestroyPipelineLayout(c->vk.dev, c->layout, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, c->dsl, NULL);
    for (int i = 0; i < 2; i++)
        capp_buffer_destroy(&c->vk, &c->bufs[i]);
    capp_destroy(&c->vk);
}

/* make_pool makes a command pool whose buffers reset one by one. */
static VkCommandPool make_pool(ctx *c)
{
    return capp_command_pool(&c->vk, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
}

/* make_cb allocates a command buffer named n. */
static VkCommandBuffer make_cb(ctx *c, VkCommandPool pool, VkCommandBufferLevel level, const char *n)
{
    return capp_command_buffer(&c->vk, pool, level, n);
}

/* dispatch records one 4-invocation dispatch with idx, in label "compute". */
static void dispatch(ctx *c, VkCommandBuffer cb, uint32_t idx)
{
    capp_label(&c->vk, cb, "compute");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx);
    vkCmdDispatch(cb, 1, 1, 1);
    capp_unlabel(&c->vk, cb);
}

static long rss_kb(void)
{
    long pages = 0, rss = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &pages, &rss) != 2)
        capp_die("cannot read /proc/self/statm");
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
        capp_begin(cbs[i], 0);
        dispatch(c, cbs[i], clean ? i % 2 : 2 + i);
        CHECK(vkEndCommandBuffer(cbs[i]));
    }
    VkSubmitInfo si[2] = {
        {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 2, .pCommandBuffers = cbs},
        {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = cbs + 2},
    };
    VkFence f = capp_fence(&c->vk);
    CHECK(vkQueueSubmit(c->vk.queue, 2, si, f));
    CHECK(vkWaitForFences(c->vk.dev, 1, &f, VK_TRUE, UINT64_MAX));
    vkDestroyFence(c->vk.dev, f, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
}

/* mode_queues: "cmd-a" (idx 3) on queue-a, "cmd-b" (idx 4) on queue-b,
 * each from a pool of its queue's family, both submitted, then waited. */
static void mode_queues(ctx *c)
{
    VkCommandPool pools[2] = {make_pool(c), VK_NULL_HANDLE};
    VkCommandPoolCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .queueFamilyIndex = c->family2};
    CHECK(vkCreateCommandPool(c->vk.dev, &ci, NULL, &pools[1]));
    VkQueue queues[2] = {c->vk.queue, c->queue2};
    const char *names[2] = {"cmd-a", "cmd-b"};
    VkCommandBuffer cbs[2];
    VkFence fences[2];
    for (int i = 0; i < 2; i++) {
        cbs[i] = make_cb(c, pools[i], VK_COMMAND_BUFFER_LEVEL_PRIMARY, names[i]);
        capp_begin(cbs[i], 0);
        dispatch(c, cbs[i], 3 + (uint32_t)i);
        CHECK(vkEndCommandBuffer(cbs[i]));
        fences[i] = capp_fence(&c->vk);
    }
    for (int i = 0; i < 2; i++) {
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cbs[i]};
        CHECK(vkQueueSubmit(queues[i], 1, &si, fences[i]));
    }
    CHECK(vkWaitForFences(c->vk.dev, 2, fences, VK_TRUE, UINT64_MAX));
    for (int i = 0; i < 2; i++) {
        vkDestroyFence(c->vk.dev, fences[i], NULL);
        vkDestroyCommandPool(c->vk.dev, pools[i], NULL);
    }
}

static void mode_resubmit(ctx *c, uint32_t submits, int no_fence)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    dispatch(c, cb, 3);
    CHECK(vkEndCommandBuffer(cb));
    VkFence f = no_fence ? VK_NULL_HANDLE : capp_fence(&c->vk);
    for (uint32_t s = 0; s < submits; s++)
        capp_submit_wait(&c->vk, 1, &cb, f, NULL);
    if (f)
        vkDestroyFence(c->vk.dev, f, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
}

#define REUSE_ROUNDS 32

/* mode_reuse: see the header. Each round's pipeline and command buffer
 * are gone before the next round makes its own. Where a freed object goes
 * is the allocator's choice (and the layers' allocations between move
 * it): the app stops after the first round, from the third on, whose
 * pipeline has the handle of an earlier round's, or after REUSE_ROUNDS. */
static void mode_reuse(ctx *c)
{
    VkCommandPool pool = make_pool(c);
    VkFence f = capp_fence(&c->vk);
    uint64_t seen[REUSE_ROUNDS];
    int reused = 0;
    for (uint32_t r = 0; r < REUSE_ROUNDS && !reused; r++) {
        char name[16];
        VkShaderModule module = capp_shader_file(&c->vk, g_reuse_comp ? g_reuse_comp : g_comp);
        VkPipeline p = capp_compute_pipeline(&c->vk, c->layout, module, 0, NULL);
        vkDestroyShaderModule(c->vk.dev, module, NULL);
        snprintf(name, sizeof name, "pipe-%u", r);
        capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(p), name);
        snprintf(name, sizeof name, "cmd-%u", r);
        VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, name);
        printf("round %u: pipeline=0x%llx cb=0x%llx\n", r, (unsigned long long)capp_handle(p),
               (unsigned long long)capp_handle(cb));
        for (uint32_t i = 0; i < r; i++)
            reused |= r >= 2 && seen[i] == capp_handle(p);
        seen[r] = capp_handle(p);
        uint32_t idx = 2 + r;
        capp_begin(cb, 0);
        capp_label(&c->vk, cb, "compute");
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
        vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx);
        vkCmdDispatch(cb, 1, 1, 1);
        capp_unlabel(&c->vk, cb);
        CHECK(vkEndCommandBuffer(cb));
        capp_submit_wait(&c->vk, 1, &cb, f, NULL);
        vkFreeCommandBuffers(c->vk.dev, pool, 1, &cb);
        vkDestroyPipeline(c->vk.dev, p, NULL);
        /* lavapipe frees a pipeline that ran at its queue's next submit. */
        CHECK(vkQueueSubmit(c->vk.queue, 0, NULL, f));
        CHECK(vkWaitForFences(c->vk.dev, 1, &f, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(c->vk.dev, 1, &f));
    }
    vkDestroyFence(c->vk.dev, f, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
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
    capp_begin(cb, 0);
    dispatch(c, cb, 0); /* action 0 of the primary, in bounds */
    vkCmdExecuteCommands(cb, 1, &sec);
    capp_end_and_run(&c->vk, cb);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
}

/* make_comp replaces the compute pipeline by one made with cache, its
 * code given inline (maintenance5) when inl. */
static void make_comp(ctx *c, VkPipelineCache cache, int inl)
{
    vkDestroyPipeline(c->vk.dev, c->comp, NULL);
    size_t size;
    uint32_t *code = capp_read_spirv(g_comp, &size);
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                     .pCode = code};
    VkDebugUtilsObjectNameInfoEXT ni = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT, .pNext = &smci,
                                        .objectType = VK_OBJECT_TYPE_SHADER_MODULE, .pObjectName = "inline-comp"};
    VkShaderModule module = VK_NULL_HANDLE;
    if (!inl)
        CHECK(vkCreateShaderModule(c->vk.dev, &smci, NULL, &module));
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .pNext = inl ? &ni : NULL,
                  .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = module, .pName = "main"},
        .layout = c->layout,
    };
    CHECK(vkCreateComputePipelines(c->vk.dev, cache, 1, &cpci, NULL, &c->comp));
    if (module)
        vkDestroyShaderModule(c->vk.dev, module, NULL);
    free(code);
    capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(c->comp), "oob-compute");
}

/* one_dispatch records idx on a new cmd-0 and runs it. */
static void one_dispatch(ctx *c, uint32_t idx)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    dispatch(c, cb, idx);
    capp_end_and_run(&c->vk, cb);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
}

static size_t cache_size(ctx *c, VkPipelineCache cache)
{
    size_t n = 0;
    CHECK(vkGetPipelineCacheData(c->vk.dev, cache, &n, NULL));
    return n;
}

static void mode_cache(ctx *c)
{
    VkPipelineCacheCreateInfo ci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    VkPipelineCache empty, merged, cache;
    CHECK(vkCreatePipelineCache(c->vk.dev, &ci, NULL, &empty));
    CHECK(vkCreatePipelineCache(c->vk.dev, &ci, NULL, &merged));
    size_t nin = 0;
    void *in = g_cache_in ? capp_read_file(g_cache_in, &nin) : NULL;
    ci.initialDataSize = nin;
    ci.pInitialData = in;
    CHECK(vkCreatePipelineCache(c->vk.dev, &ci, NULL, &cache));
    free(in);
    make_comp(c, cache, 0);
    CHECK(vkMergePipelineCaches(c->vk.dev, merged, 1, &cache));
    size_t n = cache_size(c, cache);
    void *data = malloc(n ? n : 1);
    CHECK(vkGetPipelineCacheData(c->vk.dev, cache, &n, data));
    if (g_cache_out) {
        FILE *f = fopen(g_cache_out, "wb");
        if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0)
            capp_die("cannot write %s", g_cache_out);
    }
    free(data);
    printf("cache_empty_bytes=%zu cache_bytes=%zu merged_bytes=%zu\n", cache_size(c, empty), n,
           cache_size(c, merged));
    one_dispatch(c, 6);
    vkDestroyPipelineCache(c->vk.dev, cache, NULL);
    vkDestroyPipelineCache(c->vk.dev, merged, NULL);
    vkDestroyPipelineCache(c->vk.dev, empty, NULL);
}

static void mode_simultaneous(ctx *c)
{
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT);
    dispatch(c, cb, 3);
    CHECK(vkEndCommandBuffer(cb));
    VkSemaphoreTypeCreateInfo tci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                     .semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE};
    VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, .pNext = &tci};
    VkSemaphore sem;
    CHECK(vkCreateSemaphore(c->vk.dev, &sci, NULL, &sem));
    uint64_t one = 1;
    VkTimelineSemaphoreSubmitInfo tsi = {.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO,
                                         .waitSemaphoreValueCount = 1, .pWaitSemaphoreValues = &one};
    VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
    VkSubmitInfo held = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .pNext = &tsi, .waitSemaphoreCount = 1,
                         .pWaitSemaphores = &sem, .pWaitDstStageMask = &stage, .commandBufferCount = 1,
                         .pCommandBuffers = &cb};
    CHECK(vkQueueSubmit(c->vk.queue, 1, &held, VK_NULL_HANDLE));
    VkFence f = capp_fence(&c->vk);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    CHECK(vkQueueSubmit(c->vk.queue, 1, &si, f));
    VkSemaphoreSignalInfo ssi = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, .semaphore = sem, .value = 1};
    CHECK(vkSignalSemaphore(c->vk.dev, &ssi));
    CHECK(vkWaitForFences(c->vk.dev, 1, &f, VK_TRUE, UINT64_MAX));
    CHECK(vkQueueWaitIdle(c->vk.queue));
    vkDestroyFence(c->vk.dev, f, NULL);
    vkDestroySemaphore(c->vk.dev, sem, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
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
    VkFence f = capp_fence(&c->vk);
    for (uint32_t s = 0; s < w->submits; s++) {
        /* Re-recorded each time: vkBeginCommandBuffer resets it. */
        capp_begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        dispatch(c, cb, 2 + w->index);
        CHECK(vkEndCommandBuffer(cb));
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
        pthread_mutex_lock(w->queue_lock); /* the queue is externally synchronized */
        VkResult r = vkQueueSubmit(c->vk.queue, 1, &si, f);
        pthread_mutex_unlock(w->queue_lock);
        CHECK(r);
        CHECK(vkWaitForFences(c->vk.dev, 1, &f, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(c->vk.dev, 1, &f));
    }
    pthread_barrier_wait(w->done);
    vkDestroyFence(c->vk.dev, f, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
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
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->vk.instance, "vkCreateDebugUtilsMessengerEXT");
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->vk.instance, "vkDestroyDebugUtilsMessengerEXT");
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
    CHECK(create(c->vk.instance, &mci, NULL, &m));
    mode_resubmit(c, 1, 0);
    destroy(c->vk.instance, m, NULL);
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
        char prefix[64]; /* a failure names its iteration */
        snprintf(prefix, sizeof prefix, "multi: loop %u: ", i);
        capp_fail_prefix(prefix);
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
    capp_fail_prefix(NULL);
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
    vkGetPhysicalDeviceProperties(c->vk.pd, &props);
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    vkGetPhysicalDeviceProperties2(c->vk.pd, &p2);
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
    VkShaderModule module = capp_shader_file(&c->vk, g_base_comp ? g_base_comp : g_comp);
    VkPipeline base = capp_compute_pipeline(&c->vk, c->layout, module, VK_PIPELINE_CREATE_DISPATCH_BASE_BIT, NULL);
    vkDestroyShaderModule(c->vk.dev, module, NULL);
    capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(base), "base-compute");
    return base;
}

/* record_dispatches records the three dispatch commands of mode_dispatches
 * with the given idx each (see there), in label "compute". */
static void record_dispatches(ctx *c, VkCommandBuffer cb, VkPipeline base, VkBuffer ibuf, const uint32_t idx[3])
{
    capp_label(&c->vk, cb, "compute");
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx[0]);
    vkCmdDispatch(cb, 1, 1, 1);
    vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx[1]);
    vkCmdDispatchIndirect(cb, ibuf, 16);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, base);
    vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx[2]);
    vkCmdDispatchBase(cb, 1, 0, 0, 1, 1, 1);
    capp_unlabel(&c->vk, cb);
}

/* print_written prints "WHAT: i i ..." for the elements of storage buffer
 * b that a dispatch wrote (v[i] = 3i; the buffer was filled with ~0), then
 * fills it with ~0 again. WHAT NULL: only the filling. */
static void print_written(ctx *c, uint32_t b, const char *what)
{
    uint32_t *p = c->bufs[b].map;
    if (what) {
        printf("%s:", what);
        for (uint32_t i = 0; i < 16; i++)
            if (p[i] != ~0u)
                printf(" %u", i);
        printf("\n");
    }
    memset(p, 0xff, 64);
}

static void mode_dispatches(ctx *c, int readback)
{
    VkPipeline base = make_base_pipeline(c);
    const uint32_t args[7] = {0, 0, 0, 0, 2, 1, 1};
    capp_buffer ibuf = capp_buffer_create(&c->vk, sizeof args, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    memcpy(ibuf.map, args, sizeof args);

    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    VkFence f = capp_fence(&c->vk);
    if (!readback) {
        capp_begin(cb, 0);
        record_dispatches(c, cb, base, ibuf.buf, (const uint32_t[3]){2, 3, 4});
        CHECK(vkEndCommandBuffer(cb));
        capp_submit_wait(&c->vk, 1, &cb, f, NULL);
    } else {
        /* In bounds: the based dispatch alone, then after the others
         * (which write buffer 1), each writing buffer 0. */
        print_written(c, 0, NULL);
        print_written(c, 1, NULL);
        uint32_t zero = 0;
        capp_begin(cb, 0);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, base);
        vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &zero);
        vkCmdDispatchBase(cb, 1, 0, 0, 1, 1, 1);
        CHECK(vkEndCommandBuffer(cb));
        capp_submit_wait(&c->vk, 1, &cb, f, NULL);
        print_written(c, 0, "base_alone");
        CHECK(vkResetCommandBuffer(cb, 0));
        capp_begin(cb, 0);
        record_dispatches(c, cb, base, ibuf.buf, (const uint32_t[3]){1, 1, 0});
        CHECK(vkEndCommandBuffer(cb));
        capp_submit_wait(&c->vk, 1, &cb, f, NULL);
        print_written(c, 0, "base_after_indirect");
        print_written(c, 1, "dispatch_and_indirect");
    }
    vkDestroyFence(c->vk.dev, f, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
    capp_buffer_destroy(&c->vk, &ibuf);
    vkDestroyPipeline(c->vk.dev, base, NULL);
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
/* bound_dispatches records n dispatches of c->comp on cb, each after a
 * bind of set 0 with the pipeline's layout: in bounds (idx 0, 1, 0...)
 * but the actions listed in oob (idx 4). */
static void bound_dispatches(ctx *c, VkCommandBuffer cb, uint32_t n, const uint32_t *oob, uint32_t noob)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t idx = i % 2;
        for (uint32_t k = 0; k < noob; k++)
            if (oob[k] == i)
                idx = 4;
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
        vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx);
        vkCmdDispatch(cb, 1, 1, 1);
    }
}

static void mode_rebind(ctx *c)
{
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 1, .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT};
    VkDescriptorSetLayout dsl;
    VkDescriptorPool pool;
    VkDescriptorSet set = capp_single_set(&c->vk, &b, 1, &dsl, &pool);
    VkPipelineLayout other = capp_pipeline_layout(&c->vk, 1, &dsl, NULL);
    capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE_LAYOUT, capp_handle(other), "other-layout");
    VkDescriptorBufferInfo dbi = {c->bufs[0].buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&c->vk, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &dbi);

    VkCommandPool cpool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    capp_label(&c->vk, cb, "compute");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    bound_dispatches(c, cb, 4100, NULL, 0);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, other, 0, 1, &set, 0, NULL);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->layout, 0, 1, &c->set, 0, NULL);
    uint32_t idx = 4;
    vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx);
    vkCmdDispatch(cb, 1, 1, 1);
    capp_unlabel(&c->vk, cb);
    capp_end_and_run(&c->vk, cb);
    vkDestroyCommandPool(c->vk.dev, cpool, NULL);
    vkDestroyDescriptorPool(c->vk.dev, pool, NULL);
    vkDestroyPipelineLayout(c->vk.dev, other, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, dsl, NULL);
}

/* mode_slots: 200 dispatches on cmd-0 in "compute", each after a bind of
 * set 0; actions 63, 64 and 130 read element 4 of 2, the others elements
 * 0 and 1 in turn. */
static void mode_slots(ctx *c)
{
    VkCommandPool cpool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, cpool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    capp_label(&c->vk, cb, "compute");
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, c->comp);
    static const uint32_t oob[3] = {63, 64, 130};
    bound_dispatches(c, cb, 200, oob, 3);
    capp_unlabel(&c->vk, cb);
    capp_end_and_run(&c->vk, cb);
    vkDestroyCommandPool(c->vk.dev, cpool, NULL);
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
    T n = (T)vkGetDeviceProcAddr(c->vk.dev, "vk" #n);                   \
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
    VkDescriptorSetLayoutBinding b = {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                      .descriptorCount = 2, .stageFlags = PC_STAGES};
    VkDescriptorSetLayoutCreateInfo dlci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR,
                                            .bindingCount = 1, .pBindings = &b};
    VkDescriptorSetLayout pdsl;
    CHECK(vkCreateDescriptorSetLayout(c->vk.dev, &dlci, NULL, &pdsl));
    VkPipelineLayout pl = capp_pipeline_layout(&c->vk, 1, &pdsl, &PC_RANGE);
    VkShaderModule module = capp_shader_file(&c->vk, g_comp);
    VkPipeline pp = capp_compute_pipeline(&c->vk, pl, module, 0, NULL);
    vkDestroyShaderModule(c->vk.dev, module, NULL);
    capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(pp), "push-compute");

    /* Two sets of the app's layout: set e has only element e written. */
    VkDescriptorPool dpool =
        capp_descriptor_pool(&c->vk, 2, &(VkDescriptorPoolSize){VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}, 1);
    VkDescriptorSetLayout two[2] = {c->dsl, c->dsl};
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                        .descriptorPool = dpool, .descriptorSetCount = 2, .pSetLayouts = two};
    VkDescriptorSet sets[2];
    CHECK(vkAllocateDescriptorSets(c->vk.dev, &dsai, sets));
    VkDescriptorBufferInfo dbi[2] = {{c->bufs[0].buf, 0, VK_WHOLE_SIZE}, {c->bufs[1].buf, 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w[2];
    for (uint32_t e = 0; e < 2; e++) {
        w[e] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = sets[e],
                                      .dstArrayElement = e, .descriptorCount = 1,
                                      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = &dbi[e]};
    }
    vkUpdateDescriptorSets(c->vk.dev, 2, w, 0, NULL);
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
        CHECK(vkCreateDescriptorUpdateTemplate(c->vk.dev, &tci, NULL, &tmpl[e]));
    }

    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    capp_label(&c->vk, cb, "compute");
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
        vkCmdPushConstants(cb, layout, PC_STAGES, 0, 4, &idx);
        vkCmdDispatch(cb, 1, 1, 1);
    }
    capp_unlabel(&c->vk, cb);
    capp_end_and_run(&c->vk, cb);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
    for (uint32_t e = 0; e < 2; e++)
        vkDestroyDescriptorUpdateTemplate(c->vk.dev, tmpl[e], NULL);
    vkDestroyDescriptorPool(c->vk.dev, dpool, NULL);
    vkDestroyPipeline(c->vk.dev, pp, NULL);
    vkDestroyPipelineLayout(c->vk.dev, pl, NULL);
    vkDestroyDescriptorSetLayout(c->vk.dev, pdsl, NULL);
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
        .create = (PFN_vkCreateShadersEXT)vkGetDeviceProcAddr(c->vk.dev, "vkCreateShadersEXT"),
        .destroy = (PFN_vkDestroyShaderEXT)vkGetDeviceProcAddr(c->vk.dev, "vkDestroyShaderEXT"),
        .binary = (PFN_vkGetShaderBinaryDataEXT)vkGetDeviceProcAddr(c->vk.dev, "vkGetShaderBinaryDataEXT"),
        .bind = (PFN_vkCmdBindShadersEXT)vkGetDeviceProcAddr(c->vk.dev, "vkCmdBindShadersEXT"),
    };
    if (!f.create || !f.destroy || !f.binary || !f.bind) {
        fprintf(stderr, "multi: no VK_EXT_shader_object entry points\n");
        exit(1);
    }
    return f;
}

/* so_create makes a shader object for stage (next: the stages that may
 * follow it) of code, SPIR-V or binary, with nsets (at most 33) of the
 * app's set layouts and its push-constant range; it returns the VkResult. */
static VkResult so_create(ctx *c, const so_fns *f, VkShaderStageFlagBits stage, VkShaderStageFlags next,
                          VkShaderCodeTypeEXT type, const void *code, size_t size, uint32_t nsets, VkShaderEXT *s)
{
    VkDescriptorSetLayout sets[33];
    for (uint32_t i = 0; i < nsets && i < 33; i++)
        sets[i] = c->dsl;
    VkShaderCreateInfoEXT ci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT,
        .stage = stage,
        .nextStage = next,
        .codeType = type,
        .codeSize = size,
        .pCode = code,
        .pName = "main",
        .setLayoutCount = nsets,
        .pSetLayouts = sets,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &PC_RANGE,
    };
    return f->create(c->vk.dev, 1, &ci, NULL, s);
}

/* so_spirv makes the shader object n of SPIR-V file path (see so_create). */
static VkShaderEXT so_spirv(ctx *c, const so_fns *f, const char *path, VkShaderStageFlagBits stage,
                            VkShaderStageFlags next, uint32_t nsets, const char *n)
{
    size_t size;
    uint32_t *code = capp_read_spirv(path, &size);
    VkShaderEXT s;
    CHECK(so_create(c, f, stage, next, VK_SHADER_CODE_TYPE_SPIRV_EXT, code, size, nsets, &s));
    free(code);
    capp_name(&c->vk, VK_OBJECT_TYPE_SHADER_EXT, capp_handle(s), n);
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
    vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx);
    vkCmdDispatch(cb, 1, 1, 1);
}

/* so_binary_dispatch runs shader object b (made from binary data) with
 * idx 1, then idx2, in a command buffer of its own, and prints
 * binary_values=outs[1].v[0..3]: the app's code writes 0 3 6 9. */
static void so_binary_dispatch(ctx *c, const so_fns *f, VkShaderEXT b, uint32_t idx2)
{
    memset(c->bufs[1].map, 0, 16);
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-binary");
    capp_begin(cb, 0);
    so_dispatch(c, f, cb, b, 1);
    so_dispatch(c, f, cb, b, idx2);
    CHECK(vkEndCommandBuffer(cb));
    VkFence fence = capp_fence(&c->vk);
    capp_submit_wait(&c->vk, 1, &cb, fence, NULL);
    vkDestroyFence(c->vk.dev, fence, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
    const uint32_t *v = c->bufs[1].map;
    printf("binary_values=%u %u %u %u\n", v[0], v[1], v[2], v[3]);
    fflush(stdout);
}

/* mode_shaderobj_bad creates the compute shader object from its code
 * minus 2 bytes and prints the result. */
static void mode_shaderobj_bad(ctx *c)
{
    so_fns f = so_load(c);
    size_t size;
    uint32_t *code = capp_read_spirv(g_comp, &size);
    VkShaderEXT s = VK_NULL_HANDLE;
    VkResult r = so_create(c, &f, VK_SHADER_STAGE_COMPUTE_BIT, 0, VK_SHADER_CODE_TYPE_SPIRV_EXT, code, size - 2, 1, &s);
    printf("shaderobj_bad=%d\n", (int)r);
    if (s)
        f.destroy(c->vk.dev, s, NULL);
    free(code);
}

/* mode_shaderobj: cmd-0, in label "compute", dispatches with the shader
 * object "oob-shader" (idx[0]), the pipeline "oob-compute" (idx[1]), the
 * shader object again (idx[2]). nsets: the shader's set-layout count.
 * Then it reads the shader's binary data, prints binary_bytes=N, and
 * creates two shaders from it (binary code) in two calls. */
static void mode_shaderobj(ctx *c, uint32_t nsets, const uint32_t idx[3])
{
    so_fns f = so_load(c);
    VkShaderEXT s = so_spirv(c, &f, g_comp, VK_SHADER_STAGE_COMPUTE_BIT, 0, nsets, "oob-shader");
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    capp_label(&c->vk, cb, "compute");
    so_dispatch(c, &f, cb, s, idx[0]);
    so_dispatch(c, &f, cb, VK_NULL_HANDLE, idx[1]);
    so_dispatch(c, &f, cb, s, idx[2]);
    capp_unlabel(&c->vk, cb);
    CHECK(vkEndCommandBuffer(cb));
    VkFence fence = capp_fence(&c->vk);
    capp_submit_wait(&c->vk, 1, &cb, fence, NULL);
    vkDestroyFence(c->vk.dev, fence, NULL);

    /* cmd-0 lives on (its pool is destroyed last), so that cmd-binary is
     * never given its handle. */
    size_t size = 0;
    CHECK(f.binary(c->vk.dev, s, &size, NULL));
    void *data = malloc(size ? size : 1);
    if (!data)
        capp_die("out of memory");
    CHECK(f.binary(c->vk.dev, s, &size, data));
    printf("binary_bytes=%zu\n", size);
    for (int k = 0; k < 2; k++) {
        VkShaderEXT b = VK_NULL_HANDLE;
        VkResult r = so_create(c, &f, VK_SHADER_STAGE_COMPUTE_BIT, 0, VK_SHADER_CODE_TYPE_BINARY_EXT, data, size, nsets,
                               &b);
        printf("binary_create=%d\n", (int)r);
        if (b) {
            so_binary_dispatch(c, &f, b, idx[0]);
            f.destroy(c->vk.dev, b, NULL);
        }
    }
    free(data);
    f.destroy(c->vk.dev, s, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
}

/* mode_shaderobj_foreign: with --binary-out FILE (a run without the
 * layer), the compute shader object made from SPIR-V and its binary data
 * written to FILE; with --binary-in FILE, a shader object created from
 * that binary (one the layer never handed out: the driver's code, which
 * it cannot instrument), prints binary_create=R and, when made, runs it
 * with idx 1 and 0 in "cmd-binary" (both in bounds: the shader is
 * unchecked). */
static void mode_shaderobj_foreign(ctx *c)
{
    so_fns f = so_load(c);
    if (g_binary_out) {
        VkShaderEXT s = so_spirv(c, &f, g_comp, VK_SHADER_STAGE_COMPUTE_BIT, 0, 1, "oob-shader");
        size_t size = 0;
        CHECK(f.binary(c->vk.dev, s, &size, NULL));
        void *data = malloc(size ? size : 1);
        if (!data)
            capp_die("out of memory");
        CHECK(f.binary(c->vk.dev, s, &size, data));
        FILE *out = fopen(g_binary_out, "wb");
        if (!out || fwrite(data, 1, size, out) != size || fclose(out) != 0)
            capp_die("cannot write --binary-out");
        free(data);
        f.destroy(c->vk.dev, s, NULL);
        return;
    }
    FILE *in = g_binary_in ? fopen(g_binary_in, "rb") : NULL;
    if (!in)
        capp_die("mode shaderobj-foreign wants --binary-in or --binary-out");
    static unsigned char data[1 << 22];
    size_t size = fread(data, 1, sizeof data, in);
    fclose(in);
    VkShaderEXT b = VK_NULL_HANDLE;
    VkResult r = so_create(c, &f, VK_SHADER_STAGE_COMPUTE_BIT, 0, VK_SHADER_CODE_TYPE_BINARY_EXT, data, size, 1, &b);
    printf("binary_create=%d\n", (int)r);
    if (b) {
        so_binary_dispatch(c, &f, b, 0);
        f.destroy(c->vk.dev, b, NULL);
    }
}

/* ---- graphics modes ----------------------------------------------------------- */

/* gfx is what the graphics modes draw with: a 4x4 target, a render pass
 * and framebuffer of it, the pipelines "dyn-pipeline" (dynamic rendering)
 * and "rp-pipeline" (the render pass), and the buffers of the indexed and
 * indirect draws. */
typedef struct gfx {
    capp_image target;
    VkRenderPass pass;
    VkFramebuffer fb;
    VkPipeline dyn, rp;
    capp_buffer index, indirect, indexed_indirect, count;
} gfx;

/* make_gfx_pipeline makes the pipeline n of --vert and --frag: triangle
 * lists into the 4x4 target, in pass or with dynamic rendering. */
static VkPipeline make_gfx_pipeline(ctx *c, VkRenderPass pass, const char *n)
{
    VkShaderModule vs = capp_shader_file(&c->vk, g_vert), fs = capp_shader_file(&c->vk, g_frag);
    VkPipelineShaderStageCreateInfo stages[2] = {capp_stage(VK_SHADER_STAGE_VERTEX_BIT, vs, NULL),
                                                 capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, fs, NULL)};
    VkPipeline p = capp_graphics_pipeline(&c->vk, &(capp_graphics_info){
                                                      .stages = stages, .nstages = 2, .layout = c->layout,
                                                      .render_pass = pass, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                      .width = 4, .height = 4,
                                                      .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST});
    vkDestroyShaderModule(c->vk.dev, vs, NULL);
    vkDestroyShaderModule(c->vk.dev, fs, NULL);
    capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(p), n);
    return p;
}

/* host_buffer makes a buffer holding size bytes of data. */
static capp_buffer host_buffer(ctx *c, VkBufferUsageFlags usage, const void *data, size_t size)
{
    capp_buffer b = capp_buffer_create(&c->vk, size, usage);
    memcpy(b.map, data, size);
    return b;
}

static void gfx_init(ctx *c, gfx *g)
{
    memset(g, 0, sizeof *g);
    g->target = capp_image_create(&c->vk, 4, 4, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    g->pass = capp_render_pass(&c->vk, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_LAYOUT_GENERAL, VK_IMAGE_LAYOUT_GENERAL);
    g->fb = capp_framebuffer(&c->vk, g->pass, &g->target);
    g->dyn = make_gfx_pipeline(c, VK_NULL_HANDLE, "dyn-pipeline");
    g->rp = make_gfx_pipeline(c, g->pass, "rp-pipeline");
    uint32_t idx[3] = {0, 1, 2};
    VkDrawIndirectCommand di = {3, 1, 0, 0};
    VkDrawIndexedIndirectCommand dii = {3, 1, 0, 0, 0};
    uint32_t count = 1;
    g->index = host_buffer(c, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, sizeof idx);
    g->indirect = host_buffer(c, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &di, sizeof di);
    g->indexed_indirect = host_buffer(c, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &dii, sizeof dii);
    g->count = host_buffer(c, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &count, sizeof count);
}

static void gfx_free(ctx *c, gfx *g)
{
    vkDestroyPipeline(c->vk.dev, g->dyn, NULL);
    vkDestroyPipeline(c->vk.dev, g->rp, NULL);
    vkDestroyFramebuffer(c->vk.dev, g->fb, NULL);
    vkDestroyRenderPass(c->vk.dev, g->pass, NULL);
    capp_image_destroy(&c->vk, &g->target);
    capp_buffer_destroy(&c->vk, &g->index);
    capp_buffer_destroy(&c->vk, &g->indirect);
    capp_buffer_destroy(&c->vk, &g->indexed_indirect);
    capp_buffer_destroy(&c->vk, &g->count);
}

static void push(ctx *c, VkCommandBuffer cb, uint32_t idx)
{
    vkCmdPushConstants(cb, c->layout, PC_STAGES, 0, 4, &idx);
}

/* begin_dynamic begins dynamic rendering into the target and binds
 * dyn-pipeline and the set. */
static void begin_dynamic(ctx *c, gfx *g, VkCommandBuffer cb)
{
    capp_begin_rendering(cb, &g->target, VK_IMAGE_LAYOUT_GENERAL);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, g->dyn);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set, 0, NULL);
}

static void mode_render(ctx *c)
{
    gfx g;
    gfx_init(c, &g);
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    capp_label(&c->vk, cb, "frame");
    capp_label(&c->vk, cb, "dynamic");
    begin_dynamic(c, &g, cb);
    vkCmdBindIndexBuffer(cb, g.index.buf, 0, VK_INDEX_TYPE_UINT32);
    push(c, cb, 2);
    vkCmdDraw(cb, 3, 1, 0, 0);
    push(c, cb, 3);
    vkCmdDrawIndexed(cb, 3, 1, 0, 0, 0);
    push(c, cb, 4);
    vkCmdDrawIndirect(cb, g.indirect.buf, 0, 1, sizeof(VkDrawIndirectCommand));
    push(c, cb, 5);
    vkCmdDrawIndexedIndirect(cb, g.indexed_indirect.buf, 0, 1, sizeof(VkDrawIndexedIndirectCommand));
    push(c, cb, 6);
    vkCmdDrawIndirectCount(cb, g.indirect.buf, 0, g.count.buf, 0, 1, sizeof(VkDrawIndirectCommand));
    push(c, cb, 7);
    vkCmdDrawIndexedIndirectCount(cb, g.indexed_indirect.buf, 0, g.count.buf, 0, 1, sizeof(VkDrawIndexedIndirectCommand));
    vkCmdEndRendering(cb);
    capp_unlabel(&c->vk, cb);
    capp_label(&c->vk, cb, "renderpass");
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
    capp_unlabel(&c->vk, cb);
    capp_unlabel(&c->vk, cb);
    capp_end_and_run(&c->vk, cb);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
    gfx_free(c, &g);
}

/* mode_suspend: one dynamic render pass in two command buffers
 * (VK_RENDERING_SUSPENDING_BIT, RESUMING_BIT), with nothing between its
 * suspension and its resumption: the layer may put nothing there either. */
static void mode_suspend(ctx *c)
{
    gfx g;
    gfx_init(c, &g);
    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cbs[2] = {make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-a"),
                              make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-b")};
    capp_begin(cbs[0], 0);
    capp_begin_rendering2(cbs[0], &g.target, VK_IMAGE_LAYOUT_GENERAL, VK_RENDERING_SUSPENDING_BIT);
    vkCmdBindPipeline(cbs[0], VK_PIPELINE_BIND_POINT_GRAPHICS, g.dyn);
    vkCmdBindDescriptorSets(cbs[0], VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set, 0, NULL);
    push(c, cbs[0], 2);
    vkCmdDraw(cbs[0], 3, 1, 0, 0);
    vkCmdEndRendering(cbs[0]);
    CHECK(vkEndCommandBuffer(cbs[0]));
    /* The same render pass instance, resumed: no barrier before it. */
    capp_begin(cbs[1], 0);
    VkRenderingAttachmentInfo att = {.sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
                                     .imageView = g.target.view,
                                     .imageLayout = VK_IMAGE_LAYOUT_GENERAL,
                                     .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                     .storeOp = VK_ATTACHMENT_STORE_OP_STORE};
    VkRenderingInfo ri = {.sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
                          .flags = VK_RENDERING_RESUMING_BIT,
                          .renderArea = {{0, 0}, {g.target.width, g.target.height}},
                          .layerCount = 1,
                          .colorAttachmentCount = 1,
                          .pColorAttachments = &att};
    vkCmdBeginRendering(cbs[1], &ri);
    vkCmdBindPipeline(cbs[1], VK_PIPELINE_BIND_POINT_GRAPHICS, g.dyn);
    vkCmdBindDescriptorSets(cbs[1], VK_PIPELINE_BIND_POINT_GRAPHICS, c->layout, 0, 1, &c->set, 0, NULL);
    push(c, cbs[1], 3);
    vkCmdDraw(cbs[1], 3, 1, 0, 0);
    vkCmdEndRendering(cbs[1]);
    dispatch(c, cbs[1], 4);
    CHECK(vkEndCommandBuffer(cbs[1]));
    VkFence f = capp_fence(&c->vk);
    capp_submit_wait(&c->vk, 2, cbs, f, NULL);
    vkDestroyFence(c->vk.dev, f, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
    gfx_free(c, &g);
}

#define DEV_FN(fn) PFN_vk##fn fn = (PFN_vk##fn)vkGetDeviceProcAddr(c->vk.dev, "vk" #fn)

/* mode_shaderobj_render: cmd-0, in "frame" (vkCmdBeginRendering), draws
 * with the vertex and fragment shader objects "so-vert", "so-frag" and
 * every state dynamic, idx 3 (action 0), then with "dyn-pipeline", idx 4
 * (action 1). */
static void mode_shaderobj_render(ctx *c)
{
    gfx g;
    gfx_init(c, &g);
    so_fns f = so_load(c);
    VkShaderEXT vs = so_spirv(c, &f, g_vert, VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_FRAGMENT_BIT, 1, "so-vert");
    VkShaderEXT fs = so_spirv(c, &f, g_frag, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 1, "so-frag");
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
    capp_begin(cb, 0);
    capp_label(&c->vk, cb, "frame");
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
    capp_unlabel(&c->vk, cb);
    CHECK(vkEndCommandBuffer(cb));
    VkFence fence = capp_fence(&c->vk);
    capp_submit_wait(&c->vk, 1, &cb, fence, NULL);
    vkDestroyFence(c->vk.dev, fence, NULL);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
    f.destroy(c->vk.dev, vs, NULL);
    f.destroy(c->vk.dev, fs, NULL);
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
    CHECK(vkCreateGraphicsPipelines(c->vk.dev, VK_NULL_HANDLE, 1, &gci, NULL, &p));
    return p;
}

static void mode_gpl(ctx *c)
{
    gfx g;
    gfx_init(c, &g);
    VkShaderModule vs = capp_shader_file(&c->vk, g_vert), fs = capp_shader_file(&c->vk, g_frag);
    capp_name(&c->vk, VK_OBJECT_TYPE_SHADER_MODULE, capp_handle(vs), "gpl-vert");
    capp_name(&c->vk, VK_OBJECT_TYPE_SHADER_MODULE, capp_handle(fs), "gpl-frag");
    VkPipelineShaderStageCreateInfo vst = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                           .stage = VK_SHADER_STAGE_VERTEX_BIT, .module = vs, .pName = "main"};
    VkPipelineShaderStageCreateInfo fst = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                                           .stage = VK_SHADER_STAGE_FRAGMENT_BIT, .module = fs, .pName = "main"};
    capp_fixed_state fx;
    capp_fixed_state_init(&fx, 4, 4, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
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
    vkDestroyShaderModule(c->vk.dev, vs, NULL);
    vkDestroyShaderModule(c->vk.dev, fs, NULL);
    VkPipelineLibraryCreateInfoKHR link = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LIBRARY_CREATE_INFO_KHR,
                                           .libraryCount = 4, .pLibraries = libs};
    VkGraphicsPipelineCreateInfo gci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = &link,
                                        .layout = c->layout};
    VkPipeline linked;
    CHECK(vkCreateGraphicsPipelines(c->vk.dev, VK_NULL_HANDLE, 1, &gci, NULL, &linked));
    capp_name(&c->vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(linked), "gpl-pipeline");

    VkCommandPool pool = make_pool(c);
    VkCommandBuffer cb = make_cb(c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "cmd-0");
    capp_begin(cb, 0);
    capp_label(&c->vk, cb, "frame");
    begin_dynamic(c, &g, cb);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, linked);
    push(c, cb, 3);
    vkCmdDraw(cb, 3, 1, 0, 0);
    vkCmdEndRendering(cb);
    capp_unlabel(&c->vk, cb);
    capp_end_and_run(&c->vk, cb);
    vkDestroyCommandPool(c->vk.dev, pool, NULL);
    vkDestroyPipeline(c->vk.dev, linked, NULL);
    for (int i = 0; i < 4; i++)
        vkDestroyPipeline(c->vk.dev, libs[i], NULL);
    gfx_free(c, &g);
}

int main(int argc, char **argv)
{
    const char *mode = NULL;
    uint32_t submits = 1, loops = 100;
    int no_fence = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--mode") && i + 1 < argc)
            mode = argv[++i];
        else if (!strcmp(argv[i], "--comp") && i + 1 < argc)
            g_comp = argv[++i];
        else if (!strcmp(argv[i], "--base-comp") && i + 1 < argc)
            g_base_comp = argv[++i];
        else if (!strcmp(argv[i], "--reuse-comp") && i + 1 < argc)
            g_reuse_comp = argv[++i];
        else if (!strcmp(argv[i], "--binary-in") && i + 1 < argc)
            g_binary_in = argv[++i];
        else if (!strcmp(argv[i], "--binary-out") && i + 1 < argc)
            g_binary_out = argv[++i];
        else if (!strcmp(argv[i], "--vert") && i + 1 < argc)
            g_vert = argv[++i];
        else if (!strcmp(argv[i], "--frag") && i + 1 < argc)
            g_frag = argv[++i];
        else if (!strcmp(argv[i], "--submits") && i + 1 < argc)
            submits = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--loops") && i + 1 < argc)
            loops = (uint32_t)atoi(argv[++i]);
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
    int graphics = mode && (!strcmp(mode, "render") || !strcmp(mode, "suspend") || !strcmp(mode, "shaderobj-render") ||
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
    else if (!strcmp(mode, "reuse"))
        mode_reuse(&c);
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
    else if (!strcmp(mode, "shaderobj-bad"))
        mode_shaderobj_bad(&c);
    else if (!strcmp(mode, "shaderobj-foreign"))
        mode_shaderobj_foreign(&c);
    else if (!strcmp(mode, "shaderobj-conflict")) {
        /* As many set layouts as reach the layer's set: min(max, 33). */
        VkPhysicalDeviceProperties props;
        vkGetPhysicalDeviceProperties(c.vk.pd, &props);
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
    else if (!strcmp(mode, "slots"))
        mode_slots(&c);
    else if (!strcmp(mode, "gpl"))
        mode_gpl(&c);
    else if (!strcmp(mode, "threads"))
        mode_threads(&c, submits);
    else if (!strcmp(mode, "messenger"))
        mode_messenger(&c);
    else if (!strcmp(mode, "render"))
        mode_render(&c);
    else if (!strcmp(mode, "suspend"))
        mode_suspend(&c);
    else {
        fprintf(stderr, "multi: unknown mode %s\n", mode);
        return 2;
    }
    ctx_free(&c);
    printf("multi: done\n");
    return 0;
}
