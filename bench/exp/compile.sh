#!/bin/bash
# Compile time of an experiment's instrumentation, without a layer: every
# module of the pipeline corpus is instrumented offline with every check on
# (bin/exp/<name>/instr, built by bench/exp/build.sh; "base" is the product's
# instrumentation, "none" the modules as they are) into build/exp/<name>/spv,
# then the pipeline scene compiles them with no layer (--layer-set gives its
# pipeline layout the layer's set). Runs alternate REPS times (default 1);
# each prints the iteration's time, and build/exp/logs keeps the
# per-pipeline split.
#
#   bench/exp/build.sh compact && bench/exp/compile.sh none base compact
set -euo pipefail
cd "$(dirname "$0")/../.."
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-bench} MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0 BENCH_PHASES=1
mkdir -p -m 700 "$XDG_RUNTIME_DIR"; mkdir -p build/exp/logs
for name in "$@"; do
  spv=build/exp/$name/spv
  rm -rf "$spv"; mkdir -p "$spv/corpus"
  cp bin/bench/spv/corpus/corpus.txt "$spv/corpus/"
  case $name in
  none) cp bin/bench/spv/corpus/*.spv "$spv/corpus/" ;;
  base) go build -o build/exp/base/instr ./bench/internal/instr
        build/exp/base/instr -o "$spv/corpus" bin/bench/spv/corpus/*.spv > build/exp/logs/instr-$name.txt ;;
  *) bin/exp/$name/instr -o "$spv/corpus" bin/bench/spv/corpus/*.spv > build/exp/logs/instr-$name.txt ;;
  esac
done
for rep in $(seq 1 "${REPS:-1}"); do
  for name in "$@"; do
    log=build/exp/logs/compile-$name-$rep.txt
    bin/bench/scene --scene pipeline --spv build/exp/$name/spv --layer-set --warmup 0 --iters 1 > "$log" 2>&1 || true
    t=$(awk '/^bench: iter 0/{printf "%.2f s", $4/1e9}' "$log")
    words=$(cat build/exp/$name/spv/corpus/*.spv | wc -c)
    printf "rep %d %-14s %-9s %8d bytes (load %s)\n" "$rep" "$name" "${t:-FAILED}" "$words" "$(cut -d' ' -f1 /proc/loadavg)"
  done
done
