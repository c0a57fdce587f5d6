#!/bin/bash
# The product's instrumentation (build/exp/base/instr, built by compile.sh
# for "base"), then FunctionControl DontInline on the report and
# record-write functions (gpuav_report_*, gpuav_write_record): whether a
# driver compiles a failure path once per module when asked not to inline
# it. Usage as instr: instr.sh -o DIR FILE.spv...
set -euo pipefail
out=$2; shift 2
build/exp/base/instr -o "$out" "$@"
for f in "$out"/*.spv; do
  spirv-dis --raw-id "$f" | python3 -c '
import re, sys
s = sys.stdin.read()
ids = set(re.findall(r"OpName (%\d+) \"gpuav_(?:report|write_record)", s))
s = re.sub(r"^(\s*(%\d+) = OpFunction %\d+ )None",
           lambda m: m.group(1) + ("DontInline" if m.group(2) in ids else "None"), s, flags=re.M)
sys.stdout.write(s)' > "$f.asm"
  # The corpus's modules are SPIR-V 1.3; assembling for a later version
  # would make them invalid (every global must then be an interface).
  spirv-as --preserve-numeric-ids --target-env spv1.3 "$f.asm" -o "$f"
  rm "$f.asm"
done
