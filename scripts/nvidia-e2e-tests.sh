#!/bin/bash
# Run from the repo root on the NVIDIA machine after `make build` and
# scripts/build-e2e-tests.sh here (carry bin/ and .gl/; .gl/vvl/ holds
# Debian's vulkan-validationlayers, .gl/e2e/ vulkan-tools, spirv-tools,
# glslang-tools and the libraries vulkaninfo needs, unpacked under /tmp/e2e-debs; the Khronos
# layer goes to / where the tests look for it). Runs the e2e suite on the
# GPU; the verbose log is $OUT/nvidia-e2e-tests.txt. Fill .gl/e2e/ once,
# here, with the apt-get options of /work/.library/device/README.md:
#   apt-get $o download vulkan-tools spirv-tools glslang-tools libwayland-client0 \
#     libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 libffi8
# E2E_RUN=REGEXP runs only the matching tests.
for f in .gl/*.deb .gl/vvl/*.deb; do dpkg -x "$f" /; done; ldconfig
mkdir -p /tmp/e2e-debs; for f in .gl/e2e/*.deb; do dpkg -x "$f" /tmp/e2e-debs; done
export PATH=/tmp/e2e-debs/usr/bin:$PATH
export LD_LIBRARY_PATH=/tmp/e2e-debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
export GPUAVDBG_TEST_PREBUILT=$PWD/bin/e2e-tests
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
vulkaninfo --summary 2>&1 | grep -E "deviceName|driverInfo|apiVersion" | head -3
log=${OUT:-/tmp}/nvidia-e2e-tests.txt
( cd e2e && ../bin/e2e-tests/e2e.test -test.v -test.count=1 -test.timeout=${E2E_TIMEOUT:-540s} ${E2E_RUN:+-test.run "$E2E_RUN"} >"$log" 2>&1 )
echo "rc=$?"
grep -E "^(--- (FAIL|SKIP)|PASS$|FAIL$|panic)" "$log" | cut -c1-200
echo "passed: $(grep -c -- '--- PASS' "$log") (subtests included)"
