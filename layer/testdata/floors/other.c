#include "ground.h"
#include "other.h"
#include "room.h"

static VKAPI_ATTR void VKAPI_CALL icpt_CreateThing(VkDevice d)
{
}

void other_fn(void)
{
    room_fn(); /* the cycle */
}

static const gpuavdbg_intercept intercepts[] = {
    GPUAVDBG_ICPT(CreateThing),
};
