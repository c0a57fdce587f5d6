#!/bin/bash
# The benchmark harness on the NVIDIA machine, which has the NVIDIA Vulkan
# driver but no Vulkan loader and no Go. Build here first:
#
#   make build bench-apps      # bin/: gpuav-dbg, the layer, bench/scene,
#                              # bench/spv/, bench/harness (static, no cgo)
#
# then run from the repo root on the device machine, carrying bin and .gl:
#   .gl/*.deb      Debian's libvulkan1 and the libglvnd debs (scripts/nvidia-demo.sh)
#   .gl/vvl/       the Khronos layer 1.3.239 deb (bookworm's vulkan-validationlayers)
#   .gl/vvl14/     the Khronos layer 1.4.309 deb (trixie's vulkan-validationlayers;
#                  optional: without it the fifth configuration is left out, and
#                  the log says so)
#
#   run(carry=["bin", ".gl"], command="PART=timed bash scripts/nvidia-bench.sh")
#
# PART picks what runs, each inside the device's 600 s limit (the harness is
# stopped after LIMIT_S, default 540 s; what finished is kept):
#   timed     (default) the hot loop (masked, memory, and the memory variant's
#             hand-checked references), dispatch, draw and shader scenes; every
#             configuration: no layer, gpuav-dbg default, gpuav-dbg every check,
#             Khronos 1.3.239, Khronos 1.4.309; 3 repetitions
#   pipeline  the pipeline scene, no layer and gpuav-dbg (default, every check),
#             one repetition of one iteration
#   pipeline-khronos  the same with no layer and the Khronos layers
#
# Each writes $OUT/nvidia-bench-$PART.json, .md (the table) and .log. Back here:
#
#   go run ./bench -render <files_at>/nvidia-bench-timed.json -section nvidia -write docs/BENCHMARKS.md
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
PART=${PART:-timed}
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# unpack_vvl DEB DIR: unpacks a Khronos layer deb into DIR and points its
# manifest at its own library, so two versions never meet on LD_LIBRARY_PATH.
unpack_vvl() {
  mkdir -p "$2" && dpkg -x "$1" "$2" || return 1
  local m="$2/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"
  sed -i "s#\"library_path\": *\"[^\"]*\"#\"library_path\": \"$2/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so\"#" "$m"
  grep library_path "$m"
}
unpack_vvl .gl/vvl/*.deb /tmp/vvl || { echo "no Khronos 1.3.239 deb in .gl/vvl"; exit 2; }
K2=()
if ls .gl/vvl14/*.deb >/dev/null 2>&1 && unpack_vvl .gl/vvl14/*.deb /tmp/vvl14; then
  K2=(-khronos2-layer-path /tmp/vvl14/usr/share/vulkan/explicit_layer.d)
else
  echo "NOTICE: no Khronos 1.4.309 deb in .gl/vvl14: its configuration is left out"
fi

case $PART in
timed) ARGS=(-scenes hotloop-masked,hotloop-memory,dispatch,draw,shader "${K2[@]}") ;;
pipeline) ARGS=(-scenes pipeline -configs gpuav-dbg,gpuav-dbg-all -reps 1 -warmup 0 -iters 1) ;;
pipeline-khronos) ARGS=(-scenes pipeline -configs khronos,khronos2 "${K2[@]}" -reps 1 -warmup 0 -iters 1 -skip-checks)
  [ ${#K2[@]} -eq 0 ] && ARGS=(-scenes pipeline -configs khronos -reps 1 -warmup 0 -iters 1 -skip-checks) ;;
*) echo "unknown PART=$PART"; exit 2 ;;
esac
timeout ${LIMIT_S:-540} bin/bench/harness -preset gpu -bin bin \
  -khronos-layer-path /tmp/vvl/usr/share/vulkan/explicit_layer.d "${ARGS[@]}" \
  -command "PART=$PART scripts/nvidia-bench.sh" \
  -json "$OUT/nvidia-bench-$PART.json" -md "$OUT/nvidia-bench-$PART.md" 2>&1 | tee "$OUT/nvidia-bench-$PART.log"
rc=${PIPESTATUS[0]}
echo "harness rc=$rc"
[ -f "$OUT/nvidia-bench-$PART.md" ] && cat "$OUT/nvidia-bench-$PART.md"
exit $rc
