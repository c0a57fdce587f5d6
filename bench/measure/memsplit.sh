#!/bin/bash
# Where the index-from-memory hot loop's time under the layer goes: the
# scene's memory and masked variants with no layer, under the layer with
# every check on, and under the layer with one check off at a time
# (descriptor_index_oob off: no per-iteration test, what is left is the
# layer's fixed cost; buffer_oob off: the output store's check gone; the
# layer with on_error execute: the failed read neither clamped nor zeroed), plus
# the hand-written select and guard references with no layer, and select
# with its failure buffer in a second descriptor set (select_set1), and
# select with its failures reported once after the loop (fold). REPS
# alternating repetitions (default 3) of ITERS iterations (default 20) at
# WORKGROUPS (default 65536); per configuration the median of the runs'
# median iterations and its ratio to no layer. BENCH_STATS=1 first prints
# the driver's statistics of each configuration's pipeline (registers, binary size).
#
#   bash scripts/hardware/run.sh memsplit
set -u
. scripts/hardware/env.sh || exit 1
hw_device
export MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0
wg=${WORKGROUPS:-65536} iters=${ITERS:-20}
L="VK_ADD_LAYER_PATH=$PWD/bin VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB=1 VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1"
configs=(
  "none|memory|"
  "ref-select|select|"
  "ref-guard|guard|"
  "ref-select_set1|select_set1|"
  "ref-fold|fold|"
  "layer|memory|$L"
  "layer-noindex|memory|$L VK_LAYER_GPUAV_DBG_CHECK_DESCRIPTOR_INDEX_OOB=0"
  "layer-nobuffer|memory|$L VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB=0"
  "layer-execute|memory|$L VK_LAYER_GPUAV_DBG_ON_ERROR=execute"
  "masked-none|masked|"
  "masked-layer|masked|$L"
)
# EXPS: experiment layers built into bin/exp/NAME (an experiment is a patch
# built into a directory of its own: docs/decisions/experiments-out-of-the-product.md), each on
# the memory variant with every check on.
for e in ${EXPS:-}; do
  configs+=("exp-$e|memory|${L/$PWD\/bin/$PWD/bin/exp/$e}")
done
if [ "${BENCH_STATS:-}" = 1 ]; then
  for c in "${configs[@]}"; do
    IFS='|' read -r name variant envs <<<"$c"
    env $envs bin/bench/scene --scene hotloop --variant "$variant" --workgroups 64 --warmup 0 --iters 1 2>&1 |
      sed -n "s/^stats: [^ ]* CS: \(Register Count\|Binary Size\)/$name: \\1/p"
  done | tee "$OUT/memsplit-stats.txt"
fi
all=$OUT/memsplit-runs.txt
: >"$all"
for rep in $(seq "${REPS:-3}"); do
  for c in "${configs[@]}"; do
    IFS='|' read -r name variant envs <<<"$c"
    out=$(env $envs bin/bench/scene --scene hotloop --variant "$variant" --workgroups "$wg" \
      --warmup "${WARMUP:-3}" --iters "$iters" 2>&1)
    grep -q "bench: check ok" <<<"$out" || { echo "memsplit.sh: $name failed:"; tail -3 <<<"$out"; continue; }
    med=$(awk '/^bench: iter/{print $4}' <<<"$out" | sort -n | awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1e3}')
    echo "$name $med" >>"$all"
  done
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
for c in "${configs[@]}"; do
  name=${c%%|*}
  base=$(awk -v b="$([ "${name#masked}" != "$name" ] && echo masked-none || echo none)" '$1 == b {print $2}' "$all" | median)
  med=$(awk -v c="$name" '$1 == c {print $2}' "$all" | median)
  awk -v c="$name" -v m="$med" -v b="$base" 'BEGIN {printf "%-16s median %9.1f us %6.3fx\n", c, m, m / b}'
done | tee "$OUT/memsplit-summary.txt"
