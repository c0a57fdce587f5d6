/*
 * trustapp: the test app of the stream and robustness tests (e2e/trust_test.go),
 * on internal/capp. Its compute shader (oob.comp, 4 invocations) writes
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
 *            every submit returned; --rename 1 names each command buffer
 *            anew before each submit ("thread-I frame S", as engines name
 *            their objects per frame)
 *   crash    --submits N then, after the last fence wait, --how segv|abort
 *   print    one submit, then --lines N lines on stdout, --interval-ms M
 *            apart; --done FILE is created just before a normal exit
 *   names    one submit of a command buffer named --name S (C escapes
 *            \e, \a and \xHH are read), pipeline named the same
 *   fork     one submit of a command buffer named "parent", then a child
 *            process (fork and exec of this app) runs --mode names with
 *            --child-spv FILE and the name "child"; prints child=STATUS
 *   bad      vkCreateShaderModule of FILE with codeSize --size-delta D
 *            bytes off its size (D may be negative), then a pipeline and
 *            one submit when creation succeeds
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capp.h"

const char capp_app_name[] = "trustapp";

static capp vk;
static VkDescriptorSetLayout dsl;
static VkDescriptorSet set;
static VkPipelineLayout layout;
static VkPipeline pipeline;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static int rename_each;

/* setup makes the instance, the device, two storage buffers in set 0 and
 * the pipeline layout (set 0, a 4-byte push constant). */
static void setup(void)
{
    capp_create_instance(&vk, &(capp_instance_info){.app_name = "trustapp", .api_version = VK_API_VERSION_1_2});
    capp_create_device(&vk, &(capp_device_info){.queue_flags = VK_QUEUE_COMPUTE_BIT});
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    VkDescriptorPool pool;
    set = capp_single_set(&vk, &b, 1, &dsl, &pool);
    VkDescriptorBufferInfo infos[2];
    for (int i = 0; i < 2; i++) {
        capp_buffer buf = capp_buffer_create(&vk, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        infos[i] = (VkDescriptorBufferInfo){buf.buf, 0, VK_WHOLE_SIZE};
    }
    capp_write_buffers(&vk, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, infos);
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    layout = capp_pipeline_layout(&vk, 1, &dsl, &pcr);
}

/* make_pipeline creates the compute pipeline from code (size bytes, passed
 * as codeSize, right or not) and prints each VkResult; it returns 0 when
 * the module or the pipeline fails. */
static int make_pipeline(const void *code, size_t size, const char *pipeline_name)
{
    VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                     .pCode = code};
    VkShaderModule sm;
    VkResult r = vkCreateShaderModule(vk.dev, &smci, NULL, &sm);
    printf("create_shader_module=%d\n", (int)r);
    if (r != VK_SUCCESS)
        return 0;
    VkComputePipelineCreateInfo cpci = {
        .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
        .stage = capp_stage(VK_SHADER_STAGE_COMPUTE_BIT, sm, NULL),
        .layout = layout,
    };
    r = vkCreateComputePipelines(vk.dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline);
    printf("create_pipeline=%d\n", (int)r);
    vkDestroyShaderModule(vk.dev, sm, NULL);
    if (r != VK_SUCCESS)
        return 0;
    if (pipeline_name)
        capp_name(&vk, VK_OBJECT_TYPE_PIPELINE, capp_handle(pipeline), pipeline_name);
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
    VkCommandPool pool = capp_command_pool(&vk, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
    char n[32];
    snprintf(n, sizeof n, "thread-%u", w->index);
    VkCommandBuffer cb = capp_command_buffer(&vk, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, w->name ? w->name : n);
    VkFence f = capp_fence(&vk);
    uint32_t idx = 2 + w->index;
    for (uint32_t s = 0; s < w->submits; s++) {
        if (rename_each) {
            char fn[48];
            snprintf(fn, sizeof fn, "thread-%u frame %u", w->index, s);
            capp_name(&vk, VK_OBJECT_TYPE_COMMAND_BUFFER, capp_handle(cb), fn);
        }
        capp_begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
        vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &idx);
        vkCmdDispatch(cb, 1, 1, 1);
        CHECK(vkEndCommandBuffer(cb));
        VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
        pthread_mutex_lock(&queue_lock); /* the queue is externally synchronized */
        VkResult r = vkQueueSubmit(vk.queue, 1, &si, f);
        pthread_mutex_unlock(&queue_lock);
        CHECK(r);
        CHECK(vkWaitForFences(vk.dev, 1, &f, VK_TRUE, UINT64_MAX));
        CHECK(vkResetFences(vk.dev, 1, &f));
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
    const char *spv = NULL, *mode = "load", *how = "segv", *done = NULL, *child_spv = NULL;
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
        else if (!strcmp(k, "--rename"))
            rename_each = atoi(v);
        else if (!strcmp(k, "--child-spv"))
            child_spv = v;
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
    void *code = capp_read_file(spv, &size);
    if (!make_pipeline(code, (size_t)((long)size + delta), cbname)) {
        printf("trustapp: done (no pipeline)\n");
        return 0;
    }
    if (!strcmp(mode, "load")) {
        pthread_t th[64];
        worker w[64];
        for (uint32_t i = 0; i < threads; i++) {
            w[i] = (worker){i, submits, NULL};
            if (pthread_create(&th[i], NULL, work, &w[i]) != 0)
                capp_die("pthread_create failed");
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
    } else if (!strcmp(mode, "fork")) {
        worker w = {0, 1, "parent"};
        work(&w);
        vkDeviceWaitIdle(vk.dev);
        pid_t pid = fork();
        if (pid < 0)
            capp_die("fork failed");
        if (pid == 0) {
            execl(argv[0], argv[0], "--spv", child_spv ? child_spv : spv, "--mode", "names", "--name", "child",
                  (char *)NULL);
            _exit(127);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        printf("child=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    } else if (!strcmp(mode, "names") || !strcmp(mode, "bad")) {
        worker w = {0, 1, cbname};
        work(&w);
    } else {
        fprintf(stderr, "trustapp: unknown mode %s\n", mode);
        return 2;
    }
    vkDeviceWaitIdle(vk.dev);
    vkDestroyDevice(vk.dev, NULL);
    vkDestroyInstance(vk.instance, NULL);
    printf("trustapp: done\n");
    return 0;
}
