/*
 * printfapp: shaders that call debugPrintfEXT, from a compute, vertex or
 * fragment shader, for comparing gpuav-dbg's printf lines with the Khronos
 * validation layer's Debug Printf.
 *
 *   printfapp --shaders DIR --case CASE [--n N] [--size S] [--groups X Y]
 *             [--messages] [--no-messenger]
 *
 *   specifiers  printf_specifiers.comp: one invocation, every conversion
 *   loop        printf_loop.comp: one invocation, N lines (--n, default 5)
 *   grid        printf_grid.comp: an XxYx1 dispatch (--groups, default 2 2) of
 *               2x1x1 workgroups
 *   vertex      printf.vert: three points into an SxS target
 *   fragment    printf.frag: a triangle covering an SxS target (--size,
 *               default 4), one line per pixel
 *
 * Each printf message that reaches the app's debug-utils messenger
 * (UNASSIGNED-DEBUG-PRINTF; printf_messenger.h) is printed to stdout as "printf: TEXT", the
 * text after the message's "| MessageID = 0x... | " with '\\' and newlines
 * escaped as \\ and \n; other validation messages go to stderr. With
 * --messages, each printf message is printed whole instead, as
 * "message severity=0x.. types=0x.. id=NAME number=0x.. objects=N
 * type0=T: TEXT" (TEXT escaped). With --no-messenger it makes none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capp.h"
#include "printf_messenger.h"

const char capp_app_name[] = "printfapp";

/* none: --no-messenger. */
static int none;

/* The push constants of specifiers.comp (and the first word of the
 * others'). */
typedef struct {
    int32_t neg;
    uint32_t u;
    float pi, tiny;
    uint64_t big;
    double d;
} push;

int main(int argc, char **argv)
{
    const char *dir = ".", *kase = "specifiers";
    uint32_t n = 5, size = 4, gx = 2, gy = 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--shaders") && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--case") && i + 1 < argc)
            kase = argv[++i];
        else if (!strcmp(argv[i], "--n") && i + 1 < argc)
            n = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc)
            size = (uint32_t)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--messages"))
            pm_whole = 1;
        else if (!strcmp(argv[i], "--no-messenger"))
            none = 1;
        else if (!strcmp(argv[i], "--groups") && i + 2 < argc) {
            gx = (uint32_t)strtoul(argv[++i], NULL, 10);
            gy = (uint32_t)strtoul(argv[++i], NULL, 10);
        }
        else {
            fprintf(stderr, "printfapp: unknown argument %s\n", argv[i]);
            return 2;
        }
    }
    int compute = !strcmp(kase, "specifiers") || !strcmp(kase, "loop") || !strcmp(kase, "grid");
    if (!compute && strcmp(kase, "vertex") && strcmp(kase, "fragment")) {
        fprintf(stderr, "printfapp: unknown case %s\n", kase);
        return 2;
    }

    capp c;
    capp_create_instance(&c, NULL);
    VkDebugUtilsMessengerEXT messenger = none ? VK_NULL_HANDLE : pm_add_messenger(&c);
    VkPhysicalDeviceFeatures have;
    vkGetPhysicalDeviceFeatures(c.pd, &have);
    if (!strcmp(kase, "specifiers") && (!have.shaderInt64 || !have.shaderFloat64))
        capp_die("the device has no shaderInt64 or shaderFloat64");
    VkPhysicalDeviceVulkan13Features f13 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
                                            .dynamicRendering = VK_TRUE};
    VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f13};
    f2.features.shaderInt64 = have.shaderInt64;
    f2.features.shaderFloat64 = have.shaderFloat64;
    f2.features.vertexPipelineStoresAndAtomics = VK_TRUE;
    f2.features.fragmentStoresAndAtomics = VK_TRUE;
    capp_create_device(&c, &(capp_device_info){.queue_flags = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT, .next = &f2});

    VkPushConstantRange pcr = {.stageFlags = VK_SHADER_STAGE_ALL, .size = sizeof(push)};
    VkPipelineLayout layout = capp_pipeline_layout(&c, 0, NULL, &pcr);
    push pc = {.neg = -135, .u = 256, .pi = 3.1415f, .tiny = 0.00001234f, .big = 0x2000000000000001ull, .d = 1.5};
    if (!strcmp(kase, "loop"))
        pc.neg = (int32_t)n;
    if (!strcmp(kase, "fragment"))
        pc.neg = (int32_t)size;

    char path[4096], name[64];
    VkShaderModule mods[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
    capp_image target = {0};
    VkPipeline pipe;
    if (compute) {
        snprintf(name, sizeof name, "printf_%s.comp.spv", kase);
        mods[0] = capp_shader_file(&c, capp_path(path, sizeof path, dir, name));
        pipe = capp_compute_pipeline(&c, layout, mods[0], 0, NULL);
    } else {
        int vert = !strcmp(kase, "vertex");
        mods[0] = capp_shader_file(&c, capp_path(path, sizeof path, dir, vert ? "printf.vert.spv" : "printf_fullscreen.vert.spv"));
        mods[1] = capp_shader_file(&c, capp_path(path, sizeof path, dir, vert ? "printf_plain.frag.spv" : "printf.frag.spv"));
        target = capp_image_create(&c, size, size, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT);
        VkPipelineShaderStageCreateInfo ss[2] = {capp_stage(VK_SHADER_STAGE_VERTEX_BIT, mods[0], NULL),
                                                 capp_stage(VK_SHADER_STAGE_FRAGMENT_BIT, mods[1], NULL)};
        pipe = capp_graphics_pipeline(&c, &(capp_graphics_info){
                                              .stages = ss, .nstages = 2, .layout = layout, .format = target.format,
                                              .width = size, .height = size,
                                              .topology = vert ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
                                                               : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST});
    }
    snprintf(name, sizeof name, "printf-%s", kase);
    capp_name(&c, VK_OBJECT_TYPE_PIPELINE, capp_handle(pipe), name);

    VkCommandPool pool = capp_command_pool(&c, 0);
    VkCommandBuffer cb = capp_command_buffer(&c, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, "printf-cb");
    capp_begin(cb, 0);
    VkPipelineBindPoint bp = compute ? VK_PIPELINE_BIND_POINT_COMPUTE : VK_PIPELINE_BIND_POINT_GRAPHICS;
    vkCmdBindPipeline(cb, bp, pipe);
    vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_ALL, 0, sizeof pc, &pc);
    if (compute) {
        int grid = !strcmp(kase, "grid");
        vkCmdDispatch(cb, grid ? gx : 1, grid ? gy : 1, 1);
    } else {
        capp_begin_rendering(cb, &target, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL);
        vkCmdDraw(cb, 3, 1, 0, 0);
        vkCmdEndRendering(cb);
    }
    CHECK(vkEndCommandBuffer(cb));
    capp_submit_wait(&c, 1, &cb, VK_NULL_HANDLE, NULL);

    vkDeviceWaitIdle(c.dev);
    vkDestroyPipeline(c.dev, pipe, NULL);
    for (int i = 0; i < 2; i++)
        if (mods[i])
            vkDestroyShaderModule(c.dev, mods[i], NULL);
    vkDestroyPipelineLayout(c.dev, layout, NULL);
    vkDestroyCommandPool(c.dev, pool, NULL);
    capp_image_destroy(&c, &target);
    pm_destroy_messenger(&c, messenger);
    capp_destroy(&c);
    puts("printfapp: done");
    return 0;
}
