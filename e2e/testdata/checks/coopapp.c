/*
 * coopapp: the cooperative-matrix cases of buffer_oob's test app (C). One
 * vkCmdDispatch(1, 1, 1) of coop.comp (32 invocations): a DIMxDIM float
 * accumulator loaded row-major from binding 0 (a range of 2048 bytes:
 * 512 floats) and stored column-major to binding 1 (a range of 4096
 * bytes: 256 vec4s), DIM 16 or 8, the first the device lists as a
 * subgroup-scope float32 accumulator (coop.comp.dim16.spv or
 * coop.comp.dim8.spv):
 *
 *   coopapp --shaders DIR [--case load|store|misaligned|clean]
 *
 *   load:  element 0, stride 128 floats: the load's rows span
 *          (DIM-1)*128*4 + DIM*4 bytes, past 2048
 *   store: element 250 vec4s (byte 4000), stride DIM/4 vec4s: DIM*DIM*4
 *          bytes from byte 4000, past 4096
 *   misaligned: the load from element 1 (byte 4), stride DIM+1 floats
 *          ((DIM+1)*4 bytes): neither a multiple of 16, inside the range
 *   clean: both ending at exactly the last byte of their range
 *   bda, bda-misaligned, bda-clean: the same loads as load, misaligned
 *          and clean through a buffer reference (coop_bda.comp) into a
 *          2048-byte buffer, stored row-major (stride DIM) to a 4096-byte
 *          one; the app prints "src=0xADDR"
 *
 * It prints "dim=N", and after the submit "out=A,B": the first float of
 * binding 1 and the first float of the stored tile (binding 0 holds 1.0
 * everywhere, binding 1 2.0 before the dispatch). A device without
 * VK_KHR_cooperative_matrix's cooperativeMatrix, or without a 16x16 or
 * 8x8 float32 accumulator, prints "unsupported: WHY" and exits 0. Every
 * VkResult is checked; a failure prints "coopapp: <call> failed: <n>" and
 * exits 1. Names: the command buffer is "coop-cmd", the pipeline
 * "coop-pipeline".
 */
#define APP "coopapp"
#include "checkapp.h"

/* VK_KHR_cooperative_matrix, which Debian 12's Vulkan headers (1.3.239)
 * predate. */
#ifndef VK_KHR_cooperative_matrix
#define VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME "VK_KHR_cooperative_matrix"
#define COOP_FEATURES_TYPE ((VkStructureType)1000506000)
#define COOP_PROPERTIES_TYPE ((VkStructureType)1000506001)
typedef struct VkPhysicalDeviceCooperativeMatrixFeaturesKHR {
    VkStructureType sType;
    void *pNext;
    VkBool32 cooperativeMatrix;
    VkBool32 cooperativeMatrixRobustBufferAccess;
} VkPhysicalDeviceCooperativeMatrixFeaturesKHR;
typedef struct VkCooperativeMatrixPropertiesKHR {
    VkStructureType sType;
    void *pNext;
    uint32_t MSize, NSize, KSize;
    uint32_t AType, BType, CType, ResultType; /* VkComponentTypeKHR */
    VkBool32 saturatingAccumulation;
    uint32_t scope; /* VkScopeKHR */
} VkCooperativeMatrixPropertiesKHR;
typedef VkResult(VKAPI_PTR *PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)(VkPhysicalDevice, uint32_t *,
                                                                                  VkCooperativeMatrixPropertiesKHR *);
#else
#define COOP_FEATURES_TYPE VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR
#define COOP_PROPERTIES_TYPE VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR
#endif
enum { COMPONENT_FLOAT32 = 1, SCOPE_SUBGROUP = 3 };

/* coop_dim returns 16 or 8, the first square float32 accumulator size of
 * subgroup scope the device lists, or 0. */
static uint32_t coop_dim(void)
{
    PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR get =
        (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)vkGetInstanceProcAddr(
            ca.instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
    if (!get)
        return 0;
    uint32_t n = 0;
    CHECK(get(ca.pd, &n, NULL));
    VkCooperativeMatrixPropertiesKHR *ps = calloc(n ? n : 1, sizeof *ps);
    for (uint32_t i = 0; i < n; i++)
        ps[i].sType = COOP_PROPERTIES_TYPE;
    CHECK(get(ca.pd, &n, ps));
    uint32_t dim = 0;
    for (uint32_t want = 16; want >= 8 && !dim; want /= 2)
        for (uint32_t i = 0; i < n; i++)
            if (ps[i].scope == SCOPE_SUBGROUP && ps[i].MSize == want && ps[i].NSize == want &&
                (ps[i].CType == COMPONENT_FLOAT32 || ps[i].ResultType == COMPONENT_FLOAT32))
                dim = want;
    free(ps);
    return dim;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    int bda = !strncmp(kase, "bda", 3);
    if (bda)
        kase = kase[3] == '-' ? kase + 4 : "load";
    if (strcmp(kase, "load") && strcmp(kase, "store") && strcmp(kase, "misaligned") && strcmp(kase, "clean")) {
        fprintf(stderr, "coopapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR qcoop = {.sType = COOP_FEATURES_TYPE};
    VkPhysicalDeviceVulkan12Features q12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &qcoop};
    VkPhysicalDeviceFeatures2 q2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &q12};
    int has = capp_has_device_extension(&ca, VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME);
    if (has)
        vkGetPhysicalDeviceFeatures2(ca.pd, &q2);
    if (!has || !qcoop.cooperativeMatrix || !q12.vulkanMemoryModel) {
        printf("unsupported: no VK_KHR_cooperative_matrix cooperativeMatrix (or no vulkanMemoryModel)\n");
        return 0;
    }
    uint32_t dim = coop_dim();
    if (!dim) {
        printf("unsupported: no 16x16 or 8x8 float32 accumulator of subgroup scope\n");
        return 0;
    }
    printf("dim=%u\n", dim);

    uint32_t pc[4];
    if (!strcmp(kase, "load"))
        pc[0] = 0, pc[1] = 128, pc[2] = 0, pc[3] = dim / 4;
    else if (!strcmp(kase, "store"))
        pc[0] = 0, pc[1] = dim, pc[2] = 250, pc[3] = dim / 4;
    else if (!strcmp(kase, "misaligned"))
        pc[0] = 1, pc[1] = dim + 1, pc[2] = 0, pc[3] = dim / 4;
    else
        pc[0] = 512 - dim * dim, pc[1] = dim, pc[2] = 256 - dim * dim / 4, pc[3] = dim / 4;

    VkPhysicalDeviceCooperativeMatrixFeaturesKHR fcoop = {.sType = COOP_FEATURES_TYPE, .cooperativeMatrix = VK_TRUE};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &fcoop, .vulkanMemoryModel = VK_TRUE,
                                            .bufferDeviceAddress = bda ? VK_TRUE : VK_FALSE};
    const char *exts[] = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME};
    ca_create_stage_device(VK_FALSE, &f12, exts, 1);

    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | (bda ? VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT : 0);
    capp_buffer in = capp_buffer_create(&ca, bda ? 2048 : 8192, usage);
    capp_buffer out = capp_buffer_create(&ca, bda ? 4096 : 8192, usage);
    float *fi = in.map, *fo = out.map;
    for (int i = 0; i < (bda ? 512 : 2048); i++)
        fi[i] = 1.0f;
    for (int i = 0; i < (bda ? 1024 : 2048); i++)
        fo[i] = 2.0f;
    VkDescriptorSetLayoutBinding lb[2] = {{0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
                                          {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&ca, lb, 2, &dsl, &dpool);
    VkDescriptorBufferInfo bi[2] = {{in.buf, 0, 2048}, {out.buf, 0, 4096}};
    capp_write_buffers(&ca, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &bi[0]);
    capp_write_buffers(&ca, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &bi[1]);

    struct {
        VkDeviceAddress src, dst;
        uint32_t element, stride;
    } bpc = {in.addr, out.addr, pc[0], pc[1]};
    if (bda)
        printf("src=0x%llx\n", (unsigned long long)in.addr);
    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_COMPUTE_BIT, bda ? (uint32_t)sizeof bpc : (uint32_t)sizeof pc);
    char name[64];
    snprintf(name, sizeof name, bda ? "coop_bda.comp.dim%u.spv" : "coop.comp.dim%u.spv", dim);
    VkPipeline pipe = capp_compute_pipeline(&ca, layout, ca_module(dir, name), 0, NULL);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "coop-cmd", pipe, "coop-pipeline");
    capp_begin(cmd, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    if (bda)
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof bpc, &bpc);
    else
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof pc, pc);
    vkCmdDispatch(cmd, 1, 1, 1);
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    printf("out=%g,%g\n", fo[0], fo[bda ? 0 : pc[2] * 4]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, dsl, NULL);
    capp_buffer_destroy(&ca, &in);
    capp_buffer_destroy(&ca, &out);
    capp_destroy(&ca);
    return 0;
}
