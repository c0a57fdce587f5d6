/*
 * hangapp: the test app of "never hang, never lose" (e2e/hang_test.go), on
 * internal/capp. Its shaders share one layout (set 0: an array of 2
 * storage buffers; a 4-byte push constant idx): oob.spv writes outs[idx]
 * (idx >= 2 is out of bounds: 4 records per dispatch), spin.spv runs a
 * proven 2^20-iteration loop per invocation (64 per workgroup), as long as
 * its workgroup count makes it.
 *
 *   hangapp --dir DIR [--mode MODE] [options]     (DIR holds the .spv files)
 *
 * Modes:
 *   oob      one submit of a command buffer named --name S (default
 *            "oob"), idx 2, waited for with a fence; --spv FILE instead of
 *            DIR/oob.spv
 *   fork     one waited submit of "parent"; then fork(), the child does
 *            --child exit|_exit|exec|vulkan (exit(1), _exit(1), exec of
 *            this app in mode oob with oob_child.spv and the name "child",
 *            or a Vulkan instance, device and submit of its own, then
 *            "forked: done" and _exit(0)); the parent waits at most 20 s for it (then kills
 *            it) and prints "child=STATUS ms=MS"; then one waited submit
 *            of "after"
 *   nofence  one submit of "nofence" with no fence (unless --oob 0), then,
 *            with --spin-seconds S, one submit of "spin" (oob, idx 2: 4
 *            records, then a spin of about S seconds) with no fence; --sleep-ms M (500), then exit(0): no
 *            wait, no vkDestroy*
 *   hang     one command buffer "hang-cb" with three dispatches, each in a
 *            label: "setup" (oob, idx 2: 4 records), "spin" (spin.spv for
 *            about --seconds S, 8 by default, measured first on a small
 *            grid) and "after" (oob, idx 3: 4 records), submitted with a
 *            fence waited for at most 120 s; prints "spin_groups=G",
 *            "wait=RESULT"
 *   lost     --submits N waited submits of "lost-N" (oob, idx 2), each
 *            printing "submit=RESULT wait=RESULT"; stops at the first
 *            error. With --fault 1 the device has bufferDeviceAddress,
 *            and two 4096-byte buffers with device addresses come first,
 *            "fault-live" then "fault-freed" (printing "live=0xA
 *            freed=0xB"); "fault-freed" is destroyed after the first
 *            submit's wait
 *
 * --messenger 1: a debug-utils messenger for warnings and errors, which
 * prints each message to stderr as it comes ("[vk error] ID: TEXT", the
 * layer's hang among them): what a test watches for while the app runs.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "capp.h"

const char capp_app_name[] = "hangapp";

static capp vk;
static VkDescriptorSetLayout dsl;
static VkDescriptorSet set;
static VkPipelineLayout layout;
static VkCommandPool pool;
static VkDescriptorPool dpool;
static capp_buffer bufs[2];
static VkPipeline pipelines[4];
static uint32_t npipelines;
static VkFence fences[4];
static uint32_t nfences;
static const char *dir = ".";
static int messenger;
static int with_bda; /* the device enables bufferDeviceAddress (lost --fault 1) */

static void setup(void)
{
    capp_instance_info ii = {.app_name = "hangapp", .api_version = VK_API_VERSION_1_2};
    if (messenger) {
        ii.messenger = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
        ii.messenger_types = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
    }
    capp_create_instance(&vk, &ii);
    VkPhysicalDeviceVulkan12Features v12 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
                                            .bufferDeviceAddress = VK_TRUE};
    capp_create_device(&vk, &(capp_device_info){.queue_flags = VK_QUEUE_COMPUTE_BIT, .next = with_bda ? &v12 : NULL});
    VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    set = capp_single_set(&vk, &b, 1, &dsl, &dpool);
    VkDescriptorBufferInfo infos[2];
    for (int i = 0; i < 2; i++) {
        bufs[i] = capp_buffer_create(&vk, 64, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
        infos[i] = (VkDescriptorBufferInfo){bufs[i].buf, 0, VK_WHOLE_SIZE};
    }
    capp_write_buffers(&vk, set, 0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2, infos);
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
    layout = capp_pipeline_layout(&vk, 1, &dsl, &pcr);
    pool = capp_command_pool(&vk, VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT);
}

static VkPipeline pipeline_of(const char *path)
{
    VkShaderModule m = capp_shader_file(&vk, path);
    VkPipeline p = capp_compute_pipeline(&vk, layout, m, 0, NULL);
    vkDestroyShaderModule(vk.dev, m, NULL);
    if (npipelines < 4)
        pipelines[npipelines++] = p;
    return p;
}

static VkPipeline pipeline_in_dir(const char *name)
{
    char path[4096];
    return pipeline_of(capp_path(path, sizeof path, dir, name));
}

/* record_dispatch records one dispatch of p with push constant idx, in a
 * label when label is not NULL. */
static void record_dispatch(VkCommandBuffer cb, VkPipeline p, uint32_t idx, uint32_t groups, const char *label)
{
    if (label)
        capp_label(&vk, cb, label);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &idx);
    vkCmdDispatch(cb, groups, 1, 1);
    if (label)
        capp_unlabel(&vk, cb);
}

/* submit_oob records a dispatch of p (idx 2) in a new command buffer
 * named name and submits it, with fence (VK_NULL_HANDLE: none). */
static VkResult submit_oob(VkPipeline p, const char *name, VkFence fence)
{
    VkCommandBuffer cb = capp_command_buffer(&vk, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, name);
    capp_begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    record_dispatch(cb, p, 2, 1, NULL);
    CHECK(vkEndCommandBuffer(cb));
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    return vkQueueSubmit(vk.queue, 1, &si, fence);
}

static VkFence fence(void)
{
    VkFence f = capp_fence(&vk);
    if (nfences < 4)
        fences[nfences++] = f;
    return f;
}

static void run_oob(VkPipeline p, const char *name)
{
    VkFence f = fence();
    CHECK(submit_oob(p, name, f));
    CHECK(vkWaitForFences(vk.dev, 1, &f, VK_TRUE, 60ull * 1000000000ull));
}

static void finish(void)
{
    vkDeviceWaitIdle(vk.dev);
    for (uint32_t i = 0; i < npipelines; i++)
        vkDestroyPipeline(vk.dev, pipelines[i], NULL);
    for (uint32_t i = 0; i < nfences; i++)
        vkDestroyFence(vk.dev, fences[i], NULL);
    npipelines = nfences = 0;
    vkDestroyCommandPool(vk.dev, pool, NULL);
    vkDestroyDescriptorPool(vk.dev, dpool, NULL);
    vkDestroyPipelineLayout(vk.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(vk.dev, dsl, NULL);
    for (int i = 0; i < 2; i++)
        capp_buffer_destroy(&vk, &bufs[i]);
    capp_destroy(&vk); /* the device, the messenger, the instance */
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* child_vulkan is a forked child's own Vulkan: an instance, a device and
 * one out-of-bounds dispatch, all made after the fork. */
static void child_vulkan(void)
{
    memset(&vk, 0, sizeof vk);
    npipelines = nfences = 0;
    setup();
    run_oob(pipeline_in_dir("oob.spv"), "forked");
    finish();
    printf("forked: done\n");
    fflush(stdout);
    _exit(0); /* lavapipe's exit handler joins a thread only the parent has */
}

static int fork_mode(const char *self, const char *child)
{
    VkPipeline p = pipeline_in_dir("oob.spv");
    run_oob(p, "parent");
    vkDeviceWaitIdle(vk.dev);
    fflush(stdout);
    uint64_t t0 = capp_now_ns();
    pid_t pid = fork();
    if (pid < 0)
        capp_die("fork failed");
    if (pid == 0) {
        if (!strcmp(child, "exit"))
            exit(1);
        if (!strcmp(child, "_exit"))
            _exit(1);
        if (!strcmp(child, "vulkan"))
            child_vulkan();
        if (!strcmp(child, "exec")) {
            char spv[4096];
            capp_path(spv, sizeof spv, dir, "oob_child.spv");
            execl(self, self, "--dir", dir, "--spv", spv, "--mode", "oob", "--name", "child", (char *)NULL);
        }
        _exit(127);
    }
    int status = 0, done = 0;
    for (int i = 0; i < 2000 && !done; i++) { /* 20 s at most */
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            done = 1;
        else
            sleep_ms(10);
    }
    if (!done) {
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
        printf("child=hung ms=%llu\n", (unsigned long long)((capp_now_ns() - t0) / 1000000u));
    } else {
        printf("child=%d ms=%llu\n", WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status),
               (unsigned long long)((capp_now_ns() - t0) / 1000000u));
    }
    run_oob(p, "after");
    return 0;
}

/* spin_groups returns the workgroup count that makes the spin last about
 * seconds: it doubles the count from 8 until one dispatch lasts 0.2 s (a
 * GPU runs hundreds of workgroups at once, lavapipe a few: time grows
 * with the count only once the device is full: on the H200 2^20 groups
 * last under 0.2 s), at most the device's maxComputeWorkGroupCount[0]
 * and 2^28 groups, so at most 26 dispatches, then scales the count to
 * seconds. */
static uint32_t spin_groups(VkPipeline spin, double seconds)
{
    uint32_t max = vk.props.limits.maxComputeWorkGroupCount[0];
    if (max > 1u << 28)
        max = 1u << 28;
    uint32_t g = 8;
    double t;
    for (;;) {
        VkCommandBuffer cal = capp_command_buffer(&vk, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "calibrate");
        capp_begin(cal, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
        record_dispatch(cal, spin, 0, g, NULL);
        uint64_t t0 = capp_now_ns();
        capp_end_and_run(&vk, cal);
        t = (double)(capp_now_ns() - t0) / 1e9;
        if (t >= 0.2 || g >= max / 2)
            break;
        g *= 2;
    }
    double groups = (double)g * seconds / (t > 1e-6 ? t : 1e-6);
    uint32_t n = groups < 8 ? 8 : groups > (double)max ? max : (uint32_t)groups;
    printf("spin_groups=%u\n", n);
    return n;
}

static int hang_mode(double seconds)
{
    VkPipeline oob = pipeline_in_dir("oob.spv"), spin = pipeline_in_dir("spin.spv");
    uint32_t groups = spin_groups(spin, seconds);
    VkCommandBuffer cb = capp_command_buffer(&vk, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "hang-cb");
    capp_begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    record_dispatch(cb, oob, 2, 1, "setup");
    record_dispatch(cb, spin, 0, groups, "spin");
    record_dispatch(cb, oob, 3, 1, "after");
    CHECK(vkEndCommandBuffer(cb));
    VkFence f = fence();
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
    CHECK(vkQueueSubmit(vk.queue, 1, &si, f));
    VkResult r = vkWaitForFences(vk.dev, 1, &f, VK_TRUE, 120ull * 1000000000ull);
    printf("wait=%d\n", (int)r);
    return 0;
}

static int lost_mode(uint32_t submits)
{
    VkPipeline p = pipeline_in_dir("oob.spv");
    VkFence f = fence();
    capp_buffer live = {0}, freed = {0};
    if (with_bda) {
        VkBufferUsageFlags u = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
        live = capp_buffer_create(&vk, 4096, u);
        capp_name(&vk, VK_OBJECT_TYPE_BUFFER, (uint64_t)live.buf, "fault-live");
        freed = capp_buffer_create(&vk, 4096, u);
        capp_name(&vk, VK_OBJECT_TYPE_BUFFER, (uint64_t)freed.buf, "fault-freed");
        printf("live=0x%llx freed=0x%llx\n", (unsigned long long)live.addr, (unsigned long long)freed.addr);
    }
    for (uint32_t i = 0; i < submits; i++) {
        if (i == 1 && with_bda) {
            capp_buffer_destroy(&vk, &freed);
            freed.buf = VK_NULL_HANDLE;
        }
        char name[32];
        snprintf(name, sizeof name, "lost-%u", i);
        VkResult s = submit_oob(p, name, f);
        VkResult w = s == VK_SUCCESS ? vkWaitForFences(vk.dev, 1, &f, VK_TRUE, 60ull * 1000000000ull) : s;
        printf("submit=%d wait=%d\n", (int)s, (int)w);
        if (s != VK_SUCCESS || w != VK_SUCCESS)
            break;
        vkResetFences(vk.dev, 1, &f);
    }
    if (with_bda) {
        capp_buffer_destroy(&vk, &live);
        if (freed.buf)
            capp_buffer_destroy(&vk, &freed);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = "oob", *name = "oob", *child = "exit", *spv = NULL;
    unsigned sleep = 500, submits = 4;
    double seconds = 8, spin_seconds = 0;
    int oob = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const char *k = argv[i], *v = argv[i + 1];
        if (!strcmp(k, "--dir"))
            dir = v;
        else if (!strcmp(k, "--mode"))
            mode = v;
        else if (!strcmp(k, "--name"))
            name = v;
        else if (!strcmp(k, "--child"))
            child = v;
        else if (!strcmp(k, "--spv"))
            spv = v;
        else if (!strcmp(k, "--sleep-ms"))
            sleep = (unsigned)atoi(v);
        else if (!strcmp(k, "--seconds"))
            seconds = atof(v);
        else if (!strcmp(k, "--spin-seconds"))
            spin_seconds = atof(v);
        else if (!strcmp(k, "--oob"))
            oob = atoi(v);
        else if (!strcmp(k, "--submits"))
            submits = (unsigned)atoi(v);
        else if (!strcmp(k, "--messenger"))
            messenger = atoi(v);
        else if (!strcmp(k, "--fault"))
            with_bda = atoi(v);
        else {
            fprintf(stderr, "hangapp: unknown argument %s\n", k);
            return 2;
        }
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    setup();
    if (!strcmp(mode, "oob")) {
        run_oob(spv ? pipeline_of(spv) : pipeline_in_dir("oob.spv"), name);
    } else if (!strcmp(mode, "fork")) {
        fork_mode(argv[0], child);
    } else if (!strcmp(mode, "nofence")) {
        VkPipeline spin = spin_seconds > 0 ? pipeline_in_dir("spin.spv") : VK_NULL_HANDLE;
        uint32_t groups = spin ? spin_groups(spin, spin_seconds) : 0;
        if (oob)
            CHECK(submit_oob(pipeline_in_dir("oob.spv"), "nofence", VK_NULL_HANDLE));
        if (spin) {
            VkCommandBuffer cb = capp_command_buffer(&vk, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "spin");
            capp_begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
            record_dispatch(cb, pipeline_in_dir("oob.spv"), 2, 1, NULL); /* 4 records */
            record_dispatch(cb, spin, 0, groups, NULL);
            CHECK(vkEndCommandBuffer(cb));
            VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb};
            CHECK(vkQueueSubmit(vk.queue, 1, &si, VK_NULL_HANDLE));
        }
        sleep_ms(sleep);
        printf("hangapp: exit without waiting\n");
        exit(0);
    } else if (!strcmp(mode, "hang")) {
        hang_mode(seconds);
    } else if (!strcmp(mode, "lost")) {
        lost_mode(submits);
    } else {
        fprintf(stderr, "hangapp: unknown mode %s\n", mode);
        return 2;
    }
    finish();
    printf("hangapp: done\n");
    return 0;
}
