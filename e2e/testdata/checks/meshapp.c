/*
 * meshapp: the mesh_outputs and mesh_task_payload checks' test app (C). One vkCmdDrawMeshTasksEXT
 * of 2x1x1 workgroups of mesh.mesh (4 invocations each, max_vertices 3,
 * max_primitives 1) into a 1x1 R8G8B8A8_UNORM target, the counts of
 * SetMeshOutputsEXT from the push constants:
 *
 *   meshapp --shaders DIR [--case vertices|primitives|both|limits|fewer|payload|payload-task]
 *
 *   vertices:   5, 1 (over max_vertices)
 *   primitives: 3, 4 (over max_primitives)
 *   both:       6, 2
 *   limits:     3, 1 (exactly the maxima: valid)
 *   fewer:      3, 0 (valid: nothing drawn)
 *   payload:    payload.mesh, which takes its primitive count (at most 1)
 *               from the task payload, with no task shader: nothing
 *               writes the payload
 *   payload-task: payload.mesh after payload.task, which writes 1 (valid)
 *
 * After the submit it prints "pixel=R,G,B,A", the target's one pixel (the
 * fragment shader, stage_plain.frag, writes white where the triangle
 * covers it; the target is cleared to black). A device without VK_EXT_mesh_shader's meshShader
 * prints "unsupported" and exits 0 (payload-task without taskShader too). Every VkResult is checked; a failure
 * prints "meshapp: <call> failed: <n>" and exits 1. Names: the command
 * buffer is "mesh-cmd", the pipeline "mesh-pipeline".
 */
#define APP "meshapp"
#include "checkapp.h"

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "limits";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    uint32_t pc[2];
    if (!strcmp(kase, "vertices"))
        pc[0] = 5, pc[1] = 1;
    else if (!strcmp(kase, "primitives"))
        pc[0] = 3, pc[1] = 4;
    else if (!strcmp(kase, "both"))
        pc[0] = 6, pc[1] = 2;
    else if (!strcmp(kase, "limits"))
        pc[0] = 3, pc[1] = 1;
    else if (!strcmp(kase, "fewer"))
        pc[0] = 3, pc[1] = 0;
    else if (!strcmp(kase, "payload") || !strcmp(kase, "payload-task"))
        pc[0] = 3, pc[1] = 1;
    else {
        fprintf(stderr, "meshapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    VkPhysicalDeviceMeshShaderFeaturesEXT qmesh = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 q2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &qmesh};
    if (capp_has_device_extension(&ca, VK_EXT_MESH_SHADER_EXTENSION_NAME))
        vkGetPhysicalDeviceFeatures2(ca.pd, &q2);
    if (!qmesh.meshShader || (!strcmp(kase, "payload-task") && !qmesh.taskShader)) {
        printf("unsupported\n");
        return 0;
    }
    VkPhysicalDeviceMeshShaderFeaturesEXT fmesh = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MESH_SHADER_FEATURES_EXT,
                                                   .meshShader = VK_TRUE, .taskShader = qmesh.taskShader};
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .pNext = &fmesh, .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    const char *exts[] = {VK_EXT_MESH_SHADER_EXTENSION_NAME};
    ca_create_device(VK_QUEUE_GRAPHICS_BIT, &f2, exts, 1);

    capp_image t = capp_image_create(&ca, 1, 1, VK_FORMAT_R8G8B8A8_UNORM,
                                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
    capp_buffer pixel = capp_buffer_create(&ca, 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    VkPipelineLayout layout = ca_pipeline_layout(VK_NULL_HANDLE, VK_SHADER_STAGE_MESH_BIT_EXT, sizeof pc);
    int payload = !strncmp(kase, "payload", 7), task = !strcmp(kase, "payload-task");
    VkPipelineShaderStageCreateInfo ss[3] = {
        capp_stage(VK_SHADER_STAGE_MESH_BIT_EXT, ca_module(dir, payload ? "payload.mesh.spv" : "mesh.mesh.spv"), NULL),
        capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, ca_module(dir, "stage_plain.frag.spv"), NULL),
    };
    if (task)
        ss[2] = capp_stage(VK_SHADER_STAGE_TASK_BIT_EXT, ca_module(dir, "payload.task.spv"), NULL);
    VkPipeline pipe = capp_graphics_pipeline(&ca, &(capp_graphics_info){.stages = ss, .nstages = 2 + task, .layout = layout,
                                                                         .format = t.format, .width = 1, .height = 1,
                                                                         .mesh = 1,
                                                                         .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST});
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "mesh-cmd", pipe, "mesh-pipeline");
    capp_begin(cmd, 0);
    capp_begin_rendering(cmd, &t, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipe);
    vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_MESH_BIT_EXT, 0, sizeof pc, pc);
    PROC(vkCmdDrawMeshTasksEXT);
    pvkCmdDrawMeshTasksEXT(cmd, 2, 1, 1);
    vkCmdEndRendering(cmd);
    capp_image_barrier(cmd, t.image, (capp_layout_change){
        .from = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, .to = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
        .src_access = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, .dst_access = VK_ACCESS_TRANSFER_READ_BIT,
        .src_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, .dst_stage = VK_PIPELINE_STAGE_TRANSFER_BIT,
    });
    VkBufferImageCopy copy = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, .imageExtent = {1, 1, 1}};
    vkCmdCopyImageToBuffer(cmd, t.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixel.buf, 1, &copy);
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    const uint8_t *p = pixel.map;
    printf("pixel=%u,%u,%u,%u\n", p[0], p[1], p[2], p[3]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, VK_NULL_HANDLE, VK_NULL_HANDLE, &t);
    capp_buffer_destroy(&ca, &pixel);
    capp_destroy(&ca);
    return 0;
}
