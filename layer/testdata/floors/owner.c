/* owner.c: the owner, which intercepts vkCmdDraw but not vkCmdDispatch. */
#include "ground.h"
#include "owner.h"
#include "room.h"

#define CMD_PROLOGUE(cb) int y = 0

static VKAPI_ATTR void VKAPI_CALL icpt_CmdDraw(VkCommandBuffer cb)
{
    CMD_PROLOGUE(cb);
    room_hook("draw"); /* down: fine */
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CmdDraw),
};
