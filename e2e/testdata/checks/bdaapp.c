/*
 * bdaapp: the bda_oob check's test app (C). A shader reads or writes one
 * uint through a buffer reference (GL_EXT_buffer_reference) into a 64-byte
 * buffer "data" whose device address arrives in push constants; a read
 * stores the value + 1 into the 16-byte buffer "result". One invocation
 * does the access: a 1x1x1 dispatch (bda.comp), one point drawn into a 1x1
 * image (bda.vert, or bda.frag: one fragment at (0.5, 0.5)).
 *
 *   bdaapp --shaders DIR [--case read_past_end|write_past_end|use_after_destroy|
 *          write_after_destroy|misaligned|write_misaligned|aligned|clean]
 *          [--stage compute|vertex|fragment]
 *
 * read_past_end reads v[16] (bytes 64..67, just past the end);
 * write_past_end writes v[16]; use_after_destroy destroys "data" (its
 * memory stays allocated) after taking its address, then reads v[3];
 * write_after_destroy likewise writes v[3] = 7; misaligned reads v[3]
 * through the address of "data" plus 2 (bytes 14..17, inside the buffer,
 * but not a multiple of the reference's alignment, 4); write_misaligned
 * writes v[3] = 7 there; aligned reads v[3] through data plus 4 (word 4,
 * 104); clean reads v[3]. It
 * prints "data=0x... size=64 result=0x... rsize=16" before the submit and
 * "value=N" (result[0]) and "d3=N" (data's word 3 in memory) after. Every VkResult is
 * checked; a failure prints "bdaapp: <call> failed: <n>" and exits 1.
 * Names: the command buffer is "bda-cmd", the pipeline "bda-pipeline".
 */
#define APP "bdaapp"
#include "checkapp.h"

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    uint32_t index, write = 0;
    int destroy = 0;
    uint32_t shift = 0; /* bytes added to data's address */
    if (!strcmp(kase, "read_past_end"))
        index = 16;
    else if (!strcmp(kase, "write_past_end"))
        index = 16, write = 1;
    else if (!strcmp(kase, "use_after_destroy"))
        index = 3, destroy = 1;
    else if (!strcmp(kase, "write_after_destroy"))
        index = 3, destroy = 1, write = 1;
    else if (!strcmp(kase, "misaligned"))
        index = 3, shift = 2;
    else if (!strcmp(kase, "write_misaligned"))
        index = 3, shift = 2, write = 1;
    else if (!strcmp(kase, "aligned"))
        index = 3, shift = 4;
    else if (!strcmp(kase, "clean"))
        index = 3;
    else {
        fprintf(stderr, "bdaapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .bufferDeviceAddress = VK_TRUE,
    };
    ca_create_stage_device(VK_FALSE, &f12, NULL, 0);

    VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    capp_buffer data = capp_buffer_create(&ca, 64, usage);
    capp_buffer result = capp_buffer_create(&ca, 16, usage);
    for (uint32_t i = 0; i < 16; i++)
        ((uint32_t *)data.map)[i] = 100 + i;
    if (destroy) {
        vkDestroyBuffer(ca.dev, data.buf, NULL); /* the memory stays: only the buffer is gone */
        data.buf = VK_NULL_HANDLE;
    }

    VkPipelineLayout layout = ca_pipeline_layout(VK_NULL_HANDLE, VK_SHADER_STAGE_ALL, 24);

    capp_image t;
    VkPipeline pipe = ca_stage_pipeline(stage, dir, "bda", "bda_plain", layout, &t);

    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "bda-cmd", pipe, "bda-pipeline");

    struct {
        uint64_t data, result;
        uint32_t index, write;
    } pc = {data.addr + shift, result.addr, index, write};
    ca_record_one(cmd, stage, &t, pipe, layout, VK_NULL_HANDLE, 0, NULL, &pc, sizeof pc);
    printf("data=0x%llx size=64 result=0x%llx rsize=16\n", (unsigned long long)data.addr,
           (unsigned long long)result.addr);
    fflush(stdout);
    ca_submit_wait(cmd);
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    printf("d3=%u\n", ((uint32_t *)data.map)[3]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, VK_NULL_HANDLE, VK_NULL_HANDLE, &t);
    capp_buffer_destroy(&ca, &data);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
