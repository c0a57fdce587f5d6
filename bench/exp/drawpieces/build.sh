#!/bin/bash
# Builds the layer's per-draw experiments (bench/exp/README.md, drawpieces):
# experiment.patch puts each piece of what the layer does per draw behind a
# macro (EXP_NOCHOOSE, EXP_NOACTSET, EXP_SAMESET, EXP_NOSNAP,
# EXP_NODESCBIND, EXP_NOACTREC, EXP_NOVCHECK, EXP_NOACTION, EXP_ONESET); each build
# defines some of them and lands in bin/exp/draw-NAME/ (library and
# manifest), for LAYER_DIRS of bench/measure/draw-record.sh and phases.sh.
# The product files are not touched: the patched copies replace them
# through `go build -overlay`. Builds `bin/` first (make build).
#
#   bash bench/exp/drawpieces/build.sh            # every build below
#   bash bench/exp/drawpieces/build.sh noactset   # one of them
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
declare -A builds=(
  [base]=""                                   # the product, built the same way
  [nochoose]="EXP_NOCHOOSE"                   # no fact test (the variant bound stays)
  [noactset]="EXP_NOACTSET"                   # no bind of the layer's set per action slot
  [sameset]="EXP_SAMESET"                     # that bind, of slot 0's set every time
  [nosnap]="EXP_NOSNAP"                       # no snapshot of the bound sets per action
  [nodescbind]="EXP_NODESCBIND"               # app binds not followed (no snapshot, no test)
  [noactrec]="EXP_NOACTREC"                   # no action record
  [novcheck]="EXP_NOVCHECK"                   # no vertex_fetch_oob test on the CPU
  [pass]="EXP_NOACTION EXP_NODESCBIND"        # binds and draws passed down, nothing else
  [oneset]="EXP_ONESET"                       # the action-slot sets made one at a time (before 6ccddad)
)
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(base nochoose noactset sameset nosnap nodescbind noactrec novcheck pass oneset)
patch=bench/exp/drawpieces/experiment.patch
tmp=$root/build/exp/drawpieces
rm -rf "$tmp"; mkdir -p "$tmp/_tree/layer"
files=$(sed -n 's#^+++ b/##p' "$patch")
for f in $files; do cp "$f" "$tmp/_tree/$f"; done
patch -s -p1 -d "$tmp/_tree" < "$patch"
{
  printf '{"Replace": {'
  sep=
  for f in $files; do printf '%s\n  "%s": "%s"' "$sep" "$root/$f" "$tmp/_tree/$f"; sep=,; done
  printf '\n}}\n'
} > "$tmp/overlay.json"
for name in "${names[@]}"; do
  [ -n "${builds[$name]+x}" ] || { echo "no build $name" >&2; exit 2; }
  flags="-O2"
  for m in ${builds[$name]}; do flags="$flags -D$m"; done
  out=bin/exp/draw-$name
  mkdir -p "$out"
  CGO_CFLAGS="$flags" go build -overlay "$tmp/overlay.json" -buildmode=c-shared \
    -ldflags "-extldflags=-Wl,--version-script=$root/layer/exports.map" -o "$out/libVkLayer_gpuav_dbg.so" ./layer
  rm -f "$out/libVkLayer_gpuav_dbg.h"; cp layer/VkLayer_gpuav_dbg.json "$out/"
  echo "built $out"
done
