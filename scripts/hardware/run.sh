#!/bin/bash
# Several entry points in one command, for the device tool (a machine's
# start costs minutes, and a command may run 600 s):
#
#   bash scripts/hardware/run.sh doctor layer-tests bench
#
# A step is an entry point of scripts/hardware/ (doctor, layer-tests,
# e2e-tests, bench) or a one-off measurement of bench/measure/ (NAME for
# bench/measure/NAME.sh). Each runs in turn with its files in $OUT/STEP/
# and its output in $OUT/STEP/log.txt; everything then goes into one
# archive, $OUT/run.tgz (the device tool brings back at most 8 files), and
# $OUT/run.txt says how each step ended. Variables of the steps (SCENES,
# E2E_RUN, ...) pass through. It exits 1 when a step failed.
set -u
cd "$(dirname "$0")/../.."
final=${OUT:-/tmp/gpuavdbg-out}
mkdir -p "$final"
: >"$final/run.txt"
failed=0
for step in "$@"; do
  script=scripts/hardware/$step.sh
  [ -f "$script" ] || script=bench/measure/$step.sh
  if [ ! -f "$script" ] || [ "$step" = env ] || [ "$step" = run ] || [ "$step" = build ]; then
    echo "run.sh: unknown step $step" | tee -a "$final/run.txt"
    failed=1
    continue
  fi
  mkdir -p "$final/$step"
  echo "=== $step ($script)"
  start=$(date +%s)
  OUT=$final/$step bash "$script" 2>&1 | tee "$final/$step/log.txt"
  rc=${PIPESTATUS[0]}
  echo "$step: rc=$rc in $(($(date +%s) - start)) s" | tee -a "$final/run.txt"
  [ "$rc" = 0 ] || failed=1
done
tar czf "$final/run.tgz" -C "$final" --exclude run.tgz --exclude run.txt .
ls -la "$final"
exit $failed
