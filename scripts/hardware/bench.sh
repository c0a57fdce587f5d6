#!/bin/bash
# The benchmark harness (bench/, docs/BENCHMARKS.md) on the machine's GPU:
# every scene with no layer, our layer and Khronos GPU-AV, from the
# repository root (scripts/hardware/build.sh apps first; on the NVIDIA
# machine carry bin/ and .gl/ with .gl/vvl/: scripts/hardware/env.sh).
# It writes $OUT/bench.json (the results), $OUT/bench.md (the table) and
# $OUT/bench.log. Back here, the NVIDIA table goes into the docs with
#
#   go run ./bench -render FILES_AT/bench.json -section nvidia -write docs/BENCHMARKS.md
#
#   SCENES=LIST      scenes (default dispatch,shader,draw,pipeline)
#   REPS=N           repetitions (default 3)
#   BENCH_FLAGS=...  more harness flags, e.g. "-warmup 0 -iters 1 -skip-checks"
#                    for the pipeline scene alone (Khronos GPU-AV takes about
#                    a minute per iteration of it on the H200)
#   BENCH_S=N        stop the harness after N seconds (default 520: inside
#                    the device tool's 600 s a command)
#   PRESET=NAME      the scene sizes: gpu on the NVIDIA driver, lavapipe on
#                    lavapipe (the defaults)
set -u
. scripts/hardware/env.sh || exit 1
hw_device
[ -x bin/bench/harness ] || { echo "bench.sh: no bin/bench/harness (scripts/hardware/build.sh apps)"; exit 2; }
preset=${PRESET:-$([ "$HW_ICD" = lavapipe ] && echo lavapipe || echo gpu)}
timeout "${BENCH_S:-520}" bin/bench/harness -preset "$preset" -bin bin \
  -scenes "${SCENES:-dispatch,shader,draw,pipeline}" -reps "${REPS:-3}" ${BENCH_FLAGS:-} \
  -khronos-layer-path "$KHRONOS_LAYER_PATH" \
  -command "scripts/hardware/bench.sh (bin/bench/harness -preset $preset -scenes ${SCENES:-dispatch,shader,draw,pipeline} ${BENCH_FLAGS:-})" \
  -json "$OUT/bench.json" -md "$OUT/bench.md" >"$OUT/bench.log" 2>&1
rc=$?
grep "×" "$OUT/bench.log" | tail -8
[ -f "$OUT/bench.md" ] && cat "$OUT/bench.md"
echo "harness rc=$rc"
exit $rc
