/*
 * printf_messenger.h: the debug-utils messenger the printf test apps
 * (printfapp, stageapp --case printf) print printf messages with, so that
 * a test can compare gpuav-dbg's lines with the Khronos layer's Debug
 * Printf (static: each app is one translation unit).
 *
 * Each printf message (id name containing DEBUG-PRINTF, severity info) is
 * printed to stdout as "printf: TEXT", the text after the message's
 * "| MessageID = 0x... | " with '\\' and newlines escaped as \\ and \n;
 * messages of severity warning or error go to stderr as "vk: ID: TEXT".
 * With pm_whole set, each printf message is printed whole instead, as
 * "message severity=0x.. types=0x.. id=NAME number=0x.. objects=N
 * type0=T: TEXT" (TEXT escaped).
 */
#ifndef PRINTF_MESSENGER_H
#define PRINTF_MESSENGER_H

#include <stdio.h>
#include <string.h>

#include "capp.h"

/* pm_whole: print printf messages whole (printfapp --messages). */
static int pm_whole;

/* pm_print_escaped writes s with '\\' and '\n' escaped, and a newline. */
static void pm_print_escaped(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            fputs("\\\\", f);
        else if (*s == '\n')
            fputs("\\n", f);
        else
            fputc(*s, f);
    }
    fputc('\n', f);
}

static VkBool32 VKAPI_PTR pm_on_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                        VkDebugUtilsMessageTypeFlagsEXT types,
                                        const VkDebugUtilsMessengerCallbackDataEXT *data, void *user)
{
    (void)user;
    const char *msg = data->pMessage ? data->pMessage : "";
    if (data->pMessageIdName && strstr(data->pMessageIdName, "DEBUG-PRINTF") &&
        severity == VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) {
        if (pm_whole) {
            printf("message severity=0x%x types=0x%x id=%s number=0x%08x objects=%u type0=%d: ", (unsigned)severity,
                   (unsigned)types, data->pMessageIdName, (unsigned)data->messageIdNumber, data->objectCount,
                   data->objectCount ? (int)data->pObjects[0].objectType : -1);
            pm_print_escaped(stdout, msg);
            fflush(stdout);
            return VK_FALSE;
        }
        const char *id = strstr(msg, "| MessageID = 0x");
        const char *text = id ? strstr(id + 1, " | ") : NULL;
        fputs("printf: ", stdout);
        pm_print_escaped(stdout, text ? text + 3 : msg);
        fflush(stdout);
    } else if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
        fprintf(stderr, "vk: %s: ", data->pMessageIdName ? data->pMessageIdName : "(none)");
        pm_print_escaped(stderr, msg);
    }
    return VK_FALSE;
}

/* pm_add_messenger creates the messenger that prints printf lines on c's
 * instance; pm_destroy_messenger destroys it. */
static VkDebugUtilsMessengerEXT pm_add_messenger(const capp *c)
{
    if (!c->have_utils)
        capp_die("VK_EXT_debug_utils is missing");
    PFN_vkCreateDebugUtilsMessengerEXT create =
        (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->instance, "vkCreateDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerCreateInfoEXT mci = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT,
        .pfnUserCallback = pm_on_message,
    };
    VkDebugUtilsMessengerEXT m;
    CHECK(create(c->instance, &mci, NULL, &m));
    return m;
}

static inline void pm_destroy_messenger(const capp *c, VkDebugUtilsMessengerEXT m)
{
    if (!m)
        return;
    PFN_vkDestroyDebugUtilsMessengerEXT destroy =
        (PFN_vkDestroyDebugUtilsMessengerEXT)vkGetInstanceProcAddr(c->instance, "vkDestroyDebugUtilsMessengerEXT");
    destroy(c->instance, m, NULL);
}

#endif
