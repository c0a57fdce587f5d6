#!/bin/bash
# Run from the repo root on the NVIDIA machine after
# scripts/build-layer-tests.sh (carry bin/ and .gl/). Shows which
# vkCmdDispatchBase results depend on the driver's shader cache:
# multi --mode dispatches-readback runs a based dispatch (base group
# 1,0,0, local size 4) in bounds and prints the elements it wrote (the
# spec: 4 5 6 7). "base-compute" is made from --base-comp's SPIR-V (default:
# the same bytes as the unflagged "oob-compute"). Then the layer's
# dispatch tests, and (LAYER_TESTS=1) the whole layer suite.
# Output: $OUT/dispatch-base.txt (and nvidia-layer-tests.txt).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
B=$PWD/bin/layer-tests
export GPUAVDBG_TEST_PREBUILT=$B
# The driver's on-disk shader cache, emptied where the runs below say so.
export __GL_SHADER_DISK_CACHE_PATH=/tmp/nvcache; rm -rf /tmp/nvcache; mkdir -p /tmp/nvcache
out=${OUT:-/tmp}/dispatch-base.txt
# rb LABEL [ARGS]: the readback's base_alone line, prefixed with LABEL
rb() { l=$1; shift; "$B/multi" --mode dispatches-readback --comp "$B/multi_compute.spv" "$@" 2>&1 |
  grep -E '^(base_alone|multi:)' | sed "s/^/$l: /"; }
layer=(env VK_ADD_LAYER_PATH=$B VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation)
{
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  echo "-- one process: based pipeline from the bytes of the unflagged one, or from other bytes"
  rb "no layer, same bytes"
  rb "no layer, other bytes (no debug info)" --base-comp "$B/multi_compute_nodebug.spv"
  rb "no layer, other bytes (base_compute.spv)" --base-comp "$B/base_compute.spv"
  "${layer[@]}" bash -c "$(declare -f rb); B=$B rb 'our layer, same bytes (instrumented: shader ids differ)'"
  "${layer[@]}" VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB=0 VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_UNINITIALIZED=0 \
    VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_DESTROYED=0 bash -c "$(declare -f rb); B=$B rb 'our layer, checks off, same bytes'"
  LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d \
    VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT \
    bash -c "$(declare -f rb); B=$B rb 'khronos gpu-av, same bytes'"
  echo "-- across processes: the on-disk cache"
  rm -rf /tmp/nvcache/*
  rb "1 empty cache: nodebug bytes compiled unflagged" --comp "$B/multi_compute_nodebug.spv" --base-comp "$B/base_compute.spv"
  rb "2 then based from nodebug bytes" --base-comp "$B/multi_compute_nodebug.spv"
  __GL_SHADER_DISK_CACHE=0 rb "3 the same, disk cache off" --base-comp "$B/multi_compute_nodebug.spv"
  rm -rf /tmp/nvcache/*
  rb "4 the same, cache emptied first" --base-comp "$B/multi_compute_nodebug.spv"
  echo "-- the layer's tests"
  rm -rf /tmp/nvcache/*
  ( cd layer && "$B/layer.test" -test.run 'TestDispatch' -test.v -test.count=2 2>&1 | cut -c1-600 )
} 2>&1 | tee "$out"
if [ "${LAYER_TESTS:-0}" = 1 ]; then
  ( cd layer && "$B/layer.test" -test.v -test.count=1 -test.timeout=400s >${OUT:-/tmp}/nvidia-layer-tests.txt 2>&1 )
  echo "layer suite rc=$?"
  grep -E "^(--- (FAIL|SKIP)|PASS$|FAIL$)" ${OUT:-/tmp}/nvidia-layer-tests.txt | cut -c1-200
  echo "passed: $(grep -c '^--- PASS' ${OUT:-/tmp}/nvidia-layer-tests.txt)"
fi
