#!/bin/bash
# Run from the repo root on the NVIDIA machine (carry bin and .gl; first
# scripts/build-layer-tests.sh and scripts/build-experiments.sh here, and
# leave out of bin/ what does not fit the 64 MiB: bin/bench, bin/exp/neither,
# bin/exp/no-snapshot). The per-draw recording cost of `multi --mode bench`
# (4,000 vkCmdDraw, best of 5) with no layer, the layer, and the one-slot and
# dynamic-offset experiment builds; plain, and with the app binding set 0
# before every draw (--bind-per-draw). Two repetitions.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
B=bin/layer-tests; A="--mode bench --comp $B/multi_compute.spv --vert $B/fullscreen.vert.spv --frag $B/oob_store.frag.spv --draws 4000"
for rep in 1 2; do
  for bpd in "" --bind-per-draw; do
    $B/multi $A $bpd | head -1 | sed "s/^/none $bpd: /"
    for v in bin bin/exp/one-slot bin/exp/dynamic; do
      [ -d $v ] || continue
      VK_ADD_LAYER_PATH=$PWD/$v VK_INSTANCE_LAYERS=VK_LAYER_GPUAVDBG_validation $B/multi $A $bpd | head -1 | sed "s|^|$v $bpd: |"
    done
  done
done
