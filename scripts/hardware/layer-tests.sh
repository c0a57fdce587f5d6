#!/bin/bash
# The layer's test suite (go test ./layer, prebuilt) on the machine's GPU,
# from the repository root (scripts/hardware/build.sh apps layer-tests
# first; on the NVIDIA machine carry bin/ and .gl/: scripts/hardware/env.sh).
# The verbose log is $OUT/layer-tests.txt; it prints the failures and skips
# and the number passed, and exits with the suite's status.
#   LAYER_RUN=REGEXP    only the matching tests
#   LAYER_TIMEOUT=DUR   the suite's timeout (default 500s)
set -u
. scripts/hardware/env.sh || exit 1
hw_device
# bin/demo is used by the demo tests; nm and readelf (binutils) by the exports test.
hw_suite layer "${LAYER_TIMEOUT:-500s}" "${LAYER_RUN:-}"
