#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_debug_printf : require
// miss: the instance is masked out; every miss prints its launch and tmax
layout(location = 0) rayPayloadInEXT uint payload;
void main() {
    debugPrintfEXT("miss launch %v3u tmax %.1f", gl_LaunchIDEXT, gl_RayTmaxEXT);
}
