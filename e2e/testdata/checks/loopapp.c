/*
 * loopapp: checks that fail inside loops, reported once after the loop
 * (C). One dispatch of one workgroup of loop.comp (four invocations) runs
 * the loop the case names (push constant kase; n the index of "outside",
 * 7 there and 0 in the others, whose index facts then hold):
 *
 *   loopapp --shaders DIR [--case flat|buffer|nested|return|outside]
 *
 * data[0] and data[1] (set 0, binding 0, an array of 2 storage buffers of
 * 256 bytes) hold 100 + n and 200 + n; data[1] is bound [0, 80) in the
 * buffer case (so that the layer runs the precise variant, the reads
 * guarded), whole in the others (the fast variant, reads as selects).
 * After the submit it prints "r=A,B,C,D", result.r[0..3] (binding 1). Every VkResult
 * is checked; a failure prints "loopapp: <call> failed: <n>" and exits 1.
 * Names: the command buffer is "loop-cmd", the pipeline "loop-pipeline".
 */
#define APP "loopapp"
#include "checkapp.h"

static const char *const cases[] = {"flat", "buffer", "nested", "return", "outside"};

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "flat";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    uint32_t pc[2] = {UINT32_MAX, 0};
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(kase, cases[i]))
            pc[0] = i;
    if (pc[0] == UINT32_MAX || stage != CA_COMPUTE) {
        fprintf(stderr, "loopapp: unknown case %s (or a stage other than compute)\n", kase);
        return 2;
    }
    if (pc[0] == 4)
        pc[1] = 7; /* outside: data[7] */

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(VK_FALSE, NULL, NULL, 0);

    capp_buffer data[2], result;
    for (uint32_t b = 0; b < 2; b++) {
        data[b] = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        uint32_t *w = data[b].map;
        for (uint32_t n = 0; n < 64; n++)
            w[n] = 100 * (b + 1) + n;
    }
    result = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    memset(result.map, 0, 256);

    VkDescriptorSetLayoutBinding lb[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, lb, 2, &dsl, &dpool);
    VkDescriptorBufferInfo di[2] = {{data[0].buf, 0, VK_WHOLE_SIZE}, {data[1].buf, 0, pc[0] == 1 ? 80 : VK_WHOLE_SIZE}};
    VkDescriptorBufferInfo ri = {result.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, di);
    capp_write_buffers(&ca, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &ri);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_ALL, sizeof pc);
    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, "loop", NULL, layout, &t);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "loop-cmd", pipe, "loop-pipeline");
    ca_record_one(cmd, stage, &t, pipe, layout, set, 0, NULL, pc, sizeof pc);
    ca_submit_wait(cmd);
    const uint32_t *r = result.map;
    printf("r=%u,%u,%u,%u\n", r[0], r[1], r[2], r[3]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    for (uint32_t b = 0; b < 2; b++)
        capp_buffer_destroy(&ca, &data[b]);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
