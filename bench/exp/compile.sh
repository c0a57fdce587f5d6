#!/bin/bash
# Compile time of an experiment's instrumentation, without a layer: every
# module of the pipeline corpus is instrumented offline with every check on
# (bin/exp/<name>/instr, built by bench/exp/build.sh; "base" is the product's
# instrumentation, "none" the modules as they are) into build/exp/<name>/spv,
# then the pipeline scene compiles them with no layer (--layer-set gives its
# pipeline layout the layer's set). Runs alternate REPS times (default 1);
# each prints the iteration's time, and build/exp/logs keeps the
# per-pipeline split. "fast" is the product's instrumentation with the
# precise switch off (the fast variant the layer creates where it decides
# the facts; "base" keeps it at its default, the precise variant). At the end it prints each variant's minimum over the
# repetitions (the machine is shared: other work only adds time). PICK, a
# regular expression, keeps only the matching lines of the corpus list.
# INSTR_FLAGS go to the experiments' instr (-fast: their fast variants).
#
#   bench/exp/build.sh compact && bench/exp/compile.sh none base compact
set -euo pipefail
cd "$(dirname "$0")/../.."
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-bench} MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0 BENCH_PHASES=1
mkdir -p -m 700 "$XDG_RUNTIME_DIR"; mkdir -p build/exp/logs
for name in "$@"; do
  spv=build/exp/$name/spv
  rm -rf "$spv"; mkdir -p "$spv/corpus"
  grep -E "${PICK:-.}" bin/bench/spv/corpus/corpus.txt > "$spv/corpus/corpus.txt" || true
  case $name in
  none) cp bin/bench/spv/corpus/*.spv "$spv/corpus/" ;;
  base|fast) go build -o build/exp/base/instr ./bench/internal/instr
        flags=; [ "$name" = fast ] && flags=-fast
        build/exp/base/instr $flags -o "$spv/corpus" bin/bench/spv/corpus/*.spv > build/exp/logs/instr-$name.txt ;;
  *) instr=bin/exp/$name/instr
     # An experiment that post-processes the product's output has a script.
     [ -x bench/exp/$name/instr.sh ] && instr=bench/exp/$name/instr.sh
     $instr ${INSTR_FLAGS:-} -o "$spv/corpus" bin/bench/spv/corpus/*.spv > build/exp/logs/instr-$name.txt ;;
  esac
done
REPS=${REPS:-1}
for rep in $(seq 1 "$REPS"); do
  for name in "$@"; do
    log=build/exp/logs/compile-$name-$rep.txt
    # CPU time (user + system) as well as wall time: it says the same on a
    # loaded machine (lavapipe compiles on the creating thread).
    /usr/bin/time -f "cpu %U %S" -o "$log.time" \
      bin/bench/scene --scene pipeline --spv build/exp/$name/spv --layer-set --warmup 0 --iters 1 > "$log" 2>&1 || true
    t=$(awk '/^bench: iter 0/{printf "%.2f s", $4/1e9}' "$log")
    cpu=$(awk '/^cpu/{printf "%.2f s", $2+$3}' "$log.time")
    words=$(cat build/exp/$name/spv/corpus/*.spv | wc -c)
    printf "rep %d %-14s wall %-9s cpu %-9s %8d bytes (load %s)\n" "$rep" "$name" "${t:-FAILED}" "$cpu" "$words" "$(cut -d' ' -f1 /proc/loadavg)"
    echo "$name ${t% s} ${cpu% s}" >> build/exp/logs/compile-summary.$$
  done
done
echo "minimum over $REPS repetitions:"
awk '{ if (!($1 in w) || $2 < w[$1]) w[$1] = $2; if (!($1 in c) || $3 < c[$1]) c[$1] = $3; if (!($1 in o)) o[$1] = n++ }
     END { for (k in o) printf "%d %-14s wall %6.2f s  cpu %6.2f s\n", o[k], k, w[k], c[k] }' build/exp/logs/compile-summary.$$ | sort -n | cut -d' ' -f2-
rm -f build/exp/logs/compile-summary.$$
