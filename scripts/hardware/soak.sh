#!/bin/bash
# The soak test: every e2e app, many times, each run bounded, to find a
# hang the layer can cause (an app run that does not finish). From the
# repository root, after scripts/hardware/build.sh e2e-tests (on the NVIDIA
# machine: carry bin/ and .gl/ as for e2e-tests.sh):
#
#   bash scripts/hardware/soak.sh            # 20 rounds, at most 540 s
#   SOAK_ROUNDS=50 SOAK_RUN=TestDescriptor bash scripts/hardware/soak.sh
#
# No round starts after SOAK_SECONDS (default 540: one device-tool command
# runs at most 600 s); the rounds done are counted.
#
# Each round runs the prebuilt e2e suite once (SOAK_RUN: only the matching
# tests; by default the check apps and the demo, which run every stage,
# action and case of the e2e apps), every app run under the launcher
# bounded by SOAK_APP_TIMEOUT (default 60s: GPUAVDBG_TEST_APP_TIMEOUT).
# A run past it is killed with its process group and fails its test with
# "hung: APP ARGS"; the soak goes on. The verbose log of round N is
# $OUT/soak/round-N.txt. It prints per round the tests passed and failed
# and the hangs, then the totals, and exits 1 when any round had a failure
# or a hang (2 when nothing ran).
set -u
. scripts/hardware/env.sh || exit 1
rounds=${SOAK_ROUNDS:-20}
run=${SOAK_RUN:-'Test(Demo|Descriptor|BDA|Buffer|Texel|Stage|Extra|Indirect|Ray|Action|Real)'}
dir=$PWD/bin/e2e-tests
[ -x "$dir/e2e.test" ] || { echo "no $dir/e2e.test (scripts/hardware/build.sh e2e-tests)"; exit 2; }
mkdir -p "$OUT/soak"
hw_e2e_deps
hw_device
total_pass=0 total_fail=0 total_hung=0
began=$(date +%s) done_rounds=0
for n in $(seq 1 "$rounds"); do
  if [ $(($(date +%s) - began)) -ge "${SOAK_SECONDS:-540}" ]; then
    echo "stopping after $done_rounds rounds: SOAK_SECONDS=${SOAK_SECONDS:-540} reached"
    break
  fi
  done_rounds=$n
  log=$OUT/soak/round-$n.txt
  start=$(date +%s)
  ( cd e2e && GPUAVDBG_TEST_PREBUILT=$dir GPUAVDBG_TEST_APP_TIMEOUT=${SOAK_APP_TIMEOUT:-60s} \
      "$dir/e2e.test" -test.v -test.count=1 -test.timeout=3h -test.run "$run" >"$log" 2>&1 )
  rc=$?
  pass=$(grep -c -- '--- PASS' "$log")
  fail=$(grep -c -- '--- FAIL' "$log")
  hung=$(grep -c 'hung: ' "$log")
  total_pass=$((total_pass + pass)) total_fail=$((total_fail + fail)) total_hung=$((total_hung + hung))
  echo "round $n: rc=$rc passed $pass failed $fail hung $hung in $(($(date +%s) - start)) s"
  grep 'hung: ' "$log" | sed 's/^ */  /' | cut -c1-200
done
echo "soak: $done_rounds rounds, passed $total_pass, failed $total_fail, hung $total_hung"
[ "$total_pass" -gt 0 ] || { echo "no test passed: nothing was checked"; exit 2; }
[ "$total_fail" = 0 ] && [ "$total_hung" = 0 ]
