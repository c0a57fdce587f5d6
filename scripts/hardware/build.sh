#!/bin/bash
# Builds here, into bin/, what the hardware entry points run on a machine
# with no Go, C compiler or glslang (the NVIDIA machine; scripts/hardware/
# env.sh says how it is reached). Steps, all when none is named:
#   apps         make build bench-apps: bin/gpuav-dbg, the layer, bin/demo,
#                bin/bench/ (doctor.sh, bench.sh, bench/measure/*.sh)
#   layer-tests  bin/layer-tests/: the layer and its manifest, the layer
#                suite's test binary, its C apps and their SPIR-V
#                (layer-tests.sh; GPUAVDBG_TEST_PREBUILT, layer/layer_test.go)
#   e2e-tests    bin/e2e-tests/: the e2e suite's test binary and every test
#                app with its SPIR-V (e2e-tests.sh; GPUAVDBG_TEST_PREBUILD_OUT,
#                e2e/e2e_test.go); the suite runs bin/ as it is
# It ends with the size of bin/: with .gl/, what travels must stay under
# the device tool's 64 MiB.
set -euo pipefail
cd "$(dirname "$0")/../.."

apps() { make -s build bench-apps; }

layer_tests() {
  local out=bin/layer-tests
  rm -rf "$out"; mkdir -p "$out"
  go build -buildmode=c-shared -ldflags "-extldflags=-Wl,--version-script=$PWD/layer/exports.map" \
    -o "$out/libVkLayer_gpuav_dbg.so" ./layer
  rm -f "$out/libVkLayer_gpuav_dbg.h"
  cp layer/VkLayer_gpuav_dbg.json "$out/"
  # The flags of internal/cbuild, which builds the apps for `go test`.
  local app
  for app in vkapp multi; do
    cc -O2 -Wall -Wextra -Werror -std=c11 -Iinternal/capp -o "$out/$app" "layer/testdata/$app.c" \
      internal/capp/capp.c -lvulkan -lpthread -lm
  done
  spv() { glslangValidator -g --target-env "$3" -o "$out/$2" "$1" >/dev/null && spirv-val --target-env "$3" "$out/$2"; }
  # The demo shader is compiled in its directory, as the suite compiles it:
  # its debug info names "oob_compute.comp", which the stderr test reads.
  ( cd examples/demo/shaders &&
    glslangValidator -g --target-env vulkan1.1 -o "$OLDPWD/$out/oob_compute.spv" oob_compute.comp >/dev/null &&
    glslangValidator -g --target-env vulkan1.0 -o "$OLDPWD/$out/oob_compute10.spv" oob_compute.comp >/dev/null )
  spv examples/demo/shaders/oob_compute.comp multi_compute.spv vulkan1.1
  spv layer/testdata/shaders/fullscreen.vert fullscreen.vert.spv vulkan1.2
  spv layer/testdata/shaders/oob_store.frag oob_store.frag.spv vulkan1.2
  spv layer/testdata/shaders/push_runtime.comp push_runtime.spv vulkan1.2
  spv layer/testdata/shaders/base_compute.comp base_compute.spv vulkan1.1
  spv layer/testdata/shaders/reuse_compute.comp reuse_compute.spv vulkan1.1
  spv layer/testdata/shaders/printf_compute.comp printf_compute.spv vulkan1.1
  spv layer/testdata/shaders/printf_fullscreen.vert printf_fullscreen.vert.spv vulkan1.2
  spv layer/testdata/shaders/printf_store.frag printf_store.frag.spv vulkan1.2
  # oob_compute.comp without debug info: the same code in other bytes
  glslangValidator --target-env vulkan1.1 -o "$out/multi_compute_nodebug.spv" \
    examples/demo/shaders/oob_compute.comp >/dev/null
  # The C half's unit test (layer/ctest_test.go): no C compiler there.
  # Its files are ctestFiles' there.
  ( cd layer && cc -O2 -Wall -Wextra -Werror -std=c11 -DVK_NO_PROTOTYPES -I . -o "../$out/ctest" \
      $(sed -n 's/^var ctestFiles = \[\]string{\(.*\)}$/\1/p' ctest_test.go | tr -d '",') )
  go test -c -o "$out/layer.test" ./layer
}

e2e_tests() {
  local out=bin/e2e-tests
  rm -rf "$out"; mkdir -p "$out"
  go test -c -o "$out/e2e.test" ./e2e
  ( cd e2e && GPUAVDBG_TEST_PREBUILD_OUT="$PWD/../$out" "../$out/e2e.test" )
}

steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(apps layer-tests e2e-tests)
for s in "${steps[@]}"; do
  case "$s" in
    apps) apps ;;
    layer-tests) layer_tests ;;
    e2e-tests) e2e_tests ;;
    *) echo "build.sh: unknown step $s (apps, layer-tests, e2e-tests)" >&2; exit 2 ;;
  esac
  echo "built $s"
done
du -sh bin/* | sort -h | tail -5
du -sh bin
