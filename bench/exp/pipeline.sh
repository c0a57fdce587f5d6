#!/bin/bash
# Times the pipeline-creation scene (one iteration, no warm-up, drivers'
# shader caches off) with no layer ("none") and under each layer directory
# given, every check on, alternating them REPS times (default 1); prints
# each run's wall time and the process's CPU time (instrumentation and
# compiles; start-up is about 0.06 s of it) and keeps the per-pipeline split (BENCH_PHASES=1) in
# build/exp/logs/pipeline-<dir>-<rep>.txt.
#
#   bench/exp/pipeline.sh none bin bin/exp/floor
set -u
cd "$(dirname "$0")/../.."
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-bench} MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0 BENCH_PHASES=1
mkdir -p -m 700 "$XDG_RUNTIME_DIR"; mkdir -p build/exp/logs
ALL="VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB=1 VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1 ${EXTRA_ENV:-}"
for rep in $(seq 1 "${REPS:-1}"); do
  for d in "$@"; do
    log=build/exp/logs/pipeline-${d//\//_}-$rep.txt
    if [ "$d" = none ]; then
      /usr/bin/time -f "cpu %U %S" -o "$log.time" bin/bench/scene --scene pipeline --warmup 0 --iters 1 > "$log" 2>&1
    else
      env VK_ADD_LAYER_PATH="$PWD/$d" VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation $ALL \
        /usr/bin/time -f "cpu %U %S" -o "$log.time" bin/bench/scene --scene pipeline --warmup 0 --iters 1 > "$log" 2>&1
    fi
    t=$(awk '/^bench: iter 0/{printf "%.2f s", $4/1e9}' "$log")
    cpu=$(awk '/^cpu/{printf "%.2f s", $2+$3}' "$log.time")
    printf "rep %d %-22s wall %-9s cpu %-9s (load %s)\n" "$rep" "$d" "${t:-FAILED}" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
