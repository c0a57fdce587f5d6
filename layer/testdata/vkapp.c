/*
 * vkapp: the layer tests' Vulkan app (C: never a second Go runtime in the
 * app, DESIGN decision 2). It runs examples/demo/shaders/oob_compute.comp,
 * whose SPIR-V it reads from a file, with one workgroup of 4 invocations
 * that write through outs[idx], an array of 2 storage buffers: idx >= 2 is
 * out of bounds.
 *
 *   vkapp --shader FILE [--index N] [--submits N] [--secondary] [--submit2]
 *         [--conflict] [--reserve-features]
 *
 *   --index N           descriptor index (default 1: in bounds)
 *   --submits N         submit the same command buffer N times (default 1)
 *   --secondary         record the dispatch in a secondary command buffer
 *   --submit2           submit with vkQueueSubmit2
 *   --conflict          the pipeline layout uses every descriptor set the
 *                       app sees (set 0 real, the others empty)
 *   --reserve-features  ask for the reserved slot with VkValidationFeaturesEXT
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

#include <vulkan/vulkan.h>

#define CHECK(call)                                                                 \
    do {                                                                            \
        VkResult r_ = (call);                                                       \
        if (r_ != VK_SUCCESS) {                                                     \
            fprintf(stderr, "vkapp: %s failed: %d\n", #call, (int)r_);              \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static uint32_t *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "vkapp: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *buf = malloc((size_t)n);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "vkapp: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static uint32_t find_memory(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want)
{
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            return i;
    fprintf(stderr, "vkapp: no memory type\n");
    exit(1);
}

int main(int argc, char **argv)
{
    const char *shader = NULL;
    uint32_t idx = 1, submits = 1;
    int secondary = 0, submit2 = 0, conflict = 0, reserve_features = 0, exit_early = 0;
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
    uint32_t next = 0;
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &next, NULL));
    VkExtensionProperties *exts = calloc(next, sizeof *exts);
    CHECK(vkEnumerateInstanceExtensionProperties(NULL, &next, exts));
    int have_utils = 0;
    for (uint32_t i = 0; i < next; i++)
        if (!strcmp(exts[i].extensionName, VK_EXT_DEBUG_UTILS_EXTENSION_NAME))
            have_utils = 1;
    free(exts);
    const char *inst_exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkValidationFeatureEnableEXT enables[] = {VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT,
                                           VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_RESERVE_BINDING_SLOT_EXT};
    VkValidationFeaturesEXT vf = {
        .sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT,
        .enabledValidationFeatureCount = 2,
        .pEnabledValidationFeatures = enables,
    };
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "vkapp",
        .apiVersion = VK_API_VERSION_1_3,
    };
    VkInstanceCreateInfo ici = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .pNext = reserve_features ? &vf : NULL,
        .pApplicationInfo = &app,
        .enabledExtensionCount = have_utils ? 1 : 0,
        .ppEnabledExtensionNames = inst_exts,
    };
    VkInstance instance;
    CHECK(vkCreateInstance(&ici, NULL, &instance));
    PFN_vkSetDebugUtilsObjectNameEXT set_name = NULL;
    PFN_vkCmdBeginDebugUtilsLabelEXT begin_label = NULL;
    PFN_vkCmdEndDebugUtilsLabelEXT end_label = NULL;
    if (have_utils) {
        set_name = (PFN_vkSetDebugUtilsObjectNameEXT)vkGetInstanceProcAddr(instance, "vkSetDebugUtilsObjectNameEXT");
        begin_label = (PFN_vkCmdBeginDebugUtilsLabelEXT)vkGetInstanceProcAddr(instance, "vkCmdBeginDebugUtilsLabelEXT");
        end_label = (PFN_vkCmdEndDebugUtilsLabelEXT)vkGetInstanceProcAddr(instance, "vkCmdEndDebugUtilsLabelEXT");
    }

    uint32_t npd = 1;
    VkPhysicalDevice pd;
    VkResult er = vkEnumeratePhysicalDevices(instance, &npd, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0) {
        fprintf(stderr, "vkapp: no physical device\n");
        return 1;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    printf("maxBoundDescriptorSets=%u\n", props.limits.maxBoundDescriptorSets);
    VkPhysicalDeviceProperties2 props2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
    vkGetPhysicalDeviceProperties2(pd, &props2);
    printf("maxBoundDescriptorSets2=%u\n", props2.properties.limits.maxBoundDescriptorSets);

    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties *qf = calloc(nq, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && family == UINT32_MAX; i++)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            family = i;
    free(qf);
    if (family == UINT32_MAX) {
        fprintf(stderr, "vkapp: no compute queue\n");
        return 1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = family,
        .queueCount = 1,
        .pQueuePriorities = &prio,
    };
    /* Features through VkPhysicalDeviceFeatures2 behind another structure,
     * so the layer's feature patching copies a chain. */
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
    VkPhysicalDeviceVulkan13Features f13 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        .pNext = &f2,
        .synchronization2 = submit2 ? VK_TRUE : VK_FALSE,
    };
    VkDeviceCreateInfo dci = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &f13,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &qci,
    };
    VkDevice dev;
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
    if (f2.features.fragmentStoresAndAtomics || f2.pNext != NULL || f13.pNext != &f2) {
        fprintf(stderr, "vkapp: the layer wrote into the app's create info\n");
        return 1;
    }
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);

    /* Two storage buffers of 16 uints, host visible. */
    VkBuffer bufs[2];
    VkDeviceMemory mems[2];
    for (int i = 0; i < 2; i++) {
        VkBufferCreateInfo bci = {
            .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
            .size = 64,
            .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
        };
        CHECK(vkCreateBuffer(dev, &bci, NULL, &bufs[i]));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(dev, bufs[i], &req);
        VkMemoryAllocateInfo mai = {
            .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
            .allocationSize = req.size,
            .memoryTypeIndex = find_memory(pd, req.memoryTypeBits,
                                           VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT),
        };
        CHECK(vkAllocateMemory(dev, &mai, NULL, &mems[i]));
        CHECK(vkBindBufferMemory(dev, bufs[i], mems[i], 0));
    }

    VkDescriptorSetLayoutBinding b = {
        .binding = 0,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .descriptorCount = 2,
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
    };
    VkDescriptorSetLayoutCreateInfo dlci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
        .bindingCount = 1,
        .pBindings = &b,
    };
    VkDescriptorSetLayout dsl, empty;
    CHECK(vkCreateDescriptorSetLayout(dev, &dlci, NULL, &dsl));
    VkDescriptorSetLayoutCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    CHECK(vkCreateDescriptorSetLayout(dev, &eci, NULL, &empty));

    VkDescriptorSetLayout sets[64];
    uint32_t nsets = 1;
    sets[0] = dsl;
    if (conflict) {
        nsets = props.limits.maxBoundDescriptorSets < 64 ? props.limits.maxBoundDescriptorSets : 64;
        for (uint32_t i = 1; i < nsets; i++)
            sets[i] = empty;
    }
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo plci = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .setLayoutCount = nsets,
        .pSetLayouts = sets,
        .pushConstantRangeCount = 1,
        .pPushConstantRanges = &pcr,
    };
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
    printf("layout=0x%llx\n", (unsigned long long)(uintptr_t)layout);

    size_t code_size;
    uint32_t *code = read_file(shader, &code_size);
    VkShaderModuleCreateInfo smci = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
        .codeSize = code_size,
        .pCode = code,
    };
    VkShaderModule module;
    CHECK(vkCreateShaderModule(dev, &smci, NULL, &module));
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
        },
        .layout = layout,
    };
    VkPipeline pipeline;
    CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline));
    /* Seed 000: the app may destroy the module before using the pipeline. */
    vkDestroyShaderModule(dev, module, NULL);
    free(code);

    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpci = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
        .maxSets = 1,
        .poolSizeCount = 1,
        .pPoolSizes = &ps,
    };
    VkDescriptorPool dpool;
    CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dpool));
    VkDescriptorSetAllocateInfo dsai = {
        .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
        .descriptorPool = dpool,
        .descriptorSetCount = 1,
        .pSetLayouts = &dsl,
    };
    VkDescriptorSet set;
    CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
    VkDescriptorBufferInfo dbi[2] = {{bufs[0], 0, VK_WHOLE_SIZE}, {bufs[1], 0, VK_WHOLE_SIZE}};
    VkWriteDescriptorSet w = {
        .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
        .dstSet = set,
        .dstBinding = 0,
        .descriptorCount = 2,
        .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
        .pBufferInfo = dbi,
    };
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);

    VkCommandPoolCreateInfo cpoci = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
        .queueFamilyIndex = family,
    };
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(dev, &cpoci, NULL, &pool));
    VkCommandBufferAllocateInfo cbai = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
        .commandPool = pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
        .commandBufferCount = 1,
    };
    VkCommandBuffer cb, sec = VK_NULL_HANDLE;
    CHECK(vkAllocateCommandBuffers(dev, &cbai, &cb));
    if (set_name) {
        VkDebugUtilsObjectNameInfoEXT ni = {
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
            .objectType = VK_OBJECT_TYPE_COMMAND_BUFFER,
            .objectHandle = (uint64_t)(uintptr_t)cb,
            .pObjectName = "compute-cmd",
        };
        CHECK(set_name(dev, &ni));
        ni.objectType = VK_OBJECT_TYPE_PIPELINE;
        ni.objectHandle = (uint64_t)(uintptr_t)pipeline;
        ni.pObjectName = "oob-pipeline";
        CHECK(set_name(dev, &ni));
    }
    VkCommandBuffer rec = cb;
    if (secondary) {
        cbai.level = VK_COMMAND_BUFFER_LEVEL_SECONDARY;
        CHECK(vkAllocateCommandBuffers(dev, &cbai, &sec));
        rec = sec;
        VkCommandBufferInheritanceInfo inh = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO};
        VkCommandBufferBeginInfo sbi = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
            .pInheritanceInfo = &inh,
        };
        CHECK(vkBeginCommandBuffer(sec, &sbi));
    } else {
        VkCommandBufferBeginInfo cbbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK(vkBeginCommandBuffer(cb, &cbbi));
    }
    if (begin_label) {
        VkDebugUtilsLabelEXT l = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT, .pLabelName = "compute-pass"};
        begin_label(rec, &l);
    }
    vkCmdBindPipeline(rec, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(rec, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(rec, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &idx);
    vkCmdDispatch(rec, 1, 1, 1);
    if (end_label)
        end_label(rec);
    if (secondary) {
        CHECK(vkEndCommandBuffer(sec));
        VkCommandBufferBeginInfo cbbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        CHECK(vkBeginCommandBuffer(cb, &cbbi));
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

    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence fence;
    CHECK(vkCreateFence(dev, &fci, NULL, &fence));
    for (uint32_t s = 0; s < submits; s++) {
        if (submit2) {
            VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = cb};
            VkSubmitInfo2 si2 = {
                .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                .commandBufferInfoCount = 1,
                .pCommandBufferInfos = &cbsi,
            };
            CHECK(vkQueueSubmit2(queue, 1, &si2, fence));
        } else {
            VkSubmitInfo si = {
                .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                .commandBufferCount = 1,
                .pCommandBuffers = &cb,
            };
            CHECK(vkQueueSubmit(queue, 1, &si, fence));
        }
        CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(dev, 1, &fence));
    }
    if (idx < 2) {
        uint32_t *p;
        CHECK(vkMapMemory(dev, mems[idx], 0, VK_WHOLE_SIZE, 0, (void **)&p));
        printf("values=%u %u %u %u\n", p[0], p[1], p[2], p[3]);
        vkUnmapMemory(dev, mems[idx]);
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
    for (int i = 0; i < 2; i++) {
        vkDestroyBuffer(dev, bufs[i], NULL);
        vkFreeMemory(dev, mems[i], NULL);
    }
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(instance, NULL);
    printf("vkapp: done\n");
    return 0;
}
