#!/bin/bash
# Where the time of the draw and dispatch scenes goes (docs/BENCHMARKS.md,
# "Where the time goes"): recording, vkQueueSubmit and the fence wait
# (BENCH_PHASES=1) with no layer and each layer of LAYER_DIRS, two
# repetitions; then the pipeline scene's module and pipeline creation times
# per pipeline with no layer and ours, the 16 pipelines it adds most to. From the repository root
# (scripts/hardware/build.sh apps; carry bin/ and .gl/ on the NVIDIA
# machine): bash bench/measure/phases.sh, or as a step of
# scripts/hardware/run.sh. Files: $OUT/SCENE-CONFIG-REP.txt, $OUT/pipe-*.txt.
#   DIAG_SCENES="draw dispatch"  the scenes split into phases
#   ITERS=N                      timed iterations (default 20; 3 on lavapipe)
#   SKIP_PIPELINE=1              no pipeline scene
set -u
. scripts/hardware/env.sh || exit 1
# LAYER_DIRS: the layer builds compared with no layer, each a directory
# holding the library and its manifest (default: bin, ours).
LAYER_DIRS=${LAYER_DIRS:-bin}
hw_device
export MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0
iters=${ITERS:-$([ "$HW_ICD" = lavapipe ] && echo 3 || echo 20)}
# summ: the mean record, submit and wait times of the "phase: iter" lines.
summ() { awk '/^phase: iter/{r+=$5; s+=$7; w+=$9; n++} END {if (n) printf "record %.3f ms  submit %.3f ms  wait %.3f ms  (n=%d)\n", r/n/1e6, s/n/1e6, w/n/1e6, n}'; }
for scene in ${DIAG_SCENES:-draw dispatch}; do
  for rep in 1 2; do
    for cfg in none $LAYER_DIRS; do
      run=(env BENCH_PHASES=1 bin/bench/scene --scene "$scene" --spv bin/bench/spv --warmup 3 --iters "$iters")
      [ $cfg = none ] || run=(hw_ours "${run[@]}")
      r=$(HW_LAYER_DIR=$cfg "${run[@]}" 2>&1 | tee "$OUT/$scene-${cfg//\//_}-$rep.txt" | summ)
      printf "%-8s rep %d %-12s %s\n" "$scene" $rep $cfg "$r"
    done
  done
done
[ -n "${SKIP_PIPELINE:-}" ] && exit 0
echo "== pipeline, per pipeline"
BENCH_PHASES=1 timeout 60 bin/bench/scene --scene pipeline --spv bin/bench/spv --warmup 0 --iters 1 >"$OUT/pipe-none.txt" 2>&1
hw_ours env BENCH_PHASES=1 timeout 120 bin/bench/scene --scene pipeline --spv bin/bench/spv --warmup 0 --iters 1 \
  >"$OUT/pipe-ours.txt" 2>&1
grep "bench: iter" "$OUT/pipe-none.txt" "$OUT/pipe-ours.txt"
join -j 1 <(awk '/^phase: pipeline/{print $4, $6, $8}' "$OUT/pipe-none.txt" | sort) \
          <(awk '/^phase: pipeline/{print $4, $6, $8}' "$OUT/pipe-ours.txt" | sort) |
  awk '{printf "%9.2f %-24s none mod %6.2f pipe %8.2f | ours mod %6.2f pipe %8.2f ms\n", ($4+$5-$2-$3)/1e6, $1, $2/1e6, $3/1e6, $4/1e6, $5/1e6;
        a+=$2; b+=$3; c+=$4; d+=$5}
       END {printf "%9s TOTAL none mod %.2f pipe %.2f | ours mod %.2f pipe %.2f s\n", "added ms", a/1e9, b/1e9, c/1e9, d/1e9}' |
  sort -n | tail -16
