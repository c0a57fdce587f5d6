#!/bin/bash
# What real apps we did not write cost under gpuav-dbg: vulkaninfo, vkcube
# and vkcubepp (300 frames into an Xvfb window) and gfxrecon-replay (a
# 300-frame capture of vkcube made first, replayed on a headless surface),
# (vulkaninfo without DISPLAY: its surface section connects to X seven
# times in a row, which Xvfb under load refuses now and then, with or
# without a layer), each ROUNDS times (default 5) with no layer, under `gpuav-dbg run
# --headless` with the default checks, and with every check on. Prints the
# median wall time of each, in ms. From the repository root after make
# build (needs xvfb, vulkan-tools and gfxreconstruct: scripts/install-deps):
#   bash bench/measure/real-apps.sh
set -u
. scripts/hardware/env.sh || exit 1
rounds=${ROUNDS:-5}
tmp=$(mktemp -d)
trap 'kill $xpid 2>/dev/null; rm -rf "$tmp"' EXIT
Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp 3>"$tmp/display" 2>/dev/null &
xpid=$!
for _ in $(seq 50); do [ -s "$tmp/display" ] && break; sleep 0.1; done
export DISPLAY=:$(cat "$tmp/display")
VK_INSTANCE_LAYERS=VK_LAYER_LUNARG_gfxreconstruct GFXRECON_CAPTURE_FILE=$tmp/cube.gfxr \
  GFXRECON_CAPTURE_FILE_TIMESTAMP=false vkcube --c 300 >/dev/null 2>&1
# ms CMD...: the command's wall time in ms (it must exit 0).
ms() {
  local s e
  s=$(date +%s%N)
  "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; echo 0; return; }
  e=$(date +%s%N)
  echo $(((e - s) / 1000000))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
ours() { bin/gpuav-dbg run --headless --session "$tmp/s.gvs" "$@"; }
hw_device
printf "%-16s %10s %10s %10s\n" app none gpuav-dbg "every check"
for app in vulkaninfo vkcube vkcubepp gfxrecon-replay; do
  case $app in
    vulkaninfo) cmd=(env -u DISPLAY vulkaninfo) ;;
    vkcube | vkcubepp) cmd=("$app" --c 300) ;;
    gfxrecon-replay) cmd=(gfxrecon-replay --wsi headless "$tmp/cube.gfxr") ;;
  esac
  a=$(for _ in $(seq "$rounds"); do ms "${cmd[@]}"; done | median)
  b=$(for _ in $(seq "$rounds"); do ms ours -- "${cmd[@]}"; done | median)
  c=$(for _ in $(seq "$rounds"); do ms ours --check all=on -- "${cmd[@]}"; done | median)
  printf "%-16s %10s %10s %10s\n" "$app" "$a" "$b" "$c"
done
