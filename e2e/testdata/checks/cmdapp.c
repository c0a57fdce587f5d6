/*
 * cmdapp: the command checks' test app (index_buffer_oob, vertex_fetch_oob,
 * indirect_command). Each case records one command buffer of one form of
 * draw, dispatch, mesh draw or trace rays, named "cmd-cmd" and labelled
 * "cmd-case" (the task pipeline is "cmd-task-pipeline"), with a bad
 * parameter (or none: the clean cases use every form at its limits), submits
 * it and prints what ran: "vertices=N sum=N groups=N rays=N" (vertex shader
 * invocations, the sum of the x of the vertex attribute they fetched,
 * compute/task/mesh workgroups, ray generation invocations) and, where a
 * case depends on a device limit, "limit=N". The limits it goes past are
 * the y counts (x is 2^31 - 1 on some devices: the cases that let a bad
 * command run must stay small).
 *
 *   cmdapp --shaders DIR --case NAME
 *
 * The graphics cases draw points into a 1x1 image with cmd.vert (one vec4
 * attribute at location 0, binding 0, stride 16; the vertex buffer holds 3
 * vertices, x = 1, 2, 3) and an index buffer of 3 uint32 indices 0, 1, 2;
 * the device does not enable drawIndirectFirstInstance. Cases:
 *   draw_vertex_oob             vkCmdDraw(6): vertex 3 reads bytes 48..63 of a 48-byte buffer
 *   draw_multi_vertex_oob       vkCmdDrawMultiEXT {0, 3} {2, 3}: the second reads vertex 3
 *   draw_indexed_oob            vkCmdDrawIndexed(6) on 3 indices
 *   draw_vertex_oob_sized       vkCmdBindVertexBuffers2 of the vertex buffer's first 32 bytes, then
 *                               vkCmdDraw(3): vertex 2 reads bytes 32..47
 *   draw_indexed_oob_sized      vkCmdBindIndexBuffer2KHR of the first 2 indices (8 bytes, with
 *                               VK_KHR_maintenance5), then vkCmdDrawIndexed(3)
 *   draw_multi_indexed_oob      vkCmdDrawMultiIndexedEXT {0, 3} {1, 3}
 *   draw_indexed_indirect_oob   vkCmdDrawIndexedIndirect, command {6, 1, 0, 0, 0}
 *   draw_indexed_indirect_count_oob  the same through vkCmdDrawIndexedIndirectCount (count 1)
 *   draw_indirect_first_instance     vkCmdDrawIndirect, command {1, 1, 0, 1}
 *   draw_indexed_indirect_first_instance  vkCmdDrawIndexedIndirect, {1, 1, 0, 0, 1}
 *   draw_indirect_overrun       vkCmdDrawIndirect(drawCount 3, stride 16) on a 32-byte buffer
 *   draw_indirect_count_overrun vkCmdDrawIndirectCount, count 5, maxDrawCount 5, 2 commands
 *   draw_indexed_indirect_count_overrun  the same, indexed (a 40-byte buffer)
 *   draw_indirect_count_limit   vkCmdDrawIndirectCount, count 2, maxDrawCount 2 (run with a lower
 *                               maxDrawIndirectCount: VK_LAYER_GPUAV_DBG_TEST_MAX_DRAW_INDIRECT_COUNT)
 *   draw_indexed_vertex_oob     vkCmdDrawIndexed(3) of indices 0, 1, 3: vertex 3 reads bytes 48..63
 *                               (checked in the vertex shader; so are the four below)
 *   draw_indexed_indirect_vertex_oob        the same through vkCmdDrawIndexedIndirect {3, 1, 0, 0, 0}
 *   draw_indexed_indirect_count_vertex_oob  ... through vkCmdDrawIndexedIndirectCount (count 1)
 *   draw_indirect_vertex_oob    vkCmdDrawIndirect {4, 1, 0, 0}: vertex 3 reads bytes 48..63
 *   draw_indirect_count_vertex_oob          the same through vkCmdDrawIndirectCount (count 1)
 *   draw_indirect_instance_oob  the pipeline's binding 0 instance-rate; vkCmdDrawIndirect {1, 4, 0, 0}:
 *                               instance 3 reads bytes 48..63
 *   draw_indexed_vertex_oob_sized  vkCmdBindVertexBuffers2 of the first 32 bytes, then
 *                               vkCmdDrawIndexed(3) of indices 0, 1, 2: vertex 2 reads bytes 32..47
 *   draw_clean                  every draw form above, valid
 *   draw_indirect_full          1000 vkCmdDrawIndirect of one vertex, the last with firstInstance 1,
 *                               recorded and submitted twice (the pool reset between)
 *   draw_secondary_indirect     vkCmdDrawIndirect {1, 1, 0, 0} in a secondary command buffer
 *                               inside the primary's rendering
 *   dispatch_indirect_groups    vkCmdDispatchIndirect {1, maxComputeWorkGroupCount[1] + 1, 1}
 *   dispatch_indirect_offset    vkCmdDispatchIndirect at offset 16 of a 16-byte buffer
 *   dispatch_clean              vkCmdDispatchIndirect {2, 3, 1}, then vkCmdDispatch(1, 1, 1) with
 *                               nothing bound again (the pre-pass restores the compute state)
 *   mesh_indirect_groups        vkCmdDrawMeshTasksIndirectEXT {1, maxMeshWorkGroupCount[1] + 1, 1}
 *   mesh_task_indirect_count_groups  vkCmdDrawMeshTasksIndirectCountEXT with a task shader,
 *                               {maxTaskWorkGroupCount[1] + 1 in y}, count 1
 *   mesh_clean                  both mesh forms, {2, 1, 1} and {1, 3, 1}
 *   trace_indirect_dims         vkCmdTraceRaysIndirectKHR {8192, 8192, D}, D the least depth that
 *                               goes past maxRayDispatchInvocationCount (printed: "depth=D")
 *   trace_indirect2_dims        vkCmdTraceRaysIndirect2KHR with the same dimensions
 *   trace_clean                 both, {4, 2, 1}
 * A device without VK_EXT_multi_draw, VK_EXT_mesh_shader or
 * VK_KHR_ray_tracing_pipeline (+ maintenance1) prints "unsupported: EXT"
 * and exits 3. Every VkResult is checked; a failure exits 1.
 */
#define APP "cmdapp"
#include "checkapp.h"

typedef struct counts {
    uint32_t vertices, sum, groups, rays;
} counts;

enum { G_DRAW, G_COMPUTE, G_MESH, G_RAYS };

/* The app's objects. */
static struct {
    int group;
    const char *dir;
    capp_buffer counts, vbuf, ibuf;
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set;
    VkPipelineLayout layout;
    VkPipeline pipe, pipe2;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    capp_image target;
    capp_buffer sbt;
    VkStridedDeviceAddressRegionKHR rgen;
} app;

/* require exits 3 when the device lacks ext. */
static void require(const char *ext)
{
    if (!capp_has_device_extension(&ca, ext)) {
        printf("unsupported: %s\n", ext);
        exit(3);
    }
}

/* create_device makes a device with what the group's forms need (and no
 * drawIndirectFirstInstance); maintenance5 (vkCmdBindIndexBuffer2KHR) for
 * the case that binds an index buffer's range. */
static void create_device(int group, int maintenance5)
{
    const char *exts[5];
    uint32_t n = 0;
    VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR rtm = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR,
        .rayTracingPipelineTraceRaysIndirect2 = VK_TRUE};
    VkPhysicalDeviceRayTracingPipelineFeaturesKHR rtp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR, .pNext = &rtm,
        .rayTracingPipeline = VK_TRUE, .rayTracingPipelineTraceRaysIndirect = VK_TRUE};
    VkPhysicalDeviceAccelerationStructureFeaturesKHR asf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR, .pNext = &rtp,
        .accelerationStructure = VK_TRUE};
    VkPhysicalDeviceMeshShaderFeaturesEXT mesh = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT,
                                                  .taskShader = VK_TRUE, .meshShader = VK_TRUE};
    VkPhysicalDeviceMultiDrawFeaturesEXT multi = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT,
                                                  .multiDraw = VK_TRUE};
    void *more = NULL;
    /* VK_KHR_maintenance5, spelled out: the system headers (1.3.239)
     * predate it. */
    struct {
        VkStructureType sType;
        void *pNext;
        VkBool32 maintenance5;
    } m5 = {.sType = (VkStructureType)1000470000, .pNext = &multi, .maintenance5 = VK_TRUE};
    if (group == G_DRAW) {
        require(VK_EXT_MULTI_DRAW_EXTENSION_NAME);
        exts[n++] = VK_EXT_MULTI_DRAW_EXTENSION_NAME;
        more = &multi;
        if (maintenance5) {
            require("VK_KHR_maintenance5");
            exts[n++] = "VK_KHR_maintenance5";
            more = &m5;
        }
    } else if (group == G_MESH) {
        require(VK_EXT_MESH_SHADER_EXTENSION_NAME);
        exts[n++] = VK_EXT_MESH_SHADER_EXTENSION_NAME;
        more = &mesh;
    } else if (group == G_RAYS) {
        const char *rt[] = {VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME,
                            VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                            VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME};
        for (int i = 0; i < 4; i++) {
            require(rt[i]);
            exts[n++] = rt[i];
        }
        more = &asf;
    }
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = more, .drawIndirectCount = VK_TRUE,
                                            .bufferDeviceAddress = group == G_RAYS};
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .pNext = &f12, .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    f2.features.multiDrawIndirect = VK_TRUE;
    f2.features.vertexPipelineStoresAndAtomics = VK_TRUE;
    f2.features.fragmentStoresAndAtomics = VK_TRUE;
    ca_create_device(VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT, &f2, exts, n);
}

/* buffer makes a buffer of usage holding n words. */
static capp_buffer buffer(VkBufferUsageFlags usage, const uint32_t *words, uint32_t n)
{
    capp_buffer b = capp_buffer_create(&ca, (VkDeviceSize)n * 4, usage);
    memcpy(b.map, words, (size_t)n * 4);
    return b;
}

#define INDIRECT VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT

/* ---- pipelines ------------------------------------------------------------------ */

/* draw_pipeline makes the point pipeline of cmd.vert with its vertex
 * input (its binding instance-rate when instance). */
static VkPipeline draw_pipeline(int instance)
{
    app.target = capp_image_create(&ca, 1, 1, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    capp_fixed_state fx;
    capp_fixed_state_init(&fx, 1, 1, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
    VkVertexInputBindingDescription b = {0, 16, instance ? VK_VERTEX_INPUT_RATE_INSTANCE : VK_VERTEX_INPUT_RATE_VERTEX};
    VkVertexInputAttributeDescription a = {0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
    fx.vi.vertexBindingDescriptionCount = 1;
    fx.vi.pVertexBindingDescriptions = &b;
    fx.vi.vertexAttributeDescriptionCount = 1;
    fx.vi.pVertexAttributeDescriptions = &a;
    VkPipelineShaderStageCreateInfo ss[2] = {
        capp_stage(VK_SHADER_STAGE_VERTEX_BIT, ca_module(app.dir, "cmd.vert.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, ca_module(app.dir, "cmd.frag.spv"), NULL)};
    VkPipelineRenderingCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                         .colorAttachmentCount = 1, .pColorAttachmentFormats = &app.target.format};
    VkGraphicsPipelineCreateInfo ci = {
        .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, .pNext = &rci, .stageCount = 2, .pStages = ss,
        .pVertexInputState = &fx.vi, .pInputAssemblyState = &fx.ia, .pViewportState = &fx.vps,
        .pRasterizationState = &fx.rs, .pMultisampleState = &fx.ms, .pColorBlendState = &fx.cb,
        .layout = app.layout, .basePipelineIndex = -1,
    };
    VkPipeline p;
    CHECK(vkCreateGraphicsPipelines(ca.dev, VK_NULL_HANDLE, 1, &ci, NULL, &p));
    return p;
}

/* mesh_pipeline makes a mesh pipeline, with the task shader when task. */
static VkPipeline mesh_pipeline(int task)
{
    if (!app.target.image)
        app.target = capp_image_create(&ca, 1, 1, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkPipelineShaderStageCreateInfo ss[3] = {
        capp_stage(VK_SHADER_STAGE_MESH_BIT_EXT, ca_module(app.dir, "cmd.mesh.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, ca_module(app.dir, "cmd.frag.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_TASK_BIT_EXT, task ? ca_module(app.dir, "cmd.task.spv") : VK_NULL_HANDLE, NULL)};
    return capp_graphics_pipeline(&ca, &(capp_graphics_info){.stages = ss, .nstages = task ? 3 : 2,
                                                             .layout = app.layout, .format = app.target.format,
                                                             .width = 1, .height = 1, .mesh = 1});
}

/* rays_pipeline makes the ray tracing pipeline of cmd.rgen and its table. */
static VkPipeline rays_pipeline(void)
{
    PROC(vkCreateRayTracingPipelinesKHR);
    VkPipelineShaderStageCreateInfo ss =
        capp_stage(VK_SHADER_STAGE_RAYGEN_BIT_KHR, ca_module(app.dir, "cmd.rgen.spv"), NULL);
    VkRayTracingShaderGroupCreateInfoKHR group = {
        .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR,
        .type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR, .generalShader = 0,
        .closestHitShader = VK_SHADER_UNUSED_KHR, .anyHitShader = VK_SHADER_UNUSED_KHR,
        .intersectionShader = VK_SHADER_UNUSED_KHR};
    VkRayTracingPipelineCreateInfoKHR ci = {.sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR,
                                            .stageCount = 1, .pStages = &ss, .groupCount = 1, .pGroups = &group,
                                            .maxPipelineRayRecursionDepth = 1, .layout = app.layout};
    VkPipeline p;
    CHECK(pvkCreateRayTracingPipelinesKHR(ca.dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci, NULL, &p));
    app.sbt = ca_shader_table(p, 1, (VkStridedDeviceAddressRegionKHR *[]){&app.rgen});
    return p;
}

/* setup makes the device, the counts and their set, the layout, the
 * group's pipeline(s) and the command buffer. */
static void setup(int group, const char *kase)
{
    capp_create_instance(&ca, NULL);
    create_device(group, !strcmp(kase, "draw_indexed_oob_sized"));
    VkBufferUsageFlags sda = group == G_RAYS ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0;
    app.counts = capp_buffer_create(&ca, sizeof(counts), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | sda);
    VkDescriptorSetLayoutBinding lb = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL};
    app.set = capp_single_set(&ca, &lb, 1, &app.dsl, &app.dpool);
    VkDescriptorBufferInfo bi = {app.counts.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&ca, app.set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &bi);
    app.layout = capp_pipeline_layout(&ca, 1, &app.dsl, NULL);
    switch (group) {
    case G_DRAW: app.pipe = draw_pipeline(strstr(kase, "instance_oob") != NULL); break;
    case G_COMPUTE: app.pipe = capp_compute_pipeline(&ca, app.layout, ca_module(app.dir, "cmd.comp.spv"), 0, NULL); break;
    case G_MESH:
        app.pipe = mesh_pipeline(0);
        app.pipe2 = mesh_pipeline(1);
        break;
    case G_RAYS: app.pipe = rays_pipeline(); break;
    }
    app.pool = ca_command_buffers(0, 1, &app.cmd);
    ca_name_cmd_pipeline(app.cmd, "cmd-cmd", app.pipe, "cmd-pipeline");
    if (app.pipe2)
        capp_name(&ca, VK_OBJECT_TYPE_PIPELINE, capp_handle(app.pipe2), "cmd-task-pipeline");
    uint32_t verts[12] = {0x3f800000, 0, 0, 0, 0x40000000, 0, 0, 0, 0x40400000, 0, 0, 0}; /* x = 1, 2, 3 */
    uint32_t idx[3] = {0, 1, 2};
    if (group == G_DRAW) {
        app.vbuf = buffer(VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, verts, 12);
        app.ibuf = buffer(VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, 3);
    }
}

/* bind binds in cb the group's pipeline and set (and, for draws, the
 * vertex and index buffers). */
static void bind(VkCommandBuffer cb, VkPipeline pipe)
{
    VkPipelineBindPoint bp = app.group == G_COMPUTE ? VK_PIPELINE_BIND_POINT_COMPUTE
                             : app.group == G_RAYS  ? VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR
                                                    : VK_PIPELINE_BIND_POINT_GRAPHICS;
    vkCmdBindPipeline(cb, bp, pipe);
    vkCmdBindDescriptorSets(cb, bp, app.layout, 0, 1, &app.set, 0, NULL);
    if (app.group == G_DRAW) {
        VkDeviceSize zero = 0;
        vkCmdBindVertexBuffers(cb, 0, 1, &app.vbuf.buf, &zero);
        vkCmdBindIndexBuffer(cb, app.ibuf.buf, 0, VK_INDEX_TYPE_UINT32);
    }
}

/* begin begins the command buffer with the group's pipeline and set bound
 * (and, for draws, the rendering and the vertex and index buffers). */
static void begin(VkPipeline pipe)
{
    capp_begin(app.cmd, 0);
    capp_label(&ca, app.cmd, "cmd-case");
    if (app.group == G_DRAW || app.group == G_MESH)
        capp_begin_rendering(app.cmd, &app.target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    bind(app.cmd, pipe);
}

/* run ends the rendering (for draws), ends, submits, waits and prints. */
static void run(void)
{
    if (app.group == G_DRAW || app.group == G_MESH)
        vkCmdEndRendering(app.cmd);
    capp_unlabel(&ca, app.cmd);
    CHECK(vkEndCommandBuffer(app.cmd));
    ca_submit_wait(app.cmd);
    const counts *c = app.counts.map;
    printf("vertices=%u sum=%u groups=%u rays=%u\n", c->vertices, c->sum, c->groups, c->rays);
}

/* ---- the cases ------------------------------------------------------------------ */

static void draw_cases(const char *kase)
{
    PROC(vkCmdDrawMultiEXT);
    PROC(vkCmdDrawMultiIndexedEXT);
    int clean = !strcmp(kase, "draw_clean");
    /* Indirect commands: two draws of one vertex each, firstVertex 0 and 1. */
    uint32_t draws[8] = {1, 1, 0, 0, 1, 1, 1, 0};
    uint32_t indexed[10] = {1, 1, 0, 0, 0, 1, 1, 1, 0, 0};
    begin(app.pipe);
    if (clean || !strcmp(kase, "draw_vertex_oob"))
        vkCmdDraw(app.cmd, clean ? 3 : 6, 1, 0, 0);
    if (clean || !strcmp(kase, "draw_multi_vertex_oob")) {
        VkMultiDrawInfoEXT m[2] = {{0, 3}, {clean ? 1 : 2, clean ? 2 : 3}};
        pvkCmdDrawMultiEXT(app.cmd, 2, m, 1, 0, sizeof *m);
    }
    if (clean || !strcmp(kase, "draw_indexed_oob"))
        vkCmdDrawIndexed(app.cmd, clean ? 3 : 6, 1, 0, 0, 0);
    if (!strcmp(kase, "draw_vertex_oob_sized")) {
        VkDeviceSize zero = 0, size = 32;
        vkCmdBindVertexBuffers2(app.cmd, 0, 1, &app.vbuf.buf, &zero, &size, NULL);
        vkCmdDraw(app.cmd, 3, 1, 0, 0);
    }
    if (!strcmp(kase, "draw_indexed_oob_sized")) {
        typedef void(VKAPI_PTR * bind2)(VkCommandBuffer, VkBuffer, VkDeviceSize, VkDeviceSize, VkIndexType);
        bind2 pvkCmdBindIndexBuffer2KHR = (bind2)vkGetDeviceProcAddr(ca.dev, "vkCmdBindIndexBuffer2KHR");
        if (!pvkCmdBindIndexBuffer2KHR) { /* a layer below that predates it */
            printf("unsupported: vkCmdBindIndexBuffer2KHR\n");
            exit(3);
        }
        pvkCmdBindIndexBuffer2KHR(app.cmd, app.ibuf.buf, 0, 8, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexed(app.cmd, 3, 1, 0, 0, 0);
    }
    if (clean || !strcmp(kase, "draw_multi_indexed_oob")) {
        VkMultiDrawIndexedInfoEXT m[2] = {{0, 3, 0}, {1, clean ? 2 : 3, 0}};
        pvkCmdDrawMultiIndexedEXT(app.cmd, 2, m, 1, 0, sizeof *m, NULL);
    }
    if (!strcmp(kase, "draw_indexed_indirect_oob") || !strcmp(kase, "draw_indexed_indirect_count_oob")) {
        uint32_t cmd[5] = {6, 1, 0, 0, 0}, one = 1;
        capp_buffer b = buffer(INDIRECT, cmd, 5), cb = buffer(INDIRECT, &one, 1);
        if (strstr(kase, "count"))
            vkCmdDrawIndexedIndirectCount(app.cmd, b.buf, 0, cb.buf, 0, 1, 20);
        else
            vkCmdDrawIndexedIndirect(app.cmd, b.buf, 0, 1, 20);
    }
    if (!strcmp(kase, "draw_indirect_first_instance")) {
        uint32_t cmd[4] = {1, 1, 0, 1};
        vkCmdDrawIndirect(app.cmd, buffer(INDIRECT, cmd, 4).buf, 0, 1, 16);
    }
    if (!strcmp(kase, "draw_indexed_indirect_first_instance")) {
        uint32_t cmd[5] = {1, 1, 0, 0, 1};
        vkCmdDrawIndexedIndirect(app.cmd, buffer(INDIRECT, cmd, 5).buf, 0, 1, 20);
    }
    capp_buffer b2 = buffer(INDIRECT, draws, 8), i2 = buffer(INDIRECT, indexed, 10);
    uint32_t count = !strcmp(kase, "draw_indirect_count_limit") || clean ? 2 : 5;
    capp_buffer cb = buffer(INDIRECT, &count, 1);
    if (clean || !strcmp(kase, "draw_indirect_overrun"))
        vkCmdDrawIndirect(app.cmd, b2.buf, 0, clean ? 2 : 3, 16);
    if (clean)
        vkCmdDrawIndexedIndirect(app.cmd, i2.buf, 0, 2, 20);
    if (clean || !strcmp(kase, "draw_indirect_count_overrun") || !strcmp(kase, "draw_indirect_count_limit"))
        vkCmdDrawIndirectCount(app.cmd, b2.buf, 0, cb.buf, 0, !strcmp(kase, "draw_indirect_count_overrun") ? 5 : 2, 16);
    if (clean || !strcmp(kase, "draw_indexed_indirect_count_overrun"))
        vkCmdDrawIndexedIndirectCount(app.cmd, i2.buf, 0, cb.buf, 0, clean ? 2 : 5, 20);
    run();
}

/* gpu_vertex_cases: the draws whose vertex indices are in GPU memory,
 * each fetching vertex 3 of the 3-vertex buffer once. */
static void gpu_vertex_cases(const char *kase)
{
    uint32_t idx[3] = {0, 1, 3}, one = 1;
    uint32_t indexed[5] = {3, 1, 0, 0, 0}, plain[4] = {4, 1, 0, 0}, instances[4] = {1, 4, 0, 0};
    capp_buffer ib = buffer(VK_BUFFER_USAGE_INDEX_BUFFER_BIT, idx, 3), cb = buffer(INDIRECT, &one, 1);
    capp_buffer ii = buffer(INDIRECT, indexed, 5), pi = buffer(INDIRECT, plain, 4), in = buffer(INDIRECT, instances, 4);
    begin(app.pipe);
    vkCmdBindIndexBuffer(app.cmd, ib.buf, 0, VK_INDEX_TYPE_UINT32);
    if (!strcmp(kase, "draw_indexed_vertex_oob"))
        vkCmdDrawIndexed(app.cmd, 3, 1, 0, 0, 0);
    else if (!strcmp(kase, "draw_indexed_indirect_vertex_oob"))
        vkCmdDrawIndexedIndirect(app.cmd, ii.buf, 0, 1, 20);
    else if (!strcmp(kase, "draw_indexed_indirect_count_vertex_oob"))
        vkCmdDrawIndexedIndirectCount(app.cmd, ii.buf, 0, cb.buf, 0, 1, 20);
    else if (!strcmp(kase, "draw_indirect_vertex_oob"))
        vkCmdDrawIndirect(app.cmd, pi.buf, 0, 1, 16);
    else if (!strcmp(kase, "draw_indirect_count_vertex_oob"))
        vkCmdDrawIndirectCount(app.cmd, pi.buf, 0, cb.buf, 0, 1, 16);
    else if (!strcmp(kase, "draw_indirect_instance_oob"))
        vkCmdDrawIndirect(app.cmd, in.buf, 0, 1, 16);
    else if (!strcmp(kase, "draw_indexed_vertex_oob_sized")) {
        VkDeviceSize zero = 0, size = 32;
        vkCmdBindVertexBuffers2(app.cmd, 0, 1, &app.vbuf.buf, &zero, &size, NULL);
        vkCmdBindIndexBuffer(app.cmd, app.ibuf.buf, 0, VK_INDEX_TYPE_UINT32);
        vkCmdDrawIndexed(app.cmd, 3, 1, 0, 0, 0);
    }
    run();
}

/* draw_full records FULL_DRAWS one-vertex vkCmdDrawIndirect, the last with
 * firstInstance 1, more than the layer's first pre-pass buffer holds jobs
 * for; submits; resets the pool and does it again. */
enum { FULL_DRAWS = 1000 };
static void draw_full(void)
{
    static uint32_t cmds[FULL_DRAWS * 4];
    for (uint32_t i = 0; i < FULL_DRAWS; i++)
        memcpy(cmds + i * 4, (uint32_t[4]){1, 1, 0, i == FULL_DRAWS - 1}, 16);
    capp_buffer b = buffer(INDIRECT, cmds, FULL_DRAWS * 4);
    for (int r = 0; r < 2; r++) {
        if (r)
            CHECK(vkResetCommandPool(ca.dev, app.pool, 0));
        begin(app.pipe);
        for (uint32_t i = 0; i < FULL_DRAWS; i++)
            vkCmdDrawIndirect(app.cmd, b.buf, (VkDeviceSize)i * 16, 1, 16);
        run();
    }
}

/* draw_secondary draws one vertex with vkCmdDrawIndirect {1, 1, 0, 0} in
 * a secondary command buffer that continues the primary's rendering. */
static void draw_secondary(void)
{
    VkCommandBuffer sec;
    VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = app.pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY, .commandBufferCount = 1};
    CHECK(vkAllocateCommandBuffers(ca.dev, &ai, &sec));
    VkCommandBufferInheritanceRenderingInfo ir = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_RENDERING_INFO,
                                                  .colorAttachmentCount = 1,
                                                  .pColorAttachmentFormats = &app.target.format,
                                                  .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT};
    VkCommandBufferInheritanceInfo ii = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, .pNext = &ir};
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                   .flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT, .pInheritanceInfo = &ii};
    CHECK(vkBeginCommandBuffer(sec, &bi));
    bind(sec, app.pipe);
    vkCmdDrawIndirect(sec, buffer(INDIRECT, (uint32_t[4]){1, 1, 0, 0}, 4).buf, 0, 1, 16);
    CHECK(vkEndCommandBuffer(sec));
    capp_begin(app.cmd, 0);
    capp_label(&ca, app.cmd, "cmd-case");
    capp_begin_rendering2(app.cmd, &app.target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          VK_RENDERING_CONTENTS_SECONDARY_COMMAND_BUFFERS_BIT);
    vkCmdExecuteCommands(app.cmd, 1, &sec);
    run();
}

static void compute_cases(const char *kase)
{
    uint32_t limit = ca.props.limits.maxComputeWorkGroupCount[1];
    uint32_t cmd[4] = {2, 3, 1, 0};
    if (!strcmp(kase, "dispatch_indirect_groups")) {
        cmd[0] = 1;
        cmd[1] = limit + 1;
        printf("limit=%u\n", limit);
    }
    capp_buffer b = buffer(INDIRECT, cmd, 4);
    begin(app.pipe);
    vkCmdDispatchIndirect(app.cmd, b.buf, !strcmp(kase, "dispatch_indirect_offset") ? 16 : 0);
    if (!strcmp(kase, "dispatch_clean"))
        vkCmdDispatch(app.cmd, 1, 1, 1);
    run();
}

static void mesh_cases(const char *kase)
{
    PROC(vkCmdDrawMeshTasksIndirectEXT);
    PROC(vkCmdDrawMeshTasksIndirectCountEXT);
    VkPhysicalDeviceMeshShaderPropertiesEXT mp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &mp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);
    int clean = !strcmp(kase, "mesh_clean");
    uint32_t mesh_cmd[3] = {2, 1, 1}, task_cmd[3] = {1, 3, 1}, one = 1;
    if (!strcmp(kase, "mesh_indirect_groups")) {
        mesh_cmd[0] = 1;
        mesh_cmd[1] = mp.maxMeshWorkGroupCount[1] + 1;
        printf("limit=%u\n", mp.maxMeshWorkGroupCount[1]);
    }
    if (!strcmp(kase, "mesh_task_indirect_count_groups")) {
        task_cmd[1] = mp.maxTaskWorkGroupCount[1] + 1;
        printf("limit=%u\n", mp.maxTaskWorkGroupCount[1]);
    }
    capp_buffer mb = buffer(INDIRECT, mesh_cmd, 3), tb = buffer(INDIRECT, task_cmd, 3), cb = buffer(INDIRECT, &one, 1);
    begin(app.pipe);
    if (clean || !strcmp(kase, "mesh_indirect_groups"))
        pvkCmdDrawMeshTasksIndirectEXT(app.cmd, mb.buf, 0, 1, 12);
    if (clean || !strcmp(kase, "mesh_task_indirect_count_groups")) {
        vkCmdBindPipeline(app.cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, app.pipe2);
        pvkCmdDrawMeshTasksIndirectCountEXT(app.cmd, tb.buf, 0, cb.buf, 0, 1, 12);
    }
    run();
}

static void rays_cases(const char *kase)
{
    PROC(vkCmdTraceRaysIndirectKHR);
    PROC(vkCmdTraceRaysIndirect2KHR);
    int clean = !strcmp(kase, "trace_clean");
    VkPhysicalDeviceRayTracingPipelinePropertiesKHR rp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &rp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);
    uint32_t w = clean ? 4 : 8192, h = clean ? 2 : 8192, d = clean ? 1 : rp.maxRayDispatchInvocationCount / (8192u * 8192u) + 1;
    if (!clean)
        printf("limit=%u\ndepth=%u\n", rp.maxRayDispatchInvocationCount, d);
    uint32_t dims[3] = {w, h, d};
    capp_buffer b1 = capp_buffer_create(&ca, sizeof dims, INDIRECT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    memcpy(b1.map, dims, sizeof dims);
    VkTraceRaysIndirectCommand2KHR c2 = {.raygenShaderRecordAddress = app.rgen.deviceAddress,
                                         .raygenShaderRecordSize = app.rgen.size, .width = w, .height = h, .depth = d};
    capp_buffer b2 = capp_buffer_create(&ca, sizeof c2, INDIRECT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    memcpy(b2.map, &c2, sizeof c2);
    VkStridedDeviceAddressRegionKHR empty = {0};
    begin(app.pipe);
    if (clean || !strcmp(kase, "trace_indirect_dims"))
        pvkCmdTraceRaysIndirectKHR(app.cmd, &app.rgen, &empty, &empty, &empty, b1.addr);
    if (clean || !strcmp(kase, "trace_indirect2_dims"))
        pvkCmdTraceRaysIndirect2KHR(app.cmd, b2.addr);
    run();
}

int main(int argc, char **argv)
{
    const char *kase = "draw_clean";
    int stage = 0;
    app.dir = ".";
    if (ca_args(argc, argv, &app.dir, &kase, &stage))
        return 2;
    static const struct {
        const char *prefix;
        int group;
    } groups[] = {{"draw_", G_DRAW}, {"dispatch_", G_COMPUTE}, {"mesh_", G_MESH}, {"trace_", G_RAYS}};
    app.group = -1;
    for (size_t i = 0; i < sizeof groups / sizeof *groups; i++)
        if (!strncmp(kase, groups[i].prefix, strlen(groups[i].prefix)))
            app.group = groups[i].group;
    if (app.group < 0) {
        fprintf(stderr, APP ": unknown case %s\n", kase);
        return 2;
    }
    setup(app.group, kase);
    switch (app.group) {
    case G_DRAW:
        if (!strcmp(kase, "draw_indirect_full"))
            draw_full();
        else if (!strcmp(kase, "draw_secondary_indirect"))
            draw_secondary();
        else if ((strstr(kase, "vertex_oob") || strstr(kase, "instance_oob")) &&
                 (strstr(kase, "indexed") || strstr(kase, "indirect")))
            gpu_vertex_cases(kase);
        else
            draw_cases(kase);
        break;
    case G_COMPUTE: compute_cases(kase); break;
    case G_MESH: mesh_cases(kase); break;
    case G_RAYS: rays_cases(kase); break;
    }
    fflush(stdout);
    /* Buffers and images go with the process; the layer tracks these. */
    if (app.pipe2)
        vkDestroyPipeline(ca.dev, app.pipe2, NULL);
    ca_teardown(app.pipe, app.layout, app.pool, app.dpool, app.dsl, app.target.image ? &app.target : NULL);
    return 0;
}
