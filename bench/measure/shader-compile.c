/*
 * shader-compile: times the driver compiling one compute shader, for
 * bench/measure/shader-compile.sh. Lavapipe compiles a compute pipeline at
 * its first dispatch, so the time is the pipeline's creation plus one
 * 1x1x1 dispatch waited for. The layouts are those of Sascha Willems'
 * computeraytracing sample's raytracing.comp:
 * set 0: binding 0 a storage image, 1 a uniform buffer, 2 a storage buffer;
 * set 1: the layer's set as `gpuav-dbg instrument --set 1` declares it
 * (0 storage buffer, 1 uniform buffer, 2 storage buffer).
 *
 *   shader-compile FILE.spv   prints "FILE create=S dispatch=S total=S"
 */
#include "capp.h"
#include <stdio.h>
#include <string.h>
const char capp_app_name[] = "shader-compile";
int main(int argc, char **argv) {
    if (argc < 2) return 2;
    capp c;
    capp_instance_info ii = {0};
    capp_create_instance(&c, &ii);
    capp_device_info di = {0};
    di.queue_flags = VK_QUEUE_COMPUTE_BIT;
    capp_create_device(&c, &di);
    VkDescriptorSetLayoutBinding b0[3] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayoutBinding b1[3] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
        {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
    VkDescriptorSetLayout dsl[2];
    VkDescriptorPool p0, p1;
    VkDescriptorSet s0 = capp_single_set(&c, b0, 3, &dsl[0], &p0);
    VkDescriptorSet s1 = capp_single_set(&c, b1, 3, &dsl[1], &p1);
    VkPipelineLayout pl = capp_pipeline_layout(&c, 2, dsl, NULL);
    capp_buffer ub = capp_buffer_create(&c, 4096, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    capp_buffer sb = capp_buffer_create(&c, 1 << 20, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorBufferInfo ui = {ub.buf, 0, VK_WHOLE_SIZE}, si = {sb.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&c, s0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, &ui);
    capp_write_buffers(&c, s0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &si);
    capp_write_buffers(&c, s1, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &si);
    capp_write_buffers(&c, s1, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, &ui);
    capp_write_buffers(&c, s1, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &si);
    capp_image im = capp_image_create(&c, 16, 16, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_STORAGE_BIT);
    VkDescriptorImageInfo ii2 = {VK_NULL_HANDLE, im.view, VK_IMAGE_LAYOUT_GENERAL};
    VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, s0, 0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, &ii2, NULL, NULL};
    vkUpdateDescriptorSets(c.dev, 1, &w, 0, NULL);
    VkShaderModule m = capp_shader_file(&c, argv[1]);
    uint64_t t0 = capp_now_ns();
    VkPipeline pipe = capp_compute_pipeline(&c, pl, m, 0, NULL);
    uint64_t t1 = capp_now_ns();
    VkCommandPool pool = capp_command_pool(&c, 0);
    VkCommandBuffer cb = capp_command_buffer(&c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, NULL);
    capp_begin(cb, 0);
    capp_layout_change t = {VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_SHADER_WRITE_BIT,
                            VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT};
    capp_image_barrier(cb, im.image, t);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    VkDescriptorSet sets[2] = {s0, s1};
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 2, sets, 0, NULL);
    vkCmdDispatch(cb, 1, 1, 1);
    capp_end_and_run(&c, cb);
    uint64_t t2 = capp_now_ns();
    printf("%s create=%.2fs dispatch=%.2fs total=%.2fs\n", argv[1], (t1 - t0) / 1e9, (t2 - t1) / 1e9, (t2 - t0) / 1e9);
    return 0;
}
