#!/bin/bash
# The benchmark harness (issue #7) on the NVIDIA machine, which has the
# NVIDIA Vulkan driver but no Vulkan loader and no Go. Build here first:
#
#   make build bench-apps      # bin/: gpuav-dbg, the layer, bench/scene,
#                              # bench/spv/, bench/harness (static, no cgo)
#
# then run from the repo root on the device machine, carrying bin and .gl
# (.gl/: Debian's libvulkan1 and libglvnd debs; .gl/vvl/: the Khronos layer
# 1.3.239 deb, as scripts/nvidia-demo.sh uses them):
#
#   run(carry=["bin", ".gl"], command="bash scripts/nvidia-bench.sh")
#
# It writes $OUT/nvidia-bench.json (the results), $OUT/nvidia-bench.md (the
# table) and $OUT/nvidia-bench.log. Back here:
#
#   go run ./bench -render <files_at>/nvidia-bench.json -section nvidia -write docs/BENCHMARKS.md
#
# The harness is stopped after 520 s so the command ends inside the
# device's 600 s limit.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
export LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 520 bin/bench/harness -preset gpu -bin bin \
  -khronos-layer-path /tmp/vvl/usr/share/vulkan/explicit_layer.d \
  -command "scripts/nvidia-bench.sh (bin/bench/harness -preset gpu)" \
  -json "$OUT/nvidia-bench.json" -md "$OUT/nvidia-bench.md" 2>&1 | tee "$OUT/nvidia-bench.log"
rc=${PIPESTATUS[0]}
echo "harness rc=$rc"
[ -f "$OUT/nvidia-bench.md" ] && cat "$OUT/nvidia-bench.md"
exit $rc
