#!/bin/bash
# Builds the layer's end-to-end tests into bin/layer-tests/ so they run
# where there is no Go toolchain, C compiler or glslang (the NVIDIA
# machine): the layer and its manifest, the test apps, their SPIR-V and
# the compiled test binary. scripts/nvidia-layer-tests.sh runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bin/layer-tests
rm -rf "$out"; mkdir -p "$out"
go build -buildmode=c-shared -ldflags "-extldflags=-Wl,--version-script=$PWD/layer/exports.map" \
  -o "$out/libVkLayer_gpuav_dbg.so" ./layer
rm -f "$out/libVkLayer_gpuav_dbg.h"
cp layer/VkLayer_gpuav_dbg.json "$out/"
# The flags of internal/cbuild, which builds them for `go test`.
app() { cc -O2 -Wall -Wextra -Werror -std=c11 -Iinternal/capp -o "$out/$1" "$2" internal/capp/capp.c -lvulkan -lpthread -lm; }
app vkapp layer/testdata/vkapp.c
app multi layer/testdata/multi.c
spv() { glslangValidator -g --target-env "$3" -o "$out/$2" "$1" >/dev/null && spirv-val --target-env "$3" "$out/$2"; }
spv examples/demo/shaders/oob_compute.comp oob_compute.spv vulkan1.1
spv examples/demo/shaders/oob_compute.comp multi_compute.spv vulkan1.1
spv layer/testdata/shaders/fullscreen.vert fullscreen.vert.spv vulkan1.2
spv layer/testdata/shaders/oob_store.frag oob_store.frag.spv vulkan1.2
spv layer/testdata/shaders/push_runtime.comp push_runtime.spv vulkan1.2
spv layer/testdata/shaders/base_compute.comp base_compute.spv vulkan1.1
# oob_compute.comp without debug info: the same code in other bytes
glslangValidator --target-env vulkan1.1 -o "$out/multi_compute_nodebug.spv" examples/demo/shaders/oob_compute.comp >/dev/null
go test -c -o "$out/layer.test" ./layer
echo "built $out ($(du -sh "$out" | cut -f1))"
