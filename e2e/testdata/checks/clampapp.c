/*
 * clampapp: what --on-error clamp does to buffer accesses (C). One
 * invocation (a 1x1x1 dispatch of clamp.comp) does the access its case
 * names, past the bound range of its binding, and stores what it read in
 * result.r[0] (binding 5).
 *
 *   clampapp --shaders DIR [--case atomic|vector|matrix|member|small]
 *
 * Buffers are 256 bytes each, host-visible; the binding under test is
 * bound [0, range):
 *   atomic  counters (storage, c[n] = 100 + n), range 16: atomicAdd(c[6], 5)
 *           (bytes 24..27). Clamped: c[3] (byte 12): value=103, c3=108.
 *   vector  vecs (storage, uvec4 q[], word n = 200 + n), range 24:
 *           q[1][3] (bytes 28..31). Clamped: q[1] stays, its component to
 *           1 (byte 20): value=205.
 *   matrix  mats (uniform, std140 mat4 m[2], m[a][col][row] = 1000 (a+1) +
 *           10 col + row as floats), range 96: m[1][3][2] (bytes 120..123).
 *           Clamped: m[1][1][2] (byte 88): value=2012.
 *   member  structs (storage, uint n; S s[] from byte 8, S {uint a; uvec2 b;
 *           uint c;} 24 bytes apart, word n = 300 + n), range 56:
 *           s[3].b.y = 7 (bytes 92..95). Clamped: s[1].b.y (byte 44):
 *           s1by=7, s3by=323.
 *   small   small (uniform, uvec4 v[4]), range 8: v[0] whole (16 bytes):
 *           no place to clamp to, skipped: value=0.
 * It prints "value=N" (result.r[0]), "c3=N", "s1by=N" and "s3by=N" (words
 * of the buffers in memory) after the submit. Every VkResult is checked; a
 * failure prints "clampapp: <call> failed: <n>" and exits 1. Names: the
 * command buffer is "clamp-cmd", the pipeline "clamp-pipeline".
 */
#define APP "clampapp"
#include "checkapp.h"

#define NBIND 6

typedef struct {
    const char *name;
    uint32_t binding; /* the binding bound [0, range) */
    VkDeviceSize range;
    uint32_t pc[4]; /* kase, i, j, k */
} test_case;

static const test_case cases[] = {
    {"atomic", 0, 16, {0, 6, 0, 0}},
    {"vector", 1, 24, {1, 1, 3, 0}},
    {"matrix", 2, 96, {2, 1, 3, 2}},
    {"member", 3, 56, {3, 3, 0, 0}},
    {"small", 4, 8, {4, 0, 0, 0}},
};

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "atomic";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    const test_case *tc = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        if (!strcmp(kase, cases[i].name))
            tc = &cases[i];
    if (!tc || stage != CA_COMPUTE) {
        fprintf(stderr, "clampapp: unknown case %s (or a stage other than compute)\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    ca_create_stage_device(VK_FALSE, NULL, NULL, 0);

    capp_buffer buf[NBIND];
    VkDescriptorSetLayoutBinding lb[NBIND];
    VkDescriptorBufferInfo bi[NBIND];
    VkWriteDescriptorSet w[NBIND];
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    for (uint32_t b = 0; b < NBIND; b++) {
        int uniform = b == 2 || b == 4;
        VkDescriptorType type = uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        buf[b] = capp_buffer_create(&ca, 256,
                                    uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        lb[b] = (VkDescriptorSetLayoutBinding){b, type, 1, VK_SHADER_STAGE_ALL, NULL};
        bi[b] = (VkDescriptorBufferInfo){buf[b].buf, 0, b == tc->binding ? tc->range : VK_WHOLE_SIZE};
    }
    uint32_t *words[NBIND];
    for (uint32_t b = 0; b < NBIND; b++)
        words[b] = buf[b].map;
    for (uint32_t n = 0; n < 64; n++) {
        words[0][n] = 100 + n;
        words[1][n] = 200 + n;
        words[3][n] = 300 + n;
    }
    float *m = buf[2].map;
    for (uint32_t a = 0; a < 2; a++)
        for (uint32_t col = 0; col < 4; col++)
            for (uint32_t row = 0; row < 4; row++)
                m[16 * a + 4 * col + row] = (float)(1000 * (a + 1) + 10 * col + row);

    VkDescriptorSet set = capp_single_set(&ca, lb, NBIND, &dsl, &dpool);
    for (uint32_t b = 0; b < NBIND; b++)
        w[b] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                      .dstBinding = b, .descriptorCount = 1, .descriptorType = lb[b].descriptorType,
                                      .pBufferInfo = &bi[b]};
    vkUpdateDescriptorSets(ca.dev, NBIND, w, 0, NULL);

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_ALL, sizeof tc->pc);
    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, "clamp", NULL, layout, &t);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "clamp-cmd", pipe, "clamp-pipeline");
    ca_record_one(cmd, stage, &t, pipe, layout, set, 0, NULL, tc->pc, sizeof tc->pc);
    ca_submit_wait(cmd);
    printf("value=%u\n", words[5][0]);
    printf("c3=%u\n", words[0][3]);
    printf("s1by=%u\n", words[3][11]);
    printf("s3by=%u\n", words[3][23]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, &t);
    for (uint32_t b = 0; b < NBIND; b++)
        capp_buffer_destroy(&ca, &buf[b]);
    capp_destroy(&ca);
    return 0;
}
