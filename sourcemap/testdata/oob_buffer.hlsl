// HLSL compute shader: writes through outs[pc.idx], an array of 2 texel buffers.
struct PC { uint idx; };
[[vk::push_constant]] PC pc;
[[vk::binding(0, 0)]] RWBuffer<uint> outs[2];

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    outs[pc.idx][i] = i * 3;
}
