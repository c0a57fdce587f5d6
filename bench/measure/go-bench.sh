#!/bin/bash
# The host-side Go benchmarks of a live run and a large session on this
# machine (docs/BENCHMARKS.md "TUI" and "Session files"): key latency while
# 1.3M records stream into a live collector (tui BenchmarkKeyLatencyStreaming)
# and opening 1M records in 250,000 groups (session BenchmarkOpen250kGroups).
# They need no GPU: on the NVIDIA machine they give an idle 16-core host's
# figures beside the development machine's loaded ones. Here, first:
#   mkdir -p bin/go-bench && go test -c -o bin/go-bench/tui.test ./tui &&
#   go test -c -o bin/go-bench/session.test ./session
# then bash bench/measure/go-bench.sh (or a step of scripts/hardware/run.sh;
# carry bin/go-bench).   COUNT=N runs of each (default 3)
set -u -o pipefail
cd "$(dirname "$0")/../.."
dir=$PWD/bin/go-bench
out=${OUT:-/tmp/go-bench}
mkdir -p "$out"
[ -x "$dir/tui.test" ] && [ -x "$dir/session.test" ] || { echo "go-bench.sh: no $dir/{tui,session}.test"; exit 2; }
nproc
uptime
rc=0
( cd tui && "$dir/tui.test" -test.run '^$' -test.bench 'KeyLatencyStreaming' -test.count "${COUNT:-3}" ) | tee "$out/tui.txt" || rc=1
( cd session && "$dir/session.test" -test.run '^$' -test.bench 'Open250kGroups' -test.benchmem -test.count "${COUNT:-3}" ) |
  tee "$out/session.txt" || rc=1
exit $rc
