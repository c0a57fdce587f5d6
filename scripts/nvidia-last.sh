#!/bin/bash
# The closing device run of 2026-11-21 (docs/benchmarks-history.md, "H200 harness and pipeline creation (7d567e0)"): the
# harness on the dispatch, shader and draw scenes, then the pipeline scene
# timed directly with no layer and with ours. Carry bin and .gl.
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu timeout 120 bin/bench/harness -preset gpu -bin bin -scenes dispatch,shader,draw -reps 3 -skip-checks \
  -khronos-layer-path /tmp/vvl/usr/share/vulkan/explicit_layer.d -command "scripts/nvidia-final.sh (bin/bench/harness -preset gpu -scenes dispatch,shader,draw)" \
  -json "$OUT/nvidia-bench.json" -md "$OUT/nvidia-bench.md" > $OUT/bench.log 2>&1; echo "harness rc=$?"; grep "×" $OUT/bench.log
for cfg in none ours; do
  if [ $cfg = ours ]; then export VK_ADD_LAYER_PATH=$PWD/bin VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation; fi
  echo "== pipeline $cfg"; timeout 60 bin/bench/scene --scene pipeline --spv bin/bench/spv --warmup 1 --iters 2 2>&1 | grep -E "iter|errors|device"
done
