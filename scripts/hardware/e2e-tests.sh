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
hw_e2e_deps
hw_device
vulkaninfo --summary 2>&1 | grep -E "apiVersion" | head -1
hw_suite e2e "${E2E_TIMEOUT:-540s}" "${E2E_RUN:-}"
