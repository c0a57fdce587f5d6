#!/bin/bash
# Builds an experiment variant of the layer into bin/exp/<name>/ (layer,
# manifest, gpuav-dbg and bench/internal/instr) without touching the product
# code: bench/exp/<name>/experiment.patch is applied to copies of the files
# it names (under build/exp/<name>/_tree, a name the go command skips), the check library is regenerated
# from the patched gpuav/shaders with gpuav/internal/genlib, and the patched
# Go files replace the product's through `go build -overlay`. Each patch is
# against the commit its README names; bench/exp/README.md says what each
# experiment measured.
#
#   bench/exp/build.sh compact floor
#   VK_ADD_LAYER_PATH=$PWD/bin/exp/floor VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation bin/bench/scene ...
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
for name in "$@"; do
  patch=bench/exp/$name/experiment.patch
  [ -f "$patch" ] || { echo "no experiment $patch" >&2; exit 2; }
  out=bin/exp/$name tmp=$root/build/exp/$name
  rm -rf "$out" "$tmp"; mkdir -p "$out" "$tmp/_tree/gpuav" "$tmp/_gen"
  cp -r gpuav/shaders "$tmp/_tree/gpuav/"
  for f in $(sed -n 's#^+++ b/##p' "$patch"); do
    mkdir -p "$tmp/_tree/$(dirname "$f")"
    [ -e "$f" ] && cp "$f" "$tmp/_tree/$f"
  done
  patch -s -p1 -d "$tmp/_tree" < "$patch"
  (cd gpuav && go run ./internal/genlib -src "$tmp/_tree/gpuav/shaders/library.comp" -o "$tmp/_gen/library_gen.go")
  {
    printf '{"Replace": {\n  "%s": "%s"' "$root/gpuav/library_gen.go" "$tmp/_gen/library_gen.go"
    for f in $(sed -n 's#^+++ b/##p' "$patch" | grep '\.go$'); do
      printf ',\n  "%s": "%s"' "$root/$f" "$tmp/_tree/$f"
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
