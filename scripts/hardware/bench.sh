#!/bin/bash
# The benchmark harness (bench/, docs/BENCHMARKS.md) on the machine's GPU:
# every scene side by side with no layer, gpuav-dbg (its defaults: every
# check), the Khronos layer's GPU-AV (1.3.239, .gl/vvl/), and a second
# Khronos version where .gl/vvl14/ has one (Debian trixie's
# vulkan-validationlayers 1.4.309: scripts/hardware/env.sh), plus the hot
# loop's hand-checked reference variants with no layer. From the repository
# root (scripts/hardware/build.sh apps first; on the NVIDIA machine carry
# bin/ and .gl/). It writes $OUT/bench-$PART.json (the results), .md (the
# table) and .log. The pipeline scene is split in two parts (each must end
# inside one device command): its ratios are each to the no-layer runs of
# their own part. Back here, the NVIDIA tables go into the docs with
#
#   go run ./bench -render DIR/bench-timed.json,DIR/bench-pipeline.json,DIR/bench-pipeline-khronos.json \
#     -section nvidia -write docs/BENCHMARKS.md
#
#   PART=timed       (default) the hot loop (masked, memory, math), dispatch, draw,
#                    draw_indirect and shader scenes, every configuration, 3 repetitions
#   PART=pipeline    the pipeline scene, no layer and gpuav-dbg, 2
#                    repetitions of one iteration
#   PART=pipeline-khronos  the pipeline scene, no layer and the Khronos
#                    layers, one repetition (two minutes an iteration on
#                    the H200)
#   PART=robust      the timed scenes with no layer, gpuav-dbg, its robust-only
#                    mode (--robust) and no layer on a device created with
#                    robustBufferAccess2/robustImageAccess2 (VK_EXT_robustness2),
#                    3 repetitions
#   PART=pipeline-robust  the pipeline scene with no layer, --robust and the
#                    driver's robustness2, 2 repetitions of one iteration
#   PART=custom      SCENES, REPS, BENCH_FLAGS as given
#   SCENES=LIST      scenes (custom; default dispatch,shader,draw,draw_indirect,pipeline)
#   REPS=N           repetitions (custom; default 3)
#   BENCH_FLAGS=...  more harness flags (custom)
#   BENCH_S=N        stop the harness after N seconds (default 520: inside
#                    the device tool's 600 s a command; what finished is kept)
#   PRESET=NAME      the scene sizes: gpu on the NVIDIA driver, lavapipe on
#                    lavapipe (the defaults)
set -u
. scripts/hardware/env.sh || exit 1
hw_device
[ -x bin/bench/harness ] || { echo "bench.sh: no bin/bench/harness (scripts/hardware/build.sh apps)"; exit 2; }
preset=${PRESET:-$([ "$HW_ICD" = lavapipe ] && echo lavapipe || echo gpu)}
part=${PART:-timed}
k2=()
if [ -n "${KHRONOS2_LAYER_PATH:-}" ]; then
  k2=(-khronos2-layer-path "$KHRONOS2_LAYER_PATH")
else
  echo "bench.sh: NOTICE: no second Khronos layer (.gl/vvl14/): its configuration is left out"
fi
case $part in
timed) args=(-scenes hotloop-masked,hotloop-memory,hotloop-math,dispatch,draw,draw_indirect,shader -reps 3 "${k2[@]}") ;;
pipeline) args=(-scenes pipeline -configs gpuav-dbg -reps 2 -warmup 0 -iters 1) ;;
pipeline-khronos)
  configs=khronos
  [ ${#k2[@]} -gt 0 ] && configs=khronos,khronos2
  args=(-scenes pipeline -configs "$configs" "${k2[@]}" -reps 1 -warmup 0 -iters 1 -skip-checks) ;;
robust) args=(-scenes hotloop-masked,hotloop-memory,hotloop-math,dispatch,draw,draw_indirect,shader
  -configs gpuav-dbg,gpuav-dbg-robust,driver-robust -reps 3) ;;
pipeline-robust) args=(-scenes pipeline -configs gpuav-dbg-robust,driver-robust -reps 2 -warmup 0 -iters 1) ;;
custom) args=(-scenes "${SCENES:-dispatch,shader,draw,draw_indirect,pipeline}" -reps "${REPS:-3}" ${BENCH_FLAGS:-}) ;;
*) echo "bench.sh: unknown PART=$part (timed, pipeline, pipeline-khronos, robust, pipeline-robust, custom)"; exit 2 ;;
esac
timeout "${BENCH_S:-520}" bin/bench/harness -preset "$preset" -bin bin "${args[@]}" \
  -khronos-layer-path "$KHRONOS_LAYER_PATH" \
  -command "PART=$part scripts/hardware/bench.sh (bin/bench/harness -preset $preset ${args[*]})" \
  -json "$OUT/bench-$part.json" -md "$OUT/bench-$part.md" >"$OUT/bench-$part.log" 2>&1
rc=$?
grep "×" "$OUT/bench-$part.log" | tail -8
[ -f "$OUT/bench-$part.md" ] && cat "$OUT/bench-$part.md"
echo "harness rc=$rc"
exit $rc
