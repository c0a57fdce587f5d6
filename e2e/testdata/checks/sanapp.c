/*
 * sanapp: the shader sanitizer's test app (C). One dispatch of san.comp
 * (four invocations) or one point drawn with san.frag runs the operation
 * of san.glsl's case, its operands from the push constants:
 *
 *   sanapp --shaders DIR [--case NAME] [--stage compute|fragment]
 *
 *   udiv:      100u / u0, u0 = 0
 *   sdiv:      i0 / i1, i0 = -2147483648, i1 = -1 (overflow)
 *   smod:      i0 % i1, i0 = -7, i1 = 0
 *   umod:      uvec4(9, 10, 11, 12) % uvec4(2, 3, u0, 5), u0 = 0 (lane 2)
 *   fmod:      mod(f0, f1), f0 = 5.5, f1 = 0
 *   pow_neg:   pow(f0, f1), f0 = -2, f1 = 0.5
 *   pow_zero:  pow(f0, f1), f0 = 0, f1 = -1
 *   atan2:     atan(f0, f1), f0 = 0, f1 = 0
 *   min_nan:   min(f0, f1), f0 = NaN, f1 = 1
 *   clamp_nan: clamp(f0, f1, 1.0), f0 = 0.5, f1 = NaN
 *   loop:      1000u / (u0 * (k + 1)) for k < n = 3, u0 = 0: every iteration
 *   gather:    the gather of component 5 of a 2x2 R8G8B8A8_UNORM image
 *              cleared to (0.2, 0.4, 0.6, 1.0)
 *   nonzero:   100u / (u0 | 1u), u0 = 0: proved non-zero, no check
 *   clean:     each of the above but gather and nonzero with valid operands
 *              (u0 = 5, i0 = -7, i1 = 2, f0 = 2, f1 = 0.25; one case after
 *              another, one dispatch each)
 *
 * After the submit it prints "u=A B C D", "i=...", "f=..." (outs.u, .i,
 * .f, floats with %g) and "v=..." (outs.v, 16 words). Every VkResult is
 * checked; a failure prints "sanapp: <call> failed: <n>" and exits 1.
 * Names: the command buffer is "san-cmd", the pipeline "san-pipeline".
 */
#define APP "sanapp"
#include "checkapp.h"

#include <math.h>

struct pc {
    uint32_t kase, u0;
    int32_t i0, i1;
    float f0, f1;
    uint32_t n;
};

static const char *const cases[] = {"udiv", "sdiv", "smod", "umod", "fmod", "pow_neg", "pow_zero", "atan2",
                                    "min_nan", "clamp_nan", "loop", "gather", "nonzero"};

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    if (stage == CA_VERTEX) {
        fprintf(stderr, "sanapp: no vertex stage\n");
        return 2;
    }
    struct pc pcs[16];
    uint32_t npc = 0;
    struct pc pc = {.u0 = 0, .i0 = 0, .i1 = 0, .f0 = 0, .f1 = 0, .n = 3};
    if (!strcmp(kase, "clean")) {
        for (uint32_t k = 0; k <= 10; k++)
            pcs[npc++] = (struct pc){.kase = k, .u0 = 5, .i0 = -7, .i1 = 2, .f0 = 2, .f1 = 0.25f, .n = 3};
    } else {
        pc.kase = UINT32_MAX;
        for (uint32_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
            if (!strcmp(kase, cases[k]))
                pc.kase = k;
        switch (pc.kase) {
        case 1: pc.i0 = INT32_MIN, pc.i1 = -1; break;
        case 2: pc.i0 = -7, pc.i1 = 0; break;
        case 4: pc.f0 = 5.5f, pc.f1 = 0; break;
        case 5: pc.f0 = -2, pc.f1 = 0.5f; break;
        case 6: pc.f0 = 0, pc.f1 = -1; break;
        case 8: pc.f0 = NAN, pc.f1 = 1; break;
        case 9: pc.f0 = 0.5f, pc.f1 = NAN; break;
        case UINT32_MAX:
            fprintf(stderr, "sanapp: unknown case %s\n", kase);
            return 2;
        }
        pcs[npc++] = pc;
    }

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(VK_FALSE, NULL, NULL, 0);

    capp_buffer out = capp_buffer_create(&ca, 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_image img = capp_image_create(&ca, 2, 2, VK_FORMAT_R8G8B8A8_UNORM,
                                       VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
    VkSampler sampler = capp_sampler(&ca, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE);
    VkShaderStageFlags stages = stage == CA_COMPUTE ? VK_SHADER_STAGE_COMPUTE_BIT : VK_SHADER_STAGE_FRAGMENT_BIT;
    VkDescriptorSetLayoutBinding lb[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, stages, NULL},
        {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, stages, NULL},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, lb, 2, &dsl, &dpool);
    VkDescriptorBufferInfo oi = {out.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &oi);
    VkDescriptorImageInfo ii = {sampler, img.view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
    VkWriteDescriptorSet wi = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 1,
                               .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
                               .pImageInfo = &ii};
    vkUpdateDescriptorSets(ca.dev, 1, &wi, 0, NULL);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_ALL, sizeof pc);
    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, "san", "buf_plain", layout, &t);
    VkCommandBuffer cmd[2];
    VkCommandPool pool = ca_command_buffers(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 2, cmd);

    /* The image: cleared, then read by the shaders. */
    capp_begin(cmd[1], 0);
    capp_image_barrier(cmd[1], img.image, (capp_layout_change){
        .from = VK_IMAGE_LAYOUT_UNDEFINED, .to = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        .dst_access = VK_ACCESS_TRANSFER_WRITE_BIT,
        .src_stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, .dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
    });
    VkClearColorValue color = {.float32 = {0.2f, 0.4f, 0.6f, 1.0f}};
    VkImageSubresourceRange range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    vkCmdClearColorImage(cmd[1], img.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range);
    capp_image_barrier(cmd[1], img.image, (capp_layout_change){
        .from = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, .to = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        .src_access = VK_ACCESS_TRANSFER_WRITE_BIT, .dst_access = VK_ACCESS_SHADER_READ_BIT,
        .src_stage = VK_PIPELINE_STAGE_TRANSFER_BIT, .dst_stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
    });
    CHECK(vkEndCommandBuffer(cmd[1]));
    ca_submit_wait(cmd[1]);

    ca_name_cmd_pipeline(cmd[0], "san-cmd", pipe, "san-pipeline");
    for (uint32_t k = 0; k < npc; k++) {
        if (k > 0)
            CHECK(vkResetCommandBuffer(cmd[0], 0));
        ca_record_one(cmd[0], stage, &t, pipe, layout, set, 0, NULL, &pcs[k], sizeof pcs[k]);
        ca_submit_wait(cmd[0]);
    }
    const uint32_t *w = out.map;
    printf("u=%u %u %u %u\n", w[0], w[1], w[2], w[3]);
    printf("i=%d %d %d %d\n", (int32_t)w[4], (int32_t)w[5], (int32_t)w[6], (int32_t)w[7]);
    const float *f = (const float *)&w[8];
    printf("f=%g %g %g %g\n", f[0], f[1], f[2], f[3]);
    printf("v=");
    for (uint32_t k = 0; k < 16; k++)
        printf(k ? " %u" : "%u", w[12 + k]);
    printf("\n");
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    vkDestroySampler(ca.dev, sampler, NULL);
    capp_image_destroy(&ca, &img);
    capp_buffer_destroy(&ca, &out);
    capp_destroy(&ca);
    return 0;
}
