/*
 * dbufapp: descriptors in a descriptor buffer (VK_EXT_descriptor_buffer).
 * A compute pipeline made with VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT
 * runs dbuf.comp once: result.v[0] = data[pc.index].v[0] + 1, data[4] an
 * array of storage buffers (data[i].v[0] = 100 + i). The set layout
 * (binding 0 the result, binding 1 data[4]) is a descriptor-buffer layout;
 * its descriptors are written with vkGetDescriptorEXT into a host-visible
 * descriptor buffer, bound with vkCmdBindDescriptorBuffersEXT and
 * vkCmdSetDescriptorBufferOffsetsEXT.
 *
 *   dbufapp --shaders DIR [--case clean|oob|two_actions|indirect]
 *
 *   clean        index 1: prints value=102
 *   oob          index 5 (of 4): the layer skips the load, value=1
 *   two_actions  two dispatches, index 1 then 6: the second is bad
 *   indirect     index 1 through vkCmdDispatchIndirect {1, 1, 1}: value=102
 *
 * It prints "unsupported" and exits 0 where the device has no
 * descriptorBuffer; "value=N" after the submit. Names: the command buffer
 * is "dbuf-cmd", the pipeline "dbuf-pipeline".
 */
#define APP "dbufapp"
#include "checkapp.h"

#define NDATA 4

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    uint32_t indices[2] = {1, UINT32_MAX};
    if (!strcmp(kase, "oob"))
        indices[0] = 5;
    else if (!strcmp(kase, "two_actions"))
        indices[1] = 6;
    else if (strcmp(kase, "clean") && strcmp(kase, "indirect")) {
        fprintf(stderr, APP ": unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    if (!capp_has_device_extension(&ca, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME)) {
        printf("unsupported\n");
        return 0;
    }
    VkPhysicalDeviceDescriptorBufferFeaturesEXT fdb = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT};
    VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &fdb};
    vkGetPhysicalDeviceFeatures2(ca.pd, &q);
    if (!fdb.descriptorBuffer) {
        printf("unsupported\n");
        return 0;
    }
    fdb = (VkPhysicalDeviceDescriptorBufferFeaturesEXT){
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT, .descriptorBuffer = VK_TRUE};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &fdb, .bufferDeviceAddress = VK_TRUE};
    const char *exts[] = {VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME};
    ca_create_stage_device(VK_FALSE, &f12, exts, 1);
    PROC(vkGetDescriptorSetLayoutSizeEXT);
    PROC(vkGetDescriptorSetLayoutBindingOffsetEXT);
    PROC(vkGetDescriptorEXT);
    PROC(vkCmdBindDescriptorBuffersEXT);
    PROC(vkCmdSetDescriptorBufferOffsetsEXT);
    VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &dbp};
    vkGetPhysicalDeviceProperties2(ca.pd, &p2);

    VkBufferUsageFlags su = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    capp_buffer result = capp_buffer_create(&ca, 16, su);
    capp_buffer data[NDATA];
    for (uint32_t i = 0; i < NDATA; i++) {
        data[i] = capp_buffer_create(&ca, 16, su);
        ((uint32_t *)data[i].map)[0] = 100 + i;
    }

    VkDescriptorSetLayoutBinding lb[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = NDATA,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
    };
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
                                             .bindingCount = 2, .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl));
    VkDeviceSize size, off0, off1;
    pvkGetDescriptorSetLayoutSizeEXT(ca.dev, dsl, &size);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl, 0, &off0);
    pvkGetDescriptorSetLayoutBindingOffsetEXT(ca.dev, dsl, 1, &off1);

    /* The descriptor buffer: one set's descriptors at offset 0. */
    VkDeviceSize align = dbp.descriptorBufferOffsetAlignment ? dbp.descriptorBufferOffsetAlignment : 1;
    capp_buffer db = capp_buffer_create(&ca, (size + align - 1) / align * align,
                                        VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT |
                                            VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT);
    size_t dsize = dbp.storageBufferDescriptorSize;
    VkDescriptorAddressInfoEXT ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
                                     .address = result.addr, .range = 16};
    VkDescriptorGetInfoEXT gi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
                                 .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .data.pStorageBuffer = &ai};
    pvkGetDescriptorEXT(ca.dev, &gi, dsize, (char *)db.map + off0);
    for (uint32_t i = 0; i < NDATA; i++) {
        ai.address = data[i].addr;
        pvkGetDescriptorEXT(ca.dev, &gi, dsize, (char *)db.map + off1 + i * dsize);
    }

    VkPipelineLayout layout = ca_pipeline_layout(dsl, VK_SHADER_STAGE_COMPUTE_BIT, 4);
    VkPipeline pipe = capp_compute_pipeline(&ca, layout, ca_module(dir, "dbuf.comp.spv"),
                                            VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT, NULL);
    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(0, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "dbuf-cmd", pipe, "dbuf-pipeline");

    capp_buffer indirect = {0};
    if (!strcmp(kase, "indirect")) {
        indirect = capp_buffer_create(&ca, 12, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT);
        memcpy(indirect.map, (uint32_t[3]){1, 1, 1}, 12);
    }
    capp_begin(cmd, 0);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipe);
    VkDescriptorBufferBindingInfoEXT bi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
                                           .address = db.addr,
                                           .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT};
    pvkCmdBindDescriptorBuffersEXT(cmd, 1, &bi);
    uint32_t buffer_index = 0;
    VkDeviceSize offset = 0;
    pvkCmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &buffer_index, &offset);
    for (int a = 0; a < 2 && indices[a] != UINT32_MAX; a++) {
        if (a > 0) {
            /* Both dispatches write the same value: the second after the
             * first (the H100 ran them out of order without this). */
            VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                  .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                  .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1,
                                 &mb, 0, NULL, 0, NULL);
        }
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &indices[a]);
        if (indirect.buf)
            vkCmdDispatchIndirect(cmd, indirect.buf, 0);
        else
            vkCmdDispatch(cmd, 1, 1, 1);
    }
    CHECK(vkEndCommandBuffer(cmd));
    ca_submit_wait(cmd);
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    fflush(stdout);

    ca_teardown(pipe, layout, pool, VK_NULL_HANDLE, dsl, NULL);
    capp_buffer_destroy(&ca, &db);
    if (indirect.buf)
        capp_buffer_destroy(&ca, &indirect);
    for (uint32_t i = 0; i < NDATA; i++)
        capp_buffer_destroy(&ca, &data[i]);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
