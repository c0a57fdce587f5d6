#!/bin/bash
# The stream's throughput and the long load test on this machine: records
# from a layer output buffer into the session file (layer
# BenchmarkRecordsToSessionFile, BENCH_COUNT runs), then the long load test
# (e2e TestLoadLongRun: 8 threads x 10,000 submits, every dispatch out of
# bounds, the launcher running 20 ms of every 100 ms; made = reported).
# From the repository root (scripts/hardware/build.sh apps layer-tests
# e2e-tests; carry bin/ and .gl/ on the NVIDIA machine): bash
# bench/measure/throughput.sh, or a step of scripts/hardware/run.sh.
#   BENCH_COUNT=N (default 5)   LOAD_TIMEOUT=DUR (default 300s)
set -u -o pipefail
. scripts/hardware/env.sh || exit 1
hw_device
nproc
rc=0
[ -x bin/layer-tests/layer.test ] || { echo "throughput.sh: no bin/layer-tests (scripts/hardware/build.sh layer-tests)"; exit 2; }
( cd layer && GPUAVDBG_TEST_PREBUILT=$PWD/../bin/layer-tests ../bin/layer-tests/layer.test -test.run '^$' \
    -test.bench 'RecordsToSessionFile' -test.benchmem -test.count "${BENCH_COUNT:-5}" ) | tee "$OUT/stream.txt" || rc=1
if [ -x bin/e2e-tests/e2e.test ]; then
  ( cd e2e && GPUAVDBG_LOAD_TEST=1 GPUAVDBG_TEST_PREBUILT=$PWD/../bin/e2e-tests ../bin/e2e-tests/e2e.test \
      -test.run '^TestLoadLongRun$' -test.v -test.timeout "${LOAD_TIMEOUT:-300s}" ) >"$OUT/load.txt" 2>&1 || rc=1
  grep -E "made|reported|lost|^(--- |ok|FAIL|PASS)" "$OUT/load.txt" | head -20
else
  echo "throughput.sh: no bin/e2e-tests: the load test is left out"
fi
exit $rc
