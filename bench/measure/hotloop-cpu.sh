#!/bin/bash
# CPU time (user + system) of the hot-loop scene on lavapipe, side by side
# (docs/BENCHMARKS.md, "The index-from-memory hot loop"): each
# configuration runs the scene twice, 1 + ITERS iterations and 1 iteration
# (warm-up 0), and the difference is the CPU time of ITERS iterations, so
# that start-up and instrumentation cancel; lavapipe runs the shaders on
# the app's threads, so on a shared machine CPU time is steadier than wall
# time. REPS repetitions alternate the configurations; each one's minimum
# is printed with its ratio to "none".
#
#   bash bench/measure/hotloop-cpu.sh CONFIG...
#
# CONFIG: none (no layer), a directory holding a gpuav-dbg layer (bin,
# build/mainbin...; every check on), or ref:VARIANT (a hand-checked
# reference variant, no layer). VARIANT=memory|masked picks the variant
# the layer configurations run (default memory). WORKGROUPS (default
# 2048), ITERS (default 20), REPS (default 3). From the repository root
# after `make build bench-apps`.
set -u
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-bench}
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
export MESA_SHADER_CACHE_DISABLE=1
v=${VARIANT:-memory} wg=${WORKGROUPS:-2048} iters=${ITERS:-20}
tmp=$(mktemp -d) && trap 'rm -rf "$tmp"' EXIT
cpu() { # $1 config, $2 iterations: prints user + system seconds
  local variant=$v cmd=()
  case $1 in
    none) ;;
    ref:*) variant=${1#ref:} ;;
    *) cmd=(env VK_ADD_LAYER_PATH="$PWD/$1" VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation
      VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB=1 VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1) ;;
  esac
  "${cmd[@]}" /usr/bin/time -f "%U %S" -o "$tmp/cpu" bin/bench/scene --scene hotloop --variant "$variant" \
    --workgroups "$wg" --warmup 0 --iters "$2" >"$tmp/out" 2>&1
  grep -q "bench: check ok" "$tmp/out" || { echo "hotloop-cpu.sh: $1 failed:" >&2; cat "$tmp/out" >&2; exit 1; }
  awk '{print $1 + $2}' "$tmp/cpu"
}
for rep in $(seq "${REPS:-3}"); do
  line="rep $rep (load $(cut -d' ' -f1 /proc/loadavg)):"
  for c in "$@"; do
    t=$(awk -v a="$(cpu "$c" $((iters + 1)))" -v b="$(cpu "$c" 1)" 'BEGIN {printf "%.2f", a - b}')
    echo "$c $t" >>"$tmp/all"
    line+=" $c $t s"
  done
  echo "$line"
done
echo "minimum over the repetitions ($v, $wg workgroups, $iters iterations, CPU time):"
awk '{ if (!($1 in m) || $2 < m[$1]) m[$1] = $2; if (!($1 in o)) o[$1] = n++ }
  END { for (k in o) printf "%d %-16s %6.2f s %6.3fx\n", o[k], k, m[k], m[k] / m["none"] }' "$tmp/all" | sort -n | cut -d' ' -f2-
