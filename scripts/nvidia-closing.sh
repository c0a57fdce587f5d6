#!/bin/bash
# The closing device runs of a session, in two parts that each fit one
# device command (carry bin and .gl; make build bench-apps and
# scripts/build-layer-tests.sh first). Everything lands in one archive,
# $OUT/part<N>.tgz, since a run brings back only a few files.
#   PART=1: the layer's test suite, the harness's pipeline scene (one
#           repetition of one iteration: Khronos GPU-AV takes about a
#           minute per iteration there), and the per-pipeline and draw
#           phase splits (scripts/nvidia-diag.sh).
#   PART=2: the harness on the dispatch, shader and draw scenes.
set -u
FINAL=${OUT:-/tmp/out}; export OUT=/tmp/o; mkdir -p "$OUT" "$FINAL"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
if [ "${PART:-1}" = 1 ]; then
  echo "== layer tests"
  timeout 170 bash scripts/nvidia-layer-tests.sh > $OUT/layer-tests.log 2>&1
  grep -E "^--- (FAIL|SKIP)|^rc=|ns_per_draw|submit_to" $OUT/layer-tests.log
  echo "passed: $(grep -c '^--- PASS' $OUT/layer-tests.log)"
  grep -B2 -A3 -- "--- .*TestSeveralQueues" $OUT/layer-tests.log | head -12
  echo "== pipeline scene (harness)"
  BENCH_S=200 bash scripts/nvidia-pipeline.sh
  cat $OUT/nvidia-pipeline.md | grep -E "^\| pipeline|^- (pipeline|Layers)"
  echo "== phases"
  DIAG_SCENES=draw bash scripts/nvidia-diag.sh 2>&1 | grep -v "exp/"
else
  echo "== harness: dispatch, shader, draw"
  LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu timeout ${BENCH_S:-420} bin/bench/harness -preset gpu -bin bin \
    -scenes dispatch,shader,draw -reps ${REPS:-3} \
    -khronos-layer-path /tmp/vvl/usr/share/vulkan/explicit_layer.d \
    -command "scripts/nvidia-closing.sh (PART=2: bin/bench/harness -preset gpu -scenes dispatch,shader,draw)" \
    -json "$OUT/nvidia-bench.json" -md "$OUT/nvidia-bench.md" > $OUT/bench.log 2>&1
  echo "harness rc=$?"; grep -E "×" $OUT/bench.log | tail -8
  grep -E "^\| (dispatch|shader|draw)" $OUT/nvidia-bench.md
fi
tar czf "$FINAL/part${PART:-1}.tgz" -C "$OUT" .
ls -la "$FINAL"
