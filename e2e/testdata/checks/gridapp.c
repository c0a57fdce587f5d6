/*
 * gridapp: facts in the dispatch's grid (docs/decisions/action-facts.md),
 * end to end. grid.comp's invocations each store o.v[g] = g + 1 at their
 * global invocation id g, 4 invocations a workgroup; o (binding 0) is
 * bound [0, 64): 16 elements, 4 workgroups. One command buffer
 * ("grid-cmd") records the case's dispatches, with a barrier between them:
 *
 *   gridapp --shaders DIR [--case fits|one_too_many|base|base_past|indirect]
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
 *
 * The buffer holds 32 elements, so a store past the range that were not
 * caught would land in it. After the submit the app prints
 * "r=SUM past=A,B,C,D": the sum of o.v[0..15] and o.v[16..19] (0 when the
 * stores past the range were skipped). Every VkResult is checked; a
 * failure prints "gridapp: <call> failed: <n>" and exits 1.
 */
#define APP "gridapp"
#include "checkapp.h"

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "fits";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
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

    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "grid-cmd", pipe, "grid-pipeline");
    capp_begin(cmd, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    for (int d = 0; d < 3 && cases[c].count[d]; d++) {
        if (d > 0) {
            VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT,
                                  VK_ACCESS_SHADER_WRITE_BIT};
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &mb, 0, NULL, 0, NULL);
        }
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
