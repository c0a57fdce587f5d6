#!/bin/bash
# What one vkCmdDraw costs to record (bench/record/record.c: DRAWS draws,
# the best of 5 recordings, ns per draw), with no layer and each layer of
# LAYER_DIRS; plain, with
# the app binding set 0 before every draw (--bind-per-draw), binding one
# of 64 sets before every draw as the draw scene does (--sets64: the
# layer decides the pipeline's facts at every draw), and with a
# 4-byte vkCmdPushConstants before every draw (--push-per-draw); REPS runs
# of each in turn, min and median over the runs (the minimum is the host's
# fast speed: docs/BENCHMARKS.md, "two speeds"). From the repository root
# (scripts/hardware/build.sh apps; carry bin/ and .gl/ on the NVIDIA
# machine): bash bench/measure/draw-record.sh, or a step of
# scripts/hardware/run.sh. It replaces scripts/nvidia-bind-cost.sh and
# nvidia-push-vs-bind.sh (docs/decisions/experiments-out-of-the-product.md).
#   DRAWS=N (default 4000)   REPS=N (default 7)
set -u
. scripts/hardware/env.sh || exit 1
# LAYER_DIRS: the layer builds compared with no layer, each a directory
# holding the library and its manifest (default: bin, ours).
LAYER_DIRS=${LAYER_DIRS:-bin}
hw_device
[ -x bin/bench/record ] || { echo "draw-record.sh: no bin/bench/record (scripts/hardware/build.sh apps)"; exit 2; }
for cfg in none $LAYER_DIRS; do
  for mode in plain --bind-per-draw --sets64 --push-per-draw; do : >"$OUT/record-${cfg//\//_}$mode.txt"; done
done
for rep in $(seq "${REPS:-7}"); do
  for cfg in none $LAYER_DIRS; do
    for mode in plain --bind-per-draw --sets64 --push-per-draw; do
      run=(bin/bench/record --draws "${DRAWS:-4000}")
      case $mode in
      plain) ;;
      --sets64) run+=(--bind-per-draw --sets 64) ;;
      *) run+=("$mode") ;;
      esac
      [ $cfg = none ] || run=(hw_ours "${run[@]}")
      HW_LAYER_DIR=$cfg "${run[@]}" 2>/dev/null | sed -n 's/ns_per_draw=//p' >>"$OUT/record-${cfg//\//_}$mode.txt"
    done
  done
done
failed=0
for cfg in none $LAYER_DIRS; do
  for mode in plain --bind-per-draw --sets64 --push-per-draw; do
    f=$OUT/record-${cfg//\//_}$mode.txt
    [ -s "$f" ] || failed=1
    sort -n "$f" | awk -v n="$cfg ${mode#--}" '{a[NR]=$1} END {
      if (NR) printf "%-24s ns per draw: min %.2f median %.2f (%d runs)\n", n, a[1], a[int((NR+1)/2)], NR
      else printf "%-24s no figures\n", n}'
  done
done
exit $failed
