/* room.c: intercepts a vkCmd* command outside the owner, under a gl_
 * name; shares vkCreateThing with other.c; calls other.c, which calls it
 * back. */
#include "ground.h"
#include "other.h"
#include "room.h"

#define CMD_PROLOGUE(cb) int x = 0

static VKAPI_ATTR void VKAPI_CALL gl_CmdDrawIndirect(VkCommandBuffer cb)
{
    ground_log("draw");
}

static VKAPI_ATTR void VKAPI_CALL icpt_CreateThing(VkDevice d)
{
    other_fn();
}

void room_hook(const char *s)
{
    (void)s;
}

void room_fn(void)
{
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CmdDrawIndirect),
    GPUAVDBG_ICPT(CreateThing),
};
