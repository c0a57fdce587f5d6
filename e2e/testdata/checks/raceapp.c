/*
 * raceapp: shared-memory hazards and barriers (C). One dispatch of two
 * workgroups of race.comp (64 invocations each) runs the case named
 * (push constant kase):
 *
 *   raceapp --shaders DIR [--case raw|war|waw|same|struct|call|reduce|atomics|prefix|subgroup|barrier|exit|partial]
 *
 * It prints "subgroup=N", the device's subgroup size, and after the submit
 * "r=A,B,C,D,E" (result.r[0], [1], [2], [63] and [64]: what invocations 0,
 * 1, 2, 63 and 64 computed). Every VkResult is
 * checked; a failure prints "raceapp: <call> failed: <n>" and exits 1.
 * Names: the command buffer is "race-cmd", the pipeline "race-pipeline".
 */
#define APP "raceapp"
#include "checkapp.h"

static const char *const cases[] = {"raw",    "war",     "waw",    "same",     "struct", "call",
                                    "reduce", "atomics", "prefix", "subgroup", "barrier", "exit", "partial"};

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "raw";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    uint32_t pc = UINT32_MAX;
    for (uint32_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(kase, cases[i]))
            pc = i;
    if (pc == UINT32_MAX || stage != CA_COMPUTE) {
        fprintf(stderr, "raceapp: unknown case %s (or a stage other than compute)\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(VK_FALSE, NULL, NULL, 0);

    VkPhysicalDeviceSubgroupProperties sp = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &sp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);
    printf("subgroup=%u\n", sp.subgroupSize);
    capp_buffer result = capp_buffer_create(&ca, 512, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    memset(result.map, 0xff, 512);
    VkDescriptorSetLayoutBinding lb = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, &lb, 1, &dsl, &dpool);
    VkDescriptorBufferInfo ri = {result.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &ri);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_COMPUTE_BIT, sizeof pc);
    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, "race", NULL, layout, &t);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "race-cmd", pipe, "race-pipeline");
    capp_begin(cmd, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, &pc);
    vkCmdDispatch(cmd, 2, 1, 1);
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    const uint32_t *r = result.map;
    printf("r=%u,%u,%u,%u,%u\n", r[0], r[1], r[2], r[63], r[64]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
