/*
 * refuseapp: the test app of a pipeline the driver refuses with the
 * layer's code (e2e/refuse_test.go), on internal/capp. Its two compute
 * shaders share one layout (set 0: an array of 2 storage buffers data,
 * data[1].v[i] = 100 + i, and a result buffer; push constants k, base):
 * refuse_a.comp.spv writes r[base + g] = data[k].v[g] + 1, refuse_b.comp.spv
 * r[base + g] = data[k].v[g] * 2, for g in 0..3; refuse_a.frag.spv writes
 * r[base] = data[k].v[0] + 1 for the one point refuse_point.vert.spv draws.
 *
 *   refuseapp --dir DIR [--case single|batch|early|graphics|shaderobj|precise]     (DIR holds the .spv files)
 *
 *   single  one vkCreateComputePipelines of refuse_a ("refuse-a")
 *   batch   one call of two: refuse_a ("refuse-a"), refuse_b ("refuse-b")
 *   early   batch, refuse_a's create info with
 *           VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT
 *   graphics  one vkCreateGraphicsPipelines of refuse_point and refuse_a.frag
 *           ("refuse-a"), drawing one point into a 1x1 target
 *   precise single, with data[1] bound 8 bytes: refuse_a's reads of
 *           v[2] and v[3] are past it (so that the layer wants its
 *           pipeline's precise variant)
 *   shaderobj one vkCreateShadersEXT of two compute shader objects
 *           (VK_EXT_shader_object), refuse_a's and refuse_b's, bound with
 *           vkCmdBindShadersEXT in place of pipelines
 *
 * It prints "create=RESULT" (the call's VkResult), then dispatches each
 * pipeline (k 1; refuse_a at base 0, refuse_b at base 4) in one command
 * buffer "refuse-cmd" and prints "a=R0,R1,R2,R3" (and "b=R4,...,R7"); the
 * graphics case draws (k 1, base 8) and prints "f=R8".
 * A failed call prints "refuseapp: <call> failed: <n>" and exits 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capp.h"

#include "../../../layer/vk_shader_object.h" /* VK_EXT_shader_object for older headers */

const char capp_app_name[] = "refuseapp";

int main(int argc, char **argv)
{
    const char *dir = ".", *kase = "single";
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--dir") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--case") && i + 1 < argc)
            kase = argv[++i];
        else {
            fprintf(stderr, "refuseapp: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    int graphics = !strcmp(kase, "graphics"), objects = !strcmp(kase, "shaderobj");
    int precise = !strcmp(kase, "precise");
    int n = !strcmp(kase, "single") || graphics || precise ? 1 : !strcmp(kase, "batch") || !strcmp(kase, "early") || objects ? 2 : 0;
    if (!n) {
        fprintf(stderr, "refuseapp: unknown case %s\n", kase);
        return 2;
    }
    capp vk;
    memset(&vk, 0, sizeof vk);
    capp_create_instance(&vk, &(capp_instance_info){.app_name = "refuseapp", .api_version = VK_API_VERSION_1_3});
    /* pipelineCreationCacheControl: for VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT */
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .pipelineCreationCacheControl = VK_TRUE,
                                            .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceShaderObjectFeaturesEXT fso = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_OBJECT_FEATURES_EXT,
                                                   .shaderObject = VK_TRUE};
    if (objects)
        f13.pNext = &fso;
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    f2.features.fragmentStoresAndAtomics = VK_TRUE;
    const char *so_ext[] = {VK_EXT_SHADER_OBJECT_EXTENSION_NAME};
    capp_create_device(&vk, &(capp_device_info){.queue_flags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT,
                                                .next = &f2, .exts = so_ext, .nexts = objects ? 1 : 0});

    capp_buffer data[2], result;
    for (int b = 0; b < 2; b++) {
        data[b] = capp_buffer_create(&vk, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        uint32_t *w = data[b].map;
        for (uint32_t i = 0; i < 16; i++)
            w[i] = 100 * b + i;
    }
    result = capp_buffer_create(&vk, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    memset(result.map, 0, 64);
    VkDescriptorSetLayoutBinding lb[2] = {
        {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_ALL, NULL},
        {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_ALL, NULL},
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&vk, lb, 2, &dsl, &dpool);
    VkDescriptorBufferInfo di[2] = {{data[0].buf, 0, VK_WHOLE_SIZE}, {data[1].buf, 0, precise ? 8 : VK_WHOLE_SIZE}};
    VkDescriptorBufferInfo ri = {result.buf, 0, VK_WHOLE_SIZE};
    capp_write_buffers(&vk, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, di);
    capp_write_buffers(&vk, set, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, &ri);
    VkPushConstantRange pcr = {VK_SHADER_STAGE_ALL, 0, 8};
    VkPipelineLayout layout = capp_pipeline_layout(&vk, 1, &dsl, &pcr);

    char path[4096];
    VkShaderModule m[2] = {capp_shader_file(&vk, capp_path(path, sizeof path, dir, "refuse_a.comp.spv")),
                           capp_shader_file(&vk, capp_path(path, sizeof path, dir, "refuse_b.comp.spv"))};
    VkComputePipelineCreateInfo ci[2];
    for (int i = 0; i < 2; i++)
        ci[i] = (VkComputePipelineCreateInfo){
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                      .module = m[i],
                      .pName = "main"},
            .layout = layout,
            .basePipelineIndex = -1,
        };
    if (!strcmp(kase, "early"))
        ci[0].flags = VK_PIPELINE_CREATE_EARLY_RETURN_ON_FAILURE_BIT;
    VkPipeline pipes[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkShaderEXT shaders[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    VkResult r;
    capp_image target;
    memset(&target, 0, sizeof target);
    VkShaderModule gm[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    if (graphics) {
        target = capp_image_create(&vk, 1, 1, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
        gm[0] = capp_shader_file(&vk, capp_path(path, sizeof path, dir, "refuse_point.vert.spv"));
        gm[1] = capp_shader_file(&vk, capp_path(path, sizeof path, dir, "refuse_a.frag.spv"));
        VkPipelineShaderStageCreateInfo ss[2] = {capp_stage(VK_SHADER_STAGE_VERTEX_BIT, gm[0], NULL),
                                                 capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, gm[1], NULL)};
        capp_fixed_state fs;
        capp_fixed_state_init(&fs, 1, 1, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
        VkPipelineRenderingCreateInfo rci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
                                             .colorAttachmentCount = 1,
                                             .pColorAttachmentFormats = &target.format};
        VkGraphicsPipelineCreateInfo gci = {.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
                                            .pNext = &rci,
                                            .stageCount = 2,
                                            .pStages = ss,
                                            .pVertexInputState = &fs.vi,
                                            .pInputAssemblyState = &fs.ia,
                                            .pViewportState = &fs.vps,
                                            .pRasterizationState = &fs.rs,
                                            .pMultisampleState = &fs.ms,
                                            .pDepthStencilState = &fs.ds,
                                            .pColorBlendState = &fs.cb,
                                            .layout = layout,
                                            .basePipelineIndex = -1};
        r = vkCreateGraphicsPipelines(vk.dev, VK_NULL_HANDLE, 1, &gci, NULL, pipes);
    } else if (objects) {
        PFN_vkCreateShadersEXT create = (PFN_vkCreateShadersEXT)vkGetDeviceProcAddr(vk.dev, "vkCreateShadersEXT");
        size_t size[2];
        uint32_t *code[2] = {capp_read_spirv(capp_path(path, sizeof path, dir, "refuse_a.comp.spv"), &size[0]),
                             capp_read_spirv(capp_path(path, sizeof path, dir, "refuse_b.comp.spv"), &size[1])};
        VkShaderCreateInfoEXT sci[2];
        for (int i = 0; i < 2; i++)
            sci[i] = (VkShaderCreateInfoEXT){.sType = VK_STRUCTURE_TYPE_SHADER_CREATE_INFO_EXT,
                                             .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                                             .codeType = VK_SHADER_CODE_TYPE_SPIRV_EXT,
                                             .codeSize = size[i],
                                             .pCode = code[i],
                                             .pName = "main",
                                             .setLayoutCount = 1,
                                             .pSetLayouts = &dsl,
                                             .pushConstantRangeCount = 1,
                                             .pPushConstantRanges = &pcr};
        r = create(vk.dev, 2, sci, NULL, shaders);
        free(code[0]);
        free(code[1]);
    } else {
        r = vkCreateComputePipelines(vk.dev, VK_NULL_HANDLE, (uint32_t)n, ci, NULL, pipes);
    }
    printf("create=%d\n", (int)r);
    fflush(stdout);
    CHECK(r);
    const char *names[2] = {"refuse-a", "refuse-b"};
    for (int i = 0; i < n; i++)
        capp_name(&vk, objects ? VK_OBJECT_TYPE_SHADER_EXT : VK_OBJECT_TYPE_PIPELINE,
                  objects ? (uint64_t)shaders[i] : (uint64_t)pipes[i], names[i]);

    VkCommandPool pool = capp_command_pool(&vk, 0);
    VkCommandBuffer cb = capp_command_buffer(&vk, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "refuse-cmd");
    capp_begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    if (graphics) {
        uint32_t pc[2] = {1, 8};
        capp_begin_rendering(cb, &target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipes[0]);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_ALL, 0, sizeof pc, pc);
        vkCmdDraw(cb, 1, 1, 0, 0);
        vkCmdEndRendering(cb);
    }
    int ndispatch = graphics ? 0 : n;
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    for (int i = 0; i < ndispatch; i++) {
        uint32_t pc[2] = {1, 4 * (uint32_t)i};
        if (objects) {
            VkShaderStageFlagBits stage = VK_SHADER_STAGE_COMPUTE_BIT;
            PFN_vkCmdBindShadersEXT bind = (PFN_vkCmdBindShadersEXT)vkGetDeviceProcAddr(vk.dev, "vkCmdBindShadersEXT");
            bind(cb, 1, &stage, &shaders[i]);
        } else {
            vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipes[i]);
        }
        vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_ALL, 0, sizeof pc, pc);
        vkCmdDispatch(cb, 1, 1, 1);
    }
    capp_end_and_run(&vk, cb);
    const uint32_t *res = result.map;
    for (int i = 0; i < ndispatch; i++)
        printf("%c=%u,%u,%u,%u\n", 'a' + i, res[4 * i], res[4 * i + 1], res[4 * i + 2], res[4 * i + 3]);
    if (graphics)
        printf("f=%u\n", res[8]);
    fflush(stdout);

    vkDestroyCommandPool(vk.dev, pool, NULL);
    PFN_vkDestroyShaderEXT destroy = (PFN_vkDestroyShaderEXT)vkGetDeviceProcAddr(vk.dev, "vkDestroyShaderEXT");
    for (int i = 0; i < n; i++) {
        vkDestroyPipeline(vk.dev, pipes[i], NULL);
        if (objects)
            destroy(vk.dev, shaders[i], NULL);
    }
    for (int i = 0; i < 2; i++) {
        vkDestroyShaderModule(vk.dev, m[i], NULL);
        vkDestroyShaderModule(vk.dev, gm[i], NULL);
    }
    if (graphics)
        capp_image_destroy(&vk, &target);
    vkDestroyPipelineLayout(vk.dev, layout, NULL);
    vkDestroyDescriptorPool(vk.dev, dpool, NULL);
    vkDestroyDescriptorSetLayout(vk.dev, dsl, NULL);
    for (int b = 0; b < 2; b++)
        capp_buffer_destroy(&vk, &data[b]);
    capp_buffer_destroy(&vk, &result);
    capp_destroy(&vk);
    return 0;
}
