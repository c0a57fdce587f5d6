#!/bin/bash
# The index-from-memory hot loop's gap to its hand-written select reference
# (docs/BENCHMARKS.md, "The index-from-memory hot loop"; bench/exp/README.md,
# the memgap-* experiments): the hot-loop scene's memory variant with no
# layer (none), the reference with no layer (ref:select), under the
# product's layer (bin) and under each experiment layer (bin/exp/NAME),
# every check on. First, under each layer, the exactness check: --bad-index
# with 16 workgroups (4,096 failing reads) must give one descriptor_index_oob
# group, 4,095 records + 1 dropped, and the app's results exact (the scene
# exits 0 only then). Then REPS repetitions of every configuration,
# alternating; per configuration the median and the minimum over the runs
# of each run's median iteration, and its ratio to none.
#
#   bash bench/measure/memgap.sh build   # here: bench/exp/build.sh EXPS, stripped, only the layers kept
#   bash scripts/hardware/run.sh memgap  # there (or here: lavapipe)
#
# EXPS (default memgap-record; memgap-nosink and memgap-lookup are against 2956037), CHECK=0 skips the exactness
# checks (bin/gpuav-dbg need not travel then),
# WORKGROUPS (default 65536; 2048 on lavapipe), ITERS (default 20; 5 on
# lavapipe), WARMUP (default 3), REPS (default 3). Files: $OUT/memgap-*.txt.
set -u
. scripts/hardware/env.sh || exit 1
exps=${EXPS:-memgap-record}
if [ "${1:-}" = build ]; then
  bash bench/exp/build.sh $exps >/dev/null || exit 1
  # Only the layers travel (bin/ goes to the NVIDIA machine): the launcher
  # of bin/ runs each of them through GPUAV_DBG_LAYER_PATH.
  for e in $exps; do
    rm -f "bin/exp/$e/gpuav-dbg" "bin/exp/$e/instr"
    strip --strip-debug "bin/exp/$e/libVkLayer_gpuav_dbg.so" || exit 1
  done
  du -sh bin/exp
  exit 0
fi
hw_device
export MESA_SHADER_CACHE_DISABLE=1 __GL_SHADER_DISK_CACHE=0
export VK_LAYER_GPUAV_DBG_CHECK_BUFFER_OOB=1 VK_LAYER_GPUAV_DBG_SIZED_ELEMENT_CHECKS=1
lavapipe=$([ "$HW_ICD" = lavapipe ] && echo 1 || echo "")
wg=${WORKGROUPS:-$([ -n "$lavapipe" ] && echo 2048 || echo 65536)}
iters=${ITERS:-$([ -n "$lavapipe" ] && echo 5 || echo 20)}
configs="none ref:select bin"
for e in $exps; do configs+=" bin/exp/$e"; done
failed=0

# The exactness check of each layer.
for c in $configs; do
  case $c in none | ref:*) continue ;; esac
  [ "${CHECK:-1}" = 0 ] && break
  log=$OUT/memgap-check-${c//\//_}.txt
  GPUAV_DBG_LAYER_PATH=$PWD/$c bin/gpuav-dbg run --headless --json "$log.json" -- bin/bench/scene --scene hotloop \
    --variant memory --workgroups 16 --warmup 0 --iters 1 --bad-index >"$log" 2>&1
  groups=$(grep -c '"check": "descriptor_index_oob"' "$log.json")
  summary=$(grep -o '1 error group (4095 records), 1 records dropped; app exited 0' "$log")
  if [ "$groups" = 1 ] && [ -n "$summary" ]; then
    echo "check $c: exact (1 descriptor_index_oob group, 4095 records + 1 dropped, app exited 0)"
  else
    echo "check $c: NOT EXACT ($groups descriptor_index_oob groups):"; tail -4 "$log"
    failed=1
  fi
done

# The timed runs.
all=$OUT/memgap-runs.txt
: >"$all"
for rep in $(seq "${REPS:-3}"); do
  line="rep $rep:"
  for c in $configs; do
    variant=memory run=()
    case $c in
      none) ;;
      ref:*) variant=${c#ref:} ;;
      *) run=(env VK_ADD_LAYER_PATH="$PWD/$c" VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation) ;;
    esac
    out=$("${run[@]}" bin/bench/scene --scene hotloop --variant "$variant" --workgroups "$wg" \
      --warmup "${WARMUP:-3}" --iters "$iters" 2>&1)
    if ! grep -q "bench: check ok" <<<"$out"; then
      echo "memgap.sh: $c failed:"; tail -5 <<<"$out"
      failed=1
      continue
    fi
    med=$(awk '/^bench: iter/{print $4}' <<<"$out" | sort -n |
      awk '{a[NR]=$1} END {printf "%.1f", a[int((NR+1)/2)]/1e3}')
    echo "$c $med" >>"$all"
    line+=" $c $med us"
  done
  echo "$line"
done
echo "hot loop, memory variant, $wg workgroups, $iters iterations: each run's median iteration, over ${REPS:-3} runs:"
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
base=$(awk '$1 == "none" {print $2}' "$all" | median)
for c in $configs; do
  med=$(awk -v c="$c" '$1 == c {print $2}' "$all" | median)
  min=$(awk -v c="$c" '$1 == c {print $2}' "$all" | sort -n | head -1)
  [ -n "$min" ] && awk -v c="$c" -v m="$med" -v n="$min" -v b="$base" \
    'BEGIN {printf "%-22s median %9.1f us %6.3fx   min %9.1f us\n", c, m, m / b, n}'
done | tee "$OUT/memgap-summary.txt"
exit $failed
