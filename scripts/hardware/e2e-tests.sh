#!/bin/bash
# The end-to-end suite (go test ./e2e, prebuilt) on the machine's GPU, from
# the repository root (scripts/hardware/build.sh first; on the NVIDIA
# machine carry bin/ and .gl/, with .gl/vvl/ and .gl/e2e/ filled:
# scripts/hardware/env.sh, docs/HARDWARE.md). The verbose log is
# $OUT/e2e-tests.txt; it prints the failures and skips and the number
# passed, and exits with the suite's status.
#   E2E_RUN=REGEXP    only the matching tests
#   E2E_TIMEOUT=DUR   the suite's timeout (default 540s)
set -u
. scripts/hardware/env.sh || exit 1
# The tests look for the Khronos layer where Debian installs it, and run
# vulkaninfo, spirv-val and glslangValidator: on a machine without them,
# .gl/vvl/ goes to / and .gl/e2e/ aside.
if [ ! -f /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json ] && ls .gl/vvl/*.deb >/dev/null 2>&1; then
  for f in .gl/vvl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
if ls .gl/e2e/*.deb >/dev/null 2>&1; then
  mkdir -p /tmp/e2e-debs && for f in .gl/e2e/*.deb; do dpkg -x "$f" /tmp/e2e-debs; done
  export PATH=/tmp/e2e-debs/usr/bin:$PATH
  export LD_LIBRARY_PATH=/tmp/e2e-debs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
hw_device
vulkaninfo --summary 2>&1 | grep -E "apiVersion" | head -1
[ -x bin/e2e-tests/e2e.test ] || { echo "e2e-tests.sh: no bin/e2e-tests (scripts/hardware/build.sh e2e-tests)"; exit 2; }
export GPUAVDBG_TEST_PREBUILT=$PWD/bin/e2e-tests
log=$OUT/e2e-tests.txt
( cd e2e && ../bin/e2e-tests/e2e.test -test.v -test.count=1 -test.timeout="${E2E_TIMEOUT:-540s}" \
    ${E2E_RUN:+-test.run "$E2E_RUN"} >"$log" 2>&1 )
rc=$?
grep -E "^(--- (FAIL|SKIP)|PASS$|FAIL$|panic)" "$log" | cut -c1-200
echo "passed: $(grep -c -- '--- PASS' "$log") (subtests included); rc=$rc"
exit $rc
