#!/bin/bash
# Run from the repo root on the NVIDIA machine after scripts/build-layer-tests.sh
# has filled bin/layer-tests/ here (carry bin/ and .gl/, as for nvidia-demo.sh).
# Runs the layer's end-to-end tests (go test binary, prebuilt apps and SPIR-V)
# on the real GPU and writes the verbose log to $OUT/nvidia-layer-tests.txt.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
export GPUAVDBG_TEST_PREBUILT=$PWD/bin/layer-tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# bin/demo is used by the demo tests; nm/readelf (binutils) by the exports test.
cd layer && ../bin/layer-tests/layer.test -test.v -test.count=1 -test.timeout=500s 2>&1 | tee ${OUT:-/tmp}/nvidia-layer-tests.txt | \
  grep -E "^(=== RUN|--- (PASS|FAIL|SKIP)|PASS|FAIL|ok)|_test.go:" | cut -c1-300
echo "rc=${PIPESTATUS[0]}"
( cd .. && GPUAVDBG_TEST_PREBUILT= bin/layer-tests/multi --mode bench --comp bin/layer-tests/multi_compute.spv \
  --vert bin/layer-tests/fullscreen.vert.spv --frag bin/layer-tests/oob_store.frag.spv --draws 4000 | sed 's/^/no layer: /'
  VK_ADD_LAYER_PATH=$PWD/bin/layer-tests VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation bin/layer-tests/multi --mode bench \
  --comp bin/layer-tests/multi_compute.spv --vert bin/layer-tests/fullscreen.vert.spv --frag bin/layer-tests/oob_store.frag.spv \
  --draws 4000 | sed 's/^/layer: /' )
