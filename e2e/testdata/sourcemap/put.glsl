// put writes through the descriptor array; included by include.comp.
void put(uint slot, uint i) {
    outs[slot].v[i] = i * 5u;
}
