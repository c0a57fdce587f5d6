#!/bin/bash
# The harness's pipeline-creation scene alone on the NVIDIA machine, one
# repetition of one iteration per configuration (Khronos GPU-AV takes about
# a minute per iteration there). Carry bin and .gl (make build bench-apps).
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu timeout ${BENCH_S:-140} bin/bench/harness -preset gpu -bin bin \
  -scenes pipeline -reps 1 -warmup 0 -iters 1 -skip-checks \
  -khronos-layer-path /tmp/vvl/usr/share/vulkan/explicit_layer.d \
  -command "scripts/nvidia-pipeline.sh" -json "$OUT/nvidia-pipeline.json" -md "$OUT/nvidia-pipeline.md" > $OUT/pipeline.log 2>&1
echo "harness rc=$?"; grep "×" $OUT/pipeline.log; tail -3 $OUT/pipeline.log
