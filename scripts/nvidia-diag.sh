#!/bin/bash
# Where the time goes on the NVIDIA machine (docs/benchmarks-history.md): the draw
# and dispatch scenes split into recording, vkQueueSubmit and the fence wait
# (BENCH_PHASES=1) with no layer, our layer and the experiment variants of
# scripts/build-experiments.sh; the pipeline scene's per-pipeline module and
# pipeline times with no layer and our layer. With LAYER_TESTS=1 it first
# runs the layer's test suite (scripts/build-layer-tests.sh). Carry bin, .gl.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
export MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0
if [ -n "${LAYER_TESTS:-}" ]; then
  echo "== layer tests"
  timeout 170 bash scripts/nvidia-layer-tests.sh > $OUT/layer-tests.log 2>&1
  grep -E "^--- (FAIL|SKIP)|^rc=|ns_per_draw|submit_to" $OUT/layer-tests.log
  echo "passed: $(grep -c '^--- PASS' $OUT/layer-tests.log)"
  grep -A12 "=== RUN   TestSeveralQueues" $OUT/layer-tests.log | head -30
fi
summ() { awk '/^phase: iter/{r+=$5; s+=$7; w+=$9; n++} END {if (n) printf "record %.3f ms  submit %.3f ms  wait %.3f ms  (n=%d)\n", r/n/1e6, s/n/1e6, w/n/1e6, n}'; }
for scene in ${DIAG_SCENES:-draw dispatch}; do
  for rep in 1 2; do
    for v in none bin bin/exp/one-slot bin/exp/no-snapshot bin/exp/neither bin/exp/dynamic bin/exp/slot4; do
      [ $v = none ] || [ -d $v ] || continue # experiments not built
      if [ $v = none ]; then
        r=$(BENCH_PHASES=1 bin/bench/scene --scene $scene --spv bin/bench/spv --warmup 3 --iters 20 2>&1 | tee $OUT/$scene-none-$rep.txt | summ)
      else
        r=$(VK_ADD_LAYER_PATH=$PWD/$v VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation BENCH_PHASES=1 \
          bin/bench/scene --scene $scene --spv bin/bench/spv --warmup 3 --iters 20 2>&1 | tee $OUT/$scene-${v//\//_}-$rep.txt | summ)
      fi
      printf "%-8s rep %d %-22s %s\n" $scene $rep $v "$r"
    done
  done
done
if [ -z "${SKIP_PIPELINE:-}" ]; then
  echo "== pipeline, per pipeline"
  BENCH_PHASES=1 timeout 60 bin/bench/scene --scene pipeline --spv bin/bench/spv --warmup 0 --iters 1 > $OUT/pipe-none.txt 2>&1
  VK_ADD_LAYER_PATH=$PWD/bin VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation BENCH_PHASES=1 timeout 120 \
    bin/bench/scene --scene pipeline --spv bin/bench/spv --warmup 0 --iters 1 > $OUT/pipe-ours.txt 2>&1
  grep "bench: iter" $OUT/pipe-none.txt $OUT/pipe-ours.txt
  join -j 1 <(awk '/^phase: pipeline/{print $4, $6, $8}' $OUT/pipe-none.txt | sort) \
            <(awk '/^phase: pipeline/{print $4, $6, $8}' $OUT/pipe-ours.txt | sort) |
    awk '{printf "%9.2f %-24s none mod %6.2f pipe %8.2f | ours mod %6.2f pipe %8.2f ms\n", ($4+$5-$2-$3)/1e6, $1, $2/1e6, $3/1e6, $4/1e6, $5/1e6;
          a+=$2; b+=$3; c+=$4; d+=$5}
         END {printf "%9s TOTAL none mod %.2f pipe %.2f | ours mod %.2f pipe %.2f s\n", "added ms", a/1e9, b/1e9, c/1e9, d/1e9}' | sort -n | tail -16
fi
