# Sourced by the hardware entry points (scripts/hardware/*.sh) and the
# one-off measurements (bench/measure/*.sh), from the repository root:
#
#   . scripts/hardware/env.sh
#
# They run on the NVIDIA machine, which the lead reaches through the device
# tool: its command runs in a copy of the repository root with bin/ (built
# here: scripts/hardware/build.sh) and .gl/ carried, and brings back what
# lands in $OUT. That machine has the NVIDIA driver but no Vulkan loader,
# no Go, no C compiler and no glslang; .gl/ holds Debian debs for it:
#   .gl/*.deb      libvulkan1 and the libglvnd libraries (the loader)
#   .gl/vvl/*.deb  vulkan-validationlayers (the Khronos layer, the reference)
#   .gl/vvl14/*.deb  a second version of it (optional)
#   .gl/e2e/*.deb  what the e2e suite runs: vulkan-tools, spirv-tools,
#                  glslang-tools and their libraries (e2e-tests.sh)
# docs/HARDWARE.md says how to fill .gl/.
#
# GPUAVDBG_ICD picks the Vulkan driver: nvidia (the default where the
# NVIDIA ICD is installed), lavapipe (the default elsewhere: Mesa's CPU
# driver, so every entry point runs on a development machine too), or the
# path of an ICD manifest. What this sets:
#   VK_DRIVER_FILES      that driver alone
#   XDG_RUNTIME_DIR      a private directory (the launcher's socket)
#   OUT                  where results go ($OUT of the device tool; else
#                        /tmp/gpuavdbg-out)
#   KHRONOS_LAYER_PATH   the directory of VkLayer_khronos_validation.json
#                        (.gl/vvl/'s, unpacked, or the installed one's)
#   KHRONOS2_LAYER_PATH  the same for .gl/vvl14/ (a second version), or ""
#   HW_ICD               nvidia, lavapipe or the manifest's path
# and defines hw_device (prints the device), hw_ours (runs a command under
# our layer from bin/), hw_khronos (under Khronos GPU-AV) and hw_suite (a
# prebuilt test suite).

NVIDIA_ICD=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
LAVAPIPE_ICD=/usr/share/vulkan/icd.d/lvp_icd.json
if [ -z "${GPUAVDBG_ICD:-}" ]; then
  if [ -f "$NVIDIA_ICD" ]; then GPUAVDBG_ICD=nvidia; else GPUAVDBG_ICD=lavapipe; fi
fi
HW_ICD=$GPUAVDBG_ICD
case "$HW_ICD" in
  nvidia) export VK_DRIVER_FILES=$NVIDIA_ICD ;;
  lavapipe) export VK_DRIVER_FILES=$LAVAPIPE_ICD ;;
  *) export VK_DRIVER_FILES=$HW_ICD ;;
esac
if [ ! -f "$VK_DRIVER_FILES" ]; then
  echo "env.sh: no ICD manifest $VK_DRIVER_FILES (GPUAVDBG_ICD=$HW_ICD)" >&2
  return 1 2>/dev/null || exit 1
fi

# The loader and libglvnd: unpacked from .gl/ for the NVIDIA driver, and
# wherever the machine has no loader.
if [ "$HW_ICD" = nvidia ] || ! ldconfig -p | grep -q 'libvulkan\.so\.1 '; then
  if ls .gl/*.deb >/dev/null 2>&1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  elif ! ldconfig -p | grep -q 'libvulkan\.so\.1 '; then
    echo "env.sh: no Vulkan loader here and no .gl/*.deb to unpack (docs/HARDWARE.md)" >&2
    return 1 2>/dev/null || exit 1
  fi
fi

export XDG_RUNTIME_DIR=/tmp/xdg-gpuavdbg
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
export OUT=${OUT:-/tmp/gpuavdbg-out}
mkdir -p "$OUT"

# hw_unpack_vvl DEB DIR: unpacks a Khronos layer deb into DIR (aside: into
# / it can break the system) and points its manifest at its own library, so
# that two versions never meet on LD_LIBRARY_PATH.
hw_unpack_vvl() {
  mkdir -p "$2" && dpkg -x "$1" "$2" || return 1
  local m="$2/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json"
  sed -i "s#\"library_path\": *\"[^\"]*\"#\"library_path\": \"$2/usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so\"#" "$m"
}
# The Khronos layer: .gl/vvl/ (bookworm's 1.3.239), else the installed one;
# a second version from .gl/vvl14/ (trixie's 1.4.309) where there is one.
if ls .gl/vvl/*.deb >/dev/null 2>&1 && hw_unpack_vvl .gl/vvl/*.deb /tmp/vvl; then
  export KHRONOS_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d
else
  export KHRONOS_LAYER_PATH=/usr/share/vulkan/explicit_layer.d
fi
export KHRONOS2_LAYER_PATH=
if ls .gl/vvl14/*.deb >/dev/null 2>&1 && hw_unpack_vvl .gl/vvl14/*.deb /tmp/vvl14; then
  KHRONOS2_LAYER_PATH=/tmp/vvl14/usr/share/vulkan/explicit_layer.d
fi

# hw_device prints the device and its driver.
hw_device() {
  if [ "$HW_ICD" = nvidia ] && command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  elif command -v vulkaninfo >/dev/null; then
    vulkaninfo --summary 2>/dev/null | grep -E "deviceName|driverInfo" | head -2 | sed 's/^[[:space:]]*//'
  else
    echo "$HW_ICD ($VK_DRIVER_FILES)"
  fi
}

# hw_suite PKG TIMEOUT RUN: runs the prebuilt test binary of ./PKG
# (bin/PKG-tests/PKG.test, scripts/hardware/build.sh PKG-tests) from PKG's
# directory with the prebuilt apps (GPUAVDBG_TEST_PREBUILT), only the tests
# matching RUN when it is not empty; the verbose log is $OUT/PKG-tests.txt.
# It prints the failures, skips and the number passed, and returns the
# suite's status (1 when no test passed: nothing was checked).
hw_suite() {
  local pkg=$1 timeout=$2 run=$3 dir=$PWD/bin/$1-tests log=$OUT/$1-tests.txt
  [ -x "$dir/$pkg.test" ] || { echo "no $dir/$pkg.test (scripts/hardware/build.sh $pkg-tests)"; return 2; }
  ( cd "$pkg" && GPUAVDBG_TEST_PREBUILT=$dir "$dir/$pkg.test" -test.v -test.count=1 -test.timeout="$timeout" \
      ${run:+-test.run "$run"} >"$log" 2>&1 )
  local rc=$? passed
  grep -E "^(--- (FAIL|SKIP)|PASS$|FAIL$|panic)" "$log" | cut -c1-200
  passed=$(grep -c -- '--- PASS' "$log")
  echo "passed: $passed (subtests included); rc=$rc"
  if [ "$rc" = 0 ] && [ "$passed" = 0 ]; then
    echo "no test passed${run:+ (none matches $run)}: nothing was checked"
    return 1
  fi
  return $rc
}

# hw_ours CMD...: CMD under our layer, the one in bin/ or in $HW_LAYER_DIR
# (a directory with the library and its manifest); it fails, without
# running CMD, where there is none: the loader would run CMD without it.
hw_ours() {
  local dir=${HW_LAYER_DIR:-bin}
  case $dir in /*) ;; *) dir=$PWD/$dir ;; esac
  if [ ! -f "$dir/VkLayer_gpuav_dbg.json" ] || [ ! -f "$dir/libVkLayer_gpuav_dbg.so" ]; then
    echo "hw_ours: no layer in $dir" >&2
    return 2
  fi
  env VK_ADD_LAYER_PATH="$dir" VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation "$@"
}

# hw_khronos CMD...: CMD under the Khronos layer with GPU-AV on.
hw_khronos() {
  env VK_ADD_LAYER_PATH="$KHRONOS_LAYER_PATH" VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation \
    VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT "$@"
}

# hw_e2e_deps: what the e2e suite needs besides bin/. The tests look for
# the Khronos layer where Debian installs it (the reference, and the
# referee below our layer), and run vulkaninfo, vkcube, spirv-val,
# glslangValidator, Xvfb and gfxrecon-replay: on a machine without them,
# .gl/vvl/ goes to / and .gl/e2e/ aside.
hw_e2e_deps() {
  if [ ! -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] && ls .gl/vvl/*.deb >/dev/null 2>&1; then
    for f in .gl/vvl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  fi
  if ls .gl/e2e/*.deb >/dev/null 2>&1; then
    mkdir -p /tmp/e2e-debs && for f in .gl/e2e/*.deb; do dpkg -x "$f" /tmp/e2e-debs; done
    export PATH=/tmp/e2e-debs/usr/bin:$PATH
    export LD_LIBRARY_PATH=/tmp/e2e-debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  fi
}

export -f hw_device hw_ours hw_khronos hw_unpack_vvl hw_suite hw_e2e_deps
