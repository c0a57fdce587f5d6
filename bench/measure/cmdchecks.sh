#!/bin/bash
# What the command checks (index_buffer_oob, vertex_fetch_oob,
# indirect_command) cost in the draw-heavy, indirect-draw-heavy and
# dispatch-heavy scenes: each scene with no layer, with our layer and every
# default check, and with our layer and the three command checks off; the
# configurations alternate, REPS rounds (default 5). A run's time is the
# median of its timed iterations (the scene's own clock); the table gives
# the median over the rounds and the ratios to no layer. From the
# repository root after `make build bench-apps` (on the NVIDIA machine:
# scripts/hardware/build.sh apps, carry bin/ and .gl/); GPUAVDBG_ICD picks
# the driver (scripts/hardware/env.sh). Output: $OUT/cmdchecks.txt.
#
#   SCENES="draw draw_indirect dispatch"  ITERS=6 WARMUP=1 REPS=5
set -u
. scripts/hardware/env.sh || exit 1
S=bin/bench/scene
[ -x "$S" ] || { echo "cmdchecks.sh: no $S (make bench-apps)"; exit 2; }
off="VK_LAYER_GPUAV_DBG_CHECK_INDEX_BUFFER_OOB=0 VK_LAYER_GPUAV_DBG_CHECK_VERTEX_FETCH_OOB=0 VK_LAYER_GPUAV_DBG_CHECK_INDIRECT_COMMAND=0"
args() {
  case $1 in
  dispatch) echo --dispatches 1000 ;;
  *) echo --draws 10000 --sets 64 ;;
  esac
}
# one CONFIG SCENE: the median iteration time of one run, in ms.
one() {
  local cfg=$1 scene=$2 out
  local run=("$S" --scene "$scene" $(args "$scene") --warmup "${WARMUP:-1}" --iters "${ITERS:-6}")
  case $cfg in
  none) out=$("${run[@]}" 2>&1) ;;
  ours) out=$(hw_ours "${run[@]}" 2>&1) ;;
  ours-cmd-off) out=$(hw_ours env $off "${run[@]}" 2>&1) ;;
  esac
  grep -q "check ok" <<<"$out" || { echo "cmdchecks.sh: $cfg $scene did not check ok:" >&2; echo "$out" | tail -5 >&2; return 1; }
  grep '^bench: iter [0-9]' <<<"$out" | awk '{print $4/1e6}' | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'
}
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }
{
  hw_device
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
  printf '%-14s %10s %10s %8s %14s %8s\n' scene none ours ratio ours-cmd-off ratio
  for scene in ${SCENES:-draw draw_indirect dispatch}; do
    declare -A t=()
    for r in $(seq "${REPS:-5}"); do
      for cfg in none ours ours-cmd-off; do
        v=$(one $cfg "$scene") || exit 1
        t[$cfg]="${t[$cfg]:-} $v"
      done
    done
    n=$(echo "${t[none]}" | median); o=$(echo "${t[ours]}" | median); f=$(echo "${t[ours-cmd-off]}" | median)
    printf '%-14s %8.1fms %8.1fms %7.2fx %12.1fms %7.2fx\n' "$scene" "$n" "$o" "$(echo "$o / $n" | bc -l)" "$f" "$(echo "$f / $n" | bc -l)"
    for cfg in none ours ours-cmd-off; do echo "  $scene $cfg:${t[$cfg]}"; done
    unset t
  done
  echo "load: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT/cmdchecks.txt"
