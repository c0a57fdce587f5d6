#!/bin/bash
# Which part of the layer a scene pays for: the scene's per-iteration
# median with no layer, with the layer's defaults, and with the layer and
# one part changed at a time (PARTS), alternated, REPS times; each run's
# median of its timed iterations, then the median over the repetitions,
# and its ratio to no layer.
#
#   SCENE=dispatch ARGS="--dispatches 1000" bash bench/measure/layer-parts.sh
#   SCENE=... bash scripts/hardware/run.sh layer-parts   (the NVIDIA machine)
#
# PARTS is a space-separated list of NAME=VAR=VALUE[,VAR=VALUE...], the
# layer's variables for that run (default: the watchdog off, loop_budget
# off, both off).
set -u
. scripts/hardware/env.sh || exit 1
scene=${SCENE:-dispatch}
args=${ARGS:---dispatches 1000}
reps=${REPS:-3}
warmup=${WARMUP:-3}
iters=${ITERS:-20}
parts=${PARTS:-"watchdog-off=VK_LAYER_GPUAV_DBG_WATCHDOG_SECONDS=0 loop-budget-off=VK_LAYER_GPUAV_DBG_CHECK_LOOP_BUDGET=0 both-off=VK_LAYER_GPUAV_DBG_WATCHDOG_SECONDS=0,VK_LAYER_GPUAV_DBG_CHECK_LOOP_BUDGET=0"}
all=$OUT/layer-parts-$scene.txt
: >"$all"
layer=(VK_ADD_LAYER_PATH="$PWD/bin" VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation)
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# one NAME [VAR=VALUE...]: a run of the scene, its median iteration in ns.
one() {
  local name=$1 m
  shift
  m=$(env MESA_SHADER_CACHE_DISABLE=true __GL_SHADER_DISK_CACHE=0 "$@" bin/bench/scene --scene "$scene" $args \
    --warmup "$warmup" --iters "$iters" 2>&1 | awk '/^bench: iter/ {print $4}' | median)
  echo "$name ${m:-failed}" >>"$all"
}
echo "$scene $args: load at the start $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/layer-parts-$scene-summary.txt"
names="none default"
for p in $parts; do names="$names ${p%%=*}"; done
for rep in $(seq "$reps"); do
  one none
  one default "${layer[@]}"
  for p in $parts; do
    IFS=, read -r -a vars <<<"${p#*=}"
    one "${p%%=*}" "${layer[@]}" "${vars[@]}"
  done
done
base=$(awk '$1 == "none" {print $2}' "$all" | median)
for n in $names; do
  m=$(awk -v n="$n" '$1 == n {print $2}' "$all" | median)
  awk -v n="$n" -v m="$m" -v b="$base" -v runs="$(awk -v n="$n" '$1 == n {printf "%s ", $2}' "$all")" \
    'BEGIN {printf "%-16s %10.1f us  %5.2fx  (runs: %s)\n", n, m / 1000, m / b, runs}'
done | tee -a "$OUT/layer-parts-$scene-summary.txt"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/layer-parts-$scene-summary.txt"
