/*
 * budgetapp: loops that run away, for loop_budget (C). One dispatch of
 * one workgroup of budget.comp (four invocations), or one point whose
 * vertex (budget.vert) or fragment (budget.frag) shader runs the loop:
 *
 *   budgetapp --shaders DIR [--case runaway|nested|proven] [--stage compute|vertex|fragment] [--n N]
 *
 * data (set 0, binding 0, a storage buffer) holds the invocations' loop
 * bounds n = {10, 20, N, 30} (N default 0xFFFFFFFF: the loop runs until
 * the layer leaves it) and v[64] = 1..64, which never holds the sentinel
 * (push constant, 0) the loops break on. proven runs budget_proven.comp
 * (2^20 iterations of a constant bound). After the submit it prints
 * "r=A,B,C,D", result.r[0..3] (binding 1). Every VkResult is checked; a
 * failure prints "budgetapp: <call> failed: <n>" and exits 1. Names: the
 * command buffer is "budget-cmd", the pipeline "budget-pipeline".
 */
#define APP "budgetapp"
#include "checkapp.h"

static const char *const cases[] = {"runaway", "nested", "proven"};

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "runaway";
    int stage = CA_COMPUTE;
    uint32_t n = UINT32_MAX;
    /* --n is budgetapp's own; the rest are checkapp's. */
    char *rest[64];
    int nrest = 0;
    for (int i = 0; i < argc && nrest < 64; i++) {
        if (i > 0 && !strcmp(argv[i], "--n") && i + 1 < argc)
            n = (uint32_t)strtoul(argv[++i], NULL, 0);
        else
            rest[nrest++] = argv[i];
    }
    if (ca_args(nrest, rest, &dir, &kase, &stage))
        return 2;
    uint32_t pc[2] = {UINT32_MAX, 0};
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(kase, cases[i]))
            pc[0] = i;
    if (pc[0] == UINT32_MAX || (pc[0] != 0 && stage != CA_COMPUTE)) {
        fprintf(stderr, "budgetapp: unknown case %s (or a stage other than compute for it)\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(VK_FALSE, NULL, NULL, 0);

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
    VkPipeline pipe = ca_stage_pipeline(stage, dir, pc[0] == 2 ? "budget_proven" : "budget", "buf_plain", layout, &t);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "budget-cmd", pipe, "budget-pipeline");
    ca_record_one(cmd, stage, &t, pipe, layout, set, 0, NULL, pc, sizeof pc);
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
