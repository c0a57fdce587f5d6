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
[ -x bin/layer-tests/layer.test ] || { echo "layer-tests.sh: no bin/layer-tests (scripts/hardware/build.sh layer-tests)"; exit 2; }
export GPUAVDBG_TEST_PREBUILT=$PWD/bin/layer-tests
log=$OUT/layer-tests.txt
# bin/demo is used by the demo tests; nm and readelf (binutils) by the exports test.
( cd layer && ../bin/layer-tests/layer.test -test.v -test.count=1 -test.timeout="${LAYER_TIMEOUT:-500s}" \
    ${LAYER_RUN:+-test.run "$LAYER_RUN"} >"$log" 2>&1 )
rc=$?
grep -E "^(--- (FAIL|SKIP)|PASS$|FAIL$|panic)" "$log" | cut -c1-200
echo "passed: $(grep -c '^--- PASS' "$log"); rc=$rc"
exit $rc
