#!/bin/bash
# Run from the repo root on an NVIDIA machine with no Vulkan loader: .gl/ holds
# the Debian debs (libvulkan1, libglvnd libs; .gl/vvl/ the Khronos layer),
# bin/ the binaries built here. See docs/HARDWARE.md.
# Runs the demo under gpuav-dbg (and under Khronos GPU-AV) on the device machine.
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
export XDG_RUNTIME_DIR=/tmp/xdg; mkdir -p $XDG_RUNTIME_DIR; chmod 700 $XDG_RUNTIME_DIR
mkdir -p /tmp/vvl && dpkg -x .gl/vvl/*.deb /tmp/vvl
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== demo --clean, no layer"; bin/demo --clean; echo "rc=$?"
echo "== gpuav-dbg headless demo"; bin/gpuav-dbg run --headless --json $OUT/nvidia-demo.json --session $OUT/nvidia-demo.gvs -- bin/demo; echo "rc=$?"
echo "== gpuav-dbg headless demo --clean"; bin/gpuav-dbg run --headless --json $OUT/nvidia-clean.json -- bin/demo --clean; echo "rc=$?"
echo "== Khronos GPU-AV"; VK_ADD_LAYER_PATH=/tmp/vvl/usr/share/vulkan/explicit_layer.d LD_LIBRARY_PATH=/tmp/vvl/usr/lib/x86_64-linux-gnu \
  VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation VK_LAYER_ENABLES=VK_VALIDATION_FEATURE_ENABLE_GPU_ASSISTED_EXT bin/demo 2>&1 | grep -E "vk error|demo:" | cut -c1-400; echo "rc=${PIPESTATUS[0]}"
