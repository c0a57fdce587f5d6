#version 460
#extension GL_EXT_ray_tracing : require
#extension GL_EXT_debug_printf : require
// closest hit: the triangle at z = 5; every hit prints its launch and t
layout(location = 0) rayPayloadInEXT uint payload;
void main() {
    debugPrintfEXT("closest hit launch %v3u t %.1f", gl_LaunchIDEXT, gl_HitTEXT);
}
