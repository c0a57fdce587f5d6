#version 450
// buffer_oob hoisting (TestInstrumentBufferOOBHoist): 40 accesses to one
// uniform buffer share one lookup per function; a dynamic descriptor index
// used twice in one block shares one range lookup.
layout(local_size_x = 1) in;

layout(set = 0, binding = 0, std140) uniform U { vec4 v[40]; } u;
layout(set = 0, binding = 1, std430) buffer B { uint x[]; } b[4];
layout(set = 0, binding = 2, std430) buffer O { vec4 o[]; } out_;

float helper(uint k) {
    return u.v[k].x + u.v[1].y; // own entry block: 1 binding + 1 range lookup
}

void main() {
    vec4 s = vec4(0.0);
    s += u.v[0];
    s += u.v[1];
    s += u.v[2];
    s += u.v[3];
    s += u.v[4];
    s += u.v[5];
    s += u.v[6];
    s += u.v[7];
    s += u.v[8];
    s += u.v[9];
    s += u.v[10];
    s += u.v[11];
    s += u.v[12];
    s += u.v[13];
    s += u.v[14];
    s += u.v[15];
    s += u.v[16];
    s += u.v[17];
    s += u.v[18];
    s += u.v[19];
    s += u.v[20];
    s += u.v[21];
    s += u.v[22];
    s += u.v[23];
    s += u.v[24];
    s += u.v[25];
    s += u.v[26];
    s += u.v[27];
    s += u.v[28];
    s += u.v[29];
    s += u.v[30];
    s += u.v[31];
    s += u.v[32];
    s += u.v[33];
    s += u.v[34];
    s += u.v[35];
    s += u.v[36];
    s += u.v[37];
    s += u.v[38];
    s += u.v[39];
    uint i = gl_GlobalInvocationID.x;
    b[i & 3u].x[0] += 1u; // a load and a store, the same index id: 1 range lookup
    out_.o[i] = s + vec4(helper(i));
}
