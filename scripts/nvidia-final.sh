#!/bin/bash
# One device run for the closing numbers (see docs/HARDWARE.md): the layer's
# test suite (scripts/build-layer-tests.sh first), the create/destroy loop
# with and without the layer, and the benchmark harness on the dispatch,
# shader and draw scenes (make build bench-apps first). Carry bin and .gl.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
T=bin/layer-tests
if [ -z "${SKIP_TESTS:-}" ]; then
echo "== create/destroy loop, no layer"
VK_LOADER_DEBUG=error,warn $T/multi --mode loop --loops 100 --comp $T/multi_compute.spv > $OUT/loop-nolayer.txt 2>&1; echo "rc=$?"; grep -E "^multi: loop|^(rss_kb|fds|threads)_|ERROR|WARNING" $OUT/loop-nolayer.txt | head -20
echo "== create/destroy loop, layer"
VK_LOADER_DEBUG=error,warn VK_ADD_LAYER_PATH=$PWD/$T VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation $T/multi --mode loop --loops 100 --comp $T/multi_compute.spv > $OUT/loop-layer.txt 2>&1; echo "rc=$?"; grep -E "^multi: loop|^(rss_kb|fds|threads)_|ERROR|WARNING" $OUT/loop-layer.txt | head -20
echo "== layer tests"
timeout 150 bash scripts/nvidia-layer-tests.sh > $OUT/layer-tests.log 2>&1; grep -E "^--- (FAIL|PASS)|^rc=|ns_per_draw|submit_to" $OUT/layer-tests.log | grep -v PASS
grep -c "^--- PASS" $OUT/layer-tests.log
fi
[ "${SCENES:-}" = none ] && exit 0
echo "== bench"
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu timeout ${BENCH_S:-330} bin/bench/harness -preset gpu -bin bin -scenes ${SCENES:-dispatch,shader,draw} -reps ${REPS:-3} ${BENCH_FLAGS:-} \
  -khronos-layer-path /tmp/vvl/usr/share/vulkan/explicit_layer.d \
  -command "scripts/nvidia-final.sh (bin/bench/harness -preset gpu)" \
  -json "$OUT/nvidia-bench.json" -md "$OUT/nvidia-bench.md" > $OUT/bench.log 2>&1
echo "harness rc=$?"; grep -E "×" $OUT/bench.log | tail -8
