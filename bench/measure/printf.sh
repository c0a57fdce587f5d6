#!/bin/bash
# What debugPrintfEXT costs (docs/BENCHMARKS.md, "Printf"):
#  1. a printf that is never reached: a compute scene under gpuav-dbg with
#     its shader as it is (plain) and with a debugPrintfEXT in its loop
#     under a branch never taken, under every configuration side by side:
#       never     the product's instrumentation
#       off       the product with printf off (the call removed, the empty
#                 branch left: what the shader's own test costs)
#       native, native-store  (SCENE=hotloop) no layer: the shader as it is,
#                 and with a plain store (o[g] = i) where the printf is:
#                 what any write under the loop's never-taken branch costs
#                 the shader with no tool at all
#       printf-*  each experiment of bench/exp/printf-*/ built into
#                 bin/exp/ (`bash bench/measure/printf.sh build` builds
#                 those of EXPS, default the ones the GPU has not settled:
#                 printf-defer printf-floor printf-vote printf-flatten;
#                 bench/exp/README.md says what each changes)
#     REPS repetitions of all of them, alternating: the median over the
#     runs of each run's median, the fastest iteration of all (on a shared
#     machine, load only adds), each run's CPU time (user + system:
#     lavapipe's threads, steadier than wall time under load), and each
#     configuration's instrumented module size (words of the fast variant,
#     which the layer runs here, measured at build time). SCENE=hotloop
#     (default: the hot-loop scene's masked variant; the branch is
#     acc == 0xFFFFFFFF, which its sums never reach) or
#     SCENE=shader (shader-heavy; the branch is pc.bias == 0xFFFFFFFF);
#     CONFIGS="never off ..." picks configurations (plain always runs);
#  2. printing from every invocation of a 1M-invocation dispatch
#     (printfapp --case grid --groups 1024 512: 1,048,576 lines of 15
#     words) under `gpuav-dbg run --headless --json`: the run's wall time
#     against the same run with --printf off, and the lines the report has.
# From the repository root after `make build bench-apps`: bash
# bench/measure/printf.sh (or as a step of scripts/hardware/run.sh, after
# `bash bench/measure/printf.sh build` here). Files: $OUT/printf-*.txt.
#   REPS=N    repetitions of part 1 (default 5)
#   ITERS=N   timed iterations per run (default 20; 5 on lavapipe)
#   LOOPS=N   shader-heavy's --loops (default 1024; 256 on lavapipe)
#   WORKGROUPS=N  the hot-loop scene's --workgroups (default 65536; on
#             lavapipe 4096 keeps a run under a minute)
#   PART=1|2  run one part only
set -u
. scripts/hardware/env.sh || exit 1
hw_device
export MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0
lavapipe=$([ "$HW_ICD" = lavapipe ] && echo 1 || echo "")
iters=${ITERS:-$([ -n "$lavapipe" ] && echo 5 || echo 20)}
loops=${LOOPS:-$([ -n "$lavapipe" ] && echo 256 || echo 1024)}
reps=${REPS:-5}
# The apps and shaders, built here into bin/bench/printf/ (`bash
# bench/measure/printf.sh build` on a machine with cc and glslang; the
# NVIDIA machine has neither: build first, carry bin/).
pre=bin/bench/printf
# printf-line and printf-noinline (2.15x on the H100) are settled: built
# only when EXPS names them, so that bin/ stays small enough to carry.
exps=${EXPS:-printf-defer printf-floor printf-vote printf-flatten}
build() {
  mkdir -p "$pre/spv/printf" || return 1
  cp bin/bench/spv/*.spv "$pre/spv/" && cp bin/bench/spv/*.spv "$pre/spv/printf/" || return 1
  # The variants: a printf at the end of each scene's loop body.
  sed -e 's/^#version 450$/#version 450\n#extension GL_EXT_debug_printf : require/' \
      -e 's|^\(        acc += textureLod(texs\[k ^ 1u\], uv, 0.0);\)$|\1\n        if (pc.bias == 0xFFFFFFFFu) debugPrintfEXT("acc %v4f at %u of %u", acc, i, g);|' \
      bench/scenes/shaders/shader.comp >"$pre/shader.comp"
  sed -e 's/^#version 450$/#version 450\n#extension GL_EXT_debug_printf : require/' \
      -e 's|^\(        acc += bufs\[k\].*\)$|\1\n        if (acc == 0xFFFFFFFFu) debugPrintfEXT("acc %u at %u of %u", acc, i, g);|' \
      bench/scenes/shaders/hotloop_masked.comp >"$pre/hotloop_masked.comp"
  for f in shader.comp hotloop_masked.comp; do
    grep -q debugPrintfEXT "$pre/$f" || { echo "printf.sh: $f did not take the printf" >&2; return 1; }
    glslangValidator -g --target-env vulkan1.1 -o "$pre/spv/printf/$f.spv" "$pre/$f" >/dev/null &&
      spirv-val --target-env vulkan1.1 "$pre/spv/printf/$f.spv" || return 1
  done
  # native-store's shader: a plain store where the printf is.
  mkdir -p "$pre/spv/store" && cp bin/bench/spv/*.spv "$pre/spv/store/" || return 1
  sed -e 's|debugPrintfEXT(.*);$|o[g] = i;|' "$pre/hotloop_masked.comp" >"$pre/hotloop_store.comp"
  grep -q 'if (acc == 0xFFFFFFFFu) o\[g\] = i;' "$pre/hotloop_store.comp" ||
    { echo "printf.sh: hotloop_store.comp did not take the store" >&2; return 1; }
  glslangValidator -g --target-env vulkan1.1 -o "$pre/spv/store/hotloop_masked.comp.spv" "$pre/hotloop_store.comp" \
    >/dev/null && spirv-val --target-env vulkan1.1 "$pre/spv/store/hotloop_masked.comp.spv" || return 1
  rm -rf bin/exp/printf-*
  bash bench/exp/build.sh $exps >/dev/null || return 1
  # Each configuration's instrumented modules (every check on, as the
  # layer's defaults): the size in words of their fast variants.
  go build -o "$pre/instr" ./bench/internal/instr || return 1
  : >"$pre/words.txt"
  for c in never $exps; do
    tool=$pre/instr
    [ "$c" = never ] || tool=bin/exp/$c/instr
    mkdir -p "$pre/instr-$c"
    "$tool" -fast -o "$pre/instr-$c" "$pre/spv/printf/shader.comp.spv" "$pre/spv/printf/hotloop_masked.comp.spv" |
      sed "s/^/$c /" >>"$pre/words.txt" || return 1
    for f in "$pre/instr-$c"/*.spv; do spirv-val --target-env vulkan1.1 "$f" || return 1; done
  done
  # What the GPU run does not need stays here (bin/ travels to the NVIDIA
  # machine, 64 MiB with .gl/): the experiments' CLI and instr, and their
  # layers' debug information (5 MiB a layer instead of 7).
  rm -rf "$pre/instr" "$pre"/instr-* bin/exp/printf-*/gpuav-dbg bin/exp/printf-*/instr
  strip --strip-debug bin/exp/printf-*/libVkLayer_gpuav_dbg.so || return 1
  cc -O2 -Wall -std=c11 -I internal/capp -o "$pre/printfapp" e2e/testdata/checks/printfapp.c internal/capp/capp.c \
    -lvulkan -lpthread -lm || return 1
  (cd e2e/testdata/checks && glslangValidator -g --target-env vulkan1.2 -o "$OLDPWD/$pre/printf_grid.comp.spv" \
    printf_grid.comp >/dev/null)
}
if [ "${1:-}" = build ] || [ ! -f "$pre/spv/printf/hotloop_masked.comp.spv" ]; then
  build || { echo "printf.sh: cannot build $pre (make build bench-apps first; needs cc and glslang)" >&2; exit 1; }
  [ "${1:-}" = build ] && exit 0
fi
spv=$pre/spv
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
scene=${SCENE:-hotloop}
case $scene in
  hotloop) args=(--scene hotloop --variant masked --workgroups "${WORKGROUPS:-65536}") ;;
  shader) args=(--scene shader --loops "$loops") ;;
  *) echo "printf.sh: SCENE is hotloop or shader" >&2; exit 2 ;;
esac
run_scene() { # $1 spv dir, $2 output file; the layer from $HW_LAYER_DIR (default bin/), none with NOLAYER=1
  local with=hw_ours
  [ -n "${NOLAYER:-}" ] && with=env
  $with /usr/bin/time -f "%U %S" -o "$2.cpu" bin/bench/scene "${args[@]}" --spv "$1" --warmup 2 --iters "$iters" \
    >"$2" 2>&1
  grep -q "bench: check ok" "$2" || { echo "printf.sh: scene failed ($2)" >&2; cat "$2" >&2; exit 1; }
}
cpu() { for f in "$@"; do awk '{print $1 + $2}' "$f.cpu"; done | median; }
fastest() { awk '/^bench: iter/{print $4/1e6}' "$@" | sort -n | head -1; }
runmedian() { for f in "$@"; do awk '/^bench: iter/{print $4/1e6}' "$f" | median; done | median; }
# The configurations: plain, then CONFIGS (default never, off and every
# experiment built into bin/exp/printf-*).
natives=$([ "$scene" = hotloop ] && echo "native native-store")
configs=${CONFIGS:-"never off $natives $(cd bin/exp 2>/dev/null && ls -d printf-* 2>/dev/null | tr '\n' ' ')"}
run_config() { # $1 configuration, $2 repetition
  local f=$OUT/printf-$1-$2.txt
  case $1 in
    plain) run_scene "$spv" "$f" ;;
    never) run_scene "$spv/printf" "$f" ;;
    off) VK_LAYER_GPUAV_DBG_PRINTF=0 run_scene "$spv/printf" "$f" ;;
    native) NOLAYER=1 run_scene "$spv" "$f" ;;
    native-store) [ "$scene" = hotloop ] || { echo "printf.sh: native-store is SCENE=hotloop's" >&2; exit 2; }
      NOLAYER=1 run_scene "$spv/store" "$f" ;;
    *) [ -f "bin/exp/$1/libVkLayer_gpuav_dbg.so" ] || { echo "printf.sh: no bin/exp/$1 (build first)" >&2; exit 1; }
       HW_LAYER_DIR=bin/exp/$1 run_scene "$spv/printf" "$f" ;;
  esac
}
if [ "${PART:-1}" = 1 ]; then
  echo "== 1. a printf never reached: ${args[*]}, $iters iterations, $reps repetitions; plain $configs"
  for rep in $(seq "$reps"); do
    line="rep $rep:"
    for c in plain $configs; do
      run_config "$c" "$rep"
      line+=$(printf " %s %.2f" "$c" "$(awk '/^bench: iter/{print $4/1e6}' "$OUT/printf-$c-$rep.txt" | median)")
    done
    echo "$line ms"
  done
  p=$(runmedian "$OUT"/printf-plain-*.txt) pf=$(fastest "$OUT"/printf-plain-*.txt) pc=$(cpu "$OUT"/printf-plain-*.txt)
  words=$pre/words.txt
  printf "%-16s %10s %7s %12s %7s %10s %7s  %s\n" config "median ms" ratio "fastest ms" ratio "CPU s" ratio "words: module/entry function (shader, hotloop)"
  for c in plain $configs; do
    m=$(runmedian "$OUT"/printf-$c-*.txt) f=$(fastest "$OUT"/printf-$c-*.txt) u=$(cpu "$OUT"/printf-$c-*.txt)
    w=$( [ -f "$words" ] && awk -v c="$c" '$1 == c {sub(/\)/, "", $16); printf "%s/%s ", $9, $16}' "$words")
    awk -v c="$c" -v m="$m" -v p="$p" -v f="$f" -v pf="$pf" -v u="$u" -v pc="$pc" -v w="$w" \
      'BEGIN {printf "%-16s %10.3f %6.3fx %12.3f %6.3fx %10.2f %6.3fx  %s\n", c, m, m / p, f, f / pf, u, u / pc, w}'
  done
fi
[ "${PART:-2}" = 2 ] || exit 0

echo "== 2. every invocation of a 1M-invocation dispatch prints"
app=$pre/printfapp
for mode in on off; do
  start=$(date +%s.%N)
  bin/gpuav-dbg run --headless --json "$OUT/printf-1m-$mode.json" --session "$OUT/printf-1m-$mode.gvs" \
    --printf "$mode" --printf-buffer $((64 << 20)) -- "$app" --shaders "$pre" --case grid --groups 1024 512 \
    >"$OUT/printf-1m-$mode.txt" 2>&1
  end=$(date +%s.%N)
  lines=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(sum(g['count'] for g in r.get('printf', [])), r.get('printf_lines_lost', 0))" "$OUT/printf-1m-$mode.json")
  awk -v s="$start" -v e="$end" -v m="$mode" -v l="$lines" 'BEGIN {printf "printf %s: %.2f s wall, lines (printed, lost): %s\n", m, e - s, l}'
done
