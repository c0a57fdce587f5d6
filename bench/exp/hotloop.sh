#!/bin/bash
# Run time of the hot-loop scene (lavapipe sizes: 2,048 workgroups) with no
# layer ("none") and under each layer directory given, every check on,
# alternating them REPS times (default 3); prints each run's median
# iteration and, at the end, each configuration's minimum over the
# repetitions. VARIANT picks the scene variant (default masked).
#
#   bench/exp/build.sh ideal && bench/exp/hotloop.sh none bin bin/exp/ideal
set -u
cd "$(dirname "$0")/../.."
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-bench}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"; mkdir -p build/exp/logs
ALL="VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB=1 VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1"
V=${VARIANT:-masked}
sum=build/exp/logs/hotloop-summary.$$
for rep in $(seq 1 "${REPS:-3}"); do
  for d in "$@"; do
    if [ "$d" = none ]; then
      out=$(bin/bench/scene --scene hotloop --variant "$V" --workgroups 2048 --warmup 1 --iters 5 2>&1)
    else
      out=$(env VK_ADD_LAYER_PATH="$PWD/$d" VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation $ALL \
        bin/bench/scene --scene hotloop --variant "$V" --workgroups 2048 --warmup 1 --iters 5 2>&1)
    fi
    med=$(echo "$out" | awk '/^bench: iter/{print $4}' | sort -n | awk '{a[NR]=$1} END {if (NR) printf "%.1f", a[int((NR+1)/2)]/1e6}')
    ok=$(echo "$out" | grep -c "bench: check ok")
    printf "rep %d %-22s %s ms (check ok: %s, load %s)\n" "$rep" "$d" "${med:-FAILED}" "$ok" "$(cut -d' ' -f1 /proc/loadavg)"
    echo "$d ${med:-999999}" >> "$sum"
  done
done
echo "minimum over the repetitions ($V):"
awk '{ if (!($1 in m) || $2 < m[$1]) m[$1] = $2; if (!($1 in o)) o[$1] = n++ } END { for (k in o) printf "%d %-22s %8.1f ms\n", o[k], k, m[k] }' "$sum" | sort -n | cut -d' ' -f2-
rm -f "$sum"
