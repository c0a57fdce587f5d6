#version 450
// TestLoopEntries: each loop's TRIPS comment is the bound trip_count.go
// proves on how many times its header runs per entry of the loop (the
// tests that stay, plus the one that leaves), or "none" where it proves
// none (a loop bounded only by its counter's type has a bound, past any
// budget). Compiled with and without -Os (phis, and Function variables).
layout(local_size_x = 1) in;
layout(set = 0, binding = 0, std430) buffer Data { uint n; int sn; uint v[]; } data;
void main() {
    uint acc = 0u;
    for (uint i = 0u; i < 16u; i++) { // TRIPS 17
        acc += data.v[i];
    }
    for (uint i = 3u; i <= 16u; i += 4u) { // TRIPS 5
        acc += data.v[i];
    }
    for (int i = -4; i < 4; i++) { // TRIPS 9
        acc += data.v[i + 4];
    }
    for (int i = 7; i >= 0; i -= 2) { // TRIPS 5
        acc += data.v[i];
    }
    for (uint i = data.n & 31u; i > 0u; i--) { // TRIPS 32
        acc += data.v[i];
    }
    for (uint i = 0u; i < data.n; i++) { // TRIPS 4294967296
        acc += data.v[i & 7u];
    }
    for (uint i = 0u; i < min(data.n, 100u); i++) { // TRIPS 101
        acc += data.v[i & 7u];
    }
    for (int i = data.sn; i < 10; i++) { // TRIPS 2147483659
        acc += data.v[i & 7];
    }
    for (uint s = data.n; s > 0u; s >>= 1) { // TRIPS 34
        acc += data.v[s & 7u];
    }
    for (uint s = data.n; s != 0u; s >>= 4) { // TRIPS 10
        acc += data.v[s & 7u];
    }
    for (uint s = 1u; s <= 1024u; s *= 2u) { // TRIPS 12
        acc += data.v[s & 7u];
    }
    for (uint i = 0u; i < 0xFFFFFFFFu; i++) { // TRIPS 4294967296
        acc += data.v[i & 7u];
    }
    for (uint i = 0u; i <= data.n; i++) { // TRIPS none
        acc += data.v[i & 7u];
    }
    uint k = 0u;
    while (true) { // TRIPS 11
        if (k >= 10u) {
            break;
        }
        acc += data.v[k & 7u];
        k++;
    }
    uint j = 0u;
    do {
        acc += data.v[j];
        j++;
    } while (j < 8u); // TRIPS 8
    for (uint i = 0u; i < 16u; i++) { // TRIPS none
        if (data.v[i] == 3u) {
            i--;
        }
        acc += data.v[i & 7u];
    }
    data.v[0] = acc;
}
