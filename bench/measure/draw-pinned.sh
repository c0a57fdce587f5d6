#!/bin/bash
# The draw scene's recording time (BENCH_PHASES=1, ITERS iterations after 3
# warm-up) with no layer and each layer of LAYER_DIRS, three runs unpinned and three
# pinned to one CPU (CPU=3): min, median and max per run (the H200 host
# runs at two speeds: docs/BENCHMARKS.md). From the repository root
# (scripts/hardware/build.sh apps; carry bin/ and .gl/ on the NVIDIA
# machine): bash bench/measure/draw-pinned.sh, or a step of
# scripts/hardware/run.sh.
#   ITERS=N   timed iterations (default 30; 3 on lavapipe)
set -u
. scripts/hardware/env.sh || exit 1
# LAYER_DIRS: the layer builds compared with no layer, each a directory
# holding the library and its manifest (default: bin, ours).
LAYER_DIRS=${LAYER_DIRS:-bin}
hw_device
nproc; lscpu | grep -E "Model name|NUMA node|Thread" | head -5
export __GL_SHADER_DISK_CACHE=0
iters=${ITERS:-$([ "$HW_ICD" = lavapipe ] && echo 3 || echo 30)}
st() { awk '/^phase: iter/{print $5/1e6}' | sort -n | awk '{a[NR]=$1} END {printf "min %.3f med %.3f max %.3f", a[1], a[int((NR+1)/2)], a[NR]}'; }
for pin in "" "taskset -c ${CPU:-3}"; do
  for rep in 1 2 3; do
    for cfg in none $LAYER_DIRS; do
      run=(env BENCH_PHASES=1 $pin bin/bench/scene --scene draw --spv bin/bench/spv --warmup 3 --iters "$iters")
      [ $cfg = none ] || run=(hw_ours "${run[@]}")
      printf "%-14s rep %d %-12s record %s\n" "${pin:-unpinned}" $rep $cfg "$(HW_LAYER_DIR=$cfg "${run[@]}" 2>&1 | st)"
    done
  done
done
