/* ground.c: calls up into a room. */
#include "ground.h"
#include "room.h"

void ground_log(const char *s)
{
    room_hook(s); /* a lower floor calls up */
}
