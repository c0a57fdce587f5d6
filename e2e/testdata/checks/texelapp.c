/*
 * texelapp: the texel_buffer_oob check's test app (C). One invocation (a
 * 1x1x1 dispatch of texel.comp, or one point drawn into a 1x1 image with
 * texel.vert or texel.frag doing the accesses) fetches texel `fetch` of a
 * uniform texel buffer (binding 0, R32_SFLOAT view), stores 7 to texel
 * `write` of a storage texel buffer (binding 1, R32_UINT view) when `store`
 * is set, adds 5 to its texel `atom` atomically, and stores the fetched
 * value and the atomic's old value in result.r[0..1] (binding 2).
 *
 *   texelapp --shaders DIR [--case fetch_oob|write_oob|atomic_oob|clean|robust]
 *            [--stage compute|vertex|fragment]
 *
 * Both texel buffers are 256-byte buffers (host-visible) holding 100+i
 * (floats) and 1000+i (uints) at texel i, seen through 32-byte views: 8
 * texels each. Defaults: fetch 3, atom 1, no store: clean prints value=103
 * old=1001.
 *   fetch_oob:  fetch 10 (value=0: the fetch is skipped).
 *   write_oob:  store to texel 8 (s8 stays 1008).
 *   atomic_oob: atom -1 (old=0: the atomic is skipped).
 *   robust:     write_oob on a device created with robustBufferAccess.
 * It prints "value=N", "old=N", "s8=N", "s7=N" and "s0=N" (the storage
 * buffer's words 8, 7 and 0 in memory) after the submit. Every VkResult is checked; a failure prints
 * "texelapp: <call> failed: <n>" and exits 1. Names: the command buffer is
 * "texel-cmd", the pipeline "texel-pipeline".
 */
#define APP "texelapp"
#include "checkapp.h"

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    struct {
        int32_t fetch, write, atom;
        uint32_t store;
    } pc = {3, 2, 1, 0};
    int robust = 0;
    if (!strcmp(kase, "fetch_oob"))
        pc.fetch = 10;
    else if (!strcmp(kase, "write_oob") || !strcmp(kase, "robust"))
        pc.write = 8, pc.store = 1, robust = !strcmp(kase, "robust");
    else if (!strcmp(kase, "atomic_oob"))
        pc.atom = -1;
    else if (strcmp(kase, "clean")) {
        fprintf(stderr, "texelapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(robust ? VK_TRUE : VK_FALSE, NULL, NULL, 0);

    capp_buffer ub = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT);
    capp_buffer sb = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT);
    capp_buffer result = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t i = 0; i < 64; i++) {
        ((float *)ub.map)[i] = (float)(100 + i);
        ((uint32_t *)sb.map)[i] = 1000 + i;
    }
    VkBufferView views[2];
    VkBufferViewCreateInfo bvci = {.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, .buffer = ub.buf,
                                   .format = VK_FORMAT_R32_SFLOAT, .offset = 0, .range = 32};
    CHECK(vkCreateBufferView(ca.dev, &bvci, NULL, &views[0]));
    bvci.buffer = sb.buf, bvci.format = VK_FORMAT_R32_UINT;
    CHECK(vkCreateBufferView(ca.dev, &bvci, NULL, &views[1]));

    VkDescriptorSetLayoutBinding lb[3] = {
        {0, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, lb, 3, &dsl, &dpool);
    VkDescriptorBufferInfo rbi = {result.buf, 0, VK_WHOLE_SIZE};
    VkWriteDescriptorSet w[3];
    for (uint32_t i = 0; i < 3; i++)
        w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                      .dstBinding = i, .descriptorCount = 1, .descriptorType = lb[i].descriptorType,
                                      .pTexelBufferView = i < 2 ? &views[i] : NULL, .pBufferInfo = i == 2 ? &rbi : NULL};
    vkUpdateDescriptorSets(ca.dev, 3, w, 0, NULL);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_ALL, sizeof pc);
    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, "texel", "buf_plain", layout, &t);

    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "texel-cmd", pipe, "texel-pipeline");

    ca_record_one(cmd, stage, &t, pipe, layout, set, 0, NULL, &pc, sizeof pc);
    ca_submit_wait(cmd);
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    printf("old=%u\n", ((uint32_t *)result.map)[1]);
    printf("s8=%u\n", ((uint32_t *)sb.map)[8]);
    printf("s7=%u\n", ((uint32_t *)sb.map)[7]);
    printf("s0=%u\n", ((uint32_t *)sb.map)[0]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    vkDestroyBufferView(ca.dev, views[0], NULL);
    vkDestroyBufferView(ca.dev, views[1], NULL);
    capp_buffer all[3] = {ub, sb, result};
    for (int i = 0; i < 3; i++)
        capp_buffer_destroy(&ca, &all[i]);
    capp_destroy(&ca);
    return 0;
}
