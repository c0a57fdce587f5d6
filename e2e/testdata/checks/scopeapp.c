/*
 * scopeapp: two compute pipelines, each reading past its buffer's range,
 * for the scope (scope_include, scope_exclude; C). One command buffer
 * dispatches "blur" (scope_blur.comp) then "tonemap" (scope_tone.comp),
 * one invocation each, both reading word 8 (push constant idx) of data,
 * bound to its first 16 bytes (4 words) of 256, every word 7:
 *
 *   scopeapp --shaders DIR [--case pipelines|modules]
 *
 * pipelines: the pipelines are named "blur" and "tonemap" after their
 * creation (as Vulkan allows), their modules unnamed; modules: the modules
 * are named "blur.comp" and "tonemap.comp" before the pipelines are made
 * (and the pipelines as in pipelines). After the submit it prints "r=A,B",
 * result.r[0..1] (a skipped read and lavapipe's robust out-of-range read
 * both give 0: blur 1, tonemap 0).
 * The command buffer is "scope-cmd". Every VkResult is checked; a failure
 * prints "scopeapp: <call> failed: <n>" and exits 1.
 */
#define APP "scopeapp"
#include "checkapp.h"

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "pipelines";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    int modules = !strcmp(kase, "modules");
    if (!modules && strcmp(kase, "pipelines")) {
        fprintf(stderr, "scopeapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(VK_FALSE, NULL, NULL, 0);

    capp_buffer data = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT), result;
    for (uint32_t n = 0; n < 64; n++)
        ((uint32_t *)data.map)[n] = 7;
    result = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    memset(result.map, 0, 256);

    VkDescriptorSetLayoutBinding lb[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, lb, 2, &dsl, &dpool);
    VkDescriptorBufferInfo di = {data.buf, 0, 16};
    VkDescriptorBufferInfo ri = {result.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &di);
    capp_write_buffers(&ca, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &ri);

    uint32_t pc = 8;
    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_ALL, sizeof pc);
    VkShaderModule mb = ca_module(dir, "scope_blur.comp.spv"), mt = ca_module(dir, "scope_tone.comp.spv");
    if (modules) {
        capp_name(&ca, VK_OBJECT_TYPE_SHADER_MODULE, capp_handle(mb), "blur.comp");
        capp_name(&ca, VK_OBJECT_TYPE_SHADER_MODULE, capp_handle(mt), "tonemap.comp");
    }
    VkPipeline blur = capp_compute_pipeline(&ca, layout, mb, 0, NULL);
    VkPipeline tone = capp_compute_pipeline(&ca, layout, mt, 0, NULL);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "scope-cmd", blur, "blur");
    capp_name(&ca, VK_OBJECT_TYPE_PIPELINE, capp_handle(tone), "tonemap");

    capp_begin(cmd, 0);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_ALL, 0, sizeof pc, &pc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, blur);
    vkCmdDispatch(cmd, 1, 1, 1);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, tone);
    vkCmdDispatch(cmd, 1, 1, 1);
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    const uint32_t *r = result.map;
    printf("r=%u,%u\n", r[0], r[1]);
    fflush(stdout);
    vkDestroyPipeline(ca.dev, tone, NULL);
    ca_teardown(blur, layout, pool, dpool, dsl, NULL);
    capp_buffer_destroy(&ca, &data);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
