#!/bin/bash
# Run from the repo root on the NVIDIA machine (carry bin and .gl; make
# build bench-apps and scripts/build-experiments.sh first). The draw scene's
# recording time (BENCH_PHASES=1, 30 iterations after 3 warm-up) with no
# layer, the layer and the one-slot and slot4 experiment builds, three runs
# unpinned and three pinned to one CPU; prints min, median and max record
# ms per run (the host runs in two speeds: docs/BENCHMARKS.md).
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
export __GL_SHADER_DISK_CACHE=0
nproc; lscpu | grep -E "Model name|NUMA node|Thread" | head -5
st() { awk '/^phase: iter/{print $5/1e6}' | sort -n | awk '{a[NR]=$1} END {printf "min %.3f med %.3f max %.3f", a[1], a[int((NR+1)/2)], a[NR]}'; }
for pin in "" "taskset -c 3"; do
for rep in 1 2 3; do
  for v in none bin bin/exp/one-slot bin/exp/slot4; do
    if [ $v = none ]; then E="A=1"; else E="VK_ADD_LAYER_PATH=$PWD/$v VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation"; fi
    r=$(env $E BENCH_PHASES=1 $pin bin/bench/scene --scene draw --spv bin/bench/spv --warmup 3 --iters 30 2>&1 | st)
    printf "%-14s rep %d %-18s record %s\n" "${pin:-unpinned}" $rep $v "$r"
  done
done
done
