#!/bin/bash
# The fast variant (the product's fast variant,
# build/exp/base/instr -fast), then spirv-opt's dead-branch, dead-code
# and dead-function elimination: what a driver would compile if the fast
# variant's dead precise checks were removed before it sees the module
# (not something the layer does). Usage as instr: instr.sh -o DIR FILE.spv...
set -euo pipefail
out=$2; shift 2
build/exp/base/instr -fast -o "$out" "$@"
for f in "$out"/*.spv; do
  spirv-opt ${OPT_PASSES:---eliminate-dead-branches --eliminate-dead-code-aggressive --eliminate-dead-functions} "$f" -o "$f.opt"
  mv "$f.opt" "$f"
done
