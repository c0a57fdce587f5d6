/*
 * budgetapp: loops that run away, for loop_budget (C). One dispatch of
 * one workgroup of budget.comp (four invocations), or one point whose
 * vertex (budget.vert) or fragment (budget.frag) shader runs the loop:
 *
 *   budgetapp --shaders DIR [--case runaway|nested|proven|oob] [--stage compute|vertex|fragment|task] [--n N]
 *
 * data (set 0, binding 0, a storage buffer) holds the invocations' loop
 * bounds n = {10, 20, N, 30} (N default 0xFFFFFFFF: the loop runs until
 * the layer leaves it) and v[64] = 1..64, which never holds the sentinel
 * (push constant, 0) the loops break on. proven runs budget_proven.comp
 * (2^20 iterations of a constant bound). oob runs budget.task in one
 * vkCmdDrawMeshTasksEXT(1, 1, 1) (with stage_plain.mesh, which emits
 * nothing; "unsupported task" and exit 0 without VK_EXT_mesh_shader's
 * taskShader): a read at an index from memory, past the buffer for
 * invocation 2. After the submit it prints
 * "r=A,B,C,D", result.r[0..3] (binding 1). Every VkResult is checked; a
 * failure prints "budgetapp: <call> failed: <n>" and exits 1. Names: the
 * command buffer is "budget-cmd", the pipeline "budget-pipeline".
 */
#define APP "budgetapp"
#include "checkapp.h"

static const char *const cases[] = {"runaway", "nested", "proven", "oob"};

enum { CASE_PROVEN = 2, CASE_OOB = 3, STAGE_TASK = 100 };

/* task_pipeline is the pipeline of budget.task, stage_plain.mesh and
 * buf_plain.frag into t (1x1). */
static VkPipeline task_pipeline(const char *dir, VkPipelineLayout layout, capp_image *t)
{
    *t = capp_image_create(&ca, 1, 1, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
    VkPipelineShaderStageCreateInfo ss[3] = {
        capp_stage(VK_SHADER_STAGE_TASK_BIT_EXT, ca_module(dir, "budget.task.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_MESH_BIT_EXT, ca_module(dir, "stage_plain.mesh.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, ca_module(dir, "buf_plain.frag.spv"), NULL)};
    return capp_graphics_pipeline(&ca, &(capp_graphics_info){.stages = ss, .nstages = 3, .layout = layout,
                                                              .format = t->format, .width = 1, .height = 1,
                                                              .mesh = 1, .topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST});
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "runaway";
    int stage = CA_COMPUTE;
    uint32_t n = UINT32_MAX;
    /* --n and --stage task are budgetapp's own; the rest are checkapp's. */
    char *rest[64];
    int nrest = 0, task = 0;
    for (int i = 0; i < argc && nrest < 64; i++) {
        if (i > 0 && !strcmp(argv[i], "--n") && i + 1 < argc)
            n = (uint32_t)strtoul(argv[++i], NULL, 0);
        else if (i > 0 && !strcmp(argv[i], "--stage") && i + 1 < argc && !strcmp(argv[i + 1], "task"))
            task = ++i;
        else
            rest[nrest++] = argv[i];
    }
    if (ca_args(nrest, rest, &dir, &kase, &stage))
        return 2;
    uint32_t pc[2] = {UINT32_MAX, 0};
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(kase, cases[i]))
            pc[0] = i;
    if (task)
        stage = STAGE_TASK;
    if (pc[0] == UINT32_MAX || (pc[0] == CASE_OOB) != (stage == STAGE_TASK) ||
        (pc[0] != 0 && stage != CA_COMPUTE && stage != STAGE_TASK)) {
        fprintf(stderr, "budgetapp: unknown case %s (or a stage it does not run in)\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    if (stage == STAGE_TASK) {
        VkPhysicalDeviceMeshShaderFeaturesEXT qmesh = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT};
        VkPhysicalDeviceFeatures2 q2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &qmesh};
        int has_mesh = capp_has_device_extension(&ca, VK_EXT_MESH_SHADER_EXTENSION_NAME);
        if (has_mesh)
            vkGetPhysicalDeviceFeatures2(ca.pd, &q2);
        if (!has_mesh || !qmesh.taskShader || !qmesh.meshShader) {
            printf("unsupported task\n");
            capp_destroy(&ca);
            return 0;
        }
        static VkPhysicalDeviceMeshShaderFeaturesEXT fmesh = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT, .taskShader = VK_TRUE, .meshShader = VK_TRUE};
        static const char *const mesh_exts[] = {VK_EXT_MESH_SHADER_EXTENSION_NAME};
        ca_create_stage_device(VK_FALSE, &fmesh, mesh_exts, 1);
    } else {
        ca_create_stage_device(VK_FALSE, NULL, NULL, 0);
    }

    capp_buffer data = capp_buffer_create(&ca, 4 * (4 + 64), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer result = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    uint32_t *w = data.map;
    const uint32_t bounds[4] = {10, 20, n, 30};
    for (uint32_t i = 0; i < 4; i++)
        w[i] = bounds[i];
    for (uint32_t i = 0; i < 64; i++)
        w[4 + i] = i + 1;
    memset(result.map, 0, 16);

    VkDescriptorSetLayoutBinding lb[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, lb, 2, &dsl, &dpool);
    VkDescriptorBufferInfo di = {data.buf, 0, VK_WHOLE_SIZE};
    VkDescriptorBufferInfo ri = {result.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &di);
    capp_write_buffers(&ca, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &ri);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_ALL, sizeof pc);
    capp_image t;
    VkPipeline pipe = stage == STAGE_TASK ? task_pipeline(dir, layout, &t)
                                          : ca_stage_pipeline(stage, dir, pc[0] == CASE_PROVEN ? "budget_proven" : "budget",
                                                              "buf_plain", layout, &t);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "budget-cmd", pipe, "budget-pipeline");
    if (stage == STAGE_TASK) {
        capp_begin(cmd, 0);
        capp_begin_rendering(cmd, &t, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_ALL, 0, sizeof pc, pc);
        PROC(vkCmdDrawMeshTasksEXT);
        pvkCmdDrawMeshTasksEXT(cmd, 1, 1, 1);
        vkCmdEndRendering(cmd);
        CHECK(vkEndCommandBuffer(cmd));
    } else {
        ca_record_one(cmd, stage, &t, pipe, layout, set, 0, NULL, pc, sizeof pc);
    }
    ca_submit_wait(cmd);
    const uint32_t *r = result.map;
    printf("r=%u,%u,%u,%u\n", r[0], r[1], r[2], r[3]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    capp_buffer_destroy(&ca, &data);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
