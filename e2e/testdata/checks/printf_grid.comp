#version 460
// Every invocation of a 2x2x1 dispatch of 2x1x1 workgroups prints its ids.
#extension GL_EXT_debug_printf : require
layout(local_size_x = 2) in;

void main() {
    debugPrintfEXT("invocation %v3u local %u group %v3u", gl_GlobalInvocationID, gl_LocalInvocationIndex, gl_WorkGroupID);
}
