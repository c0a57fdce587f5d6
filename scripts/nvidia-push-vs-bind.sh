#!/bin/bash
# Run from the repo root on the NVIDIA machine after
# scripts/build-layer-tests.sh (carry bin and .gl). What the driver itself
# charges per draw for a 4-byte vkCmdPushConstants against a
# vkCmdBindDescriptorSets of one set (no layer): `multi --mode bench`, 4,000
# draws, best of 5 recordings, seven runs each in turn; the minimum over the
# runs is the host's fast speed (docs/BENCHMARKS.md, "two speeds"). For the
# planned action index without a bind (docs/decisions/action-index-push-constant.md).
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
B=bin/layer-tests; A="--mode bench --comp $B/multi_compute.spv --vert $B/fullscreen.vert.spv --frag $B/oob_store.frag.spv --draws 4000"
for v in draw push bind; do : > /tmp/pvb-$v; done
for rep in 1 2 3 4 5 6 7; do
  $B/multi $A | sed -n 's/ns_per_draw=//p' >> /tmp/pvb-draw
  $B/multi $A --push-per-draw | sed -n 's/ns_per_draw=//p' >> /tmp/pvb-push
  $B/multi $A --bind-per-draw | sed -n 's/ns_per_draw=//p' >> /tmp/pvb-bind
done
for v in draw push bind; do echo "$v: $(sort -n /tmp/pvb-$v | tr '\n' ' ')"; done
