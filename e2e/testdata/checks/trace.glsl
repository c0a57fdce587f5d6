// traceapp's shared declarations (included by trace.rgen, .rchit, .rmiss
// and .rint): the scene, the output and the push constants, which carry
// the ray under test (stage: 0 raygen traces it, 1 the closest-hit shader,
// 2 the miss shader; 3 the intersection shader reports hit_kind).
layout(set = 0, binding = 0) uniform accelerationStructureEXT tlas;
layout(set = 0, binding = 1, std430) buffer Out { uint payload[]; } outs;
layout(push_constant) uniform PC {
    vec4 origin;
    vec4 dir;
    float tmin;
    float tmax;
    uint flags;
    uint sbt_offset;
    uint sbt_stride;
    uint miss;
    uint stage;
    uint hit_kind;
} pc;
