/*
 * messenger.c: the app's VK_EXT_debug_utils messengers. The layer records
 * every messenger the app creates (vkCreateDebugUtilsMessengerEXT, and the
 * VkDebugUtilsMessengerCreateInfoEXT structures in vkCreateInstance's pNext,
 * which hear only what happens during vkCreateInstance and
 * vkDestroyInstance) and calls their callbacks with its messages, VVL
 * style, so the layer is useful without the launcher
 * (docs/decisions/debug-utils-messengers.md). Go
 * formats the messages and calls gpuavdbg_emit without holding its lock: a
 * callback may call back into Vulkan.
 */
#include <stdlib.h>
#include <string.h>

#include "ground.h"
#include "messenger.h"

typedef struct messenger {
    struct messenger *next;
    const void *instance_key; /* the instance's dispatch key */
    VkDebugUtilsMessengerEXT handle; /* 0: from vkCreateInstance's pNext */
    int active; /* 0: a pNext messenger outside vkCreateInstance/vkDestroyInstance */
    VkDebugUtilsMessageSeverityFlagsEXT severity;
    VkDebugUtilsMessageTypeFlagsEXT types;
    PFN_vkDebugUtilsMessengerCallbackEXT callback;
    void *user;
} messenger;

static pthread_mutex_t g_msg_lock = PTHREAD_MUTEX_INITIALIZER;
static messenger *g_messengers;
static int g_nmessengers; /* the active ones */

static void add(const void *key, VkDebugUtilsMessengerEXT handle, const VkDebugUtilsMessengerCreateInfoEXT *ci)
{
    if (!ci->pfnUserCallback)
        return;
    messenger *m = calloc(1, sizeof *m);
    if (!m) {
        gpuavdbg_logf(GPUAVDBG_LOG_WARNING, "out of memory: a debug-utils messenger gets no messages from the layer");
        return;
    }
    *m = (messenger){.instance_key = key, .handle = handle, .active = 1, .severity = ci->messageSeverity,
                     .types = ci->messageType, .callback = ci->pfnUserCallback, .user = ci->pUserData};
    pthread_mutex_lock(&g_msg_lock);
    m->next = g_messengers;
    g_messengers = m;
    g_nmessengers++;
    pthread_mutex_unlock(&g_msg_lock);
}

/* remove drops the messengers of an instance: handle's, or all with
 * handle == 0 and all != 0. */
static void remove_matching(const void *key, VkDebugUtilsMessengerEXT handle, int all)
{
    pthread_mutex_lock(&g_msg_lock);
    for (messenger **pp = &g_messengers; *pp;) {
        messenger *m = *pp;
        if (m->instance_key == key && (all || m->handle == handle)) {
            *pp = m->next;
            g_nmessengers -= m->active;
            free(m);
        } else {
            pp = &m->next;
        }
    }
    pthread_mutex_unlock(&g_msg_lock);
}

void gpuavdbg_messengers_from_create_info(const void *instance_key, const VkInstanceCreateInfo *ci)
{
    for (const VkBaseInStructure *s = ci->pNext; s; s = s->pNext)
        if (s->sType == VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT)
            add(instance_key, VK_NULL_HANDLE, (const VkDebugUtilsMessengerCreateInfoEXT *)s);
}

void gpuavdbg_messengers_in_call(const void *instance_key, int in_call)
{
    pthread_mutex_lock(&g_msg_lock);
    for (messenger *m = g_messengers; m; m = m->next)
        if (m->instance_key == instance_key && !m->handle && m->active != !!in_call) {
            m->active = !!in_call;
            g_nmessengers += in_call ? 1 : -1;
        }
    pthread_mutex_unlock(&g_msg_lock);
}

void gpuavdbg_messengers_forget_instance(const void *instance_key)
{
    remove_matching(instance_key, VK_NULL_HANDLE, 1);
}

int gpuavdbg_messenger_count(void)
{
    pthread_mutex_lock(&g_msg_lock);
    int n = g_nmessengers;
    pthread_mutex_unlock(&g_msg_lock);
    return n;
}

/* gpuavdbg_emit calls every messenger that wants a message of this
 * severity and type. objects/names/types: nobj objects (names may be NULL
 * or ""). */
void gpuavdbg_emit(uint32_t severity, uint32_t type, const char *id_name, int32_t id, const char *text,
                   uint32_t nobj, const uint64_t *objects, const uint32_t *object_types, char **names)
{
    VkDebugUtilsObjectNameInfoEXT objs[8];
    if (nobj > 8)
        nobj = 8;
    for (uint32_t i = 0; i < nobj; i++)
        objs[i] = (VkDebugUtilsObjectNameInfoEXT){
            .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT,
            .objectType = (VkObjectType)object_types[i],
            .objectHandle = objects[i],
            .pObjectName = names && names[i] && names[i][0] ? names[i] : NULL,
        };
    VkDebugUtilsMessengerCallbackDataEXT data = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CALLBACK_DATA_EXT,
        .pMessageIdName = id_name,
        .messageIdNumber = id,
        .pMessage = text,
        .objectCount = nobj,
        .pObjects = objs,
    };
    /* Copy the matching callbacks, call them unlocked: a callback may
     * create or destroy messengers. */
    struct {
        PFN_vkDebugUtilsMessengerCallbackEXT fn;
        void *user;
    } calls[32];
    int n = 0;
    pthread_mutex_lock(&g_msg_lock);
    for (messenger *m = g_messengers; m && n < 32; m = m->next)
        if (m->active && (m->severity & severity) && (m->types & type)) {
            calls[n].fn = m->callback;
            calls[n].user = m->user;
            n++;
        }
    pthread_mutex_unlock(&g_msg_lock);
    for (int i = 0; i < n; i++)
        calls[i].fn((VkDebugUtilsMessageSeverityFlagBitsEXT)severity, (VkDebugUtilsMessageTypeFlagsEXT)type, &data,
                    calls[i].user);
}

/* ---- intercepts --------------------------------------------------------------- */

static VKAPI_ATTR VkResult VKAPI_CALL icpt_CreateDebugUtilsMessengerEXT(VkInstance instance,
                                                                     const VkDebugUtilsMessengerCreateInfoEXT *ci,
                                                                     const VkAllocationCallbacks *alloc,
                                                                     VkDebugUtilsMessengerEXT *out)
{
    instance_data *id = gpuavdbg_instance_get(instance);
    if (!id || !id->disp.CreateDebugUtilsMessengerEXT)
        return VK_ERROR_INITIALIZATION_FAILED;
    VkResult r = id->disp.CreateDebugUtilsMessengerEXT(instance, ci, alloc, out);
    if (r == VK_SUCCESS)
        add(id->key, *out, ci);
    return r;
}

static VKAPI_ATTR void VKAPI_CALL icpt_DestroyDebugUtilsMessengerEXT(VkInstance instance,
                                                                  VkDebugUtilsMessengerEXT messenger,
                                                                  const VkAllocationCallbacks *alloc)
{
    instance_data *id = gpuavdbg_instance_get(instance);
    if (!id || !id->disp.DestroyDebugUtilsMessengerEXT)
        return;
    if (messenger)
        remove_matching(id->key, messenger, 0);
    id->disp.DestroyDebugUtilsMessengerEXT(instance, messenger, alloc);
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateDebugUtilsMessengerEXT),
    GPUAVDBG_ICPT(DestroyDebugUtilsMessengerEXT),
};

PFN_vkVoidFunction gpuavdbg_messenger_intercept(const char *name)
{
    return gpuavdbg_intercept_find(intercepts, GPUAVDBG_NELEM(intercepts), name);
}
