/*
 * pipetime: what a layer adds to shader-module and compute-pipeline
 * creation. It creates the module of a .spv file made from
 * gpuav/internal/largeshader (set 0: binding 0 an acceleration structure,
 * binding 1 four storage buffers; 8 bytes of push constants) and a compute
 * pipeline from it, N times, and prints the mean time of each call:
 *
 *   pipetime FILE.spv [N]
 *   -> "module_ms=0.123 pipeline_ms=45.6 n=10"
 *
 * Run it with no layer, under gpuav-dbg and under the Khronos layer with
 * GPU-AV (gpuav/testdata/pipetime/run.sh does all three).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vulkan/vulkan.h>

#define CHECK(call)                                                                 \
    do {                                                                            \
        VkResult r_ = (call);                                                       \
        if (r_ != VK_SUCCESS) {                                                     \
            fprintf(stderr, "pipetime: %s failed: %d\n", #call, (int)r_);           \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: pipetime FILE.spv [N]\n");
        return 2;
    }
    int n = argc > 2 ? atoi(argv[2]) : 10;
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        fprintf(stderr, "pipetime: cannot open %s\n", argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint32_t *code = malloc((size_t)size);
    if (!code || fread(code, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "pipetime: cannot read %s\n", argv[1]);
        return 1;
    }
    fclose(f);

    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .apiVersion = VK_API_VERSION_1_3};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app};
    VkInstance instance;
    CHECK(vkCreateInstance(&ici, NULL, &instance));
    uint32_t npd = 1;
    VkPhysicalDevice pd;
    VkResult er = vkEnumeratePhysicalDevices(instance, &npd, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0) {
        fprintf(stderr, "pipetime: no physical device\n");
        return 1;
    }
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueCount = 1,
                                   .pQueuePriorities = &prio};
    VkPhysicalDeviceRayQueryFeaturesKHR rqf = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_QUERY_FEATURES_KHR,
                                               .rayQuery = VK_TRUE};
    VkPhysicalDeviceAccelerationStructureFeaturesKHR asf = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR, .pNext = &rqf,
        .accelerationStructure = VK_TRUE};
    VkPhysicalDeviceVulkan12Features f12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .pNext = &asf, .bufferDeviceAddress = VK_TRUE};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12};
    const char *exts[] = {VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME,
                          VK_KHR_RAY_QUERY_EXTENSION_NAME};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci, .enabledExtensionCount = 3, .ppEnabledExtensionNames = exts};
    VkDevice dev;
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));

    VkDescriptorSetLayoutBinding binds[2] = {
        {.binding = 0, .descriptorType = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR, .descriptorCount = 1,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
        {.binding = 1, .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 4,
         .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT},
    };
    VkDescriptorSetLayoutCreateInfo dslci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                             .bindingCount = 2, .pBindings = binds};
    VkDescriptorSetLayout dsl;
    CHECK(vkCreateDescriptorSetLayout(dev, &dslci, NULL, &dsl));
    VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = 8};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr};
    VkPipelineLayout layout;
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));

    double module_ms = 0, pipeline_ms = 0;
    for (int i = 0; i < n; i++) {
        VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                         .codeSize = (size_t)size, .pCode = code};
        VkShaderModule sm;
        double t0 = now_ms();
        CHECK(vkCreateShaderModule(dev, &smci, NULL, &sm));
        double t1 = now_ms();
        VkComputePipelineCreateInfo cpci = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = sm, .pName = "main"},
            .layout = layout,
        };
        VkPipeline pipe;
        CHECK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipe));
        double t2 = now_ms();
        module_ms += t1 - t0;
        pipeline_ms += t2 - t1;
        vkDestroyPipeline(dev, pipe, NULL);
        vkDestroyShaderModule(dev, sm, NULL);
    }
    printf("module_ms=%.3f pipeline_ms=%.3f n=%d\n", module_ms / n, pipeline_ms / n, n);
    vkDestroyPipelineLayout(dev, layout, NULL);
    vkDestroyDescriptorSetLayout(dev, dsl, NULL);
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(instance, NULL);
    return 0;
}
