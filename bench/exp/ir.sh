#!/bin/bash
# Instructions lavapipe executes to create pipelines of the corpus, counted
# by valgrind (cachegrind, no cache simulation): unlike CPU time, the count
# does not move with the machine's load, so a change of a few percent shows
# on the shared machine. Each NAME is a directory of modules made by
# bench/exp/compile.sh NAME (build/exp/NAME/spv; "none" the modules as they
# are, "fast" the product's fast variants); PICK (default "vs07", one
# graphics pipeline: 64 float-offset reads in its fragment shader) selects
# the corpus lines; VS and FS (a NAME each) take the vertex or fragment
# modules from another NAME, to split a pipeline's count by stage. The
# scene's start-up (instance, device) is in every count: compare
# differences. About 10 s per pipeline pair under valgrind.
#
#   bench/exp/compile.sh none fast && bench/exp/ir.sh none fast
#   FS=none bench/exp/ir.sh fast   # the vertex shader's fast variant alone
set -euo pipefail
cd "$(dirname "$0")/../.."
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp/xdg-bench} MESA_SHADER_CACHE_DISABLE=1
mkdir -p -m 700 "$XDG_RUNTIME_DIR"
for name in "$@"; do
  d=build/exp/ir/$name/spv
  rm -rf "$d"; mkdir -p "$d/corpus"
  grep -E "${PICK:-vs07}" bin/bench/spv/corpus/corpus.txt > "$d/corpus/corpus.txt"
  cp build/exp/"$name"/spv/corpus/*.spv "$d/corpus/"
  [ -n "${VS:-}" ] && cp build/exp/"$VS"/spv/corpus/*.vert.spv "$d/corpus/"
  [ -n "${FS:-}" ] && cp build/exp/"$FS"/spv/corpus/*.frag.spv "$d/corpus/"
  ir=$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    bin/bench/scene --scene pipeline --spv "$d" --layer-set --warmup 0 --iters 1 2>&1 | awk '/I *refs/{print $NF}')
  printf "%-18s %s instructions\n" "$name" "$ir"
done
