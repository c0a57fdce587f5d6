/*
 * boundapp: the bounds decided per binding (docs/decisions/cheap-checks.md),
 * end to end. bound.comp's 4 invocations read data.d[i] for i < n in a loop
 * of at most 16 iterations and data.d[(g * 5) & 7]; data (binding 0) holds
 * d[i] = i + 1, result (binding 1) gets each invocation's sum. One command
 * buffer ("bound-cmd") dispatches once per case step:
 *
 *   boundapp --shaders DIR [--case clean|loop_last|loop_short|masked_past|
 *            holds_then_not|fails_then_holds|rewritten|threads|other_set|secondary|free_CASE] [--stage fragment]
 *
 *   clean:          data bound [0, 64), n 16: every bound holds.
 *   loop_last:      data bound [0, 60), n 16: the loop's last iteration
 *                   reads bytes 60..63, past the range.
 *   loop_short:     data bound [0, 32), n 8: smaller than the loop's bound
 *                   (64), but the loop stops at byte 31: nothing past it.
 *   masked_past:    data bound [0, 16), n 0: d[(g * 5) & 7] reads bytes 20
 *                   (g 1) and 28 (g 3) past it.
 *   holds_then_not: two dispatches, data bound [0, 64) then [0, 60), n 16:
 *                   the bound holds in the first, not in the second.
 *   fails_then_holds: two dispatches, data bound [0, 60) then [0, 64), n 16:
 *                   the other way round (the layer goes back to the fast
 *                   variant for the second).
 *   rewritten:      data bound [0, 64), n 16, recorded and submitted;
 *                   then the same set is rewritten to [0, 60) and the same
 *                   command buffer recorded and submitted again: the bound
 *                   holds in the first submit, not in the second (what
 *                   the layer found for the set before must not be reused).
 *   threads:        data bound [0, 60), n 16, in 4 command buffers
 *                   ("bound-cmd-0".."bound-cmd-3", a pool each) recorded
 *                   on 4 threads at once, submitted one after the other.
 *   secondary:      holds_then_not's two dispatches recorded into a
 *                   secondary command buffer ("bound-cmd"), which a primary
 *                   ("bound-primary") executes.
 *   free_CASE:      CASE (one of the above but threads and other_set) with
 *                   bound_free.comp, whose store is bounded too: where the
 *                   facts hold its fast variant has no check left.
 *   other_set:      bound_set1.comp (data in set 1, result in set 0), n 16,
 *                   set 1 bound [0, 64) first; then four dispatches, each
 *                   after a bind of one set: set 0, set 1 [0, 60) (the
 *                   loop's last iteration past it), another set 0 (set 1
 *                   still [0, 60)), set 1 [0, 64): actions 1 and 2 read
 *                   past the range, 0 and 3 do not.
 *
 * The module is destroyed as soon as the pipeline exists (the layer may
 * still need it for the pipeline's precise variant). --stage fragment
 * runs bound.frag's loop instead, in the one fragment of a point drawn
 * with dynamic rendering (bound-cmd, data bound as the case says for its
 * first step, one draw; result.r[0] gets the sum).
 *
 * It prints "r=A,B,C,D" (the last dispatch's sums) after the submit. Every
 * VkResult is checked; a failure prints "boundapp: <call> failed: <n>" and
 * exits 1.
 */
#define APP "boundapp"
#include "checkapp.h"

#include <pthread.h>

#define THREADS 4

/* recording is what one command buffer records: a dispatch per set. */
typedef struct recording {
    VkCommandBuffer cmd;
    VkPipeline pipe;
    VkPipelineLayout layout;
    const VkDescriptorSet *sets;
    uint32_t steps, n;
    const uint32_t *firsts; /* the set index each step binds (NULL: 0) */
    VkDescriptorSet pre;    /* bound to set 1 before the steps, or none */
    VkCommandBuffer primary; /* executes cmd, a secondary, or none */
} recording;

static void *record(void *arg)
{
    const recording *r = arg;
    VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
    VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .pInheritanceInfo = &inh};
    if (r->primary)
        CHECK(vkBeginCommandBuffer(r->cmd, &bi));
    else
        capp_begin(r->cmd, 0);
    vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipe);
    vkCmdPushConstants(r->cmd, r->layout, VK_SHADER_STAGE_ALL, 0, sizeof r->n, &r->n);
    if (r->pre)
        vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 1, 1, &r->pre, 0, NULL);
    for (uint32_t s = 0; s < r->steps; s++) {
        if (s > 0) {
            /* Every step writes result.r: the last step's sums must land
             * last (the NVIDIA driver runs unsynchronised dispatches at
             * once, so the first step's store could win). */
            VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER, NULL, VK_ACCESS_SHADER_WRITE_BIT,
                                  VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
            vkCmdPipelineBarrier(r->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                 1, &mb, 0, NULL, 0, NULL);
        }
        vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, r->firsts ? r->firsts[s] : 0, 1,
                                &r->sets[s], 0, NULL);
        vkCmdDispatch(r->cmd, 1, 1, 1);
    }
    CHECK(vkEndCommandBuffer(r->cmd));
    if (r->primary) {
        capp_begin(r->primary, 0);
        vkCmdExecuteCommands(r->primary, 1, &r->cmd);
        CHECK(vkEndCommandBuffer(r->primary));
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    /* other_set: the range of data in each step's set, the set index it
     * binds, and set 1's first set (step 4's range). */
    VkDeviceSize ranges[5] = {64, 64};
    static const uint32_t other_firsts[4] = {0, 1, 0, 1};
    uint32_t n = 16, steps = 1;
    int rewritten = 0, other = 0, secondary = 0;
    int free_ = !strncmp(kase, "free_", 5);
    if (free_)
        kase += 5;
    if (!strcmp(kase, "loop_last"))
        ranges[0] = 60;
    else if (!strcmp(kase, "loop_short"))
        ranges[0] = 32, n = 8;
    else if (!strcmp(kase, "masked_past"))
        ranges[0] = 16, n = 0;
    else if (!strcmp(kase, "holds_then_not"))
        ranges[1] = 60, steps = 2;
    else if (!strcmp(kase, "fails_then_holds"))
        ranges[0] = 60, steps = 2;
    else if (!strcmp(kase, "rewritten"))
        rewritten = 1;
    else if (!strcmp(kase, "secondary"))
        ranges[1] = 60, steps = 2, secondary = 1;
    else if (!strcmp(kase, "threads"))
        ranges[0] = 60;
    else if (!strcmp(kase, "other_set"))
        memcpy(ranges, (VkDeviceSize[5]){64, 60, 64, 64, 64}, sizeof ranges), steps = 4, other = 1;
    else if (strcmp(kase, "clean")) {
        fprintf(stderr, "boundapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    if (stage == CA_COMPUTE)
        ca_create_device(VK_QUEUE_COMPUTE_BIT, NULL, NULL, 0);
    else
        ca_create_stage_device(VK_FALSE, NULL, NULL, 0);
    capp_buffer data = capp_buffer_create(&ca, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer result = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    for (uint32_t i = 0; i < 16; i++)
        ((uint32_t *)data.map)[i] = i + 1;

    VkDescriptorSetLayoutBinding lb[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
    };
    VkDescriptorSetLayout dsl[5];
    VkDescriptorPool dpool[5];
    VkDescriptorSet set[5];
    uint32_t nsets = steps + (uint32_t)other;
    for (uint32_t s = 0; s < nsets; s++) {
        set[s] = capp_single_set(&ca, lb, 2, &dsl[s], &dpool[s]);
        VkDescriptorBufferInfo bi[2] = {{data.buf, 0, ranges[s]}, {result.buf, 0, VK_WHOLE_SIZE}};
        for (uint32_t i = 0; i < 2; i++)
            capp_write_buffers(&ca, set[s], i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &bi[i]);
    }
    VkPushConstantRange pcr = {VK_SHADER_STAGE_ALL, 0, sizeof n};
    VkPipelineLayout layout = capp_pipeline_layout(&ca, 1 + (uint32_t)other, dsl, &pcr);
    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, other ? "bound_set1" : free_ ? "bound_free" : "bound", "buf_plain", layout, &t);
    ca_destroy_modules();
    int threads = !strcmp(kase, "threads") ? THREADS : 1;
    VkCommandBuffer cmd[THREADS];
    VkCommandPool pool[THREADS];
    recording rec[THREADS];
    pthread_t th[THREADS];
    for (int i = 0; i < threads; i++) {
        char name[32] = "bound-cmd";
        if (threads > 1)
            snprintf(name, sizeof name, "bound-cmd-%d", i);
        pool[i] = ca_command_buffers(0, 1, &cmd[i]);
        ca_name_cmd_pipeline(cmd[i], name, pipe, "bound-pipeline");
        rec[i] = (recording){cmd[i], pipe, layout, set, steps, n, other ? other_firsts : NULL,
                             other ? set[4] : VK_NULL_HANDLE, VK_NULL_HANDLE};
    }
    if (secondary) { /* cmd[0] is the secondary, cmd[1] the primary */
        VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                            .commandPool = pool[0], .level = VK_COMMAND_BUFFER_LEVEL_SECONDARY,
                                            .commandBufferCount = 1};
        cmd[1] = cmd[0];
        CHECK(vkAllocateCommandBuffers(ca.dev, &cbai, &cmd[0]));
        capp_name(&ca, VK_OBJECT_TYPE_COMMAND_BUFFER, capp_handle(cmd[0]), "bound-cmd");
        capp_name(&ca, VK_OBJECT_TYPE_COMMAND_BUFFER, capp_handle(cmd[1]), "bound-primary");
        rec[0].cmd = cmd[0];
        rec[0].primary = cmd[1];
    }
    const uint32_t *r = result.map;
    if (stage != CA_COMPUTE) {
        ca_record_one(cmd[0], stage, &t, pipe, layout, set[0], 0, NULL, &n, sizeof n);
        ca_submit_wait(cmd[0]);
        printf("r=%u\n", r[0]);
    } else {
        for (int i = 0; i < threads; i++)
            if (pthread_create(&th[i], NULL, record, &rec[i]))
                capp_die("pthread_create failed");
        for (int i = 0; i < threads; i++)
            pthread_join(th[i], NULL);
        for (int i = 0; i < threads; i++)
            ca_submit_wait(secondary ? rec[0].primary : cmd[i]);
        if (rewritten) {
            printf("first r=%u,%u,%u,%u\n", r[0], r[1], r[2], r[3]);
            VkDescriptorBufferInfo bi = {data.buf, 0, 60};
            capp_write_buffers(&ca, set[0], 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &bi);
            CHECK(vkResetCommandPool(ca.dev, pool[0], 0));
            record(&rec[0]);
            ca_submit_wait(cmd[0]);
        }
        printf("r=%u,%u,%u,%u\n", r[0], r[1], r[2], r[3]);
    }
    fflush(stdout);
    ca_teardown(pipe, layout, pool[0], VK_NULL_HANDLE, VK_NULL_HANDLE, stage != CA_COMPUTE ? &t : NULL);
    for (int i = 1; i < threads; i++)
        vkDestroyCommandPool(ca.dev, pool[i], NULL);
    for (uint32_t s = 0; s < nsets; s++) {
        vkDestroyDescriptorPool(ca.dev, dpool[s], NULL);
        vkDestroyDescriptorSetLayout(ca.dev, dsl[s], NULL);
    }
    capp_buffer_destroy(&ca, &data);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
