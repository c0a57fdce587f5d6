#!/bin/bash
# Which vkCmdDispatchBase results depend on the driver's shader cache (the
# NVIDIA driver finds a compute shader by its SPIR-V alone, leaving out
# VK_PIPELINE_CREATE_DISPATCH_BASE_BIT: docs/HARDWARE.md). multi
# --mode dispatches-readback runs a based dispatch (base group 1,0,0, local
# size 4) in bounds and prints the elements it wrote (the spec: 4 5 6 7).
# "base-compute" is made from --base-comp's SPIR-V (default: the same bytes
# as the unflagged "oob-compute"). Then the layer's dispatch tests. From the
# repository root (scripts/hardware/build.sh layer-tests; carry bin/ and
# .gl/ on the NVIDIA machine): bash bench/measure/dispatch-base.sh, or a
# step of scripts/hardware/run.sh. Output: $OUT/dispatch-base.txt.
set -u
. scripts/hardware/env.sh || exit 1
B=$PWD/bin/layer-tests
[ -x "$B/multi" ] || { echo "dispatch-base.sh: no bin/layer-tests (scripts/hardware/build.sh layer-tests)"; exit 2; }
export GPUAVDBG_TEST_PREBUILT=$B
# The driver's on-disk shader cache, emptied where the runs below say so.
export __GL_SHADER_DISK_CACHE_PATH=/tmp/nvcache; rm -rf /tmp/nvcache; mkdir -p /tmp/nvcache
# rb LABEL [ARGS]: the readback's base_alone line, prefixed with LABEL.
rb() {
  local l=$1; shift
  "$B/multi" --mode dispatches-readback --comp "$B/multi_compute.spv" "$@" 2>&1 |
    grep -E '^(base_alone|multi:)' | sed "s/^/$l: /"
}
export -f rb; export B
checks_off="VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB=0 VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_UNINITIALIZED=0 VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_DESTROYED=0"
{
  hw_device
  echo "-- one process: based pipeline from the bytes of the unflagged one, or from other bytes"
  rb "no layer, same bytes"
  rb "no layer, other bytes (no debug info)" --base-comp "$B/multi_compute_nodebug.spv"
  rb "no layer, other bytes (base_compute.spv)" --base-comp "$B/base_compute.spv"
  HW_LAYER_DIR=bin/layer-tests hw_ours bash -c "rb 'our layer, same bytes (instrumented: shader ids differ)'"
  HW_LAYER_DIR=bin/layer-tests hw_ours env $checks_off bash -c "rb 'our layer, checks off, same bytes'"
  hw_khronos bash -c "rb 'khronos gpu-av, same bytes'"
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
} 2>&1 | tee "$OUT/dispatch-base.txt"
