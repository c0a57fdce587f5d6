#!/bin/bash
# The product's fast variant (build/exp/base/instr -fast), then spirv-opt's
# dead-code and dead-function elimination (OPT_PASSES overrides the
# passes): what is left in the fast variant that a driver still compiles
# for nothing (the unused library functions, the dead fact lookups). Not
# something the layer does. Usage as instr: instr.sh -o DIR FILE.spv...
set -euo pipefail
out=$2; shift 2
build/exp/base/instr -fast -o "$out" "$@"
for f in "$out"/*.spv; do
  spirv-opt ${OPT_PASSES:---eliminate-dead-code-aggressive --eliminate-dead-functions} "$f" -o "$f.opt"
  mv "$f.opt" "$f"
done
