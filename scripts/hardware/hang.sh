#!/bin/bash
# The draw that hung apps on NVIDIA (docs/decisions/bounded-waits.md;
# e2e TestDescriptorNonUniformInstance): descapp's instance_nonuniform case
# run HANG_ROUNDS (default 10) times in each configuration — no layer, our
# layer under skip, clamp and execute, and, when LAYER_OLD names another
# layer directory, that layer under skip, and the Khronos layer's GPU-AV
# (.gl/vvl) — each run bounded by
# HANG_TIMEOUT (default 30 s) and counted as a hang past it. The first
# round runs first thing on the machine (the hangs were seen on a fresh
# one). After scripts/hardware/build.sh e2e-tests; carry bin/ and .gl/.
#
#   bash scripts/hardware/hang.sh
#   HANG_ROUNDS=20 LAYER_OLD=bin/old bash scripts/hardware/hang.sh
set -u
. scripts/hardware/env.sh || exit 1
hw_device
app=bin/e2e-tests/descapp/descapp
shaders=bin/e2e-tests/descapp
[ -x "$app" ] || { echo "no $app (scripts/hardware/build.sh e2e-tests)"; exit 2; }
rounds=${HANG_ROUNDS:-10} limit=${HANG_TIMEOUT:-30}
configs=("none" "skip" "clamp" "execute" "khronos")
[ -n "${LAYER_OLD:-}" ] && configs+=("old")
declare -A hung ran
log=$OUT/hang.txt
: >"$log"
for r in $(seq "$rounds"); do
  for c in "${configs[@]}"; do
    start=$(date +%s.%N)
    case "$c" in
      none) timeout -s KILL "$limit" "$app" --shaders "$shaders" --stage vertex --case instance_nonuniform >"$OUT/last.txt" 2>&1 ;;
      khronos) hw_khronos timeout -s KILL "$limit" "$app" --shaders "$shaders" --stage vertex --case instance_nonuniform >"$OUT/last.txt" 2>&1 ;;
      old) GPUAV_DBG_LAYER_PATH=$LAYER_OLD timeout -s KILL "$limit" setsid bin/gpuav-dbg run --headless --json "$OUT/r.json" \
             --session "$OUT/s.gvs" -- "$app" --shaders "$shaders" --stage vertex --case instance_nonuniform >"$OUT/last.txt" 2>&1 ;;
      *) timeout -s KILL "$limit" setsid bin/gpuav-dbg run --headless --on-error "$c" --json "$OUT/r.json" \
             --session "$OUT/s.gvs" -- "$app" --shaders "$shaders" --stage vertex --case instance_nonuniform >"$OUT/last.txt" 2>&1 ;;
    esac
    rc=$?
    el=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
    ran[$c]=$((${ran[$c]:-0} + 1))
    if [ $rc = 137 ] || [ $rc = 124 ]; then
      hung[$c]=$((${hung[$c]:-0} + 1))
      echo "round $r $c: HUNG after $el s" | tee -a "$log"
      pkill -KILL -f descapp 2>/dev/null
    else
      echo "round $r $c: rc=$rc $(grep -o 'value=[0-9]*' "$OUT/last.txt" | tail -1) ${el}s" >>"$log"
    fi
    rm -f "$OUT/s.gvs" "$OUT/s.gvs".*
  done
done
for c in "${configs[@]}"; do echo "hang: $c ran ${ran[$c]:-0} hung ${hung[$c]:-0}"; done | tee -a "$log"
total=0; for c in "${configs[@]}"; do total=$((total + ${hung[$c]:-0})); done
[ "$total" = 0 ]
