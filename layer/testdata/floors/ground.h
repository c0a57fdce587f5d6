/* ground.h: a bad tree for TestFloorsCatch (never compiled). */
#include "room.h" /* a lower floor includes an upper one */
#define GPUAVDBG_CMDS(X) X(DRAW, "vkCmdDraw") X(DISPATCH, "vkCmdDispatch")
#define GPUAVDBG_ICPT(fn) {"vk" #fn, (PFN_vkVoidFunction)icpt_##fn}
void ground_log(const char *s);
