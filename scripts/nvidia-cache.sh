#!/bin/bash
# Pipeline caches on a driver that caches (issue 5): the app's VkPipelineCache
# must hold no instrumented pipeline. Build here first (bin/ is carried):
#   make && cc -O2 -std=c11 -o bin/multi layer/testdata/multi.c -lvulkan -lpthread &&
#   glslangValidator -g --target-env vulkan1.1 -o bin/multi_compute.spv examples/demo/shaders/oob_compute.comp
# then run from the repo root on the NVIDIA machine (with .gl/ as for
# scripts/nvidia-demo.sh). Expect: without the layer cache_bytes > cache_empty_bytes;
# with it cache_bytes == merged_bytes == cache_empty_bytes, an info line about the
# shadow cache, and every run rc=0.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
M="bin/multi --comp bin/multi_compute.spv --mode cache"
L="env VK_ADD_LAYER_PATH=$PWD/bin VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation"
echo "== no layer";               $M --cache-out /tmp/plain.bin; echo "rc=$?"
echo "== layer";                  $L $M --cache-out /tmp/layer.bin 2>&1 | grep -E "cache_|shadow|multi:"; echo "rc=${PIPESTATUS[0]}"
echo "== layer, plain data in";   $L $M --cache-in /tmp/plain.bin 2>&1 | grep -E "cache_|shadow|multi:|descriptor"; echo "rc=${PIPESTATUS[0]}"
echo "== no layer, layer data in"; $M --cache-in /tmp/layer.bin; echo "rc=$?"
cp /tmp/plain.bin /tmp/layer.bin $OUT/ 2>/dev/null
