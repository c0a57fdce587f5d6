/*
 * vkapp: the layer tests' Vulkan app (C: never a second Go runtime in the
 * app, docs/decisions/two-go-runtimes.md). It runs examples/demo/shaders/oob_compute.comp,
 * whose SPIR-V it reads from a file, with one workgroup of 4 invocations
 * that write through outs[idx], an array of 2 storage buffers: idx >= 2 is
 * out of bounds.
 *
 *   vkapp --shader FILE [--index N] [--submits N] [--secondary] [--submit2]
 *         [--conflict] [--reserve-features] [--vulkan10] [--indirect-groups]
 *
 *   --index N           descriptor index (default 1: in bounds)
 *   --submits N         submit the same command buffer N times (default 1)
 *   --secondary         record the dispatch in a secondary command buffer
 *   --submit2           submit with vkQueueSubmit2
 *   --conflict          the pipeline layout uses every descriptor set the
 *                       app sees (set 0 real, the others empty)
 *   --reserve-features  ask for the reserved slot with VkValidationFeaturesEXT
 *   --vulkan10          a Vulkan 1.0 app: instance apiVersion 1.0, no
 *                       Vulkan 1.1+ calls or structures (give it a module
 *                       compiled for vulkan1.0)
 *   --indirect-groups   dispatch with vkCmdDispatchIndirect of
 *                       {1, maxComputeWorkGroupCount[1] + 1, 1} groups (an
 *                       indirect_command error: the layer skips it)
 *
 * It prints "maxBoundDescriptorSets=N" and, for an in-bounds index, the
 * values the shader wrote ("values=0 3 6 9"). Names: the command buffer is
 * "compute-cmd", the dispatch is inside the label "compute-pass". Every
 * VkResult is checked; a failure prints "vkapp: <call> failed: <n>" and
 * exits 1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capp.h"

const char capp_app_name[] = "vkapp";

int main(int argc, char **argv)
{
    const char *shader = NULL;
    uint32_t idx = 1, submits = 1;
    int secondary = 0, submit2 = 0, conflict = 0, reserve_features = 0, exit_early = 0, vulkan10 = 0, indirect = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shader") && i + 1 < argc)
            shader = argv[++i];
        else if (!strcmp(argv[i], "--index") && i + 1 < argc)
            idx = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--submits") && i + 1 < argc)
            submits = (uint32_t)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--secondary"))
            secondary = 1;
        else if (!strcmp(argv[i], "--submit2"))
            submit2 = 1;
        else if (!strcmp(argv[i], "--conflict"))
            conflict = 1;
        else if (!strcmp(argv[i], "--reserve-features"))
            reserve_features = 1;
        else if (!strcmp(argv[i], "--vulkan10"))
            vulkan10 = 1;
        else if (!strcmp(argv[i], "--indirect-groups"))
            indirect = 1;
        else if (!strcmp(argv[i], "--exit-early"))
            exit_early = 1; /* exit after the results, destroying nothing */
        else {
            fprintf(stderr, "vkapp: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    if (!shader) {
        fprintf(stderr, "vkapp: --shader FILE is required\n");
        return 2;
    }

    /* Instance, with debug utils when the loader has it. */
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT,
                                              VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT};
    VkValidationFeaturesEXT vf = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .enabledValidationFeatureCount = 2,
        .pEnabledValidationFeatures = enables,
    };
    capp c;
    capp_create_instance(&c, &(capp_instance_info){.next = reserve_features ? &vf : NULL,
                                                   .api_version = vulkan10 ? VK_API_VERSION_1_0 : 0});
    printf("maxBoundDescriptorSets=%u\n", c.props.limits.maxBoundDescriptorSets);
    if (!vulkan10) {
        VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        vkGetPhysicalDeviceProperties2(c.pd, &props2);
        printf("maxBoundDescriptorSets2=%u\n", props2.properties.limits.maxBoundDescriptorSets);
    }

    /* Features through VkPhysicalDeviceFeatures2 behind another structure,
     * so the layer's feature patching copies a chain. */
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = &f2,
        .synchronization2 = submit2 ? VK_TRUE : VK_FALSE,
    };
    capp_create_device(&c, &(capp_device_info){.queue_flags = VK_QUEUE_COMPUTE_BIT, .next = vulkan10 ? NULL : &f13});
    if (f2.features.fragmentStoresAndAtomics || f2.pNext != NULL || f13.pNext != &f2) {
        fprintf(stderr, "vkapp: the layer wrote into the app's create info\n");
        return 1;
    }
    VkDevice dev = c.dev;

    /* Two storage buffers of 16 uints, host visible. */
    capp_buffer bufs[2];
    for (int i = 0; i < 2; i++)
        bufs[i] = capp_buffer_create(&c, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    VkDescriptorSetLayoutBinding b = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = 2,
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
    VkDescriptorSetLayout dsl;
    VkDescriptorPool dpool;
    VkDescriptorSet set = capp_single_set(&c, &b, 1, &dsl, &dpool);
    VkDescriptorBufferInfo dbi[2] = {{bufs[0].buf, 0, VK_WHOLE_SIZE}, {bufs[1].buf, 0, VK_WHOLE_SIZE}};
    capp_write_buffers(&c, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, dbi);
    VkDescriptorSetLayout empty = capp_set_layout(&c, NULL, 0);

    VkDescriptorSetLayout sets[64];
    uint32_t nsets = 1;
    sets[0] = dsl;
    if (conflict) {
        nsets = c.props.limits.maxBoundDescriptorSets < 64 ? c.props.limits.maxBoundDescriptorSets : 64;
        for (uint32_t i = 1; i < nsets; i++)
            sets[i] = empty;
    }
    VkPipelineLayout layout = capp_pipeline_layout(&c, nsets, sets, &(VkPushConstantRange){VK_SHADER_STAGE_COMPUTE_BIT, 0, 4});
    printf("layout=0x%llx\n", (unsigned long long)(uintptr_t)layout);

    VkShaderModule module = capp_shader_file(&c, shader);
    VkPipeline pipeline = capp_compute_pipeline(&c, layout, module, 0, NULL);
    /* Seed 000: the app may destroy the module before using the pipeline. */
    vkDestroyShaderModule(dev, module, NULL);

    VkCommandPool pool = capp_command_pool(&c, 0);
    VkCommandBuffer cb = capp_command_buffer(&c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "compute-cmd"), sec = VK_NULL_HANDLE;
    capp_name(&c, VK_OBJECT_TYPE_PIPELINE, capp_handle(pipeline), "oob-pipeline");
    VkCommandBuffer rec = cb;
    if (secondary) {
        sec = capp_command_buffer(&c, pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY, NULL);
        rec = sec;
        VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
        VkCommandBufferBeginInfo sbi = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            .pInheritanceInfo = &inh,
        };
        CHECK(vkBeginCommandBuffer(sec, &sbi));
    } else {
        capp_begin(cb, 0);
    }
    capp_label(&c, rec, "compute-pass");
    vkCmdBindPipeline(rec, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(rec, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(rec, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &idx);
    capp_buffer groups = {0};
    if (indirect) {
        groups = capp_buffer_create(&c, 16, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
        uint32_t *g = groups.map;
        g[0] = 1, g[1] = c.props.limits.maxComputeWorkGroupCount[1] + 1, g[2] = 1;
        vkCmdDispatchIndirect(rec, groups.buf, 0);
    } else {
        vkCmdDispatch(rec, 1, 1, 1);
    }
    capp_unlabel(&c, rec);
    if (secondary) {
        CHECK(vkEndCommandBuffer(sec));
        capp_begin(cb, 0);
        vkCmdExecuteCommands(cb, 1, &sec);
    }
    VkMemoryBarrier mb = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
    };
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0,
                         NULL);
    CHECK(vkEndCommandBuffer(cb));

    VkFence fence = capp_fence(&c);
    for (uint32_t s = 0; s < submits; s++) {
        if (submit2) {
            VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cb};
            VkSubmitInfo2 si2 = {
                .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                .commandBufferInfoCount = 1,
                .pCommandBufferInfos = &cbsi,
            };
            CHECK(vkQueueSubmit2(c.queue, 1, &si2, fence));
            CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
            CHECK(vkResetFences(dev, 1, &fence));
        } else {
            capp_submit_wait(&c, 1, &cb, fence, NULL);
        }
    }
    if (idx < 2) {
        const uint32_t *p = bufs[idx].map;
        printf("values=%u %u %u %u\n", p[0], p[1], p[2], p[3]);
    }

    if (exit_early) {
        printf("vkapp: exit without vkDestroyInstance\n");
        fflush(stdout);
        exit(0);
    }
    vkDestroyFence(dev, fence, NULL);
    if (sec)
        vkFreeCommandBuffers(dev, pool, 1, &sec);
    vkFreeCommandBuffers(dev, pool, 1, &cb);
    vkDestroyCommandPool(dev, pool, NULL);
    vkDestroyDescriptorPool(dev, dpool, NULL);
    vkDestroyPipeline(dev, pipeline, NULL);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    vkDestroyDescriptorSetLayout(dev, empty, NULL);
    for (int i = 0; i < 2; i++)
        capp_buffer_destroy(&c, &bufs[i]);
    if (groups.buf)
        capp_buffer_destroy(&c, &groups);
    capp_destroy(&c);
    printf("vkapp: done\n");
    return 0;
}
