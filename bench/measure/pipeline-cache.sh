#!/bin/bash
# Pipeline creation from threads and from a warm VkPipelineCache (issue 34):
# the pipeline scene's corpus, no layer and the layer side by side, in
# alternating repetitions (REPS, default 3):
#   t1, tN     one iteration (--warmup 0 --iters 1, the cold creation) on 1
#              and on THREADS (default 8) threads
#   warm       the app's own VkPipelineCache: a first process creates the
#              corpus with an empty cache and saves its data (--cache FILE),
#              a second process loads it and is timed (each configuration
#              with its own cache file and, for the layer, its own
#              VK_LAYER_GPUAV_DBG_CACHE_DIR, both new each repetition)
# Per run: the in-app time of the iteration and the process's CPU time over
# it (every thread's; on lavapipe, which compiles on the app's threads, CPU
# time is the work, whatever else the machine runs). The summary gives each configuration's
# medians and the layer's ratios to no layer with the same threads.
#
#   bash scripts/hardware/run.sh pipeline-cache     (the NVIDIA machine)
#   bash bench/measure/pipeline-cache.sh            (here, lavapipe)
set -u
. scripts/hardware/env.sh || exit 1
hw_device
export MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0
L="VK_ADD_LAYER_PATH=$PWD/bin VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation"
nt=${THREADS:-8}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
all=$OUT/pipeline-cache-runs.txt
: >"$all"
# run NAME ENV ARGS...: one timed process; appends "NAME ms cpu_s" to $all.
run() {
  local name=$1 envs=$2
  shift 2
  local out
  out=$(env $envs bin/bench/scene --scene pipeline --warmup 0 --iters 1 "$@" 2>&1)
  grep -q "bench: check ok" <<<"$out" || { echo "pipeline-cache.sh: $name failed:"; tail -3 <<<"$out"; return; }
  awk -v n="$name" '/^bench: iter/{ms=$4/1e6} /^bench: cpu iter/{cpu=$5/1e6} END {printf "%s %.1f %.1f\n", n, ms, cpu}' <<<"$out" >>"$all"
}
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/pipeline-cache-summary.txt"
for rep in $(seq "${REPS:-3}"); do
  run none-t1 ""
  run layer-t1 "$L"
  run none-t$nt "" --threads "$nt"
  run layer-t$nt "$L" --threads "$nt"
  rm -rf "$tmp"/*
  run none-cold "" --cache "$tmp/none.bin" >/dev/null
  run none-warm "" --cache "$tmp/none.bin"
  run layer-cold "$L VK_LAYER_GPUAV_DBG_CACHE_DIR=$tmp/kept" --cache "$tmp/layer.bin"
  run layer-warm "$L VK_LAYER_GPUAV_DBG_CACHE_DIR=$tmp/kept" --cache "$tmp/layer.bin"
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for c in t1 t$nt cold warm; do
  for who in none layer; do
    ms=$(awk -v c="$who-$c" '$1 == c {print $2}' "$all" | median)
    cpu=$(awk -v c="$who-$c" '$1 == c {print $3}' "$all" | median)
    echo "$who-$c $ms $cpu"
  done
done | awk '{ms[$1]=$2; cpu[$1]=$3; order[NR]=$1} END {
  for (i = 1; i <= NR; i++) { n = order[i]; b = n; sub(/^layer/, "none", b)
    printf "%-12s in-app %8.1f ms (%5.2fx)  cpu %8.1f ms (%5.2fx)\n", n, ms[n], ms[n] / ms[b], cpu[n], cpu[n] / cpu[b] } }' |
  tee -a "$OUT/pipeline-cache-summary.txt"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/pipeline-cache-summary.txt"
