/*
 * gridapp: facts in the dispatch's grid (docs/decisions/action-facts.md),
 * end to end. grid.comp's invocations each store o.v[g] = g + 1 at their
 * global invocation id g, 4 invocations a workgroup; o (binding 0) is
 * bound [0, 64): 16 elements, 4 workgroups. One command buffer
 * ("grid-cmd") records the case's dispatches, with a barrier between them:
 *
 *   gridapp --shaders DIR [--case fits|one_too_many|base|base_past|indirect|
 *           pc_holds|pc_holds_then_not|pc_wraps]
 *
 *   fits:         vkCmdDispatch(4): every store in range.
 *   one_too_many: vkCmdDispatch(4), vkCmdDispatch(5), vkCmdDispatch(4):
 *                 the second's last workgroup (g 16..19) stores past the
 *                 range; the others do not.
 *   base:         vkCmdDispatchBase(3, 1): workgroup 3 only, in range.
 *   base_past:    vkCmdDispatchBase(1, 3), vkCmdDispatchBase(4, 1): the
 *                 second's workgroup 4 stores past the range.
 *   indirect:     vkCmdDispatchIndirect of (5, 1, 1): its grid is not
 *                 known when it is recorded; workgroup 4 stores past it.
 *   pc_holds, pc_holds_then_not, pc_wraps: grid_pc.comp instead, one
 *                 invocation storing bufs[pc.a + 1u].v[0] = pc.a + 10 into
 *                 an array of 4 buffers; pc.a 2, or pc.a 2, 3 and 0 in
 *                 three dispatches (vkCmdPushConstants before each): the
 *                 second's index is 4; or pc.a 0xFFFFFFFF, whose index
 *                 wraps to 0. It prints "b=B0,B1,B2,B3", the buffers'
 *                 first words.
 *
 * The buffer holds 32 elements, so a store past the range that were not
 * caught would land in it. After the submit the app prints
 * "r=SUM past=A,B,C,D": the sum of o.v[0..15] and o.v[16..19] (0 when the
 * stores past the range were skipped). Every VkResult is checked; a
 * failure prints "gridapp: <call> failed: <n>" and exits 1.
 */
#define APP "gridapp"
#include "checkapp.h"

/* barrier orders a dispatch's stores after the previous one's. */
static void barrier(VkCommandBuffer cmd)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_SHADER_WRITE_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0,
                         NULL, 0, NULL);
}

/* begin allocates the command buffer "grid-cmd" (from *pool), names it and
 * pipe, and begins it with pipe and set bound. */
static VkCommandBuffer begin(VkPipeline pipe, VkPipelineLayout layout, VkDescriptorSet set, VkCommandPool *pool)
{
    VkCommandBuffer cmd;
    *pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "grid-cmd", pipe, "grid-pipeline");
    capp_begin(cmd, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    return cmd;
}

/* pc_case runs grid_pc.comp with the push constants as the case says. */
static int pc_case(const char *dir, const char *kase)
{
    static const uint32_t holds[] = {2}, holds_then_not[] = {2, 3, 0}, wraps[] = {0xFFFFFFFFu};
    const uint32_t *as = holds;
    uint32_t n = 1;
    if (!strcmp(kase, "pc_holds_then_not"))
        as = holds_then_not, n = 3;
    else if (!strcmp(kase, "pc_wraps"))
        as = wraps;
    else if (strcmp(kase, "pc_holds")) {
        fprintf(stderr, APP ": unknown case %s\n", kase);
        return 2;
    }
    capp_create_instance(&ca, NULL);
    ca_create_device(VK_QUEUE_COMPUTE_BIT, NULL, NULL, 0);
    capp_buffer bufs[4];
    VkDescriptorBufferInfo bi[4];
    for (int i = 0; i < 4; i++) {
        bufs[i] = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        bi[i] = (VkDescriptorBufferInfo){bufs[i].buf, 0, VK_WHOLE_SIZE};
    }
    VkDescriptorSetLayoutBinding lb = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, &lb, 1, &dsl, &dpool);
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4, bi);
    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_COMPUTE_BIT, 4);
    VkPipeline pipe = ca_stage_pipeline(CA_COMPUTE, dir, "grid_pc", NULL, layout, &(capp_image){0});
    VkCommandPool pool;
    VkCommandBuffer cmd = begin(pipe, layout, set, &pool);
    for (uint32_t d = 0; d < n; d++) {
        if (d > 0)
            barrier(cmd);
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &as[d]);
        vkCmdDispatch(cmd, 1, 1, 1);
    }
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    printf("b=%u,%u,%u,%u\n", *(uint32_t *)bufs[0].map, *(uint32_t *)bufs[1].map, *(uint32_t *)bufs[2].map,
           *(uint32_t *)bufs[3].map);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, NULL);
    for (int i = 0; i < 4; i++)
        capp_buffer_destroy(&ca, &bufs[i]);
    capp_destroy(&ca);
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "fits";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    if (!strncmp(kase, "pc_", 3))
        return pc_case(dir, kase);
    /* The dispatches: base and count in x (count 0: the list's end;
     * base ~0u: indirect). */
    static const struct {
        const char *name;
        uint32_t base[3], count[3];
    } cases[] = {
        {"fits", {0}, {4}},
        {"one_too_many", {0, 0, 0}, {4, 5, 4}},
        {"base", {3}, {1}},
        {"base_past", {1, 4}, {3, 1}},
        {"indirect", {~0u}, {5}},
    };
    int c = -1;
    for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++)
        if (!strcmp(kase, cases[i].name))
            c = i;
    if (c < 0) {
        fprintf(stderr, APP ": unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    ca_create_device(VK_QUEUE_COMPUTE_BIT, NULL, NULL, 0);
    capp_buffer out = capp_buffer_create(&ca, 128, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer ind = capp_buffer_create(&ca, 12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
    ((uint32_t *)ind.map)[0] = 5, ((uint32_t *)ind.map)[1] = 1, ((uint32_t *)ind.map)[2] = 1;
    VkDescriptorSetLayoutBinding lb = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, &lb, 1, &dsl, &dpool);
    VkDescriptorBufferInfo bi = {out.buf, 0, 64};
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &bi);
    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_COMPUTE_BIT, 4);
    VkPipeline pipe =
        capp_compute_pipeline(&ca, layout, ca_module(dir, "grid.comp.spv"), VK_PIPELINE_CREATE_DISPATCH_BASE_BIT, NULL);
    VkCommandPool pool;
    VkCommandBuffer cmd = begin(pipe, layout, set, &pool);
    for (int d = 0; d < 3 && cases[c].count[d]; d++) {
        if (d > 0)
            barrier(cmd);
        if (cases[c].base[d] == ~0u)
            vkCmdDispatchIndirect(cmd, ind.buf, 0);
        else if (cases[c].base[d] == 0)
            vkCmdDispatch(cmd, cases[c].count[d], 1, 1);
        else
            vkCmdDispatchBase(cmd, cases[c].base[d], 0, 0, cases[c].count[d], 1, 1);
    }
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    const uint32_t *v = out.map;
    uint32_t sum = 0;
    for (int i = 0; i < 16; i++)
        sum += v[i];
    printf("r=%u past=%u,%u,%u,%u\n", sum, v[16], v[17], v[18], v[19]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, NULL);
    capp_buffer_destroy(&ca, &out);
    capp_buffer_destroy(&ca, &ind);
    capp_destroy(&ca);
    return 0;
}
