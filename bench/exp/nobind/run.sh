#!/bin/bash
# The no-bind experiment (docs/decisions/no-bind-for-check-free-variants.md):
# the dispatch and draw scenes and bin/bench/record's loops with their
# shaders' indices masked into range (this directory's copies), so that
# each pipeline's fast variant has no check left, as facts about push
# constants and the grid will make the scenes' own shaders. Runs each with
# no layer ("none") and under each layer directory given, alternating
# them REPS times (default 3), every check on; prints per run the scenes'
# median iteration (wall, measured inside the app) and the process's CPU
# time, and record's ns per action (best of its 5 recordings) for plain
# draws, one of 64 sets bound before each draw, a push constant before
# each draw, and a push constant before each dispatch (the dispatch
# scene's loop). Logs go to $OUT/nobind (scripts/hardware/env.sh).
#
#   bash bench/exp/nobind/run.sh build        # here: bin/exp/nobind/spv (make build bench-apps first)
#   bash bench/exp/nobind/run.sh none bin/exp/nobind-base bin
#   DISPATCHES=1000 DRAWS=10000 ITERS=10 REPS=3
#
# The run needs no compiler, so it runs on the NVIDIA machine too (carry
# bin/ and .gl/). A layer directory of another commit (bin/exp/nobind-base:
# main 20262b3, before the change) is built from a worktree of it:
#   git worktree add --detach /tmp/base 20262b3 && (cd /tmp/base &&
#   go build -buildmode=c-shared -ldflags "-extldflags=-Wl,--version-script=$PWD/layer/exports.map" \
#     -o OUT/libVkLayer_gpuav_dbg.so ./layer) && cp layer/VkLayer_gpuav_dbg.json OUT/
set -u
cd "$(dirname "$0")/../../.."
exp=bench/exp/nobind
spv=bin/exp/nobind/spv
if [ "${1:-}" = build ]; then
  rm -rf "$spv"; mkdir -p "$spv/record"
  cp bin/bench/spv/draw.vert.spv "$spv/" && cp bin/bench/spv/record/fullscreen.vert.spv "$spv/record/" || exit 1
  for s in dispatch.comp draw.frag; do
    glslangValidator -g --target-env vulkan1.2 -o "$spv/$s.spv" "$exp/$s" >/dev/null || exit 1
  done
  for s in oob_store.frag oob_compute.comp; do
    glslangValidator -g --target-env vulkan1.2 -o "$spv/record/$s.spv" "$exp/$s" >/dev/null || exit 1
  done
  echo "built $spv"
  exit 0
fi
. scripts/hardware/env.sh || exit 1
[ -d "$spv" ] || { echo "run.sh: no $spv (bash $exp/run.sh build)"; exit 2; }
export MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0
logs=$OUT/nobind
mkdir -p "$logs"
hw_device
ALL="VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB=1 VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1 ${EXTRA_ENV:-}"
# under DIR CMD...: CMD with the layer of DIR (none: no layer).
under() {
  local d=$1; shift
  if [ "$d" = none ]; then "$@"; else HW_LAYER_DIR=$d hw_ours env $ALL "$@"; fi
}
for rep in $(seq 1 "${REPS:-3}"); do
  for d in "$@"; do
    tag=${d//\//_}-$rep
    for scene in dispatch draw; do
      log=$logs/$scene-$tag.txt
      timer=(/usr/bin/time -f "cpu %U %S" -o "$log.time")
      [ -x /usr/bin/time ] || timer=()
      under "$d" "${timer[@]}" bin/bench/scene --scene "$scene" --spv "$spv" \
        --warmup 2 --iters "${ITERS:-10}" --dispatches "${DISPATCHES:-1000}" --draws "${DRAWS:-10000}" >"$log" 2>&1
      med=$(awk '/^bench: iter [0-9]/{print $4}' "$log" | sort -n | awk '{a[NR]=$1} END {if (NR) printf "%.2f ms", a[int((NR+1)/2)]/1e6}')
      ok=$(grep -c '^bench: check ok' "$log")
      cpu=$(awk '/^cpu/{printf "%.2f s", $2+$3}' "$log.time" 2>/dev/null)
      printf "rep %d %-22s %-8s median %-10s cpu %-8s check %s (load %s)\n" "$rep" "$d" "$scene" "${med:-FAILED}" "${cpu:-?}" "$ok" "$(cut -d' ' -f1 /proc/loadavg)"
    done
    for mode in plain sets64 push dispatch-push; do
      args=(--draws "${DRAWS:-10000}")
      case $mode in
      sets64) args+=(--bind-per-draw --sets 64) ;;
      push) args+=(--push-per-draw) ;;
      dispatch-push) args+=(--dispatch --push-per-draw) ;;
      esac
      ns=$(under "$d" bin/bench/record --spv "$spv/record" "${args[@]}" 2>/dev/null | sed -n 's/ns_per_draw=//p')
      printf "rep %d %-22s record %-13s %s ns per action\n" "$rep" "$d" "$mode" "${ns:-FAILED}"
    done
  done
done
