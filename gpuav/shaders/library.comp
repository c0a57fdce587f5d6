#version 450
#extension GL_GOOGLE_include_directive : require
// atomicLoad and atomicStore of the shadow words (shared_race.glsl).
#extension GL_KHR_memory_scope_semantics : require
// The check-function library: every check's GLSL, compiled as one module by
// `go generate ./gpuav`. main is a stub the generator removes; glslang 12
// (Debian bookworm) has no --no-link, so --keep-uncalled keeps the functions.
// The files below come first, in this order (later ones use earlier ones'
// functions); the generator includes every other .glsl file of this
// directory after them, in name order, so a new check's file needs no line
// here as long as it uses only these.
#include "common.glsl"
#include "descriptor_index.glsl"
#include "descriptor_state.glsl"
#include "buffer_oob.glsl"
#include "descriptor_element.glsl"
#include "texel_buffer.glsl"
#include "ray_query.glsl"
#include "bda.glsl"

void main() {}
