#!/bin/sh
# What gpuav-dbg and the Khronos layer (GPU-AV) add to vkCreateShaderModule
# and vkCreateComputePipelines for the benchmark modules of
# gpuav/internal/largeshader. Run from the repository root after `make`:
#   gpuav/testdata/pipetime/run.sh [N]
# Prints one line per (module, configuration).
set -eu
n=${1:-10}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O2 -Wall -o "$out/pipetime" gpuav/testdata/pipetime/pipetime.c -lvulkan
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/gpuav-dbg-xdg-$(id -u)}
mkdir -p "$XDG_RUNTIME_DIR"
layer=${GPUAV_DBG_LAYER_PATH:-$PWD/bin}
for fns in 4 40 120; do
    go run ./gpuav/internal/genlarge -n $fns >"$out/large$fns.comp"
    glslangValidator -g --target-env vulkan1.2 -o "$out/large$fns.spv" "$out/large$fns.comp" >/dev/null
    kb=$(( $(stat -c %s "$out/large$fns.spv") / 1000 ))
    printf '%s KB  none      ' "$kb"; "$out/pipetime" "$out/large$fns.spv" "$n"
    printf '%s KB  gpuav-dbg ' "$kb"
    VK_ADD_LAYER_PATH=$layer VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation "$out/pipetime" "$out/large$fns.spv" "$n" 2>/dev/null
    printf '%s KB  khronos   ' "$kb"
    VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT \
        "$out/pipetime" "$out/large$fns.spv" "$n" 2>/dev/null
done
