/*
 * bufapp: the buffer_oob check's test app (C). One invocation (a 1x1x1
 * dispatch of buf.comp, or one point drawn into a 1x1 image with buf.vert
 * or buf.frag doing the accesses) reads params.v[ui].x (uniform buffer,
 * binding 0, std140, 16-byte stride), tail.t[ti].y (storage buffer, binding
 * 3: uint count, then uvec2 t[] at offset 8) and data.d[si] (storage buffer
 * dynamic, binding 1, uint d[]) -- or writes data.d[si] = 7 -- and stores
 * the sum in result.r[0] (binding 2).
 *
 *   bufapp --shaders DIR [--case ubo_past_range|ssbo_past_range|dynamic_offset|
 *          runtime_array_tail|clean|robust] [--stage compute|vertex|fragment]
 *
 * Buffers (256 bytes each, host-visible): params v[i] = (10i+1, ...),
 * data d[i] = 100+i, tail count 2, t[i] = (1000+i, 2000+i). Defaults: ui 1,
 * si 3, ti 0, params bound [0, 64), data [0, WHOLE) with dynamic offset 0,
 * tail [0, WHOLE): clean prints value=2114 (11 + 103 + 2000).
 *   ubo_past_range: params bound [0, 32), ui 2 (bytes 32..35).
 *   ssbo_past_range: data bound [0, 16), writes d[4] (bytes 16..19).
 *   dynamic_offset: data bound [0, 64) with dynamic offset 192, si 16
 *                   (bytes 64..67 of the range).
 *   runtime_array_tail: tail bound [0, 20), ti 1 (t[1].y, bytes 20..23).
 *   robust: ssbo_past_range on a device created with robustBufferAccess.
 * It prints "value=N" (result.r[0]), "d4=N" and "d3=N" (data's words 4
 * and 3 in memory) after the submit. Every VkResult is checked; a failure prints
 * "bufapp: <call> failed: <n>" and exits 1. Names: the command buffer is
 * "buf-cmd", the pipeline "buf-pipeline".
 */
#define APP "bufapp"
#include "checkapp.h"

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    struct {
        uint32_t ui, si, ti, write;
    } pc = {1, 3, 0, 0};
    VkDeviceSize params_range = 64, data_range = VK_WHOLE_SIZE, tail_range = VK_WHOLE_SIZE;
    uint32_t dyn = 0;
    int robust = 0;
    if (!strcmp(kase, "ubo_past_range"))
        params_range = 32, pc.ui = 2;
    else if (!strcmp(kase, "ssbo_past_range") || !strcmp(kase, "robust"))
        data_range = 16, pc.si = 4, pc.write = 1, robust = !strcmp(kase, "robust");
    else if (!strcmp(kase, "dynamic_offset"))
        data_range = 64, dyn = 192, pc.si = 16;
    else if (!strcmp(kase, "runtime_array_tail"))
        tail_range = 20, pc.ti = 1;
    else if (strcmp(kase, "clean")) {
        fprintf(stderr, "bufapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(robust ? VK_TRUE : VK_FALSE, NULL, NULL, 0);

    capp_buffer params = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    capp_buffer data = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer result = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer tail = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t i = 0; i < 16; i++) {
        uint32_t *v = (uint32_t *)params.map + 4 * i;
        v[0] = 10 * i + 1, v[1] = 10 * i + 2, v[2] = 10 * i + 3, v[3] = 10 * i + 4;
    }
    for (uint32_t i = 0; i < 64; i++)
        ((uint32_t *)data.map)[i] = 100 + i;
    ((uint32_t *)tail.map)[0] = 2;
    for (uint32_t i = 0; i < 31; i++) {
        ((uint32_t *)tail.map)[2 + 2 * i] = 1000 + i;
        ((uint32_t *)tail.map)[3 + 2 * i] = 2000 + i;
    }

    VkDescriptorSetLayoutBinding lb[4] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_ALL, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, lb, 4, &dsl, &dpool);
    VkDescriptorBufferInfo bi[4] = {
        {params.buf, 0, params_range},
        {data.buf, 0, data_range},
        {result.buf, 0, VK_WHOLE_SIZE},
        {tail.buf, 0, tail_range},
    };
    VkWriteDescriptorSet w[4];
    for (uint32_t i = 0; i < 4; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                      .dstBinding = i, .descriptorCount = 1, .descriptorType = lb[i].descriptorType,
                                      .pBufferInfo = &bi[i]};
    vkUpdateDescriptorSets(ca.dev, 4, w, 0, NULL);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_ALL, sizeof pc);
    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, "buf", "buf_plain", layout, &t);

    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "buf-cmd", pipe, "buf-pipeline");

    ca_record_one(cmd, stage, &t, pipe, layout, set, 1, &dyn, &pc, sizeof pc);
    ca_submit_wait(cmd);
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    printf("d4=%u\n", ((uint32_t *)data.map)[4]);
    printf("d3=%u\n", ((uint32_t *)data.map)[3]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    capp_buffer all[4] = {params, data, result, tail};
    for (int i = 0; i < 4; i++)
        capp_buffer_destroy(&ca, &all[i]);
    capp_destroy(&ca);
    return 0;
}
