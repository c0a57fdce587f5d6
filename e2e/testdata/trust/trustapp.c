/*
 * trustapp: the test app of the stream and robustness tests (e2e/trust_test.go).
 * Self-contained C. Its compute shader (oob.comp, 4 invocations) writes
 * outs[idx].v[x] with outs an array of 2 storage buffers and idx a push
 * constant: every dispatch with idx >= 2 makes 4 records, one per
 * invocation.
 *
 *   trustapp --spv FILE [--mode MODE] [options]
 *
 * Modes:
 *   load     --threads T --submits N: T threads, each its own command
 *            buffer ("thread-I", idx 2 + I), re-recorded and submitted N
 *            times with its own fence (the queue under a lock): 4*T*N
 *            records, printed as "made=R"; --done FILE is created once
 *            every submit returned
 *   crash    --submits N then, after the last fence wait, --how segv|abort
 *   print    one submit, then --lines N lines on stdout, --interval-ms M
 *            apart; --done FILE is created just before a normal exit
 *   names    one submit of a command buffer named --name S (C escapes
 *            \e, \a and \xHH are read), pipeline named the same
 *   bad      vkCreateShaderModule of FILE with codeSize --size-delta D
 *            bytes off its size (D may be negative), then a pipeline and
 *            one submit when creation succeeds
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vulkan/vulkan.h>

#define CHECK(call)                                                                 \
    do {                                                                            \
        VkResult r_ = (call);                                                       \
        if (r_ != VK_SUCCESS) {                                                     \
            fprintf(stderr, "trustapp: %s failed: %d\n", #call, (int)r_);           \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

static VkInstance instance;
static VkPhysicalDevice pd;
static VkDevice dev;
static VkQueue queue;
static uint32_t family;
static VkDescriptorSetLayout dsl;
static VkDescriptorSet set;
static VkPipelineLayout layout;
static VkPipeline pipeline;
static VkBuffer bufs[2];
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static PFN_vkSetDebugUtilsObjectNameEXT set_name;

static void name(VkObjectType type, uint64_t handle, const char *n)
{
    if (!set_name)
        return;
    VkDebugUtilsObjectNameInfoEXT ni = {.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
                                        .objectType = type, .objectHandle = handle, .pObjectName = n};
    set_name(dev, &ni);
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "trustapp: cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = calloc(1, (size_t)n + 8);
    if (fread(p, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "trustapp: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

static void setup(void)
{
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "trustapp",
                             .apiVersion = VK_API_VERSION_1_2};
    const char *exts[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
    VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
                                .enabledExtensionCount = 1, .ppEnabledExtensionNames = exts};
    if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS) {
        ici.enabledExtensionCount = 0;
        CHECK(vkCreateInstance(&ici, NULL, &instance));
    }
    uint32_t n = 1;
    VkResult er = vkEnumeratePhysicalDevices(instance, &n, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || n == 0) {
        fprintf(stderr, "trustapp: no physical device\n");
        exit(1);
    }
    uint32_t nq = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, NULL);
    VkQueueFamilyProperties qf[16];
    nq = nq > 16 ? 16 : nq;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    family = UINT32_MAX;
    for (uint32_t i = 0; i < nq && family == UINT32_MAX; i++)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            family = i;
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = family,
                                   .queueCount = 1, .pQueuePriorities = &prio};
    VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .queueCreateInfoCount = 1,
                              .pQueueCreateInfos = &qci};
    CHECK(vkCreateDevice(pd, &dci, NULL, &dev));
    vkGetDeviceQueue(dev, family, 0, &queue);
    set_name = (PFN_vkSetDebugUtilsObjectNameEXT)vkGetDeviceProcAddr(dev, "vkSetDebugUtilsObjectNameEXT");

    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    VkDescriptorBufferInfo infos[2];
    for (int i = 0; i < 2; i++) {
        VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = 64,
                                  .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT};
        CHECK(vkCreateBuffer(dev, &bci, NULL, &bufs[i]));
        VkMemoryRequirements mr;
        vkGetBufferMemoryRequirements(dev, bufs[i], &mr);
        uint32_t type = 0;
        while (type < mp.memoryTypeCount && !(mr.memoryTypeBits & (1u << type)))
            type++;
        VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = mr.size,
                                    .memoryTypeIndex = type};
        VkDeviceMemory mem;
        CHECK(vkAllocateMemory(dev, &mai, NULL, &mem));
        CHECK(vkBindBufferMemory(dev, bufs[i], mem, 0));
        infos[i] = (VkDescriptorBufferInfo){bufs[i], 0, VK_WHOLE_SIZE};
    }
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorSetLayoutCreateInfo dlci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .bindingCount = 1, .pBindings = &b};
    CHECK(vkCreateDescriptorSetLayout(dev, &dlci, NULL, &dsl));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
    VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 1,
                                       .poolSizeCount = 1, .pPoolSizes = &ps};
    VkDescriptorPool dp;
    CHECK(vkCreateDescriptorPool(dev, &dpci, NULL, &dp));
    VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = dp,
                                        .descriptorSetCount = 1, .pSetLayouts = &dsl};
    CHECK(vkAllocateDescriptorSets(dev, &dsai, &set));
    VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .descriptorCount = 2,
                              .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .pBufferInfo = infos};
    vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                       .pSetLayouts = &dsl, .pushConstantRangeCount = 1, .pPushConstantRanges = &pcr};
    CHECK(vkCreatePipelineLayout(dev, &plci, NULL, &layout));
}

/* make_pipeline creates the compute pipeline from code (size bytes, passed
 * as codeSize); it returns 0 when the module or the pipeline fails. */
static int make_pipeline(const void *code, size_t size, const char *pipeline_name)
{
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                     .pCode = code};
    VkShaderModule sm;
    VkResult r = vkCreateShaderModule(dev, &smci, NULL, &sm);
    printf("create_shader_module=%d\n", (int)r);
    if (r != VK_SUCCESS)
        return 0;
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                  .module = sm, .pName = "main"},
        .layout = layout,
    };
    r = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline);
    printf("create_pipeline=%d\n", (int)r);
    vkDestroyShaderModule(dev, sm, NULL);
    if (r != VK_SUCCESS)
        return 0;
    if (pipeline_name)
        name(VK_OBJECT_TYPE_PIPELINE, (uint64_t)pipeline, pipeline_name);
    return 1;
}

/* worker is one thread of --mode load (and the single submitter of the
 * other modes). */
typedef struct worker {
    uint32_t index, submits;
    const char *name;
} worker;

static void *work(void *p)
{
    worker *w = p;
    VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                    .queueFamilyIndex = family};
    VkCommandPool pool;
    CHECK(vkCreateCommandPool(dev, &cpci, NULL, &pool));
    VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1};
    VkCommandBuffer cb;
    CHECK(vkAllocateCommandBuffers(dev, &cbai, &cb));
    char n[32];
    snprintf(n, sizeof n, "thread-%u", w->index);
    name(VK_OBJECT_TYPE_COMMAND_BUFFER, (uint64_t)(uintptr_t)cb, w->name ? w->name : n);
    VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkFence f;
    CHECK(vkCreateFence(dev, &fci, NULL, &f));
    uint32_t idx = 2 + w->index;
    for (uint32_t s = 0; s < w->submits; s++) {
        VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        CHECK(vkBeginCommandBuffer(cb, &bi));
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &idx);
        vkCmdDispatch(cb, 1, 1, 1);
        CHECK(vkEndCommandBuffer(cb));
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
        pthread_mutex_lock(&queue_lock); /* the queue is externally synchronized */
        VkResult r = vkQueueSubmit(queue, 1, &si, f);
        pthread_mutex_unlock(&queue_lock);
        CHECK(r);
        CHECK(vkWaitForFences(dev, 1, &f, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(dev, 1, &f));
    }
    /* Pools and fences stay: no handle is reused while others run. */
    return NULL;
}

static void touch(const char *path)
{
    if (!path)
        return;
    FILE *f = fopen(path, "w");
    if (f)
        fclose(f);
}

/* unescape reads \e, \a, \\ and \xHH in s, in place. */
static char *unescape(char *s)
{
    char *o = s;
    for (char *p = s; *p; p++) {
        if (*p != '\\' || !p[1]) {
            *o++ = *p;
            continue;
        }
        p++;
        if (*p == 'e')
            *o++ = 0x1b;
        else if (*p == 'a')
            *o++ = 0x07;
        else if (*p == 'x' && p[1] && p[2]) {
            char hex[3] = {p[1], p[2], 0};
            *o++ = (char)strtol(hex, NULL, 16);
            p += 2;
        } else
            *o++ = *p;
    }
    *o = 0;
    return s;
}

int main(int argc, char **argv)
{
    const char *spv = NULL, *mode = "load", *how = "segv", *done = NULL;
    char *cbname = NULL;
    uint32_t threads = 8, submits = 1, lines = 0, interval = 0;
    long delta = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--spv"))
            spv = v;
        else if (!strcmp(k, "--mode"))
            mode = v;
        else if (!strcmp(k, "--threads"))
            threads = (uint32_t)atoi(v);
        else if (!strcmp(k, "--submits"))
            submits = (uint32_t)atoi(v);
        else if (!strcmp(k, "--how"))
            how = v;
        else if (!strcmp(k, "--done"))
            done = v;
        else if (!strcmp(k, "--lines"))
            lines = (uint32_t)atoi(v);
        else if (!strcmp(k, "--interval-ms"))
            interval = (uint32_t)atoi(v);
        else if (!strcmp(k, "--name"))
            cbname = unescape(argv[i + 1]);
        else if (!strcmp(k, "--size-delta"))
            delta = atol(v);
        else {
            fprintf(stderr, "trustapp: unknown argument %s\n", k);
            return 2;
        }
    }
    if (!spv || threads == 0 || threads > 64) {
        fprintf(stderr, "trustapp: --spv FILE is required (threads 1..64)\n");
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    setup();
    size_t size;
    void *code = read_file(spv, &size);
    if (!make_pipeline(code, (size_t)((long)size + delta), cbname)) {
        printf("trustapp: done (no pipeline)\n");
        return 0;
    }
    if (!strcmp(mode, "load")) {
        pthread_t th[64];
        worker w[64];
        for (uint32_t i = 0; i < threads; i++) {
            w[i] = (worker){i, submits, NULL};
            if (pthread_create(&th[i], NULL, work, &w[i]) != 0) {
                fprintf(stderr, "trustapp: pthread_create failed\n");
                return 1;
            }
        }
        for (uint32_t i = 0; i < threads; i++)
            pthread_join(th[i], NULL);
        printf("made=%u\n", 4 * threads * submits);
        touch(done);
    } else if (!strcmp(mode, "crash")) {
        worker w = {0, submits, NULL};
        work(&w);
        printf("made=%u\n", 4 * submits);
        if (!strcmp(how, "abort"))
            abort();
        raise(SIGSEGV);
    } else if (!strcmp(mode, "print")) {
        worker w = {0, 1, NULL};
        work(&w);
        for (uint32_t i = 0; i < lines; i++) {
            printf("line %u\n", i);
            struct timespec ts = {interval / 1000, (long)(interval % 1000) * 1000000L};
            nanosleep(&ts, NULL);
        }
        touch(done);
    } else if (!strcmp(mode, "names") || !strcmp(mode, "bad")) {
        worker w = {0, 1, cbname};
        work(&w);
    } else {
        fprintf(stderr, "trustapp: unknown mode %s\n", mode);
        return 2;
    }
    vkDeviceWaitIdle(dev);
    vkDestroyDevice(dev, NULL);
    vkDestroyInstance(instance, NULL);
    printf("trustapp: done\n");
    return 0;
}
