#!/bin/bash
# Builds an experiment variant of the layer into bin/exp/<name>/ (layer and
# manifest) without touching the product code: bench/exp/<name>/shaders/*
# replace files of gpuav/shaders (the check library is regenerated from the
# result with gpuav/internal/genlib), bench/exp/<name>/gpuav/*.go replace or
# add files of package gpuav, and bench/exp/<name>/layer/*.go of the layer,
# all through `go build -overlay`. Each experiment's README says what it
# changes; docs/decisions/cheap-checks.md has what they measured.
#
#   bench/exp/build.sh one-atomic compact floor
#   VK_ADD_LAYER_PATH=$PWD/bin/exp/floor VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation bin/bench/scene ...
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
for name in "$@"; do
  src=bench/exp/$name
  [ -d "$src" ] || { echo "no experiment $src" >&2; exit 2; }
  out=bin/exp/$name tmp=build/exp/$name
  rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp/shaders"
  cp gpuav/shaders/* "$tmp/shaders/"
  [ -d "$src/shaders" ] && cp "$src"/shaders/* "$tmp/shaders/"
  (cd gpuav && go run ./internal/genlib -src "$root/$tmp/shaders/library.comp" -o "$root/$tmp/library_gen.go")
  {
    printf '{"Replace": {\n  "%s": "%s"' "$root/gpuav/library_gen.go" "$root/$tmp/library_gen.go"
    for dir in gpuav layer; do
      for f in "$src/$dir"/*.go; do
        [ -e "$f" ] && printf ',\n  "%s": "%s"' "$root/$dir/$(basename "$f")" "$root/$f"
      done
    done
    printf '\n}}\n'
  } > "$tmp/overlay.json"
  go build -overlay "$tmp/overlay.json" -buildmode=c-shared \
    -ldflags "-extldflags=-Wl,--version-script=$root/layer/exports.map" -o "$out/libVkLayer_gpuav_dbg.so" ./layer
  go build -overlay "$tmp/overlay.json" -o "$out/gpuav-dbg" ./cmd/gpuav-dbg
  go build -overlay "$tmp/overlay.json" -o "$out/instr" ./bench/internal/instr
  rm -f "$out/libVkLayer_gpuav_dbg.h"; cp bin/VkLayer_gpuav_dbg.json "$out/"
  echo "built $out"
done
