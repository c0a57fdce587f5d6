/*
 * descapp: the descriptor-state checks' test app (C): descriptor_index_oob
 * on a runtime (bindless) array, descriptor_uninitialized and
 * descriptor_destroyed. A shader reads data[pc.index].v[0] from a runtime
 * array of storage buffers (set 0, binding 1; descriptor indexing with
 * PARTIALLY_BOUND, and VARIABLE_DESCRIPTOR_COUNT where the case says) and
 * stores it + 1 into result.v[0] (set 0, binding 0). Element i is a
 * 16-byte buffer whose v[0] is 100 + i (elements past 15 share buffer 0).
 * One invocation does the access: a 1x1x1 dispatch (desc.comp), one point
 * drawn into a 1x1 image (desc.vert, or desc.frag: one fragment at
 * (0.5, 0.5)).
 *
 *   descapp --shaders DIR [--case CASE] [--stage compute|vertex|fragment]
 *
 * Cases (binding 1's layout count / variable count; elements written;
 * pc.index):
 *   clean           8 / 4, 0..3 written, index 1 (value=102)
 *   runtime_oob     4 (no variable count), 0..3, index 5
 *   runtime_oob_unwritten, runtime_oob_destroyed: as runtime_oob with
 *                   element 3 unwritten, or its buffer destroyed (the
 *                   element a clamp of index 5 goes to)
 *   variable_count  16 / 6, 0..5, index 6
 *   uninitialized   8 / 4, 0, 1, 3 written, index 2
 *   destroyed       8 / 4, 0..3 written, then element 3's buffer is
 *                   destroyed (before recording: PARTIALLY_BOUND makes the
 *                   set legal as long as element 3 is not used), index 3
 *   many_sets       three sets 8 / 4; the third lacks element 2; three
 *                   actions, one per set, index 2: only action 2 is bad
 *   growth          20000 / 20000, 0..19998 written, index 19999 (the
 *                   state is larger than the layer's first 64 KiB buffer):
 *                   recorded and submitted twice (prints "submit=1",
 *                   "submit=2")
 *   push            a push-descriptor layout (8 elements, no set):
 *                   vkCmdPushDescriptorSetKHR writes 0, 1, 3; index 2
 *   push_template   the same through vkCmdPushDescriptorSetWithTemplateKHR
 *   push_clean      vkCmdPushDescriptorSetKHR writes 0..3; index 1
 *   sized_clean, sized_uninitialized, sized_destroyed: as clean,
 *                   uninitialized and destroyed with a layout count of 8
 *                   (no variable count) and shaders declaring a sized
 *                   array, data[8] (desc_sized.*)
 *   sized_variable  8 / 4, 0..3 written, index 5, shaders declaring data[8]:
 *                   past the variable count, inside the shader's array
 *   instance_oob    (--stage vertex) a layout count of 3, 0..2 written; an
 *                   indexed draw of 4 instances whose vertex shader adds
 *                   data[gl_InstanceIndex].v[0] to result (desc_instance.vert):
 *                   instance 3 is out of bounds; the others add 100+101+102
 *                   (value=303 when the bad load is skipped)
 *   instance_nonuniform (--stage vertex) the draw that hung on NVIDIA: a
 *                   layout count of 3, 0..2 written; vkCmdDraw of 1 vertex
 *                   and 5 instances whose vertex shader adds
 *                   data[nonuniformEXT(idx)].v[0] to result, idx the pushed
 *                   index (3) for instance 3 and 0 for the others
 *                   (desc_nonuniform.vert): value=400 when the bad load is
 *                   skipped, 502 when it is clamped to element 2
 *   loop_clean, loop_uninitialized, loop_destroyed: the sized cases
 *                   (--stage compute) with desc_loop.comp, which reads
 *                   data[index] in a loop whose counter is the index
 *   loop_full       the same, 0..7 written, index 7
 *   spec_oob, spec_clean: a layout count of 4, 0..3 written, shaders
 *                   declaring data[N] with N a specialization constant
 *                   (default 2) specialized to 4 (desc_spec.*): index 5,
 *                   and index 3 (in bounds only with the specialized N)
 *   small_oob       4 (no variable count), 0..3 written, index 3, and
 *                   shaders declaring data[2] (desc_small.*): past the
 *                   shader's array, inside the layout's written elements
 * It prints "value=N" (result[0]) after the (last) submit. Every VkResult
 * is checked; a failure prints "descapp: <call> failed: <n>" and exits 1.
 * Names: the command buffer is "desc-cmd", the pipeline "desc-pipeline".
 */
#define APP "descapp"
#include "checkapp.h"

#define NBUF 16

typedef struct {
    const char *name;
    uint32_t layout_count, variable; /* variable: 0 = no VARIABLE_DESCRIPTOR_COUNT */
    uint32_t written;                /* elements 0..written-1 are written ... */
    uint32_t skip;                   /* ... except this one (UINT32_MAX: none) */
    uint32_t destroy;                /* element whose buffer is destroyed (UINT32_MAX: none) */
    uint32_t index;
    uint32_t nsets;                  /* sets, one action each; only the last has `skip` unwritten */
    int submits;
    int push; /* 1: vkCmdPushDescriptorSetKHR, 2: with a template */
    int sized; /* 1: the shaders declare data[8] (desc_sized.*); 2: data[N], N specialized to
                  layout_count (desc_spec.*); 3: desc_instance.vert, an indexed draw of 4 instances;
                  4: desc_loop.comp, data[8] read in a loop;
                  5: data[2] (desc_small.*);
                  6: desc_nonuniform.vert, vkCmdDraw of 5 instances */
} test_case;

static const test_case cases[] = {
    {"clean", 8, 4, 4, UINT32_MAX, UINT32_MAX, 1, 1, 1, 0, 0},
    {"runtime_oob", 4, 0, 4, UINT32_MAX, UINT32_MAX, 5, 1, 1, 0, 0},
    {"runtime_oob_unwritten", 4, 0, 4, 3, UINT32_MAX, 5, 1, 1, 0, 0},
    {"runtime_oob_destroyed", 4, 0, 4, UINT32_MAX, 3, 5, 1, 1, 0, 0},
    {"variable_count", 16, 6, 6, UINT32_MAX, UINT32_MAX, 6, 1, 1, 0, 0},
    {"uninitialized", 8, 4, 4, 2, UINT32_MAX, 2, 1, 1, 0, 0},
    {"destroyed", 8, 4, 4, UINT32_MAX, 3, 3, 1, 1, 0, 0},
    {"many_sets", 8, 4, 4, 2, UINT32_MAX, 2, 3, 1, 0, 0},
    {"growth", 20000, 20000, 20000, 19999, UINT32_MAX, 19999, 1, 2, 0, 0},
    {"push", 8, 0, 4, 2, UINT32_MAX, 2, 1, 1, 1, 0},
    {"push_template", 8, 0, 4, 2, UINT32_MAX, 2, 1, 1, 2, 0},
    {"push_clean", 8, 0, 4, UINT32_MAX, UINT32_MAX, 1, 1, 1, 1, 0},
    {"sized_clean", 8, 0, 4, UINT32_MAX, UINT32_MAX, 1, 1, 1, 0, 1},
    {"sized_uninitialized", 8, 0, 4, 2, UINT32_MAX, 2, 1, 1, 0, 1},
    {"sized_destroyed", 8, 0, 4, UINT32_MAX, 3, 3, 1, 1, 0, 1},
    {"sized_variable", 8, 4, 4, UINT32_MAX, UINT32_MAX, 5, 1, 1, 0, 1},
    {"instance_oob", 3, 0, 3, UINT32_MAX, UINT32_MAX, 0, 1, 1, 0, 3},
    {"instance_nonuniform", 3, 0, 3, UINT32_MAX, UINT32_MAX, 3, 1, 1, 0, 6},
    {"spec_oob", 4, 0, 4, UINT32_MAX, UINT32_MAX, 5, 1, 1, 0, 2},
    {"spec_clean", 4, 0, 4, UINT32_MAX, UINT32_MAX, 3, 1, 1, 0, 2},
    {"loop_clean", 8, 0, 4, UINT32_MAX, UINT32_MAX, 1, 1, 1, 0, 4},
    {"loop_full", 8, 0, 8, UINT32_MAX, UINT32_MAX, 7, 1, 1, 0, 4},
    {"loop_uninitialized", 8, 0, 4, 2, UINT32_MAX, 2, 1, 1, 0, 4},
    {"loop_destroyed", 8, 0, 4, UINT32_MAX, 3, 3, 1, 1, 0, 4},
    {"small_oob", 4, 0, 4, UINT32_MAX, UINT32_MAX, 3, 1, 1, 0, 5},
};

/* make_writes fills w with the writes of set `set`: binding 0 (the result,
 * infos[0]) and binding 1 in runs of written elements (infos[1 + i]),
 * leaving out element `skip`; returns their number. */
static uint32_t make_writes(VkWriteDescriptorSet *w, VkDescriptorSet set, const VkDescriptorBufferInfo *infos,
                            uint32_t written, uint32_t skip)
{
    uint32_t n = 0;
    w[n++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                    .dstBinding = 0, .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = infos};
    uint32_t start = 0;
    for (uint32_t i = 0; i <= written; i++) {
        if (i == written || i == skip) {
            if (i > start)
                w[n++] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set,
                                                .dstBinding = 1, .dstArrayElement = start,
                                                .descriptorCount = i - start,
                                                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                .pBufferInfo = infos + 1 + start};
            start = i + 1;
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    const char *dir = ".";
    const char *kase = "clean";
    int stage = CA_COMPUTE;
    if (ca_args(argc, argv, &dir, &kase, &stage))
        return 2;
    const test_case *tc = NULL;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        if (!strcmp(cases[i].name, kase))
            tc = &cases[i];
    if (!tc) {
        fprintf(stderr, "descapp: unknown case %s\n", kase);
        return 2;
    }

    capp_create_instance(&ca, NULL);
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        .descriptorIndexing = VK_TRUE,
        .runtimeDescriptorArray = VK_TRUE,
        .descriptorBindingPartiallyBound = VK_TRUE,
        .descriptorBindingVariableDescriptorCount = VK_TRUE,
        .shaderStorageBufferArrayNonUniformIndexing = VK_TRUE,
        .shaderSampledImageArrayNonUniformIndexing = VK_TRUE,
    };
    const char *dev_exts[] = {VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
    ca_create_stage_device(VK_FALSE, &f12, dev_exts, tc->push ? 1 : 0);

    /* Buffers: result, and one per element (v[0] = 100 + i). */
    capp_buffer result = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    capp_buffer data[NBUF];
    for (uint32_t i = 0; i < NBUF; i++) {
        data[i] = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        ((uint32_t *)data[i].map)[0] = 100 + i;
    }

    /* The set layout: binding 0 the result, binding 1 the runtime array. */
    VkShaderStageFlags stages = VK_SHADER_STAGE_ALL;
    VkDescriptorSetLayoutBinding lb[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1, .stageFlags = stages},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = tc->layout_count,
         .stageFlags = stages},
    };
    VkDescriptorBindingFlags bflags[2] = {
        0, VK_DESCRIPTOR_BINDING_PARTIALLY_BOUND_BIT |
               (tc->variable ? VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT : 0)};
    VkDescriptorSetLayoutBindingFlagsCreateInfo bfci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, .bindingCount = 2,
        .pBindingFlags = bflags};
    VkDescriptorSetLayoutCreateInfo dslci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .pNext = &bfci,
        .flags = tc->push ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0, .bindingCount = 2,
        .pBindings = lb};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(ca.dev, &dslci, NULL, &dsl));
    uint32_t per_set = 1 + (tc->variable ? tc->variable : tc->layout_count);
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, per_set * tc->nsets};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                       .maxSets = tc->nsets, .poolSizeCount = 1, .pPoolSizes = &ps};
    VkDescriptorPool dpool = VK_NULL_HANDLE;
    if (!tc->push)
        CHECK(vkCreateDescriptorPool(ca.dev, &dpci, NULL, &dpool));
    VkDescriptorSet sets[3] = {0};
    uint32_t nelems = tc->variable ? tc->variable : tc->layout_count;
    VkDescriptorBufferInfo *infos = calloc(1 + nelems, sizeof *infos);
    VkWriteDescriptorSet *writes = calloc(2 + nelems, sizeof *writes);
    infos[0] = (VkDescriptorBufferInfo){result.buf, 0, VK_WHOLE_SIZE};
    for (uint32_t i = 0; i < tc->written && i < nelems; i++)
        infos[1 + i] = (VkDescriptorBufferInfo){data[i < NBUF ? i : 0].buf, 0, VK_WHOLE_SIZE};
    uint32_t npush = 0;
    for (uint32_t s = 0; s < tc->nsets; s++) {
        uint32_t skip = s + 1 == tc->nsets ? tc->skip : UINT32_MAX;
        if (tc->push) {
            npush = make_writes(writes, VK_NULL_HANDLE, infos, tc->written, skip);
            break;
        }
        VkDescriptorSetVariableDescriptorCountAllocateInfo vc = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO,
            .descriptorSetCount = 1, .pDescriptorCounts = &tc->variable};
        VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                            .pNext = tc->variable ? &vc : NULL, .descriptorPool = dpool,
                                            .descriptorSetCount = 1, .pSetLayouts = &dsl};
        CHECK(vkAllocateDescriptorSets(ca.dev, &dsai, &sets[s]));
        uint32_t n = make_writes(writes, sets[s], infos, tc->written, skip);
        vkUpdateDescriptorSets(ca.dev, n, writes, 0, NULL);
    }
    if (!tc->push)
        free(infos); /* pushes read it while recording */
    if (tc->destroy != UINT32_MAX) {
        /* The memory stays allocated: only the buffer is gone. */
        vkDestroyBuffer(ca.dev, data[tc->destroy].buf, NULL);
        data[tc->destroy].buf = VK_NULL_HANDLE;
    }

    VkPipelineLayout layout = ca_pipeline_layout(dsl, stages, 4);
    PFN_vkCmdPushDescriptorSetKHR push =
        (PFN_vkCmdPushDescriptorSetKHR)vkGetDeviceProcAddr(ca.dev, "vkCmdPushDescriptorSetKHR");
    PFN_vkCmdPushDescriptorSetWithTemplateKHR push_tmpl =
        (PFN_vkCmdPushDescriptorSetWithTemplateKHR)vkGetDeviceProcAddr(ca.dev, "vkCmdPushDescriptorSetWithTemplateKHR");
    VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
    if (tc->push == 2) {
        /* One entry per write, reading infos. */
        VkDescriptorUpdateTemplateEntry *ent = calloc(npush, sizeof *ent);
        for (uint32_t i = 0; i < npush; i++)
            ent[i] = (VkDescriptorUpdateTemplateEntry){
                .dstBinding = writes[i].dstBinding, .dstArrayElement = writes[i].dstArrayElement,
                .descriptorCount = writes[i].descriptorCount, .descriptorType = writes[i].descriptorType,
                .offset = (size_t)(writes[i].pBufferInfo - infos) * sizeof *infos, .stride = sizeof *infos};
        VkDescriptorUpdateTemplateCreateInfo tci = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO, .descriptorUpdateEntryCount = npush,
            .pDescriptorUpdateEntries = ent, .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
            .pipelineBindPoint = stage == CA_COMPUTE ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS,
            .pipelineLayout = layout, .set = 0};
        CHECK(vkCreateDescriptorUpdateTemplate(ca.dev, &tci, NULL, &tmpl));
        free(ent);
    }
    capp_image t;
    VkSpecializationMapEntry spec_entry = {.constantID = 0, .offset = 0, .size = sizeof(uint32_t)};
    VkSpecializationInfo spec = {.mapEntryCount = 1, .pMapEntries = &spec_entry, .dataSize = sizeof(uint32_t),
                                 .pData = &tc->layout_count};
    if (((tc->sized == 3 || tc->sized == 6) && stage != CA_VERTEX) || (tc->sized == 4 && stage != CA_COMPUTE)) {
        fprintf(stderr, "descapp: %s needs --stage %s\n", tc->name, tc->sized == 4 ? "compute" : "vertex");
        return 2;
    }
    static const char *const prefixes[] = {"desc", "desc_sized", "desc_spec", "desc_instance", "desc_loop", "desc_small",
                                             "desc_nonuniform"};
    const char *prefix = prefixes[tc->sized];
    VkPipeline pipe = ca_stage_pipeline_spec(stage, dir, prefix, "desc_plain", layout, &t, tc->sized == 2 ? &spec : NULL);

    capp_buffer indices = capp_buffer_create(&ca, 16, VK_BUFFER_USAGE_INDEX_BUFFER_BIT); /* index 0 */

    VkCommandBuffer cmd;
    VkCommandPool pool = ca_command_buffers(VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT, 1, &cmd);
    ca_name_cmd_pipeline(cmd, "desc-cmd", pipe, "desc-pipeline");

    uint32_t index = tc->index;
    for (int sub = 1; sub <= tc->submits; sub++) {
        capp_begin(cmd, 0);
        VkPipelineBindPoint bp = stage == CA_COMPUTE ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
        if (stage != CA_COMPUTE)
            capp_begin_rendering(cmd, &t, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        vkCmdBindPipeline(cmd, bp, pipe);
        vkCmdPushConstants(cmd, layout, stages, 0, sizeof index, &index);
        for (uint32_t s = 0; s < tc->nsets; s++) {
            if (tc->push == 1)
                push(cmd, bp, layout, 0, npush, writes);
            else if (tc->push == 2)
                push_tmpl(cmd, tmpl, layout, 0, infos);
            else
                vkCmdBindDescriptorSets(cmd, bp, layout, 0, 1, &sets[s], 0, NULL);
            if (stage == CA_COMPUTE) {
                if (s > 0) {
                    /* Every action writes result[0]: the last one's value must
                     * be the one printed (a GPU runs dispatches with no barrier
                     * between them in any order: the H200 did). */
                    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT};
                    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0,
                                         1, &mb, 0, NULL, 0, NULL);
                }
                vkCmdDispatch(cmd, 1, 1, 1);
            } else if (tc->sized == 3) {
                vkCmdBindIndexBuffer(cmd, indices.buf, 0, VK_INDEX_TYPE_UINT16);
                vkCmdDrawIndexed(cmd, 1, 4, 0, 0, 0);
            } else if (tc->sized == 6)
                vkCmdDraw(cmd, 1, 5, 0, 0);
            else
                vkCmdDraw(cmd, 1, 1, 0, 0);
        }
        if (stage != CA_COMPUTE)
            vkCmdEndRendering(cmd);
        CHECK(vkEndCommandBuffer(cmd));
        ca_submit_wait(cmd);
        if (tc->submits > 1)
            printf("submit=%d\n", sub);
    }
    printf("value=%u\n", ((uint32_t *)result.map)[0]);
    fflush(stdout);
    ca_teardown(pipe, layout, pool, dpool, VK_NULL_HANDLE, &t);
    if (tmpl)
        vkDestroyDescriptorUpdateTemplate(ca.dev, tmpl, NULL);
    if (tc->push)
        free(infos);
    free(writes);
    vkDestroyDescriptorSetLayout(ca.dev, dsl, NULL);
    for (uint32_t i = 0; i < NBUF; i++)
        capp_buffer_destroy(&ca, &data[i]);
    capp_buffer_destroy(&ca, &indices);
    capp_buffer_destroy(&ca, &result);
    capp_destroy(&ca);
    return 0;
}
