#!/bin/bash
# Builds benchmark-only variants of the layer into bin/exp/<name>/ (layer and
# manifest, stripped) for scripts/nvidia-diag.sh: each turns off one piece of
# per-action work so a run can say what that piece costs. Never shipped.
#   one-slot:     every action uses action slot 0 (one bind per command buffer)
#   no-snapshot:  no descriptor-state snapshot per action
#   neither:      both
#   dynamic:      one set per command buffer, a dynamic offset per action
#                 (the first design's bind, docs/decisions/dynamic-offset-action-bind.md)
#   slot4:        the layer's set at set number 4 instead of
#                 min(maxBoundDescriptorSets, 33) - 1 (layouts padded to 5 sets)
set -euo pipefail
cd "$(dirname "$0")/.."
build() {
  local name=$1 flags=$2 out=bin/exp/$1
  rm -rf "$out"; mkdir -p "$out"
  CGO_CFLAGS="-O2 $flags" go build -buildmode=c-shared \
    -ldflags "-s -w -extldflags=-Wl,--version-script=$PWD/layer/exports.map" -o "$out/libVkLayer_gpuav_dbg.so" ./layer
  rm -f "$out/libVkLayer_gpuav_dbg.h"; cp layer/VkLayer_gpuav_dbg.json "$out/"
}
build one-slot -DGPUAVDBG_EXPERIMENT_ONE_SLOT
build no-snapshot -DGPUAVDBG_EXPERIMENT_NO_SNAPSHOT
build neither "-DGPUAVDBG_EXPERIMENT_ONE_SLOT -DGPUAVDBG_EXPERIMENT_NO_SNAPSHOT"
build dynamic -DGPUAVDBG_EXPERIMENT_DYNAMIC_ACTION
build slot4 -DGPUAVDBG_EXPERIMENT_SLOT=4
du -sh bin/exp/*
