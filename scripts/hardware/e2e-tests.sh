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
hw_suite e2e "${E2E_TIMEOUT:-540s}" "${E2E_RUN:-}"
