#!/bin/bash
# Compares the instrumentation of the working tree with that of a base
# commit (default main): instdump's digests of every corpus and gpuav test
# module, both variants, under each option set, must be equal.
#
#   gpuav/internal/instdump/compare.sh [BASE]
set -eu
cd "$(dirname "$0")/../../.."
base=${1:-main}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git archive "$base" | tar -x -C "$tmp"
mkdir -p "$tmp/spv"
# The base may not have instdump: use this tree's.
rm -rf "$tmp/gpuav/internal/instdump" && cp -r gpuav/internal/instdump "$tmp/gpuav/internal/"
(cd "$tmp" && go run ./gpuav/internal/instdump -spv "$tmp/spv") > "$tmp/base.txt"
go run ./gpuav/internal/instdump -spv "$tmp/spv" > "$tmp/head.txt"
if diff "$tmp/base.txt" "$tmp/head.txt"; then
  echo "identical: $(wc -l < "$tmp/head.txt") module × option digests against $base"
else
  echo "DIFFERENT from $base" >&2
  exit 1
fi
