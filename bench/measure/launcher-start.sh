#!/bin/bash
# The launcher's own start (issue 34): how long `gpuav-dbg run --headless`
# takes to the app's first instruction, and in all for `-- /bin/true`,
# against the app alone. The app is /bin/date +%s%N, whose output is the
# time it started (its first instructions print it); REPS (default 20)
# alternated runs, medians. Also the launcher's parts: the process alone
# (`gpuav-dbg --version`: the Go runtime and package initialisation) and
# the device probe (`gpuav-dbg doctor --probe`). CPU time (user + system)
# of the whole run beside each.
#
#   bash bench/measure/launcher-start.sh            (here, lavapipe)
#   bash scripts/hardware/run.sh launcher-start     (the NVIDIA machine)
set -u
. scripts/hardware/env.sh || exit 1
G=$PWD/bin/gpuav-dbg
reps=${REPS:-20}
all=$OUT/launcher-start-runs.txt
: >"$all"
ns() { date +%s%N; }
# first NAME CMD...: the time from before CMD to the app's printed start.
first() {
  local name=$1 t0 t
  shift
  t0=$(ns)
  t=$("$@" 2>/dev/null | grep -E '^[0-9]{19}$' | head -1)
  [ -n "$t" ] && echo "$name $(((t - t0) / 1000))" >>"$all"
}
# whole NAME CMD...: the wall time and CPU time of CMD.
whole() {
  local name=$1
  shift
  /usr/bin/time -o "$all.t" -f "TIME %e %U %S" "$@" >/dev/null 2>&1
  awk -v n="$name" '/^TIME/ {printf "%s %d %d\n", n, $2 * 1e6, ($3 + $4) * 1e6}' "$all.t" >>"$all.whole"
}
: >"$all.whole"
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$OUT/launcher-start-summary.txt"
for rep in $(seq "$reps"); do
  first app /bin/date +%s%N
  first run "$G" run --headless -- /bin/date +%s%N
  whole true /bin/true
  whole run-true "$G" run --headless -- /bin/true
  whole version "$G" --version
  whole probe "$G" doctor --probe
done
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
{
  for n in app run; do
    echo "first instruction, $n: $(awk -v n=$n '$1 == n {print $2}' "$all" | median) us"
  done
  for n in true run-true version probe; do
    echo "whole, $n: wall $(awk -v n=$n '$1 == n {print $2}' "$all.whole" | median) us, cpu $(awk -v n=$n '$1 == n {print $3}' "$all.whole" | median) us"
  done
  echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee -a "$OUT/launcher-start-summary.txt"
